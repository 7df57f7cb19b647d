/* SPDX-License-Identifier: MIT
 * Scatter(v), linear: the root sends every block in one round. */
#include "parts.h"
#include "util/status.h"

static int rx_build(rx_sched_t *s, const rx_sched_args_t *a)
{
    rx_sched_round(s);
    if (a->rank != a->root) {
        rx_sched_recv(s, a->root, RX_SB_OUT, 0, a->bytes);
        return RX_OK;
    }
    for (int i = 0; i < a->p; i++)
        if (i != a->root)
            rx_sched_send(s, i, RX_SB_IN, rx_sched_blk_off(a, a->sdispls, i),
                          rx_sched_blk_len(a, a->scounts, i));
    rx_sched_copy(s, RX_SB_IN, rx_sched_blk_off(a, a->sdispls, a->root), RX_SB_OUT, 0, a->bytes);
    return RX_OK;
}

const rx_sched_algo_t rx_algo_scatter_linear = {
    .kind = RX_COLL_SCATTER, .name = "linear",
    .help = "the root sends every block in one round (bytes: this rank's block)",
    .prefer = rx_sched_prefer_default, .build = rx_build,
};
