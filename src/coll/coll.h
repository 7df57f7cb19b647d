/* SPDX-License-Identifier: MIT
 * Collective operations on intracommunicators, over the point-to-point layer
 * on the communicator's collective context (ctx + 1). Buffers are contiguous
 * (the MPI layer packs other layouts). Every rank of the communicator calls
 * the same collectives in the same order, so a per-communicator sequence
 * number is a tag all members agree on. */
#ifndef RX_COLL_H
#define RX_COLL_H

#include "core/comm.h"
#include "dtype/dtype.h"
#include "opobj.h"

#include <stddef.h>

int rx_coll_barrier(rx_comm_t *c);
int rx_coll_bcast(void *buf, size_t bytes, int root, rx_comm_t *c);
/* sbuf may equal rbuf (in place); count elements of dt. */
int rx_coll_reduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                   const rx_opobj_t *op, int root, rx_comm_t *c);
int rx_coll_allreduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                      const rx_opobj_t *op, rx_comm_t *c);
/* Each rank contributes bytes; root receives size * bytes in rank order.
 * sbuf NULL at the root: its block is already in place. */
int rx_coll_gather(const void *sbuf, size_t bytes, void *rbuf, int root, rx_comm_t *c);
int rx_coll_allgather(const void *sbuf, size_t bytes, void *rbuf, rx_comm_t *c);

/* Map a region of size bytes shared by every member of c; all members must be
 * on one node (c->local_size == c->size). Release with rx_region_detach. */
int rx_coll_shared_region(rx_comm_t *c, size_t size, void **addr);

/* p2p helpers for algorithms (coll_p2p.c) */
int rx_coll_tag(rx_comm_t *c);
int rx_coll_send(const void *buf, size_t bytes, int peer, int tag, rx_comm_t *c);
int rx_coll_recv(void *buf, size_t bytes, int peer, int tag, rx_comm_t *c);
int rx_coll_sendrecv(const void *sbuf, size_t sbytes, int dst, void *rbuf, size_t rbytes,
                     int src, int tag, rx_comm_t *c);

#endif
