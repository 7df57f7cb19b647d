/* SPDX-License-Identifier: MIT
 * Regions shared by the members of a communicator that share a node: one
 * for a communicator whose members are all on one node (e.g. from
 * MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)), or one per node group of a
 * communicator across nodes (the node phases of hierarchical collectives).
 * Names and votes go by schedules run directly, never by the node path,
 * which needs such a region itself. */
#include "coll.h"
#include "op/op.h"
#include "core/rt.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

int rx_coll_shared_region(rx_comm_t *c, size_t size, void **addr)
{
    return rx_coll_shared_region_vote(c, size, addr, NULL);
}

int rx_coll_shared_region_vote(rx_comm_t *c, size_t size, void **addr, int *vote)
{
    if (c->local_size != c->size)
        return RX_ERR_INVAL;
    return rx_coll_group_region(c, 0, size, addr, vote);
}

int rx_coll_group_region(rx_comm_t *c, int maker, size_t size, void **addr, int *vote)
{
    int rc = RX_OK, me = c->rank;
    char *names = calloc((size_t)c->size, RX_REGION_NAME_MAX);
    if (!names)
        return RX_ERR_NOMEM; /* every member has the same few bytes to spare, or none */
    char *mine = names + (size_t)me * RX_REGION_NAME_MAX;
    if (maker == me && (rc = rx_region_create(rx_rt.jobid, size, mine, RX_REGION_NAME_MAX, addr)) != RX_OK)
        mine[0] = 0; /* tells the others creation failed */
    int brc = rx_coll_sched_allgather(NULL, RX_REGION_NAME_MAX, names, c);
    if (brc != RX_OK) {
        if (maker == me && rc == RX_OK) {
            rx_region_unlink(mine);
            rx_region_detach(*addr, size);
        }
        free(names);
        return brc;
    }
    if (maker >= 0 && maker != me) {
        const char *name = names + (size_t)maker * RX_REGION_NAME_MAX;
        rc = name[0] ? rx_region_attach(name, size, addr) : RX_ERR_IO;
    }
    /* everyone attached (or failed): the names can go */
    int ok[2] = {maker < 0 || rc == RX_OK, vote ? *vote : 0}, all[2];
    brc = rx_coll_sched_allreduce(ok, all, 2,
                                  rx_dtype_get(RX_HANDLE(RX_KIND_DATATYPE, RX_ID_MPI_INT)),
                                  rx_opobj_get(RX_HANDLE(RX_KIND_OP, RX_OP_LAND)), c);
    if (maker == me && mine[0])
        rx_region_unlink(mine);
    free(names);
    if (vote && brc == RX_OK)
        *vote = all[1];
    if (brc == RX_OK && all[0])
        return RX_OK;
    if (maker >= 0 && rc == RX_OK)
        rx_region_detach(*addr, size);
    return brc != RX_OK ? brc : RX_ERR_IO;
}
