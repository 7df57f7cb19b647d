/* SPDX-License-Identifier: MIT
 * Reduce_scatter (rcounts[i] elements for rank i) for any op: a binomial
 * reduce to rank 0 in rank order, then rank 0 scatters the blocks. */
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
    rx_sched_count_blocks(a, off, len);
    uint64_t acc = rx_sched_reduce_binomial(s, p, r, 0, B);
    rx_sched_round(s);
    if (r == 0) {
        for (int i = 1; i < p; i++)
            rx_sched_send(s, i, RX_SB_TMP, acc + off[i], len[i]);
        rx_sched_copy(s, RX_SB_TMP, acc, RX_SB_OUT, 0, len[0]);
    } else {
        rx_sched_recv(s, 0, RX_SB_OUT, 0, len[r]);
    }
    free(off);
    return RX_OK;
}

static int rx_fits(const rx_sched_args_t *a)
{
    return a->rcounts != NULL;
}

const rx_sched_algo_t rx_algo_reduce_scatter_reduce_scatterv = {
    .kind = RX_COLL_REDUCE_SCATTER, .name = "reduce_scatterv",
    .help = "binomial reduce to rank 0, then scatter; any op (automatic for non-commutative ops)",
    .fits = rx_fits, .prefer = rx_sched_prefer_default, .build = rx_build,
};
