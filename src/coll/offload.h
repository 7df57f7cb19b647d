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
/* Start a nonblocking direct allreduce of count elements (contiguous dt,
 * predefined op) on st: on the offload thread when thread is set and this
 * rank runs one (the members agreed on st->offload at its creation), else
 * stepped by this rank's progress hook; either way after the earlier ones
 * of st. RX_OK with *out set, or an error. */
int rx_coll_offload_start(rx_shm_state_t *st, const void *sbuf, void *rbuf, size_t count,
                          const rx_dtype_t *dt, const rx_opobj_t *op, int thread, rx_req_t **out);
/* Finish queued operations and stop the thread (MPI_Finalize). */
void rx_coll_offload_fini(void);

#endif
