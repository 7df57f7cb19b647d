/* SPDX-License-Identifier: MIT
 * Accumulates of every size from concurrent origins on the same elements
 * stay element-wise atomic with each other: under MPI_Win_lock_all every
 * rank, ROUNDS times, adds 1 to all N elements of rank 0's window with one
 * large MPI_Accumulate, adds 1 to element (rank + round) % N with
 * MPI_Fetch_and_op, with MPI_Accumulate of one element and with a
 * compare-and-swap retry loop, and reads all of it with MPI_Get_accumulate
 * (MPI_NO_OP) and MPI_Get_accumulate (MPI_SUM) of 0s; at the end every
 * element must hold exactly what was added, the single-element updates
 * exactly where they went, for int64 (fetch-add capable) and double
 * (combined by compare-and-swap loops or plain loops) elements. Large
 * and small updates racing on one element is where a lock for the one and
 * atomic instructions for the other would lose updates.
 * argv[1]: allocate, shared or create (window memory kinds). Under Open MPI
 * 4.1 the compare-and-swap increments are fetch-and-ops (its
 * MPI_Compare_and_swap crashes). */
#include "rxtest.h"

#define N 4096
#define ROUNDS 60

static MPI_Win make_win(const char *kind, size_t bytes, void **base, void **mem)
{
    MPI_Win w;
    *mem = NULL;
    if (!strcmp(kind, "create")) {
        *mem = calloc(1, bytes);
        *base = *mem;
        RXT_MPI(MPI_Win_create(*base, (MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
    } else if (!strcmp(kind, "shared")) {
        RXT_MPI(MPI_Win_allocate_shared((MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, base,
                                        &w));
        memset(*base, 0, bytes);
    } else {
        RXT_MPI(MPI_Win_allocate((MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, base, &w));
        memset(*base, 0, bytes);
    }
    return w;
}

/* Each element's total: ROUNDS * p from the large adds, plus the single
 * updates that landed on it (4 kinds per rank and round). */
static long long expect(int i, int p)
{
    long long v = (long long)ROUNDS * p;
    for (int r = 0; r < p; r++)
        for (int k = 0; k < ROUNDS; k++)
            if ((r + k) % N == i)
                v += 3 + (i % 2 == 0); /* fop, acc, cas; the cas loop on even elements twice */
    return v;
}

static void run_int64(const char *kind)
{
    int p = rxt_size;
    void *base, *mem;
    MPI_Win w = make_win(kind, N * sizeof(int64_t), &base, &mem);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    int64_t *ones = malloc(N * sizeof *ones), *snap = malloc(N * sizeof *snap);
    int64_t *zeros = calloc(N, sizeof *zeros);
    for (int i = 0; i < N; i++)
        ones[i] = 1;
    MPI_Barrier(MPI_COMM_WORLD);
    RXT_MPI(MPI_Win_lock_all(0, w));
    for (int k = 0; k < ROUNDS; k++) {
        MPI_Aint e = (MPI_Aint)(((rxt_rank + k) % N) * (int)sizeof(int64_t));
        int64_t one = 1, old;
        RXT_MPI(MPI_Accumulate(ones, N, MPI_INT64_T, 0, 0, N, MPI_INT64_T, MPI_SUM, w));
        RXT_MPI(MPI_Fetch_and_op(&one, &old, MPI_INT64_T, 0, e, MPI_SUM, w));
        RXT_MPI(MPI_Accumulate(&one, 1, MPI_INT64_T, 0, e, 1, MPI_INT64_T, MPI_SUM, w));
        int reps = 1 + ((rxt_rank + k) % N % 2 == 0);
        for (int t = 0; t < reps; t++) {
#ifdef OPEN_MPI
            /* Open MPI 4.1's MPI_Compare_and_swap crashes here (SIGSEGV): the
             * same increment by fetch-and-op */
            RXT_MPI(MPI_Fetch_and_op(&one, &old, MPI_INT64_T, 0, e, MPI_SUM, w));
            continue;
#endif
            int64_t cur, want, got;
            /* results are there once flushed */
            RXT_MPI(MPI_Fetch_and_op(NULL, &cur, MPI_INT64_T, 0, e, MPI_NO_OP, w));
            RXT_MPI(MPI_Win_flush(0, w));
            do {
                want = cur + 1;
                RXT_MPI(MPI_Compare_and_swap(&want, &cur, &got, MPI_INT64_T, 0, e, w));
                RXT_MPI(MPI_Win_flush(0, w));
                if (got == cur)
                    break;
                cur = got;
            } while (1);
        }
        if (k % 8 == 0) {
            RXT_MPI(MPI_Get_accumulate(NULL, 0, MPI_DATATYPE_NULL, snap, N, MPI_INT64_T, 0, 0, N,
                                       MPI_INT64_T, MPI_NO_OP, w));
            RXT_MPI(MPI_Win_flush(0, w));
            RXT_CHECK(snap[N - 1] >= k + 1, "int64 %s round %d: read %lld before own adds", kind,
                      k, (long long)snap[N - 1]);
            RXT_MPI(MPI_Get_accumulate(zeros, N, MPI_INT64_T, snap, N, MPI_INT64_T, 0, 0, N,
                                       MPI_INT64_T, MPI_SUM, w));
        }
        RXT_MPI(MPI_Win_flush(0, w));
    }
    RXT_MPI(MPI_Win_unlock_all(w));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rxt_rank == 0) {
        RXT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w));
        const int64_t *v = base;
        for (int i = 0; i < N; i++)
            if (v[i] != expect(i, p)) {
                RXT_CHECK(0, "int64 %s: element %d is %lld, want %lld", kind, i, (long long)v[i],
                          expect(i, p));
                break;
            }
        RXT_MPI(MPI_Win_unlock(0, w));
    }
    RXT_MPI(MPI_Win_free(&w));
    free(mem);
    free(ones);
    free(snap);
    free(zeros);
}

/* Doubles: no compare-and-swap in MPI for them, so the single updates are
 * fetch-and-op and one-element accumulates (2 per rank and round). */
static void run_double(const char *kind)
{
    int p = rxt_size;
    void *base, *mem;
    MPI_Win w = make_win(kind, N * sizeof(double), &base, &mem);
    double *ones = malloc(N * sizeof *ones);
    for (int i = 0; i < N; i++)
        ones[i] = 1.0;
    MPI_Barrier(MPI_COMM_WORLD);
    RXT_MPI(MPI_Win_lock_all(0, w));
    for (int k = 0; k < ROUNDS; k++) {
        MPI_Aint e = (MPI_Aint)(((rxt_rank + k) % N) * (int)sizeof(double));
        double one = 1.0, old;
        RXT_MPI(MPI_Accumulate(ones, N, MPI_DOUBLE, 0, 0, N, MPI_DOUBLE, MPI_SUM, w));
        RXT_MPI(MPI_Fetch_and_op(&one, &old, MPI_DOUBLE, 0, e, MPI_SUM, w));
        RXT_MPI(MPI_Accumulate(&one, 1, MPI_DOUBLE, 0, e, 1, MPI_DOUBLE, MPI_SUM, w));
        RXT_MPI(MPI_Win_flush(0, w));
    }
    RXT_MPI(MPI_Win_unlock_all(w));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rxt_rank == 0) {
        RXT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w));
        const double *v = base;
        for (int i = 0; i < N; i++) {
            double want = (double)ROUNDS * p;
            for (int r = 0; r < p; r++)
                for (int k = 0; k < ROUNDS; k++)
                    if ((r + k) % N == i)
                        want += 2;
            if (v[i] != want) {
                RXT_CHECK(0, "double %s: element %d is %g, want %g", kind, i, v[i], want);
                break;
            }
        }
        RXT_MPI(MPI_Win_unlock(0, w));
    }
    RXT_MPI(MPI_Win_free(&w));
    free(mem);
    free(ones);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "rma_acc_mixed");
    const char *kind = argc > 1 ? argv[1] : "allocate";
    run_int64(kind);
    run_double(kind);
    return rxt_finish();
}
