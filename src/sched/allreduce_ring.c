/* SPDX-License-Identifier: MIT
 * Allreduce around a ring (commutative ops, count >= p): reduce-scatter and
 * allgather, 2B (p-1)/p per rank moved, one neighbour each way. */
#include "parts.h"
#include "util/status.h"

#include <stdlib.h>

static int rx_build(rx_sched_t *s, const rx_sched_args_t *a)
{
    int p = a->p, r = a->rank;
    uint64_t B = a->count * a->unit;
    uint64_t *off = malloc(sizeof *off * 2 * (size_t)p), *len = off + p;
    if (!off)
        return RX_ERR_NOMEM;
    rx_sched_split(a->count, a->unit, p, off, len);
    rx_sched_tmp(s, len[0]);
    rx_sched_round(s);
    rx_sched_copy(s, RX_SB_IN, 0, RX_SB_OUT, 0, B);
    rx_sched_rs_ring(s, p, r, RX_SB_OUT, 0, off, len, 0);
    rx_sched_allgather_ring(s, p, r, RX_SB_OUT, off, len);
    free(off);
    return RX_OK;
}

static int rx_fits(const rx_sched_args_t *a)
{
    return a->commute && a->count >= (uint64_t)a->p;
}

/* Above the recursive-doubling crossover: the choice when p is not a power
 * of two (Rabenseifner's fold would idle ranks). */
static int rx_prefer(const rx_sched_args_t *a)
{
    return rx_sched_is_pof2(a->p) ? -1 : 2;
}

const rx_sched_algo_t rx_algo_allreduce_ring = {
    .kind = RX_COLL_ALLREDUCE, .name = "ring",
    .help = "ring reduce-scatter + ring allgather; commutative ops, count >= p (automatic for "
            "large vectors when p is not a power of two)",
    .fits = rx_fits, .prefer = rx_prefer, .build = rx_build,
};
