/* SPDX-License-Identifier: MIT
 * The C reference for bench/fortran/timed.sh: at 2 ranks, N ping-pong round
 * trips of 0 or 8 bytes (MPI_Send / MPI_Recv with a status) or N 8-byte
 * MPI_Allreduce calls, after N/10 unmeasured ones; rank 0 prints the time of
 * one operation in ns (a ping-pong's one-way time: half a round trip).
 * usage: pair_c pp0|pp8|allreduce N */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void rounds(const char *mode, int n, int rank)
{
    double x = 1, y = 0;
    MPI_Status st;
    int count = strcmp(mode, "pp0") ? 1 : 0, peer = 1 - rank;
    for (int i = 0; i < n; i++) {
        if (!strcmp(mode, "allreduce")) {
            MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        } else if (rank == 0) {
            MPI_Send(&x, count, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
            MPI_Recv(&y, count, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &st);
        } else {
            MPI_Recv(&y, count, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &st);
            MPI_Send(&x, count, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const char *mode = argc > 1 ? argv[1] : "pp0";
    int n = argc > 2 ? atoi(argv[2]) : 10000, rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    rounds(mode, n / 10, rank);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    rounds(mode, n, rank);
    double t = (MPI_Wtime() - t0) / n * 1e9;
    if (rank == 0)
        printf("%.1f\n", strcmp(mode, "allreduce") ? t / 2 : t);
    MPI_Finalize();
    return 0;
}
