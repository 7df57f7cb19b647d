/* SPDX-License-Identifier: MIT
 * Every schedule builder of src/sched, executed in memory: the schedules of
 * all p ranks of one collective run together, rounds in lock step per rank
 * as the runtime's executor runs them. A send completes only when the
 * receive it pairs with is posted (the n-th send from r to q pairs with the
 * n-th receive q posts from r, as one tag on one context matches in
 * order), so a schedule that only works with buffered sends, or waits in a
 * cycle, is reported as a deadlock; paired transfers must have the same
 * size; no step may leave its buffer, write the caller's input, or let two
 * transfers of one round touch overlapping bytes when one of them writes.
 * The results are then checked against a serial reference: sums of
 * rank-distinct integers for commutative reductions, products of 2x2
 * matrices (mod 2^16, not commutative) for the others, blocks of bytes
 * tagged with their source and position for the collectives that move data.
 *
 * test_sched [-v]: every algorithm of the list, for p = 1..33 and some
 * larger counts, every root (three for large p), several sizes (zero and
 * smaller than p included), commutative and not, v-variants with irregular
 * counts and gaps, the hierarchical ones with several node maps. */
#include "sched/sched.h"
#include "util/status.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int verbose;
static long nrun, nfail;
static char ctx[256]; /* what the current case is, for messages */

static void fail(const char *fmt, ...)
{
    va_list ap;
    if (nfail < 30) {
        fprintf(stderr, "FAIL %s: ", ctx);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
    }
    nfail++;
}

/* ---- element values and the two reductions (elements of 8 bytes) ---- */

#define UNIT 8

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

/* rank r's element e */
static uint64_t elem(int r, uint64_t e)
{
    return mix(((uint64_t)r << 32) ^ e ^ 0x5bd1e995ULL);
}

static uint64_t mat_mul(uint64_t a, uint64_t b)
{
    uint16_t a0 = (uint16_t)a, a1 = (uint16_t)(a >> 16), a2 = (uint16_t)(a >> 32),
             a3 = (uint16_t)(a >> 48);
    uint16_t b0 = (uint16_t)b, b1 = (uint16_t)(b >> 16), b2 = (uint16_t)(b >> 32),
             b3 = (uint16_t)(b >> 48);
    uint16_t c0 = (uint16_t)(a0 * b0 + a1 * b2), c1 = (uint16_t)(a0 * b1 + a1 * b3);
    uint16_t c2 = (uint16_t)(a2 * b0 + a3 * b2), c3 = (uint16_t)(a2 * b1 + a3 * b3);
    return (uint64_t)c0 | (uint64_t)c1 << 16 | (uint64_t)c2 << 32 | (uint64_t)c3 << 48;
}

/* inout = in (op) inout */
static uint64_t combine(int commute, uint64_t in, uint64_t inout)
{
    return commute ? in + inout : mat_mul(in, inout);
}

/* op over ranks lo..hi-1 of element e, in rank order */
static uint64_t reference(int commute, int lo, int hi, uint64_t e)
{
    uint64_t acc = elem(hi - 1, e);
    for (int r = hi - 2; r >= lo; r--)
        acc = combine(commute, elem(r, e), acc);
    return acc;
}

/* byte at position i of the block rank src sends to rank dst */
static uint8_t byte_of(int src, int dst, uint64_t i)
{
    return (uint8_t)mix(((uint64_t)src << 40) ^ ((uint64_t)dst << 20) ^ i ^ 0x9e37ULL);
}

#define GARBAGE 0xa5 /* scratch and untouched output start as this */
#define KW 4          /* words of a rank set: up to 256 ranks */
#define MAXP (64 * KW)

/* ---- one collective: all ranks' arguments, buffers and schedules ---- */

typedef struct sim_rank {
    rx_sched_args_t a;
    rx_sched_t s;
    uint8_t *buf[RX_SB_COUNT];
    uint64_t len[RX_SB_COUNT];
    uint32_t round;
    int posted, done;
    uint32_t pending; /* transfers of the current round not yet paired */
    uint64_t *own;     /* this rank's v-arrays (alltoallv) */
    uint8_t *exp;      /* expected OUT; NULL: not checked */
    /* ranks this one has heard from, directly or through others (barrier):
     * what arrives in a round counts from the round's end */
    uint64_t known[KW], incoming[KW];
} sim_rank_t;

typedef struct xfer {
    int rank;
    uint32_t step;
    uint64_t known[KW]; /* a send: what its rank knew when posting it */
} xfer_t;

/* FIFO of posted, unpaired sends (or receives) from one rank to another */
typedef struct queue {
    xfer_t *q;
    size_t head, n, cap;
} queue_t;

typedef struct sim {
    int p;
    sim_rank_t *rk;
    queue_t *sendq, *recvq; /* [src * p + dst] */
} sim_t;

static void q_push(queue_t *q, xfer_t x)
{
    if (q->n == q->cap) {
        q->cap = q->cap ? q->cap * 2 : 8;
        q->q = realloc(q->q, q->cap * sizeof *q->q);
        if (!q->q)
            abort();
    }
    q->q[q->n++] = x;
}

static uint32_t round_end(const rx_sched_t *s, uint32_t i)
{
    return i + 1 < s->nround ? s->round[i + 1] : s->nstep;
}

static int in_bounds(const sim_rank_t *k, int buf, uint64_t off, uint64_t bytes)
{
    return buf >= 0 && buf < RX_SB_COUNT && off <= k->len[buf] && bytes <= k->len[buf] - off;
}

/* Post rank r's current round: check it, queue its transfers. */
static int post_round(sim_t *sm, int r)
{
    sim_rank_t *k = &sm->rk[r];
    const rx_sched_t *s = &k->s;
    uint32_t beg = s->round[k->round], end = round_end(s, k->round);
    k->pending = 0;
    for (uint32_t j = beg; j < end; j++) {
        const rx_sched_step_t *st = &s->step[j];
        if (st->op != RX_SOP_SEND && st->op != RX_SOP_RECV)
            continue;
        if (st->peer < 0 || st->peer >= sm->p || st->peer == r) {
            fail("rank %d round %u: transfer with peer %d", r, k->round, st->peer);
            return -1;
        }
        if (!in_bounds(k, st->buf, st->off, st->bytes)) {
            fail("rank %d round %u: %s of %" PRIu64 " bytes at %" PRIu64 " outside buffer %d (%" PRIu64
                 " bytes)", r, k->round, st->op == RX_SOP_SEND ? "send" : "recv", st->bytes, st->off,
                 st->buf, k->len[st->buf < RX_SB_COUNT ? st->buf : 0]);
            return -1;
        }
        if (st->op == RX_SOP_RECV && st->buf == RX_SB_IN && st->bytes) {
            fail("rank %d round %u: receive into the input buffer", r, k->round);
            return -1;
        }
        /* a receive must not overlap anything else this round touches */
        for (uint32_t i = beg; i < end; i++) {
            const rx_sched_step_t *o = &s->step[i];
            if (i == j || (o->op != RX_SOP_SEND && o->op != RX_SOP_RECV) || o->buf != st->buf)
                continue;
            if (st->op != RX_SOP_RECV && o->op != RX_SOP_RECV)
                continue;
            if (st->bytes && o->bytes && st->off < o->off + o->bytes && o->off < st->off + st->bytes) {
                fail("rank %d round %u: transfers overlap in buffer %d while one receives", r,
                     k->round, st->buf);
                return -1;
            }
        }
        size_t qi = st->op == RX_SOP_SEND ? (size_t)r * sm->p + st->peer : (size_t)st->peer * sm->p + r;
        xfer_t x = {.rank = r, .step = j};
        memcpy(x.known, k->known, sizeof x.known);
        q_push(st->op == RX_SOP_SEND ? &sm->sendq[qi] : &sm->recvq[qi], x);
        k->pending++;
    }
    k->posted = 1;
    return 0;
}

/* Pair the heads of every queue; 1 if anything was paired, -1 on error. */
static int pair_all(sim_t *sm)
{
    int any = 0;
    for (size_t qi = 0; qi < (size_t)sm->p * sm->p; qi++) {
        queue_t *sq = &sm->sendq[qi], *rq = &sm->recvq[qi];
        while (sq->head < sq->n && rq->head < rq->n) {
            xfer_t x = sq->q[sq->head++], y = rq->q[rq->head++];
            sim_rank_t *a = &sm->rk[x.rank], *b = &sm->rk[y.rank];
            const rx_sched_step_t *ss = &a->s.step[x.step], *rs = &b->s.step[y.step];
            if (ss->bytes != rs->bytes) {
                fail("rank %d sends %" PRIu64 " bytes (round %u) where rank %d receives %" PRIu64
                     " (round %u)", x.rank, ss->bytes, a->round, y.rank, rs->bytes, b->round);
                return -1;
            }
            if (ss->bytes)
                memcpy(b->buf[rs->buf] + rs->off, a->buf[ss->buf] + ss->off, ss->bytes);
            for (int w = 0; w < KW; w++)
                b->incoming[w] |= x.known[w];
            a->pending--;
            b->pending--;
            any = 1;
        }
    }
    return any;
}

/* The local steps of rank r's current round. */
static int run_local(sim_t *sm, int r)
{
    sim_rank_t *k = &sm->rk[r];
    const rx_sched_t *s = &k->s;
    for (uint32_t j = s->round[k->round]; j < round_end(s, k->round); j++) {
        const rx_sched_step_t *st = &s->step[j];
        if (st->op != RX_SOP_COPY && st->op != RX_SOP_REDUCE)
            continue;
        if (!in_bounds(k, st->buf, st->off, st->bytes) || !in_bounds(k, st->buf2, st->off2, st->bytes)) {
            fail("rank %d round %u: %s of %" PRIu64 " bytes (%d:%" PRIu64 " -> %d:%" PRIu64
                 ") outside its buffers", r, k->round, st->op == RX_SOP_COPY ? "copy" : "reduce",
                 st->bytes, st->buf, st->off, st->buf2, st->off2);
            return -1;
        }
        if (st->buf2 == RX_SB_IN) {
            fail("rank %d round %u: writes the input buffer", r, k->round);
            return -1;
        }
        uint8_t *src = k->buf[st->buf] + st->off, *dst = k->buf[st->buf2] + st->off2;
        if (st->op == RX_SOP_COPY) {
            memmove(dst, src, st->bytes);
            continue;
        }
        if (st->bytes % UNIT || st->off % UNIT || st->off2 % UNIT) {
            fail("rank %d round %u: reduce of %" PRIu64 " bytes at %" PRIu64 "/%" PRIu64
                 " is not whole elements", r, k->round, st->bytes, st->off, st->off2);
            return -1;
        }
        if (st->buf == st->buf2 && st->off < st->off2 + st->bytes && st->off2 < st->off + st->bytes) {
            fail("rank %d round %u: reduce with overlapping operands", r, k->round);
            return -1;
        }
        for (uint64_t i = 0; i < st->bytes; i += UNIT) {
            uint64_t x, y;
            memcpy(&x, src + i, UNIT);
            memcpy(&y, dst + i, UNIT);
            y = combine(k->a.commute, x, y);
            memcpy(dst + i, &y, UNIT);
        }
    }
    return 0;
}

/* Run all ranks to the end: 0, or -1 after reporting. */
static int sim_run(sim_t *sm)
{
    for (;;) {
        int left = 0, moved = 0;
        for (int r = 0; r < sm->p; r++) {
            sim_rank_t *k = &sm->rk[r];
            while (!k->done) {
                if (k->round >= k->s.nround) {
                    k->done = 1;
                    moved = 1;
                    break;
                }
                if (!k->posted) {
                    if (post_round(sm, r))
                        return -1;
                    moved = 1;
                }
                if (k->pending)
                    break;
                if (run_local(sm, r))
                    return -1;
                for (int w = 0; w < KW; w++)
                    k->known[w] |= k->incoming[w];
                k->round++;
                k->posted = 0;
            }
            left += !k->done;
        }
        int pr = pair_all(sm);
        if (pr < 0)
            return -1;
        if (!left)
            break;
        if (!pr && !moved) {
            int r = 0;
            while (sm->rk[r].done)
                r++;
            fail("deadlock: rank %d waits in round %u of %u with %u transfers unpaired", r,
                 sm->rk[r].round, sm->rk[r].s.nround, sm->rk[r].pending);
            return -1;
        }
    }
    for (size_t qi = 0; qi < (size_t)sm->p * sm->p; qi++)
        if (sm->sendq[qi].head < sm->sendq[qi].n || sm->recvq[qi].head < sm->recvq[qi].n) {
            fail("rank %zu -> %zu: a transfer never paired", qi / sm->p, qi % sm->p);
            return -1;
        }
    return 0;
}

/* ---- one case: every rank's arguments, inputs and expected output ---- */

typedef struct ccase {
    const rx_sched_algo_t *al;
    int p, root, commute;
    uint64_t n;        /* elements (reductions) or bytes of one block */
    int vform;         /* v-variant: irregular blocks (cnt) and gaps between them */
    const int *node_of;
    const uint64_t *cnt; /* vform: bytes from rank i to rank j at cnt[i * p + j]
                          * (gatherv/allgatherv/scatterv use row i, column 0);
                          * reduce_scatter: elements of rank i at cnt[i] */
} ccase_t;

static int is_reduction(int kind)
{
    return kind == RX_COLL_REDUCE || kind == RX_COLL_ALLREDUCE || kind == RX_COLL_REDUCE_SCATTER ||
           kind == RX_COLL_SCAN || kind == RX_COLL_EXSCAN;
}

/* Offsets of blocks len[0..p) with a gap of 0-2 bytes after each, so a
 * write to the wrong place or past a block shows. */
static uint64_t layout(const uint64_t *len, int p, uint64_t *off)
{
    uint64_t o = 0;
    for (int i = 0; i < p; i++) {
        off[i] = o;
        o += len[i] + (uint64_t)(i % 3);
    }
    return o;
}

static uint8_t *alloc_fill(uint64_t n)
{
    uint8_t *b = malloc(n + 1);
    if (!b)
        abort();
    memset(b, GARBAGE, n + 1);
    return b;
}

static void put_elems(uint8_t *b, uint64_t n, uint64_t (*f)(int, int, uint64_t), int x, int y)
{
    for (uint64_t e = 0; e < n; e++) {
        uint64_t v = f(x, y, e);
        memcpy(b + e * UNIT, &v, UNIT);
    }
}

static uint64_t own_elem(int r, int unused, uint64_t e)
{
    (void)unused;
    return elem(r, e);
}

static int g_commute;
static uint64_t g_base;
static uint64_t ref_elem(int lo, int hi, uint64_t e)
{
    return reference(g_commute, lo, hi, g_base + e);
}

static void put_block(uint8_t *b, uint64_t off, uint64_t len, int src, int dst)
{
    for (uint64_t i = 0; i < len; i++)
        b[off + i] = byte_of(src, dst, i);
}

/* Arguments, buffers and expected outputs of every rank; 1 if the
 * algorithm fits (then every rank agrees), 0 if not, -1 on a failure. */
static int setup(const ccase_t *c, sim_t *sm, uint64_t *shared)
{
    int p = c->p, kind = c->al->kind, root = c->root, fits0 = -1;
    uint64_t *len = shared, *off = shared + p, tot = 0;
    if (c->vform && kind != RX_COLL_ALLTOALL && kind != RX_COLL_REDUCE_SCATTER) {
        for (int i = 0; i < p; i++)
            len[i] = c->cnt[(size_t)i * p];
        tot = layout(len, p, off);
    }
    g_commute = c->commute;
    for (int r = 0; r < p; r++) {
        sim_rank_t *k = &sm->rk[r];
        rx_sched_args_t *a = &k->a;
        *a = (rx_sched_args_t){.kind = kind, .algo = c->al, .p = p, .rank = r, .root = root,
                               .unit = UNIT, .commute = c->commute, .node_of = c->node_of};
        uint64_t in = 0, out = 0, n = c->n;
        uint8_t *exp = NULL;
        switch (kind) {
        case RX_COLL_BARRIER:
            break;
        case RX_COLL_BCAST:
            a->bytes = out = n;
            exp = alloc_fill(out);
            put_block(exp, 0, n, root, 0);
            break;
        case RX_COLL_REDUCE:
        case RX_COLL_ALLREDUCE:
        case RX_COLL_SCAN:
        case RX_COLL_EXSCAN: {
            a->count = n;
            in = out = n * UNIT;
            if (kind == RX_COLL_REDUCE && r != root) {
                out = 0;
                break;
            }
            if (kind == RX_COLL_EXSCAN && r == 0)
                break; /* undefined at rank 0 */
            exp = alloc_fill(out);
            int hi = kind == RX_COLL_SCAN ? r + 1 : kind == RX_COLL_EXSCAN ? r : p;
            g_base = 0;
            for (uint64_t e = 0; e < n; e++) {
                uint64_t v = ref_elem(0, hi, e);
                memcpy(exp + e * UNIT, &v, UNIT);
            }
            break;
        }
        case RX_COLL_REDUCE_SCATTER: {
            uint64_t before = 0;
            tot = 0;
            for (int i = 0; i < p; i++) {
                len[i] = c->cnt[i];
                before += i < r ? c->cnt[i] : 0;
                tot += c->cnt[i];
            }
            a->rcounts = len;
            a->count = tot;
            in = tot * UNIT;
            out = c->cnt[r] * UNIT;
            exp = alloc_fill(out);
            g_base = before;
            for (uint64_t e = 0; e < c->cnt[r]; e++) {
                uint64_t v = ref_elem(0, p, e);
                memcpy(exp + e * UNIT, &v, UNIT);
            }
            break;
        }
        case RX_COLL_GATHER:
        case RX_COLL_ALLGATHER:
            if (c->vform) {
                a->rcounts = len;
                a->rdispls = off;
                a->bytes = len[r];
            } else {
                a->bytes = n;
                tot = n * (uint64_t)p;
            }
            in = a->bytes;
            if (kind == RX_COLL_GATHER && r != root)
                break;
            out = tot;
            exp = alloc_fill(out);
            for (int i = 0; i < p; i++)
                put_block(exp, c->vform ? off[i] : (uint64_t)i * n, c->vform ? len[i] : n, i, 0);
            break;
        case RX_COLL_SCATTER:
            if (c->vform) {
                a->scounts = len;
                a->sdispls = off;
                a->bytes = len[r];
            } else {
                a->bytes = n;
                tot = n * (uint64_t)p;
            }
            in = r == root ? tot : 0;
            out = a->bytes;
            exp = alloc_fill(out);
            put_block(exp, 0, out, root, r);
            break;
        case RX_COLL_ALLTOALL:
            if (c->vform) {
                /* rank r sends cnt[r*p+j] bytes to j, receives cnt[j*p+r] from j */
                uint64_t *v = k->own = calloc((size_t)p * 4, sizeof *v);
                if (!v)
                    abort();
                for (int j = 0; j < p; j++) {
                    v[j] = c->cnt[(size_t)r * p + j];
                    v[2 * p + j] = c->cnt[(size_t)j * p + r];
                }
                in = layout(v, p, v + p);
                out = layout(v + 2 * p, p, v + 3 * p);
                a->scounts = v;
                a->sdispls = v + p;
                a->rcounts = v + 2 * p;
                a->rdispls = v + 3 * p;
            } else {
                a->bytes = n;
                in = out = n * (uint64_t)p;
            }
            exp = alloc_fill(out);
            for (int j = 0; j < p; j++)
                put_block(exp, c->vform ? a->rdispls[j] : (uint64_t)j * n,
                          c->vform ? a->rcounts[j] : n, j, r);
            break;
        }
        int f = rx_sched_algo_fits(a);
        if (fits0 < 0)
            fits0 = f;
        else if (f != fits0) {
            fail("fits is %d at rank 0 and %d at rank %d", fits0, f, r);
            free(exp);
            return -1;
        }
        k->exp = exp;
        k->len[RX_SB_IN] = in;
        k->len[RX_SB_OUT] = out;
        k->buf[RX_SB_IN] = alloc_fill(in);
        k->buf[RX_SB_OUT] = alloc_fill(out);
        if (is_reduction(kind))
            put_elems(k->buf[RX_SB_IN], in / UNIT, own_elem, r, 0);
        else if (kind == RX_COLL_BCAST && r == root)
            put_block(k->buf[RX_SB_OUT], 0, out, r, 0);
        else if (kind == RX_COLL_GATHER || kind == RX_COLL_ALLGATHER)
            put_block(k->buf[RX_SB_IN], 0, in, r, 0);
        else if (kind == RX_COLL_SCATTER && r == root)
            for (int j = 0; j < p; j++)
                put_block(k->buf[RX_SB_IN], c->vform ? off[j] : (uint64_t)j * n,
                          c->vform ? len[j] : n, r, j);
        else if (kind == RX_COLL_ALLTOALL)
            for (int j = 0; j < p; j++)
                put_block(k->buf[RX_SB_IN], c->vform ? a->sdispls[j] : (uint64_t)j * n,
                          c->vform ? a->scounts[j] : n, r, j);
        k->known[r / 64] |= 1ull << (r % 64);
    }
    return fits0;
}

static void run_case(const ccase_t *c)
{
    int p = c->p;
    sim_t sm = {.p = p};
    sm.rk = calloc((size_t)p, sizeof *sm.rk);
    sm.sendq = calloc((size_t)p * p, sizeof *sm.sendq);
    sm.recvq = calloc((size_t)p * p, sizeof *sm.recvq);
    uint64_t *shared = calloc((size_t)p * 2 + 2, sizeof *shared);
    if (!sm.rk || !sm.sendq || !sm.recvq || !shared)
        abort();
    snprintf(ctx, sizeof ctx, "%s-%s p=%d root=%d n=%" PRIu64 "%s%s%s",
             rx_coll_kind_name(c->al->kind), c->al->name, p, c->root, c->n,
             c->commute ? "" : " non-commutative", c->vform ? " v-form" : "",
             c->node_of ? " with nodes" : "");
    int f = setup(c, &sm, shared);
    if (f == 1) {
        nrun++;
        for (int r = 0; r < p; r++) {
            sim_rank_t *k = &sm.rk[r];
            rx_sched_init(&k->s);
            int rc = rx_sched_build(&k->s, &k->a);
            if (rc != RX_OK) {
                fail("rank %d: build returned %d", r, rc);
                f = -1;
                break;
            }
            k->len[RX_SB_TMP] = k->s.tmp_bytes;
            k->buf[RX_SB_TMP] = alloc_fill(k->s.tmp_bytes);
        }
        if (f == 1 && sim_run(&sm) == 0) {
            for (int r = 0; r < p; r++) {
                sim_rank_t *k = &sm.rk[r];
                if (k->exp && memcmp(k->exp, k->buf[RX_SB_OUT], k->len[RX_SB_OUT])) {
                    uint64_t i = 0;
                    while (k->exp[i] == k->buf[RX_SB_OUT][i])
                        i++;
                    fail("rank %d: output differs from byte %" PRIu64 " of %" PRIu64, r, i,
                         k->len[RX_SB_OUT]);
                    break;
                }
                if (c->al->kind == RX_COLL_BARRIER)
                    for (int q = 0; q < p; q++)
                        if (!(k->known[q / 64] >> (q % 64) & 1)) {
                            fail("rank %d leaves the barrier without word from rank %d", r, q);
                            r = p;
                            break;
                        }
            }
        }
    } else if (f == 0) {
        /* a rooted or sized choice must still be possible */
        rx_sched_args_t a = sm.rk[0].a;
        const rx_sched_algo_t *al = rx_sched_auto(&a);
        a.algo = al;
        if (!al || !rx_sched_algo_fits(&a))
            fail("no automatic choice fits");
    }
    for (int r = 0; r < p; r++) {
        sim_rank_t *k = &sm.rk[r];
        rx_sched_free(&k->s);
        for (int b = 0; b < RX_SB_COUNT; b++)
            free(k->buf[b]);
        free(k->exp);
        free(k->own);
    }
    for (size_t i = 0; i < (size_t)p * p; i++) {
        free(sm.sendq[i].q);
        free(sm.recvq[i].q);
    }
    free(sm.sendq);
    free(sm.recvq);
    free(sm.rk);
    free(shared);
}

/* ---- the sweep ---- */

static uint64_t rng = 88172645463325252ULL;
static uint64_t rnd(uint64_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return n ? rng % n : 0;
}

/* Node maps for p ranks: 0 blocks of 2, 1 blocks of 3, 2 round robin over
 * 3 nodes, 3 random over 1 + p/4 nodes, 4 every rank its own node, 5 one
 * node. */
#define NMAPS 6
static void node_map(int *m, int p, int kind)
{
    for (int i = 0; i < p; i++)
        m[i] = kind == 0 ? i / 2 : kind == 1 ? i / 3 : kind == 2 ? i % 3
             : kind == 3 ? (int)rnd((uint64_t)(1 + p / 4)) : kind == 4 ? i : 0;
}

static void sweep_algo(const rx_sched_algo_t *al, int p)
{
    int kind = al->kind, rooted = kind == RX_COLL_BCAST || kind == RX_COLL_REDUCE ||
                                  kind == RX_COLL_GATHER || kind == RX_COLL_SCATTER;
    int hier = al->fits && !strcmp(al->name, "hier");
    int nroots = rooted ? p : 1;
    int roots[3] = {0, p / 2, p - 1};
    int few_roots = rooted && p > 33;
    if (few_roots)
        nroots = 3;
    uint64_t sizes[6];
    int nsizes = 0;
    if (kind == RX_COLL_BARRIER) {
        sizes[nsizes++] = 0;
    } else if (is_reduction(kind)) {
        uint64_t s[] = {0, 1, p > 1 ? (uint64_t)p - 1 : 2, (uint64_t)p, (uint64_t)(3 * p + 5), 97};
        memcpy(sizes, s, sizeof s);
        nsizes = 6;
    } else {
        uint64_t s[] = {0, 1, p > 1 ? (uint64_t)p - 1 : 2, 13, (uint64_t)(2 * p + 3)};
        memcpy(sizes, s, sizeof s);
        nsizes = 5;
    }
    int *nodes = malloc(sizeof(int) * (size_t)p);
    uint64_t *cnt = malloc(sizeof(uint64_t) * (size_t)p * p);
    if (!nodes || !cnt)
        abort();
    int vkind = kind == RX_COLL_GATHER || kind == RX_COLL_SCATTER || kind == RX_COLL_ALLGATHER ||
                kind == RX_COLL_ALLTOALL;
    for (int nm = 0; nm < (hier ? NMAPS : 1); nm++) {
        if (hier)
            node_map(nodes, p, nm);
        for (int ri = 0; ri < nroots; ri++) {
            int root = few_roots ? roots[ri] : ri;
            for (int commute = 1; commute >= 0; commute--) {
                if (!is_reduction(kind) && !commute)
                    continue;
                for (int si = 0; si < nsizes; si++) {
                    ccase_t c = {.al = al, .p = p, .root = root, .commute = commute, .n = sizes[si],
                                 .node_of = hier ? nodes : NULL};
                    if (kind == RX_COLL_REDUCE_SCATTER) {
                        /* irregular element counts, zeros included, about n in all */
                        for (int i = 0; i < p; i++)
                            cnt[i] = si == 0 ? 0 : si == 1 ? (uint64_t)(i % 2)
                                                           : rnd(2 * sizes[si] / (uint64_t)p + 2);
                        c.cnt = cnt;
                        c.vform = 1;
                    }
                    run_case(&c);
                    if (vkind && si > 0) {
                        for (size_t i = 0; i < (size_t)p * p; i++)
                            cnt[i] = rnd(2 * sizes[si] + 1) * (rnd(4) != 0);
                        c.cnt = cnt;
                        c.vform = 1;
                        run_case(&c);
                    }
                }
            }
        }
    }
    free(nodes);
    free(cnt);
}

int main(int argc, char **argv)
{
    verbose = argc > 1 && !strcmp(argv[1], "-v");
    int ps[64], np = 0;
    for (int p = 1; p <= 33; p++)
        ps[np++] = p;
    int large[] = {48, 64, 100, 128};
    for (size_t i = 0; i < sizeof large / sizeof large[0]; i++)
        ps[np++] = large[i];
    for (int i = 0; i < rx_sched_nalgos; i++) {
        const rx_sched_algo_t *al = rx_sched_algos[i];
        long before = nrun, fbefore = nfail;
        for (int j = 0; j < np; j++)
            sweep_algo(al, ps[j]);
        if (verbose || nfail > fbefore)
            printf("%-16s %-20s %6ld cases%s\n", rx_coll_kind_name(al->kind), al->name,
                   nrun - before, nfail > fbefore ? "  FAILED" : "");
        if (nrun == before) {
            snprintf(ctx, sizeof ctx, "%s-%s", rx_coll_kind_name(al->kind), al->name);
            fail("never applied: no case exercised it");
        }
    }
    printf("%ld cases, %ld failures\n", nrun, nfail);
    return nfail ? 1 : 0;
}
