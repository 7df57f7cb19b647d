/* SPDX-License-Identifier: MIT
 * Inclusive (scan) and exclusive (exscan) prefix by recursive doubling:
 * TMP = [partial][incoming]; the partial of the higher rank is always
 * combined as `inout`, so the order holds for any op. One algorithm, two
 * collectives: both descriptors live here. */
#include "parts.h"
#include "util/status.h"

static int rx_build(rx_sched_t *s, const rx_sched_args_t *a)
{
    int p = a->p, r = a->rank, have_out = 0, exclusive = a->kind == RX_COLL_EXSCAN;
    uint64_t B = a->count * a->unit, part = 0, in = B;
    rx_sched_tmp(s, 2 * B);
    rx_sched_round(s);
    rx_sched_copy(s, RX_SB_IN, 0, RX_SB_TMP, part, B);
    if (!exclusive)
        rx_sched_copy(s, RX_SB_IN, 0, RX_SB_OUT, 0, B);
    for (int mask = 1; mask < p; mask <<= 1) {
        int peer = r ^ mask;
        if (peer >= p)
            continue;
        rx_sched_round(s);
        rx_sched_send(s, peer, RX_SB_TMP, part, B);
        rx_sched_recv(s, peer, RX_SB_TMP, in, B);
        if (r > peer) {
            if (exclusive && !have_out)
                rx_sched_copy(s, RX_SB_TMP, in, RX_SB_OUT, 0, B);
            else
                rx_sched_reduce(s, RX_SB_TMP, in, RX_SB_OUT, 0, B);
            have_out = 1;
            rx_sched_reduce(s, RX_SB_TMP, in, RX_SB_TMP, part, B);
        } else {
            rx_sched_reduce(s, RX_SB_TMP, part, RX_SB_TMP, in, B);
            uint64_t t = part;
            part = in;
            in = t;
        }
    }
    return RX_OK;
}

const rx_sched_algo_t rx_algo_scan_recursive_doubling = {
    .kind = RX_COLL_SCAN, .name = "recursive_doubling",
    .help = "log p exchanges of partial prefixes, any op",
    .prefer = rx_sched_prefer_default, .build = rx_build,
};

const rx_sched_algo_t rx_algo_exscan_recursive_doubling = {
    .kind = RX_COLL_EXSCAN, .name = "recursive_doubling",
    .help = "log p exchanges of partial prefixes, any op (rank 0's output untouched)",
    .prefer = rx_sched_prefer_default, .build = rx_build,
};
