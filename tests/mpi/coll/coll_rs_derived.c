/* SPDX-License-Identifier: MIT
 * Reduce-scatter on non-contiguous datatypes with predefined operations:
 * a vector of two ints with a one-int hole (extent 3 ints), blocking
 * (MPI_Reduce_scatter with uneven counts, _block, in place) and
 * nonblocking (MPI_Ireduce_scatter, _block). Results checked element by
 * element against a serial reference; the holes of the receive buffer
 * must keep the caller's bytes. Not in the testlist that run-with.sh runs
 * under the peers: MPICH 4.0 refuses predefined operations on derived types
 * and Open MPI 4.1 fails this call, so the serial reference is the check. */
#include "rxtest.h"

#define HOLE (-7)

static int val(int rank, int elem, int k) { return 1000 * rank + 10 * elem + k; }

static void check_block(const int *rb, int first, int n, int p, const char *what)
{
    for (int e = 0; e < n; e++)
        for (int k = 0; k < 2; k++) {
            int want = 0;
            for (int r = 0; r < p; r++)
                want += val(r, first + e, k);
            RXT_CHECK(rb[3 * e + k] == want, "%s: element %d part %d is %d, want %d", what,
                      first + e, k, rb[3 * e + k], want);
        }
    for (int e = 0; e < n; e++)
        RXT_CHECK(rb[3 * e + 2] == HOLE, "%s: the hole after element %d was written (%d)", what,
                  first + e, rb[3 * e + 2]);
}

static void run(MPI_Datatype vt, int nonblocking)
{
    int me = rxt_rank, p = rxt_size;
    int *counts = malloc(sizeof(int) * (size_t)p), total = 0, first = 0;
    for (int i = 0; i < p; i++) {
        counts[i] = i % 3 + 1; /* uneven: 1, 2, 3, 1, ... */
        if (i < me)
            first += counts[i];
        total += counts[i];
    }
    int bc = 2, n = total > bc * p ? total : bc * p; /* bc: block form count */
    int *sb = malloc(sizeof(int) * 3 * (size_t)n), *rb = malloc(sizeof(int) * 3 * (size_t)n);
    for (int e = 0; e < total; e++) {
        sb[3 * e] = val(me, e, 0);
        sb[3 * e + 1] = val(me, e, 1);
        sb[3 * e + 2] = 12345; /* holes of the input are never read */
    }
    for (int i = 0; i < 3 * n; i++)
        rb[i] = HOLE;
    MPI_Request rq;
    if (nonblocking) {
        RXT_MPI(MPI_Ireduce_scatter(sb, rb, counts, vt, MPI_SUM, MPI_COMM_WORLD, &rq));
        RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    } else {
        RXT_MPI(MPI_Reduce_scatter(sb, rb, counts, vt, MPI_SUM, MPI_COMM_WORLD));
    }
    check_block(rb, first, counts[me], p, nonblocking ? "Ireduce_scatter" : "Reduce_scatter");

    for (int i = 0; i < 3 * n; i++)
        rb[i] = HOLE;
    /* block form: every rank gets elements [bc me, bc me + bc) */
    for (int e = 0; e < bc * p; e++) {
        sb[3 * e] = val(me, e, 0);
        sb[3 * e + 1] = val(me, e, 1);
    }
    int *big = malloc(sizeof(int) * 3 * (size_t)(bc * p));
    for (int e = 0; e < bc * p; e++) {
        big[3 * e] = val(me, e, 0);
        big[3 * e + 1] = val(me, e, 1);
        big[3 * e + 2] = HOLE;
    }
    if (nonblocking) {
        RXT_MPI(MPI_Ireduce_scatter_block(big, rb, bc, vt, MPI_SUM, MPI_COMM_WORLD, &rq));
        RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        check_block(rb, bc * me, bc, p, "Ireduce_scatter_block");
    } else {
        RXT_MPI(MPI_Reduce_scatter_block(MPI_IN_PLACE, big, bc, vt, MPI_SUM, MPI_COMM_WORLD));
        check_block(big, bc * me, bc, p, "Reduce_scatter_block in place");
    }
    free(big), free(sb), free(rb), free(counts);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "coll_rs_derived");
    MPI_Datatype vt;
    RXT_MPI(MPI_Type_vector(1, 2, 3, MPI_INT, &vt)); /* two ints then a hole */
    MPI_Datatype rt;
    RXT_MPI(MPI_Type_create_resized(vt, 0, 3 * (MPI_Aint)sizeof(int), &rt));
    RXT_MPI(MPI_Type_commit(&rt));
    run(rt, 0);
    run(rt, 1);
    MPI_Type_free(&rt);
    MPI_Type_free(&vt);
    return rxt_finish();
}
