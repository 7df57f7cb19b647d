/* SPDX-License-Identifier: MIT
 * Shared by the collective binding files (coll.c, coll_move.c): argument
 * checks and the conversion of user buffers into the wire form the
 * executor moves. Each collective is one function taking MPI_Request *req:
 * NULL runs it blocking, otherwise it starts the nonblocking form. */
#ifndef RX_MPI_COLL_IMPL_H
#define RX_MPI_COLL_IMPL_H

#include "mpi_impl.h"
#include "bigcount.h"

/* Map an internal status of a collective to the MPI class. */
int rx_coll_rc(rx_comm_t *c, int rc, const char *fn);
int rx_coll_check_root(rx_comm_t *c, int root, const char *fn);
int rx_coll_check_op(rx_comm_t *c, MPI_Op op, const rx_dtype_t *dt, rx_opobj_t **out,
                     const char *fn);
/* A cleared executor for collective kind on c. */
rx_coll_exec_t *rx_coll_exec_new(rx_comm_t *c, int kind, MPI_Request *req);
/* Run e (blocking, req NULL) or start it and return its request. */
int rx_coll_go(rx_coll_exec_t *e, MPI_Request *req, const char *fn);
/* Fail e's call: release it and report. */
int rx_coll_fail(rx_coll_exec_t *e, int cls, const char *fn, const char *msg);

/* Stands for a NULL user buffer that moves nothing (count 0 is legal in
 * every collective, with any buffer): the buffer helpers return NULL only
 * when memory ran out. */
extern char rx_coll_nothing[1];

/* Wire form of count elements of dt at buf, as input (packed if need be,
 * into staging slot si of e). NULL on out of memory. */
char *rx_coll_in(rx_coll_exec_t *e, int si, const void *buf, size_t count, const rx_dtype_t *dt);
/* Output area of `bytes` wire bytes for buf: buf itself when dt is raw,
 * else a staging buffer (slot si); blocks to unpack are added with
 * rx_coll_out_block. */
char *rx_coll_out(rx_coll_exec_t *e, int si, void *buf, size_t bytes, const rx_dtype_t *dt);
int rx_coll_out_block(rx_coll_exec_t *e, void *dst, size_t count, const rx_dtype_t *dt,
                      uint64_t off, int span);

/* Blocking node-shared-memory paths take any datatype, so that whether
 * they apply depends only on what every rank agrees on (wire sizes), never
 * on one rank's layout: raw buffers are used where they lie, others go
 * through a temporary. rx_wire_in: packed input (*tmp set when allocated);
 * rx_wire_out: an output area; rx_wire_done: unpack (if ok) and free. */
char *rx_wire_in(const void *buf, size_t count, const rx_dtype_t *dt, void **tmp);
char *rx_wire_out(void *buf, size_t count, const rx_dtype_t *dt, void **tmp);
void rx_wire_done(void *buf, size_t count, const rx_dtype_t *dt, void *tmp, int ok);

/* Check a count / datatype / buffer triple of one side of a call. */
#define RX_COLL_SIDE(c, buf, count, dtvar, handle, fn) \
    RX_CHECK_COUNT(c, count, fn);                       \
    RX_GET_DTYPE(dtvar, c, handle, fn);                 \
    RX_CHECK_BUF(c, buf, count, dtvar, fn)

/* Nonblocking forms: the request argument must be there. */
#define RX_NB_REQ(request, fn)                                                      \
    do {                                                                            \
        RX_CHECK_INIT(fn);                                                          \
        if (!(request))                                                             \
            return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "request is NULL");           \
    } while (0)

#endif
