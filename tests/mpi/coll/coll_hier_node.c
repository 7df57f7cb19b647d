/* SPDX-License-Identifier: MIT
 * Hierarchical Barrier, Bcast, Reduce and Allreduce whose phases inside
 * each node run on the node-shared path (testlist: RDMX_COLL_NODE_SIZE makes
 * groups of ranks of this machine "nodes", which share memory). Results
 * against closed forms, on world and on a split whose nodes hold ranks
 * that are not neighbours in world: sizes from one element through the
 * slot split (4 KiB), the slot (64 KiB) to the single-copy reduction
 * (beyond it), every root, MPI_IN_PLACE, a non-commutative user op (which
 * the hierarchical schedule takes instead), and back-to-back calls; the
 * barrier is checked by one-sided increments it must order.
 *
 * That the node path is taken is read from the library's own report
 * (RDMX_LOG=info: "node phases on the node path"), which rank 0 captures
 * from its stderr; an rdmx-only check (testlist: only=rdmx). */
#include "rxtest.h"

#include <fcntl.h>

static const int counts[] = { 1, 7, 512, 513, 1500, 8191, 8192, 8193, 40009 }; /* doubles */
static const int bcast_bytes[] = { 1, 48, 49, 4096, 8191, 8192, 16385, 100003, 1048583 };

static double val(int r, int i) { return (double)(r + 1) * 0.5 + (double)(i % 101); }

/* sum over ranks 0..p-1 of val(r, i), in exact binary fractions */
static double sum_of(int p, int i) { return 0.25 * p * (p + 1) + (double)p * (i % 101); }

static void test_allreduce(MPI_Comm comm, const char *cn)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
        int n = counts[k];
        double *in = malloc(sizeof(double) * (size_t)n), *out = malloc(sizeof(double) * (size_t)n);
        for (int i = 0; i < n; i++)
            in[i] = val(me, i);
        RXT_MPI(MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, comm));
        int bad = 0;
        for (int i = 0; i < n && !bad; i++)
            if (out[i] != sum_of(p, i)) {
                RXT_CHECK(0, "%s allreduce n=%d: out[%d] = %g, want %g", cn, n, i, out[i], sum_of(p, i));
                bad = 1;
            }
        /* in place, MAX of ints */
        int *v = (int *)in;
        for (int i = 0; i < n; i++)
            v[i] = (me * 31 + i) % (p + 3);
        RXT_MPI(MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_INT, MPI_MAX, comm));
        for (int i = 0; i < n && !bad; i++) {
            int want = 0;
            for (int r = 0; r < p; r++)
                want = (r * 31 + i) % (p + 3) > want ? (r * 31 + i) % (p + 3) : want;
            if (v[i] != want) {
                RXT_CHECK(0, "%s allreduce in place n=%d: v[%d] = %d, want %d", cn, n, i, v[i], want);
                bad = 1;
            }
        }
        free(in);
        free(out);
    }
}

static void test_reduce(MPI_Comm comm, const char *cn)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
        int n = counts[k];
        double *in = malloc(sizeof(double) * (size_t)n), *out = malloc(sizeof(double) * (size_t)n);
        for (int root = 0; root < p; root++) {
            for (int i = 0; i < n; i++) {
                in[i] = val(me, i);
                out[i] = -1;
            }
            int inplace = root == me && root % 2;
            if (inplace)
                memcpy(out, in, sizeof(double) * (size_t)n);
            RXT_MPI(MPI_Reduce(inplace ? MPI_IN_PLACE : in, out, n, MPI_DOUBLE, MPI_SUM, root, comm));
            for (int i = 0; i < n; i++) {
                double want = me == root ? sum_of(p, i) : -1;
                if (out[i] != want) {
                    RXT_CHECK(0, "%s reduce n=%d root=%d: out[%d] = %g, want %g", cn, n, root, i,
                              out[i], want);
                    break;
                }
            }
        }
        free(in);
        free(out);
    }
}

static void test_bcast(MPI_Comm comm, const char *cn)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    for (size_t k = 0; k < sizeof bcast_bytes / sizeof *bcast_bytes; k++) {
        int n = bcast_bytes[k];
        unsigned char *b = malloc((size_t)n);
        for (int root = 0; root < p; root++) {
            for (int i = 0; i < n; i++)
                b[i] = me == root ? (unsigned char)(root * 13 + i * 7) : 0xee;
            RXT_MPI(MPI_Bcast(b, n, MPI_BYTE, root, comm));
            for (int i = 0; i < n; i++)
                if (b[i] != (unsigned char)(root * 13 + i * 7)) {
                    RXT_CHECK(0, "%s bcast %d bytes root=%d: b[%d] = %d", cn, n, root, i, b[i]);
                    break;
                }
        }
        free(b);
    }
}

/* Every rank's increments before the barrier are visible after it. */
static void test_barrier(MPI_Comm comm, const char *cn)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    MPI_Win win;
    int *cell;
    RXT_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, comm, &cell, &win));
    *cell = 0;
    RXT_MPI(MPI_Barrier(comm));
    for (int round = 1; round <= 20; round++) {
        int one = 1;
        RXT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        RXT_MPI(MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win));
        RXT_MPI(MPI_Win_unlock(0, win));
        RXT_MPI(MPI_Barrier(comm));
        if (me == 0) {
            RXT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
            int now = *cell;
            RXT_MPI(MPI_Win_unlock(0, win));
            RXT_CHECK(now == round * p, "%s barrier round %d: %d increments, want %d", cn, round,
                      now, round * p);
        }
        RXT_MPI(MPI_Barrier(comm));
    }
    RXT_MPI(MPI_Win_free(&win));
}

/* 2x2 matrix products mod a prime: associative, as MPI requires, but not
 * commutative, so a reduction in any other order than rank order differs */
#define RXT_MOD 1000003LL
static void matmul(const long long *x, long long *y) /* y = x * y */
{
    long long r[4] = { (x[0] * y[0] + x[1] * y[2]) % RXT_MOD, (x[0] * y[1] + x[1] * y[3]) % RXT_MOD,
                       (x[2] * y[0] + x[3] * y[2]) % RXT_MOD, (x[2] * y[1] + x[3] * y[3]) % RXT_MOD };
    memcpy(y, r, sizeof r);
}

static void matmul_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        matmul((const long long *)in + 4 * i, (long long *)inout + 4 * i);
}

static void mat_of(int r, int i, long long m[4])
{
    m[0] = r + 1;
    m[1] = i + 2;
    m[2] = r * 3 + 1;
    m[3] = 5;
}

static void test_noncommutative(MPI_Comm comm, const char *cn)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    MPI_Op op;
    MPI_Datatype mat;
    RXT_MPI(MPI_Op_create(matmul_op, 0, &op));
    RXT_MPI(MPI_Type_contiguous(4, MPI_LONG_LONG, &mat));
    RXT_MPI(MPI_Type_commit(&mat));
    enum { N = 5 };
    long long in[4 * N], out[4 * N], red[4 * N];
    for (int i = 0; i < N; i++)
        mat_of(me, i, in + 4 * i);
    RXT_MPI(MPI_Allreduce(in, out, N, mat, op, comm));
    RXT_MPI(MPI_Reduce(in, red, N, mat, op, p - 1, comm));
    for (int i = 0; i < N; i++) {
        long long want[4] = { 1, 0, 0, 1 }, x[4];
        for (int r = p - 1; r >= 0; r--) {
            mat_of(r, i, x);
            matmul(x, want);
        }
        RXT_CHECK(!memcmp(out + 4 * i, want, sizeof want),
                  "%s non-commutative allreduce [%d] = (%lld %lld %lld %lld), want (%lld %lld %lld %lld)",
                  cn, i, out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3], want[0], want[1],
                  want[2], want[3]);
        RXT_CHECK(me != p - 1 || !memcmp(red + 4 * i, want, sizeof want),
                  "%s non-commutative reduce [%d] wrong", cn, i);
    }
    RXT_MPI(MPI_Type_free(&mat));
    RXT_MPI(MPI_Op_free(&op));
}

static void run_all(MPI_Comm comm, const char *cn)
{
    test_allreduce(comm, cn);
    test_reduce(comm, cn);
    test_bcast(comm, cn);
    test_barrier(comm, cn);
    test_noncommutative(comm, cn);
}

int main(int argc, char **argv)
{
    /* the library reports its choice on stderr when the first collective
     * of a communicator across nodes makes its state: keep what world's
     * first calls write, then pass it on */
    char logname[] = "/tmp/rxt_hier_node_XXXXXX";
    int logfd = mkstemp(logname), saved = logfd >= 0 ? dup(2) : -1;
    if (saved >= 0) {
        unlink(logname);
        dup2(logfd, 2);
    }
    rxt_init(&argc, &argv, "coll_hier_node");
    run_all(MPI_COMM_WORLD, "world");
    char text[65536] = "";
    if (saved >= 0) {
        ssize_t got = pread(logfd, text, sizeof text - 1, 0);
        text[got > 0 ? got : 0] = 0;
        dup2(saved, 2);
        close(saved);
        fputs(text, stderr);
    }
    if (rxt_rank == 0)
        RXT_CHECK(strstr(text, "node phases on the node path") != NULL,
                  "world's hierarchical collectives did not report the node path");
    MPI_Comm half;
    RXT_MPI(MPI_Comm_split(MPI_COMM_WORLD, rxt_rank % 2, -rxt_rank, &half));
    run_all(half, "split");
    RXT_MPI(MPI_Comm_free(&half));
    if (logfd >= 0)
        close(logfd);
    return rxt_finish();
}
