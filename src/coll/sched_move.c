/* SPDX-License-Identifier: MIT
 * Schedules of the collectives that move data without combining it:
 * barrier, bcast, gather(v), scatter(v), allgather(v), alltoall(v). */
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

/* Dissemination: round k signals rank + 2^k and hears from rank - 2^k;
 * after ceil(log2 p) rounds every rank has heard from everyone indirectly. */
static void rx_barrier_dissemination(rx_sched_t *s, const rx_sched_args_t *a)
{
    int p = a->p, r = a->rank;
    for (int d = 1; d < p; d <<= 1) {
        rx_sched_round(s);
        rx_sched_send(s, (r + d) % p, RX_SB_OUT, 0, 0);
        rx_sched_recv(s, (r - d + p) % p, RX_SB_OUT, 0, 0);
    }
}

/* Binomial tree over ranks relative to root, data in OUT at off (len). */
void rx_sched_bcast_binomial(rx_sched_t *s, int p, int rank, int root, uint64_t off,
                             uint64_t len)
{
    int rel = (rank - root + p) % p, mask = 1;
    while (mask < p) {
        if (rel & mask) {
            rx_sched_round(s);
            rx_sched_recv(s, (rel - mask + root) % p, RX_SB_OUT, off, len);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (rel + mask < p) {
            rx_sched_round(s);
            rx_sched_send(s, (rel + mask + root) % p, RX_SB_OUT, off, len);
        }
    }
}

/* Ring allgather of variable blocks (off[i], len[i]) of OUT: in round k a
 * rank passes on the block it got in round k - 1. */
void rx_sched_allgather_ring(rx_sched_t *s, int p, int r, int buf, const uint64_t *off,
                             const uint64_t *len)
{
    int right = (r + 1) % p, left = (r - 1 + p) % p;
    for (int k = 0; k < p - 1; k++) {
        int sb = (r - k + p) % p, rb = (r - k - 1 + 2 * p) % p;
        rx_sched_round(s);
        rx_sched_send(s, right, buf, off[sb], len[sb]);
        rx_sched_recv(s, left, buf, off[rb], len[rb]);
    }
}

/* Large bcast (van de Geijn): the root scatters p pieces, a ring allgather
 * puts them together everywhere: ~2B per rank moved instead of B log p. */
static int rx_bcast_scatter_allgather(rx_sched_t *s, const rx_sched_args_t *a)
{
    int p = a->p, r = a->rank;
    uint64_t *off = malloc(sizeof *off * 2 * (size_t)p), *len = off + p;
    if (!off)
        return RX_ERR_NOMEM;
    uint64_t piece = (a->bytes + (uint64_t)p - 1) / (uint64_t)p;
    for (int i = 0; i < p; i++) {
        uint64_t o = piece * (uint64_t)i;
        off[i] = o < a->bytes ? o : a->bytes;
        len[i] = o < a->bytes ? (a->bytes - o < piece ? a->bytes - o : piece) : 0;
    }
    /* piece i belongs to rank (root + i): the root keeps piece 0 */
    int rel = (r - a->root + p) % p;
    rx_sched_round(s);
    if (r == a->root) {
        for (int i = 1; i < p; i++)
            rx_sched_send(s, (a->root + i) % p, RX_SB_OUT, off[i], len[i]);
    } else {
        rx_sched_recv(s, a->root, RX_SB_OUT, off[rel], len[rel]);
    }
    /* the ring runs over relative ranks: relative block j is piece j */
    int right = (r + 1) % p, left = (r - 1 + p) % p;
    for (int k = 0; k < p - 1; k++) {
        int sb = (rel - k + p) % p, rb = (rel - k - 1 + 2 * p) % p;
        rx_sched_round(s);
        rx_sched_send(s, right, RX_SB_OUT, off[sb], len[sb]);
        rx_sched_recv(s, left, RX_SB_OUT, off[rb], len[rb]);
    }
    free(off);
    return RX_OK;
}

static uint64_t rx_blk_off(const rx_sched_args_t *a, const uint64_t *displs, int i)
{
    return displs ? displs[i] : (uint64_t)i * a->bytes;
}

static uint64_t rx_blk_len(const rx_sched_args_t *a, const uint64_t *counts, int i)
{
    return counts ? counts[i] : a->bytes;
}

/* Linear gather: the root receives every block in one round. */
static void rx_gather_linear(rx_sched_t *s, const rx_sched_args_t *a)
{
    rx_sched_round(s);
    if (a->rank != a->root) {
        rx_sched_send(s, a->root, RX_SB_IN, 0, a->bytes);
        return;
    }
    for (int i = 0; i < a->p; i++)
        if (i != a->root)
            rx_sched_recv(s, i, RX_SB_OUT, rx_blk_off(a, a->rdispls, i), rx_blk_len(a, a->rcounts, i));
    rx_sched_copy(s, RX_SB_IN, 0, RX_SB_OUT, rx_blk_off(a, a->rdispls, a->root), a->bytes);
}

static void rx_scatter_linear(rx_sched_t *s, const rx_sched_args_t *a)
{
    rx_sched_round(s);
    if (a->rank != a->root) {
        rx_sched_recv(s, a->root, RX_SB_OUT, 0, a->bytes);
        return;
    }
    for (int i = 0; i < a->p; i++)
        if (i != a->root)
            rx_sched_send(s, i, RX_SB_IN, rx_blk_off(a, a->sdispls, i), rx_blk_len(a, a->scounts, i));
    rx_sched_copy(s, RX_SB_IN, rx_blk_off(a, a->sdispls, a->root), RX_SB_OUT, 0, a->bytes);
}

/* Recursive doubling over a power-of-two group; with p not a power of two
 * the first 2 * rem ranks pair up (2i hands its block to 2i + 1 and gets the
 * whole result back at the end). Every member of the group then holds a
 * contiguous range of original ranks, so blocks stay in place in OUT. */
static void rx_allgather_rd(rx_sched_t *s, const rx_sched_args_t *a)
{
    int p = a->p, r = a->rank, p2 = rx_pof2_floor(p), rem = p - p2;
    uint64_t b = a->bytes;
    rx_sched_round(s);
    rx_sched_copy(s, RX_SB_IN, 0, RX_SB_OUT, (uint64_t)r * b, b);
    int nr;
    if (r < 2 * rem) {
        if (r % 2 == 0) {
            rx_sched_round(s);
            rx_sched_send(s, r + 1, RX_SB_OUT, (uint64_t)r * b, b);
            rx_sched_round(s);
            rx_sched_recv(s, r + 1, RX_SB_OUT, 0, (uint64_t)p * b);
            return;
        }
        rx_sched_round(s);
        rx_sched_recv(s, r - 1, RX_SB_OUT, (uint64_t)(r - 1) * b, b);
        nr = r / 2;
    } else {
        nr = r - rem;
    }
#define RX_LO(n) ((n) < rem ? 2 * (n) : (n) + rem)
    for (int mask = 1; mask < p2; mask <<= 1) {
        int pn = nr ^ mask, mybase = nr & ~(mask - 1), pbase = pn & ~(mask - 1);
        int peer = pn < rem ? 2 * pn + 1 : pn + rem;
        uint64_t mlo = (uint64_t)RX_LO(mybase), mhi = (uint64_t)RX_LO(mybase + mask);
        uint64_t plo = (uint64_t)RX_LO(pbase), phi = (uint64_t)RX_LO(pbase + mask);
        rx_sched_round(s);
        rx_sched_send(s, peer, RX_SB_OUT, mlo * b, (mhi - mlo) * b);
        rx_sched_recv(s, peer, RX_SB_OUT, plo * b, (phi - plo) * b);
    }
#undef RX_LO
    if (r < 2 * rem) {
        rx_sched_round(s);
        rx_sched_send(s, r - 1, RX_SB_OUT, 0, (uint64_t)p * b);
    }
}

/* Bruck: log p rounds for any p. TMP holds the blocks rotated so that the
 * own block is first; round k sends the first min(k, p - k) blocks to
 * rank - k and appends what rank + k sends; a final rotation writes OUT. */
static void rx_allgather_bruck(rx_sched_t *s, const rx_sched_args_t *a)
{
    int p = a->p, r = a->rank;
    uint64_t b = a->bytes;
    rx_sched_tmp(s, (uint64_t)p * b);
    rx_sched_round(s);
    rx_sched_copy(s, RX_SB_IN, 0, RX_SB_TMP, 0, b);
    for (int k = 1; k < p; k <<= 1) {
        uint64_t n = (uint64_t)(k < p - k ? k : p - k);
        rx_sched_round(s);
        rx_sched_send(s, (r - k + p) % p, RX_SB_TMP, 0, n * b);
        rx_sched_recv(s, (r + k) % p, RX_SB_TMP, (uint64_t)k * b, n * b);
    }
    /* TMP block i is rank (r + i)'s: two copies undo the rotation */
    rx_sched_copy(s, RX_SB_TMP, 0, RX_SB_OUT, (uint64_t)r * b, (uint64_t)(p - r) * b);
    rx_sched_copy(s, RX_SB_TMP, (uint64_t)(p - r) * b, RX_SB_OUT, 0, (uint64_t)r * b);
}

/* Pairwise exchange: round k sends to rank + k and receives from rank - k,
 * one partner pair per round, so no rank is flooded. */
static void rx_alltoall_pairwise(rx_sched_t *s, const rx_sched_args_t *a)
{
    int p = a->p, r = a->rank;
    rx_sched_round(s);
    rx_sched_copy(s, RX_SB_IN, rx_blk_off(a, a->sdispls, r), RX_SB_OUT, rx_blk_off(a, a->rdispls, r),
                  rx_blk_len(a, a->scounts, r));
    for (int k = 1; k < p; k++) {
        int to = (r + k) % p, from = (r - k + p) % p;
        rx_sched_round(s);
        rx_sched_send(s, to, RX_SB_IN, rx_blk_off(a, a->sdispls, to), rx_blk_len(a, a->scounts, to));
        rx_sched_recv(s, from, RX_SB_OUT, rx_blk_off(a, a->rdispls, from),
                      rx_blk_len(a, a->rcounts, from));
    }
}

/* Bruck all-to-all for small blocks: log p rounds of (p/2)-block messages.
 * TMP: [p blocks rotated][pack of up to p blocks][receive pack]. Block i of
 * the rotated array goes to rank r + i; in round k the blocks with bit k set
 * in i travel k ranks ahead. */
static void rx_alltoall_bruck(rx_sched_t *s, const rx_sched_args_t *a)
{
    int p = a->p, r = a->rank;
    uint64_t b = a->bytes, pb = (uint64_t)p * b, spack = pb, rpack = 2 * pb;
    rx_sched_tmp(s, 3 * pb);
    rx_sched_round(s);
    /* rotate: TMP[i] = IN[(r + i) % p] */
    rx_sched_copy(s, RX_SB_IN, (uint64_t)r * b, RX_SB_TMP, 0, (uint64_t)(p - r) * b);
    rx_sched_copy(s, RX_SB_IN, 0, RX_SB_TMP, (uint64_t)(p - r) * b, (uint64_t)r * b);
    for (int k = 1; k < p; k <<= 1) {
        uint64_t n = 0;
        for (int i = 0; i < p; i++)
            if (i & k)
                rx_sched_copy(s, RX_SB_TMP, (uint64_t)i * b, RX_SB_TMP, spack + b * n++, b);
        rx_sched_round(s);
        rx_sched_send(s, (r + k) % p, RX_SB_TMP, spack, n * b);
        rx_sched_recv(s, (r - k + p) % p, RX_SB_TMP, rpack, n * b);
        n = 0;
        for (int i = 0; i < p; i++)
            if (i & k)
                rx_sched_copy(s, RX_SB_TMP, rpack + b * n++, RX_SB_TMP, (uint64_t)i * b, b);
    }
    /* TMP[i] now holds the block from rank r - i */
    for (int i = 0; i < p; i++)
        rx_sched_copy(s, RX_SB_TMP, (uint64_t)i * b, RX_SB_OUT, (uint64_t)((r - i + p) % p) * b, b);
}

int rx_sched_build_move(rx_sched_t *s, const rx_sched_args_t *a)
{
    int p = a->p;
    switch (a->kind) {
    case RX_COLL_BARRIER:
        rx_barrier_dissemination(s, a);
        return RX_OK;
    case RX_COLL_BCAST:
        if (a->algo == RX_ALGO_SCATTER_ALLGATHER && p > 1)
            return rx_bcast_scatter_allgather(s, a);
        rx_sched_bcast_binomial(s, p, a->rank, a->root, 0, a->bytes);
        return RX_OK;
    case RX_COLL_GATHER:
        rx_gather_linear(s, a);
        return RX_OK;
    case RX_COLL_SCATTER:
        rx_scatter_linear(s, a);
        return RX_OK;
    case RX_COLL_ALLGATHER:
        if (a->rcounts || a->algo == RX_ALGO_RING) {
            uint64_t *off = malloc(sizeof *off * 2 * (size_t)p), *len = off + p;
            if (!off)
                return RX_ERR_NOMEM;
            for (int i = 0; i < p; i++) {
                off[i] = rx_blk_off(a, a->rdispls, i);
                len[i] = rx_blk_len(a, a->rcounts, i);
            }
            rx_sched_round(s);
            rx_sched_copy(s, RX_SB_IN, 0, RX_SB_OUT, off[a->rank], len[a->rank]);
            rx_sched_allgather_ring(s, p, a->rank, RX_SB_OUT, off, len);
            free(off);
        } else if (a->algo == RX_ALGO_BRUCK) {
            rx_allgather_bruck(s, a);
        } else {
            rx_allgather_rd(s, a);
        }
        return RX_OK;
    case RX_COLL_ALLTOALL:
        if (a->algo == RX_ALGO_BRUCK && !a->scounts)
            rx_alltoall_bruck(s, a);
        else
            rx_alltoall_pairwise(s, a);
        return RX_OK;
    }
    return RX_ERR_INVAL;
}
