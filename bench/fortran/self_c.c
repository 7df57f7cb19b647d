/* SPDX-License-Identifier: MIT
 * The C reference for bench/fortran: N rounds of a message to self (Isend,
 * Recv, Wait) or of an 8-byte Allreduce, on MPI_COMM_SELF, where every round
 * takes the same path and no waiting blurs an instruction count.
 * usage: self_c p2p|allreduce N [multiple]
 * (multiple: MPI_Init_thread asks for MPI_THREAD_MULTIPLE, for
 * bench/threads/count.sh) */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc > 3 && !strcmp(argv[3], "multiple")) {
        int provided;
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    } else {
        MPI_Init(&argc, &argv);
    }
    int p2p = argc > 1 && !strcmp(argv[1], "p2p"), n = argc > 2 ? atoi(argv[2]) : 1000;
    double x = 1, y = 0;
    for (int i = 0; i < n; i++) {
        if (p2p) {
            MPI_Request rq;
            MPI_Status st;
            MPI_Isend(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_SELF, &rq);
            MPI_Recv(&y, 1, MPI_DOUBLE, 0, 0, MPI_COMM_SELF, &st);
            MPI_Wait(&rq, MPI_STATUS_IGNORE);
        } else {
            MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_SELF);
        }
    }
    MPI_Finalize();
    return y == 1 ? 0 : 1;
}
