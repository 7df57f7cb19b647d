/* SPDX-License-Identifier: MIT
 * The offload thread for large nonblocking node-local allreduces
 * (offload.c; RDMX_COLL_OFFLOAD). */
#ifndef RX_COLL_OFFLOAD_H
#define RX_COLL_OFFLOAD_H

#include "coll_shm.h"
#include "core/request.h"

/* Whether this rank runs an offload thread (started on the first call):
 * its vote when a communicator's region is created. */
int rx_coll_offload_vote(void);
/* Queue an allreduce to the thread; RX_ERR_AGAIN when it does not apply
 * (the caller then starts a schedule), which every member decides alike. */
int rx_coll_offload_allreduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                              const rx_opobj_t *op, rx_comm_t *c, rx_req_t **out);
/* Wait until the thread has finished every operation queued for st. */
void rx_coll_offload_drain(rx_shm_state_t *st);
/* Finish queued operations and stop the thread (MPI_Finalize). */
void rx_coll_offload_fini(void);

#endif
