/* SPDX-License-Identifier: MIT
 * Generalized requests (MPI-4.1 §13.2) and the status setters they use.
 *
 * Callbacks run as the standard says: query_fn when a wait or test completes
 * the request (and for MPI_Request_get_status once complete), always with a
 * real status even when the caller passed MPI_STATUS_IGNORE; free_fn right
 * after query_fn in that wait or test, or, for a request given up with
 * MPI_Request_free, in whichever of MPI_Request_free and
 * MPI_Grequest_complete comes last; cancel_fn in MPI_Cancel with complete
 * telling whether MPI_Grequest_complete was already called. */
#include "grequest.h"

#include <stdlib.h>

typedef struct rx_greq {
    MPI_Grequest_query_function *query;
    MPI_Grequest_free_function *free_fn;
    MPI_Grequest_cancel_function *cancel;
    void *extra;
} rx_greq_t;

/* The mark of a generalized request: its coll_progress (never called). */
static int rx_greq_mark(rx_req_t *r)
{
    (void)r;
    return 0;
}

int rx_greq_is(const rx_req_t *r) { return r->kind == RX_REQ_COLL && r->coll_progress == rx_greq_mark; }

static int rx_greq_query(rx_req_t *r, MPI_Status *status)
{
    rx_greq_t *g = r->coll;
    MPI_Status mine;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &mine : status;
    rx_mpi_status_empty(st);
    st->MPI_SOURCE = MPI_UNDEFINED;
    st->MPI_TAG = MPI_UNDEFINED;
    return g->query ? g->query(g->extra, st) : MPI_SUCCESS;
}

/* free_fn, then the request goes; its error code, or 0. */
static int rx_greq_release(rx_req_t *r)
{
    rx_greq_t *g = r->coll;
    int rc = g->free_fn ? g->free_fn(g->extra) : MPI_SUCCESS;
    free(g);
    r->coll = NULL;
    rx_req_release(r);
    return rc;
}

int rx_greq_finish(MPI_Request *handle, rx_req_t *r, MPI_Status *status)
{
    int qrc = rx_greq_query(r, status);
    int frc = rx_greq_release(r);
    *handle = MPI_REQUEST_NULL;
    return qrc != MPI_SUCCESS ? qrc : frc;
}

int rx_greq_status(rx_req_t *r, MPI_Status *status) { return rx_greq_query(r, status); }

int rx_greq_cancel(rx_req_t *r)
{
    rx_greq_t *g = r->coll;
    return g->cancel ? g->cancel(g->extra, r->complete) : MPI_SUCCESS;
}

int rx_greq_free(rx_req_t *r)
{
    if (r->complete)
        return rx_greq_release(r);
    r->user_freed = 1; /* MPI_Grequest_complete calls free_fn and releases it */
    return MPI_SUCCESS;
}

int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                        MPI_Request *request)
{
    const char *fn = "MPI_Grequest_start";
    RX_CHECK_INIT(fn);
    if (!request)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "request is NULL");
    rx_greq_t *g = malloc(sizeof *g);
    rx_req_t *r = g ? rx_req_alloc(RX_REQ_COLL) : NULL;
    if (!r) {
        free(g);
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    *g = (rx_greq_t){query_fn, free_fn, cancel_fn, extra_state};
    r->coll = g;
    r->coll_progress = rx_greq_mark;
    *request = RX_HANDLE(RX_KIND_REQUEST, r->index);
    return MPI_SUCCESS;
}
RX_ALIAS(Grequest_start)

int PMPI_Grequest_complete(MPI_Request request)
{
    const char *fn = "MPI_Grequest_complete";
    RX_CHECK_INIT(fn);
    /* the program may have freed its handle already: look the id up itself */
    rx_req_t *r = RX_HANDLE_KIND(request) == RX_KIND_REQUEST
                      ? rx_req_lookup(RX_HANDLE_INDEX(request)) : NULL;
    if (!r || !rx_greq_is(r))
        return rx_mpi_err(NULL, MPI_ERR_REQUEST, fn, "not a generalized request");
    if (r->complete)
        return rx_mpi_err(NULL, MPI_ERR_REQUEST, fn, "already completed");
    if (r->user_freed) {
        r->complete = 1;
        int rc = rx_greq_release(r);
        return rc == MPI_SUCCESS ? rc : rx_mpi_err(NULL, rc, fn, "free_fn failed");
    }
    rx_req_complete(r);
    return MPI_SUCCESS;
}
RX_ALIAS(Grequest_complete)

static int rx_status_set_elements(MPI_Status *status, MPI_Datatype datatype, long long count,
                                  const char *fn)
{
    RX_CHECK_INIT(fn);
    if (!status || status == MPI_STATUS_IGNORE)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "NULL or ignored status");
    RX_GET_DTYPE(dt, NULL, datatype, fn);
    if (count < 0)
        return rx_mpi_err(NULL, MPI_ERR_COUNT, fn, "negative count %lld", count);
    /* count basic elements: whole elements of datatype as far as they go, the
     * rest of the last one as its leading basic elements */
    long long per = (long long)rx_dtype_elements(dt, dt->wire);
    if (per <= 0 || dt->wire == 0) {
        status->rx_bytes = 0;
        return MPI_SUCCESS;
    }
    long long whole = count / per, rest = count % per, bytes = whole * (long long)dt->wire;
    for (size_t b = 1; rest && b <= dt->wire; b++)
        if ((long long)rx_dtype_elements(dt, b) == rest) {
            bytes += (long long)b;
            rest = 0;
        }
    if (rest)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "%lld elements do not fit datatype", count);
    status->rx_bytes = bytes;
    return MPI_SUCCESS;
}

int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count)
{
    return rx_status_set_elements(status, datatype, count, "MPI_Status_set_elements");
}
RX_ALIAS(Status_set_elements)

int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    return rx_status_set_elements(status, datatype, count, "MPI_Status_set_elements_x");
}
RX_ALIAS(Status_set_elements_x)

int PMPI_Status_set_cancelled(MPI_Status *status, int flag)
{
    RX_CHECK_INIT("MPI_Status_set_cancelled");
    if (!status || status == MPI_STATUS_IGNORE)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Status_set_cancelled", "NULL or ignored status");
    status->rx_cancelled = flag != 0;
    return MPI_SUCCESS;
}
RX_ALIAS(Status_set_cancelled)
