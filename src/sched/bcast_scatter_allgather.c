/* SPDX-License-Identifier: MIT
 * Large bcast (van de Geijn): the root scatters p pieces, a ring allgather
 * puts them together everywhere: ~2B per rank moved instead of B log p. */
#include "parts.h"
#include "util/status.h"

#include <stdlib.h>

#define RX_XO_BCAST_LARGE 131072 /* bytes; binomial below (and at p <= 2) */

static int rx_build(rx_sched_t *s, const rx_sched_args_t *a)
{
    int p = a->p, r = a->rank;
    uint64_t *off = malloc(sizeof *off * 2 * (size_t)p), *len = off + p;
    if (!off)
        return RX_ERR_NOMEM;
    uint64_t piece = (a->bytes + (uint64_t)p - 1) / (uint64_t)p;
    for (int i = 0; i < p; i++) {
        uint64_t o = piece * (uint64_t)i;
        off[i] = o < a->bytes ? o : a->bytes;
        len[i] = o < a->bytes ? (a->bytes - o < piece ? a->bytes - o : piece) : 0;
    }
    /* piece i belongs to rank (root + i): the root keeps piece 0 */
    int rel = (r - a->root + p) % p;
    rx_sched_round(s);
    if (r == a->root) {
        for (int i = 1; i < p; i++)
            rx_sched_send(s, (a->root + i) % p, RX_SB_OUT, off[i], len[i]);
    } else {
        rx_sched_recv(s, a->root, RX_SB_OUT, off[rel], len[rel]);
    }
    /* the ring runs over relative ranks: relative block j is piece j */
    int right = (r + 1) % p, left = (r - 1 + p) % p;
    for (int k = 0; k < p - 1; k++) {
        int sb = (rel - k + p) % p, rb = (rel - k - 1 + 2 * p) % p;
        rx_sched_round(s);
        rx_sched_send(s, right, RX_SB_OUT, off[sb], len[sb]);
        rx_sched_recv(s, left, RX_SB_OUT, off[rb], len[rb]);
    }
    free(off);
    return RX_OK;
}

static int rx_fits(const rx_sched_args_t *a)
{
    return a->p > 1;
}

static int rx_prefer(const rx_sched_args_t *a)
{
    return a->bytes >= RX_XO_BCAST_LARGE && a->p > 2 ? 2 : 0;
}

const rx_sched_algo_t rx_algo_bcast_scatter_allgather = {
    .kind = RX_COLL_BCAST, .name = "scatter_allgather",
    .help = "root scatters p pieces, ring allgather joins them (automatic from 128 KiB at p > 2)",
    .fits = rx_fits, .prefer = rx_prefer, .build = rx_build,
};
