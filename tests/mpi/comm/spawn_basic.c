/* SPDX-License-Identifier: MIT
 * MPI_Comm_spawn of 1, 2 and 3 children from every rank count: the
 * parents' intercommunicator (sizes, errcodes, MPI_Comm_test_inter),
 * MPI_Comm_get_parent in the children, the children's own MPI_COMM_WORLD
 * (size, an allreduce, MPI_APPNUM 0), point-to-point both ways between
 * every parent and every child, a bcast and an allreduce over the
 * intercommunicator, MPI_Intercomm_merge (parents low) with an allreduce on
 * it, a 1 MiB message each way (rendezvous), and MPI_Comm_disconnect.
 * Children report their error count to the parents, which print the
 * result. */
#include "rxtest.h"

static int child(MPI_Comm parent, int nchild)
{
    int rank, size, psize, appnum = -1, flag = 0, *ap = NULL;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_remote_size(parent, &psize);
    RXT_CHECK(size == nchild, "child world size %d, expected %d", size, nchild);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &ap, &flag);
    if (flag)
        appnum = *ap;
    RXT_CHECK(flag && appnum == 0, "MPI_APPNUM %d (flag %d)", appnum, flag);
    int sum = -1, one = rank + 1;
    RXT_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    RXT_CHECK(sum == size * (size + 1) / 2, "child world allreduce %d", sum);
    /* point-to-point: a value from every parent, answered */
    for (int p = 0; p < psize; p++) {
        int v = -1;
        RXT_MPI(MPI_Recv(&v, 1, MPI_INT, p, 7, parent, MPI_STATUS_IGNORE));
        RXT_CHECK(v == 1000 * p + rank, "from parent %d got %d", p, v);
        v += 1;
        RXT_MPI(MPI_Send(&v, 1, MPI_INT, p, 8, parent));
    }
    int b = -1;
    RXT_MPI(MPI_Bcast(&b, 1, MPI_INT, 0, parent));
    RXT_CHECK(b == 4242, "bcast from the parents' root gave %d", b);
    int mine = 10 * (rank + 1), theirs = -1;
    RXT_MPI(MPI_Allreduce(&mine, &theirs, 1, MPI_INT, MPI_SUM, parent));
    RXT_CHECK(theirs == psize * (psize + 1) / 2, "intercomm allreduce %d", theirs);
    MPI_Comm merged;
    RXT_MPI(MPI_Intercomm_merge(parent, 1, &merged));
    int mrank, msize;
    MPI_Comm_rank(merged, &mrank);
    MPI_Comm_size(merged, &msize);
    RXT_CHECK(msize == psize + size && mrank == psize + rank, "merged rank %d of %d", mrank, msize);
    int ms = -1;
    RXT_MPI(MPI_Allreduce(&mrank, &ms, 1, MPI_INT, MPI_SUM, merged));
    RXT_CHECK(ms == msize * (msize - 1) / 2, "merged allreduce %d", ms);
    /* a large message each way with the parents' root */
    size_t n = 1 << 18;
    int *big = malloc(n * sizeof *big);
    RXT_MPI(MPI_Recv(big, (int)n, MPI_INT, 0, 9, merged, MPI_STATUS_IGNORE));
    int bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += big[i] != (int)(i * 3 + (size_t)rank);
    RXT_CHECK(bad == 0, "%d wrong ints in the large message", bad);
    RXT_MPI(MPI_Send(big, (int)n, MPI_INT, 0, 10, merged));
    free(big);
    RXT_MPI(MPI_Comm_free(&merged));
    /* the verdict goes to the parents */
    int errs = rxt_errs, all = 0;
    RXT_MPI(MPI_Reduce(&errs, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
    if (rank == 0)
        RXT_MPI(MPI_Send(&all, 1, MPI_INT, 0, 11, parent));
    RXT_MPI(MPI_Comm_disconnect(&parent));
    MPI_Comm again;
    MPI_Comm_get_parent(&again);
    RXT_CHECK(again == MPI_COMM_NULL, "MPI_Comm_get_parent after disconnect");
    MPI_Finalize();
    return rxt_errs ? 1 : 0;
}

static void parent_round(int nchild, char *self)
{
    MPI_Comm inter;
    int codes[3] = {-1, -1, -1};
    char nbuf[8];
    snprintf(nbuf, sizeof nbuf, "%d", nchild);
    char *args[] = {"child", nbuf, NULL};
    RXT_MPI(MPI_Comm_spawn(self, args, nchild, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, codes));
    int flag = 0, rsize = -1, lsize = -1;
    MPI_Comm_test_inter(inter, &flag);
    MPI_Comm_remote_size(inter, &rsize);
    MPI_Comm_size(inter, &lsize);
    RXT_CHECK(flag && rsize == nchild && lsize == rxt_size, "inter %d, remote %d, local %d",
              flag, rsize, lsize);
    if (rxt_rank == 0)
        for (int i = 0; i < nchild; i++)
            RXT_CHECK(codes[i] == MPI_SUCCESS, "errcode %d is %d", i, codes[i]);
    for (int c = 0; c < nchild; c++) {
        int v = 1000 * rxt_rank + c, back = -1;
        RXT_MPI(MPI_Send(&v, 1, MPI_INT, c, 7, inter));
        RXT_MPI(MPI_Recv(&back, 1, MPI_INT, c, 8, inter, MPI_STATUS_IGNORE));
        RXT_CHECK(back == v + 1, "child %d answered %d", c, back);
    }
    int b = 4242;
    RXT_MPI(MPI_Bcast(&b, 1, MPI_INT, rxt_rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter));
    int mine = rxt_rank + 1, theirs = -1;
    RXT_MPI(MPI_Allreduce(&mine, &theirs, 1, MPI_INT, MPI_SUM, inter));
    RXT_CHECK(theirs == 10 * nchild * (nchild + 1) / 2, "intercomm allreduce %d", theirs);
    MPI_Comm merged;
    RXT_MPI(MPI_Intercomm_merge(inter, 0, &merged));
    int mrank, msize, ms = -1;
    MPI_Comm_rank(merged, &mrank);
    MPI_Comm_size(merged, &msize);
    RXT_CHECK(msize == rxt_size + nchild && mrank == rxt_rank, "merged rank %d of %d", mrank,
              msize);
    RXT_MPI(MPI_Allreduce(&mrank, &ms, 1, MPI_INT, MPI_SUM, merged));
    RXT_CHECK(ms == msize * (msize - 1) / 2, "merged allreduce %d", ms);
    if (rxt_rank == 0) {
        size_t n = 1 << 18;
        int *big = malloc(n * sizeof *big), *back = malloc(n * sizeof *back);
        for (int c = 0; c < nchild; c++) {
            for (size_t i = 0; i < n; i++)
                big[i] = (int)(i * 3 + (size_t)c);
            RXT_MPI(MPI_Send(big, (int)n, MPI_INT, rxt_size + c, 9, merged));
            RXT_MPI(MPI_Recv(back, (int)n, MPI_INT, rxt_size + c, 10, merged, MPI_STATUS_IGNORE));
            RXT_CHECK(!memcmp(big, back, n * sizeof *big), "large message from child %d", c);
        }
        free(big);
        free(back);
    }
    RXT_MPI(MPI_Comm_free(&merged));
    if (rxt_rank == 0) {
        int cerrs = -1;
        RXT_MPI(MPI_Recv(&cerrs, 1, MPI_INT, 0, 11, inter, MPI_STATUS_IGNORE));
        RXT_CHECK(cerrs == 0, "%d children (of %d) found errors", cerrs, nchild);
    }
    RXT_MPI(MPI_Comm_disconnect(&inter));
    RXT_CHECK(inter == MPI_COMM_NULL, "disconnect leaves MPI_COMM_NULL");
}

int main(int argc, char **argv)
{
    MPI_Comm parent = rxt_init_spawned(&argc, &argv, "spawn_basic");
    if (parent != MPI_COMM_NULL)
        return child(parent, argc > 2 ? atoi(argv[2]) : -1);
    for (int n = 1; n <= 3; n++)
        parent_round(n, argv[0]);
    return rxt_finish();
}
