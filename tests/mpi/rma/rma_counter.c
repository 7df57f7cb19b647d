/* SPDX-License-Identifier: MIT
 * Accumulates from concurrent origins are element-wise atomic: every rank adds
 * 1 to one counter at rank 0, ITER times with MPI_Accumulate and ITER times
 * with MPI_Fetch_and_op, under MPI_Win_lock_all; the total must be exact, and
 * the values each rank fetched must increase strictly. argv[1]: allocate
 * (atomic instructions on mapped memory) or create (user memory: the
 * accumulate lock and cross-memory attach); argv[2]: ITER (default 100000). */
#include "rxtest.h"

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "rma_counter");
    const char *flavor = argc > 1 ? argv[1] : "allocate";
    long iter = argc > 2 ? atol(argv[2]) : 100000;
    int64_t *cnt, *mem = NULL;
    MPI_Win win;
    if (!strcmp(flavor, "create")) {
        mem = calloc(2, sizeof *mem);
        cnt = mem;
        RXT_MPI(MPI_Win_create(cnt, 2 * sizeof *cnt, sizeof *cnt, MPI_INFO_NULL, MPI_COMM_WORLD,
                               &win));
    } else {
        RXT_MPI(MPI_Win_allocate(2 * sizeof *cnt, sizeof *cnt, MPI_INFO_NULL, MPI_COMM_WORLD, &cnt,
                                 &win));
        cnt[0] = cnt[1] = 0;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    const int64_t one = 1;
    double t0 = MPI_Wtime();
    RXT_MPI(MPI_Win_lock_all(0, win));
    for (long i = 0; i < iter; i++)
        RXT_MPI(MPI_Accumulate(&one, 1, MPI_INT64_T, 0, 0, 1, MPI_INT64_T, MPI_SUM, win));
    RXT_MPI(MPI_Win_flush_all(win));
    int64_t prev = -1, got = 0;
    for (long i = 0; i < iter; i++) {
        RXT_MPI(MPI_Fetch_and_op(&one, &got, MPI_INT64_T, 0, 1, MPI_SUM, win));
        RXT_MPI(MPI_Win_flush(0, win));
        if (got <= prev)
            RXT_CHECK(got > prev, "fetch %ld returned %lld after %lld", i, (long long)got,
                      (long long)prev);
        prev = got;
    }
    RXT_MPI(MPI_Win_unlock_all(win));
    double t = MPI_Wtime() - t0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rxt_rank == 0) {
        RXT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        long long want = (long long)iter * rxt_size;
        RXT_CHECK(cnt[0] == want, "accumulate counter %lld, expected %lld", (long long)cnt[0], want);
        RXT_CHECK(cnt[1] == want, "fetch_and_op counter %lld, expected %lld", (long long)cnt[1],
                  want);
        RXT_MPI(MPI_Win_unlock(0, win));
        printf("rma_counter: %s, %d ranks x %ld x 2 atomic updates in %.3f s\n", flavor, rxt_size,
               iter, t);
    }
    RXT_MPI(MPI_Win_free(&win));
    free(mem);
    return rxt_finish();
}
