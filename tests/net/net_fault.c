/* SPDX-License-Identifier: MIT
 * A job that keeps every rank busy exchanging 64 KiB messages around a ring
 * until it is broken from outside: "run" goes on until killed (the link-down
 * test takes a host's network away meanwhile); "kill R" makes rank R kill
 * itself with SIGKILL after a few rounds. Each rank prints "ready R" once its
 * first round is done, so the test knows the job is in full flight. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int victim = argc > 2 && !strcmp(argv[1], "kill") ? atoi(argv[2]) : -1;
    size_t n = 64 << 10;
    char *s = malloc(n), *r = malloc(n);
    memset(s, rank, n);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (long round = 0;; round++) {
        MPI_Sendrecv(s, (int)n, MPI_BYTE, right, 0, r, (int)n, MPI_BYTE, left, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        if (round == 0) {
            printf("ready %d\n", rank);
            fflush(stdout);
        }
        if (rank == victim && round == 200)
            raise(SIGKILL);
    }
}
