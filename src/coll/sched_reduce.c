/* SPDX-License-Identifier: MIT
 * Schedules of the combining collectives: reduce, allreduce,
 * reduce_scatter(_block), scan, exscan. Reduce steps compute
 * inout = in (op) inout; wherever an algorithm combines two partial results
 * it puts the lower range of ranks in `in`, so algorithms marked "any op"
 * give the rank order that non-commutative ops need. */
#include "sched.h"
#include "util/status.h"

#include <stdlib.h>

static int rx_pof2_floor(int n)
{
    int p = 1;
    while (p * 2 <= n)
        p *= 2;
    return p;
}

/* Element blocks of a vector split over n ranks, in bytes. */
static void rx_split(uint64_t count, uint64_t unit, int n, uint64_t *off, uint64_t *len)
{
    uint64_t q = count / (uint64_t)n, r = count % (uint64_t)n, o = 0;
    for (int i = 0; i < n; i++) {
        uint64_t c = q + ((uint64_t)i < r);
        off[i] = o * unit;
        len[i] = c * unit;
        o += c;
    }
}

/* Binomial reduce (any op) of IN into a TMP area, rooted at troot; the
 * partial results cover contiguous rank ranges and combine lower range
 * first. Returns the TMP offset that holds the result at troot. */
static uint64_t rx_reduce_binomial(rx_sched_t *s, int p, int r, int troot, uint64_t B)
{
    uint64_t acc = 0, tmp = B;
    int rel = (r - troot + p) % p;
    rx_sched_tmp(s, 2 * B);
    rx_sched_round(s);
    rx_sched_copy(s, RX_SB_IN, 0, RX_SB_TMP, acc, B);
    for (int mask = 1; mask < p; mask <<= 1) {
        if (rel & mask) {
            rx_sched_round(s);
            rx_sched_send(s, (rel - mask + troot) % p, RX_SB_TMP, acc, B);
            break;
        }
        if (rel + mask < p) {
            rx_sched_round(s);
            rx_sched_recv(s, (rel + mask + troot) % p, RX_SB_TMP, tmp, B);
            rx_sched_reduce(s, RX_SB_TMP, acc, RX_SB_TMP, tmp, B);
            uint64_t t = acc;
            acc = tmp;
            tmp = t;
        }
    }
    return acc;
}

static void rx_reduce_to_root(rx_sched_t *s, const rx_sched_args_t *a, uint64_t B)
{
    int p = a->p, r = a->rank, troot = a->commute ? a->root : 0;
    uint64_t acc = rx_reduce_binomial(s, p, r, troot, B);
    if (troot != a->root) {
        rx_sched_round(s);
        if (r == troot)
            rx_sched_send(s, a->root, RX_SB_TMP, acc, B);
        else if (r == a->root)
            rx_sched_recv(s, troot, RX_SB_TMP, acc, B);
    }
    if (r == a->root)
        rx_sched_copy(s, RX_SB_TMP, acc, RX_SB_OUT, 0, B);
}

/* Ring reduce-scatter (commutative ops) over blocks (off[i], len[i]) of the
 * accumulator (abuf, aoff); the incoming block lands at TMP rtmp. Round k
 * sends block r - k - 1 and combines block r - k - 2; after p - 1 rounds
 * block r is complete at rank r. */
static void rx_rs_ring(rx_sched_t *s, int p, int r, int abuf, uint64_t aoff, const uint64_t *off,
                       const uint64_t *len, uint64_t rtmp)
{
    int right = (r + 1) % p, left = (r - 1 + p) % p;
    for (int k = 0; k < p - 1; k++) {
        int sb = (r - k - 1 + 2 * p) % p, rb = (r - k - 2 + 2 * p) % p;
        rx_sched_round(s);
        rx_sched_send(s, right, abuf, aoff + off[sb], len[sb]);
        rx_sched_recv(s, left, RX_SB_TMP, rtmp, len[rb]);
        rx_sched_reduce(s, RX_SB_TMP, rtmp, abuf, aoff + off[rb], len[rb]);
    }
}

/* The fold of recursive doubling / Rabenseifner for p not a power of two:
 * rank 2i (i < rem) hands its vector to 2i + 1. Returns the rank inside
 * the power-of-two group, -1 for a rank that sits out. acc is OUT. */
static int rx_fold(rx_sched_t *s, int p, int r, uint64_t B)
{
    int rem = p - rx_pof2_floor(p);
    if (r >= 2 * rem)
        return r - rem;
    rx_sched_round(s);
    if (r % 2 == 0) {
        rx_sched_send(s, r + 1, RX_SB_OUT, 0, B);
        return -1;
    }
    rx_sched_recv(s, r - 1, RX_SB_TMP, 0, B);
    rx_sched_reduce(s, RX_SB_TMP, 0, RX_SB_OUT, 0, B);
    return r / 2;
}

static void rx_unfold(rx_sched_t *s, int p, int r, uint64_t B)
{
    int rem = p - rx_pof2_floor(p);
    if (r >= 2 * rem)
        return;
    rx_sched_round(s);
    if (r % 2 == 0)
        rx_sched_recv(s, r + 1, RX_SB_OUT, 0, B);
    else
        rx_sched_send(s, r - 1, RX_SB_OUT, 0, B);
}

static int rx_real_rank(int nr, int rem)
{
    return nr < rem ? 2 * nr + 1 : nr + rem;
}

/* Recursive doubling (any op): log p exchanges of the whole vector. The
 * accumulator moves between IN, OUT and TMP symbolically, so no copies are
 * needed to keep the lower range on the left, and the first exchange sends
 * IN directly (no round of its own for the copy into OUT). */
static void rx_allreduce_rd(rx_sched_t *s, const rx_sched_args_t *a, uint64_t B)
{
    int p = a->p, r = a->rank, p2 = rx_pof2_floor(p), rem = p - p2, nr;
    rx_sched_tmp(s, B);
    if (p == 1) {
        rx_sched_round(s);
        rx_sched_copy(s, RX_SB_IN, 0, RX_SB_OUT, 0, B);
        return;
    }
    int acc = RX_SB_IN, tmp = RX_SB_TMP; /* acc IN: OUT not written yet */
    if (r < 2 * rem) {
        rx_sched_round(s);
        if (r % 2 == 0) {
            rx_sched_send(s, r + 1, RX_SB_IN, 0, B);
            rx_sched_round(s);
            rx_sched_recv(s, r + 1, RX_SB_OUT, 0, B);
            return;
        }
        rx_sched_recv(s, r - 1, RX_SB_TMP, 0, B);
        rx_sched_copy(s, RX_SB_IN, 0, RX_SB_OUT, 0, B);
        rx_sched_reduce(s, RX_SB_TMP, 0, RX_SB_OUT, 0, B);
        acc = RX_SB_OUT;
        nr = r / 2;
    } else {
        nr = r - rem;
    }
    for (int mask = 1; mask < p2; mask <<= 1) {
        int pn = nr ^ mask, peer = rx_real_rank(pn, rem);
        rx_sched_round(s);
        rx_sched_send(s, peer, acc, 0, B);
        rx_sched_recv(s, peer, tmp, 0, B);
        if (pn < nr) {
            if (acc == RX_SB_IN) {
                rx_sched_copy(s, RX_SB_IN, 0, RX_SB_OUT, 0, B);
                acc = RX_SB_OUT;
            }
            rx_sched_reduce(s, tmp, 0, acc, 0, B);
        } else {
            rx_sched_reduce(s, acc, 0, tmp, 0, B);
            int t = acc == RX_SB_IN ? RX_SB_OUT : acc;
            acc = tmp;
            tmp = t;
        }
    }
    rx_sched_copy(s, acc, 0, RX_SB_OUT, 0, B);
    if (r < 2 * rem) {
        rx_sched_round(s);
        rx_sched_send(s, r - 1, RX_SB_OUT, 0, B);
    }
}

/* Rabenseifner (commutative ops, count >= p2): recursive-halving
 * reduce-scatter then recursive-doubling allgather, 2B per rank moved. */
static int rx_allreduce_rabenseifner(rx_sched_t *s, const rx_sched_args_t *a, uint64_t B)
{
    int p = a->p, r = a->rank, p2 = rx_pof2_floor(p), rem = p - p2;
    uint64_t *off = malloc(sizeof *off * 2 * (size_t)p2), *len = off + p2;
    if (!off)
        return RX_ERR_NOMEM;
    rx_split(a->count, a->unit, p2, off, len);
    rx_sched_tmp(s, B);
    rx_sched_round(s);
    rx_sched_copy(s, RX_SB_IN, 0, RX_SB_OUT, 0, B);
    int nr = rx_fold(s, p, r, B);
    if (nr >= 0) {
        int send_idx = 0, recv_idx = 0, last_idx = p2, mask = 1;
#define RX_SUM(from, to) (off[(to) - 1] + len[(to) - 1] - off[from])
        while (mask < p2) {
            int pn = nr ^ mask, peer = rx_real_rank(pn, rem);
            uint64_t scnt, rcnt;
            if (nr < pn) {
                send_idx = recv_idx + p2 / (mask * 2);
                scnt = RX_SUM(send_idx, last_idx);
                rcnt = RX_SUM(recv_idx, send_idx);
            } else {
                recv_idx = send_idx + p2 / (mask * 2);
                scnt = RX_SUM(send_idx, recv_idx);
                rcnt = RX_SUM(recv_idx, last_idx);
            }
            rx_sched_round(s);
            rx_sched_send(s, peer, RX_SB_OUT, off[send_idx], scnt);
            rx_sched_recv(s, peer, RX_SB_TMP, off[recv_idx], rcnt);
            rx_sched_reduce(s, RX_SB_TMP, off[recv_idx], RX_SB_OUT, off[recv_idx], rcnt);
            send_idx = recv_idx;
            mask <<= 1;
            if (mask < p2)
                last_idx = recv_idx + p2 / mask;
        }
        for (mask >>= 1; mask > 0; mask >>= 1) {
            int pn = nr ^ mask, peer = rx_real_rank(pn, rem);
            uint64_t scnt, rcnt;
            if (nr < pn) {
                if (mask != p2 / 2)
                    last_idx = last_idx + p2 / (mask * 2);
                recv_idx = send_idx + p2 / (mask * 2);
                scnt = RX_SUM(send_idx, recv_idx);
                rcnt = RX_SUM(recv_idx, last_idx);
            } else {
                recv_idx = send_idx - p2 / (mask * 2);
                scnt = RX_SUM(send_idx, last_idx);
                rcnt = RX_SUM(recv_idx, send_idx);
            }
            rx_sched_round(s);
            rx_sched_send(s, peer, RX_SB_OUT, off[send_idx], scnt);
            rx_sched_recv(s, peer, RX_SB_OUT, off[recv_idx], rcnt);
            if (nr > pn)
                send_idx = recv_idx;
        }
#undef RX_SUM
    }
    rx_unfold(s, p, r, B);
    free(off);
    return RX_OK;
}

/* Ring (commutative ops, count >= p): reduce-scatter and allgather around
 * the ring, 2B (p-1)/p per rank moved, one neighbour each way. */
static int rx_allreduce_ring(rx_sched_t *s, const rx_sched_args_t *a, uint64_t B)
{
    int p = a->p, r = a->rank;
    uint64_t *off = malloc(sizeof *off * 2 * (size_t)p), *len = off + p;
    if (!off)
        return RX_ERR_NOMEM;
    rx_split(a->count, a->unit, p, off, len);
    rx_sched_tmp(s, len[0]);
    rx_sched_round(s);
    rx_sched_copy(s, RX_SB_IN, 0, RX_SB_OUT, 0, B);
    rx_rs_ring(s, p, r, RX_SB_OUT, 0, off, len, 0);
    rx_sched_allgather_ring(s, p, r, RX_SB_OUT, off, len);
    free(off);
    return RX_OK;
}

/* Reduce for large vectors (commutative, count >= p): ring reduce-scatter,
 * then every rank sends its finished block to the root. */
static int rx_reduce_rs_gather(rx_sched_t *s, const rx_sched_args_t *a, uint64_t B)
{
    int p = a->p, r = a->rank, root = a->root;
    uint64_t *off = malloc(sizeof *off * 2 * (size_t)p), *len = off + p;
    if (!off)
        return RX_ERR_NOMEM;
    if (p < 1) {
        free(off);
        return RX_ERR_INVAL;
    }
    rx_split(a->count, a->unit, p, off, len);
    /* the root accumulates in OUT, the others in TMP after the receive area */
    int abuf = r == root ? RX_SB_OUT : RX_SB_TMP;
    uint64_t aoff = r == root ? 0 : len[0];
    rx_sched_tmp(s, len[0] + (r == root ? 0 : B));
    rx_sched_round(s);
    rx_sched_copy(s, RX_SB_IN, 0, abuf, aoff, B);
    rx_rs_ring(s, p, r, abuf, aoff, off, len, 0);
    rx_sched_round(s);
    if (r == root) {
        for (int i = 0; i < p; i++)
            if (i != root)
                rx_sched_recv(s, i, RX_SB_OUT, off[i], len[i]);
    } else {
        rx_sched_send(s, root, abuf, aoff + off[r], len[r]);
    }
    free(off);
    return RX_OK;
}

/* Reduce_scatter: rcounts[i] elements for rank i. Ring for commutative
 * ops; otherwise reduce to rank 0 (binomial, rank order) and scatter. */
static int rx_reduce_scatter(rx_sched_t *s, const rx_sched_args_t *a, uint64_t B)
{
    int p = a->p, r = a->rank;
    uint64_t *off = malloc(sizeof *off * 2 * (size_t)p), *len = off + p, o = 0;
    if (!off)
        return RX_ERR_NOMEM;
    for (int i = 0; i < p; i++) {
        off[i] = o * a->unit;
        len[i] = a->rcounts[i] * a->unit;
        o += a->rcounts[i];
    }
    uint64_t maxlen = 0;
    for (int i = 0; i < p; i++)
        maxlen = len[i] > maxlen ? len[i] : maxlen;
    if (a->algo == RX_ALGO_RING) {
        rx_sched_tmp(s, maxlen + B);
        rx_sched_round(s);
        rx_sched_copy(s, RX_SB_IN, 0, RX_SB_TMP, maxlen, B);
        rx_rs_ring(s, p, r, RX_SB_TMP, maxlen, off, len, 0);
        rx_sched_copy(s, RX_SB_TMP, maxlen + off[r], RX_SB_OUT, 0, len[r]);
    } else {
        uint64_t acc = rx_reduce_binomial(s, p, r, 0, B);
        rx_sched_round(s);
        if (r == 0) {
            for (int i = 1; i < p; i++)
                rx_sched_send(s, i, RX_SB_TMP, acc + off[i], len[i]);
            rx_sched_copy(s, RX_SB_TMP, acc, RX_SB_OUT, 0, len[0]);
        } else {
            rx_sched_recv(s, 0, RX_SB_OUT, 0, len[r]);
        }
    }
    free(off);
    return RX_OK;
}

/* Inclusive (scan) and exclusive (exscan) prefix by recursive doubling:
 * TMP = [partial][incoming]; the partial of the higher rank is always
 * combined as `inout`, so the order holds for any op. */
static void rx_scan(rx_sched_t *s, const rx_sched_args_t *a, uint64_t B, int exclusive)
{
    int p = a->p, r = a->rank, have_out = 0;
    uint64_t part = 0, in = B;
    rx_sched_tmp(s, 2 * B);
    rx_sched_round(s);
    rx_sched_copy(s, RX_SB_IN, 0, RX_SB_TMP, part, B);
    if (!exclusive)
        rx_sched_copy(s, RX_SB_IN, 0, RX_SB_OUT, 0, B);
    for (int mask = 1; mask < p; mask <<= 1) {
        int peer = r ^ mask;
        if (peer >= p)
            continue;
        rx_sched_round(s);
        rx_sched_send(s, peer, RX_SB_TMP, part, B);
        rx_sched_recv(s, peer, RX_SB_TMP, in, B);
        if (r > peer) {
            if (exclusive && !have_out)
                rx_sched_copy(s, RX_SB_TMP, in, RX_SB_OUT, 0, B);
            else
                rx_sched_reduce(s, RX_SB_TMP, in, RX_SB_OUT, 0, B);
            have_out = 1;
            rx_sched_reduce(s, RX_SB_TMP, in, RX_SB_TMP, part, B);
        } else {
            rx_sched_reduce(s, RX_SB_TMP, part, RX_SB_TMP, in, B);
            uint64_t t = part;
            part = in;
            in = t;
        }
    }
}

int rx_sched_build_reduce(rx_sched_t *s, const rx_sched_args_t *a)
{
    uint64_t B = a->count * a->unit;
    switch (a->kind) {
    case RX_COLL_REDUCE:
        if (a->algo == RX_ALGO_RS_GATHER && rx_sched_algo_fits(a))
            return rx_reduce_rs_gather(s, a, B);
        rx_reduce_to_root(s, a, B);
        return RX_OK;
    case RX_COLL_ALLREDUCE:
        if (a->algo == RX_ALGO_RABENSEIFNER && rx_sched_algo_fits(a))
            return rx_allreduce_rabenseifner(s, a, B);
        if (a->algo == RX_ALGO_RING && rx_sched_algo_fits(a))
            return rx_allreduce_ring(s, a, B);
        rx_allreduce_rd(s, a, B);
        return RX_OK;
    case RX_COLL_REDUCE_SCATTER: {
        rx_sched_args_t b = *a;
        if (b.algo == RX_ALGO_RING && !b.commute)
            b.algo = RX_ALGO_REDUCE_SCATTERV;
        return rx_reduce_scatter(s, &b, B);
    }
    case RX_COLL_SCAN:
    case RX_COLL_EXSCAN:
        rx_scan(s, a, B, a->kind == RX_COLL_EXSCAN);
        return RX_OK;
    }
    return RX_ERR_INVAL;
}

int rx_sched_algo_fits(const rx_sched_args_t *a)
{
    switch (a->algo) {
    case RX_ALGO_RABENSEIFNER:
        return a->commute && a->count >= (uint64_t)rx_pof2_floor(a->p);
    case RX_ALGO_RING:
        if (a->kind == RX_COLL_ALLREDUCE)
            return a->commute && a->count >= (uint64_t)a->p;
        if (a->kind == RX_COLL_REDUCE_SCATTER)
            return a->commute;
        return a->kind == RX_COLL_ALLGATHER;
    case RX_ALGO_RS_GATHER:
        return a->commute && a->count >= (uint64_t)a->p;
    case RX_ALGO_HIER:
        return a->node_of != NULL && (a->kind == RX_COLL_ALLREDUCE || a->kind == RX_COLL_BCAST ||
                                      a->kind == RX_COLL_BARRIER || a->kind == RX_COLL_REDUCE) &&
               (a->commute || a->kind == RX_COLL_BCAST || a->kind == RX_COLL_BARRIER);
    default:
        return 1;
    }
}
