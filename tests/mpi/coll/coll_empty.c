/* SPDX-License-Identifier: MIT
 * Collectives that move nothing, with NULL buffers: count 0 everywhere, and
 * uneven v-forms where some ranks contribute or receive nothing (legal and
 * common in uneven decompositions), blocking and nonblocking. Every call
 * must succeed and the ranks that do move data must get it right. */
#include "rxtest.h"

static void all_empty(MPI_Comm comm, int p)
{
    int *z = calloc((size_t)p, sizeof(int));
#ifdef MPICH_VERSION
    int none; /* MPICH 4.0 calls two NULL buffers of MPI_Alltoallv aliased */
    int *a2a_recv = &none;
#else
    int *a2a_recv = NULL;
#endif
    MPI_Request rq[12];
    RXT_MPI(MPI_Gather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, 0, comm));
    RXT_MPI(MPI_Scatter(NULL, 0, MPI_INT, NULL, 0, MPI_INT, 0, comm));
    RXT_MPI(MPI_Allgather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, comm));
    RXT_MPI(MPI_Alltoall(NULL, 0, MPI_INT, NULL, 0, MPI_INT, comm));
    RXT_MPI(MPI_Gatherv(NULL, 0, MPI_INT, NULL, z, z, MPI_INT, 0, comm));
    RXT_MPI(MPI_Scatterv(NULL, z, z, MPI_INT, NULL, 0, MPI_INT, 0, comm));
    RXT_MPI(MPI_Allgatherv(NULL, 0, MPI_INT, NULL, z, z, MPI_INT, comm));
    RXT_MPI(MPI_Alltoallv(NULL, z, z, MPI_INT, a2a_recv, z, z, MPI_INT, comm));
    RXT_MPI(MPI_Bcast(NULL, 0, MPI_INT, 0, comm));
    RXT_MPI(MPI_Reduce(NULL, NULL, 0, MPI_INT, MPI_SUM, 0, comm));
    RXT_MPI(MPI_Allreduce(NULL, NULL, 0, MPI_INT, MPI_SUM, comm));
    RXT_MPI(MPI_Reduce_scatter(NULL, NULL, z, MPI_INT, MPI_SUM, comm));
    RXT_MPI(MPI_Reduce_scatter_block(NULL, NULL, 0, MPI_INT, MPI_SUM, comm));
    RXT_MPI(MPI_Scan(NULL, NULL, 0, MPI_INT, MPI_SUM, comm));
    RXT_MPI(MPI_Exscan(NULL, NULL, 0, MPI_INT, MPI_SUM, comm));
    RXT_MPI(MPI_Igather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, 0, comm, &rq[0]));
    RXT_MPI(MPI_Iscatter(NULL, 0, MPI_INT, NULL, 0, MPI_INT, 0, comm, &rq[1]));
    RXT_MPI(MPI_Iallgather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, comm, &rq[2]));
    RXT_MPI(MPI_Ialltoall(NULL, 0, MPI_INT, NULL, 0, MPI_INT, comm, &rq[3]));
    RXT_MPI(MPI_Igatherv(NULL, 0, MPI_INT, NULL, z, z, MPI_INT, 0, comm, &rq[4]));
    RXT_MPI(MPI_Iscatterv(NULL, z, z, MPI_INT, NULL, 0, MPI_INT, 0, comm, &rq[5]));
    RXT_MPI(MPI_Iallgatherv(NULL, 0, MPI_INT, NULL, z, z, MPI_INT, comm, &rq[6]));
    RXT_MPI(MPI_Ialltoallv(NULL, z, z, MPI_INT, a2a_recv, z, z, MPI_INT, comm, &rq[7]));
    RXT_MPI(MPI_Ibcast(NULL, 0, MPI_INT, 0, comm, &rq[8]));
    RXT_MPI(MPI_Ireduce(NULL, NULL, 0, MPI_INT, MPI_SUM, 0, comm, &rq[9]));
    RXT_MPI(MPI_Iallreduce(NULL, NULL, 0, MPI_INT, MPI_SUM, comm, &rq[10]));
    RXT_MPI(MPI_Ireduce_scatter_block(NULL, NULL, 0, MPI_INT, MPI_SUM, comm, &rq[11]));
    RXT_MPI(MPI_Waitall(12, rq, MPI_STATUSES_IGNORE));
    free(z);
}

/* rank 0 owns nothing: it sends and receives no element, with NULL buffers */
static void uneven(MPI_Comm comm, int me, int p)
{
    int *cnt = malloc(sizeof(int) * (size_t)p), *dis = malloc(sizeof(int) * (size_t)p);
    int *all = malloc(sizeof(int) * (size_t)p), x = 7 * me + 1, y = -1;
    for (int i = 0; i < p; i++) {
        cnt[i] = i ? 1 : 0;
        dis[i] = i;
        all[i] = -1;
    }
    int root = p - 1; /* a root that owns data, so the NULL is at a non-root */
    RXT_MPI(MPI_Gatherv(me ? &x : NULL, me ? 1 : 0, MPI_INT, all, cnt, dis, MPI_INT, root, comm));
    if (me == root)
        for (int i = 1; i < p; i++)
            RXT_CHECK(all[i] == 7 * i + 1, "Gatherv: block %d is %d", i, all[i]);
    for (int i = 0; i < p; i++)
        all[i] = me == root ? 7 * i + 1 : -1;
    RXT_MPI(MPI_Scatterv(all, cnt, dis, MPI_INT, me ? &y : NULL, me ? 1 : 0, MPI_INT, root, comm));
    RXT_CHECK(!me || y == 7 * me + 1, "Scatterv: got %d", y);
    for (int i = 0; i < p; i++)
        all[i] = -1;
    RXT_MPI(MPI_Allgatherv(me ? &x : NULL, me ? 1 : 0, MPI_INT, all, cnt, dis, MPI_INT, comm));
    for (int i = 1; i < p; i++)
        RXT_CHECK(all[i] == 7 * i + 1, "Allgatherv: block %d is %d", i, all[i]);
    /* rank 0 neither sends nor receives: NULL on both sides there */
    int *sc = calloc((size_t)p, sizeof(int)), *sd = calloc((size_t)p, sizeof(int));
    int *rc = calloc((size_t)p, sizeof(int)), *rd = calloc((size_t)p, sizeof(int));
    int *sb = NULL, *rb = NULL;
    if (me) {
        sb = malloc(sizeof(int) * (size_t)p);
        rb = malloc(sizeof(int) * (size_t)p);
        for (int i = 1; i < p; i++) {
            sc[i] = rc[i] = 1;
            sd[i] = rd[i] = i;
            sb[i] = 100 * me + i;
            rb[i] = -1;
        }
    }
    RXT_MPI(MPI_Alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, comm));
    for (int i = 1; me && i < p; i++)
        RXT_CHECK(rb[i] == 100 * i + me, "Alltoallv: from %d got %d", i, rb[i]);
    free(sb), free(rb), free(sc), free(sd), free(rc), free(rd);
    free(cnt), free(dis), free(all);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "coll_empty");
    all_empty(MPI_COMM_WORLD, rxt_size);
    uneven(MPI_COMM_WORLD, rxt_rank, rxt_size);
    MPI_Comm half; /* a communicator of its own, on which nothing ran before */
    RXT_MPI(MPI_Comm_split(MPI_COMM_WORLD, rxt_rank % 2, rxt_rank, &half));
    int hs, hr;
    MPI_Comm_size(half, &hs);
    MPI_Comm_rank(half, &hr);
    uneven(half, hr, hs);
    all_empty(half, hs);
    MPI_Comm_free(&half);
    return rxt_finish();
}
