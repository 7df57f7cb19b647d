/* SPDX-License-Identifier: MIT
 * A region shared by all ranks of a communicator whose members are on one
 * node (e.g. from MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)), and the
 * node path's own region. Name and votes go by schedules: the node path
 * needs the region it would be making. */
#include "coll.h"
#include "op/op.h"
#include "core/rt.h"
#include "util/status.h"

#include <string.h>

int rx_coll_shared_region(rx_comm_t *c, size_t size, void **addr)
{
    return rx_coll_shared_region_vote(c, size, addr, NULL);
}

int rx_coll_shared_region_vote(rx_comm_t *c, size_t size, void **addr, int *vote)
{
    char name[RX_REGION_NAME_MAX] = "";
    int rc = RX_OK;
    if (c->local_size != c->size)
        return RX_ERR_INVAL;
    if (c->rank == 0)
        rc = rx_region_create(rx_rt.jobid, size, name, sizeof name, addr);
    if (rc != RX_OK)
        name[0] = 0; /* tells the others creation failed */
    int brc = rx_coll_sched_bcast(name, sizeof name, 0, c);
    if (brc != RX_OK)
        return brc;
    if (!name[0])
        return RX_ERR_IO;
    if (c->rank != 0)
        rc = rx_region_attach(name, size, addr);
    /* everyone attached (or failed): the name can go */
    int ok[2] = {rc == RX_OK, vote ? *vote : 0}, all[2];
    brc = rx_coll_sched_allreduce(ok, all, 2, rx_dtype_get(RX_HANDLE(RX_KIND_DATATYPE, 7 /* MPI_INT */)),
                            rx_opobj_get(RX_HANDLE(RX_KIND_OP, RX_OP_LAND)), c);
    int all_ok = all[0];
    if (vote && brc == RX_OK)
        *vote = all[1];
    if (c->rank == 0)
        rx_region_unlink(name);
    if (brc != RX_OK)
        return brc;
    if (!all_ok) {
        if (rc == RX_OK)
            rx_region_detach(*addr, size);
        return RX_ERR_IO;
    }
    return RX_OK;
}
