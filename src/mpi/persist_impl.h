/* SPDX-License-Identifier: MIT
 * Persistent requests inside the binding: point-to-point ones (persist.c)
 * and collective ones (persist_coll.c) share the request kind RX_REQ_PSEND
 * and MPI_Start; p_mode tells them apart. */
#ifndef RX_MPI_PERSIST_IMPL_H
#define RX_MPI_PERSIST_IMPL_H

#include "mpi_impl.h"

enum { RX_PMODE_STD, RX_PMODE_SYNC, RX_PMODE_READY, RX_PMODE_BUFFERED, RX_PMODE_COLL };

/* MPI_Start of a persistent collective: starts its nonblocking form. */
int rx_pcoll_start(rx_req_t *r);

#endif
