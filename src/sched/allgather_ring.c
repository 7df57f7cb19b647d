/* SPDX-License-Identifier: MIT
 * Allgather(v) around a ring: p - 1 rounds, each passing on the block
 * received in the round before; any block sizes. */
#include "parts.h"
#include "util/status.h"

#include <stdlib.h>

#define RX_XO_ALLGATHER_LARGE 32768 /* total bytes; ring from here */

static int rx_build(rx_sched_t *s, const rx_sched_args_t *a)
{
    int p = a->p;
    uint64_t *off = malloc(sizeof *off * 2 * (size_t)p), *len = off + p;
    if (!off)
        return RX_ERR_NOMEM;
    for (int i = 0; i < p; i++) {
        off[i] = rx_sched_blk_off(a, a->rdispls, i);
        len[i] = rx_sched_blk_len(a, a->rcounts, i);
    }
    rx_sched_round(s);
    rx_sched_copy(s, RX_SB_IN, 0, RX_SB_OUT, off[a->rank], len[a->rank]);
    rx_sched_allgather_ring(s, p, a->rank, RX_SB_OUT, off, len);
    free(off);
    return RX_OK;
}

static int rx_prefer(const rx_sched_args_t *a)
{
    return a->rcounts || a->bytes * (uint64_t)a->p >= RX_XO_ALLGATHER_LARGE ? 2 : 0;
}

const rx_sched_algo_t rx_algo_allgather_ring = {
    .kind = RX_COLL_ALLGATHER, .name = "ring",
    .help = "p - 1 rounds to the right-hand neighbour; any block sizes (automatic from 32 KiB in "
            "all and for allgatherv)",
    .prefer = rx_prefer, .build = rx_build,
};
