/* SPDX-License-Identifier: MIT
 * Bad arguments under MPI_ERRORS_RETURN (set on MPI_COMM_WORLD and MPI_COMM_SELF,
 * which gets errors that have no communicator in MPI-4): each call returns an error
 * of the class the standard names for the bad argument (MPI-4.0 section 9.4, table
 * of error classes), and the library still works afterwards. Where the standard
 * leaves the class open (negative array counts), both plausible classes are
 * accepted and the comment says so. Every rank makes every call, collectives too
 * (arguments are checked before any communication). */
#include "rxtest.h"

#include <limits.h>

/* Either of two classes (the standard does not decide between them). */
#define EXPECT_EITHER(c1, c2, call)                                                               \
    do {                                                                                          \
        int rc_ = (call), cls_ = -1;                                                              \
        MPI_Error_class(rc_, &cls_);                                                              \
        RXT_CHECK(rc_ != MPI_SUCCESS && (cls_ == (c1) || cls_ == (c2)),                           \
                  "%s: class %s, want %s or %s", #call, rxt_class_name(cls_), #c1, #c2);          \
    } while (0)

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "errors_return");
    RXT_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    RXT_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    MPI_Comm W = MPI_COMM_WORLD;
    int n = rxt_size, x[8] = { 0 }, y[8] = { 0 }, flag, *tag_ub, ub = 32767;
    MPI_Status st;
    MPI_Request rq = MPI_REQUEST_NULL;
    RXT_MPI(MPI_Comm_get_attr(W, MPI_TAG_UB, &tag_ub, &flag));
    if (flag)
        ub = *tag_ub;

    /* MPI_ERR_RANK: destination / source outside the group (not PROC_NULL/ANY_SOURCE) */
    RXT_EXPECT_CLASS(MPI_ERR_RANK, MPI_Send(x, 1, MPI_INT, n, 0, W));
    RXT_EXPECT_CLASS(MPI_ERR_RANK, MPI_Send(x, 1, MPI_INT, -7777, 0, W));
    RXT_EXPECT_CLASS(MPI_ERR_RANK, MPI_Ssend(x, 1, MPI_INT, n + 5, 0, W));
    RXT_EXPECT_CLASS(MPI_ERR_RANK, MPI_Isend(x, 1, MPI_INT, n, 0, W, &rq));
    RXT_EXPECT_CLASS(MPI_ERR_RANK, MPI_Recv(x, 1, MPI_INT, n, 0, W, &st));
    RXT_EXPECT_CLASS(MPI_ERR_RANK, MPI_Irecv(x, 1, MPI_INT, -7777, 0, W, &rq));
    RXT_EXPECT_CLASS(MPI_ERR_RANK, MPI_Probe(n, 0, W, &st));
    RXT_EXPECT_CLASS(MPI_ERR_RANK, MPI_Iprobe(n, 0, W, &flag, &st));
    RXT_EXPECT_CLASS(MPI_ERR_RANK, MPI_Sendrecv(x, 1, MPI_INT, 0, 0, y, 1, MPI_INT, n, 0, W, &st));

    /* MPI_ERR_TAG: negative tags on sends (MPI_ANY_TAG included), below MPI_ANY_TAG on
     * receives, above MPI_TAG_UB anywhere */
    RXT_EXPECT_CLASS(MPI_ERR_TAG, MPI_Send(x, 1, MPI_INT, rxt_rank, -5, W));
    RXT_EXPECT_CLASS(MPI_ERR_TAG, MPI_Send(x, 1, MPI_INT, rxt_rank, MPI_ANY_TAG, W));
    RXT_EXPECT_CLASS(MPI_ERR_TAG, MPI_Isend(x, 1, MPI_INT, rxt_rank, -5, W, &rq));
    RXT_EXPECT_CLASS(MPI_ERR_TAG, MPI_Recv(x, 1, MPI_INT, rxt_rank, -5, W, &st));
    RXT_EXPECT_CLASS(MPI_ERR_TAG, MPI_Irecv(x, 1, MPI_INT, rxt_rank, -5, W, &rq));
    if (ub < INT_MAX) {
        RXT_EXPECT_CLASS(MPI_ERR_TAG, MPI_Send(x, 1, MPI_INT, rxt_rank, ub + 1, W));
        RXT_EXPECT_CLASS(MPI_ERR_TAG, MPI_Irecv(x, 1, MPI_INT, rxt_rank, ub + 1, W, &rq));
    }

    /* MPI_ERR_COUNT */
    RXT_EXPECT_CLASS(MPI_ERR_COUNT, MPI_Send(x, -1, MPI_INT, rxt_rank, 0, W));
    RXT_EXPECT_CLASS(MPI_ERR_COUNT, MPI_Recv(x, -1, MPI_INT, rxt_rank, 0, W, &st));
    RXT_EXPECT_CLASS(MPI_ERR_COUNT, MPI_Irecv(x, -3, MPI_INT, rxt_rank, 0, W, &rq));
    RXT_EXPECT_CLASS(MPI_ERR_COUNT, MPI_Bcast(x, -1, MPI_INT, 0, W));
    /* negative array length: "count" to MPICH, "argument" to Open MPI; the standard
     * does not say */
    EXPECT_EITHER(MPI_ERR_COUNT, MPI_ERR_ARG, MPI_Waitall(-1, &rq, MPI_STATUSES_IGNORE));

    /* MPI_ERR_TYPE */
    RXT_EXPECT_CLASS(MPI_ERR_TYPE, MPI_Send(x, 1, MPI_DATATYPE_NULL, rxt_rank, 0, W));
    RXT_EXPECT_CLASS(MPI_ERR_TYPE, MPI_Recv(x, 1, MPI_DATATYPE_NULL, rxt_rank, 0, W, &st));
    RXT_EXPECT_CLASS(MPI_ERR_TYPE, MPI_Bcast(x, 1, MPI_DATATYPE_NULL, 0, W));
    RXT_EXPECT_CLASS(MPI_ERR_TYPE, MPI_Type_size(MPI_DATATYPE_NULL, &flag));
    RXT_EXPECT_CLASS(MPI_ERR_TYPE, MPI_Get_count(&st, MPI_DATATYPE_NULL, &flag));

    /* MPI_ERR_COMM */
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Send(x, 1, MPI_INT, 0, 0, MPI_COMM_NULL));
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Recv(x, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &st));
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Comm_rank(MPI_COMM_NULL, &flag));
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Comm_size(MPI_COMM_NULL, &flag));
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Barrier(MPI_COMM_NULL));
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Bcast(x, 1, MPI_INT, 0, MPI_COMM_NULL));
    MPI_Comm nc = MPI_COMM_NULL;
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Comm_dup(MPI_COMM_NULL, &nc));
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Comm_compare(MPI_COMM_NULL, W, &flag));
    nc = MPI_COMM_NULL;
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Comm_free(&nc));

    /* MPI_ERR_REQUEST: freeing or cancelling the null request */
    rq = MPI_REQUEST_NULL;
    RXT_EXPECT_CLASS(MPI_ERR_REQUEST, MPI_Request_free(&rq));
    rq = MPI_REQUEST_NULL;
    RXT_EXPECT_CLASS(MPI_ERR_REQUEST, MPI_Cancel(&rq));

    /* MPI_ERR_ROOT */
    RXT_EXPECT_CLASS(MPI_ERR_ROOT, MPI_Bcast(x, 1, MPI_INT, n, W));
    RXT_EXPECT_CLASS(MPI_ERR_ROOT, MPI_Bcast(x, 1, MPI_INT, -1, W));
    RXT_EXPECT_CLASS(MPI_ERR_ROOT, MPI_Reduce(x, y, 1, MPI_INT, MPI_SUM, n + 2, W));
    RXT_EXPECT_CLASS(MPI_ERR_ROOT, MPI_Gather(x, 1, MPI_INT, y, 1, MPI_INT, -1, W));

    /* MPI_ERR_OP: the null op, and an op not defined for the type */
    RXT_EXPECT_CLASS(MPI_ERR_OP, MPI_Allreduce(x, y, 1, MPI_INT, MPI_OP_NULL, W));
    RXT_EXPECT_CLASS(MPI_ERR_OP, MPI_Reduce(x, y, 1, MPI_INT, MPI_OP_NULL, 0, W));
    double d = 1, e;
    RXT_EXPECT_CLASS(MPI_ERR_OP, MPI_Allreduce(&d, &e, 1, MPI_DOUBLE, MPI_BAND, W));
    RXT_EXPECT_CLASS(MPI_ERR_OP, MPI_Allreduce(x, y, 1, MPI_INT, MPI_MAXLOC, W));

    /* MPI_ERR_BUFFER: NULL with a positive count of a basic type */
    RXT_EXPECT_CLASS(MPI_ERR_BUFFER, MPI_Send(NULL, 4, MPI_INT, rxt_rank, 0, W));
    RXT_EXPECT_CLASS(MPI_ERR_BUFFER, MPI_Recv(NULL, 4, MPI_INT, rxt_rank, 0, W, &st));

    /* MPI_ERR_ARG: other invalid arguments */
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Buffer_attach(x, -5));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Get_processor_name(NULL, &flag));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Comm_rank(W, NULL));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Type_size(MPI_INT, NULL));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Comm_set_errhandler(W, MPI_ERRHANDLER_NULL));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Error_class(123456789, &flag));
    nc = MPI_COMM_NULL;
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Comm_split(W, -5, 0, &nc)); /* color < 0, not UNDEFINED */
    if (nc != MPI_COMM_NULL)
        MPI_Comm_free(&nc);

    /* Still working: a ring and a reduction. */
    int right = (rxt_rank + 1) % n, left = (rxt_rank + n - 1) % n, got = -1, sum = 0, one = 1;
    RXT_MPI(MPI_Sendrecv(&rxt_rank, 1, MPI_INT, right, 1, &got, 1, MPI_INT, left, 1, W, &st));
    RXT_CHECK(got == left, "ring after errors got %d", got);
    RXT_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, W));
    RXT_CHECK(sum == n, "allreduce after errors gave %d", sum);

    /* Last, as an implementation that does not check these goes on to use the bad
     * argument (seen: a crash or a corrupted state in the peers): */
    RXT_EXPECT_CLASS(MPI_ERR_BUFFER, MPI_Bcast(NULL, 4, MPI_INT, 0, W));
    RXT_EXPECT_CLASS(MPI_ERR_COUNT, MPI_Allreduce(x, y, -1, MPI_INT, MPI_SUM, W));
    RXT_MPI(MPI_Comm_set_errhandler(W, MPI_ERRORS_ARE_FATAL));
    return rxt_finish();
}
