/* SPDX-License-Identifier: MIT
 * Dynamic processes and the fault rules. Modes (the token argument after the
 * mode only marks the processes for the test):
 *   none   2 parents spawn 2 children, messages of 4 MiB go between them
 *          through the parents' intercommunicator, everyone finishes;
 *   kill   the same, but child 1 kills itself with SIGKILL while its
 *          transfers are in flight: the launcher must end parents and
 *          children, and nothing of either job may remain;
 *   noinit 2 parents spawn /bin/true, which never calls MPI_Init: the
 *          launcher must end the job (the parents would wait for ever);
 *   alone  run without a launcher: MPI_Comm_spawn must fail with
 *          MPI_ERR_SPAWN and say why (the fatal error handler prints it and
 *          exits with the class, 26). */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEN (4 << 20)

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "none";
    MPI_Init(&argc, &argv);
    MPI_Comm parent, inter;
    MPI_Comm_get_parent(&parent);
    int rank, child = parent != MPI_COMM_NULL;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (!strcmp(mode, "alone")) {
        MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                       MPI_ERRCODES_IGNORE);
        printf("spawn returned\n");
        return 1;
    }
    if (!strcmp(mode, "noinit")) {
        const char *job = getenv("RDMX_JOBID");
        printf("ready parent %d %s\n", rank, job ? job : "none");
        fflush(stdout);
        MPI_Comm_spawn("/bin/true", MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                       MPI_ERRCODES_IGNORE);
        return 1;
    }
    if (!child)
        MPI_Comm_spawn(argv[0], argv + 1, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                       MPI_ERRCODES_IGNORE);
    else
        inter = parent;
    char *out = malloc(LEN), *in = malloc(LEN);
    if (!out || !in)
        MPI_Abort(MPI_COMM_WORLD, 2);
    memset(out, rank + 1, LEN);
    const char *job = getenv("RDMX_JOBID");
    printf("ready %s %d %s\n", child ? "child" : "parent", rank, job ? job : "none");
    fflush(stdout);
    /* parent r and child r exchange, over and over when one is to die */
    for (int it = 0; it < (!strcmp(mode, "kill") ? 1000 : 5); it++) {
        MPI_Request req[2];
        MPI_Irecv(in, LEN, MPI_CHAR, rank, it, inter, &req[0]);
        MPI_Isend(out, LEN, MPI_CHAR, rank, it, inter, &req[1]);
        if (!strcmp(mode, "kill") && child && rank == 1 && it == 3)
            raise(SIGKILL);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        if (in[0] != rank + 1 || in[LEN - 1] != rank + 1) {
            fprintf(stderr, "wrong data\n");
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
    }
    free(out);
    free(in);
    MPI_Comm_disconnect(&inter);
    MPI_Finalize();
    return 0;
}
