/* SPDX-License-Identifier: MIT
 * Groups: MPI_Comm_group, MPI_Group_size/rank, MPI_Group_incl (any order),
 * MPI_Group_excl, MPI_Group_translate_ranks (members, non-members -> MPI_UNDEFINED,
 * MPI_PROC_NULL -> MPI_PROC_NULL), MPI_GROUP_EMPTY and MPI_Group_free. */
#include "rxtest.h"

static void expect_size_rank(MPI_Group g, int size, int rank, const char *what)
{
    int s = -1, r = -2;
    RXT_MPI(MPI_Group_size(g, &s));
    RXT_MPI(MPI_Group_rank(g, &r));
    RXT_CHECK(s == size && r == rank, "%s: size %d rank %d, want %d %d", what, s, r, size, rank);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "group_ops");
    int n = rxt_size, me = rxt_rank;
    MPI_Group world, self;
    RXT_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    RXT_MPI(MPI_Comm_group(MPI_COMM_SELF, &self));
    expect_size_rank(world, n, me, "group of world");
    expect_size_rank(self, 1, 0, "group of self");
    expect_size_rank(MPI_GROUP_EMPTY, 0, MPI_UNDEFINED, "MPI_GROUP_EMPTY");

    /* Reverse order: member i of `rev` is world rank n-1-i. */
    int *ranks = malloc(sizeof(int) * (size_t)(n + 2)), *out = malloc(sizeof(int) * (size_t)(n + 2));
    for (int i = 0; i < n; i++)
        ranks[i] = n - 1 - i;
    MPI_Group rev;
    RXT_MPI(MPI_Group_incl(world, n, ranks, &rev));
    expect_size_rank(rev, n, n - 1 - me, "reversed incl");

    /* Even world ranks only, by incl; the odd ones by excl of the evens. */
    int ne = (n + 1) / 2, no = n / 2;
    for (int i = 0; i < ne; i++)
        ranks[i] = 2 * i;
    MPI_Group even, odd;
    RXT_MPI(MPI_Group_incl(world, ne, ranks, &even));
    RXT_MPI(MPI_Group_excl(world, ne, ranks, &odd));
    expect_size_rank(even, ne, me % 2 ? MPI_UNDEFINED : me / 2, "evens by incl");
    expect_size_rank(odd, no, me % 2 ? me / 2 : MPI_UNDEFINED, "odds by excl");

    /* Translate every world rank (and MPI_PROC_NULL) into each group. */
    for (int i = 0; i < n; i++)
        ranks[i] = i;
    ranks[n] = MPI_PROC_NULL;
    RXT_MPI(MPI_Group_translate_ranks(world, n + 1, ranks, even, out));
    for (int i = 0; i < n; i++)
        RXT_CHECK(out[i] == (i % 2 ? MPI_UNDEFINED : i / 2), "world %d -> evens gave %d", i,
                  out[i]);
    RXT_CHECK(out[n] == MPI_PROC_NULL, "MPI_PROC_NULL -> evens gave %d", out[n]);
    RXT_MPI(MPI_Group_translate_ranks(world, n + 1, ranks, rev, out));
    for (int i = 0; i < n; i++)
        RXT_CHECK(out[i] == n - 1 - i, "world %d -> reversed gave %d", i, out[i]);
    RXT_CHECK(out[n] == MPI_PROC_NULL, "MPI_PROC_NULL -> reversed gave %d", out[n]);
    if (no > 0) {
        for (int i = 0; i < no; i++)
            ranks[i] = i;
        RXT_MPI(MPI_Group_translate_ranks(odd, no, ranks, world, out));
        for (int i = 0; i < no; i++)
            RXT_CHECK(out[i] == 2 * i + 1, "odd member %d -> world gave %d", i, out[i]);
        RXT_MPI(MPI_Group_translate_ranks(odd, no, ranks, even, out));
        for (int i = 0; i < no; i++)
            RXT_CHECK(out[i] == MPI_UNDEFINED, "odd member %d -> evens gave %d", i, out[i]);
    }
    /* Into the empty group nothing is a member; a zero-length translation is valid. */
    ranks[0] = 0;
    RXT_MPI(MPI_Group_translate_ranks(world, 1, ranks, MPI_GROUP_EMPTY, out));
    RXT_CHECK(out[0] == MPI_UNDEFINED, "world 0 -> empty gave %d", out[0]);
    RXT_MPI(MPI_Group_translate_ranks(world, 0, ranks, self, out));

    /* A subset in scrambled order, and excluding everything or nothing. */
    int m = 0;
    for (int i = n - 1; i >= 0; i -= 3)
        ranks[m++] = i;
    for (int i = n - 2; i >= 0; i -= 3)
        ranks[m++] = i;
    MPI_Group scr, none, all;
    RXT_MPI(MPI_Group_incl(world, m, ranks, &scr));
    int pos = MPI_UNDEFINED;
    for (int i = 0; i < m; i++)
        if (ranks[i] == me)
            pos = i;
    expect_size_rank(scr, m, pos, "scrambled subset");
    for (int i = 0; i < n; i++)
        ranks[i] = i;
    RXT_MPI(MPI_Group_excl(world, n, ranks, &none));
    expect_size_rank(none, 0, MPI_UNDEFINED, "excl of everybody");
    RXT_MPI(MPI_Group_excl(world, 0, ranks, &all));
    expect_size_rank(all, n, me, "excl of nobody");
    RXT_MPI(MPI_Group_translate_ranks(all, n, ranks, world, out));
    for (int i = 0; i < n; i++)
        RXT_CHECK(out[i] == i, "excl-of-nobody member %d -> world gave %d", i, out[i]);

    /* The group of a split communicator is the split's membership. */
    MPI_Comm half;
    MPI_Group hg;
    RXT_MPI(MPI_Comm_split(MPI_COMM_WORLD, me % 2, -me, &half));
    RXT_MPI(MPI_Comm_group(half, &hg));
    int hs;
    RXT_MPI(MPI_Group_size(hg, &hs));
    RXT_MPI(MPI_Group_translate_ranks(hg, hs, ranks, world, out));
    for (int i = 0; i < hs; i++) {
        /* split by parity with key -rank: members in decreasing world rank */
        int top = (n - 1) % 2 == me % 2 ? n - 1 : n - 2;
        RXT_CHECK(out[i] == top - 2 * i, "split group member %d is world %d, want %d", i, out[i],
                  top - 2 * i);
    }

    MPI_Group gs[] = { world, self, rev, even, odd, scr, none, all, hg };
    for (unsigned i = 0; i < sizeof gs / sizeof gs[0]; i++) {
        RXT_MPI(MPI_Group_free(&gs[i]));
        RXT_CHECK(gs[i] == MPI_GROUP_NULL, "MPI_Group_free left group %u non-null", i);
    }
    MPI_Comm_free(&half);
    free(ranks);
    free(out);
    return rxt_finish();
}
