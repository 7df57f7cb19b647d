/* SPDX-License-Identifier: MIT
 * Writes collective schedules in the schedule format for the classic algorithms, so that the
 * simulator can replay collectives for any process count (docs/topo.md lists them). BYTES is the
 * message size of the collective: the vector of an allreduce/bcast, one rank's block of an
 * allgather, one pair's block of an all-to-all. */
#include "sim.h"
#include "util/log.h"
#include "util/status.h"

#include <string.h>

static uint32_t rx_pof2_floor(uint32_t n)
{
    uint32_t p = 1;
    while (p * 2 <= n)
        p *= 2;
    return p;
}

/* MPICH's recursive doubling: with n not a power of two, the first 2*rem ranks pair up, even ranks
 * hand their vector to the odd neighbour and wait for the result at the end. */
static void rx_gen_allreduce_rd(FILE *f, uint32_t n, uint64_t b)
{
    uint32_t pof2 = rx_pof2_floor(n), rem = n - pof2;
    for (uint32_t r = 0; r < n; r++) {
        fprintf(f, "rank %u\n", r);
        int32_t nr; /* rank inside the power-of-two group, -1 if sitting out */
        if (r < 2 * rem) {
            if (r % 2 == 0) {
                fprintf(f, "round send %u %llu\n", r + 1, (unsigned long long)b);
                fprintf(f, "round recv %u %llu\n", r + 1, (unsigned long long)b);
                continue;
            }
            fprintf(f, "round recv %u %llu ; reduce %llu\n", r - 1, (unsigned long long)b, (unsigned long long)b);
            nr = (int32_t)(r / 2);
        } else {
            nr = (int32_t)(r - rem);
        }
        for (uint32_t mask = 1; mask < pof2; mask <<= 1) {
            uint32_t np = (uint32_t)nr ^ mask;
            uint32_t peer = np < rem ? np * 2 + 1 : np + rem;
            fprintf(f, "round send %u %llu ; recv %u %llu ; reduce %llu\n", peer, (unsigned long long)b, peer,
                    (unsigned long long)b, (unsigned long long)b);
        }
        if (r < 2 * rem)
            fprintf(f, "round send %u %llu\n", r - 1, (unsigned long long)b);
    }
}

/* Ring allreduce: reduce-scatter then allgather, n-1 steps each, blocks of b/n bytes. */
static void rx_gen_allreduce_ring(FILE *f, uint32_t n, uint64_t b)
{
    unsigned long long blk = (b + n - 1) / n;
    for (uint32_t r = 0; r < n; r++) {
        fprintf(f, "rank %u\n", r);
        for (uint32_t k = 0; k + 1 < n; k++)
            fprintf(f, "round send %u %llu ; recv %u %llu ; reduce %llu\n", (r + 1) % n, blk, (r + n - 1) % n, blk, blk);
        for (uint32_t k = 0; k + 1 < n; k++)
            fprintf(f, "round send %u %llu ; recv %u %llu\n", (r + 1) % n, blk, (r + n - 1) % n, blk);
    }
}

static void rx_gen_allgather_ring(FILE *f, uint32_t n, uint64_t b)
{
    for (uint32_t r = 0; r < n; r++) {
        /* the own block is copied into place first, then n-1 ring steps */
        fprintf(f, "rank %u\nround copy %llu\n", r, (unsigned long long)b);
        for (uint32_t k = 0; k + 1 < n; k++)
            fprintf(f, "round send %u %llu ; recv %u %llu\n", (r + 1) % n, (unsigned long long)b, (r + n - 1) % n,
                    (unsigned long long)b);
    }
}

static void rx_gen_alltoall_pairwise(FILE *f, uint32_t n, uint64_t b)
{
    for (uint32_t r = 0; r < n; r++) {
        fprintf(f, "rank %u\nround copy %llu\n", r, (unsigned long long)b);
        for (uint32_t k = 1; k < n; k++)
            fprintf(f, "round send %u %llu ; recv %u %llu\n", (r + k) % n, (unsigned long long)b, (r + n - k) % n,
                    (unsigned long long)b);
    }
}

/* Binomial tree from rank 0: rank r receives from r minus its highest bit, then sends to r + 2^k for
 * every 2^k above that bit. */
static void rx_gen_bcast_binomial(FILE *f, uint32_t n, uint64_t b)
{
    for (uint32_t r = 0; r < n; r++) {
        fprintf(f, "rank %u\n", r);
        uint32_t mask = 1;
        if (r) {
            uint32_t hb = rx_pof2_floor(r);
            fprintf(f, "round recv %u %llu\n", r - hb, (unsigned long long)b);
            mask = hb * 2;
        }
        for (; r + mask < n; mask <<= 1)
            fprintf(f, "round send %u %llu\n", r + mask, (unsigned long long)b);
    }
}

static void rx_gen_barrier_dissemination(FILE *f, uint32_t n, uint64_t b)
{
    (void)b;
    for (uint32_t r = 0; r < n; r++) {
        fprintf(f, "rank %u\n", r);
        for (uint32_t d = 1; d < n; d <<= 1)
            fprintf(f, "round send %u 0 ; recv %u 0\n", (r + d) % n, (r + n - d) % n);
    }
}

static const struct {
    const char *name;
    void (*gen)(FILE *, uint32_t, uint64_t);
} rx_gens[] = {
    {"allreduce-recursive-doubling", rx_gen_allreduce_rd},
    {"allreduce-ring", rx_gen_allreduce_ring},
    {"allgather-ring", rx_gen_allgather_ring},
    {"alltoall-pairwise", rx_gen_alltoall_pairwise},
    {"bcast-binomial", rx_gen_bcast_binomial},
    {"barrier-dissemination", rx_gen_barrier_dissemination},
};

int rx_schedule_generate(FILE *f, const char *algo, uint32_t n, uint64_t bytes)
{
    for (size_t i = 0; i < sizeof rx_gens / sizeof rx_gens[0]; i++) {
        if (strcmp(algo, rx_gens[i].name))
            continue;
        if (n < 1) {
            rx_log_error("rdmx-topo: a schedule needs at least one rank");
            return RX_ERR_INVAL;
        }
        fprintf(f, "# rdmx schedule v1\nalgorithm %s\nbytes %llu\nnranks %u\n", algo, (unsigned long long)bytes, n);
        rx_gens[i].gen(f, n, bytes);
        fprintf(f, "end\n");
        return ferror(f) ? RX_ERR_IO : RX_OK;
    }
    rx_log_error("rdmx-topo: unknown schedule algorithm \"%s\" (allreduce-recursive-doubling, allreduce-ring, "
                 "allgather-ring, alltoall-pairwise, bcast-binomial, barrier-dissemination)", algo);
    return RX_ERR_INVAL;
}
