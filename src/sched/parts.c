/* SPDX-License-Identifier: MIT
 * Pieces several algorithms are made of (parts.h). */
#include "parts.h"

int rx_sched_pof2_floor(int n)
{
    int p = 1;
    while (p * 2 <= n)
        p *= 2;
    return p;
}

int rx_sched_is_pof2(int n)
{
    return (n & (n - 1)) == 0;
}

void rx_sched_split(uint64_t count, uint64_t unit, int n, uint64_t *off, uint64_t *len)
{
    uint64_t q = count / (uint64_t)n, r = count % (uint64_t)n, o = 0;
    for (int i = 0; i < n; i++) {
        uint64_t c = q + ((uint64_t)i < r);
        off[i] = o * unit;
        len[i] = c * unit;
        o += c;
    }
}

uint64_t rx_sched_count_blocks(const rx_sched_args_t *a, uint64_t *off, uint64_t *len)
{
    uint64_t o = 0, longest = 0;
    for (int i = 0; i < a->p; i++) {
        off[i] = o * a->unit;
        len[i] = a->rcounts[i] * a->unit;
        o += a->rcounts[i];
        longest = len[i] > longest ? len[i] : longest;
    }
    return longest;
}

int rx_sched_prefer_default(const rx_sched_args_t *a)
{
    (void)a;
    return 1;
}

uint64_t rx_sched_blk_off(const rx_sched_args_t *a, const uint64_t *displs, int i)
{
    return displs ? displs[i] : (uint64_t)i * a->bytes;
}

uint64_t rx_sched_blk_len(const rx_sched_args_t *a, const uint64_t *counts, int i)
{
    return counts ? counts[i] : a->bytes;
}

/* Binomial tree over ranks relative to root. */
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

/* Round k sends block r - k - 1 and combines block r - k - 2. */
void rx_sched_rs_ring(rx_sched_t *s, int p, int r, int abuf, uint64_t aoff, const uint64_t *off,
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

uint64_t rx_sched_reduce_binomial(rx_sched_t *s, int p, int r, int troot, uint64_t B)
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

int rx_sched_fold(rx_sched_t *s, int p, int r, uint64_t B)
{
    int rem = p - rx_sched_pof2_floor(p);
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

void rx_sched_unfold(rx_sched_t *s, int p, int r, uint64_t B)
{
    int rem = p - rx_sched_pof2_floor(p);
    if (r >= 2 * rem)
        return;
    rx_sched_round(s);
    if (r % 2 == 0)
        rx_sched_recv(s, r + 1, RX_SB_OUT, 0, B);
    else
        rx_sched_send(s, r - 1, RX_SB_OUT, 0, B);
}

int rx_sched_real_rank(int nr, int rem)
{
    return nr < rem ? 2 * nr + 1 : nr + rem;
}
