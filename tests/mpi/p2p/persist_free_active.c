/* SPDX-License-Identifier: MIT
 * MPI_Request_free on an active persistent request (MPI-4.1 §3.7.3): the
 * operation still completes (a receive's data lands in the buffer, through
 * a non-contiguous datatype too; a rendezvous-sized send is delivered), and
 * the request goes once it has. Each round uses a fresh duplicate of
 * MPI_COMM_WORLD that is freed at once: a request that never went would
 * keep its communicator, and the context id, taken, so more rounds than
 * there are context ids would run out of them. */
#include "rxtest.h"

#ifdef RDMX
#define ROUNDS 2300 /* more than rdmx's context ids of blocking creation */
#else
#define ROUNDS 300 /* the peers: the data checks (communicator creation is slower there) */
#endif
enum { BIG = 20000 }; /* ints: above the eager limit */

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "persist_free_active");
    RXT_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    MPI_Datatype every_other;
    RXT_MPI(MPI_Type_vector(4, 1, 2, MPI_INT, &every_other));
    RXT_MPI(MPI_Type_commit(&every_other));
    int *big = malloc(sizeof(int) * BIG), *bigin = malloc(sizeof(int) * BIG);
    {
        /* a receive whose message is there when it starts (matched and
         * complete inside MPI_Start), freed before any wait: the data lands */
        int got[8], out[4];
        for (int i = 0; i < 8; i++)
            got[i] = -1;
        for (int i = 0; i < 4; i++)
            out[i] = 7000 + i + rxt_rank * 100;
        RXT_MPI(MPI_Send(out, 4, MPI_INT, right, 3, MPI_COMM_WORLD));
        RXT_MPI(MPI_Probe(left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MPI_Request r;
        RXT_MPI(MPI_Recv_init(got, 1, every_other, left, 3, MPI_COMM_WORLD, &r));
        RXT_MPI(MPI_Start(&r));
        RXT_MPI(MPI_Request_free(&r));
        RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
        for (int i = 0; i < 4; i++)
            RXT_CHECK(got[2 * i] == 7000 + i + left * 100 && got[2 * i + 1] == -1,
                      "receive complete at its start, then freed: element %d: %d / %d", i,
                      got[2 * i], got[2 * i + 1]);
    }
    for (int round = 0; round < ROUNDS && rxt_errs == 0; round++) {
        MPI_Comm c;
        int rc = MPI_Comm_dup(MPI_COMM_WORLD, &c);
        if (rc != MPI_SUCCESS) {
            RXT_CHECK(0, "round %d: MPI_Comm_dup failed: %s (requests freed while active "
                      "keep their communicators)", round, rxt_errstr(rc));
            break;
        }
        /* a receive freed before its message came */
        int got[8], out[4], next = -1;
        for (int i = 0; i < 8; i++)
            got[i] = -1;
        MPI_Request r;
        RXT_MPI(MPI_Recv_init(got, 1, every_other, left, 1, c, &r));
        RXT_MPI(MPI_Start(&r));
        RXT_MPI(MPI_Request_free(&r));
        RXT_CHECK(r == MPI_REQUEST_NULL, "round %d: handle not set to MPI_REQUEST_NULL", round);
        /* a send freed while the receiver has not posted its receive */
        int send_big = round % 50 == 0;
        MPI_Request s;
        if (send_big) {
            for (int i = 0; i < BIG; i++)
                big[i] = round + i + rxt_rank;
            RXT_MPI(MPI_Send_init(big, BIG, MPI_INT, right, 2, c, &s));
            RXT_MPI(MPI_Start(&s));
            RXT_MPI(MPI_Request_free(&s));
        }
        for (int i = 0; i < 4; i++)
            out[i] = round * 10 + i + rxt_rank * 100000;
        /* the same tag twice: the freed receive matches the first (messages
         * do not overtake), the blocking one the second */
        RXT_MPI(MPI_Send(out, 4, MPI_INT, right, 1, c));
        RXT_MPI(MPI_Send(&round, 1, MPI_INT, right, 1, c));
        RXT_MPI(MPI_Recv(&next, 1, MPI_INT, left, 1, c, MPI_STATUS_IGNORE));
        RXT_CHECK(next == round, "round %d: second message %d", round, next);
        if (send_big) {
            RXT_MPI(MPI_Recv(bigin, BIG, MPI_INT, left, 2, c, MPI_STATUS_IGNORE));
            RXT_CHECK(bigin[0] == round + left && bigin[BIG - 1] == round + BIG - 1 + left,
                      "round %d: freed send delivered %d .. %d", round, bigin[0], bigin[BIG - 1]);
        }
        /* the freed receive completed before the later message matched */
        RXT_MPI(MPI_Barrier(c));
        for (int i = 0; i < 4; i++)
            RXT_CHECK(got[2 * i] == round * 10 + i + left * 100000 && got[2 * i + 1] == -1,
                      "round %d: freed receive element %d: %d / %d", round, i, got[2 * i],
                      got[2 * i + 1]);
        RXT_MPI(MPI_Comm_free(&c));
    }
    RXT_MPI(MPI_Type_free(&every_other));
    free(big);
    free(bigin);
    return rxt_finish();
}
