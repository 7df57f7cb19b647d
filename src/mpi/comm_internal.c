/* SPDX-License-Identifier: MIT
 * Communicators for the runtime's own users: see comm_internal.h. */
#include "comm_internal.h"
#include "inter_impl.h"
#include "mpi_impl.h"

/* A communicator with no handle over g with the agreed context id. */
static int rx_comm_internal_new(rx_group_t *g, int id, rx_comm_t **out)
{
    rx_comm_t *c = rx_comm_new(g, (uint32_t)id * 2);
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

int rx_comm_derive(rx_comm_t *parent, int color, int key, rx_comm_t **out)
{
    rx_group_t *g;
    int id;
    *out = NULL;
    int rc = rx_comm_split_members(parent, color, key, &g, &id);
    if (rc != RX_OK || !g)
        return rc;
    rc = rx_comm_internal_new(g, id, out);
    rx_group_unref(g);
    return rc;
}

int rx_comm_derive_members(rx_comm_t *parent, const int *members, int n, int tag,
                           rx_comm_t **out)
{
    *out = NULL;
    rx_group_t *g = rx_group_new(n);
    if (!g)
        return RX_ERR_NOMEM;
    g->rank = -1;
    for (int i = 0; i < n; i++) {
        g->world[i] = parent->world[members[i]];
        if (members[i] == parent->rank)
            g->rank = i;
    }
    int id, rc = g->rank < 0 ? RX_ERR_INVAL : rx_group_agree_ctx(parent, g, tag, &id);
    if (rc == RX_OK)
        rc = rx_comm_internal_new(g, id, out);
    rx_group_unref(g);
    return rc;
}

void rx_comm_release_internal(rx_comm_t *c)
{
    if (c)
        rx_comm_reclaim_now(c); /* no error handler or hints to let go of */
}
