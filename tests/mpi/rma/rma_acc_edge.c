/* SPDX-License-Identifier: MIT
 * Accumulate corner cases the standard allows:
 *   - MPI_Get_accumulate and MPI_Fetch_and_op with MPI_NO_OP ignore the origin:
 *     MPI_DATATYPE_NULL with a positive origin count, and a NULL origin buffer, fetch
 *     the target's values (MPI-4.1 12.3.4);
 *   - zero counts and zero-size datatypes (MPI_Type_contiguous(0, MPI_INT)) in
 *     MPI_Accumulate and MPI_Get_accumulate are legal and change nothing.
 * Each rank targets its right neighbour inside fences. */
#include "rxtest.h"

#define N 4

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "rma_acc_edge");
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    int *base;
    MPI_Win win;
    RXT_MPI(MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                             &win));
    for (int i = 0; i < N; i++)
        base[i] = 100 * rxt_rank + i;
    MPI_Datatype empty;
    RXT_MPI(MPI_Type_contiguous(0, MPI_INT, &empty));
    RXT_MPI(MPI_Type_commit(&empty));
    int res[N], res1 = -1, org[N] = {5, 5, 5, 5};
    for (int i = 0; i < N; i++)
        res[i] = -1;
    RXT_MPI(MPI_Win_fence(0, win));
    RXT_MPI(MPI_Get_accumulate(org, N, MPI_DATATYPE_NULL, res, N, MPI_INT, right, 0, N, MPI_INT,
                               MPI_NO_OP, win));
    RXT_MPI(MPI_Fetch_and_op(NULL, &res1, MPI_INT, right, 1, MPI_NO_OP, win));
    /* nothing to move: zero counts, zero-size types */
    RXT_MPI(MPI_Accumulate(org, 0, MPI_INT, right, 0, 0, MPI_INT, MPI_SUM, win));
    RXT_MPI(MPI_Accumulate(org, 1, empty, right, 0, 1, empty, MPI_SUM, win));
    RXT_MPI(MPI_Accumulate(NULL, 2, empty, right, 0, 0, MPI_INT, MPI_SUM, win));
    RXT_MPI(MPI_Get_accumulate(NULL, 0, MPI_INT, res, 1, empty, right, 0, 2, empty, MPI_SUM,
                               win));
    RXT_MPI(MPI_Get_accumulate(NULL, 0, MPI_INT, res, 0, MPI_INT, right, 0, 1, empty, MPI_SUM,
                               win));
    RXT_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < N; i++) {
        RXT_CHECK(res[i] == 100 * right + i, "MPI_NO_OP fetch [%d]: %d, want %d", i, res[i],
                  100 * right + i);
        RXT_CHECK(base[i] == 100 * rxt_rank + i, "window [%d] changed to %d by rank %d", i,
                  base[i], left);
    }
    RXT_CHECK(res1 == 100 * right + 1, "Fetch_and_op MPI_NO_OP: %d, want %d", res1,
              100 * right + 1);
    RXT_MPI(MPI_Type_free(&empty));
    RXT_MPI(MPI_Win_free(&win));
    return rxt_finish();
}
