/* SPDX-License-Identifier: MIT
 * Allgather by Bruck's algorithm: log p rounds for any p. TMP holds the
 * blocks rotated so that the own block is first; round k sends the first
 * min(k, p - k) blocks to rank - k and appends what rank + k sends; a final
 * rotation writes OUT. Uniform blocks only. */
#include "parts.h"
#include "util/status.h"

static int rx_build(rx_sched_t *s, const rx_sched_args_t *a)
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
    return RX_OK;
}

static int rx_fits(const rx_sched_args_t *a)
{
    return !a->rcounts;
}

/* Small totals when p is not a power of two. */
static int rx_prefer(const rx_sched_args_t *a)
{
    return rx_sched_is_pof2(a->p) ? 0 : 1;
}

const rx_sched_algo_t rx_algo_allgather_bruck = {
    .kind = RX_COLL_ALLGATHER, .name = "bruck",
    .help = "ceil(log2 p) rounds for any p; uniform blocks (automatic below 32 KiB in all when p "
            "is not a power of two)",
    .fits = rx_fits, .prefer = rx_prefer, .build = rx_build,
};
