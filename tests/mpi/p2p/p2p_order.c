/* SPDX-License-Identifier: MIT
 * Matching semantics: non-overtaking order per (source, communicator) for posted and
 * unexpected messages, eager and rendezvous sizes mixed (a large message sent first
 * is received first); MPI_ANY_SOURCE / MPI_ANY_TAG and specific-tag receives picking
 * the right message out of a queue; many unexpected messages (all sent before any
 * receive is posted, Barrier in between). */
#include "rxtest.h"

enum { U = 1500 };
static int left, right;

static int usize(int i) { return i % 97 == 0 ? 200000 : i % 13 == 0 ? 20000 : (i * 37) % 300; }
static uint64_t useed(int src, int i) { return ((uint64_t)src << 32) | (uint64_t)i; }

/* U messages to the right neighbour, all sent before the neighbour posts anything;
 * it first takes the tag-3 ones, then everything else with MPI_ANY_TAG: both must
 * come in send order. */
static void check_unexpected(void)
{
    unsigned char **s = malloc(sizeof(void *) * U), *r = malloc(200000);
    MPI_Request *rq = malloc(sizeof(MPI_Request) * U);
    for (int i = 0; i < U; i++) {
        s[i] = malloc((size_t)usize(i) + 1);
        rxt_fill(s[i], (size_t)usize(i), useed(rxt_rank, i));
        RXT_MPI(MPI_Isend(s[i], usize(i), MPI_BYTE, right, i % 4, MPI_COMM_WORLD, &rq[i]));
    }
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < U; i++) {
            if ((i % 4 == 3) != (pass == 0))
                continue;
            MPI_Status st;
            int cnt = -1;
            RXT_MPI(MPI_Recv(r, 200000, MPI_BYTE, left, pass == 0 ? 3 : MPI_ANY_TAG,
                             MPI_COMM_WORLD, &st));
            MPI_Get_count(&st, MPI_BYTE, &cnt);
            RXT_CHECK(st.MPI_TAG == i % 4 && cnt == usize(i),
                      "unexpected message %d: tag %d count %d, want %d %d", i, st.MPI_TAG, cnt,
                      i % 4, usize(i));
            if (cnt == usize(i)) {
                long bad = rxt_verify(r, (size_t)cnt, useed(left, i));
                RXT_CHECK(bad < 0, "unexpected message %d (%d B): byte %ld differs", i, cnt, bad);
            }
        }
    }
    RXT_MPI(MPI_Waitall(U, rq, MPI_STATUSES_IGNORE));
    for (int i = 0; i < U; i++)
        free(s[i]);
    free(s);
    free(r);
    free(rq);
}

/* Same tag, large then small then large: posted (receives first) and unexpected
 * (sends first); each receive gets the message of its position. */
static void check_large_small(void)
{
    static const int sz[4] = { 1 << 20, 10, 300000, 0 };
    unsigned char *s[4], *r[4];
    for (int k = 0; k < 4; k++) {
        s[k] = malloc((size_t)sz[k] + 1);
        r[k] = malloc((size_t)(1 << 20));
    }
    for (int posted = 0; posted < 2; posted++) {
        MPI_Request rr[4], sr[4];
        MPI_Status st[4];
        if (posted)
            for (int k = 0; k < 4; k++)
                /* (tag 9 is this phase's: later phases send other tags to rank 0) */
                RXT_MPI(MPI_Irecv(r[k], 1 << 20, MPI_BYTE, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD,
                                  &rr[k]));
        RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
        for (int k = 0; k < 4; k++) {
            rxt_fill(s[k], (size_t)sz[k], 555 + (uint64_t)k * 7 + (uint64_t)rxt_rank * 100);
            RXT_MPI(MPI_Isend(s[k], sz[k], MPI_BYTE, right, 9, MPI_COMM_WORLD, &sr[k]));
        }
        if (!posted) {
            RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
            for (int k = 0; k < 4; k++)
                RXT_MPI(MPI_Irecv(r[k], 1 << 20, MPI_BYTE, left, 9, MPI_COMM_WORLD, &rr[k]));
        }
        RXT_MPI(MPI_Waitall(4, rr, st));
        RXT_MPI(MPI_Waitall(4, sr, MPI_STATUSES_IGNORE));
        for (int k = 0; k < 4; k++) {
            int cnt = -1;
            MPI_Get_count(&st[k], MPI_BYTE, &cnt);
            RXT_CHECK(cnt == sz[k] && st[k].MPI_SOURCE == left,
                      "%s large/small %d: count %d source %d, want %d from %d",
                      posted ? "posted" : "unexpected", k, cnt, st[k].MPI_SOURCE, sz[k], left);
            if (cnt == sz[k]) {
                long bad = rxt_verify(r[k], (size_t)cnt, 555 + (uint64_t)k * 7 + (uint64_t)left * 100);
                RXT_CHECK(bad < 0, "large/small %d: byte %ld differs", k, bad);
            }
        }
    }
    for (int k = 0; k < 4; k++) {
        free(s[k]);
        free(r[k]);
    }
}

/* Everyone sends to rank 0, which receives with MPI_ANY_SOURCE: per source the
 * message numbers rise; with a specific tag, the next message of that tag. */
static void check_any_source(void)
{
    enum { M = 300 };
    if (rxt_rank != 0) {
        int msg[M][2];
        MPI_Request rq[M];
        for (int i = 0; i < M; i++) {
            msg[i][0] = rxt_rank;
            msg[i][1] = i;
            RXT_MPI(MPI_Isend(msg[i], 2, MPI_INT, 0, i % 3, MPI_COMM_WORLD, &rq[i]));
        }
        RXT_MPI(MPI_Waitall(M, rq, MPI_STATUSES_IGNORE));
        return;
    }
    int *next = calloc((size_t)rxt_size, sizeof(int));
    int *next_tag = calloc((size_t)rxt_size * 3, sizeof(int));
    for (int s = 0; s < rxt_size * 3; s++)
        next_tag[s] = s % 3;
    for (int m = 0; m < M * (rxt_size - 1); m++) {
        int got[2] = { -1, -1 }, want_tag = m % 5 == 4 ? m % 3 : MPI_ANY_TAG;
        MPI_Status st;
        /* a specific tag may be exhausted for every source: fall back to ANY_TAG */
        if (want_tag != MPI_ANY_TAG) {
            int any_left = 0;
            for (int s = 1; s < rxt_size; s++)
                any_left |= next_tag[s * 3 + want_tag] < M;
            if (!any_left)
                want_tag = MPI_ANY_TAG;
        }
        RXT_MPI(MPI_Recv(got, 2, MPI_INT, MPI_ANY_SOURCE, want_tag, MPI_COMM_WORLD, &st));
        int s = st.MPI_SOURCE, i = got[1];
        if (s < 1 || s >= rxt_size || got[0] != s || i < 0 || i >= M) {
            RXT_CHECK(0, "any-source: message (%d,%d) from source %d", got[0], i, s);
            continue;
        }
        RXT_CHECK(st.MPI_TAG == i % 3, "any-source: message %d of %d has tag %d", i, s,
                  st.MPI_TAG);
        if (want_tag == MPI_ANY_TAG) {
            /* the oldest message of that source not yet received */
            int oldest = 0;
            for (int t = 1; t < 3; t++)
                if (next_tag[s * 3 + t] < next_tag[s * 3 + oldest])
                    oldest = t;
            RXT_CHECK(i == next_tag[s * 3 + oldest], "any-tag from %d: got message %d, want %d",
                      s, i, next_tag[s * 3 + oldest]);
        } else {
            RXT_CHECK(i == next_tag[s * 3 + want_tag], "tag %d from %d: got message %d, want %d",
                      want_tag, s, i, next_tag[s * 3 + want_tag]);
        }
        next_tag[s * 3 + i % 3] = i + 3;
        next[s]++;
    }
    for (int s = 1; s < rxt_size; s++)
        RXT_CHECK(next[s] == M, "any-source: %d messages from %d, want %d", next[s], s, M);
    free(next);
    free(next_tag);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "p2p_order");
    right = (rxt_rank + 1) % rxt_size;
    left = (rxt_rank + rxt_size - 1) % rxt_size;
    check_unexpected();
    check_large_small();
    check_any_source();
    return rxt_finish();
}
