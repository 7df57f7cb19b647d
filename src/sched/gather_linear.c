/* SPDX-License-Identifier: MIT
 * Gather(v), linear: the root receives every block in one round. */
#include "parts.h"
#include "util/status.h"

static int rx_build(rx_sched_t *s, const rx_sched_args_t *a)
{
    rx_sched_round(s);
    if (a->rank != a->root) {
        rx_sched_send(s, a->root, RX_SB_IN, 0, a->bytes);
        return RX_OK;
    }
    for (int i = 0; i < a->p; i++)
        if (i != a->root)
            rx_sched_recv(s, i, RX_SB_OUT, rx_sched_blk_off(a, a->rdispls, i),
                          rx_sched_blk_len(a, a->rcounts, i));
    rx_sched_copy(s, RX_SB_IN, 0, RX_SB_OUT, rx_sched_blk_off(a, a->rdispls, a->root), a->bytes);
    return RX_OK;
}

const rx_sched_algo_t rx_algo_gather_linear = {
    .kind = RX_COLL_GATHER, .name = "linear",
    .help = "the root receives every block in one round (bytes: this rank's block)",
    .prefer = rx_sched_prefer_default, .build = rx_build,
};
