/* SPDX-License-Identifier: MIT
 * MPI and OpenSHMEM in one program, both start orders and both finalize
 * orders (argument: mpi-first or shmem-first): MPI point-to-point and
 * collectives, SHMEM puts, atomics and reductions, interleaved, with the
 * same PE / rank numbers; MPI_Finalized only after MPI_Finalize. */
#include "shtest.h"

#include <mpi.h>

static long counter;

int main(int argc, char **argv)
{
    int mpi_first = argc > 1 && !strcmp(argv[1], "mpi-first");
    int rank, size, flag;
    if (mpi_first) {
        MPI_Init(&argc, &argv);
        sht_init();
    } else {
        sht_init();
        MPI_Initialized(&flag);
        SHT_CHECK(flag, "the runtime shmem_init started counts as initialized");
        int prov;
        SHT_CHECK(MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &prov) == MPI_SUCCESS,
                  "MPI_Init after shmem_init");
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    SHT_CHECK(rank == sht_me && size == sht_npes, "rank %d/%d vs PE %d/%d", rank, size, sht_me,
              sht_npes);
    for (int round = 0; round < 3; round++) {
        long v = rank + 1, sum = 0;
        MPI_Allreduce(&v, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        SHT_CHECK(sum == (long)size * (size + 1) / 2, "MPI_Allreduce %ld", sum);
        shmem_long_atomic_add(&counter, v, 0);
        shmem_barrier_all();
        if (sht_me == 0)
            SHT_CHECK(counter == (round + 1) * sum, "SHMEM counter %ld", counter);
        int token = rank, got = -1;
        MPI_Sendrecv(&token, 1, MPI_INT, (rank + 1) % size, 5, &got, 1, MPI_INT,
                     (rank + size - 1) % size, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        SHT_CHECK(got == (rank + size - 1) % size, "MPI_Sendrecv %d", got);
        long *src = shmem_malloc(sizeof(long)), *dst = shmem_malloc(sizeof(long));
        *src = rank;
        shmem_long_max_reduce(SHMEM_TEAM_WORLD, dst, src, 1);
        SHT_CHECK(*dst == size - 1, "SHMEM max %ld", *dst);
        MPI_Barrier(MPI_COMM_WORLD);
        shmem_free(src);
        shmem_free(dst);
    }
    if (mpi_first) {
        int rc = sht_finish(); /* shmem_finalize first */
        MPI_Finalized(&flag);
        if (flag) {
            fprintf(stderr, "MPI_Finalized true before MPI_Finalize\n");
            rc = 1;
        }
        int one = 1, all = 0;
        MPI_Allreduce(&one, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (all != size)
            rc = 1;
        MPI_Finalize();
        return rc;
    }
    MPI_Finalize(); /* MPI first, SHMEM still running */
    MPI_Finalized(&flag);
    SHT_CHECK(flag, "MPI_Finalized after MPI_Finalize");
    shmem_long_atomic_inc(&counter, 0);
    return sht_finish();
}
