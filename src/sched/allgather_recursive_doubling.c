/* SPDX-License-Identifier: MIT
 * Allgather by recursive doubling over a power-of-two group; with p not a
 * power of two the first 2 * rem ranks pair up (2i hands its block to
 * 2i + 1 and gets the whole result back at the end). Every member of the
 * group then holds a contiguous range of original ranks, so blocks stay in
 * place in OUT. Uniform blocks only. */
#include "parts.h"
#include "util/status.h"

static int rx_build(rx_sched_t *s, const rx_sched_args_t *a)
{
    int p = a->p, r = a->rank, p2 = rx_sched_pof2_floor(p), rem = p - p2;
    uint64_t b = a->bytes;
    rx_sched_round(s);
    rx_sched_copy(s, RX_SB_IN, 0, RX_SB_OUT, (uint64_t)r * b, b);
    int nr;
    if (r < 2 * rem) {
        if (r % 2 == 0) {
            rx_sched_round(s);
            rx_sched_send(s, r + 1, RX_SB_OUT, (uint64_t)r * b, b);
            rx_sched_round(s);
            rx_sched_recv(s, r + 1, RX_SB_OUT, 0, (uint64_t)p * b);
            return RX_OK;
        }
        rx_sched_round(s);
        rx_sched_recv(s, r - 1, RX_SB_OUT, (uint64_t)(r - 1) * b, b);
        nr = r / 2;
    } else {
        nr = r - rem;
    }
#define RX_LO(n) ((n) < rem ? 2 * (n) : (n) + rem)
    for (int mask = 1; mask < p2; mask <<= 1) {
        int pn = nr ^ mask, mybase = nr & ~(mask - 1), pbase = pn & ~(mask - 1);
        int peer = rx_sched_real_rank(pn, rem);
        uint64_t mlo = (uint64_t)RX_LO(mybase), mhi = (uint64_t)RX_LO(mybase + mask);
        uint64_t plo = (uint64_t)RX_LO(pbase), phi = (uint64_t)RX_LO(pbase + mask);
        rx_sched_round(s);
        rx_sched_send(s, peer, RX_SB_OUT, mlo * b, (mhi - mlo) * b);
        rx_sched_recv(s, peer, RX_SB_OUT, plo * b, (phi - plo) * b);
    }
#undef RX_LO
    if (r < 2 * rem) {
        rx_sched_round(s);
        rx_sched_send(s, r - 1, RX_SB_OUT, 0, (uint64_t)p * b);
    }
    return RX_OK;
}

static int rx_fits(const rx_sched_args_t *a)
{
    return !a->rcounts;
}

/* Small totals at power-of-two p (the ring takes large ones). */
static int rx_prefer(const rx_sched_args_t *a)
{
    return rx_sched_is_pof2(a->p) ? 1 : 0;
}

const rx_sched_algo_t rx_algo_allgather_recursive_doubling = {
    .kind = RX_COLL_ALLGATHER, .name = "recursive_doubling",
    .help = "log p exchanges of doubling ranges; uniform blocks (automatic below 32 KiB in all "
            "at power-of-two p)",
    .fits = rx_fits, .prefer = rx_prefer, .build = rx_build,
};
