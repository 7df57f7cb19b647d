/* SPDX-License-Identifier: MIT
 * An MPI job that moves large messages around a ring of ranks; with "kill",
 * rank 1 kills itself with SIGKILL while its sends and receives of 16 MiB are
 * in flight, so that the launcher must end the others (blocked on a dead peer)
 * and remove the job's shared-memory segments. With "none" it finishes
 * normally, and nothing of the job may remain either. The token argument
 * after the mode only marks the processes for the test. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEN (16 << 20)

int main(int argc, char **argv)
{
    int rank, size, kill_it = argc > 1 && !strcmp(argv[1], "kill");
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char *out = malloc(LEN), *in = malloc(LEN);
    if (!out || !in || size < 2)
        MPI_Abort(MPI_COMM_WORLD, 2);
    memset(out, rank + 1, LEN);
    MPI_Barrier(MPI_COMM_WORLD);
    const char *job = getenv("RDMX_JOBID");
    printf("ready %d %s\n", rank, job ? job : "none");
    fflush(stdout);

    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int it = 0; it < (kill_it ? 1000 : 5); it++) {
        MPI_Request req[2];
        MPI_Irecv(in, LEN, MPI_CHAR, left, it, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(out, LEN, MPI_CHAR, right, it, MPI_COMM_WORLD, &req[1]);
        if (kill_it && rank == 1 && it == 3)
            raise(SIGKILL);
        MPI_Status st[2];
        MPI_Waitall(2, req, st);
        if (in[0] != left + 1 || in[LEN - 1] != left + 1) {
            fprintf(stderr, "rank %d: wrong data from %d\n", rank, left);
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
    }
    MPI_Finalize();
    free(out);
    free(in);
    return 0;
}
