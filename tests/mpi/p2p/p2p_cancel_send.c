/* SPDX-License-Identifier: MIT
 * MPI_Cancel of sends, as MPICH's pt2pt/scancel does it: each rank sends to its right
 * neighbour, cancels, waits, and tells the neighbour whether the send was cancelled; the
 * neighbour then receives it (and checks every byte) or finds it gone (MPI_Iprobe). Sends:
 * eager and rendezvous MPI_Isend, MPI_Issend of both sizes, a started MPI_Send_init and a
 * rendezvous of a strided datatype. A send whose receive was posted before it is matched on
 * arrival, so its cancel fails; one cancelled while the neighbour posts its receive may go
 * either way, and both sides must agree. The wait on a cancelled send must return although no
 * receive is ever posted for it: a rendezvous or synchronous send that waited for one hung.
 * With arg strict (rdmx): every send that waits for its receiver is cancelled when none was
 * posted, and none whose receive was posted first is. */
#include "rxtest.h"

#include <stdlib.h>
#include <string.h>

enum { C_EAGER, C_RNDV, C_SSEND_SMALL, C_SSEND_LARGE, C_PERSIST, C_TYPED, NCASE };
static const char *case_name[NCASE] = {"eager Isend", "rendezvous Isend", "small Issend",
                                       "large Issend", "Send_init", "strided rendezvous"};
#define BIG (1 << 18) /* ints: 1 MiB */

static int count_of(int c) { return c == C_EAGER || c == C_SSEND_SMALL ? 2 : BIG; }

static void fill(int *b, int n, int seed)
{
    for (int i = 0; i < n; i++)
        b[i] = seed * 7919 + i;
}

/* Start case c's send of buf (the datatype picks every other int for C_TYPED). */
static void start_send(int c, int *buf, int dest, int tag, MPI_Comm comm, MPI_Datatype vec,
                       MPI_Request *r)
{
    int n = count_of(c);
    switch (c) {
    case C_SSEND_SMALL:
    case C_SSEND_LARGE:
        RXT_MPI(MPI_Issend(buf, n, MPI_INT, dest, tag, comm, r));
        break;
    case C_PERSIST:
        RXT_MPI(MPI_Send_init(buf, n, MPI_INT, dest, tag, comm, r));
        RXT_MPI(MPI_Start(r));
        break;
    case C_TYPED:
        RXT_MPI(MPI_Isend(buf, 1, vec, dest, tag, comm, r));
        break;
    default:
        RXT_MPI(MPI_Isend(buf, n, MPI_INT, dest, tag, comm, r));
    }
}

static void check_data(const int *got, int n, int seed, int c, const char *when)
{
    int bad = 0;
    for (int i = 0; i < n && !bad; i++) {
        int want = c == C_TYPED ? seed * 7919 + 2 * i : seed * 7919 + i;
        bad = got[i] != want;
    }
    RXT_CHECK(!bad, "%s, %s: received data wrong", case_name[c], when);
}

/* Wait for a cancelled send; returns whether it was cancelled. */
static int finish_send(int c, MPI_Request *r)
{
    MPI_Status st;
    int flag = -1;
    RXT_MPI(MPI_Wait(r, &st));
    RXT_MPI(MPI_Test_cancelled(&st, &flag));
    if (c == C_PERSIST)
        RXT_MPI(MPI_Request_free(r));
    return flag;
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "p2p_cancel_send");
    int strict = argc > 1 && !strcmp(argv[1], "strict");
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    MPI_Comm comm;
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    MPI_Datatype vec;
    RXT_MPI(MPI_Type_vector(BIG / 2, 1, 2, MPI_INT, &vec));
    RXT_MPI(MPI_Type_commit(&vec));
    int *sbuf = malloc(BIG * sizeof *sbuf), *rbuf = malloc(BIG * sizeof *rbuf);
    RXT_CHECK(sbuf && rbuf, "out of memory");

    for (int round = 0; round < 4; round++) {
        for (int c = 0; c < NCASE; c++) {
            int seed = round * NCASE + c + 1, tag = 100 + c, flag, other;
            int rn = c == C_TYPED ? BIG / 2 : count_of(c);
            MPI_Request r;

            /* No receive posted: the cancel should win. */
            fill(sbuf, BIG, seed * 100 + rxt_rank);
            start_send(c, sbuf, right, tag, comm, vec, &r);
            RXT_MPI(MPI_Cancel(&r));
            flag = finish_send(c, &r);
            if (strict && c != C_EAGER)
                RXT_CHECK(flag == 1, "round %d, %s with no receive posted: not cancelled", round,
                          case_name[c]);
            RXT_MPI(MPI_Sendrecv(&flag, 1, MPI_INT, right, 99, &other, 1, MPI_INT, left, 99, comm,
                                 MPI_STATUS_IGNORE));
            if (other) { /* gone: not even a probe may see it */
                int found = -1;
                RXT_MPI(MPI_Iprobe(left, tag, comm, &found, MPI_STATUS_IGNORE));
                RXT_CHECK(!found, "round %d, %s: a cancelled send can still be probed", round,
                          case_name[c]);
            } else {
                memset(rbuf, 0, BIG * sizeof *rbuf);
                RXT_MPI(MPI_Recv(rbuf, rn, MPI_INT, left, tag, comm, MPI_STATUS_IGNORE));
                check_data(rbuf, rn, seed * 100 + left, c, "not cancelled");
            }

            /* The receive posted first: the message is matched when it arrives. */
            MPI_Request rr;
            memset(rbuf, 0, BIG * sizeof *rbuf);
            RXT_MPI(MPI_Irecv(rbuf, rn, MPI_INT, left, tag + 50, comm, &rr));
            RXT_MPI(MPI_Barrier(comm));
            start_send(c, sbuf, right, tag + 50, comm, vec, &r);
            RXT_MPI(MPI_Cancel(&r));
            flag = finish_send(c, &r);
            if (strict)
                RXT_CHECK(flag == 0, "round %d, %s: cancelled although its receive was posted",
                          round, case_name[c]);
            RXT_MPI(MPI_Sendrecv(&flag, 1, MPI_INT, right, 98, &other, 1, MPI_INT, left, 98, comm,
                                 MPI_STATUS_IGNORE));
            MPI_Status st;
            if (other) {
                RXT_MPI(MPI_Cancel(&rr));
                RXT_MPI(MPI_Wait(&rr, &st));
            } else {
                RXT_MPI(MPI_Wait(&rr, &st));
                check_data(rbuf, rn, seed * 100 + left, c, "receive posted first");
            }

            /* Cancel racing the neighbour's receive: either outcome, the same on both sides. */
            memset(rbuf, 0, BIG * sizeof *rbuf);
            start_send(c, sbuf, right, tag + 25, comm, vec, &r);
            RXT_MPI(MPI_Irecv(rbuf, rn, MPI_INT, left, tag + 25, comm, &rr));
            RXT_MPI(MPI_Cancel(&r));
            flag = finish_send(c, &r);
            RXT_MPI(MPI_Sendrecv(&flag, 1, MPI_INT, right, 97, &other, 1, MPI_INT, left, 97, comm,
                                 MPI_STATUS_IGNORE));
            if (other) {
                RXT_MPI(MPI_Cancel(&rr));
                RXT_MPI(MPI_Wait(&rr, &st));
                int cancelled = -1;
                RXT_MPI(MPI_Test_cancelled(&st, &cancelled));
                RXT_CHECK(cancelled == 1, "round %d, %s: the receive of a cancelled send matched",
                          round, case_name[c]);
            } else {
                RXT_MPI(MPI_Wait(&rr, &st));
                check_data(rbuf, rn, seed * 100 + left, c, "racing receive");
            }
        }
    }
    RXT_MPI(MPI_Type_free(&vec));
    RXT_MPI(MPI_Comm_free(&comm));
    free(sbuf);
    free(rbuf);
    return rxt_finish();
}
