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
 * succeeded at every local rank (RDMX_SHM_CMA), and the callers choose by
 * sizes every rank knows. */
#include "coll_shm.h"
#include "offload.h"
#include "util/status.h"

#include <stdlib.h>
#include <sys/uio.h>

/* Cross-memory attach to every other member, through the transport that
 * reaches it (shm; getv is present only when the probe passed). */
static int rx_dir_usable(rx_shm_state_t *st)
{
    rx_comm_t *c = st->c;
    for (int j = 0; j < c->size; j++) {
        if (j == c->rank)
            continue;
        rx_tl_t *tl = rx_rt.peer_tl[c->world[j]];
        if (!tl || !tl->getv || !tl->mem_reg || !(tl->caps & RX_TL_CAP_GET))
            return 0;
    }
    rx_tl_t *tl = rx_rt.peer_tl[c->world[(c->rank + 1) % c->size]];
    rx_rkey_t rk;
    if (tl->mem_reg(tl, st, sizeof *st, &rk) != RX_OK)
        return 0;
    st->pid = rk.key;
    return 1;
}

static rx_shm_state_t *rx_dir_get(rx_comm_t *c, int kind)
{
    rx_shm_state_t *st = rx_shm_get(c, 0, kind);
    if (!st)
        return NULL;
    if (st->cma < 0)
        st->cma = rx_dir_usable(st);
    return st->cma ? st : NULL;
}

rx_shm_state_t *rx_shm_direct_state(rx_comm_t *c, int kind)
{
    rx_shm_state_t *st = rx_shm_get_for(c, 0, kind, 1);
    if (st && st->cma < 0)
        st->cma = rx_dir_usable(st);
    return st && st->cma ? st : NULL;
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
    return tl->getv(tl, w, &lo, 1, &re, 1, &rk);
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

int rx_shm_direct_bcast(void *buf, size_t bytes, int root, rx_comm_t *c)
{
    rx_shm_state_t *st = rx_dir_get(c, RX_COLL_BCAST);
    if (!st)
        return RX_ERR_AGAIN;
    uint64_t s = ++st->seq;
    int me = c->rank, rc = RX_OK;
    /* receivers publish their arrival too: a later collective's
     * rx_may_write counts on every line reaching s */
    rx_dir_publish(st, me == root ? buf : NULL, s);
    if (me != root)
        rc = rx_dir_read(st, root, s, 0, buf, bytes);
    rx_dir_done(st, s, me == root);
    return rc;
}

/* sbuf NULL: in place, my block already lies in rbuf. */
int rx_shm_direct_allgather(const void *sbuf, size_t bytes, void *rbuf, rx_comm_t *c)
{
    rx_shm_state_t *st = rx_dir_get(c, RX_COLL_ALLGATHER);
    if (!st)
        return RX_ERR_AGAIN;
    uint64_t s = ++st->seq;
    int p = c->size, me = c->rank, rc = RX_OK;
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

int rx_shm_direct_alltoall(const void *sbuf, size_t bytes, void *rbuf, rx_comm_t *c)
{
    int p = c->size, me = c->rank, rc = RX_OK;
    size_t all = bytes * (size_t)p, mine = (size_t)me * bytes;
    if (bytes && all / bytes != (size_t)p)
        return RX_ERR_AGAIN;
    rx_shm_state_t *st = rx_dir_get(c, RX_COLL_ALLTOALL);
    if (!st)
        return RX_ERR_AGAIN;
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

/* Read n bytes at addr in the memory of rank j (remote key pid). */
static int rx_dir_read_at(rx_shm_state_t *st, int j, uint64_t addr, uint64_t pid, void *dst,
                          size_t n)
{
    if (!n)
        return RX_OK;
    rx_rkey_t rk = {addr, pid};
    struct iovec lo = {dst, n}, re = {(void *)(uintptr_t)addr, n};
    int w = st->c->world[j];
    rx_tl_t *tl = rx_rt.peer_tl[w];
    return tl->getv(tl, w, &lo, 1, &re, 1, &rk);
}

/* elements of rank r's share of count: the first count % p ranks one more */
static void rx_dir_share(size_t count, int p, int r, size_t *lo, size_t *n)
{
    size_t q = count / (size_t)p, rem = count % (size_t)p, ur = (size_t)r;
    *lo = ur * q + (ur < rem ? ur : rem);
    *n = q + (ur < rem);
}

#define RX_DIR_RED_CHUNK 131072 /* bytes reduced per pass: stays in L2 */

/* Scratch of the direct reductions, per thread (the offload thread runs
 * them too) and kept between calls up to RX_DIR_KEEP: fresh memory for
 * every call costs a page fault per page, more than a 128 KiB reduction. */
#define RX_DIR_KEEP (16u << 20)
typedef struct {
    char *p;
    size_t cap;
} rx_dir_buf_t;
static __thread rx_dir_buf_t rx_dir_chunk, rx_dir_share_scratch;

static char *rx_dir_buf(rx_dir_buf_t *b, size_t bytes)
{
    if (bytes <= b->cap)
        return b->p;
    free(b->p);
    b->p = malloc(bytes);
    b->cap = b->p ? bytes : 0;
    return b->p;
}

static void rx_dir_buf_trim(rx_dir_buf_t *b, size_t keep)
{
    if (b->cap > keep) {
        free(b->p);
        b->p = NULL;
        b->cap = 0;
    }
}

void rx_shm_direct_scratch_free(void)
{
    rx_dir_buf_trim(&rx_dir_chunk, 0);
    rx_dir_buf_trim(&rx_dir_share_scratch, 0);
}

static int rx_dir_reduce(rx_shm_state_t *st, uint64_t s, const void *sbuf, void *rbuf,
                         size_t count, const rx_dtype_t *dt, const rx_opobj_t *op, int root);

int rx_shm_direct_allreduce(rx_shm_state_t *st, uint64_t s, const void *sbuf, void *rbuf,
                            size_t count, const rx_dtype_t *dt, const rx_opobj_t *op)
{
    return rx_dir_reduce(st, s, sbuf, rbuf, count, dt, op, -1);
}

int rx_shm_direct_reduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                         const rx_opobj_t *op, int root, rx_comm_t *c)
{
    rx_shm_state_t *st = rx_shm_direct_state(c, RX_COLL_REDUCE);
    if (!st)
        return RX_ERR_AGAIN;
    rx_coll_offload_drain(st); /* queued operations hold earlier sequence numbers */
    int rc = rx_dir_reduce(st, ++st->seq, sbuf, rbuf, count, dt, op, root);
    rx_dir_buf_trim(&rx_dir_share_scratch, RX_DIR_KEEP);
    return rc;
}

/* root < 0: allreduce. Otherwise a non-root combines its share into scratch
 * (its receive buffer means nothing) and only the root gathers the shares. */
static int rx_dir_reduce(rx_shm_state_t *st, uint64_t s, const void *sbuf, void *rbuf,
                         size_t count, const rx_dtype_t *dt, const rx_opobj_t *op, int root)
{
    rx_comm_t *c = st->c;
    int p = c->size, me = c->rank, rc = RX_OK;
    size_t ext = (size_t)dt->extent;
    const char *in = sbuf;
    char *out = rbuf;
    int in_place = sbuf == rbuf, gather = root < 0 || me == root;
    size_t lo, n;
    rx_dir_share(count, p, me, &lo, &n);
    if (!gather) {
        /* out + lo * ext is where peers would read my share: the scratch */
        char *sh = rx_dir_buf(&rx_dir_share_scratch, n * ext > 0 ? n * ext : 1);
        if (!sh)
            rc = RX_ERR_NOMEM;
        out = sh ? (char *)((uintptr_t)sh - lo * ext) : NULL;
        in_place = 0;
    }
    /* in place the own share of the input is overwritten while peers may
     * still read theirs: it is combined in a scratch chunk first */
    size_t per = ext ? RX_DIR_RED_CHUNK / ext : 0;
    if (per == 0)
        per = 1;
    char *tmp = rx_dir_buf(&rx_dir_chunk, per * ext * (in_place ? 2 : 1));
    if (!tmp)
        rc = RX_ERR_NOMEM; /* still take part, so peers are not left waiting */

    rx_may_write(st, s);
    rx_shm_line_t *l = rx_ctrl(st, me, s);
    uint64_t v[3] = {(uint64_t)(uintptr_t)in, st->pid, (uint64_t)(uintptr_t)out};
    memcpy(l->data, v, sizeof v);
    rx_st(&l->seq, s);
    uint64_t *peer = malloc(sizeof(uint64_t) * 3 * (size_t)p);
    if (!peer)
        rc = RX_ERR_NOMEM;
    for (int j = 0; j < p; j++) {
        rx_shm_wait(&rx_ctrl(st, j, s)->seq, s);
        if (peer)
            memcpy(peer + 3 * j, rx_ctrl(st, j, s)->data, 3 * sizeof(uint64_t));
    }

    /* my share: x_0 op (x_1 op (... op x_{p-1})), as the other paths */
    for (size_t off = lo; rc == RX_OK && off < lo + n; off += per) {
        size_t k = lo + n - off < per ? lo + n - off : per, b = k * ext;
        char *acc = in_place ? tmp : out + off * ext, *buf = in_place ? tmp + per * ext : tmp;
        if (p - 1 == me)
            memcpy(acc, in + off * ext, b);
        else
            rc = rx_dir_read_at(st, p - 1, peer[3 * (p - 1)] + off * ext, peer[3 * (p - 1) + 1],
                                acc, b);
        for (int j = p - 2; rc == RX_OK && j >= 0; j--) {
            const char *x = in + off * ext;
            if (j != me) {
                rc = rx_dir_read_at(st, j, peer[3 * j] + off * ext, peer[3 * j + 1], buf, b);
                x = buf;
            }
            if (rc == RX_OK)
                rx_opobj_apply(op, dt, x, acc, k);
        }
        if (rc == RX_OK && in_place)
            memcpy(out + off * ext, acc, b);
    }
    rx_st(&st->done[me].seq, s);

    /* the other shares, from their owners' outputs */
    for (int i = 1; gather && i < p; i++) {
        int j = (me + i) % p;
        rx_shm_wait(&st->done[j].seq, s);
        rx_dir_share(count, p, j, &lo, &n);
        if (rc == RX_OK)
            rc = rx_dir_read_at(st, j, peer[3 * j + 2] + lo * ext, peer[3 * j + 1], out + lo * ext,
                                n * ext);
    }
    rx_st(&st->fin[me].seq, s);
    for (int j = 0; j < p; j++)
        if (j != me)
            rx_shm_wait(&st->fin[j].seq, s);
    st->arrived = s;
    free(peer);
    return rc;
}
