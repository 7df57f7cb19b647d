/* SPDX-License-Identifier: MIT
 * MPI_Intercomm_create with bad arguments, under MPI_ERRORS_RETURN: every
 * rank of both groups must return an error, none may wait for ever (the
 * watchdog fails a hang). MPI_COMM_WORLD is split even/odd; the leaders are
 * local rank 0 (world ranks 0 and 1). Cases: local_leader out of range in
 * the odd group (that group MPI_ERR_RANK, the even one an error); a NULL
 * newintercomm at one non-leader of the even group (the even group
 * MPI_ERR_ARG, the odd one an error); a negative tag at both groups
 * (MPI_ERR_TAG), in the odd group only (there MPI_ERR_TAG, the even group
 * an error) and at one non-leader of the even group only (the even group
 * MPI_ERR_TAG, the odd one an error); MPI_COMM_NULL as peer at both leaders
 * (MPI_ERR_COMM at all); remote_leader out of range at both leaders
 * (MPI_ERR_RANK at all). After each, a good MPI_Intercomm_create and an
 * exchange over it show that nothing of the failed call was left behind.
 * With the argument "fatal-peer", under MPI_ERRORS_ARE_FATAL: MPI_COMM_NULL
 * as peer at the odd group's leader only must end the job with the reason
 * (the even group cannot learn of it: docs/mpi-support-notes.txt). */
#define RXT_WATCHDOG_S 60
#include "rxtest.h"

static MPI_Comm local;
static int color, lrank;

static int create(int lleader, MPI_Comm peer, int rleader, int tag, MPI_Comm *out)
{
    return MPI_Intercomm_create(local, lleader, peer, rleader, tag, out);
}

static void expect_fail(int rc, int cls, const char *what)
{
    int c = -1;
    if (rc == MPI_SUCCESS) {
        RXT_CHECK(0, "%s: succeeded at world rank %d", what, rxt_rank);
        return;
    }
    MPI_Error_class(rc, &c);
    RXT_CHECK(cls < 0 || c == cls, "%s: class %s (%d), expected %s", what, rxt_class_name(c), c,
              rxt_class_name(cls));
}

static void good(int round)
{
    MPI_Comm inter = MPI_COMM_NULL;
    RXT_MPI(create(0, MPI_COMM_WORLD, 1 - color, 100 + round, &inter));
    int rsize = -1, v = rxt_rank, sum = 0;
    RXT_MPI(MPI_Comm_remote_size(inter, &rsize));
    RXT_CHECK(rsize == (color ? (rxt_size + 1) / 2 : rxt_size / 2), "remote size %d", rsize);
    RXT_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, inter));
    int want = 0;
    for (int r = 0; r < rxt_size; r++)
        want += r % 2 != color ? r : 0;
    RXT_CHECK(sum == want, "round %d: sum over the remote group %d, expected %d", round, sum,
              want);
    RXT_MPI(MPI_Comm_free(&inter));
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "intercomm_errors");
    rxt_need_ranks(2);
    color = rxt_rank % 2;
    RXT_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, rxt_rank, &local));
    MPI_Comm_rank(local, &lrank);
    MPI_Comm inter = MPI_COMM_NULL;
    int rl = 1 - color; /* the remote leader's world rank */
    if (argc > 1 && !strcmp(argv[1], "fatal-peer")) {
        good(0);
        create(0, color ? MPI_COMM_NULL : MPI_COMM_WORLD, rl, 11, &inter);
        RXT_CHECK(0, "MPI_Intercomm_create with MPI_COMM_NULL as peer at one leader returned");
        return rxt_finish();
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(local, MPI_ERRORS_RETURN);

    good(0);
    /* local_leader out of range in the odd group */
    int rc = create(color ? 99 : 0, MPI_COMM_WORLD, rl, 7, &inter);
    expect_fail(rc, color ? MPI_ERR_RANK : -1, "local_leader out of range in the odd group");
    good(1);
    /* a NULL newintercomm at one non-leader of the even group */
    if (rxt_size >= 3) {
        rc = create(0, MPI_COMM_WORLD, rl, 8, !color && lrank == 1 ? NULL : &inter);
        expect_fail(rc, color ? -1 : MPI_ERR_ARG, "NULL newintercomm at one even rank");
        good(2);
    }
    rc = create(0, MPI_COMM_WORLD, rl, -3, &inter);
    expect_fail(rc, MPI_ERR_TAG, "negative tag");
    good(3);
    /* a negative tag in the odd group only, then at one even non-leader */
    rc = create(0, MPI_COMM_WORLD, rl, color ? -4 : 12, &inter);
    expect_fail(rc, color ? MPI_ERR_TAG : -1, "negative tag in the odd group only");
    good(6);
    if (rxt_size >= 3) {
        rc = create(0, MPI_COMM_WORLD, rl, !color && lrank == 1 ? -5 : 13, &inter);
        expect_fail(rc, color ? -1 : MPI_ERR_TAG, "negative tag at one even rank only");
        good(7);
    }
    rc = create(0, MPI_COMM_NULL, rl, 9, &inter);
    expect_fail(rc, MPI_ERR_COMM, "MPI_COMM_NULL as peer at both leaders");
    good(4);
    rc = create(0, MPI_COMM_WORLD, rxt_size + 5, 10, &inter);
    expect_fail(rc, MPI_ERR_RANK, "remote_leader out of range at both leaders");
    good(5);
    RXT_CHECK(inter == MPI_COMM_NULL, "no intercommunicator was made by a failed call");
    RXT_MPI(MPI_Comm_free(&local));
    return rxt_finish();
}
