/* Nonblocking allreduces as the offload thread runs them (RDMX_COLL_OFFLOAD;
 * run with it on and a low RDMX_COLL_OFFLOAD_MIN, and also without it,
 * where the same checks hold for the schedules): results against a serial
 * reference for types, ops, counts and in place; several in flight on one
 * communicator, blocking collectives started before they are waited for,
 * several communicators, a type, a user op and a communicator freed while
 * their operation is in flight; two communicators' operations started in
 * different orders on different ranks; and, with the thread on, that the
 * result arrives while the rank makes no MPI call at all. */
#include "rxtest.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int me, np;

static long long ref_int(int r, long long i, int salt)
{
    return (r * 7 + i * 13 + salt) % 1000 - 500;
}

/* int vector, op SUM / MAX / MIN / BAND */
static void fill_int(int *v, int n, int r, int salt)
{
    for (int i = 0; i < n; i++)
        v[i] = (int)ref_int(r, i, salt);
}

static int want_int(MPI_Op op, long long i, int salt)
{
    long long acc = ref_int(0, i, salt);
    for (int r = 1; r < np; r++) {
        long long x = ref_int(r, i, salt);
        if (op == MPI_SUM)
            acc += x;
        else if (op == MPI_MAX)
            acc = x > acc ? x : acc;
        else if (op == MPI_MIN)
            acc = x < acc ? x : acc;
        else
            acc = (int)acc & (int)x;
    }
    return (int)acc;
}

/* v[0..n) is the reduction of fill_int(., n, r, salt) over the ranks under op */
static void expect_ints(const int *v, int n, MPI_Op op, int salt, const char *what)
{
    for (int i = 0; i < n; i++)
        if (v[i] != want_int(op, i, salt)) {
            RXT_CHECK(0, "%s: [%d] = %d, want %d", what, i, v[i], want_int(op, i, salt));
            return;
        }
}

static void t_ints(void)
{
    const int counts[] = {0, 1, 7, 1009, 65537, 300007};
    const MPI_Op ops[] = {MPI_SUM, MPI_MAX, MPI_MIN, MPI_BAND};
    for (unsigned ci = 0; ci < sizeof counts / sizeof *counts; ci++)
        for (unsigned oi = 0; oi < sizeof ops / sizeof *ops; oi++)
            for (int inplace = 0; inplace < 2; inplace++) {
                int n = counts[ci], salt = (int)(ci * 8 + oi * 2) + inplace;
                int *s = malloc(sizeof(int) * (size_t)(n + 1)), *d = malloc(sizeof(int) * (size_t)(n + 1));
                fill_int(inplace ? d : s, n, me, salt);
                MPI_Request rq;
                RXT_MPI(MPI_Iallreduce(inplace ? MPI_IN_PLACE : s, d, n, MPI_INT, ops[oi],
                                       MPI_COMM_WORLD, &rq));
                RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
                char what[64];
                snprintf(what, sizeof what, "count %d op %u in place %d", n, oi, inplace);
                expect_ints(d, n, ops[oi], salt, what);
                free(s);
                free(d);
            }
}

/* doubles (sums of small integers stay exact) and MAXLOC on MPI_2INT */
static void t_types(void)
{
    int n = 100003;
    double *s = malloc(sizeof(double) * (size_t)n), *d = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++)
        s[i] = (double)(me + 1) * (i % 97);
    MPI_Request rq;
    RXT_MPI(MPI_Iallreduce(s, d, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rq));
    RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    for (int i = 0; i < n; i++)
        if (d[i] != (double)np * (np + 1) / 2 * (i % 97)) {
            RXT_CHECK(0, "double sum [%d] = %g", i, d[i]);
            break;
        }
    free(s);
    free(d);

    int m = 40009;
    int *pin = malloc(sizeof(int) * 2 * (size_t)m), *pout = malloc(sizeof(int) * 2 * (size_t)m);
    for (int i = 0; i < m; i++) {
        pin[2 * i] = (i + me * 3) % np; /* value: ties broken by the lower rank */
        pin[2 * i + 1] = me;
    }
    RXT_MPI(MPI_Iallreduce(pin, pout, m, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD, &rq));
    RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    for (int i = 0; i < m; i++) {
        int best = -1, at = -1;
        for (int r = 0; r < np; r++)
            if ((i + r * 3) % np > best)
                best = (i + r * 3) % np, at = r;
        if (pout[2 * i] != best || pout[2 * i + 1] != at) {
            RXT_CHECK(0, "maxloc [%d] = (%d, %d), want (%d, %d)", i, pout[2 * i], pout[2 * i + 1],
                      best, at);
            break;
        }
    }
    free(pin);
    free(pout);

    /* a derived contiguous type, freed while the operation is in flight */
    MPI_Datatype pair;
    RXT_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
    RXT_MPI(MPI_Type_commit(&pair));
    int *a = malloc(sizeof(int) * 2 * (size_t)m), *b = malloc(sizeof(int) * 2 * (size_t)m);
    fill_int(a, 2 * m, me, 3);
    RXT_MPI(MPI_Iallreduce(a, b, m, pair, MPI_SUM, MPI_COMM_WORLD, &rq));
    RXT_MPI(MPI_Type_free(&pair));
    RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    expect_ints(b, 2 * m, MPI_SUM, 3, "derived type");
    free(a);
    free(b);
}

static void my_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

/* a user op (never offloaded: the thread runs predefined ops only) freed in flight */
static void t_user_op(void)
{
    int n = 30011;
    int *a = malloc(sizeof(int) * (size_t)n), *b = malloc(sizeof(int) * (size_t)n);
    fill_int(a, n, me, 90);
    MPI_Op op;
    RXT_MPI(MPI_Op_create(my_sum, 1, &op));
    MPI_Request rq;
    RXT_MPI(MPI_Iallreduce(a, b, n, MPI_INT, op, MPI_COMM_WORLD, &rq));
    RXT_MPI(MPI_Op_free(&op));
    RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    expect_ints(b, n, MPI_SUM, 90, "user op freed in flight");
    free(a);
    free(b);
}

/* several in flight, with blocking collectives of the same communicator and
 * of another one started before any is waited for */
static void t_inflight(void)
{
    enum { K = 4 };
    int n = 50021;
    int *s[K], *d[K];
    MPI_Request rq[K + 1];
    MPI_Comm dup;
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    for (int k = 0; k < K; k++) {
        s[k] = malloc(sizeof(int) * (size_t)n);
        d[k] = malloc(sizeof(int) * (size_t)n);
        fill_int(s[k], n, me, 40 + k);
        MPI_Comm c = k & 1 ? dup : MPI_COMM_WORLD;
        RXT_MPI(MPI_Iallreduce(s[k], d[k], n, MPI_INT, MPI_SUM, c, &rq[k]));
    }
    /* a small one that takes a schedule, in flight beside them */
    int one = me + 1, sum = 0;
    RXT_MPI(MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[K]));
    int x = me, xs = 0;
    RXT_MPI(MPI_Allreduce(&x, &xs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    RXT_CHECK(xs == np * (np - 1) / 2, "blocking allreduce between: %d", xs);
    int bc = me == np - 1 ? 12345 : 0;
    RXT_MPI(MPI_Bcast(&bc, 1, MPI_INT, np - 1, dup));
    RXT_CHECK(bc == 12345, "bcast between: %d", bc);
    RXT_MPI(MPI_Barrier(dup));
    /* waited for in reverse order */
    for (int k = K; k >= 0; k--)
        RXT_MPI(MPI_Wait(&rq[k], MPI_STATUS_IGNORE));
    RXT_CHECK(sum == np * (np + 1) / 2, "small allreduce in flight: %d", sum);
    for (int k = 0; k < K; k++) {
        expect_ints(d[k], n, MPI_SUM, 40 + k, "in flight");
        free(s[k]);
        free(d[k]);
    }

    /* the communicator freed before its operation is waited for */
    int *a = malloc(sizeof(int) * (size_t)n), *b = malloc(sizeof(int) * (size_t)n);
    fill_int(a, n, me, 60);
    MPI_Request r1;
    RXT_MPI(MPI_Iallreduce(a, b, n, MPI_INT, MPI_MAX, dup, &r1));
    RXT_MPI(MPI_Comm_free(&dup));
    RXT_MPI(MPI_Wait(&r1, MPI_STATUS_IGNORE));
    expect_ints(b, n, MPI_MAX, 60, "freed communicator");

    /* a split communicator (non-contiguous members when np > 2), completed
     * by MPI_Test alone */
    MPI_Comm half;
    RXT_MPI(MPI_Comm_split(MPI_COMM_WORLD, me % 2, np - me, &half));
    int hn, hr;
    MPI_Comm_size(half, &hn);
    MPI_Comm_rank(half, &hr);
    for (int i = 0; i < n; i++)
        a[i] = hr + i;
    RXT_MPI(MPI_Iallreduce(MPI_IN_PLACE, a, n, MPI_INT, MPI_SUM, half, &r1));
    int flag = 0;
    while (!flag)
        RXT_MPI(MPI_Test(&r1, &flag, MPI_STATUS_IGNORE));
    for (int i = 0; i < n; i++)
        if (a[i] != hn * (hn - 1) / 2 + hn * i) {
            RXT_CHECK(0, "split communicator [%d] = %d", i, a[i]);
            break;
        }
    RXT_MPI(MPI_Comm_free(&half));
    free(a);
    free(b);
}

/* Nonblocking allreduces of two communicators started in different orders
 * on even and odd ranks (MPI allows it), one rank also running a blocking
 * barrier of the first before starting the second: all complete. */
static void t_cross_order(void)
{
    int n = 70001;
    MPI_Comm a, b;
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &a));
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &b));
    RXT_MPI(MPI_Barrier(a)); /* a blocking collective first: node-shared state exists */
    RXT_MPI(MPI_Barrier(b));
    int *sa = malloc(sizeof(int) * (size_t)n), *da = malloc(sizeof(int) * (size_t)n);
    int *sb = malloc(sizeof(int) * (size_t)n), *db = malloc(sizeof(int) * (size_t)n);
    for (int round = 0; round < 4; round++) {
        fill_int(sa, n, me, 100 + round);
        fill_int(sb, n, me, 200 + round);
        MPI_Request rq[2];
        if (me % 2 == 0) {
            RXT_MPI(MPI_Iallreduce(sb, db, n, MPI_INT, MPI_SUM, b, &rq[1]));
            RXT_MPI(MPI_Iallreduce(sa, da, n, MPI_INT, MPI_SUM, a, &rq[0]));
            RXT_MPI(MPI_Barrier(a));
        } else {
            RXT_MPI(MPI_Iallreduce(sa, da, n, MPI_INT, MPI_SUM, a, &rq[0]));
            RXT_MPI(MPI_Barrier(a));
            RXT_MPI(MPI_Iallreduce(sb, db, n, MPI_INT, MPI_SUM, b, &rq[1]));
        }
        RXT_MPI(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        expect_ints(da, n, MPI_SUM, 100 + round, "first communicator");
        expect_ints(db, n, MPI_SUM, 200 + round, "second communicator");
    }
    RXT_MPI(MPI_Comm_free(&a));
    RXT_MPI(MPI_Comm_free(&b));
    free(sa);
    free(da);
    free(sb);
    free(db);
}

/* With the thread on: the result arrives while this rank makes no MPI call
 * (it only reads its own buffer), which the progress engine alone cannot
 * do. Gives up after 30 s. */
static void t_no_calls(void)
{
    int n = 1 << 18;
    int *s = malloc(sizeof(int) * (size_t)n), *d = malloc(sizeof(int) * (size_t)n);
    fill_int(s, n, me, 77);
    memset(d, 0, sizeof(int) * (size_t)n);
    volatile int *vd = d;
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    MPI_Request rq;
    RXT_MPI(MPI_Iallreduce(s, d, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq));
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int ok = 0;
    for (;;) {
        int i = 0;
        while (i < n && vd[i] == want_int(MPI_SUM, i, 77))
            i++;
        if (i == n) {
            ok = 1;
            break;
        }
        clock_gettime(CLOCK_MONOTONIC, &t);
        if (t.tv_sec - t0.tv_sec > 30)
            break;
        sched_yield();
    }
    RXT_CHECK(ok, "the allreduce did not complete without MPI calls within 30 s");
    RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    free(s);
    free(d);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "coll_offload");
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    t_ints();
    t_types();
    t_inflight();
    t_user_op();
    t_cross_order();
    /* only this library has the thread (the suite also runs on MPICH and Open MPI) */
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(lib, &len);
    const char *off = getenv("RDMX_COLL_OFFLOAD");
    if (off && strcmp(off, "off") && np > 1 && strstr(lib, "rdmx"))
        t_no_calls();
    return rxt_finish();
}
