/* SPDX-License-Identifier: MIT
 * MPI_THREAD_MULTIPLE is granted; MPI_Query_thread and MPI_Is_thread_main
 * answer right in every thread; queries from all threads at once agree. */
#include "thrtest.h"

static void body(int id)
{
    int flag = -1, level = -1, rank = -1, size = -1;
    for (int i = 0; i < 2000; i++) {
        MPI_Is_thread_main(&flag);
        THR_CHECK(flag == (id == 0), "thread %d: MPI_Is_thread_main gave %d", id, flag);
        MPI_Query_thread(&level);
        THR_CHECK(level == MPI_THREAD_MULTIPLE, "thread %d: MPI_Query_thread gave %d", id, level);
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        THR_CHECK(rank == rxt_rank && size == rxt_size, "thread %d: rank %d size %d", id, rank,
                  size);
        int t;
        MPI_Type_size(MPI_DOUBLE, &t);
        THR_CHECK(t == 8, "MPI_Type_size(MPI_DOUBLE) = %d", t);
    }
}

int main(int argc, char **argv)
{
    thr_init(&argc, &argv, "thr_init");
    thr_run(body);
    return thr_finish();
}
