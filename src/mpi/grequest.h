/* SPDX-License-Identifier: MIT
 * Generalized requests (grequest.c) as the completion calls (wait.c) see
 * them: requests of kind RX_REQ_COLL marked as generalized, whose status,
 * cancel and release go through the program's callbacks. */
#ifndef RX_MPI_GREQUEST_H
#define RX_MPI_GREQUEST_H

#include "mpi_impl.h"

int rx_greq_is(const rx_req_t *r);
/* Wait / Test completed it: query_fn fills the status, free_fn runs, the
 * request is released; returns the first error of the two (or 0). */
int rx_greq_finish(MPI_Request *handle, rx_req_t *r, MPI_Status *status);
/* MPI_Request_get_status on a completed one: query_fn only. */
int rx_greq_status(rx_req_t *r, MPI_Status *status);
/* MPI_Cancel: cancel_fn(extra_state, complete). */
int rx_greq_cancel(rx_req_t *r);
/* MPI_Request_free: free_fn now if complete, else at MPI_Grequest_complete. */
int rx_greq_free(rx_req_t *r);

#endif
