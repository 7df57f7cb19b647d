/* SPDX-License-Identifier: MIT
 * Sends that may complete inside MPI_Isend (small standard and ready sends,
 * which an implementation may hand back as already complete) through every
 * completion call: Wait, Test, Waitall with duplicated and mixed handles,
 * Waitany, Waitsome, Testall, Testany, Testsome, Request_get_status (which
 * must leave the request to a later wait), Request_free, Cancel (a send
 * already delivered is not cancelled), and bursts long enough to fill the
 * transport so some sends must queue; every byte received is checked, in
 * order. Ranks send to the right and receive from the left; one rank sends
 * to itself. */
#include "rxtest.h"

#include <string.h>

enum { BURST = 600, SMALL = 8, TAG_BURST = 7 };
static int left, right;

/* Message k of phase p from rank r: its words name all three. */
static void fill(int *m, int r, int p, int k)
{
    for (int i = 0; i < SMALL; i++)
        m[i] = r * 1000000 + p * 10000 + k * 10 + i % 10;
}

static void check(const int *m, int p, int k, const char *what)
{
    int want[SMALL];
    fill(want, left, p, k);
    RXT_CHECK(memcmp(m, want, sizeof want) == 0, "%s: message %d holds %d (want %d)", what, k,
              m[0], want[0]);
}

/* Phase p: 6 sends (one ready send, to a receive posted before a barrier),
 * each finished by a different call; then the receives. */
static void phase_calls(int p)
{
    int out[6][SMALL], in[6][SMALL], flag = 0, idx = -1, outc = -1, ind[6];
    MPI_Request s[6], r[6], dup[3];
    MPI_Status st[6];

    for (int k = 0; k < 6; k++) {
        fill(out[k], rxt_rank, p, k);
        RXT_MPI(MPI_Irecv(in[k], SMALL, MPI_INT, left, p * 10 + k, MPI_COMM_WORLD, &r[k]));
    }
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* every receive posted: the ready send may go */
    for (int k = 0; k < 6; k++) {
        if (k == 5)
            RXT_MPI(MPI_Irsend(out[k], SMALL, MPI_INT, right, p * 10 + k, MPI_COMM_WORLD, &s[k]));
        else
            RXT_MPI(MPI_Isend(out[k], SMALL, MPI_INT, right, p * 10 + k, MPI_COMM_WORLD, &s[k]));
        RXT_CHECK(s[k] != MPI_REQUEST_NULL, "MPI_Isend %d returned MPI_REQUEST_NULL", k);
    }

    /* get_status leaves the request in place */
    do
        RXT_MPI(MPI_Request_get_status(s[0], &flag, &st[0]));
    while (!flag);
    RXT_CHECK(s[0] != MPI_REQUEST_NULL, "MPI_Request_get_status freed the request");
    RXT_MPI(MPI_Wait(&s[0], &st[0]));
    RXT_CHECK(s[0] == MPI_REQUEST_NULL, "MPI_Wait left the send request set");

    flag = 0;
    while (!flag)
        RXT_MPI(MPI_Test(&s[1], &flag, MPI_STATUS_IGNORE));
    RXT_CHECK(s[1] == MPI_REQUEST_NULL, "MPI_Test left the send request set");

    /* a copy of one handle twice in the array, and a null */
    dup[0] = s[2];
    dup[1] = MPI_REQUEST_NULL;
    dup[2] = s[3];
    RXT_MPI(MPI_Waitall(3, dup, st));
    RXT_CHECK(dup[0] == MPI_REQUEST_NULL && dup[2] == MPI_REQUEST_NULL, "Waitall left handles");
    int cancelled = 1;
    RXT_MPI(MPI_Test_cancelled(&st[0], &cancelled));
    RXT_CHECK(!cancelled, "a delivered send reads as cancelled");

#ifndef MPICH_VERSION /* MPICH may withdraw an unmatched send; its receive would then hang */
    RXT_MPI(MPI_Cancel(&s[4])); /* the receive is posted: the send completes normally */
    RXT_MPI(MPI_Wait(&s[4], &st[4]));
    cancelled = 1;
    RXT_MPI(MPI_Test_cancelled(&st[4], &cancelled));
    RXT_CHECK(!cancelled, "a send to a posted receive was reported cancelled");
#else
    RXT_MPI(MPI_Wait(&s[4], &st[4]));
#endif

    RXT_MPI(MPI_Request_free(&s[5]));
    RXT_CHECK(s[5] == MPI_REQUEST_NULL, "MPI_Request_free left the handle set");

    /* receives: Waitany, Waitsome, Testall, Testany, Testsome, Wait */
    int got = 0;
    RXT_MPI(MPI_Waitany(6, r, &idx, &st[0]));
    RXT_CHECK(idx >= 0 && idx < 6, "Waitany index %d", idx);
    got++;
    while (got < 3) {
        RXT_MPI(MPI_Waitsome(6, r, &outc, ind, st));
        RXT_CHECK(outc != MPI_UNDEFINED, "Waitsome found nothing active");
        got += outc;
    }
    flag = 0;
    while (!flag && got < 6) {
        RXT_MPI(MPI_Testany(6, r, &idx, &flag, &st[0]));
        if (flag && idx != MPI_UNDEFINED)
            got++;
        else
            flag = 0;
    }
    while (got < 6) {
        RXT_MPI(MPI_Testsome(6, r, &outc, ind, st));
        if (outc != MPI_UNDEFINED)
            got += outc;
    }
    RXT_MPI(MPI_Testall(6, r, &flag, MPI_STATUSES_IGNORE));
    RXT_CHECK(flag, "Testall: receives still active after all completed");
    for (int k = 0; k < 6; k++)
        check(in[k], p, k, "completion calls");
}

/* Many more sends than the transport holds before the receiver reads:
 * some complete in the call, the rest queue; order and bytes must hold. */
static void phase_burst(int p)
{
    static int out[BURST][SMALL], in[BURST][SMALL];
    static MPI_Request s[BURST], r[BURST];

    for (int k = 0; k < BURST; k++) {
        fill(out[k], rxt_rank, p, k);
        RXT_MPI(MPI_Isend(out[k], SMALL, MPI_INT, right, TAG_BURST, MPI_COMM_WORLD, &s[k]));
    }
    for (int k = 0; k < BURST; k++)
        RXT_MPI(MPI_Irecv(in[k], SMALL, MPI_INT, left, TAG_BURST, MPI_COMM_WORLD, &r[k]));
    RXT_MPI(MPI_Waitall(BURST, s, MPI_STATUSES_IGNORE));
    RXT_MPI(MPI_Waitall(BURST, r, MPI_STATUSES_IGNORE));
    for (int k = 0; k < BURST; k++) {
        RXT_CHECK(s[k] == MPI_REQUEST_NULL, "burst send %d still set", k);
        check(in[k], p, k, "burst"); /* same tag: arrival order is send order */
    }
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "p2p_isend_done");
    left = (rxt_rank + rxt_size - 1) % rxt_size;
    right = (rxt_rank + 1) % rxt_size;
    for (int p = 0; p < 20 && rxt_errs == 0; p++) {
        phase_calls(p);
        phase_burst(p);
    }
    return rxt_finish();
}
