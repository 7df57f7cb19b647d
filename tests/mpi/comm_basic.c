/* SPDX-License-Identifier: MIT
 * MPI_Comm_rank/size, MPI_Comm_dup (same group, separate matching context),
 * MPI_Comm_compare (IDENT, CONGRUENT, SIMILAR, UNEQUAL) and MPI_Comm_free. */
#include "rxtest.h"

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

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "comm_basic");
    check_rank_size();

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
