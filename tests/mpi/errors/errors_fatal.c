/* SPDX-License-Identifier: MIT
 * Under the default MPI_ERRORS_ARE_FATAL a bad call ends the whole job with a
 * non-zero status and a message naming the call (testlist: fail=<call name>).
 * argv[1] picks the call:
 *   send   rank 0: MPI_Send to rank `size` (the others wait in MPI_Barrier and must
 *          be ended too)
 *   bcast  every rank: MPI_Bcast with root `size`
 *   comm   rank 0: MPI_Comm_rank(MPI_COMM_NULL)
 *   recv   rank 0: MPI_Recv of a self message into a too small buffer (truncation)
 * If the call returns, the program says so and exits 0, which fails the test. */
#include "rxtest.h"

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "errors_fatal");
    const char *what = argc > 1 ? argv[1] : "send";
    int x[4] = { 1, 2, 3, 4 }, rc = MPI_SUCCESS;
    if (strcmp(what, "send") == 0) {
        if (rxt_rank == 0)
            rc = MPI_Send(x, 1, MPI_INT, rxt_size, 0, MPI_COMM_WORLD);
        else
            MPI_Barrier(MPI_COMM_WORLD);
    } else if (strcmp(what, "bcast") == 0) {
        rc = MPI_Bcast(x, 1, MPI_INT, rxt_size, MPI_COMM_WORLD);
    } else if (strcmp(what, "comm") == 0) {
        int r;
        if (rxt_rank == 0)
            rc = MPI_Comm_rank(MPI_COMM_NULL, &r);
        else
            MPI_Barrier(MPI_COMM_WORLD);
    } else if (strcmp(what, "recv") == 0) {
        if (rxt_rank == 0) {
            MPI_Request r;
            MPI_Isend(x, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
            rc = MPI_Recv(x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }
    printf("errors_fatal: the bad call (%s) returned %d instead of ending the job\n", what, rc);
    fflush(stdout);
    return 0;
}
