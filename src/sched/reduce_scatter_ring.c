/* SPDX-License-Identifier: MIT
 * Reduce_scatter (rcounts[i] elements for rank i) around a ring, for
 * commutative ops: the whole vector is reduced in TMP block by block and
 * every rank keeps its own block. */
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
    uint64_t maxlen = rx_sched_count_blocks(a, off, len);
    rx_sched_tmp(s, maxlen + B);
    rx_sched_round(s);
    rx_sched_copy(s, RX_SB_IN, 0, RX_SB_TMP, maxlen, B);
    rx_sched_rs_ring(s, p, r, RX_SB_TMP, maxlen, off, len, 0);
    rx_sched_copy(s, RX_SB_TMP, maxlen + off[r], RX_SB_OUT, 0, len[r]);
    free(off);
    return RX_OK;
}

static int rx_fits(const rx_sched_args_t *a)
{
    return a->commute && a->rcounts;
}

static int rx_prefer(const rx_sched_args_t *a)
{
    (void)a;
    return 2;
}

const rx_sched_algo_t rx_algo_reduce_scatter_ring = {
    .kind = RX_COLL_REDUCE_SCATTER, .name = "ring",
    .help = "ring reduce-scatter; commutative ops (automatic for them)",
    .fits = rx_fits, .prefer = rx_prefer, .build = rx_build,
};
