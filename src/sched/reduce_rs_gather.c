/* SPDX-License-Identifier: MIT
 * Reduce for large vectors (commutative ops, count >= p): ring
 * reduce-scatter, then every rank sends its finished block to the root. */
#include "parts.h"
#include "util/status.h"

#include <stdlib.h>

#define RX_XO_REDUCE_LARGE 65536 /* bytes of the vector; binomial below (and at p <= 2) */

static int rx_build(rx_sched_t *s, const rx_sched_args_t *a)
{
    int p = a->p, r = a->rank, root = a->root;
    uint64_t B = a->count * a->unit;
    uint64_t *off = malloc(sizeof *off * 2 * (size_t)p), *len = off + p;
    if (!off)
        return RX_ERR_NOMEM;
    rx_sched_split(a->count, a->unit, p, off, len);
    /* the root accumulates in OUT, the others in TMP after the receive area */
    int abuf = r == root ? RX_SB_OUT : RX_SB_TMP;
    uint64_t aoff = r == root ? 0 : len[0];
    rx_sched_tmp(s, len[0] + (r == root ? 0 : B));
    rx_sched_round(s);
    rx_sched_copy(s, RX_SB_IN, 0, abuf, aoff, B);
    rx_sched_rs_ring(s, p, r, abuf, aoff, off, len, 0);
    rx_sched_round(s);
    if (r == root) {
        for (int i = 0; i < p; i++)
            if (i != root)
                rx_sched_recv(s, i, RX_SB_OUT, off[i], len[i]);
    } else {
        rx_sched_send(s, root, abuf, aoff + off[r], len[r]);
    }
    free(off);
    return RX_OK;
}

static int rx_fits(const rx_sched_args_t *a)
{
    return a->commute && a->count >= (uint64_t)a->p;
}

static int rx_prefer(const rx_sched_args_t *a)
{
    return a->count * a->unit >= RX_XO_REDUCE_LARGE && a->p > 2 ? 2 : 0;
}

const rx_sched_algo_t rx_algo_reduce_rs_gather = {
    .kind = RX_COLL_REDUCE, .name = "rs_gather",
    .help = "ring reduce-scatter, then gather to the root; commutative ops, count >= p "
            "(automatic from 64 KiB at p > 2)",
    .fits = rx_fits, .prefer = rx_prefer, .build = rx_build,
};
