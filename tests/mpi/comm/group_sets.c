/* SPDX-License-Identifier: MIT
 * MPI_Group_union / intersection / difference and MPI_Group_range_incl / range_excl,
 * checked member by member (through MPI_Group_translate_ranks to MPI_COMM_WORLD)
 * against a serial reference, in the order the standard gives; empty results are
 * MPI_GROUP_EMPTY-like (size 0); a communicator made from a union works; bad ranges
 * are refused. */
#include "rxtest.h"

/* World ranks of g's members, in g's order. */
static int members(MPI_Group g, MPI_Group world, int *out)
{
    int n = -1;
    RXT_MPI(MPI_Group_size(g, &n));
    int *idx = malloc(sizeof(int) * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        idx[i] = i;
    if (n > 0)
        RXT_MPI(MPI_Group_translate_ranks(g, n, idx, world, out));
    free(idx);
    return n;
}

static void expect(MPI_Group g, MPI_Group world, const int *want, int nwant, const char *what)
{
    int got[64];
    int n = members(g, world, got);
    RXT_CHECK(n == nwant, "%s: size %d, expected %d", what, n, nwant);
    for (int i = 0; i < n && i < nwant; i++)
        RXT_CHECK(got[i] == want[i], "%s: member %d is world rank %d, expected %d", what, i,
                  got[i], want[i]);
    int rank = -5, mine = MPI_UNDEFINED;
    RXT_MPI(MPI_Group_rank(g, &rank));
    for (int i = 0; i < nwant; i++)
        if (want[i] == rxt_rank)
            mine = i;
    RXT_CHECK(rank == mine, "%s: my rank %d, expected %d", what, rank, mine);
}

static int in(const int *v, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x)
            return 1;
    return 0;
}

static void check_sets(MPI_Group world, MPI_Group a, const int *ra, int na, MPI_Group b,
                       const int *rb, int nb, const char *what)
{
    int want[64], n = 0;
    MPI_Group r;
    char label[96];
    for (int i = 0; i < na; i++)
        want[n++] = ra[i];
    for (int i = 0; i < nb; i++)
        if (!in(ra, na, rb[i]))
            want[n++] = rb[i];
    RXT_MPI(MPI_Group_union(a, b, &r));
    snprintf(label, sizeof label, "union %s", what);
    expect(r, world, want, n, label);
    RXT_MPI(MPI_Group_free(&r));
    n = 0;
    for (int i = 0; i < na; i++)
        if (in(rb, nb, ra[i]))
            want[n++] = ra[i];
    RXT_MPI(MPI_Group_intersection(a, b, &r));
    snprintf(label, sizeof label, "intersection %s", what);
    expect(r, world, want, n, label);
    RXT_MPI(MPI_Group_free(&r));
    n = 0;
    for (int i = 0; i < na; i++)
        if (!in(rb, nb, ra[i]))
            want[n++] = ra[i];
    RXT_MPI(MPI_Group_difference(a, b, &r));
    snprintf(label, sizeof label, "difference %s", what);
    expect(r, world, want, n, label);
    RXT_MPI(MPI_Group_free(&r));
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "group_sets");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int p = rxt_size;
    MPI_Group world, evens, upper_rev, empty;
    RXT_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));

    /* evens: 0, 2, 4, ...; upper_rev: p-1 down to p/2 */
    int rng[2][3] = {{0, p - 1, 2}, {p - 1, p / 2, -1}};
    RXT_MPI(MPI_Group_range_incl(world, 1, &rng[0], &evens));
    RXT_MPI(MPI_Group_range_incl(world, 1, &rng[1], &upper_rev));
    int ev[64], ne = 0, up[64], nu = 0, all[64];
    for (int r = 0; r < p; r += 2)
        ev[ne++] = r;
    for (int r = p - 1; r >= p / 2; r--)
        up[nu++] = r;
    for (int r = 0; r < p; r++)
        all[r] = r;
    expect(evens, world, ev, ne, "range_incl evens");
    expect(upper_rev, world, up, nu, "range_incl upper reversed");
    RXT_MPI(MPI_Group_incl(world, 0, NULL, &empty));

    check_sets(world, evens, ev, ne, upper_rev, up, nu, "evens / upper");
    check_sets(world, upper_rev, up, nu, evens, ev, ne, "upper / evens");
    check_sets(world, world, all, p, evens, ev, ne, "world / evens");
    check_sets(world, evens, ev, ne, evens, ev, ne, "evens / evens");
    check_sets(world, evens, ev, ne, empty, NULL, 0, "evens / empty");
    check_sets(world, empty, NULL, 0, world, all, p, "empty / world");

    /* range_excl of two triplets, one of them a single rank */
    int ex[2][3] = {{0, p - 1, 3}, {p - 1, p - 1, 1}};
    int nex = (p - 1) % 3 == 0 ? 1 : 2, want[64], nw = 0;
    MPI_Group g;
    RXT_MPI(MPI_Group_range_excl(world, nex, ex, &g));
    for (int r = 0; r < p; r++)
        if (r % 3 != 0 && r != p - 1)
            want[nw++] = r;
    expect(g, world, want, nw, "range_excl");
    RXT_MPI(MPI_Group_free(&g));
    RXT_MPI(MPI_Group_range_excl(world, 0, ex, &g));
    expect(g, world, all, p, "range_excl of nothing");
    RXT_MPI(MPI_Group_free(&g));

    /* a communicator over a union: world reordered as upper then evens */
    MPI_Group u;
    MPI_Comm c;
    RXT_MPI(MPI_Group_union(upper_rev, evens, &u));
    RXT_MPI(MPI_Comm_create(MPI_COMM_WORLD, u, &c));
    if (c != MPI_COMM_NULL) {
        int sum = 0;
        RXT_MPI(MPI_Allreduce(&rxt_rank, &sum, 1, MPI_INT, MPI_SUM, c));
        int ws = 0, nmem = 0, mem[64];
        nmem = members(u, world, mem);
        for (int i = 0; i < nmem; i++)
            ws += mem[i];
        RXT_CHECK(sum == ws, "allreduce over the union communicator: %d, expected %d", sum, ws);
        RXT_MPI(MPI_Comm_free(&c));
    }
    RXT_MPI(MPI_Group_free(&u));

    /* refused: stride 0, a rank outside, a rank twice */
    int bad0[1][3] = {{0, 0, 0}}, bad1[1][3] = {{0, p, 1}}, bad2[2][3] = {{0, 0, 1}, {0, 0, 1}};
    RXT_EXPECT_EITHER(MPI_ERR_ARG, MPI_ERR_RANK, MPI_Group_range_incl(world, 1, bad0, &g));
    RXT_EXPECT_EITHER(MPI_ERR_ARG, MPI_ERR_RANK, MPI_Group_range_incl(world, 1, bad1, &g));
    RXT_EXPECT_EITHER(MPI_ERR_ARG, MPI_ERR_RANK, MPI_Group_range_excl(world, 2, bad2, &g));
    RXT_EXPECT_CLASS(MPI_ERR_GROUP, MPI_Group_union(MPI_GROUP_NULL, world, &g));

    MPI_Group *fr[] = {&world, &evens, &upper_rev};
    for (int i = 0; i < 3; i++)
        RXT_MPI(MPI_Group_free(fr[i]));
    if (empty != MPI_GROUP_EMPTY)
        RXT_MPI(MPI_Group_free(&empty));
    return rxt_finish();
}
