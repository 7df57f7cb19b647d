/* SPDX-License-Identifier: MIT
 * Groups made from others (MPI-4.1 §7.3.2): union, intersection and
 * difference, in the order the standard gives (first group's order, then
 * the second's), and the range forms of incl / excl. */
#include "group_impl.h"

#include <stdlib.h>

enum { RX_GSET_UNION, RX_GSET_INTERSECTION, RX_GSET_DIFFERENCE };

/* mark[w] = 1 for every world rank w in g */
static char *rx_group_marks(const rx_group_t *g)
{
    char *mark = calloc((size_t)rx_rt.size + 1, 1);
    for (int i = 0; mark && i < g->size; i++)
        mark[g->world[i]] = 1;
    return mark;
}

static int rx_group_set(MPI_Group group1, MPI_Group group2, int op, MPI_Group *newgroup,
                        const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_GROUP(a, group1, fn);
    RX_GET_GROUP(b, group2, fn);
    if (!newgroup)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "newgroup is NULL");
    char *in_b = rx_group_marks(b), *in_a = rx_group_marks(a);
    rx_group_t *ng = rx_group_new(a->size + b->size);
    if (!in_a || !in_b || !ng) {
        free(in_a);
        free(in_b);
        rx_group_unref(ng);
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    int n = 0;
    for (int i = 0; i < a->size; i++) {
        int w = a->world[i], keep = op == RX_GSET_UNION || (op == RX_GSET_INTERSECTION) == in_b[w];
        if (keep)
            ng->world[n++] = w;
    }
    for (int i = 0; op == RX_GSET_UNION && i < b->size; i++)
        if (!in_a[b->world[i]])
            ng->world[n++] = b->world[i];
    free(in_a);
    free(in_b);
    if (n == 0) {
        rx_group_unref(ng);
        *newgroup = MPI_GROUP_EMPTY;
        return MPI_SUCCESS;
    }
    ng->size = n;
    return rx_group_out(ng, a, newgroup, fn); /* the first group's session, if any */
}

int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return rx_group_set(group1, group2, RX_GSET_UNION, newgroup, "MPI_Group_union");
}
RX_ALIAS(Group_union)

int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return rx_group_set(group1, group2, RX_GSET_INTERSECTION, newgroup, "MPI_Group_intersection");
}
RX_ALIAS(Group_intersection)

int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return rx_group_set(group1, group2, RX_GSET_DIFFERENCE, newgroup, "MPI_Group_difference");
}
RX_ALIAS(Group_difference)

/* The ranks n triplets (first, last, stride) name, into *out (malloc'd),
 * checked: first and last valid ranks, stride not 0, every rank once. A
 * triplet whose stride points away from last names no rank. */
static int rx_group_expand(const rx_group_t *g, int n, int ranges[][3], int **out, int *count,
                           const char *fn)
{
    if (n < 0)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "negative n %d", n);
    if (n > 0 && !ranges)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "ranges is NULL");
    long long total = 0;
    for (int i = 0; i < n; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        if (first < 0 || first >= g->size || last < 0 || last >= g->size)
            return rx_mpi_err(NULL, MPI_ERR_RANK, fn,
                              "range %d: first %d or last %d outside the group (size %d)", i,
                              first, last, g->size);
        if (stride == 0)
            return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "range %d: stride 0", i);
        long long k = ((long long)last - first) / stride;
        total += k >= 0 ? k + 1 : 0;
        if (total > g->size)
            return rx_mpi_err(NULL, MPI_ERR_RANK, fn,
                              "the ranges name more ranks than the group has (%d): some twice",
                              g->size);
    }
    int *r = malloc(sizeof(int) * (size_t)(total > 0 ? total : 1));
    if (!r)
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    int m = 0;
    for (int i = 0; i < n; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        long long k = ((long long)last - first) / stride;
        for (long long j = 0; j <= k; j++)
            r[m++] = (int)(first + j * stride);
    }
    int rc = rx_group_check_ranks(g, m, r, fn);
    if (rc != MPI_SUCCESS) {
        free(r);
        return rc;
    }
    *out = r;
    *count = m;
    return MPI_SUCCESS;
}

static int rx_group_range(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup, int excl,
                          const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_GROUP(g, group, fn);
    if (!newgroup)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "newgroup is NULL");
    int *ranks = NULL, m = 0, rc = rx_group_expand(g, n, ranges, &ranks, &m, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    /* checked above: these cannot fail but for memory */
    rc = excl ? PMPI_Group_excl(group, m, ranks, newgroup) : PMPI_Group_incl(group, m, ranks, newgroup);
    free(ranks);
    return rc;
}

int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    return rx_group_range(group, n, ranges, newgroup, 0, "MPI_Group_range_incl");
}
RX_ALIAS(Group_range_incl)

int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    return rx_group_range(group, n, ranges, newgroup, 1, "MPI_Group_range_excl");
}
RX_ALIAS(Group_range_excl)
