/* SPDX-License-Identifier: MIT
 * Single-copy node collectives (protocol in coll_shm.h): each rank
 * publishes the address of its input in its control line; peers read what
 * they need from it with cross-memory attach (the transport's getv) straight
 * into their outputs and flag it in their done line; the owner returns
 * only when all its readers are done. One copy per block instead of the two
 * through a slot or ring, and no size limit.
 *
 * Whether the path applies depends on what every rank of the node agrees
 * on: the shm transport enables getv only when the cross-memory probe
 * succeeded at every local rank (RDMX_SHM_CMA), and node_select.c chooses
 * by sizes every rank knows. */
#include "coll_shm.h"
#include "util/status.h"

#include <stdlib.h>
#include <sys/uio.h>

/* Cross-memory attach to every other member, through the transport that
 * reaches it (shm; getv is single-copy only when the probe passed). */
static int rx_dir_probe(rx_shm_state_t *st)
{
    rx_comm_t *c = st->c;
    for (int j = 0; j < c->size; j++) {
        if (j == c->rank)
            continue;
        rx_tl_t *tl = rx_rt.peer_tl[c->world[j]];
        if (!tl || !(tl->caps & RX_TL_CAP_GETV))
            return 0;
    }
    rx_tl_t *tl = rx_rt.peer_tl[c->world[(c->rank + 1) % c->size]];
    rx_rkey_t rk;
    if (tl->ops->mem_reg(tl, st, sizeof *st, &rk) != RX_OK)
        return 0;
    st->pid = rk.key;
    return 1;
}

int rx_shm_direct_usable(rx_shm_state_t *st)
{
    if (st->cma < 0)
        st->cma = rx_dir_probe(st);
    return st->cma;
}

/* My input for s is at addr (NULL: I only arrive). */
static void rx_dir_publish(rx_shm_state_t *st, const void *addr, uint64_t s)
{
    rx_may_write(st, s);
    rx_shm_line_t *l = rx_ctrl(st, st->c->rank, s);
    uint64_t v[2] = {(uint64_t)(uintptr_t)addr, st->pid};
    memcpy(l->data, v, sizeof v);
    rx_st(&l->seq, s);
}

/* Read n bytes at offset off of rank j's input of s into dst. */
static int rx_dir_read(rx_shm_state_t *st, int j, uint64_t s, size_t off, void *dst, size_t n)
{
    rx_shm_line_t *l = rx_ctrl(st, j, s);
    rx_shm_wait(&l->seq, s);
    if (!n)
        return RX_OK;
    uint64_t v[2];
    memcpy(v, l->data, sizeof v);
    rx_rkey_t rk = {v[0], v[1]};
    struct iovec lo = {dst, n}, re = {(void *)(uintptr_t)(v[0] + off), n};
    int w = st->c->world[j];
    rx_tl_t *tl = rx_rt.peer_tl[w];
    return tl->ops->getv(tl, w, &lo, 1, &re, 1, &rk);
}

/* Done reading for s; with all, wait until every rank is (my input is no
 * longer read, and everyone has arrived at s). */
static void rx_dir_done(rx_shm_state_t *st, uint64_t s, int all)
{
    int me = st->c->rank;
    rx_st(&st->done[me].seq, s);
    if (!all)
        return;
    for (int j = 0; j < st->c->size; j++)
        if (j != me)
            rx_shm_wait(&st->done[j].seq, s);
    st->arrived = s;
}

int rx_shm_direct_bcast(rx_shm_state_t *st, void *buf, size_t bytes, int root)
{
    uint64_t s = ++st->seq;
    int me = st->c->rank, rc = RX_OK;
    /* receivers publish their arrival too: a later collective's
     * rx_may_write counts on every line reaching s */
    rx_dir_publish(st, me == root ? buf : NULL, s);
    if (me != root)
        rc = rx_dir_read(st, root, s, 0, buf, bytes);
    rx_dir_done(st, s, me == root);
    return rc;
}

/* sbuf NULL: in place, my block already lies in rbuf. */
int rx_shm_direct_allgather(rx_shm_state_t *st, const void *sbuf, size_t bytes, void *rbuf)
{
    uint64_t s = ++st->seq;
    int p = st->c->size, me = st->c->rank, rc = RX_OK;
    char *out = rbuf;
    rx_dir_publish(st, sbuf ? sbuf : out + (size_t)me * bytes, s);
    if (sbuf && bytes)
        memcpy(out + (size_t)me * bytes, sbuf, bytes);
    for (int i = 1; i < p; i++) {
        int j = (me + i) % p;
        int r = rx_dir_read(st, j, s, 0, out + (size_t)j * bytes, bytes);
        rc = rc != RX_OK ? rc : r;
    }
    rx_dir_done(st, s, 1);
    return rc;
}

int rx_shm_direct_alltoall(rx_shm_state_t *st, const void *sbuf, size_t bytes, void *rbuf)
{
    int p = st->c->size, me = st->c->rank, rc = RX_OK;
    size_t all = bytes * (size_t)p, mine = (size_t)me * bytes;
    void *tmp = NULL;
    if (sbuf == rbuf && bytes) {
        /* in place: peers read my input while I overwrite it, so they read
         * a copy */
        if (!(tmp = malloc(all)))
            return RX_ERR_NOMEM;
        memcpy(tmp, rbuf, all);
        sbuf = tmp;
    }
    uint64_t s = ++st->seq;
    char *out = rbuf;
    rx_dir_publish(st, sbuf, s);
    if (bytes && sbuf != rbuf)
        memcpy(out + mine, (const char *)sbuf + mine, bytes);
    for (int i = 1; i < p; i++) {
        int j = (me + i) % p;
        int r = rx_dir_read(st, j, s, mine, out + (size_t)j * bytes, bytes);
        rc = rc != RX_OK ? rc : r;
    }
    rx_dir_done(st, s, 1);
    free(tmp);
    return rc;
}
