/* SPDX-License-Identifier: MIT
 * Communicators for the runtime's own users: see comm_internal.h. */
#include "comm_internal.h"
#include "inter_impl.h"
#include "mpi_impl.h"

#include <stdlib.h>

/* The members of the caller's color in split order (*g NULL for a negative
 * color) and the context id agreed for the new communicators: what
 * MPI_Comm_split computes on an intracommunicator. */
static int rx_comm_split_members(rx_comm_t *c, int color, int key, rx_group_t **g, int *id)
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

int rx_comm_derive(rx_comm_t *parent, int color, int key, rx_comm_t **out)
{
    rx_group_t *g;
    int id;
    *out = NULL;
    int rc = rx_comm_split_members(parent, color, key, &g, &id);
    if (rc != RX_OK || !g)
        return rc;
    rx_comm_t *c = rx_comm_new(g, (uint32_t)id * 2);
    rx_group_unref(g);
    if (!c)
        return RX_ERR_NOMEM;
    c->handle = rx_htab_add(&rx_comm_table, c, 3);
    if (c->handle < 0) {
        rx_comm_destroy(c);
        return RX_ERR_NOMEM;
    }
    rx_htab_retire(&rx_comm_table, c->handle);
    rx_ctx_take(id);
    *out = c;
    return RX_OK;
}

void rx_comm_release_internal(rx_comm_t *c)
{
    if (c)
        rx_comm_reclaim_now(c); /* no error handler or hints to let go of */
}
