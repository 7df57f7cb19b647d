/* SPDX-License-Identifier: MIT
 * Completion calls: MPI_Wait, Waitall, Waitany, Waitsome, Test, Testall, Testany,
 * Testsome on arrays that mix MPI_REQUEST_NULL entries with live receives (and
 * MPI_STATUSES_IGNORE), the empty status of null requests, MPI_UNDEFINED from
 * Waitany/Testany/Waitsome/Testsome once nothing is active, "not complete" answers
 * while the message cannot have been sent yet, and MPI_Request_free of a send.
 *
 * Each round: every rank posts receives from its left neighbour, checks that the
 * Test calls say "not yet", then sends "go" to the left; only on "go" from the
 * right does a rank send its messages rightwards, in a scrambled order. */
#include "rxtest.h"

enum { K = 6, NREQ = K + 3, TAG_GO = 1000 };
enum { V_WAIT, V_WAITALL, V_WAITALL_IGNORE, V_WAITANY, V_WAITSOME, V_TEST, V_TESTALL,
       V_TESTANY, V_TESTSOME, V_COUNT };
static const char *vname[V_COUNT] = { "Wait",   "Waitall",  "Waitall(IGNORE)",
                                      "Waitany", "Waitsome", "Test",
                                      "Testall", "Testany",  "Testsome" };
static int left, right;

/* slot of request i in the array: nulls at 0, 4 and the end */
static int slot(int k) { return k < 3 ? k + 1 : k + 2; }

static void check_empty(const MPI_Status *st, const char *what)
{
    int cnt = -1;
    MPI_Get_count(st, MPI_INT, &cnt);
    RXT_CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG && cnt == 0,
              "%s: status of a null request: source %d tag %d count %d (want empty)", what,
              st->MPI_SOURCE, st->MPI_TAG, cnt);
}

static void check_msg(int k, const int *buf, const MPI_Status *st, const char *what)
{
    RXT_CHECK(buf[0] == left * 1000 + k && buf[1] == k,
              "%s: message %d holds %d,%d", what, k, buf[0], buf[1]);
    if (st) {
        int cnt = -1;
        MPI_Get_count(st, MPI_INT, &cnt);
        RXT_CHECK(st->MPI_SOURCE == left && st->MPI_TAG == k && cnt == 2,
                  "%s: message %d status source %d tag %d count %d", what, k, st->MPI_SOURCE,
                  st->MPI_TAG, cnt);
    }
}

static void round_of(int v)
{
    int buf[K][2], out[K][2], done[K] = { 0 }, flag = -1, idx = -1, outc = -1, ind[NREQ];
    MPI_Request rq[NREQ], sr[K], go;
    MPI_Status st[NREQ];
    for (int i = 0; i < NREQ; i++)
        rq[i] = MPI_REQUEST_NULL;
    for (int k = 0; k < K; k++) {
        buf[k][0] = buf[k][1] = -1;
        RXT_MPI(MPI_Irecv(buf[k], 2, MPI_INT, left, k, MPI_COMM_WORLD, &rq[slot(k)]));
    }
    /* Nothing can have been sent yet: every Test answers "not complete". */
    RXT_MPI(MPI_Test(&rq[1], &flag, &st[0]));
    RXT_CHECK(flag == 0 && rq[1] != MPI_REQUEST_NULL, "%s: Test completed an unsent message",
              vname[v]);
    RXT_MPI(MPI_Testall(NREQ, rq, &flag, st));
    RXT_CHECK(flag == 0, "%s: Testall says complete before anything was sent", vname[v]);
    RXT_MPI(MPI_Testany(NREQ, rq, &idx, &flag, &st[0]));
    RXT_CHECK(flag == 0 && idx == MPI_UNDEFINED, "%s: Testany before send: flag %d index %d",
              vname[v], flag, idx);
    RXT_MPI(MPI_Testsome(NREQ, rq, &outc, ind, st));
    RXT_CHECK(outc == 0, "%s: Testsome before send gave outcount %d", vname[v], outc);

    RXT_MPI(MPI_Isend(NULL, 0, MPI_INT, left, TAG_GO, MPI_COMM_WORLD, &go));
    RXT_MPI(MPI_Recv(NULL, 0, MPI_INT, right, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int j = 0; j < K; j++) {
        int k = (j * 5 + v) % K; /* scrambled, K and 5 coprime */
        out[k][0] = rxt_rank * 1000 + k;
        out[k][1] = k;
        RXT_MPI(MPI_Isend(out[k], 2, MPI_INT, right, k, MPI_COMM_WORLD, &sr[j]));
    }

    switch (v) {
    case V_WAIT:
    case V_TEST:
        for (int k = K - 1; k >= 0; k--) {
            MPI_Request *r = &rq[slot(k)];
            if (v == V_WAIT)
                RXT_MPI(MPI_Wait(r, &st[0]));
            else
                do
                    RXT_MPI(MPI_Test(r, &flag, &st[0]));
                while (!flag);
            RXT_CHECK(*r == MPI_REQUEST_NULL, "%s: request not freed", vname[v]);
            check_msg(k, buf[k], &st[0], vname[v]);
            done[k] = 1;
        }
        break;
    case V_WAITALL:
    case V_WAITALL_IGNORE:
    case V_TESTALL:
        for (int i = 0; i < NREQ; i++)
            st[i].MPI_TAG = -12345;
        if (v == V_TESTALL)
            do
                RXT_MPI(MPI_Testall(NREQ, rq, &flag, st));
            while (!flag);
        else
            RXT_MPI(MPI_Waitall(NREQ, rq, v == V_WAITALL_IGNORE ? MPI_STATUSES_IGNORE : st));
        for (int k = 0; k < K; k++) {
            check_msg(k, buf[k], v == V_WAITALL_IGNORE ? NULL : &st[slot(k)], vname[v]);
            done[k] = 1;
        }
        if (v != V_WAITALL_IGNORE) {
            check_empty(&st[0], vname[v]);
            check_empty(&st[4], vname[v]);
            check_empty(&st[NREQ - 1], vname[v]);
        }
        break;
    case V_WAITANY:
    case V_TESTANY:
        for (int n = 0; n < K; n++) {
            idx = -1;
            if (v == V_WAITANY)
                RXT_MPI(MPI_Waitany(NREQ, rq, &idx, &st[0]));
            else
                do
                    RXT_MPI(MPI_Testany(NREQ, rq, &idx, &flag, &st[0]));
                while (!flag);
            int k = idx < 4 ? idx - 1 : idx - 2;
            if (idx < 0 || idx >= NREQ || idx == 0 || idx == 4 || idx == NREQ - 1 || done[k]) {
                RXT_CHECK(0, "%s returned index %d (null or already done)", vname[v], idx);
                continue;
            }
            RXT_CHECK(rq[idx] == MPI_REQUEST_NULL, "%s: request %d not freed", vname[v], idx);
            check_msg(k, buf[k], &st[0], vname[v]);
            done[k] = 1;
        }
        break;
    case V_WAITSOME:
    case V_TESTSOME:
        for (int got = 0; got < K;) {
            outc = -1;
            if (v == V_WAITSOME)
                RXT_MPI(MPI_Waitsome(NREQ, rq, &outc, ind, st));
            else
                RXT_MPI(MPI_Testsome(NREQ, rq, &outc, ind, st));
            RXT_CHECK(outc >= (v == V_WAITSOME ? 1 : 0) && outc <= K - got,
                      "%s gave outcount %d with %d left", vname[v], outc, K - got);
            if (outc < 0 || outc > K - got)
                break;
            for (int i = 0; i < outc; i++) {
                int id = ind[i], k = id < 4 ? id - 1 : id - 2;
                if (id <= 0 || id >= NREQ - 1 || id == 4 || done[k]) {
                    RXT_CHECK(0, "%s returned index %d (null or already done)", vname[v], id);
                    continue;
                }
                check_msg(k, buf[k], &st[i], vname[v]);
                done[k] = 1;
                got++;
            }
        }
        break;
    }
    for (int k = 0; k < K; k++)
        RXT_CHECK(done[k], "%s: message %d never completed", vname[v], k);

    /* Nothing active any more: the "any"/"some" calls say MPI_UNDEFINED. */
    MPI_Status e;
    RXT_MPI(MPI_Waitany(NREQ, rq, &idx, &e));
    RXT_CHECK(idx == MPI_UNDEFINED, "%s: Waitany on all-null gave index %d", vname[v], idx);
    check_empty(&e, "Waitany on all-null");
    flag = -1;
    RXT_MPI(MPI_Testany(NREQ, rq, &idx, &flag, &e));
    RXT_CHECK(flag != 0 && idx == MPI_UNDEFINED, "%s: Testany on all-null: flag %d index %d",
              vname[v], flag, idx);
    RXT_MPI(MPI_Waitsome(NREQ, rq, &outc, ind, st));
    RXT_CHECK(outc == MPI_UNDEFINED, "%s: Waitsome on all-null gave %d", vname[v], outc);
    RXT_MPI(MPI_Testsome(NREQ, rq, &outc, ind, st));
    RXT_CHECK(outc == MPI_UNDEFINED, "%s: Testsome on all-null gave %d", vname[v], outc);
    RXT_MPI(MPI_Testall(NREQ, rq, &flag, MPI_STATUSES_IGNORE));
    RXT_CHECK(flag != 0, "%s: Testall on all-null says incomplete", vname[v]);
    RXT_MPI(MPI_Waitall(K, sr, MPI_STATUSES_IGNORE));
    RXT_MPI(MPI_Wait(&go, MPI_STATUS_IGNORE));
}

static void check_null_wait(void)
{
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Status st;
    int flag = -1;
    st.MPI_SOURCE = 77;
    RXT_MPI(MPI_Wait(&r, &st));
    check_empty(&st, "Wait(MPI_REQUEST_NULL)");
    st.MPI_TAG = 77;
    RXT_MPI(MPI_Test(&r, &flag, &st));
    RXT_CHECK(flag != 0, "Test(MPI_REQUEST_NULL) gave flag 0");
    check_empty(&st, "Test(MPI_REQUEST_NULL)");
    RXT_MPI(MPI_Waitall(0, NULL, MPI_STATUSES_IGNORE));
}

/* A freed send request still delivers its message; the buffer is reused only after
 * the receiver says it has the data. */
static void check_request_free(void)
{
    size_t n = 200000;
    unsigned char *s = malloc(n), *r = malloc(n);
    rxt_fill(s, n, 4242 + (uint64_t)rxt_rank);
    MPI_Request sreq, rreq;
    RXT_MPI(MPI_Irecv(r, (int)n, MPI_BYTE, left, 77, MPI_COMM_WORLD, &rreq));
    RXT_MPI(MPI_Isend(s, (int)n, MPI_BYTE, right, 77, MPI_COMM_WORLD, &sreq));
    RXT_MPI(MPI_Request_free(&sreq));
    RXT_CHECK(sreq == MPI_REQUEST_NULL, "MPI_Request_free left the handle non-null");
    RXT_MPI(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
    long bad = rxt_verify(r, n, 4242 + (uint64_t)left);
    RXT_CHECK(bad < 0, "message of a freed send request: byte %ld differs", bad);
    RXT_MPI(MPI_Sendrecv(NULL, 0, MPI_BYTE, left, 78, NULL, 0, MPI_BYTE, right, 78,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    free(s);
    free(r);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "p2p_complete");
    right = (rxt_rank + 1) % rxt_size;
    left = (rxt_rank + rxt_size - 1) % rxt_size;
    check_null_wait();
    for (int v = 0; v < V_COUNT; v++)
        round_of(v);
    check_request_free();
    return rxt_finish();
}
