/* SPDX-License-Identifier: MIT
 * MPI-4.1 communicator buffers for buffered sends (§3.6.1): attach, detach,
 * flush and iflush, the int and _c forms sharing one body. The buffer
 * serves the buffered sends on that communicator only (bsend.h says which
 * buffer a send takes); a freed communicator's buffer goes with it once its
 * messages have left. The session forms are in session.c. */
#include "bsend.h"
#include "bigcount.h"

#define RX_BBUF_COMM_ERR(c, cls, fn, why) \
    ((cls) == MPI_SUCCESS ? (cls) : rx_mpi_err(c, cls, fn, "%s", why))

#define RX_COMM_ATTACH_PARAMS(C, D, A) (MPI_Comm comm, void *buffer, C size)
RX_COUNT_FORMS(Comm_attach_buffer, RX_COMM_ATTACH_PARAMS, {
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    const char *why = "";
    int cls = rx_bbuf_attach(RX_BBUF_COMM, (uintptr_t)c, buffer, size, &why);
    return RX_BBUF_COMM_ERR(c, cls, fn, why);
})

/* The int form reports MPI_ERR_COUNT for a buffer beyond INT_MAX bytes
 * (attached by the _c form) and keeps it attached. */
#define RX_COMM_DETACH_PARAMS(C, D, A) (MPI_Comm comm, void *buffer_addr, C *size)
RX_COUNT_FORMS(Comm_detach_buffer, RX_COMM_DETACH_PARAMS, {
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    const char *why = "";
    MPI_Count n;
    int cls = rx_bbuf_detach(RX_BBUF_COMM, (uintptr_t)c, buffer_addr, size ? &n : NULL,
                             sizeof *size == 4 ? INT32_MAX : INT64_MAX, &why);
    if (cls == MPI_SUCCESS)
        *size = n;
    return RX_BBUF_COMM_ERR(c, cls, fn, why);
})

int PMPI_Comm_flush_buffer(MPI_Comm comm)
{
    RX_CHECK_INIT("MPI_Comm_flush_buffer");
    RX_GET_COMM(c, comm, "MPI_Comm_flush_buffer");
    rx_bbuf_flush(RX_BBUF_COMM, (uintptr_t)c);
    return MPI_SUCCESS;
}
RX_ALIAS(Comm_flush_buffer)

int PMPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request *request)
{
    const char *fn = "MPI_Comm_iflush_buffer";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    if (!request)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "request is NULL");
    return rx_watch_flush(RX_BBUF_COMM, (uintptr_t)c, c, request, fn);
}
RX_ALIAS(Comm_iflush_buffer)
