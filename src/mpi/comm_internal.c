/* SPDX-License-Identifier: MIT
 * Communicators for the runtime's own users: see comm_internal.h. */
#include "comm_internal.h"
#include "inter_impl.h"
#include "mpi_impl.h"

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
