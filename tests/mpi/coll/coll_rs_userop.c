/* SPDX-License-Identifier: MIT
 * Reduce-scatter of a non-contiguous datatype with a user-defined operation: a vector
 * of two ints with a one-int hole (extent 3 ints) and a commutative user sum that walks
 * the type's layout. MPI_Reduce_scatter (uneven counts, in place), _block, and the
 * nonblocking MPI_Ireduce_scatter and _block; every element checked against a serial
 * reference, and the holes of the receive buffer keep the caller's bytes. */
#include "rxtest.h"

#define HOLE (-7)

static int val(int rank, int elem, int k) { return 1000 * rank + 10 * elem + k; }

static void vsum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt; /* the vector type: elements of 3 ints, the first two data */
    const int *a = in;
    int *b = inout;
    for (int e = 0; e < *len; e++)
        for (int k = 0; k < 2; k++)
            b[3 * e + k] += a[3 * e + k];
}

static void check_block(const int *rb, int first, int n, int p, const char *what)
{
    for (int e = 0; e < n; e++) {
        for (int k = 0; k < 2; k++) {
            int want = 0;
            for (int r = 0; r < p; r++)
                want += val(r, first + e, k);
            RXT_CHECK(rb[3 * e + k] == want, "%s: element %d part %d is %d, want %d", what,
                      first + e, k, rb[3 * e + k], want);
        }
        RXT_CHECK(rb[3 * e + 2] == HOLE, "%s: the hole after element %d was written (%d)", what,
                  first + e, rb[3 * e + 2]);
    }
}

static void fill(int *sb, int total)
{
    for (int e = 0; e < total; e++) {
        sb[3 * e] = val(rxt_rank, e, 0);
        sb[3 * e + 1] = val(rxt_rank, e, 1);
        sb[3 * e + 2] = HOLE;
    }
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "coll_rs_userop");
    int p = rxt_size, me = rxt_rank;
    MPI_Datatype vec, t;
    MPI_Op op;
    RXT_MPI(MPI_Type_vector(1, 2, 3, MPI_INT, &t));
    RXT_MPI(MPI_Type_create_resized(t, 0, 3 * sizeof(int), &vec));
    RXT_MPI(MPI_Type_free(&t));
    RXT_MPI(MPI_Type_commit(&vec));
    RXT_MPI(MPI_Op_create(vsum, 1, &op));
    int *counts = malloc(sizeof(int) * (size_t)p), total = 0, first = 0;
    for (int i = 0; i < p; i++) {
        counts[i] = 1 + i % 3; /* uneven */
        if (i < me)
            first += counts[i];
        total += counts[i];
    }
    int *sb = malloc(sizeof(int) * 3 * (size_t)total);
    int *rb = malloc(sizeof(int) * 3 * (size_t)total);
    for (int round = 0; round < 2; round++) { /* blocking, then nonblocking */
        MPI_Request req;
        const char *name = round ? "MPI_Ireduce_scatter" : "MPI_Reduce_scatter";
        fill(sb, total);
        for (int i = 0; i < 3 * total; i++)
            rb[i] = HOLE;
        if (round) {
            RXT_MPI(MPI_Ireduce_scatter(sb, rb, counts, vec, op, MPI_COMM_WORLD, &req));
            RXT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        } else {
            RXT_MPI(MPI_Reduce_scatter(sb, rb, counts, vec, op, MPI_COMM_WORLD));
        }
        check_block(rb, first, counts[me], p, name);
        /* in place: the input is rb, whose start receives this rank's block */
        fill(rb, total);
        RXT_MPI(MPI_Reduce_scatter(MPI_IN_PLACE, rb, counts, vec, op, MPI_COMM_WORLD));
        check_block(rb, first, counts[me], p, "in place");
        /* the block form: two elements each */
        int *sb2 = malloc(sizeof(int) * 3 * 2 * (size_t)p), rb2[6];
        fill(sb2, 2 * p);
        for (int i = 0; i < 6; i++)
            rb2[i] = HOLE;
        if (round) {
            RXT_MPI(MPI_Ireduce_scatter_block(sb2, rb2, 2, vec, op, MPI_COMM_WORLD, &req));
            RXT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        } else {
            RXT_MPI(MPI_Reduce_scatter_block(sb2, rb2, 2, vec, op, MPI_COMM_WORLD));
        }
        check_block(rb2, 2 * me, 2, p, round ? "MPI_Ireduce_scatter_block" : "_block");
        free(sb2);
    }
    free(sb);
    free(rb);
    free(counts);
    RXT_MPI(MPI_Op_free(&op));
    RXT_MPI(MPI_Type_free(&vec));
    return rxt_finish();
}
