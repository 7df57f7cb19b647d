/* SPDX-License-Identifier: MIT
 * Persistent requests inside the binding: point-to-point ones (persist.c)
 * and collective ones (persist_coll.c) share the request kind RX_REQ_PSEND
 * and MPI_Start; p_mode tells them apart. */
#ifndef RX_MPI_PERSIST_IMPL_H
#define RX_MPI_PERSIST_IMPL_H

#include "mpi_impl.h"

enum {
    RX_PMODE_STD, RX_PMODE_SYNC, RX_PMODE_READY, RX_PMODE_BUFFERED,
    RX_PMODE_COLL, /* persistent collective (persist_coll.c) */
    RX_PMODE_PART, /* partitioned send or receive (partitioned.c) */
};

/* A persistent point-to-point request after the checks of its init call
 * (fn); extra > 0 asks for that many bytes after the staged data in
 * r->staging (allocated then even for raw types; r->buf is the data). */
int rx_persist_make(const void *buf, MPI_Count count, MPI_Datatype datatype, int peer, int tag,
                    MPI_Comm comm, MPI_Request *request, int kind, int mode, size_t extra,
                    rx_req_t **out, const char *fn);
/* Hand an armed persistent send or receive to the p2p layer. */
int rx_persist_send_now(rx_req_t *r, const char *fn);

/* MPI_Request_free of a persistent request: released now, or once the
 * operation it runs completes (RX_ERR_NOMEM: no room to watch it). */
int rx_persist_free(rx_req_t *r);

/* MPI_Start of a persistent collective: starts its nonblocking form. */
int rx_pcoll_start(rx_req_t *r);
/* MPI_Start of a partitioned send: no partition is ready yet. */
void rx_psend_rearm(rx_req_t *r);

#endif
