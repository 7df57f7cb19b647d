/* SPDX-License-Identifier: MIT
 * Allreduce by Rabenseifner's algorithm (commutative ops, count >= the
 * largest power of two <= p): recursive-halving reduce-scatter, then
 * recursive-doubling allgather, 2B per rank moved. */
#include "parts.h"
#include "util/status.h"

#include <stdlib.h>

static int rx_build(rx_sched_t *s, const rx_sched_args_t *a)
{
    int p = a->p, r = a->rank, p2 = rx_sched_pof2_floor(p), rem = p - p2;
    uint64_t B = a->count * a->unit;
    uint64_t *off = malloc(sizeof *off * 2 * (size_t)p2), *len = off + p2;
    if (!off)
        return RX_ERR_NOMEM;
    rx_sched_split(a->count, a->unit, p2, off, len);
    rx_sched_tmp(s, B);
    rx_sched_round(s);
    rx_sched_copy(s, RX_SB_IN, 0, RX_SB_OUT, 0, B);
    int nr = rx_sched_fold(s, p, r, B);
    if (nr >= 0) {
        int send_idx = 0, recv_idx = 0, last_idx = p2, mask = 1;
#define RX_SUM(from, to) (off[(to) - 1] + len[(to) - 1] - off[from])
        while (mask < p2) {
            int pn = nr ^ mask, peer = rx_sched_real_rank(pn, rem);
            uint64_t scnt, rcnt;
            if (nr < pn) {
                send_idx = recv_idx + p2 / (mask * 2);
                scnt = RX_SUM(send_idx, last_idx);
                rcnt = RX_SUM(recv_idx, send_idx);
            } else {
                recv_idx = send_idx + p2 / (mask * 2);
                scnt = RX_SUM(send_idx, recv_idx);
                rcnt = RX_SUM(recv_idx, last_idx);
            }
            rx_sched_round(s);
            rx_sched_send(s, peer, RX_SB_OUT, off[send_idx], scnt);
            rx_sched_recv(s, peer, RX_SB_TMP, off[recv_idx], rcnt);
            rx_sched_reduce(s, RX_SB_TMP, off[recv_idx], RX_SB_OUT, off[recv_idx], rcnt);
            send_idx = recv_idx;
            mask <<= 1;
            if (mask < p2)
                last_idx = recv_idx + p2 / mask;
        }
        for (mask >>= 1; mask > 0; mask >>= 1) {
            int pn = nr ^ mask, peer = rx_sched_real_rank(pn, rem);
            uint64_t scnt, rcnt;
            if (nr < pn) {
                if (mask != p2 / 2)
                    last_idx = last_idx + p2 / (mask * 2);
                recv_idx = send_idx + p2 / (mask * 2);
                scnt = RX_SUM(send_idx, recv_idx);
                rcnt = RX_SUM(recv_idx, last_idx);
            } else {
                recv_idx = send_idx - p2 / (mask * 2);
                scnt = RX_SUM(send_idx, last_idx);
                rcnt = RX_SUM(recv_idx, send_idx);
            }
            rx_sched_round(s);
            rx_sched_send(s, peer, RX_SB_OUT, off[send_idx], scnt);
            rx_sched_recv(s, peer, RX_SB_OUT, off[recv_idx], rcnt);
            if (nr > pn)
                send_idx = recv_idx;
        }
#undef RX_SUM
    }
    rx_sched_unfold(s, p, r, B);
    free(off);
    return RX_OK;
}

static int rx_fits(const rx_sched_args_t *a)
{
    return a->commute && a->count >= (uint64_t)rx_sched_pof2_floor(a->p);
}

/* Above the recursive-doubling crossover: the choice at power-of-two p;
 * below recursive doubling otherwise (the ring's place). */
static int rx_prefer(const rx_sched_args_t *a)
{
    return rx_sched_is_pof2(a->p) ? 2 : -1;
}

const rx_sched_algo_t rx_algo_allreduce_rabenseifner = {
    .kind = RX_COLL_ALLREDUCE, .name = "rabenseifner",
    .help = "recursive halving reduce-scatter + recursive doubling allgather; commutative ops "
            "(automatic for large vectors at power-of-two p)",
    .fits = rx_fits, .prefer = rx_prefer, .build = rx_build,
};
