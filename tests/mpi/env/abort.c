/* SPDX-License-Identifier: MIT
 * MPI_Abort from one rank while the others wait in MPI_Barrier: the whole job ends,
 * and the launcher's exit status is the error code given (7; testlist: rc=7). */
#include "rxtest.h"

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "abort");
    if (rxt_rank == rxt_size - 1) {
        /* also checks that what a rank wrote before aborting reaches the output */
        fprintf(stderr, "abort: rank %d ends the job with code 7\n", rxt_rank);
        fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, 7);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    printf("abort: rank %d survived MPI_Abort\n", rxt_rank);
    return 0;
}
