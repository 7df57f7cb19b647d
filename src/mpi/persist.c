/* SPDX-License-Identifier: MIT
 * Persistent requests: Send_init / Ssend_init / Rsend_init / Bsend_init /
 * Recv_init keep their arguments in the request (p_* fields) and a staging
 * buffer for datatypes whose memory is not their packed form, allocated once;
 * Start / Startall re-arm the request and hand it to the p2p layer (or, for
 * persistent collectives and partitioned sends, to persist_coll.c and
 * partitioned.c). Wait and
 * Test (wait.c) leave a completed persistent request allocated and inactive;
 * MPI_Request_free releases it, or, while its operation is under way, a
 * progress hook does once that operation completes. */
#include "persist_impl.h"
#include "bigcount.h"

#include <stdlib.h>

int rx_persist_make(const void *buf, MPI_Count count, MPI_Datatype datatype, int peer, int tag,
                    MPI_Comm comm, MPI_Request *request, int kind, int mode, size_t extra,
                    rx_req_t **out, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    RX_CHECK_COUNT(c, count, fn);
    RX_GET_DTYPE(dt, c, datatype, fn);
    RX_CHECK_BUF(c, buf, count, dt, fn);
    int recv = kind == RX_REQ_PRECV;
    int rc = rx_mpi_check_rank(c, peer, recv, fn);
    if (rc == MPI_SUCCESS)
        rc = rx_mpi_check_tag(c, tag, recv, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!request)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "request is NULL");
    rx_req_t *r = rx_req_alloc(kind);
    if (!r)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of requests");
    rx_req_hold_comm(r, c); /* for the request's whole life */
    r->peer = peer;
    r->tag = tag;
    r->ctx = c->ctx;
    r->p_buf = buf;
    r->p_count = count;
    r->p_dtype = datatype;
    r->p_mode = mode;
    r->bytes = (size_t)count * dt->wire;
    r->user_dtype = dt;
    int raw = rx_dtype_wire_is_raw(dt);
    /* packed once per start into a buffer that lives with the request, which
     * also holds the extra bytes the caller asked for (after the data) */
    size_t staged = (raw ? 0 : r->bytes) + extra;
    if (staged && !(r->staging = malloc(staged))) {
        rx_req_release(r);
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    r->buf = raw ? (void *)buf : r->staging;
    if (!raw && recv)
        r->user_buf = (void *)buf; /* unpacked by wait.c at completion */
    rx_dtype_ref(dt); /* the application may free the type before Start */
    *request = RX_HANDLE(RX_KIND_REQUEST, r->index);
    if (out)
        *out = r;
    return MPI_SUCCESS;
}

/* The parameters of Send_init ... Recv_init, for RX_COUNT_FORMS (the int
 * form and the _c form share one body). */
#define RX_PSEND_PARAMS(C, D, A)                                                        \
    (const void *buf, C count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, \
     MPI_Request *request)
#define RX_PRECV_PARAMS(C, D, A)                                                     \
    (void *buf, C count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, \
     MPI_Request *request)

/* A persistent send in one mode, int and _c forms. */
#define RX_PSEND_FORMS(name, mode)                                                        \
    RX_COUNT_FORMS(name, RX_PSEND_PARAMS,                                                 \
                   return rx_persist_make(buf, count, datatype, dest, tag, comm, request, \
                                          RX_REQ_PSEND, mode, 0, NULL, fn);)
RX_PSEND_FORMS(Send_init, RX_PMODE_STD)
RX_PSEND_FORMS(Ssend_init, RX_PMODE_SYNC)
RX_PSEND_FORMS(Rsend_init, RX_PMODE_READY)
RX_PSEND_FORMS(Bsend_init, RX_PMODE_BUFFERED)
RX_COUNT_FORMS(Recv_init, RX_PRECV_PARAMS,
               return rx_persist_make(buf, count, datatype, source, tag, comm, request,
                                      RX_REQ_PRECV, RX_PMODE_STD, 0, NULL, fn);)

/* Re-arm: clear what the previous round left (protocol state, status). */
static void rx_persist_rearm(rx_req_t *r)
{
    r->complete = 0;
    r->state = RX_RS_NONE;
    r->cancelled = 0;
    r->cancel_wait = 0;
    r->st_source = r->st_tag = r->st_error = 0;
    r->st_bytes = 0;
    r->offset = 0;
    r->rndv_total = 0;
    r->remote_cookie = 0;
    r->world_peer = -1;
    r->next = r->prev = NULL;
    r->persistent_active = 1;
}

static int rx_start_one(MPI_Request h, const char *fn)
{
    rx_req_t *r = rx_req_of_handle(h);
    if (!r || (r->kind != RX_REQ_PSEND && r->kind != RX_REQ_PRECV))
        return rx_mpi_err(NULL, MPI_ERR_REQUEST, fn, "not a persistent request");
    if (r->persistent_active)
        return rx_mpi_err(r->comm, MPI_ERR_REQUEST, fn, "request is already active");
    rx_persist_rearm(r);
    if (r->p_mode == RX_PMODE_COLL)
        return rx_pcoll_start(r);
    if (r->peer == MPI_PROC_NULL) {
        r->st_source = MPI_PROC_NULL;
        r->st_tag = MPI_ANY_TAG;
        r->complete = 1;
        return MPI_SUCCESS;
    }
    if (r->p_mode == RX_PMODE_PART && r->kind == RX_REQ_PSEND) {
        rx_psend_rearm(r); /* sent once every partition is ready */
        return MPI_SUCCESS;
    }
    return rx_persist_send_now(r, fn);
}

int rx_persist_send_now(rx_req_t *r, const char *fn)
{
    rx_comm_t *c = r->comm;
    int rc;
    if (r->kind == RX_REQ_PRECV) {
        rc = rx_p2p_irecv(r);
    } else {
        if (r->staging && r->buf == r->staging)
            rx_dtype_pack(r->user_dtype, r->p_buf, (size_t)r->p_count, r->staging);
        if (r->p_mode == RX_PMODE_BUFFERED) {
            rx_req_t *b;
            int mrc = rx_bsend_start(r->buf, r->bytes, r->peer, r->tag, c, &b, fn);
            if (mrc != MPI_SUCCESS) {
                r->complete = 1;
                r->st_error = mrc;
                return mrc;
            }
            rx_req_release(b); /* the data is in the attached buffer: done */
            r->complete = 1;
            return MPI_SUCCESS;
        }
        r->sync = r->p_mode == RX_PMODE_SYNC;
        rc = rx_p2p_isend(r);
    }
    if (rc != RX_OK) {
        r->complete = 1;
        return rx_mpi_err(c, rx_mpi_class_of(rc), fn, "%s", rx_status_string(rc));
    }
    return MPI_SUCCESS;
}

int PMPI_Start(MPI_Request *request)
{
    RX_CHECK_INIT("MPI_Start");
    if (!request)
        return rx_mpi_err(NULL, MPI_ERR_REQUEST, "MPI_Start", "request is NULL");
    return rx_start_one(*request, "MPI_Start");
}
RX_ALIAS(Start)

int PMPI_Startall(int count, MPI_Request array_of_requests[])
{
    RX_CHECK_INIT("MPI_Startall");
    if (count < 0)
        return rx_mpi_err(NULL, MPI_ERR_COUNT, "MPI_Startall", "negative count %d", count);
    if (count > 0 && !array_of_requests)
        return rx_mpi_err(NULL, MPI_ERR_REQUEST, "MPI_Startall", "request array is NULL");
    for (int i = 0; i < count; i++) {
        int rc = rx_start_one(array_of_requests[i], "MPI_Startall");
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}
RX_ALIAS(Startall)

/* A persistent point-to-point or partitioned request goes, with the
 * datatype reference its init call took. */
static void rx_persist_release(rx_req_t *r)
{
    if (r->user_dtype)
        rx_dtype_unref((rx_dtype_t *)r->user_dtype);
    rx_req_release(r);
}

/* Requests freed while their operation was under way, by request id. */
static int *rx_pfreed;
static int rx_npfreed, rx_pfreed_cap;

/* One of them completed (rx_req_complete): it goes at once, and a staged
 * receive's data lands as a Wait would have done it. Not from a progress
 * hook, which would leave the data out of the buffer until the next poll
 * although a later message that matched after it says it has arrived. */
static void rx_persist_freed_done(rx_req_t *r)
{
    for (int i = 0; i < rx_npfreed; i++) {
        if (rx_pfreed[i] != r->index)
            continue;
        rx_pfreed[i] = rx_pfreed[--rx_npfreed];
        rx_mpi_recv_unpack(r);
        rx_persist_release(r);
        return;
    }
}

int rx_persist_free(rx_req_t *r)
{
    int active = r->persistent_active && !r->complete;
    if (r->p_mode == RX_PMODE_COLL) { /* persist_coll.c's hook lets go of its state */
        if (active)
            r->user_freed = 1;
        else
            rx_req_release(r);
        return RX_OK;
    }
    if (!active) {
        /* complete already but never waited for (a receive that matched a
         * message there when it started): its data lands now */
        if (r->persistent_active)
            rx_mpi_recv_unpack(r);
        rx_persist_release(r);
        return RX_OK;
    }
    if (rx_npfreed == rx_pfreed_cap) {
        int cap = rx_pfreed_cap ? 2 * rx_pfreed_cap : 16;
        int *p = realloc(rx_pfreed, sizeof *p * (size_t)cap);
        if (!p)
            return RX_ERR_NOMEM;
        rx_pfreed = p;
        rx_pfreed_cap = cap;
    }
    rx_req_freed_persistent_done = rx_persist_freed_done;
    r->user_freed = 1; /* the handle is no longer valid */
    rx_pfreed[rx_npfreed++] = r->index;
    return RX_OK;
}
