/* SPDX-License-Identifier: MIT
 * Node-shared-memory gather, scatter, allgather and alltoall (protocol in
 * coll_shm.h): what a rank contributes goes into its line (up to 48 bytes)
 * or its slot, flagged with the collective's sequence number; readers copy
 * straight out of the contributors' slots. One copy in and one copy out per
 * block, no schedule, no request. A rank's whole contribution must fit one
 * slot (RDMX_COLL_SHM_MAX bytes): one block for gather and allgather, all
 * p blocks for scatter (the root) and alltoall; node_select.c sees to
 * that. */
#include "coll_shm.h"

/* Copy block `at` of every other rank's contribution (all bytes long) of s
 * to its place in out, each as it arrives, starting after my own rank. */
static void rx_collect(rx_shm_state_t *st, char *out, size_t bytes, size_t all, size_t at,
                       uint64_t s)
{
    int p = st->c->size, me = st->c->rank;
    for (int i = 1; i < p; i++) {
        int j = (me + i) % p;
        rx_shm_wait(&rx_ctrl(st, j, s)->seq, s);
        if (bytes)
            memcpy(out + (size_t)j * bytes, rx_contrib(st, j, all, s) + at, bytes);
    }
    st->arrived = s;
}

void rx_shm_slot_allgather(rx_shm_state_t *st, const void *sbuf, size_t bytes, void *rbuf)
{
    uint64_t s = ++st->seq;
    int me = st->c->rank;
    char *out = rbuf;
    rx_put_contrib(st, sbuf ? sbuf : out + (size_t)me * bytes, bytes, s);
    if (sbuf && bytes)
        memcpy(out + (size_t)me * bytes, sbuf, bytes);
    rx_collect(st, out, bytes, bytes, 0, s);
}

/* sbuf == rbuf (in place) works: the whole input is published before any
 * block of the output is written. */
void rx_shm_slot_alltoall(rx_shm_state_t *st, const void *sbuf, size_t bytes, void *rbuf)
{
    int p = st->c->size, me = st->c->rank;
    uint64_t s = ++st->seq;
    size_t all = bytes * (size_t)p, mine = (size_t)me * bytes;
    char *out = rbuf;
    rx_put_contrib(st, sbuf, all, s);
    if (bytes && sbuf != rbuf)
        memmove(out + mine, (const char *)sbuf + mine, bytes);
    rx_collect(st, out, bytes, all, mine, s);
}

/* sbuf NULL at the root: its block is already in place. */
void rx_shm_slot_gather(rx_shm_state_t *st, const void *sbuf, size_t bytes, void *rbuf, int root)
{
    uint64_t s = ++st->seq;
    int me = st->c->rank;
    if (me != root) {
        rx_put_contrib(st, sbuf, bytes, s);
        return;
    }
    /* the root publishes nothing but its arrival */
    rx_st(&rx_ctrl(st, me, s)->seq, s);
    char *out = rbuf;
    if (sbuf && bytes)
        memcpy(out + (size_t)me * bytes, sbuf, bytes);
    rx_collect(st, out, bytes, bytes, 0, s);
}

/* rbuf NULL at the root: its block stays where it is (in place). */
void rx_shm_slot_scatter(rx_shm_state_t *st, const void *sbuf, size_t bytes, void *rbuf,
                         int root)
{
    int p = st->c->size, me = st->c->rank;
    uint64_t s = ++st->seq;
    size_t all = bytes * (size_t)p, mine = (size_t)me * bytes;
    if (me == root) {
        rx_put_contrib(st, sbuf, all, s);
        if (rbuf && bytes)
            memcpy(rbuf, (const char *)sbuf + mine, bytes);
        return;
    }
    /* arrival, read by the root before it reuses this parity at s + 2 */
    rx_st(&rx_ctrl(st, me, s)->seq, s);
    rx_shm_wait(&rx_ctrl(st, root, s)->seq, s);
    if (bytes)
        memcpy(rbuf, rx_contrib(st, root, all, s) + mine, bytes);
}
