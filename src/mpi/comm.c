/* SPDX-License-Identifier: MIT
 * Communicators: the predefined ones, creation (dup, split) with context-id
 * agreement, comparison, names. Attributes live in attr.c. */
#include "mpi_impl.h"
#include "bsend.h"
#include "comm_internal.h"
#include "info_impl.h"
#include "inter_impl.h"
#include "coll/neighbor.h"
#include "dtype/basic.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

rx_htab_t rx_comm_table = {.kind = RX_KIND_COMM};

static int rx_comm_register(rx_comm_t *c, int index)
{
    if (index > 0) {
        if (rx_htab_set(&rx_comm_table, index, c) != RX_OK)
            return RX_ERR_NOMEM;
        c->handle = index;
        return RX_OK;
    }
    c->handle = rx_htab_add(&rx_comm_table, c, 3);
    return c->handle < 0 ? RX_ERR_NOMEM : RX_OK;
}

int rx_comm_init_predefined(void)
{
    rx_comm_reclaim = rx_comm_reclaim_now;
    rx_group_t *wg = rx_group_new(rx_rt.size), *sg = rx_group_new(1), *eg = rx_group_new(0);
    if (!wg || !sg || !eg)
        return RX_ERR_NOMEM;
    for (int i = 0; i < rx_rt.size; i++)
        wg->world[i] = i;
    wg->rank = rx_rt.rank;
    sg->world[0] = rx_rt.rank;
    sg->rank = 0;
    if (rx_group_register(eg) != RX_OK) /* MPI_GROUP_EMPTY is index 1 */
        return RX_ERR_NOMEM;
    rx_comm_t *w = rx_comm_new(wg, 0), *s = rx_comm_new(sg, 2);
    rx_group_unref(wg);
    rx_group_unref(sg);
    if (!w || !s)
        return RX_ERR_NOMEM;
    rx_ctx_take(0);
    rx_ctx_take(1);
    w->errhandler = s->errhandler = MPI_ERRORS_ARE_FATAL;
    strcpy(w->name, "MPI_COMM_WORLD");
    strcpy(s->name, "MPI_COMM_SELF");
    if (rx_comm_register(w, 1) != RX_OK || rx_comm_register(s, 2) != RX_OK)
        return RX_ERR_NOMEM;
    return RX_OK;
}

void rx_comm_fini_all(void)
{
    for (int i = 1; i < rx_comm_table.n; i++) {
        rx_comm_t *c = rx_comm_table.slot[i];
        if (c) {
            rx_attr_delete_all(c);
            rx_coll_comm_release(c);
            rx_info_destroy(c->hints);
            rx_comm_destroy(c);
        }
    }
    rx_htab_free(&rx_comm_table);
    for (int i = 1; i < rx_group_table.n; i++)
        if (rx_group_table.slot[i])
            rx_group_unref(rx_group_table.slot[i]);
    rx_htab_free(&rx_group_table);
}


int rx_comm_make(rx_comm_t *parent, rx_group_t *g, int id, MPI_Comm *out, const char *fn)
{
    rx_comm_t *c = rx_comm_new(g, (uint32_t)id * 2);
    if (!c || rx_comm_register(c, 0) != RX_OK) {
        rx_comm_destroy(c);
        return rx_mpi_err(parent, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    rx_ctx_take(id);
    c->errhandler = parent->errhandler;
    rx_errh_attach(c->errhandler);
    rx_bbuf_comm_inherit(parent, c); /* the session it derives from */
    *out = rx_comm_handle(c);
    return MPI_SUCCESS;
}

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    RX_CHECK_INIT("MPI_Comm_dup");
    RX_GET_COMM(c, comm, "MPI_Comm_dup");
    if (!newcomm)
        return rx_mpi_err(c, MPI_ERR_ARG, "MPI_Comm_dup", "newcomm is NULL");
    int rc;
    if (c->remote) {
        rc = rx_inter_split(c, 0, c->rank, newcomm, "MPI_Comm_dup");
    } else {
        int id;
        if ((rc = rx_comm_agree_ctx(c, &id)) != RX_OK)
            return rx_mpi_err(c, rx_mpi_class_of(rc), "MPI_Comm_dup", "no free context id");
        rc = rx_comm_make(c, c->group, id, newcomm, "MPI_Comm_dup");
    }
    if (rc != MPI_SUCCESS)
        return rc;
    rx_comm_t *n = rx_comm_get(*newcomm);
    if (c->topo && !(n->topo = rx_topo_copy(c->topo))) /* a duplicate keeps the topology */
        return rx_mpi_err(c, MPI_ERR_NO_MEM, "MPI_Comm_dup", "out of memory");
    n->topo_kind = c->topo ? c->topo_kind : 0;
    if (c->hints && !(n->hints = rx_info_copy(c->hints))) /* and the hints (MPI-3.1 6.4.2) */
        return rx_mpi_err(c, MPI_ERR_NO_MEM, "MPI_Comm_dup", "out of memory");
    if ((rc = rx_attr_copy_all(c, n)) != RX_OK) {
        /* the half-made duplicate goes (delete callbacks run for what was copied) */
        PMPI_Comm_free(newcomm);
        return rx_mpi_err(c, rc == RX_ERR_NOMEM ? MPI_ERR_NO_MEM : rc, "MPI_Comm_dup",
                          "an attribute copy callback failed");
    }
    return MPI_SUCCESS;
}
RX_ALIAS(Comm_dup)

typedef struct { int color, key, rank; } rx_split_entry_t;

static int rx_split_cmp(const void *a, const void *b)
{
    const rx_split_entry_t *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->rank - y->rank;
}

rx_group_t *rx_split_group(const int *all, int p, const int *world, int color, int me)
{
    rx_split_entry_t *sel = malloc(sizeof *sel * (size_t)(p > 0 ? p : 1));
    if (!sel)
        return NULL;
    int n = 0;
    for (int r = 0; r < p; r++)
        if (all[2 * r] == color)
            sel[n++] = (rx_split_entry_t){color, all[2 * r + 1], r};
    qsort(sel, (size_t)n, sizeof *sel, rx_split_cmp);
    rx_group_t *g = rx_group_new(n);
    for (int i = 0; g && i < n; i++) {
        g->world[i] = world[sel[i].rank];
        if (sel[i].rank == me)
            g->rank = i;
    }
    free(sel);
    return g;
}

int rx_comm_split_members(rx_comm_t *c, int color, int key, rx_group_t **g, int *id)
{
    *g = NULL;
    *id = -1;
    int p = c->size, mine[2] = {color < 0 ? MPI_UNDEFINED : color, key};
    int *all = malloc(sizeof(int) * 2 * (size_t)p);
    if (!all)
        return RX_ERR_NOMEM;
    int rc = rx_coll_allgather(mine, sizeof mine, all, c);
    if (rc == RX_OK)
        rc = rx_comm_agree_ctx(c, id);
    if (rc == RX_OK && color >= 0 && !(*g = rx_split_group(all, p, c->world, color, c->rank)))
        rc = RX_ERR_NOMEM;
    free(all);
    return rc;
}

int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    RX_CHECK_INIT("MPI_Comm_split");
    RX_GET_COMM(c, comm, "MPI_Comm_split");
    if (!newcomm)
        return rx_mpi_err(c, MPI_ERR_ARG, "MPI_Comm_split", "newcomm is NULL");
    if (color < 0 && color != MPI_UNDEFINED)
        return rx_mpi_err(c, MPI_ERR_ARG, "MPI_Comm_split", "negative color %d", color);
    if (c->remote)
        return rx_inter_split(c, color, key, newcomm, "MPI_Comm_split");
    rx_group_t *g;
    int id;
    int rc = rx_comm_split_members(c, color, key, &g, &id);
    if (rc != RX_OK)
        return rx_mpi_err(c, rx_mpi_class_of(rc), "MPI_Comm_split", "%s", rx_status_string(rc));
    if (!g) {
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    rc = rx_comm_make(c, g, id, newcomm, "MPI_Comm_split");
    rx_group_unref(g);
    return rc;
}
RX_ALIAS(Comm_split)

void rx_comm_reclaim_now(rx_comm_t *c)
{
    if (c->remote)
        rx_inter_release(c);
    rx_coll_comm_release(c);
    rx_ctx_release((int)(c->ctx / 2));
    rx_bbuf_comm_gone(c);
    rx_htab_del(&rx_comm_table, c->handle);
    rx_errh_detach(c->errhandler);
    rx_info_destroy(c->hints);
    rx_comm_destroy(c);
}

int PMPI_Comm_free(MPI_Comm *comm)
{
    RX_CHECK_INIT("MPI_Comm_free");
    if (!comm)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Comm_free", "comm is NULL");
    RX_GET_COMM(c, *comm, "MPI_Comm_free");
    if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
        return rx_mpi_err(c, MPI_ERR_COMM, "MPI_Comm_free", "cannot free %s", c->name);
    rx_attr_delete_all(c);
    *comm = MPI_COMM_NULL;
    if (c->busy) {
        /* operations in flight complete normally (MPI 4.1 §7.4.3); the last one reclaims it */
        c->freed = 1;
        return MPI_SUCCESS;
    }
    rx_comm_reclaim_now(c);
    return MPI_SUCCESS;
}
RX_ALIAS(Comm_free)

int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
    RX_CHECK_INIT("MPI_Comm_rank");
    RX_GET_COMM(c, comm, "MPI_Comm_rank");
    if (!rank)
        return rx_mpi_err(c, MPI_ERR_ARG, "MPI_Comm_rank", "rank is NULL");
    *rank = c->rank;
    return MPI_SUCCESS;
}
RX_ALIAS(Comm_rank)

int PMPI_Comm_size(MPI_Comm comm, int *size)
{
    RX_CHECK_INIT("MPI_Comm_size");
    RX_GET_COMM(c, comm, "MPI_Comm_size");
    if (!size)
        return rx_mpi_err(c, MPI_ERR_ARG, "MPI_Comm_size", "size is NULL");
    *size = c->size;
    return MPI_SUCCESS;
}
RX_ALIAS(Comm_size)

int rx_group_compare(const rx_group_t *a, const rx_group_t *b);

int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    RX_CHECK_INIT("MPI_Comm_compare");
    RX_GET_COMM(a, comm1, "MPI_Comm_compare");
    RX_GET_COMM(b, comm2, "MPI_Comm_compare");
    if (!result)
        return rx_mpi_err(a, MPI_ERR_ARG, "MPI_Comm_compare", "result is NULL");
    if (a == b) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    int g = rx_group_compare(a->group, b->group);
    if (!a->remote != !b->remote) /* an intra- and an intercommunicator */
        g = MPI_UNEQUAL;
    else if (a->remote) /* both groups count: the result is the weaker of the two */
        g = rx_inter_compare_worse(g, rx_group_compare(a->remote, b->remote));
    *result = g == MPI_IDENT ? MPI_CONGRUENT : g;
    return MPI_SUCCESS;
}
RX_ALIAS(Comm_compare)

int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    RX_CHECK_INIT("MPI_Comm_group");
    RX_GET_COMM(c, comm, "MPI_Comm_group");
    if (!group)
        return rx_mpi_err(c, MPI_ERR_ARG, "MPI_Comm_group", "group is NULL");
    rx_group_t *g = rx_group_new(c->size);
    if (!g)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, "MPI_Comm_group", "out of memory");
    memcpy(g->world, c->group->world, sizeof(int) * (size_t)c->size);
    g->rank = c->rank;
    if (rx_group_register(g) != RX_OK) {
        rx_group_unref(g);
        return rx_mpi_err(c, MPI_ERR_NO_MEM, "MPI_Comm_group", "out of handles");
    }
    *group = RX_HANDLE(RX_KIND_GROUP, g->handle);
    return MPI_SUCCESS;
}
RX_ALIAS(Comm_group)

int PMPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    RX_CHECK_INIT("MPI_Comm_test_inter");
    RX_GET_COMM(c, comm, "MPI_Comm_test_inter");
    if (!flag)
        return rx_mpi_err(c, MPI_ERR_ARG, "MPI_Comm_test_inter", "flag is NULL");
    *flag = c->remote != NULL;
    return MPI_SUCCESS;
}
RX_ALIAS(Comm_test_inter)

int PMPI_Comm_set_name(MPI_Comm comm, const char *name)
{
    RX_CHECK_INIT("MPI_Comm_set_name");
    RX_GET_COMM(c, comm, "MPI_Comm_set_name");
    if (!name)
        return rx_mpi_err(c, MPI_ERR_ARG, "MPI_Comm_set_name", "name is NULL");
    snprintf(c->name, sizeof c->name, "%s", name);
    return MPI_SUCCESS;
}
RX_ALIAS(Comm_set_name)

int PMPI_Comm_get_name(MPI_Comm comm, char *name, int *resultlen)
{
    RX_CHECK_INIT("MPI_Comm_get_name");
    RX_GET_COMM(c, comm, "MPI_Comm_get_name");
    if (!name || !resultlen)
        return rx_mpi_err(c, MPI_ERR_ARG, "MPI_Comm_get_name", "NULL argument");
    *resultlen = snprintf(name, MPI_MAX_OBJECT_NAME, "%s", c->name);
    return MPI_SUCCESS;
}
RX_ALIAS(Comm_get_name)
