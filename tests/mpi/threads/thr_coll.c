/* SPDX-License-Identifier: MIT
 * Collectives from several threads at once, each thread on its own
 * communicator (a duplicate, or a split of MPI_COMM_WORLD): blocking and
 * nonblocking allreduce, bcast, allgather, barrier, reduce and alltoall,
 * small and large, results checked against closed forms. */
#include "thrtest.h"

static MPI_Comm comms[THR_MAX];
#define ITERS 40

static void body(int t)
{
    MPI_Comm c = comms[t];
    int r, p;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &p);
    int nbig = 40000;
    long *a = malloc(sizeof(long) * (size_t)nbig), *b = malloc(sizeof(long) * (size_t)nbig);
    int *g = malloc(sizeof(int) * (size_t)p * 2);
    for (int it = 0; it < ITERS; it++) {
        int n = it % 4 == 3 ? nbig : 1 + it % 7;
        for (int i = 0; i < n; i++)
            a[i] = (long)(r + 1) * (i + it + t);
        long expect_mul = (long)p * (p + 1) / 2;
        if (it % 2 == 0) {
            MPI_Allreduce(a, b, n, MPI_LONG, MPI_SUM, c);
        } else {
            MPI_Request q;
            MPI_Iallreduce(a, b, n, MPI_LONG, MPI_SUM, c, &q);
            MPI_Wait(&q, MPI_STATUS_IGNORE);
        }
        for (int i = 0; i < n; i += 97)
            THR_CHECK(b[i] == expect_mul * (i + it + t), "thread %d iter %d allreduce[%d] = %ld",
                      t, it, i, b[i]);
        int root = it % p;
        long v = r == root ? 1000L * it + t : -1;
        MPI_Bcast(&v, 1, MPI_LONG, root, c);
        THR_CHECK(v == 1000L * it + t, "thread %d iter %d bcast %ld", t, it, v);
        int mine[2] = {r, t * 100 + it};
        MPI_Allgather(mine, 2, MPI_INT, g, 2, MPI_INT, c);
        for (int i = 0; i < p; i++)
            THR_CHECK(g[2 * i] == i && g[2 * i + 1] == t * 100 + it,
                      "thread %d iter %d allgather[%d] = %d %d", t, it, i, g[2 * i], g[2 * i + 1]);
        long mx = -1, me = r * 10 + it;
        MPI_Reduce(&me, &mx, 1, MPI_LONG, MPI_MAX, root, c);
        if (r == root)
            THR_CHECK(mx == (p - 1) * 10 + it, "thread %d iter %d reduce max %ld", t, it, mx);
        int *so = malloc(sizeof(int) * (size_t)p), *ri = malloc(sizeof(int) * (size_t)p);
        for (int i = 0; i < p; i++)
            so[i] = r * 1000 + i + it;
        MPI_Request q;
        MPI_Ialltoall(so, 1, MPI_INT, ri, 1, MPI_INT, c, &q);
        MPI_Barrier(MPI_COMM_SELF);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        for (int i = 0; i < p; i++)
            THR_CHECK(ri[i] == i * 1000 + r + it, "thread %d alltoall[%d] = %d", t, i, ri[i]);
        free(so);
        free(ri);
        MPI_Barrier(c);
    }
    free(a);
    free(b);
    free(g);
}

int main(int argc, char **argv)
{
    thr_init(&argc, &argv, "thr_coll");
    for (int i = 0; i < thr_n; i++) {
        if (i % 2 == 0)
            RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comms[i]));
        else /* reversed order: ranks of the split differ from the world's */
            RXT_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, rxt_size - rxt_rank, &comms[i]));
    }
    thr_run(body);
    for (int i = 0; i < thr_n; i++)
        MPI_Comm_free(&comms[i]);
    return thr_finish();
}
