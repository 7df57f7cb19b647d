/* SPDX-License-Identifier: MIT
 * Reduce along a binomial tree (any op): rooted at the root for
 * commutative ops; otherwise at rank 0, whose subtrees cover contiguous
 * rank ranges in order, and rank 0 hands the result to the root. */
#include "parts.h"
#include "util/status.h"

static int rx_build(rx_sched_t *s, const rx_sched_args_t *a)
{
    int p = a->p, r = a->rank, troot = a->commute ? a->root : 0;
    uint64_t B = a->count * a->unit;
    uint64_t acc = rx_sched_reduce_binomial(s, p, r, troot, B);
    if (troot != a->root) {
        rx_sched_round(s);
        if (r == troot)
            rx_sched_send(s, a->root, RX_SB_TMP, acc, B);
        else if (r == a->root)
            rx_sched_recv(s, troot, RX_SB_TMP, acc, B);
    }
    if (r == a->root)
        rx_sched_copy(s, RX_SB_TMP, acc, RX_SB_OUT, 0, B);
    return RX_OK;
}

const rx_sched_algo_t rx_algo_reduce_binomial = {
    .kind = RX_COLL_REDUCE, .name = "binomial",
    .help = "binomial tree, any op (automatic below 64 KiB, at p <= 2 or for non-commutative ops)",
    .prefer = rx_sched_prefer_default, .build = rx_build,
};
