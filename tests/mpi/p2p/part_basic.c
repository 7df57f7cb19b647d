/* SPDX-License-Identifier: MIT
 * Partitioned communication (MPI-4.0 ch. 4) around a ring: Psend_init /
 * Precv_init started many times, partitions marked ready one by one in a
 * shuffled order, by ranges and by lists; MPI_Parrived false before the
 * sender marked the last partition and true once the data is there, with
 * the data checked; sender and receiver with different partition counts
 * for the same bytes; a derived datatype; two operations of one peer and
 * tag matched in init order although started in the other order; ordinary
 * messages of the same tag kept apart; MPI_PROC_NULL; errors. */
#include "rxtest.h"

#if defined(RDMX) || MPI_VERSION >= 4

#define ROUNDS 20

static int left, right;

static int val(int rank, int round, int i) { return rank * 100003 + round * 1009 + i; }

static void check(const int *r, int n, int from, int round, int off, const char *what)
{
    for (int i = 0; i < n; i++)
        if (r[i] != val(from, round, i + off)) {
            RXT_CHECK(0, "%s round %d: int %d is %d, expected %d", what, round, i, r[i],
                      val(from, round, i + off));
            return;
        }
}

/* partitions of count ints; the receiver uses rparts partitions of the same bytes */
static void ring(int parts, int count, int rparts, int mode)
{
    int n = parts * count;
    int *s = malloc(sizeof(int) * (size_t)n), *r = malloc(sizeof(int) * (size_t)n);
    MPI_Request sq, rq;
    RXT_MPI(MPI_Precv_init(r, rparts, n / rparts, MPI_INT, left, 7, MPI_COMM_WORLD,
                           MPI_INFO_NULL, &rq));
    RXT_MPI(MPI_Psend_init(s, parts, count, MPI_INT, right, 7, MPI_COMM_WORLD, MPI_INFO_NULL,
                           &sq));
    int *order = malloc(sizeof(int) * (size_t)parts);
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < n; i++) {
            s[i] = -1;
            r[i] = -2;
        }
        RXT_MPI(MPI_Start(&rq));
        RXT_MPI(MPI_Start(&sq));
        /* nothing is ready: nothing can have arrived */
        RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
        int flag = 1;
        RXT_MPI(MPI_Parrived(rq, 0, &flag));
        RXT_CHECK(!flag, "round %d: partition 0 arrived before any was ready", round);
        RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
        for (int p = 0; p < parts; p++)
            order[p] = p;
        for (int p = parts - 1; p > 0; p--) { /* a shuffle the round decides */
            int j = (p * 31 + round * 17) % (p + 1), t = order[p];
            order[p] = order[j];
            order[j] = t;
        }
        if (mode == 0) {
            for (int k = 0; k < parts; k++) {
                int p = order[k];
                for (int i = 0; i < count; i++)
                    s[p * count + i] = val(rxt_rank, round, p * count + i);
                RXT_MPI(MPI_Pready(p, sq));
            }
        } else {
            for (int i = 0; i < n; i++)
                s[i] = val(rxt_rank, round, i);
            if (mode == 1) {
                RXT_MPI(MPI_Pready_range(0, parts / 2, sq));
                if (parts / 2 + 1 <= parts - 1)
                    RXT_MPI(MPI_Pready_range(parts / 2 + 1, parts - 1, sq));
            } else {
                RXT_MPI(MPI_Pready_list(parts, order, sq));
            }
        }
        /* each partition arrives with its data */
        int seen = 0;
        while (seen < rparts) {
            seen = 0;
            for (int p = 0; p < rparts; p++) {
                RXT_MPI(MPI_Parrived(rq, p, &flag));
                if (flag) {
                    int per = n / rparts;
                    check(r + p * per, per, left, round, p * per, "arrived partition");
                    seen++;
                }
            }
        }
        RXT_MPI(MPI_Wait(&sq, MPI_STATUS_IGNORE));
        RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        check(r, n, left, round, 0, "partitioned ring");
    }
    RXT_MPI(MPI_Request_free(&sq));
    RXT_MPI(MPI_Request_free(&rq));
    free(order);
    free(s);
    free(r);
}

/* Two operations to one peer under one tag match in init order; an
 * ordinary message with that tag goes to an ordinary receive. */
static void matching(void)
{
    int a[8], b[8], ra[8], rb[8], plain = -1, got = -5;
    MPI_Request s[2], r[2];
    RXT_MPI(MPI_Precv_init(ra, 2, 4, MPI_INT, left, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
    RXT_MPI(MPI_Precv_init(rb, 4, 2, MPI_INT, left, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]));
    RXT_MPI(MPI_Psend_init(a, 1, 8, MPI_INT, right, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &s[0]));
    RXT_MPI(MPI_Psend_init(b, 2, 4, MPI_INT, right, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &s[1]));
    for (int i = 0; i < 8; i++) {
        a[i] = val(rxt_rank, 1, i);
        b[i] = val(rxt_rank, 2, i);
    }
    MPI_Request pr[2];
    RXT_MPI(MPI_Irecv(&got, 1, MPI_INT, left, 9, MPI_COMM_WORLD, &pr[0]));
    RXT_MPI(MPI_Start(&r[1])); /* started in the other order */
    RXT_MPI(MPI_Start(&r[0]));
    RXT_MPI(MPI_Start(&s[1]));
    RXT_MPI(MPI_Pready_range(0, 1, s[1]));
    plain = rxt_rank;
    RXT_MPI(MPI_Isend(&plain, 1, MPI_INT, right, 9, MPI_COMM_WORLD, &pr[1]));
    RXT_MPI(MPI_Start(&s[0]));
    RXT_MPI(MPI_Pready(0, s[0]));
    RXT_MPI(MPI_Waitall(2, s, MPI_STATUSES_IGNORE));
    RXT_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    RXT_MPI(MPI_Waitall(2, pr, MPI_STATUSES_IGNORE));
    check(ra, 8, left, 1, 0, "first init pair");
    check(rb, 8, left, 2, 0, "second init pair");
    RXT_CHECK(got == left, "ordinary message %d", got);
    for (int i = 0; i < 2; i++) {
        RXT_MPI(MPI_Request_free(&s[i]));
        RXT_MPI(MPI_Request_free(&r[i]));
    }
}

/* A vector type (every other double), and MPI_PROC_NULL. */
static void derived_and_null(void)
{
    double s[24], r[24];
    MPI_Datatype v;
    RXT_MPI(MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &v));
    RXT_MPI(MPI_Type_commit(&v));
    MPI_Request sq, rq;
    RXT_MPI(MPI_Precv_init(r, 4, 1, v, left, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &rq));
    RXT_MPI(MPI_Psend_init(s, 2, 2, v, right, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &sq));
    RXT_MPI(MPI_Type_free(&v));
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 24; i++) {
            s[i] = val(rxt_rank, round, i);
            r[i] = -1;
        }
        RXT_MPI(MPI_Start(&rq));
        RXT_MPI(MPI_Start(&sq));
        RXT_MPI(MPI_Pready(1, sq));
        RXT_MPI(MPI_Pready(0, sq));
        RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        RXT_MPI(MPI_Wait(&sq, MPI_STATUS_IGNORE));
        /* 4 vectors of 3 doubles at stride 2, each extent 5: doubles 5k + 2j */
        for (int i = 0; i < 24; i++) {
            double want = i < 20 && i % 5 % 2 == 0 ? val(left, round, i) : -1;
            RXT_CHECK(r[i] == want, "vector round %d [%d] = %g, expected %g", round, i, r[i],
                      want);
        }
    }
    RXT_MPI(MPI_Request_free(&sq));
    RXT_MPI(MPI_Request_free(&rq));

#ifndef MPICH_VERSION /* MPICH 4.0.2 crashes in MPI_Psend_init to MPI_PROC_NULL */
    int x = 5, y = 6;
    RXT_MPI(MPI_Psend_init(&x, 1, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
                           &sq));
    RXT_MPI(MPI_Precv_init(&y, 1, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
                           &rq));
    RXT_MPI(MPI_Start(&sq));
    RXT_MPI(MPI_Start(&rq));
    RXT_MPI(MPI_Pready(0, sq));
    int flag = 0;
    RXT_MPI(MPI_Parrived(rq, 0, &flag));
    RXT_CHECK(flag, "MPI_PROC_NULL: arrived at once");
    RXT_MPI(MPI_Wait(&sq, MPI_STATUS_IGNORE));
    RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    RXT_CHECK(y == 6, "MPI_PROC_NULL receive leaves the buffer");
    RXT_MPI(MPI_Request_free(&sq));
    RXT_MPI(MPI_Request_free(&rq));
#endif
}

static void errors(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int buf[4];
    MPI_Request q;
    RXT_EXPECT_CLASS(MPI_ERR_RANK, MPI_Precv_init(buf, 1, 4, MPI_INT, MPI_ANY_SOURCE, 0,
                                                  MPI_COMM_WORLD, MPI_INFO_NULL, &q));
    RXT_EXPECT_CLASS(MPI_ERR_TAG, MPI_Precv_init(buf, 1, 4, MPI_INT, left, MPI_ANY_TAG,
                                                 MPI_COMM_WORLD, MPI_INFO_NULL, &q));
    RXT_EXPECT_CLASS(MPI_ERR_COUNT, MPI_Psend_init(buf, 1, -1, MPI_INT, right, 0,
                                                   MPI_COMM_WORLD, MPI_INFO_NULL, &q));
    RXT_EXPECT_CLASS(MPI_ERR_TYPE, MPI_Psend_init(buf, 1, 4, MPI_DATATYPE_NULL, right, 0,
                                                  MPI_COMM_WORLD, MPI_INFO_NULL, &q));
#ifndef MPICH_VERSION /* see derived_and_null */
    MPI_Request rq;
    RXT_MPI(MPI_Psend_init(buf, 2, 2, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
                           &q));
    RXT_MPI(MPI_Precv_init(buf, 2, 2, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
                           &rq));
    RXT_EXPECT_CLASS(MPI_ERR_REQUEST, MPI_Pready(0, rq)); /* a receive */
    RXT_MPI(MPI_Request_free(&rq));
    RXT_MPI(MPI_Request_free(&q));
#endif
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "part_basic");
    left = (rxt_rank + rxt_size - 1) % rxt_size;
    right = (rxt_rank + 1) % rxt_size;
    ring(8, 16, 8, 0);
    ring(8, 16, 2, 1);      /* fewer, larger receive partitions */
    ring(3, 5000, 15, 2);   /* rendezvous size, more receive partitions */
    ring(1, 1, 1, 0);
    matching();
    derived_and_null();
    errors();
    return rxt_finish();
}

#else
int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "part_basic");
    return rxt_finish();
}
#endif
