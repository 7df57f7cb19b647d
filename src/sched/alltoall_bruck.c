/* SPDX-License-Identifier: MIT
 * All-to-all by Bruck's algorithm for small blocks: log p rounds of
 * (p/2)-block messages. TMP: [p blocks rotated][pack of up to p blocks]
 * [receive pack]. Block i of the rotated array goes to rank r + i; in
 * round k the blocks with bit k set in i travel k ranks ahead. */
#include "parts.h"
#include "util/status.h"

#define RX_XO_ALLTOALL_BRUCK 256 /* block bytes; Bruck up to here (p > 2) */

static int rx_build(rx_sched_t *s, const rx_sched_args_t *a)
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
    return RX_OK;
}

static int rx_fits(const rx_sched_args_t *a)
{
    return !a->scounts;
}

static int rx_prefer(const rx_sched_args_t *a)
{
    return a->bytes <= RX_XO_ALLTOALL_BRUCK && a->p > 2 ? 2 : 0;
}

const rx_sched_algo_t rx_algo_alltoall_bruck = {
    .kind = RX_COLL_ALLTOALL, .name = "bruck",
    .help = "ceil(log2 p) rounds of packed blocks; uniform blocks (automatic up to 256 B blocks "
            "at p > 2)",
    .fits = rx_fits, .prefer = rx_prefer, .build = rx_build,
};
