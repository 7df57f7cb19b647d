/* SPDX-License-Identifier: MIT
 * Messages of every size class, every byte verified: 0, 1, 7, 64, 1000, 4 KiB,
 * 16 KiB+1, 64 KiB, 1 MiB and 16 MiB, crossing eager, pipelined and single-copy
 * thresholds, around a ring in both directions at once, with the receive posted
 * before the send and after it (unexpected), and into a receive buffer larger than
 * the message. Run it with RDMX_SHM_CMA=off too (testlist) to cover the copy path. */
#include "rxtest.h"

static const int sizes[] = { 0, 1, 7, 64, 1000, 4096, 16385, 65536, 1 << 20, 16 << 20 };
#define NS ((int)(sizeof sizes / sizeof sizes[0]))

static uint64_t seed(int from, int to, int size, int phase)
{
    return ((uint64_t)from << 48) ^ ((uint64_t)to << 32) ^ ((uint64_t)size << 4) ^ (uint64_t)phase;
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "p2p_sizes");
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    size_t max = 16 << 20;
    /* the 16 MiB class only at small rank counts: 8 ranks x 4 buffers would be
     * 512 MiB on a 2-core machine for no extra coverage */
    int ns = rxt_size <= 4 ? NS : NS - 1;
    unsigned char *sr = malloc(max), *sl = malloc(max), *rr = malloc(max + 64),
                  *rl = malloc(max + 64);
    if (!sr || !sl || !rr || !rl)
        RXT_FATAL("out of memory");
    for (int i = 0; i < ns; i++) {
        int n = sizes[i];
        for (int phase = 0; phase < 2; phase++) {
            MPI_Request q[4];
            MPI_Status st[4];
            rxt_fill(sr, (size_t)n, seed(rxt_rank, right, n, phase));
            rxt_fill(sl, (size_t)n, seed(rxt_rank, left, n, phase));
            memset(rr + n, 0x3C, 64);
            memset(rl + n, 0x3C, 64);
            /* receive capacity n+64: larger than the message */
            if (phase == 0) {
                RXT_MPI(MPI_Irecv(rr, n + 64, MPI_BYTE, left, 1, MPI_COMM_WORLD, &q[0]));
                RXT_MPI(MPI_Irecv(rl, n + 64, MPI_BYTE, right, 2, MPI_COMM_WORLD, &q[1]));
                RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
            }
            RXT_MPI(MPI_Isend(sr, n, MPI_BYTE, right, 1, MPI_COMM_WORLD, &q[2]));
            RXT_MPI(MPI_Isend(sl, n, MPI_BYTE, left, 2, MPI_COMM_WORLD, &q[3]));
            if (phase == 1) {
                RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
                RXT_MPI(MPI_Irecv(rr, n + 64, MPI_BYTE, left, 1, MPI_COMM_WORLD, &q[0]));
                RXT_MPI(MPI_Irecv(rl, n + 64, MPI_BYTE, right, 2, MPI_COMM_WORLD, &q[1]));
            }
            RXT_MPI(MPI_Waitall(4, q, st));
            const char *ph = phase ? "unexpected" : "posted";
            for (int k = 0; k < 2; k++) {
                unsigned char *b = k ? rl : rr;
                int from = k ? right : left, cnt = -1;
                MPI_Get_count(&st[k], MPI_BYTE, &cnt);
                RXT_CHECK(cnt == n && st[k].MPI_SOURCE == from && st[k].MPI_TAG == 1 + k,
                          "%s %d B from %d: count %d source %d tag %d", ph, n, from, cnt,
                          st[k].MPI_SOURCE, st[k].MPI_TAG);
                long bad = rxt_verify(b, (size_t)n, seed(from, rxt_rank, n, phase));
                RXT_CHECK(bad < 0, "%s %d B from %d: byte %ld differs", ph, n, from, bad);
                for (int g = 0; g < 64; g++)
                    if (b[n + g] != 0x3C) {
                        RXT_CHECK(0, "%s %d B from %d: wrote past the message", ph, n, from);
                        break;
                    }
            }
        }
    }
    /* Sizes around the usual thresholds, one byte either side, in MPI_INT units
     * too (the byte count is 4x the count). */
    static const int edges[] = { 4095, 4097, 8191, 8193, 16383, 16384, 32767, 32769, 65535,
                                 65537, 131071, 131073, 262143, 262145 };
    for (unsigned i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        int n = edges[i] / 4;
        rxt_fill(sr, (size_t)n * 4, 999 + (uint64_t)edges[i] + (uint64_t)rxt_rank);
        MPI_Status st;
        RXT_MPI(MPI_Sendrecv(sr, n, MPI_INT, right, 5, rr, n, MPI_INT, left, 5, MPI_COMM_WORLD,
                             &st));
        int cnt = -1;
        MPI_Get_count(&st, MPI_INT, &cnt);
        long bad = rxt_verify(rr, (size_t)n * 4, 999 + (uint64_t)edges[i] + (uint64_t)left);
        RXT_CHECK(cnt == n && bad < 0, "%d ints: count %d, byte %ld differs", n, cnt, bad);
    }
    free(sr);
    free(sl);
    free(rr);
    free(rl);
    return rxt_finish();
}
