/* SPDX-License-Identifier: MIT
 * Handle lookups through the MPI interface, one rank: nanoseconds per call of
 * calls that do little more than validate their handles (communicator,
 * predefined and derived datatype, user op), and of a request's whole life
 * (MPI_Isend to self, MPI_Recv, MPI_Wait: allocate, look up, release). Each
 * line gives the median and the fastest of REPS runs of N calls (N / 10 for
 * the request's life); on a busy machine the fastest says more.
 *
 *   rdmx-cc -O2 bench/handle/lookup.c -o lookup && rdmx-run -n 1 ./lookup [N] [REPS]
 * (any MPI's compiler and launcher do; build two rdmx trees to compare them) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void sum_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

enum { COMM_RANK, TYPE_SIZE_BASIC, TYPE_SIZE_DERIVED, OP_COMMUTATIVE, REQUEST_CYCLE, NCASES };
static const char *names[NCASES] = {"MPI_Comm_rank(dup)", "MPI_Type_size(MPI_INT)",
                                    "MPI_Type_size(derived)", "MPI_Op_commutative(user)",
                                    "Isend+Recv+Wait(self)"};

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long n = argc > 1 ? atol(argv[1]) : 2000000;
    int reps = argc > 2 ? atoi(argv[2]) : 7;
    if (n <= 0 || reps <= 0 || reps > 99) {
        fprintf(stderr, "usage: lookup [N > 0] [REPS 1..99]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm c;
    MPI_Datatype t;
    MPI_Op op;
    MPI_Comm_dup(MPI_COMM_SELF, &c);
    MPI_Type_vector(4, 1, 2, MPI_INT, &t);
    MPI_Type_commit(&t);
    MPI_Op_create(sum_op, 1, &op);
    volatile int sink = 0;
    int v, x = 1, y;
    double med[NCASES], best[NCASES];
    for (int k = 0; k < NCASES; k++) {
        double ns[99];
        long iters = k == REQUEST_CYCLE ? n / 10 : n;
        for (int r = 0; r < reps; r++) {
            double t0 = MPI_Wtime();
            for (long i = 0; i < iters; i++) {
                switch (k) {
                case COMM_RANK: MPI_Comm_rank(c, &v); break;
                case TYPE_SIZE_BASIC: MPI_Type_size(MPI_INT, &v); break;
                case TYPE_SIZE_DERIVED: MPI_Type_size(t, &v); break;
                case OP_COMMUTATIVE: MPI_Op_commutative(op, &v); break;
                default: {
                    MPI_Request q;
                    MPI_Isend(&x, 1, MPI_INT, 0, 1, c, &q);
                    MPI_Recv(&y, 1, MPI_INT, 0, 1, c, MPI_STATUS_IGNORE);
                    MPI_Wait(&q, MPI_STATUS_IGNORE);
                    v = y;
                }
                }
                sink += v;
            }
            ns[r] = (MPI_Wtime() - t0) * 1e9 / (double)iters;
        }
        qsort(ns, (size_t)reps, sizeof ns[0], cmp);
        med[k] = ns[reps / 2];
        best[k] = ns[0];
    }
    printf("# case median_ns min_ns\n");
    for (int k = 0; k < NCASES; k++)
        printf("%-28s %8.2f %8.2f\n", names[k], med[k], best[k]);
    MPI_Op_free(&op);
    MPI_Type_free(&t);
    MPI_Comm_free(&c);
    MPI_Finalize();
    return sink == -1;
}
