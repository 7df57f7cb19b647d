/* SPDX-License-Identifier: MIT
 * MPI-4.1 MPI_Request_get_status_any / _all / _some (§3.7.6):
 *   - a pending receive reports flag 0 / outcount 0 and stays pending;
 *   - once it completes they report it (index, source, tag, count) and leave the
 *     handle valid and the request active: a second call reports it again and
 *     MPI_Waitall then finishes it with the same status;
 *   - null handles and inactive persistent requests count as inactive: all
 *     inactive gives flag 1 / MPI_UNDEFINED index / outcount, and empty statuses;
 *   - a negative count is MPI_ERR_COUNT, a NULL flag or index MPI_ERR_ARG.
 * MPICH 4.0 has none of these (MPI-4.1): under an MPI older than 4.1 the test says so. */
#include "rxtest.h"

#if defined(RDMX) || MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
static void test_pending_then_complete(void)
{
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    int in[2] = {-1, -1}, out[2] = {100 + rxt_rank, 200 + rxt_rank};
    MPI_Request reqs[3];
    reqs[0] = MPI_REQUEST_NULL;
    RXT_MPI(MPI_Irecv(in, 2, MPI_INT, left, 7, MPI_COMM_WORLD, &reqs[1]));
    MPI_Request recv = reqs[1];
    RXT_MPI(MPI_Recv_init(out, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &reqs[2]));
    MPI_Request inactive = reqs[2];

    /* Nobody sends before the barrier: the receive must still be pending. */
    int flag = -1, index = -5, outcount = -5, idx[3];
    MPI_Status st, sts[3];
    RXT_MPI(MPI_Request_get_status_any(3, reqs, &index, &flag, &st));
    RXT_CHECK(flag == 0 && index == MPI_UNDEFINED, "any before send: flag %d index %d", flag,
              index);
    RXT_MPI(MPI_Request_get_status_all(3, reqs, &flag, sts));
    RXT_CHECK(flag == 0, "all before send: flag %d", flag);
    RXT_MPI(MPI_Request_get_status_some(3, reqs, &outcount, idx, sts));
    RXT_CHECK(outcount == 0, "some before send: outcount %d", outcount);
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));

    MPI_Request sreq;
    RXT_MPI(MPI_Isend(out, 2, MPI_INT, right, 7, MPI_COMM_WORLD, &sreq));
    do
        RXT_MPI(MPI_Request_get_status_all(3, reqs, &flag, sts));
    while (!flag);
    RXT_CHECK(reqs[1] == recv && reqs[2] == inactive && reqs[0] == MPI_REQUEST_NULL,
              "get_status_all changed a handle");
    int n = -1;
    RXT_MPI(MPI_Get_count(&sts[1], MPI_INT, &n));
    RXT_CHECK(sts[1].MPI_SOURCE == left && sts[1].MPI_TAG == 7 && n == 2,
              "all: source %d tag %d count %d", sts[1].MPI_SOURCE, sts[1].MPI_TAG, n);
    for (int i = 0; i < 3; i += 2)
        RXT_CHECK(sts[i].MPI_SOURCE == MPI_ANY_SOURCE && sts[i].MPI_TAG == MPI_ANY_TAG,
                  "inactive %d: status not empty (source %d)", i, sts[i].MPI_SOURCE);

    for (int pass = 0; pass < 2; pass++) { /* reported again: nothing was finished */
        flag = 0;
        st.MPI_SOURCE = -9;
        RXT_MPI(MPI_Request_get_status_any(3, reqs, &index, &flag, &st));
        RXT_CHECK(flag == 1 && index == 1 && st.MPI_SOURCE == left && st.MPI_TAG == 7,
                  "any pass %d: flag %d index %d source %d", pass, flag, index, st.MPI_SOURCE);
        outcount = -1;
        RXT_MPI(MPI_Request_get_status_some(3, reqs, &outcount, idx, sts));
        RXT_CHECK(outcount == 1 && idx[0] == 1 && sts[0].MPI_SOURCE == left &&
                      sts[0].MPI_TAG == 7,
                  "some pass %d: outcount %d idx %d", pass, outcount, idx[0]);
        RXT_MPI(MPI_Request_get_status_some(3, reqs, &outcount, idx, MPI_STATUSES_IGNORE));
        RXT_CHECK(outcount == 1 && idx[0] == 1, "some (statuses ignored): outcount %d",
                  outcount);
        RXT_CHECK(reqs[1] == recv, "pass %d: receive handle changed", pass);
    }

    RXT_MPI(MPI_Waitall(3, reqs, sts));
    RXT_CHECK(reqs[1] == MPI_REQUEST_NULL && reqs[2] == inactive, "Waitall left handles wrong");
    RXT_CHECK(sts[1].MPI_SOURCE == left && sts[1].MPI_TAG == 7, "Waitall status: source %d",
              sts[1].MPI_SOURCE);
    RXT_CHECK(in[0] == 100 + left && in[1] == 200 + left, "received %d %d, want %d %d", in[0],
              in[1], 100 + left, 200 + left);
    RXT_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));

    /* Only inactive requests left. */
    RXT_MPI(MPI_Request_get_status_any(3, reqs, &index, &flag, &st));
    RXT_CHECK(flag == 1 && index == MPI_UNDEFINED && st.MPI_SOURCE == MPI_ANY_SOURCE,
              "any, all inactive: flag %d index %d", flag, index);
    RXT_MPI(MPI_Request_get_status_some(3, reqs, &outcount, idx, sts));
    RXT_CHECK(outcount == MPI_UNDEFINED, "some, all inactive: outcount %d", outcount);
    flag = 0;
    RXT_MPI(MPI_Request_get_status_all(3, reqs, &flag, MPI_STATUSES_IGNORE));
    RXT_CHECK(flag == 1, "all, all inactive: flag %d", flag);
    RXT_MPI(MPI_Request_get_status_any(0, NULL, &index, &flag, MPI_STATUS_IGNORE));
    RXT_CHECK(flag == 1 && index == MPI_UNDEFINED, "any, count 0: flag %d index %d", flag, index);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RXT_EXPECT_CLASS(MPI_ERR_COUNT, MPI_Request_get_status_all(-1, reqs, &flag, sts));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Request_get_status_any(3, reqs, &index, NULL, &st));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Request_get_status_some(3, reqs, NULL, idx, sts));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    RXT_MPI(MPI_Request_free(&reqs[2]));
}
#endif

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "request_status_array");
#if defined(RDMX) || MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
    test_pending_then_complete();
#else
    if (rxt_rank == 0)
        printf("request_status_array: MPI-4.1 functions not in this MPI, skipped\n");
#endif
    return rxt_finish();
}
