/* SPDX-License-Identifier: MIT
 * Node-shared-memory gather, scatter, allgather and alltoall (protocol in
 * coll_shm.h): what a rank contributes goes into its line (up to 48 bytes)
 * or its slot, flagged with the collective's sequence number; readers copy
 * straight out of the contributors' slots. One copy in and one copy out per
 * block, no schedule, no request. A rank's whole contribution must fit one
 * slot (RDMX_COLL_SHM_MAX bytes): one block for gather and allgather, all
 * p blocks for scatter (the root) and alltoall. */
#include "coll_shm.h"
#include "util/config.h"
#include "util/status.h"

/* Blocks of `bytes` go the direct way from the crossover on, and wherever
 * the contribution would not fit a slot. */
static int rx_direct_size(size_t bytes, size_t nblocks, size_t xo)
{
    long long max = rx_config()->COLL_SHM_MAX;
    return bytes >= xo || (nblocks && bytes > (max > 0 ? (size_t)max : 0) / nblocks);
}

/* Contribution sizes: allgather and gather one block, alltoall p blocks. */
static rx_shm_state_t *rx_shm_move_get(rx_comm_t *c, size_t block, size_t nblocks, int kind)
{
    if (nblocks && block > SIZE_MAX / nblocks)
        return NULL;
    return rx_shm_get(c, block * nblocks, kind);
}

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

int rx_coll_shm_allgather(const void *sbuf, size_t bytes, void *rbuf, rx_comm_t *c)
{
    if (rx_direct_size(bytes, 1, RX_XO_DIRECT_ALLGATHER)) {
        int rc = rx_shm_direct_allgather(sbuf, bytes, rbuf, c);
        if (rc != RX_ERR_AGAIN)
            return rc;
    }
    rx_shm_state_t *st = rx_shm_move_get(c, bytes, 1, RX_COLL_ALLGATHER);
    if (!st)
        return RX_ERR_AGAIN;
    uint64_t s = ++st->seq;
    int me = c->rank;
    char *out = rbuf;
    rx_put_contrib(st, sbuf ? sbuf : out + (size_t)me * bytes, bytes, s);
    if (sbuf && bytes)
        memcpy(out + (size_t)me * bytes, sbuf, bytes);
    rx_collect(st, out, bytes, bytes, 0, s);
    return RX_OK;
}

/* sbuf == rbuf (in place) works: the whole input is published before any
 * block of the output is written. */
int rx_coll_shm_alltoall(const void *sbuf, size_t bytes, void *rbuf, rx_comm_t *c)
{
    int p = c->size, me = c->rank;
    if (rx_direct_size(bytes, (size_t)p, RX_XO_DIRECT_ALLTOALL)) {
        int rc = rx_shm_direct_alltoall(sbuf, bytes, rbuf, c);
        if (rc != RX_ERR_AGAIN)
            return rc;
    }
    rx_shm_state_t *st = rx_shm_move_get(c, bytes, (size_t)p, RX_COLL_ALLTOALL);
    if (!st)
        return RX_ERR_AGAIN;
    uint64_t s = ++st->seq;
    size_t all = bytes * (size_t)p, mine = (size_t)me * bytes;
    char *out = rbuf;
    rx_put_contrib(st, sbuf, all, s);
    if (bytes && sbuf != rbuf)
        memmove(out + mine, (const char *)sbuf + mine, bytes);
    rx_collect(st, out, bytes, all, mine, s);
    return RX_OK;
}

/* sbuf NULL at the root: its block is already in place. */
int rx_coll_shm_gather(const void *sbuf, size_t bytes, void *rbuf, int root, rx_comm_t *c)
{
    rx_shm_state_t *st = rx_shm_move_get(c, bytes, 1, RX_COLL_GATHER);
    if (!st)
        return RX_ERR_AGAIN;
    uint64_t s = ++st->seq;
    int me = c->rank;
    if (me != root) {
        rx_put_contrib(st, sbuf, bytes, s);
        return RX_OK;
    }
    /* the root publishes nothing but its arrival */
    rx_st(&rx_ctrl(st, me, s)->seq, s);
    char *out = rbuf;
    if (sbuf && bytes)
        memcpy(out + (size_t)me * bytes, sbuf, bytes);
    rx_collect(st, out, bytes, bytes, 0, s);
    return RX_OK;
}

/* rbuf NULL at the root: its block stays where it is (in place). */
int rx_coll_shm_scatter(const void *sbuf, size_t bytes, void *rbuf, int root, rx_comm_t *c)
{
    int p = c->size, me = c->rank;
    rx_shm_state_t *st = rx_shm_move_get(c, bytes, (size_t)p, RX_COLL_SCATTER);
    if (!st)
        return RX_ERR_AGAIN;
    uint64_t s = ++st->seq;
    size_t all = bytes * (size_t)p, mine = (size_t)me * bytes;
    if (me == root) {
        rx_put_contrib(st, sbuf, all, s);
        if (rbuf && bytes)
            memcpy(rbuf, (const char *)sbuf + mine, bytes);
        return RX_OK;
    }
    /* arrival, read by the root before it reuses this parity at s + 2 */
    rx_st(&rx_ctrl(st, me, s)->seq, s);
    rx_shm_wait(&rx_ctrl(st, root, s)->seq, s);
    if (bytes)
        memcpy(rbuf, rx_contrib(st, root, all, s) + mine, bytes);
    return RX_OK;
}
