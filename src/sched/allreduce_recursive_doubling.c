/* SPDX-License-Identifier: MIT
 * Allreduce by recursive doubling (any op): log p exchanges of the whole
 * vector. The accumulator moves between IN, OUT and TMP symbolically, so no
 * copies are needed to keep the lower range on the left, and the first
 * exchange sends IN directly (no round of its own for the copy into OUT).
 * It holds the small-vector crossover of the automatic choice. */
#include "parts.h"
#include "util/status.h"

#define RX_XO_ALLREDUCE_LARGE 16384  /* bytes; recursive doubling below */
#define RX_XO_ALLREDUCE_P2_RS 524288 /* p = 2: recursive doubling below */

static int rx_build(rx_sched_t *s, const rx_sched_args_t *a)
{
    int p = a->p, r = a->rank, p2 = rx_sched_pof2_floor(p), rem = p - p2, nr;
    uint64_t B = a->count * a->unit;
    rx_sched_tmp(s, B);
    if (p == 1) {
        rx_sched_round(s);
        rx_sched_copy(s, RX_SB_IN, 0, RX_SB_OUT, 0, B);
        return RX_OK;
    }
    int acc = RX_SB_IN, tmp = RX_SB_TMP; /* acc IN: OUT not written yet */
    if (r < 2 * rem) {
        rx_sched_round(s);
        if (r % 2 == 0) {
            rx_sched_send(s, r + 1, RX_SB_IN, 0, B);
            rx_sched_round(s);
            rx_sched_recv(s, r + 1, RX_SB_OUT, 0, B);
            return RX_OK;
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
        int pn = nr ^ mask, peer = rx_sched_real_rank(pn, rem);
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
    return RX_OK;
}

/* Small vectors (latency-bound) take this one; above the crossover it is
 * the fallback (preference 0) when the bandwidth algorithms do not fit. At
 * p = 2 all of them exchange the same bytes; only from 512 KiB does halving
 * the reduction work per rank outweigh the extra round. */
static int rx_prefer(const rx_sched_args_t *a)
{
    uint64_t B = a->count * a->unit;
    return B < RX_XO_ALLREDUCE_LARGE || (a->p == 2 && B < RX_XO_ALLREDUCE_P2_RS) ? 3 : 0;
}

const rx_sched_algo_t rx_algo_allreduce_recursive_doubling = {
    .kind = RX_COLL_ALLREDUCE, .name = "recursive_doubling",
    .help = "log p exchanges of the whole vector, any op (automatic below 16 KiB, at p = 2 below "
            "512 KiB, and for non-commutative ops)",
    .prefer = rx_prefer, .build = rx_build,
};
