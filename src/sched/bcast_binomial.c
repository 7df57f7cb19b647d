/* SPDX-License-Identifier: MIT
 * Bcast along a binomial tree rooted at the root: log p rounds of the
 * whole message; the choice for small messages. */
#include "parts.h"
#include "util/status.h"

static int rx_build(rx_sched_t *s, const rx_sched_args_t *a)
{
    rx_sched_bcast_binomial(s, a->p, a->rank, a->root, 0, a->bytes);
    return RX_OK;
}

const rx_sched_algo_t rx_algo_bcast_binomial = {
    .kind = RX_COLL_BCAST, .name = "binomial",
    .help = "binomial tree, log p rounds of the whole message (automatic below 128 KiB or at p <= 2)",
    .prefer = rx_sched_prefer_default, .build = rx_build,
};
