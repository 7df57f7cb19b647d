/* SPDX-License-Identifier: MIT
 * Large MPI_Reduce in the shapes that the two-rank streamed reduction (the
 * non-root's input through the broadcast ring while the root combines) and
 * every other path must get right: a non-commutative user operation (2x2
 * matrix products, whose order shows), so the result is x_0 op x_1 op ...
 * whichever rank is the root; each root, with and without MPI_IN_PLACE;
 * vectors from below one ring entry to several times the ring's depth;
 * elements as large as one entry and larger; back-to-back reductions with
 * rotating roots interleaved with broadcasts (which share the ring) and a
 * root that is late, so the non-root runs ahead of it. */
#include "rxtest.h"

typedef struct {
    unsigned a, b, c, d;
} mat_t; /* 2x2 matrix of integers mod 2^32 */

static mat_t mat_mul(mat_t x, mat_t y)
{
    return (mat_t){x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c,
                   x.c * y.b + x.d * y.d};
}

/* inout = in * inout, as MPI defines a user op's order */
static void mat_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    mat_t *x = in, *y = inout;
    for (int i = 0; i < *len; i++)
        y[i] = mat_mul(x[i], y[i]);
}

static mat_t mat_of(int r, int i)
{
    unsigned v = (unsigned)(r * 7919 + i);
    return (mat_t){1 + v % 5, v % 3, (v >> 2) % 7, 1 + (v >> 4) % 3};
}

static mat_t mat_ref(int i)
{
    mat_t m = mat_of(0, i);
    for (int r = 1; r < rxt_size; r++)
        m = mat_mul(m, mat_of(r, i));
    return m;
}

static int mat_eq(mat_t x, mat_t y)
{
    return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d;
}

static void test_matrices(MPI_Datatype mt, MPI_Op op, int count, int root, int in_place)
{
    mat_t *in = malloc(sizeof(mat_t) * (size_t)(count ? count : 1));
    mat_t *out = malloc(sizeof(mat_t) * (size_t)(count ? count : 1));
    for (int i = 0; i < count; i++) {
        in[i] = mat_of(rxt_rank, i);
        out[i] = (mat_t){0, 0, 0, 0};
    }
    int me_root = rxt_rank == root;
    const void *s = in_place && me_root ? MPI_IN_PLACE : in;
    if (in_place && me_root)
        memcpy(out, in, sizeof(mat_t) * (size_t)count);
    RXT_MPI(MPI_Reduce(s, out, count, mt, op, root, MPI_COMM_WORLD));
    if (me_root)
        for (int i = 0; i < count; i++)
            if (!mat_eq(out[i], mat_ref(i))) {
                RXT_CHECK(0, "matrices count %d root %d in_place %d: element %d is {%u %u %u %u}",
                          count, root, in_place, i, out[i].a, out[i].b, out[i].c, out[i].d);
                break;
            }
    free(in);
    free(out);
}

/* Elements of n ints each, summed element-wise by a user op: one element is
 * one ring entry (n = 4096) or more than one (n = 4097); declared
 * non-commutative, as users of such ops often do. */
static int blk_n;
static void blk_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    int *x = in, *y = inout;
    for (long i = 0; i < (long)*len * blk_n; i++)
        y[i] += x[i];
}

static void test_big_elements(int n, int count)
{
    MPI_Datatype bt;
    MPI_Op op;
    RXT_MPI(MPI_Type_contiguous(n, MPI_INT, &bt));
    RXT_MPI(MPI_Type_commit(&bt));
    RXT_MPI(MPI_Op_create(blk_op, 0, &op));
    blk_n = n;
    size_t len = (size_t)n * (size_t)count;
    int *in = malloc(sizeof(int) * len), *out = malloc(sizeof(int) * len);
    for (size_t i = 0; i < len; i++)
        in[i] = (int)(i % 1000) + rxt_rank;
    for (int root = 0; root < rxt_size && root < 2; root++) {
        memset(out, 0, sizeof(int) * len);
        RXT_MPI(MPI_Reduce(in, out, count, bt, op, root, MPI_COMM_WORLD));
        if (rxt_rank != root)
            continue;
        for (size_t i = 0; i < len; i++) {
            long long want = (long long)rxt_size * (long long)(i % 1000) +
                             (long long)rxt_size * (rxt_size - 1) / 2;
            if (out[i] != (int)want) {
                RXT_CHECK(0, "elements of %d ints, count %d root %d: int %zu is %d, want %lld", n,
                          count, root, i, out[i], want);
                break;
            }
        }
    }
    free(in);
    free(out);
    MPI_Op_free(&op);
    MPI_Type_free(&bt);
}

/* Back-to-back reductions with rotating roots, broadcasts between them,
 * and every fourth round a root that arrives late. */
static void test_back_to_back(void)
{
    const int n = 96 * 1024; /* doubles: 768 KiB, more than the ring holds */
    double *in = malloc(sizeof(double) * n), *out = malloc(sizeof(double) * n);
    char *bc = malloc(20000);
    for (int round = 0; round < 24; round++) {
        int root = round % rxt_size;
        for (int i = 0; i < n; i++)
            in[i] = (double)(rxt_rank + 1) * (i % 97) + round;
        if (round % 4 == 3 && rxt_rank == root)
            usleep(20000);
        RXT_MPI(MPI_Reduce(in, out, n, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD));
        if (rxt_rank == root)
            for (int i = 0; i < n; i++) {
                double want = (double)rxt_size * (rxt_size + 1) / 2 * (i % 97) +
                              (double)rxt_size * round;
                if (out[i] != want) {
                    RXT_CHECK(0, "round %d root %d: element %d is %g, want %g", round, root, i,
                              out[i], want);
                    break;
                }
            }
        int bsize = round % 2 ? 20000 : 40;
        for (int i = 0; i < bsize; i++)
            bc[i] = rxt_rank == root ? (char)(i + round) : 0;
        RXT_MPI(MPI_Bcast(bc, bsize, MPI_CHAR, root, MPI_COMM_WORLD));
        for (int i = 0; i < bsize; i++)
            if (bc[i] != (char)(i + round)) {
                RXT_CHECK(0, "round %d: bcast byte %d is %d", round, i, bc[i]);
                break;
            }
    }
    free(in);
    free(out);
    free(bc);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "coll_reduce_stream");
    MPI_Datatype mt;
    MPI_Op op;
    RXT_MPI(MPI_Type_contiguous(4, MPI_UNSIGNED, &mt));
    RXT_MPI(MPI_Type_commit(&mt));
    RXT_MPI(MPI_Op_create(mat_op, 0, &op));
    /* 16-byte elements: 512 make 8 KiB, 1024 one ring entry, 40000 about
     * 1.2 times the ring */
    static const int counts[] = {1, 511, 512, 513, 1023, 1024, 1025, 40000};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
        for (int root = 0; root < rxt_size && root < 3; root++)
            for (int ip = 0; ip < 2; ip++)
                test_matrices(mt, op, counts[k], root, ip);
    MPI_Op_free(&op);
    MPI_Type_free(&mt);
    test_big_elements(4096, 3);
    test_big_elements(4097, 3);
    test_back_to_back();
    return rxt_finish();
}
