/* SPDX-License-Identifier: MIT
 * MPI_Comm_rank/size, MPI_Comm_dup (same group, separate matching context),
 * MPI_Comm_compare (IDENT, CONGRUENT, SIMILAR, UNEQUAL) and MPI_Comm_free. */
#include "rxtest.h"

#include <stdlib.h>
#include <string.h>

static void check_rank_size(void)
{
    RXT_CHECK(rxt_size >= 1 && rxt_rank >= 0 && rxt_rank < rxt_size, "rank %d of size %d",
              rxt_rank, rxt_size);
    /* Ranks are a permutation of 0..size-1: the sum and the sum of squares agree. */
    long mine[2] = { rxt_rank, (long)rxt_rank * rxt_rank }, sum[2];
    RXT_MPI(MPI_Allreduce(mine, sum, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    long n = rxt_size;
    RXT_CHECK(sum[0] == n * (n - 1) / 2 && sum[1] == (n - 1) * n * (2 * n - 1) / 6,
              "ranks are not 0..%ld exactly once (sum %ld, squares %ld)", n - 1, sum[0], sum[1]);

    int r = -1, s = -1;
    RXT_MPI(MPI_Comm_rank(MPI_COMM_SELF, &r));
    RXT_MPI(MPI_Comm_size(MPI_COMM_SELF, &s));
    RXT_CHECK(r == 0 && s == 1, "MPI_COMM_SELF rank %d size %d", r, s);
}

/* A message sent on one communicator is never received on another, even with the
 * same source and tag: send on dup first, then on world; receive world first. */
static void check_isolation(MPI_Comm dup)
{
    if (rxt_size < 2)
        return;
    int peer = rxt_rank ^ 1;
    if (peer >= rxt_size)
        return;
    int a = 1000 + rxt_rank, b = 2000 + rxt_rank, ra = -1, rb = -1;
    MPI_Request rq[2];
    RXT_MPI(MPI_Isend(&b, 1, MPI_INT, peer, 5, dup, &rq[0]));
    RXT_MPI(MPI_Isend(&a, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, &rq[1]));
    RXT_MPI(MPI_Recv(&ra, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    RXT_MPI(MPI_Recv(&rb, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, MPI_STATUS_IGNORE));
    RXT_MPI(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    RXT_CHECK(ra == 1000 + peer, "world message crossed communicators: got %d want %d", ra,
              1000 + peer);
    RXT_CHECK(rb == 2000 + peer, "dup message crossed communicators: got %d want %d", rb,
              2000 + peer);
}

static void expect_compare(MPI_Comm a, MPI_Comm b, int want, const char *what)
{
    int res = -1;
    RXT_MPI(MPI_Comm_compare(a, b, &res));
    RXT_CHECK(res == want, "MPI_Comm_compare(%s) gave %d, want %d", what, res, want);
}

/* MPI_Comm_free with point-to-point operations still pending: they complete
 * normally (MPI 4.1 §7.4.3), eager, rendezvous, persistent and buffered,
 * and a communicator made meanwhile does not receive their traffic
 * (nonblocking collectives: coll_offload). */
static void check_free_pending(void)
{
    if (rxt_size < 2)
        return;
    int me = rxt_rank, peer = me ^ 1;
    if (peer >= rxt_size)
        peer = me; /* the odd last rank talks to itself */
    enum { BIG = 1 << 20, SMALL = 64 };
    char *big_s = malloc(BIG), *big_r = malloc(BIG);
    int small_s[SMALL], small_r[SMALL], pers_s = 1000 + me, pers_r = -1;
    for (int i = 0; i < BIG; i++)
        big_s[i] = (char)(i * 7 + me);
    for (int i = 0; i < SMALL; i++)
        small_s[i] = me * 1000 + i;
    int bsize = SMALL * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
    char *bbuf = malloc((size_t)bsize);
    RXT_MPI(MPI_Buffer_attach(bbuf, bsize));
    for (int round = 0; round < 3; round++) {
        MPI_Comm d;
        RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
        MPI_Request rq[4];
        RXT_MPI(MPI_Irecv(big_r, BIG, MPI_CHAR, peer, 1, d, &rq[0]));
        RXT_MPI(MPI_Irecv(small_r, SMALL, MPI_INT, peer, 2, d, &rq[1]));
        RXT_MPI(MPI_Isend(big_s, BIG, MPI_CHAR, peer, 1, d, &rq[2]));
        int small_b[SMALL];
        memcpy(small_b, small_s, sizeof small_b);
        RXT_MPI(MPI_Ibsend(small_b, SMALL, MPI_INT, peer, 2, d, &rq[3]));
        RXT_MPI(MPI_Comm_free(&d));
        RXT_CHECK(d == MPI_COMM_NULL, "freed handle not MPI_COMM_NULL");
        /* a communicator made now must not take the context id of the freed
         * one while its operations are pending: same tags, other traffic */
        MPI_Comm e;
        RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &e));
        int x = me, y = -1, x2 = -me, y2 = 1;
        RXT_MPI(MPI_Sendrecv(&x, 1, MPI_INT, peer, 1, &y, 1, MPI_INT, peer, 1, e, MPI_STATUS_IGNORE));
        RXT_MPI(MPI_Sendrecv(&x2, 1, MPI_INT, peer, 2, &y2, 1, MPI_INT, peer, 2, e, MPI_STATUS_IGNORE));
        RXT_CHECK(y == peer && y2 == -peer, "round %d: new communicator got %d %d", round, y, y2);
        RXT_MPI(MPI_Comm_free(&e));
        RXT_MPI(MPI_Waitall(4, rq, MPI_STATUSES_IGNORE));
        int bad = 0;
        for (int i = 0; i < BIG && !bad; i++)
            bad = big_r[i] != (char)(i * 7 + peer);
        RXT_CHECK(!bad, "round %d: rendezvous message wrong after MPI_Comm_free", round);
        for (int i = 0; i < SMALL; i++)
            RXT_CHECK(small_r[i] == peer * 1000 + i, "round %d: eager [%d] = %d", round, i,
                      small_r[i]);

        /* persistent requests keep their communicator for their whole life */
        RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
        RXT_MPI(MPI_Recv_init(&pers_r, 1, MPI_INT, peer, 3, d, &rq[0]));
        RXT_MPI(MPI_Send_init(&pers_s, 1, MPI_INT, peer, 3, d, &rq[1]));
        RXT_MPI(MPI_Comm_free(&d));
        for (int k = 0; k < 2; k++) {
            pers_r = -1;
            RXT_MPI(MPI_Startall(2, rq));
            RXT_MPI(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
            RXT_CHECK(pers_r == 1000 + peer, "round %d: persistent %d", round, pers_r);
        }
        RXT_MPI(MPI_Request_free(&rq[0]));
        RXT_MPI(MPI_Request_free(&rq[1]));
    }
    void *b;
    int bs;
    RXT_MPI(MPI_Buffer_detach(&b, &bs));
    free(bbuf);
    free(big_s);
    free(big_r);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "comm_basic");
    check_rank_size();
    check_free_pending();

    MPI_Comm dup = MPI_COMM_NULL, dup2 = MPI_COMM_NULL;
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    int r = -1, s = -1;
    RXT_MPI(MPI_Comm_rank(dup, &r));
    RXT_MPI(MPI_Comm_size(dup, &s));
    RXT_CHECK(r == rxt_rank && s == rxt_size, "dup has rank %d size %d, world %d %d", r, s,
              rxt_rank, rxt_size);
    RXT_MPI(MPI_Comm_dup(dup, &dup2));
    check_isolation(dup);
    check_isolation(dup2);

    expect_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, MPI_IDENT, "world, world");
    expect_compare(dup, dup, MPI_IDENT, "dup, dup");
    expect_compare(MPI_COMM_WORLD, dup, MPI_CONGRUENT, "world, dup");
    expect_compare(dup, dup2, MPI_CONGRUENT, "dup, dup of dup");
    expect_compare(MPI_COMM_SELF, MPI_COMM_SELF, MPI_IDENT, "self, self");
    expect_compare(MPI_COMM_WORLD, MPI_COMM_SELF, rxt_size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL,
                   "world, self");

    /* Same members, reversed order: SIMILAR (CONGRUENT when there is one rank). */
    MPI_Comm rev = MPI_COMM_NULL;
    RXT_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, rxt_size - rxt_rank, &rev));
    expect_compare(MPI_COMM_WORLD, rev, rxt_size == 1 ? MPI_CONGRUENT : MPI_SIMILAR,
                   "world, reversed");
    /* Half of the ranks: a different group, UNEQUAL. */
    MPI_Comm half = MPI_COMM_NULL;
    RXT_MPI(MPI_Comm_split(MPI_COMM_WORLD, rxt_rank < (rxt_size + 1) / 2, rxt_rank, &half));
    expect_compare(MPI_COMM_WORLD, half, rxt_size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL,
                   "world, half");
    expect_compare(half, rev, rxt_size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL, "half, reversed");

    MPI_Comm comms[4] = { dup, dup2, rev, half };
    for (int i = 0; i < 4; i++) {
        RXT_MPI(MPI_Comm_free(&comms[i]));
        RXT_CHECK(comms[i] == MPI_COMM_NULL, "MPI_Comm_free left handle %d non-null", i);
    }

    /* Many dup/free cycles: context ids must be recycled, not exhausted. The count
     * does not depend on the rank count, so the long run is kept to small jobs
     * (implementations that busy-poll take ~20 ms a dup when oversubscribed). */
    int cycles = rxt_size <= 2 ? 5000 : 40;
    for (int i = 0; i < cycles; i++) {
        MPI_Comm c;
        RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        if (i % 1000 == 0)
            check_isolation(c);
        RXT_MPI(MPI_Comm_free(&c));
    }
    return rxt_finish();
}
