/* SPDX-License-Identifier: MIT
 * MPI_Comm_idup and MPI_Comm_idup_with_info on intercommunicators (both
 * partitions of intercomm.h):
 *   - nonblocking: one group's members start the duplication and only then
 *     send the other group the message it waits for before it starts its own;
 *   - the duplicate: an intercommunicator congruent with the parent, same
 *     groups, its point-to-point and collective traffic apart from the
 *     parent's, the parent's attributes copied, hints given to _with_info;
 *   - several duplications outstanding at once, waited for in reverse order,
 *     and a duplicate of the duplicate. */
#include "intercomm.h"

static int copies;

static int copy_fn(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void)c, (void)k, (void)extra;
    copies++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

/* d works as an intercommunicator over t's groups, separately from t->inter. */
static void check_dup(const rxt_inter_t *t, MPI_Comm d, const char *what)
{
    int flag = 0, result = -1, lsize = -1, rsize = -1, lrank = -1;
    RXT_MPI(MPI_Comm_test_inter(d, &flag));
    RXT_CHECK(flag, "%s: not an intercommunicator", what);
    RXT_MPI(MPI_Comm_compare(d, t->inter, &result));
    RXT_CHECK(result == MPI_CONGRUENT, "%s: compare %d, expected congruent", what, result);
    RXT_MPI(MPI_Comm_size(d, &lsize));
    RXT_MPI(MPI_Comm_remote_size(d, &rsize));
    RXT_MPI(MPI_Comm_rank(d, &lrank));
    RXT_CHECK(lsize == t->lsize && rsize == t->rsize && lrank == t->lrank,
              "%s: sizes %d+%d rank %d, parent %d+%d rank %d", what, lsize, rsize, lrank,
              t->lsize, t->rsize, t->lrank);
    /* the same tag on both: each message matches on its own communicator only */
    int peer = t->lrank % t->rsize, va = 1000 + rxt_rank, vb = 2000 + rxt_rank;
    int nin = 0, from[8], ga[8], gb[8];
    for (int j = 0; j < t->rsize && nin < 8; j++)
        if (j % t->lsize == t->lrank)
            from[nin++] = j; /* remote ranks j whose peer (j % lsize) is this rank */
    MPI_Request rq[34];
    int n = 0;
    for (int i = 0; i < nin; i++) {
        RXT_MPI(MPI_Irecv(&gb[i], 1, MPI_INT, from[i], 9, t->inter, &rq[n++]));
        RXT_MPI(MPI_Irecv(&ga[i], 1, MPI_INT, from[i], 9, d, &rq[n++]));
    }
    RXT_MPI(MPI_Isend(&va, 1, MPI_INT, peer, 9, d, &rq[n++]));
    RXT_MPI(MPI_Isend(&vb, 1, MPI_INT, peer, 9, t->inter, &rq[n++]));
    RXT_MPI(MPI_Waitall(n, rq, MPI_STATUSES_IGNORE));
    for (int i = 0; i < nin; i++) {
        int w = rxt_remote_world(t, from[i]);
        RXT_CHECK(ga[i] == 1000 + w && gb[i] == 2000 + w, "%s: got %d / %d from remote %d",
                  what, ga[i], gb[i], from[i]);
    }
    /* a collective: every member gets the sum of the remote group's world ranks */
    int sum = -1, want = 0;
    RXT_MPI(MPI_Allreduce(&rxt_rank, &sum, 1, MPI_INT, MPI_SUM, d));
    for (int j = 0; j < t->rsize; j++)
        want += rxt_remote_world(t, j);
    RXT_CHECK(sum == want, "%s: allreduce %d, expected %d", what, sum, want);
}

/* Group 0 starts and then releases group 1, which waits for that message
 * before it starts: a blocking duplication would never return in group 0. */
static void late_group(const rxt_inter_t *t)
{
    MPI_Comm d;
    MPI_Request r;
    int token = -1;
    if (t->color == 0) {
        RXT_MPI(MPI_Comm_idup(t->inter, &d, &r));
        token = 77;
        for (int j = t->lrank; j < t->rsize; j += t->lsize)
            RXT_MPI(MPI_Send(&token, 1, MPI_INT, j, 3, t->inter));
    } else {
        RXT_MPI(MPI_Recv(&token, 1, MPI_INT, t->lrank % t->rsize, 3, t->inter,
                         MPI_STATUS_IGNORE));
        RXT_CHECK(token == 77, "token %d", token);
        RXT_MPI(MPI_Comm_idup(t->inter, &d, &r));
    }
    RXT_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    RXT_CHECK(d != MPI_COMM_NULL, "idup gave MPI_COMM_NULL");
    check_dup(t, d, "idup, groups at different times");
    /* a duplicate of the duplicate */
    MPI_Comm dd;
    RXT_MPI(MPI_Comm_idup(d, &dd, &r));
    RXT_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    check_dup(t, dd, "idup of an idup");
    RXT_MPI(MPI_Comm_free(&dd));
    RXT_MPI(MPI_Comm_free(&d));
}

static void several(const rxt_inter_t *t)
{
    enum { K = 3 };
    MPI_Comm d[K];
    MPI_Request r[K];
    int key, val = 4242;
    RXT_MPI(MPI_Comm_create_keyval(copy_fn, MPI_COMM_NULL_DELETE_FN, &key, NULL));
    RXT_MPI(MPI_Comm_set_attr(t->inter, key, &val));
    copies = 0;
    MPI_Info info;
    RXT_MPI(MPI_Info_create(&info));
    RXT_MPI(MPI_Info_set(info, "mpi_assert_no_any_source", "true"));
    RXT_MPI(MPI_Comm_idup(t->inter, &d[0], &r[0]));
    RXT_MPI(MPI_Comm_idup_with_info(t->inter, info, &d[1], &r[1]));
    RXT_MPI(MPI_Info_free(&info));
    RXT_MPI(MPI_Comm_idup(t->inter, &d[2], &r[2]));
    for (int k = K - 1; k >= 0; k--)
        RXT_MPI(MPI_Wait(&r[k], MPI_STATUS_IGNORE));
    RXT_CHECK(copies == K, "%d attribute copies, expected %d", copies, K);
    for (int k = 0; k < K; k++) {
        check_dup(t, d[k], "one of several idups");
        void *got = NULL;
        int flag = 0;
        RXT_MPI(MPI_Comm_get_attr(d[k], key, &got, &flag));
        RXT_CHECK(flag && got == &val, "idup %d: attribute %s", k, flag ? "differs" : "missing");
    }
#ifdef RDMX
    MPI_Info used;
    RXT_MPI(MPI_Comm_get_info(d[1], &used));
    char v[16] = "";
    int flag = 0;
    RXT_MPI(MPI_Info_get_string(used, "mpi_assert_no_any_source", &(int){sizeof v}, v, &flag));
    RXT_CHECK(flag && !strcmp(v, "true"), "idup_with_info hint: %s", flag ? v : "missing");
    RXT_MPI(MPI_Info_free(&used));
#endif
    /* distinct from each other too */
    int result = -1;
    RXT_MPI(MPI_Comm_compare(d[0], d[2], &result));
    RXT_CHECK(result == MPI_CONGRUENT, "two idups compare %d", result);
    for (int k = 0; k < K; k++)
        RXT_MPI(MPI_Comm_free(&d[k]));
    RXT_MPI(MPI_Comm_delete_attr(t->inter, key));
    RXT_MPI(MPI_Comm_free_keyval(&key));
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "intercomm_idup");
    rxt_need_ranks(2);
    for (int part = 0; part < RXT_NPARTS; part++) {
        rxt_inter_t t;
        rxt_inter_make(part, &t);
        late_group(&t);
        several(&t);
        rxt_inter_free(&t);
    }
    return rxt_finish();
}
