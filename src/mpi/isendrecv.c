/* SPDX-License-Identifier: MIT
 * Requests made of others (MPI-4): MPI_Isendrecv and MPI_Isendrecv_replace
 * complete when their send and receive both have; the iflush calls of
 * buffered sends (bsend.h) when every message has left their buffer. A progress hook
 * watches them and completes the program's request, which carries the
 * receive's status. */
#include "bigcount.h"
#include "bsend.h"

#include <stdlib.h>
#include <string.h>

typedef struct rx_watch {
    struct rx_watch *next;
    rx_req_t *req;          /* the program's request */
    MPI_Request part[2];    /* the receive and the send (MPI_REQUEST_NULL: none) */
    void *tmp;              /* Isendrecv_replace: the packed copy being sent */
    int flush;              /* an iflush: of the buffer of (flush_kind, flush_id) */
    int flush_kind;
    uintptr_t flush_id;
} rx_watch_t;

static rx_watch_t *rx_watches;

static rx_req_t *rx_part(MPI_Request h)
{
    return h == MPI_REQUEST_NULL ? NULL : rx_req_lookup(RX_HANDLE_INDEX(h));
}

static int rx_watch_done(const rx_watch_t *w)
{
    if (w->flush)
        return rx_bbuf_idle(w->flush_kind, w->flush_id);
    for (int i = 0; i < 2; i++) {
        rx_req_t *p = rx_part(w->part[i]);
        if (p && !p->complete)
            return 0;
    }
    return 1;
}

/* Finish the parts; the receive's status becomes the request's. */
static void rx_watch_finish(rx_watch_t *w)
{
    rx_req_t *req = w->req;
    for (int i = 0; i < 2; i++) {
        rx_req_t *p = rx_part(w->part[i]);
        if (!p)
            continue;
        MPI_Status st;
        int err = rx_mpi_req_finish(&w->part[i], p, &st);
        if (i == 0) {
            req->st_source = st.MPI_SOURCE;
            req->st_tag = st.MPI_TAG;
            req->st_bytes = (size_t)st.rx_bytes;
            req->cancelled = st.rx_cancelled;
        }
        if (err && !req->st_error)
            req->st_error = err;
    }
    rx_stage_put(w->tmp);
    free(w);
    rx_req_complete(req);
}

static int rx_watch_progress(void)
{
    int n = 0;
    for (rx_watch_t **p = &rx_watches; *p;) {
        rx_watch_t *w = *p;
        if (rx_watch_done(w)) {
            *p = w->next;
            rx_watch_finish(w);
            n++;
        } else {
            p = &w->next;
        }
    }
    return n;
}

/* Give up w before it became a request: the receive is cancelled, a send
 * already out completes. */
static void rx_watch_drop(rx_watch_t *w)
{
    for (int i = 0; i < 2; i++)
        if (w->part[i] != MPI_REQUEST_NULL) {
            PMPI_Cancel(&w->part[i]);
            PMPI_Wait(&w->part[i], MPI_STATUS_IGNORE);
        }
    rx_stage_put(w->tmp);
    free(w);
}

/* A request the hook completes once w is done; w is consumed. */
static int rx_watch_start(rx_watch_t *w, rx_comm_t *c, MPI_Request *request, const char *fn)
{
    rx_req_t *req = rx_progress_hook_add(rx_watch_progress) == 0 ? rx_req_alloc(RX_REQ_COLL)
                                                                 : NULL;
    if (!req) {
        rx_watch_drop(w);
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of requests");
    }
    if (c)
        rx_req_hold_comm(req, c);
    req->st_source = MPI_ANY_SOURCE;
    req->st_tag = MPI_ANY_TAG;
    w->req = req;
    w->next = rx_watches;
    rx_watches = w;
    *request = RX_HANDLE(RX_KIND_REQUEST, req->index);
    return MPI_SUCCESS;
}

/* The arguments every send or receive has, checked in the caller's name. */
static int rx_xfer_args(rx_comm_t *c, const void *buf, MPI_Count count, MPI_Datatype datatype,
                        int peer, int tag, int is_recv, const char *fn)
{
    RX_CHECK_COUNT(c, count, fn);
    RX_GET_DTYPE(dt, c, datatype, fn);
    RX_CHECK_BUF(c, buf, count, dt, fn); /* NULL with data, or beyond what one call moves */
    int rc = rx_mpi_check_rank(c, peer, is_recv, fn);
    return rc == MPI_SUCCESS ? rx_mpi_check_tag(c, tag, is_recv, fn) : rc;
}

/* Post the receive, then the send. */
static int rx_isendrecv_post(rx_watch_t *w, const void *sendbuf, MPI_Count sendcount,
                             MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                             MPI_Comm comm)
{
    w->part[0] = w->part[1] = MPI_REQUEST_NULL;
    int rc = PMPI_Irecv_c(recvbuf, recvcount, recvtype, source, recvtag, comm, &w->part[0]);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Isend_c(sendbuf, sendcount, sendtype, dest, sendtag, comm, &w->part[1]);
    return rc;
}

static int rx_isendrecv(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        int dest, int sendtag, void *recvbuf, MPI_Count recvcount,
                        MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                        MPI_Request *request, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    int rc = rx_xfer_args(c, sendbuf, sendcount, sendtype, dest, sendtag, 0, fn);
    if (rc == MPI_SUCCESS)
        rc = rx_xfer_args(c, recvbuf, recvcount, recvtype, source, recvtag, 1, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!request)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "request is NULL");
    rx_watch_t *w = calloc(1, sizeof *w);
    if (!w)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    rc = rx_isendrecv_post(w, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                           recvtype, source, recvtag, comm);
    if (rc != MPI_SUCCESS) { /* arguments were checked: out of memory */
        rx_watch_drop(w);
        return rc;
    }
    return rx_watch_start(w, c, request, fn);
}
#define RX_ISENDRECV_PARAMS(C, D, A)                                                        \
    (const void *sendbuf, C sendcount, MPI_Datatype sendtype, int dest, int sendtag,    \
     void *recvbuf, C recvcount, MPI_Datatype recvtype, int source, int recvtag,        \
     MPI_Comm comm, MPI_Request *request)
RX_COUNT_FORMS(Isendrecv, RX_ISENDRECV_PARAMS,
               return rx_isendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                                   recvcount, recvtype, source, recvtag, comm, request, fn);)

/* The data leaves from a packed copy (its wire form, sent as bytes), so the
 * receive may overwrite buf at once. */
static int rx_isendrecv_replace(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                                int sendtag, int source, int recvtag, MPI_Comm comm,
                                MPI_Request *request, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    int rc = rx_xfer_args(c, buf, count, datatype, dest, sendtag, 0, fn);
    if (rc == MPI_SUCCESS)
        rc = rx_xfer_args(c, buf, count, datatype, source, recvtag, 1, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!request)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "request is NULL");
    rx_dtype_t *dt = rx_dtype_get(datatype);
    size_t bytes = (size_t)count * dt->wire;
    rx_watch_t *w = calloc(1, sizeof *w);
    if (!w || !(w->tmp = rx_stage_get(bytes ? bytes : 1))) {
        free(w);
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory for %zu bytes", bytes);
    }
    rx_dtype_pack(dt, buf, (size_t)count, w->tmp);
    rc = rx_isendrecv_post(w, w->tmp, (MPI_Count)bytes, MPI_BYTE, dest, sendtag, buf, count, datatype,
                           source, recvtag, comm);
    if (rc != MPI_SUCCESS) {
        rx_watch_drop(w);
        return rc;
    }
    return rx_watch_start(w, c, request, fn);
}
#define RX_ISENDRECV_REPLACE_PARAMS(C, D, A)                                               \
    (void *buf, C count, MPI_Datatype datatype, int dest, int sendtag, int source,     \
     int recvtag, MPI_Comm comm, MPI_Request *request)
RX_COUNT_FORMS(Isendrecv_replace, RX_ISENDRECV_REPLACE_PARAMS,
               return rx_isendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag,
                                           comm, request, fn);)

int rx_watch_flush(int kind, uintptr_t id, rx_comm_t *c, MPI_Request *request, const char *fn)
{
    rx_watch_t *w = calloc(1, sizeof *w);
    if (!w)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    w->flush = 1;
    w->flush_kind = kind;
    w->flush_id = id;
    w->part[0] = w->part[1] = MPI_REQUEST_NULL;
    return rx_watch_start(w, c, request, fn);
}

/* Profiling control: rdmx's own instrumentation (RDMX_TRACE) counts every
 * message regardless, so the level is accepted and has no effect, as
 * MPI-4.1 §15.2.4 allows. */
int PMPI_Pcontrol(const int level, ...)
{
    (void)level;
    return MPI_SUCCESS;
}
RX_ALIAS(Pcontrol)
