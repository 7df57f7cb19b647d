/* SPDX-License-Identifier: MIT
 * Direct reduction leaf of the node path: single-copy Allreduce and Reduce
 * (node_select.c takes it above the slot size), and what offload.c steps
 * for nonblocking calls (protocol in coll_shm.h). Each rank combines its
 * share of the vector from every input, read in place by cross-memory
 * attach, in rank order; then the shares are gathered from their owners'
 * outputs (a Reduce's non-roots combine theirs into scratch and only the
 * root gathers).
 *
 * Written as a state machine (rx_dir_op_step) so a thread can keep several
 * operations of different communicators going at once: MPI lets ranks
 * start nonblocking collectives of different communicators in different
 * orders, and running them one after the other would then deadlock. */
#include "coll_shm.h"
#include "util/status.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/uio.h>

enum { RX_DIR_PUBLISH, RX_DIR_PEERS, RX_DIR_REDUCE, RX_DIR_GATHER, RX_DIR_FIN, RX_DIR_DONE };

#define RX_DIR_RED_CHUNK 131072 /* bytes combined per pass: stays in L2 */

/* Scratch, per thread (the offload thread runs these too) and kept between
 * calls up to RX_DIR_KEEP: fresh memory for every call costs a page fault
 * per page, more than a 128 KiB reduction. A step that uses the chunk
 * finishes with it before returning, so operations in flight can share it. */
#define RX_DIR_KEEP (16u << 20)
typedef struct {
    char *p;
    size_t cap;
} rx_dir_buf_t;
static __thread rx_dir_buf_t rx_dir_chunk, rx_dir_share_scratch;

/* a thread of the application that ran one frees its scratch when it ends */
static pthread_key_t rx_dir_key;
static pthread_once_t rx_dir_once = PTHREAD_ONCE_INIT;

static void rx_dir_thread_end(void *unused)
{
    (void)unused;
    rx_shm_direct_scratch_free();
}

static void rx_dir_key_make(void)
{
    pthread_key_create(&rx_dir_key, rx_dir_thread_end);
}

static char *rx_dir_buf(rx_dir_buf_t *b, size_t bytes)
{
    if (bytes <= b->cap)
        return b->p;
    pthread_once(&rx_dir_once, rx_dir_key_make);
    pthread_setspecific(rx_dir_key, &rx_dir_chunk);
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
    return tl->ops->getv(tl, w, &lo, 1, &re, 1, &rk);
}

/* elements of rank r's share of count: the first count % p ranks one more */
static void rx_dir_share(size_t count, int p, int r, size_t *lo, size_t *n)
{
    size_t q = count / (size_t)p, rem = count % (size_t)p, ur = (size_t)r;
    *lo = ur * q + (ur < rem ? ur : rem);
    *n = q + (ur < rem);
}

void rx_dir_op_init(rx_dir_op_t *o, rx_shm_state_t *st, uint64_t s, const void *sbuf, void *rbuf,
                    size_t count, const rx_dtype_t *dt, const rx_opobj_t *op, int root)
{
    *o = (rx_dir_op_t){.st = st, .s = s, .in = sbuf, .out = rbuf, .count = count, .dt = dt,
                       .op = op, .root = root, .in_place = sbuf == rbuf, .rc = RX_OK};
    o->peer = malloc(sizeof(uint64_t) * 3 * (size_t)st->c->size);
    if (!o->peer)
        o->rc = RX_ERR_NOMEM; /* still takes part, so peers are not left waiting */
}

/* My share: x_0 op (x_1 op (... op x_{p-1})), as every other path. */
static int rx_dir_combine(rx_dir_op_t *o, size_t lo, size_t n)
{
    rx_shm_state_t *st = o->st;
    int p = st->c->size, me = st->c->rank, rc = RX_OK;
    size_t ext = (size_t)o->dt->extent, per = RX_DIR_RED_CHUNK / ext;
    if (per == 0)
        per = 1;
    /* in place the own share of the input is overwritten while peers may
     * still read theirs: combined in the chunk first */
    char *tmp = rx_dir_buf(&rx_dir_chunk, per * ext * (o->in_place ? 2 : 1));
    if (!tmp)
        return RX_ERR_NOMEM;
    const uint64_t *pr = o->peer;
    for (size_t off = lo; rc == RX_OK && off < lo + n; off += per) {
        size_t k = lo + n - off < per ? lo + n - off : per, b = k * ext;
        char *acc = o->in_place ? tmp : o->out + off * ext, *buf = o->in_place ? tmp + per * ext : tmp;
        if (p - 1 == me)
            memcpy(acc, o->in + off * ext, b);
        else
            rc = rx_dir_read_at(st, p - 1, pr[3 * (p - 1)] + off * ext, pr[3 * (p - 1) + 1], acc, b);
        for (int j = p - 2; rc == RX_OK && j >= 0; j--) {
            const char *x = o->in + off * ext;
            if (j != me) {
                rc = rx_dir_read_at(st, j, pr[3 * j] + off * ext, pr[3 * j + 1], buf, b);
                x = buf;
            }
            if (rc == RX_OK)
                rx_opobj_apply(o->op, o->dt, x, acc, k);
        }
        if (rc == RX_OK && o->in_place)
            memcpy(o->out + off * ext, acc, b);
    }
    return rc;
}

/* done line: seq, then in data whether the share behind it is valid */
static void rx_dir_flag(rx_shm_line_t *l, uint64_t s, int failed)
{
    uint64_t f = (uint64_t)failed;
    memcpy(l->data, &f, sizeof f);
    rx_st(&l->seq, s);
}

static int rx_dir_flag_failed(const rx_shm_line_t *l)
{
    uint64_t f;
    memcpy(&f, (const void *)l->data, sizeof f);
    return f != 0;
}

int rx_dir_op_step(rx_dir_op_t *o)
{
    rx_shm_state_t *st = o->st;
    int p = st->c->size, me = st->c->rank;
    uint64_t s = o->s;
    size_t ext = (size_t)o->dt->extent, lo, n;
    switch (o->phase) {
    case RX_DIR_PUBLISH: {
        /* before writing the control line of parity s & 1: everyone is done with s - 2 */
        if (st->arrived + 1 < s) {
            for (int j = 0; j < p; j++)
                if (rx_ld(&rx_ctrl(st, j, s - 1)->seq) < s - 1)
                    return 0;
            st->arrived = s - 1;
        }
        rx_dir_share(o->count, p, me, &lo, &n);
        if (o->root >= 0 && o->root != me) {
            /* a Reduce's non-root: its share goes to scratch, published as
             * the address where peers would find element lo */
            char *sh = rx_dir_buf(&rx_dir_share_scratch, n * ext > 0 ? n * ext : 1);
            if (!sh && o->rc == RX_OK)
                o->rc = RX_ERR_NOMEM;
            o->out = sh ? (char *)((uintptr_t)sh - lo * ext) : NULL;
            o->in_place = 0;
        }
        rx_shm_line_t *l = rx_ctrl(st, me, s);
        uint64_t v[3] = {(uint64_t)(uintptr_t)o->in, st->pid, (uint64_t)(uintptr_t)o->out};
        memcpy(l->data, v, sizeof v);
        rx_st(&l->seq, s);
        o->phase = RX_DIR_PEERS;
    } /* fall through */
    case RX_DIR_PEERS:
        for (int j = 0; j < p; j++)
            if (rx_ld(&rx_ctrl(st, j, s)->seq) < s)
                return 0;
        if (o->peer)
            for (int j = 0; j < p; j++)
                memcpy(o->peer + 3 * j, rx_ctrl(st, j, s)->data, 3 * sizeof(uint64_t));
        o->phase = RX_DIR_REDUCE;
        /* fall through */
    case RX_DIR_REDUCE:
        rx_dir_share(o->count, p, me, &lo, &n);
        if (o->rc == RX_OK)
            o->rc = rx_dir_combine(o, lo, n);
        rx_dir_flag(&st->done[me], s, o->rc != RX_OK);
        o->next = 1;
        o->phase = RX_DIR_GATHER;
        /* fall through */
    case RX_DIR_GATHER:
        for (; o->next < p; o->next++) {
            int j = (me + o->next) % p;
            if (rx_ld(&st->done[j].seq) < s)
                return 0;
            if (o->root >= 0 && o->root != me)
                continue; /* only the root gathers */
            if (rx_dir_flag_failed(&st->done[j]) && o->rc == RX_OK)
                o->rc = RX_ERR_IO; /* that share was not computed */
            rx_dir_share(o->count, p, j, &lo, &n);
            if (o->rc == RX_OK)
                o->rc = rx_dir_read_at(st, j, o->peer[3 * j + 2] + lo * ext, o->peer[3 * j + 1],
                                       o->out + lo * ext, n * ext);
        }
        rx_st(&st->fin[me].seq, s);
        o->phase = RX_DIR_FIN;
        /* fall through */
    case RX_DIR_FIN:
        /* my buffers are read no more once every rank is through */
        for (int j = 0; j < p; j++)
            if (j != me && rx_ld(&st->fin[j].seq) < s)
                return 0;
        if (st->arrived < s)
            st->arrived = s;
        free(o->peer);
        o->peer = NULL;
        o->phase = RX_DIR_DONE;
        /* fall through */
    default:
        return 1;
    }
}

int rx_dir_run_on(rx_shm_state_t *st, const void *sbuf, void *rbuf, size_t count,
                  const rx_dtype_t *dt, const rx_opobj_t *op, int root)
{
    rx_shm_drain(st); /* operations in flight hold earlier sequence numbers */
    rx_dir_op_t o;
    rx_dir_op_init(&o, st, ++st->seq, sbuf, rbuf, count, dt, op, root);
    int n = 0;
    while (!rx_dir_op_step(&o))
        rx_shm_pause(&n);
    rx_dir_buf_trim(&rx_dir_chunk, RX_DIR_KEEP);
    rx_dir_buf_trim(&rx_dir_share_scratch, RX_DIR_KEEP);
    return o.rc;
}
