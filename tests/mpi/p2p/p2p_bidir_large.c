/* SPDX-License-Identifier: MIT
 * Large messages both ways at once, as bidirectional bandwidth loops and
 * halo exchanges send them: every pair of ranks posts windows of receives
 * and sends of single-copy sizes to each other, every byte verified. While
 * one side reads a message, the other is usually reading one of its own
 * from the first, so on one node the cooperative copy's helper is busy and
 * each side copies alone; the testlist also runs it with small cooperative
 * chunks from 4 KiB, where both kinds of transfer interleave most. */
#include "rxtest.h"

#define WIN 16

static unsigned char pat(int from, int to, int k, size_t i)
{
    return (unsigned char)(from * 31 + to * 17 + k * 7 + (int)(i % 251));
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "p2p_bidir_large");
    static const size_t sizes[] = {4096, 131073, 1 << 20, (3 << 20) + 5};
    if (rxt_size < 2)
        return rxt_finish();
    int peer = rxt_rank ^ 1;
    if (peer >= rxt_size)
        peer = MPI_PROC_NULL; /* odd rank count: the last rank sits out */
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        unsigned char *sb = malloc(n * WIN), *rb = malloc(n * WIN);
        for (int k = 0; k < WIN; k++)
            for (size_t i = 0; i < n; i++)
                sb[(size_t)k * n + i] = pat(rxt_rank, peer, k, i);
        for (int round = 0; round < 3; round++) {
            MPI_Request rq[2 * WIN];
            memset(rb, 0, n * WIN);
            for (int k = 0; k < WIN; k++)
                RXT_MPI(MPI_Irecv(rb + (size_t)k * n, (int)n, MPI_BYTE, peer, k, MPI_COMM_WORLD,
                                  &rq[k]));
            for (int k = 0; k < WIN; k++)
                RXT_MPI(MPI_Isend(sb + (size_t)k * n, (int)n, MPI_BYTE, peer, k, MPI_COMM_WORLD,
                                  &rq[WIN + k]));
            RXT_MPI(MPI_Waitall(2 * WIN, rq, MPI_STATUSES_IGNORE));
            if (peer == MPI_PROC_NULL)
                continue;
            for (int k = 0; k < WIN; k++)
                for (size_t i = 0; i < n; i++)
                    if (rb[(size_t)k * n + i] != pat(peer, rxt_rank, k, i)) {
                        RXT_CHECK(0, "size %zu round %d message %d: byte %zu is %d, want %d", n,
                                  round, k, i, rb[(size_t)k * n + i], pat(peer, rxt_rank, k, i));
                        k = WIN;
                        break;
                    }
        }
        free(sb);
        free(rb);
    }
    return rxt_finish();
}
