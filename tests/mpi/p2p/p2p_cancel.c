/* SPDX-License-Identifier: MIT
 * MPI_Cancel of a pending receive: the wait completes, MPI_Test_cancelled says true,
 * the buffer is untouched, and a later message goes to the next receive, not to the
 * cancelled one. Cancel of a receive that was already matched: not cancelled, the
 * data is there. Works on one rank (self messages) and between neighbours. */
#include "rxtest.h"

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "p2p_cancel");
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    MPI_Comm comm;
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));

    for (int round = 0; round < 3; round++) {
        /* A receive nobody will match (tag 7 is never sent), and a wildcard one. */
        int dead = -1, wild = -1, flag = -1;
        MPI_Request r[2];
        MPI_Status st;
        RXT_MPI(MPI_Irecv(&dead, 1, MPI_INT, left, 7, comm, &r[0]));
        RXT_MPI(MPI_Irecv(&wild, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &r[1]));
        RXT_MPI(MPI_Cancel(&r[0]));
        RXT_MPI(MPI_Cancel(&r[1]));
        RXT_MPI(MPI_Wait(&r[0], &st));
        RXT_MPI(MPI_Test_cancelled(&st, &flag));
        RXT_CHECK(flag != 0, "round %d: cancelled receive not reported cancelled", round);
        RXT_CHECK(r[0] == MPI_REQUEST_NULL, "Wait on a cancelled request left it non-null");
        do
            RXT_MPI(MPI_Test(&r[1], &flag, &st));
        while (!flag);
        RXT_MPI(MPI_Test_cancelled(&st, &flag));
        RXT_CHECK(flag != 0, "round %d: cancelled wildcard receive not reported cancelled", round);
        RXT_CHECK(dead == -1 && wild == -1, "cancelled receives wrote %d %d", dead, wild);

        /* Everybody has cancelled before anyone sends. */
        RXT_MPI(MPI_Barrier(comm));
        int out = 100 * round + rxt_rank, in = -1;
        RXT_MPI(MPI_Sendrecv(&out, 1, MPI_INT, right, 8, &in, 1, MPI_INT, MPI_ANY_SOURCE,
                             MPI_ANY_TAG, comm, &st));
        RXT_CHECK(in == 100 * round + left && st.MPI_TAG == 8,
                  "after cancel: got %d tag %d, want %d tag 8", in, st.MPI_TAG,
                  100 * round + left);
        RXT_CHECK(dead == -1 && wild == -1, "a later message went into a cancelled receive");
    }

    /* A receive already matched cannot be cancelled any more: the standard says either
     * the cancel succeeds or the receive completes, and here it has been matched. */
    int v = 31 + rxt_rank, got = -1, flag = -1;
    MPI_Request r;
    MPI_Status st;
    RXT_MPI(MPI_Irecv(&got, 1, MPI_INT, left, 9, comm, &r));
    RXT_MPI(MPI_Send(&v, 1, MPI_INT, right, 9, comm));
    /* Sendrecv ordering: once the left neighbour's marker arrives, its tag-9 message,
     * sent before on the same communicator, has been matched by the receive. */
    RXT_MPI(MPI_Sendrecv(NULL, 0, MPI_INT, right, 10, NULL, 0, MPI_INT, left, 10, comm,
                         MPI_STATUS_IGNORE));
    RXT_MPI(MPI_Cancel(&r));
    RXT_MPI(MPI_Wait(&r, &st));
    RXT_MPI(MPI_Test_cancelled(&st, &flag));
    RXT_CHECK(flag == 0 && got == 31 + left, "matched receive: cancelled %d value %d", flag, got);
    MPI_Comm_free(&comm);
    return rxt_finish();
}
