/* SPDX-License-Identifier: MIT
 * Nonblocking direct allreduces of node-local communicators, run by the
 * offload thread (RDMX_COLL_OFFLOAD) or by the progress hook (offload.c). */
#ifndef RX_COLL_OFFLOAD_H
#define RX_COLL_OFFLOAD_H

#include "coll_shm.h"
#include "core/request.h"

/* Whether this rank runs an offload thread (started on the first call):
 * its vote when a communicator's region is created. */
int rx_coll_offload_vote(void);
/* Start a nonblocking direct allreduce, run by the offload thread or by
 * this rank's progress hook; RX_ERR_AGAIN when the direct protocol does
 * not apply (the caller then starts a schedule), which every member
 * decides alike. */
int rx_coll_direct_iallreduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                              const rx_opobj_t *op, rx_comm_t *c, rx_req_t **out);
/* Wait until every nonblocking direct operation of st has finished. */
void rx_coll_offload_drain(rx_shm_state_t *st);
/* Finish queued operations and stop the thread (MPI_Finalize). */
void rx_coll_offload_fini(void);

#endif
