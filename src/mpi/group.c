/* SPDX-License-Identifier: MIT
 * Groups. */
#include "group_impl.h"
#include "bsend.h"

#include <stdlib.h>
#include <string.h>

rx_htab_t rx_group_table = {.kind = RX_KIND_GROUP};

int rx_group_register(rx_group_t *g)
{
    g->handle = rx_htab_add(&rx_group_table, g, 1);
    return g->handle < 0 ? RX_ERR_NOMEM : RX_OK;
}

int rx_group_compare(const rx_group_t *a, const rx_group_t *b)
{
    if (a->size != b->size)
        return MPI_UNEQUAL;
    int same_order = 1;
    for (int i = 0; i < a->size; i++) {
        if (a->world[i] != b->world[i])
            same_order = 0;
        if (rx_group_rank_of(b, a->world[i]) == MPI_UNDEFINED)
            return MPI_UNEQUAL;
    }
    return same_order ? MPI_IDENT : MPI_SIMILAR;
}

int PMPI_Group_size(MPI_Group group, int *size)
{
    RX_CHECK_INIT("MPI_Group_size");
    RX_GET_GROUP(g, group, "MPI_Group_size");
    if (!size)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Group_size", "size is NULL");
    *size = g->size;
    return MPI_SUCCESS;
}
RX_ALIAS(Group_size)

int PMPI_Group_rank(MPI_Group group, int *rank)
{
    RX_CHECK_INIT("MPI_Group_rank");
    RX_GET_GROUP(g, group, "MPI_Group_rank");
    if (!rank)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Group_rank", "rank is NULL");
    *rank = rx_group_rank_of(g, rx_rt.rank);
    return MPI_SUCCESS;
}
RX_ALIAS(Group_rank)

int rx_group_out(rx_group_t *ng, const rx_group_t *from, MPI_Group *newgroup, const char *fn)
{
    ng->rank = rx_group_rank_of(ng, rx_rt.rank);
    if (rx_group_register(ng) != RX_OK) {
        rx_group_unref(ng);
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, fn, "out of handles");
    }
    rx_bbuf_group_derived(from, ng);
    *newgroup = RX_HANDLE(RX_KIND_GROUP, ng->handle);
    return MPI_SUCCESS;
}

/* Ranks must be valid and distinct (MPI-3.1 6.3.2). */
int rx_group_check_ranks(const rx_group_t *g, int n, const int ranks[], const char *fn)
{
    if (n < 0 || n > g->size)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "n = %d outside 0..%d", n, g->size);
    if (n > 0 && !ranks)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "ranks is NULL");
    char *seen = calloc((size_t)g->size + 1, 1);
    if (!seen)
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= g->size) {
            free(seen);
            return rx_mpi_err(NULL, MPI_ERR_RANK, fn, "rank %d outside the group (size %d)",
                              ranks[i], g->size);
        }
        if (seen[ranks[i]]++) {
            free(seen);
            return rx_mpi_err(NULL, MPI_ERR_RANK, fn, "rank %d listed twice", ranks[i]);
        }
    }
    free(seen);
    return MPI_SUCCESS;
}

int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    RX_CHECK_INIT("MPI_Group_incl");
    RX_GET_GROUP(g, group, "MPI_Group_incl");
    if (!newgroup)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Group_incl", "newgroup is NULL");
    int rc = rx_group_check_ranks(g, n, ranks, "MPI_Group_incl");
    if (rc != MPI_SUCCESS)
        return rc;
    if (n == 0) {
        *newgroup = MPI_GROUP_EMPTY;
        return MPI_SUCCESS;
    }
    rx_group_t *ng = rx_group_new(n);
    if (!ng)
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, "MPI_Group_incl", "out of memory");
    for (int i = 0; i < n; i++)
        ng->world[i] = g->world[ranks[i]];
    return rx_group_out(ng, g, newgroup, "MPI_Group_incl");
}
RX_ALIAS(Group_incl)

int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    RX_CHECK_INIT("MPI_Group_excl");
    RX_GET_GROUP(g, group, "MPI_Group_excl");
    if (!newgroup)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Group_excl", "newgroup is NULL");
    int rc = rx_group_check_ranks(g, n, ranks, "MPI_Group_excl");
    if (rc != MPI_SUCCESS)
        return rc;
    if (n == g->size) {
        *newgroup = MPI_GROUP_EMPTY;
        return MPI_SUCCESS;
    }
    char *drop = calloc((size_t)g->size, 1);
    rx_group_t *ng = rx_group_new(g->size - n);
    if (!drop || !ng) {
        free(drop);
        rx_group_unref(ng);
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, "MPI_Group_excl", "out of memory");
    }
    for (int i = 0; i < n; i++)
        drop[ranks[i]] = 1;
    int k = 0;
    for (int i = 0; i < g->size; i++)
        if (!drop[i])
            ng->world[k++] = g->world[i];
    free(drop);
    return rx_group_out(ng, g, newgroup, "MPI_Group_excl");
}
RX_ALIAS(Group_excl)

int PMPI_Group_free(MPI_Group *group)
{
    RX_CHECK_INIT("MPI_Group_free");
    if (!group)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Group_free", "group is NULL");
    RX_GET_GROUP(g, *group, "MPI_Group_free");
    if (*group != MPI_GROUP_EMPTY) {
        rx_htab_del(&rx_group_table, g->handle);
        rx_group_unref(g);
    }
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}
RX_ALIAS(Group_free)

int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                               int ranks2[])
{
    const char *fn = "MPI_Group_translate_ranks";
    RX_CHECK_INIT(fn);
    RX_GET_GROUP(a, group1, fn);
    RX_GET_GROUP(b, group2, fn);
    if (n < 0)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "negative n %d", n);
    if (n > 0 && (!ranks1 || !ranks2))
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "NULL rank array");
    for (int i = 0; i < n; i++)
        if (ranks1[i] != MPI_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= a->size))
            return rx_mpi_err(NULL, MPI_ERR_RANK, fn, "rank %d outside group1 (size %d)",
                              ranks1[i], a->size);
    for (int i = 0; i < n; i++)
        ranks2[i] = ranks1[i] == MPI_PROC_NULL ? MPI_PROC_NULL
                                               : rx_group_rank_of(b, a->world[ranks1[i]]);
    return MPI_SUCCESS;
}
RX_ALIAS(Group_translate_ranks)

int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
    RX_CHECK_INIT("MPI_Group_compare");
    RX_GET_GROUP(a, group1, "MPI_Group_compare");
    RX_GET_GROUP(b, group2, "MPI_Group_compare");
    if (!result)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Group_compare", "result is NULL");
    *result = rx_group_compare(a, b);
    return MPI_SUCCESS;
}
RX_ALIAS(Group_compare)
