/* SPDX-License-Identifier: MIT
 * One-sided communication between parents and children: 2 children are
 * spawned, parents and children merge, and a window over the merged
 * communicator (MPI_Win_create) takes a put from every member into every
 * other (fence epochs) and an accumulate from every member under an
 * exclusive lock at rank 0; then MPI_Win_allocate's memory the same way.
 * Under Open MPI only the spawn and merge run (see below). */
#include "rxtest.h"

static __attribute__((unused)) int run_window(MPI_Comm m, int allocate)
{
    int r, n, bad = 0, *buf, local[64] = {0};
    MPI_Comm_rank(m, &r);
    MPI_Comm_size(m, &n);
    MPI_Win w;
    if (allocate) {
        RXT_MPI(MPI_Win_allocate(64 * sizeof(int), sizeof(int), MPI_INFO_NULL, m, &buf, &w));
        for (int i = 0; i < 64; i++)
            buf[i] = 0;
    } else {
        buf = local;
        RXT_MPI(MPI_Win_create(buf, 64 * sizeof(int), sizeof(int), MPI_INFO_NULL, m, &w));
    }
    RXT_MPI(MPI_Win_fence(0, w));
    int x = 100 + r;
    for (int t = 0; t < n; t++)
        RXT_MPI(MPI_Put(&x, 1, MPI_INT, t, r, 1, MPI_INT, w));
    RXT_MPI(MPI_Win_fence(0, w));
    for (int i = 0; i < n; i++)
        bad += buf[i] != 100 + i;
    RXT_CHECK(bad == 0, "%s: %d wrong puts", allocate ? "allocate" : "create", bad);
    int one = r + 1;
    RXT_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w));
    RXT_MPI(MPI_Accumulate(&one, 1, MPI_INT, 0, 63, 1, MPI_INT, MPI_SUM, w));
    RXT_MPI(MPI_Win_unlock(0, w));
    RXT_MPI(MPI_Barrier(m));
    if (r == 0) {
        RXT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w));
        int sum = buf[63];
        RXT_MPI(MPI_Win_unlock(0, w));
        RXT_CHECK(sum == n * (n + 1) / 2, "%s: accumulate gave %d", allocate ? "allocate" : "create",
                  sum);
    }
    RXT_MPI(MPI_Win_free(&w));
    return bad;
}

int main(int argc, char **argv)
{
    MPI_Comm parent = rxt_init_spawned(&argc, &argv, "spawn_win"), inter = parent, m;
    if (parent == MPI_COMM_NULL)
        RXT_MPI(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                               MPI_ERRCODES_IGNORE));
    RXT_MPI(MPI_Intercomm_merge(inter, parent != MPI_COMM_NULL, &m));
#ifndef OPEN_MPI
    /* Open MPI 4.1 refuses windows over a communicator spanning two jobs
     * (MPI_Win_create: MPI_ERR_WIN, no one-sided component reaches the
     * other job's processes) */
    run_window(m, 0);
    run_window(m, 1);
#endif
    /* everyone's verdict to the merged rank 0, a parent */
    int errs = rxt_errs, all = 0, mr;
    MPI_Comm_rank(m, &mr);
    RXT_MPI(MPI_Reduce(&errs, &all, 1, MPI_INT, MPI_SUM, 0, m));
    RXT_MPI(MPI_Comm_free(&m));
    RXT_MPI(MPI_Comm_disconnect(&inter));
    if (parent != MPI_COMM_NULL) {
        MPI_Finalize();
        return 0;
    }
    if (mr == 0)
        RXT_CHECK(all == 0, "%d errors among parents and children", all);
    return rxt_finish();
}
