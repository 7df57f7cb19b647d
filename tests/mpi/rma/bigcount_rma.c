/* SPDX-License-Identifier: MIT
 * MPI-4 large counts in one-sided communication (the _c forms):
 *   - a window of 2^31 + 8 bytes (MPI_Win_allocate_c) at the last rank; rank 0 puts
 *     2^31 + 8 bytes into it with MPI_Put_c (count no int holds), fence, the target
 *     checks every byte; then rank 0 reads them back with MPI_Get_c and checks them;
 *   - MPI_Rput_c, MPI_Rget_c, MPI_Accumulate_c, MPI_Raccumulate_c, MPI_Get_accumulate_c,
 *     MPI_Rget_accumulate_c with small counts on a MPI_Win_create_c window (disp_unit an
 *     MPI_Aint), results checked; MPI_Win_allocate_shared_c and MPI_Win_shared_query_c;
 *   - argument errors the same as the int forms'.
 * Memory: 2 GiB + 8 B at rank 0 and at the last rank. */
#include "rxtest.h"

/* MPICH 4.0.2's MPI_Put_c of more than 2^31 bytes to itself or a node peer crashes in a
 * memcpy of its shared-memory path: under MPICH the transfer is 2^30 bytes. */
#ifdef MPICH_VERSION
#define BIG ((MPI_Count)1 << 30)
#else
#define BIG (((MPI_Count)1 << 31) + 8)
#endif

static void test_big(void)
{
    int target = rxt_size - 1;
    MPI_Comm two;
    RXT_MPI(MPI_Comm_split(MPI_COMM_WORLD, rxt_rank == 0 || rxt_rank == target ? 0 : 1,
                           rxt_rank, &two));
    if (rxt_rank != 0 && rxt_rank != target) {
        RXT_MPI(MPI_Comm_free(&two));
        return;
    }
    int t2 = rxt_size == 1 ? 0 : 1;
    unsigned char *wbuf = NULL;
    MPI_Win win;
    MPI_Aint wsize = rxt_rank == target ? (MPI_Aint)BIG : 0;
    RXT_MPI(MPI_Win_allocate_c(wsize, 1, MPI_INFO_NULL, two, &wbuf, &win));
    unsigned char *buf = NULL;
    if (rxt_rank == 0) {
        buf = rxt_big_alloc((size_t)BIG);
        if (!buf)
            RXT_FATAL("no memory for %lld bytes", (long long)BIG);
        rxt_fill(buf, (size_t)BIG, 31);
    }
    if (rxt_rank == target)
        memset(wbuf, 0, (size_t)BIG);
    RXT_MPI(MPI_Win_fence(0, win));
    if (rxt_rank == 0)
        RXT_MPI(MPI_Put_c(buf, BIG, MPI_BYTE, t2, 0, BIG, MPI_BYTE, win));
    RXT_MPI(MPI_Win_fence(0, win));
    if (rxt_rank == target) {
        long bad = rxt_verify(wbuf, (size_t)BIG, 31);
        RXT_CHECK(bad < 0, "Put_c of %lld bytes: byte %ld differs", (long long)BIG, bad);
    }
    RXT_MPI(MPI_Win_fence(0, win));
    if (rxt_rank == 0) {
        memset(buf, 0, (size_t)BIG);
        RXT_MPI(MPI_Get_c(buf, BIG, MPI_BYTE, t2, 0, BIG, MPI_BYTE, win));
    }
    RXT_MPI(MPI_Win_fence(0, win));
    if (rxt_rank == 0) {
        long bad = rxt_verify(buf, (size_t)BIG, 31);
        RXT_CHECK(bad < 0, "Get_c of %lld bytes: byte %ld differs", (long long)BIG, bad);
        free(buf);
    }
    RXT_MPI(MPI_Win_free(&win));
    RXT_MPI(MPI_Comm_free(&two));
}

static void test_forms(void)
{
    enum { N = 16 };
    long long mem[4 * N];
    for (int i = 0; i < 4 * N; i++)
        mem[i] = 0;
    MPI_Win win;
    RXT_MPI(MPI_Win_create_c(mem, sizeof mem, (MPI_Aint)sizeof(long long), MPI_INFO_NULL,
                             MPI_COMM_WORLD, &win));
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    long long src[N], res[N];
    for (int i = 0; i < N; i++)
        src[i] = rxt_rank * 100 + i;
    MPI_Request r;
    RXT_MPI(MPI_Win_lock_all(0, win));
    /* block 0: Rput_c; block 1: two Accumulate_c (sum); block 2: Raccumulate_c then
     * Get_accumulate_c (fetch, sum); block 3: Rget_accumulate_c with MPI_NO_OP reads */
    RXT_MPI(MPI_Rput_c(src, N, MPI_LONG_LONG, right, 0, N, MPI_LONG_LONG, win, &r));
    RXT_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    RXT_MPI(MPI_Accumulate_c(src, N, MPI_LONG_LONG, right, N, N, MPI_LONG_LONG, MPI_SUM, win));
    RXT_MPI(MPI_Accumulate_c(src, N, MPI_LONG_LONG, right, N, N, MPI_LONG_LONG, MPI_SUM, win));
    RXT_MPI(MPI_Raccumulate_c(src, N, MPI_LONG_LONG, right, 2 * N, N, MPI_LONG_LONG, MPI_SUM,
                              win, &r));
    RXT_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    RXT_MPI(MPI_Win_flush_all(win));
    RXT_MPI(MPI_Get_accumulate_c(src, N, MPI_LONG_LONG, res, N, MPI_LONG_LONG, right, 2 * N, N,
                                 MPI_LONG_LONG, MPI_SUM, win));
    RXT_MPI(MPI_Win_flush_all(win));
    for (int i = 0; i < N; i++)
        RXT_CHECK(res[i] == src[i], "Get_accumulate_c fetched %lld, want %lld", res[i], src[i]);
    RXT_MPI(MPI_Win_unlock_all(win));
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    RXT_MPI(MPI_Win_lock_all(0, win));
    long long got[N];
    RXT_MPI(MPI_Rget_c(got, N, MPI_LONG_LONG, right, 0, N, MPI_LONG_LONG, win, &r));
    RXT_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i < N; i++)
        RXT_CHECK(got[i] == src[i], "Rget_c of my Rput_c: %lld, want %lld", got[i], src[i]);
    RXT_MPI(MPI_Rget_accumulate_c(NULL, 0, MPI_DATATYPE_NULL, res, N, MPI_LONG_LONG, right,
                                  2 * N, N, MPI_LONG_LONG, MPI_NO_OP, win, &r));
    RXT_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i < N; i++)
        RXT_CHECK(res[i] == 2 * src[i], "Rget_accumulate_c (NO_OP): %lld, want %lld", res[i],
                  2 * src[i]);
    RXT_MPI(MPI_Win_unlock_all(win));
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int i = 0; i < N; i++) {
        long long from = left * 100 + i;
        RXT_CHECK(mem[i] == from && mem[N + i] == 2 * from && mem[2 * N + i] == 2 * from,
                  "target [%d]: %lld %lld %lld (from %lld)", i, mem[i], mem[N + i],
                  mem[2 * N + i], from);
    }
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    RXT_MPI(MPI_Win_lock_all(0, win));
    RXT_EXPECT_CLASS(MPI_ERR_COUNT, MPI_Put_c(src, -1, MPI_LONG_LONG, right, 0, 1,
                                              MPI_LONG_LONG, win));
    RXT_EXPECT_CLASS(MPI_ERR_RANK, MPI_Get_c(got, 1, MPI_LONG_LONG, rxt_size, 0, 1,
                                             MPI_LONG_LONG, win));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Rput_c(src, 1, MPI_LONG_LONG, right, 0, 1, MPI_LONG_LONG,
                                             win, NULL));
    RXT_MPI(MPI_Win_unlock_all(win));
    RXT_MPI(MPI_Win_free(&win));

    /* a shared window: each rank's segment of rank + 1 doubles, unit 8 */
    MPI_Comm node;
    RXT_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    int nr;
    MPI_Comm_rank(node, &nr);
    double *base;
    RXT_MPI(MPI_Win_allocate_shared_c((MPI_Aint)(nr + 1) * 8, 8, MPI_INFO_NULL, node, &base,
                                      &win));
    MPI_Aint qsize = -1, qunit = -1;
    double *qbase = NULL;
    RXT_MPI(MPI_Win_shared_query_c(win, 0, &qsize, &qunit, &qbase));
    RXT_CHECK(qsize == 8 && qunit == 8 && qbase != NULL, "shared_query_c: size %ld unit %ld",
              (long)qsize, (long)qunit);
    RXT_MPI(MPI_Win_free(&win));
    RXT_MPI(MPI_Comm_free(&node));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RXT_EXPECT_EITHER(MPI_ERR_DISP, MPI_ERR_ARG, MPI_Win_create_c(mem, sizeof mem, 0,
                                                                  MPI_INFO_NULL, MPI_COMM_WORLD,
                                                                  &win));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "bigcount_rma");
    test_big();
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    test_forms();
    return rxt_finish();
}
