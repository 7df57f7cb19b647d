/* SPDX-License-Identifier: MIT
 * Barrier by dissemination: round k signals rank + 2^k and hears from
 * rank - 2^k; after ceil(log2 p) rounds every rank has heard from everyone
 * indirectly. */
#include "parts.h"
#include "util/status.h"

static int rx_build(rx_sched_t *s, const rx_sched_args_t *a)
{
    int p = a->p, r = a->rank;
    for (int d = 1; d < p; d <<= 1) {
        rx_sched_round(s);
        rx_sched_send(s, (r + d) % p, RX_SB_OUT, 0, 0);
        rx_sched_recv(s, (r - d + p) % p, RX_SB_OUT, 0, 0);
    }
    return RX_OK;
}

const rx_sched_algo_t rx_algo_barrier_dissemination = {
    .kind = RX_COLL_BARRIER, .name = "dissemination",
    .help = "ceil(log2 p) rounds of zero-byte messages to rank + 2^k (the automatic choice)",
    .prefer = rx_sched_prefer_default, .build = rx_build,
};
