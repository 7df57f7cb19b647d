/* SPDX-License-Identifier: MIT
 * All-to-all(v) by pairwise exchange: round k sends to rank + k and
 * receives from rank - k, one partner pair per round, so no rank is
 * flooded. */
#include "parts.h"
#include "util/status.h"

static int rx_build(rx_sched_t *s, const rx_sched_args_t *a)
{
    int p = a->p, r = a->rank;
    rx_sched_round(s);
    rx_sched_copy(s, RX_SB_IN, rx_sched_blk_off(a, a->sdispls, r), RX_SB_OUT,
                  rx_sched_blk_off(a, a->rdispls, r), rx_sched_blk_len(a, a->scounts, r));
    for (int k = 1; k < p; k++) {
        int to = (r + k) % p, from = (r - k + p) % p;
        rx_sched_round(s);
        rx_sched_send(s, to, RX_SB_IN, rx_sched_blk_off(a, a->sdispls, to),
                      rx_sched_blk_len(a, a->scounts, to));
        rx_sched_recv(s, from, RX_SB_OUT, rx_sched_blk_off(a, a->rdispls, from),
                      rx_sched_blk_len(a, a->rcounts, from));
    }
    return RX_OK;
}

const rx_sched_algo_t rx_algo_alltoall_pairwise = {
    .kind = RX_COLL_ALLTOALL, .name = "pairwise",
    .help = "p - 1 rounds, one partner each way per round; any block sizes (automatic above 256 B "
            "blocks, at p <= 2 and for alltoallv)",
    .prefer = rx_sched_prefer_default, .build = rx_build,
};
