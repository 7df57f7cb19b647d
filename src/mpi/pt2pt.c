/* SPDX-License-Identifier: MIT
 * Point-to-point calls: argument checks, then the p2p protocols. */
#include "mpi_impl.h"
#include "bigcount.h"

#include <stdlib.h>
#include <string.h>

int rx_mpi_tag_err(rx_comm_t *c, int tag, int any_ok, const char *fn)
{
    return rx_mpi_err(c, MPI_ERR_TAG, fn, "invalid tag %d (tags are 0..MPI_TAG_UB%s)", tag,
                      any_ok ? " or MPI_ANY_TAG" : "");
}

int rx_mpi_rank_err(rx_comm_t *c, int rank, const char *fn)
{
    return rx_mpi_err(c, MPI_ERR_RANK, fn, "invalid rank %d (%s has %d ranks)", rank,
                      c->remote ? "the remote group" : "communicator",
                      c->remote ? c->remote->size : c->size);
}

int rx_mpi_data_err(rx_comm_t *c, int cls, uint64_t count, const rx_dtype_t *dt, const char *fn)
{
    if (cls == MPI_ERR_BUFFER)
        return rx_mpi_err(c, cls, fn, "NULL buffer with %llu elements of data",
                          (unsigned long long)count);
    return rx_mpi_err(c, cls, fn,
                      "%llu elements of a type of %zu bytes (extent %ld) exceed the %llu bytes "
                      "one call can move", (unsigned long long)count, dt->size, (long)dt->extent,
                      (unsigned long long)RX_MPI_MAX_BYTES);
}

/* Validate the arguments every send or receive has; sets *dtp. Inline:
 * it is most of the work of a small send or receive. */
static inline __attribute__((always_inline)) int rx_check_xfer(rx_comm_t *c, const void *buf, MPI_Count count, MPI_Datatype datatype,
                         int peer, int tag, int is_recv, const char *fn, rx_dtype_t **dtp)
{
    *dtp = NULL;
    RX_CHECK_COUNT(c, count, fn);
    RX_GET_DTYPE(dt, c, datatype, fn);
    RX_CHECK_BUF(c, buf, count, dt, fn);
    int rc = rx_mpi_check_rank(c, peer, is_recv, fn);
    if (rc == MPI_SUCCESS)
        rc = rx_mpi_check_tag(c, tag, is_recv, fn);
    *dtp = dt;
    return rc;
}

/* The bytes a buffered send copies for (buf, count, dt): the buffer itself
 * when its memory is the packed form, else a packed copy in a reusable
 * staging buffer (rx_stage_put when done). */
static int rx_data_view(const void *buf, MPI_Count count, const rx_dtype_t *dt, void **data,
                        size_t *bytes, void **staging)
{
    *staging = NULL;
    if (rx_dtype_wire_is_raw(dt)) {
        *data = (void *)buf;
        *bytes = (size_t)count * (size_t)dt->extent;
        return RX_OK;
    }
    *bytes = (size_t)count * dt->wire;
    if (!(*staging = rx_stage_get(*bytes)))
        return RX_ERR_NOMEM;
    rx_dtype_pack(dt, buf, (size_t)count, *staging);
    *data = *staging;
    return RX_OK;
}

/* Describe (buf, count, dt) in r: raw bytes, or a typed request that p2p
 * packs, unpacks or moves by I/O vectors (see rx_req_typed). */
static void rx_req_data(rx_req_t *r, const void *buf, MPI_Count count, rx_dtype_t *dt)
{
    if (rx_dtype_wire_is_raw(dt)) {
        r->buf = (void *)buf;
        r->bytes = (size_t)count * (size_t)dt->extent;
        return;
    }
    r->buf = (void *)buf;
    r->bytes = (size_t)count * dt->wire;
    r->user_buf = (void *)buf;
    r->user_count = count;
    r->user_dtype = dt;
}

void rx_mpi_recv_unpack(rx_req_t *r)
{
    if (r->kind == RX_REQ_PRECV && r->staging && r->user_buf) {
        rx_dtype_unpack(r->user_dtype, r->staging, r->st_bytes, r->user_buf);
        return;
    }
    rx_p2p_req_finish(r);
    if (r->kind == RX_REQ_RECV && r->user_dtype && r->index > 0) /* the reference Irecv took */
        rx_dtype_unref((rx_dtype_t *)r->user_dtype);
    if (r->kind == RX_REQ_RECV || r->kind == RX_REQ_SEND)
        r->user_dtype = NULL;
}

void rx_mpi_status_empty(MPI_Status *status)
{
    if (status == MPI_STATUS_IGNORE)
        return;
    status->MPI_SOURCE = MPI_ANY_SOURCE;
    status->MPI_TAG = MPI_ANY_TAG;
    status->rx_cancelled = 0;
    status->rx_bytes = 0;
}

static void rx_status_proc_null(MPI_Status *status)
{
    rx_mpi_status_empty(status);
    if (status != MPI_STATUS_IGNORE)
        status->MPI_SOURCE = MPI_PROC_NULL;
}


static rx_req_t *rx_req_done_proc_null(int kind)
{
    rx_req_t *r = rx_req_alloc(kind);
    if (r) {
        r->st_source = MPI_PROC_NULL;
        r->st_tag = MPI_ANY_TAG;
        r->complete = 1;
    }
    return r;
}

static void rx_req_setup(rx_req_t *r, rx_comm_t *c, int peer, int tag)
{
    /* a pool request outlives the call: it holds the communicator, so
     * MPI_Comm_free lets it complete (a blocking call's stack request needs not) */
    if (r->index > 0)
        rx_req_hold_comm(r, c);
    else
        r->comm = c;
    r->peer = peer;
    r->tag = tag;
    r->ctx = c->ctx;
}

enum { RX_MODE_STD, RX_MODE_SYNC, RX_MODE_READY, RX_MODE_BUFFERED };

static int rx_isend_common(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                           MPI_Comm comm, MPI_Request *request, int mode, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    rx_dtype_t *dt;
    int rc = rx_check_xfer(c, buf, count, datatype, dest, tag, 0, fn, &dt);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!request)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "request is NULL");
    rx_req_t *r;
    if (dest == MPI_PROC_NULL) {
        r = rx_req_done_proc_null(RX_REQ_SEND);
    } else if (mode != RX_MODE_SYNC && mode != RX_MODE_BUFFERED && rx_dtype_wire_is_raw(dt) &&
               (rc = rx_p2p_send_try(buf, (size_t)count * (size_t)dt->extent, c, dest, tag,
                                     c->ctx)) != RX_ERR_AGAIN) {
        /* sent inside the call, as MPI_Send would: the buffer is free again */
        if (rc != RX_OK)
            return rx_mpi_err(c, rx_mpi_class_of(rc), fn, "%s", rx_status_string(rc));
        *request = RX_HANDLE(RX_KIND_REQUEST, RX_REQ_DONE_SEND_ID);
        return MPI_SUCCESS;
    } else if (mode == RX_MODE_BUFFERED) {
        void *data, *staging;
        size_t bytes;
        if (rx_data_view(buf, count, dt, &data, &bytes, &staging) != RX_OK)
            return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
        rc = rx_bsend_start(data, bytes, dest, tag, c, &r, fn);
        rx_stage_put(staging);
        if (rc != MPI_SUCCESS)
            return rc;
    } else if ((r = rx_req_alloc(RX_REQ_SEND))) {
        rx_req_setup(r, c, dest, tag);
        rx_req_data(r, buf, count, dt);
        r->sync = mode == RX_MODE_SYNC;
        if ((rc = rx_p2p_isend(r)) != RX_OK) {
            rx_req_release(r);
            return rx_mpi_err(c, rx_mpi_class_of(rc), fn, "%s", rx_status_string(rc));
        }
    }
    if (!r)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of requests");
    *request = RX_HANDLE(RX_KIND_REQUEST, r->index);
    return MPI_SUCCESS;
}

static int rx_send_common(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                          MPI_Comm comm, int mode, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    rx_dtype_t *dt;
    int rc = rx_check_xfer(c, buf, count, datatype, dest, tag, 0, fn, &dt);
    if (rc != MPI_SUCCESS || dest == MPI_PROC_NULL)
        return rc;
    if (mode != RX_MODE_SYNC) {
        rc = rx_dtype_wire_is_raw(dt)
                 ? rx_p2p_send_try(buf, (size_t)count * (size_t)dt->extent, c, dest, tag, c->ctx)
                 : rx_p2p_send_try_typed(buf, (size_t)count, dt, c, dest, tag, c->ctx);
        if (rc != RX_ERR_AGAIN)
            return rc == RX_OK ? MPI_SUCCESS
                               : rx_mpi_err(c, rx_mpi_class_of(rc), fn, "%s", rx_status_string(rc));
    }
    rx_req_t r;
    memset(&r, 0, sizeof r);
    r.kind = RX_REQ_SEND;
    r.index = -1;
    rx_req_setup(&r, c, dest, tag);
    rx_req_data(&r, buf, count, dt);
    r.sync = mode == RX_MODE_SYNC;
    if ((rc = rx_p2p_isend(&r)) != RX_OK) {
        rx_p2p_req_finish(&r);
        return rx_mpi_err(c, rx_mpi_class_of(rc), fn, "%s", rx_status_string(rc));
    }
    RX_WAIT_UNTIL(r.complete);
    rx_p2p_req_finish(&r);
    return MPI_SUCCESS;
}

#define RX_SEND_PARAMS(C, D, A) \
    (const void *buf, C count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
#define RX_ISEND_PARAMS(C, D, A)                                                        \
    (const void *buf, C count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, \
     MPI_Request *request)

RX_COUNT_FORMS(Send, RX_SEND_PARAMS,
               return rx_send_common(buf, count, datatype, dest, tag, comm, RX_MODE_STD, fn);)
RX_COUNT_FORMS(Ssend, RX_SEND_PARAMS,
               return rx_send_common(buf, count, datatype, dest, tag, comm, RX_MODE_SYNC, fn);)
/* A ready send may be sent as a standard one: the receive is already posted. */
RX_COUNT_FORMS(Rsend, RX_SEND_PARAMS,
               return rx_send_common(buf, count, datatype, dest, tag, comm, RX_MODE_READY, fn);)
RX_COUNT_FORMS(Bsend, RX_SEND_PARAMS, {
    MPI_Request r;
    int rc = rx_isend_common(buf, count, datatype, dest, tag, comm, &r, RX_MODE_BUFFERED, fn);
    return rc != MPI_SUCCESS ? rc : PMPI_Request_free(&r);
})
RX_COUNT_FORMS(Isend, RX_ISEND_PARAMS,
               return rx_isend_common(buf, count, datatype, dest, tag, comm, request,
                                      RX_MODE_STD, fn);)
RX_COUNT_FORMS(Issend, RX_ISEND_PARAMS,
               return rx_isend_common(buf, count, datatype, dest, tag, comm, request,
                                      RX_MODE_SYNC, fn);)
RX_COUNT_FORMS(Irsend, RX_ISEND_PARAMS,
               return rx_isend_common(buf, count, datatype, dest, tag, comm, request,
                                      RX_MODE_READY, fn);)
RX_COUNT_FORMS(Ibsend, RX_ISEND_PARAMS,
               return rx_isend_common(buf, count, datatype, dest, tag, comm, request,
                                      RX_MODE_BUFFERED, fn);)

/* Post a receive of (buf, count, dt) described by r. Pool requests of a
 * non-raw type keep a reference to it (the program may free it before
 * completion, and p2p unpacks with it); requests on the stack belong to a
 * blocking call that completes first. */
static inline __attribute__((always_inline)) int rx_recv_post(rx_req_t *r, rx_comm_t *c,
                                                             void *buf, MPI_Count count,
                                                             rx_dtype_t *dt, int source, int tag)
{
    rx_req_setup(r, c, source, tag);
    rx_req_data(r, buf, count, dt);
    int rc = rx_p2p_irecv(r);
    if (rc != RX_OK)
        r->user_dtype = NULL;
    else if (r->user_dtype && r->index > 0)
        rx_dtype_ref(dt);
    return rc;
}

static void rx_recv_on_stack(rx_req_t *r)
{
    memset(r, 0, sizeof *r);
    r->kind = RX_REQ_RECV;
    r->index = -1;
}

static int rx_recv_status(rx_comm_t *c, const rx_req_t *r, MPI_Status *status, const char *fn);

/* Wait for a receive on the stack, unpack it and report its status. */
static int rx_recv_wait_on_stack(rx_comm_t *c, rx_req_t *r, MPI_Status *status, const char *fn)
{
    RX_WAIT_UNTIL(r->complete);
    rx_mpi_recv_unpack(r);
    return rx_recv_status(c, r, status, fn);
}

static int rx_irecv(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                    MPI_Comm comm, MPI_Request *request, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    rx_dtype_t *dt;
    int rc = rx_check_xfer(c, buf, count, datatype, source, tag, 1, fn, &dt);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!request)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "request is NULL");
    rx_req_t *r;
    if (source == MPI_PROC_NULL) {
        r = rx_req_done_proc_null(RX_REQ_RECV);
    } else if ((r = rx_req_alloc(RX_REQ_RECV)) &&
               (rc = rx_recv_post(r, c, buf, count, dt, source, tag)) != RX_OK) {
        rx_req_release(r);
        return rx_mpi_err(c, rx_mpi_class_of(rc), fn, "%s", rx_status_string(rc));
    }
    if (!r)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of requests");
    *request = RX_HANDLE(RX_KIND_REQUEST, r->index);
    return MPI_SUCCESS;
}
#define RX_IRECV_PARAMS(C, D, A)                                                         \
    (void *buf, C count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, \
     MPI_Request *request)
RX_COUNT_FORMS(Irecv, RX_IRECV_PARAMS,
               return rx_irecv(buf, count, datatype, source, tag, comm, request, fn);)

static int rx_recv_status(rx_comm_t *c, const rx_req_t *r, MPI_Status *status, const char *fn)
{
    rx_mpi_status_from_req(status, r);
    if (r->st_error == MPI_ERR_TRUNCATE)
        return rx_mpi_err(c, MPI_ERR_TRUNCATE, fn,
                          "message from rank %d (tag %d) longer than the receive buffer of %zu bytes",
                          r->st_source, r->st_tag, r->bytes);
    if (r->st_error)
        return rx_mpi_err(c, r->st_error, fn, "receive failed");
    return MPI_SUCCESS;
}

static int rx_recv(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                   MPI_Comm comm, MPI_Status *status, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    rx_dtype_t *dt;
    int rc = rx_check_xfer(c, buf, count, datatype, source, tag, 1, fn, &dt);
    if (rc != MPI_SUCCESS)
        return rc;
    if (source == MPI_PROC_NULL) {
        rx_status_proc_null(status);
        return MPI_SUCCESS;
    }
    rx_req_t r;
    rx_recv_on_stack(&r);
    if ((rc = rx_recv_post(&r, c, buf, count, dt, source, tag)) != RX_OK)
        return rx_mpi_err(c, rx_mpi_class_of(rc), fn, "%s", rx_status_string(rc));
    return rx_recv_wait_on_stack(c, &r, status, fn);
}
#define RX_RECV_PARAMS(C, D, A)                                                          \
    (void *buf, C count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, \
     MPI_Status *status)
RX_COUNT_FORMS(Recv, RX_RECV_PARAMS,
               return rx_recv(buf, count, datatype, source, tag, comm, status, fn);)

static int rx_sendrecv(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       int dest, int sendtag, void *recvbuf, MPI_Count recvcount,
                       MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                       MPI_Status *status, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    rx_dtype_t *sdt, *rdt;
    int rc = rx_check_xfer(c, sendbuf, sendcount, sendtype, dest, sendtag, 0, fn, &sdt);
    if (rc == MPI_SUCCESS)
        rc = rx_check_xfer(c, recvbuf, recvcount, recvtype, source, recvtag, 1, fn, &rdt);
    if (rc != MPI_SUCCESS)
        return rc;
    rx_req_t r;
    rx_recv_on_stack(&r);
    if (source != MPI_PROC_NULL &&
        (rc = rx_recv_post(&r, c, recvbuf, recvcount, rdt, source, recvtag)) != RX_OK)
        return rx_mpi_err(c, rx_mpi_class_of(rc), fn, "%s", rx_status_string(rc));
    rc = rx_send_common(sendbuf, sendcount, sendtype, dest, sendtag, comm, RX_MODE_STD, fn);
    if (source == MPI_PROC_NULL) {
        rx_status_proc_null(status);
        return rc;
    }
    int rrc = rx_recv_wait_on_stack(c, &r, status, fn);
    return rc != MPI_SUCCESS ? rc : rrc;
}
#define RX_SENDRECV_PARAMS(C, D, A)                                                         \
    (const void *sendbuf, C sendcount, MPI_Datatype sendtype, int dest, int sendtag,    \
     void *recvbuf, C recvcount, MPI_Datatype recvtype, int source, int recvtag,        \
     MPI_Comm comm, MPI_Status *status)
RX_COUNT_FORMS(Sendrecv, RX_SENDRECV_PARAMS,
               return rx_sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                                  recvcount, recvtype, source, recvtag, comm, status, fn);)

static int rx_sendrecv_replace(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                               int sendtag, int source, int recvtag, MPI_Comm comm,
                               MPI_Status *status, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    rx_dtype_t *dt;
    int rc = rx_check_xfer(c, buf, count, datatype, dest, sendtag, 0, fn, &dt);
    if (rc == MPI_SUCCESS)
        rc = rx_check_xfer(c, buf, count, datatype, source, recvtag, 1, fn, &dt);
    if (rc != MPI_SUCCESS)
        return rc;
    size_t bytes = (size_t)count * (size_t)dt->extent;
    void *tmp = rx_stage_get(bytes);
    if (!tmp)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory for %zu bytes", bytes);
    memcpy(tmp, buf, bytes);
    rc = rx_sendrecv(tmp, count, datatype, dest, sendtag, buf, count, datatype, source, recvtag,
                     comm, status, fn);
    rx_stage_put(tmp);
    return rc;
}
#define RX_SENDRECV_REPLACE_PARAMS(C, D, A)                                                 \
    (void *buf, C count, MPI_Datatype datatype, int dest, int sendtag, int source,      \
     int recvtag, MPI_Comm comm, MPI_Status *status)
RX_COUNT_FORMS(Sendrecv_replace, RX_SENDRECV_REPLACE_PARAMS,
               return rx_sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag,
                                          comm, status, fn);)

static int rx_probe_args(rx_comm_t *c, int source, int tag, const char *fn)
{
    int rc = rx_mpi_check_rank(c, source, 1, fn);
    return rc == MPI_SUCCESS ? rx_mpi_check_tag(c, tag, 1, fn) : rc;
}

static void rx_status_from_probe(MPI_Status *status, const rx_p2p_status_t *st)
{
    if (status == MPI_STATUS_IGNORE)
        return;
    status->MPI_SOURCE = st->source;
    status->MPI_TAG = st->tag;
    status->rx_cancelled = 0;
    status->rx_bytes = (long long)st->bytes;
}

int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    const char *fn = "MPI_Iprobe";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    int rc = rx_probe_args(c, source, tag, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!flag)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "flag is NULL");
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        rx_status_proc_null(status);
        return MPI_SUCCESS;
    }
    rx_p2p_status_t st;
    rx_progress_test();
    *flag = rx_p2p_iprobe(c->ctx, source, tag, &st);
    if (*flag)
        rx_status_from_probe(status, &st);
    return MPI_SUCCESS;
}
RX_ALIAS(Iprobe)

int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    const char *fn = "MPI_Probe";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    int rc = rx_probe_args(c, source, tag, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (source == MPI_PROC_NULL) {
        rx_status_proc_null(status);
        return MPI_SUCCESS;
    }
    rx_p2p_status_t st;
    RX_WAIT_UNTIL(rx_p2p_iprobe(c->ctx, source, tag, &st));
    rx_status_from_probe(status, &st);
    return MPI_SUCCESS;
}
RX_ALIAS(Probe)

/* Whole elements of datatype in status; MPI_UNDEFINED when not whole or more
 * than max (INT_MAX for MPI_Get_count, none for MPI_Get_count_c). */
static int rx_get_count(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count,
                        MPI_Count max, const char *fn)
{
    RX_CHECK_INIT(fn);
    if (!status || status == MPI_STATUS_IGNORE || !count)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "NULL or ignored status or count");
    RX_GET_DTYPE(dt, NULL, datatype, fn);
    if (dt->wire == 0)
        *count = 0;
    else if (status->rx_bytes % (long long)dt->wire ||
             status->rx_bytes / (long long)dt->wire > max)
        *count = MPI_UNDEFINED;
    else
        *count = status->rx_bytes / (long long)dt->wire;
    return MPI_SUCCESS;
}

int PMPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    MPI_Count n;
    int rc = rx_get_count(status, datatype, count ? &n : NULL, INT32_MAX, "MPI_Get_count");
    if (rc == MPI_SUCCESS)
        *count = (int)n;
    return rc;
}
RX_ALIAS(Get_count)

int PMPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    return rx_get_count(status, datatype, count, INT64_MAX, "MPI_Get_count_c");
}
RX_ALIAS(Get_count_c)

int PMPI_Test_cancelled(const MPI_Status *status, int *flag)
{
    if (!status || status == MPI_STATUS_IGNORE || !flag)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Test_cancelled", "NULL or ignored argument");
    *flag = status->rx_cancelled;
    return MPI_SUCCESS;
}
RX_ALIAS(Test_cancelled)
