/* SPDX-License-Identifier: MIT
 * Completion: Wait / Test and their any / all / some forms, cancel, free. */
#include "grequest.h"
#include "persist_impl.h"

#include <stdlib.h>

/* A handle names an active request, or is null / inactive (returns NULL
 * without error), or is invalid (*bad = 1). */
static inline __attribute__((always_inline)) rx_req_t *rx_req_of(MPI_Request h, int *bad)
{
    *bad = 0;
    if (h == MPI_REQUEST_NULL)
        return NULL;
    rx_req_t *r = rx_req_of_handle(h);
    if (!r) {
        *bad = 1;
        return NULL;
    }
    if ((r->kind == RX_REQ_PSEND || r->kind == RX_REQ_PRECV) && !r->persistent_active)
        return NULL;
    return r;
}

int rx_mpi_req_finish(MPI_Request *handle, rx_req_t *r, MPI_Status *status)
{
    if (r == &rx_req_done_send) { /* shared and never written */
        rx_mpi_status_from_req(status, r);
        *handle = MPI_REQUEST_NULL;
        return MPI_SUCCESS;
    }
    if ((r->kind == RX_REQ_RECV || r->kind == RX_REQ_SEND) && !r->staging && !r->user_dtype) {
        /* contiguous data, nothing to unpack or drop: the common case */
        rx_mpi_status_from_req(status, r);
        int err = r->st_error;
        rx_req_release(r);
        *handle = MPI_REQUEST_NULL;
        return err;
    }
    if (rx_greq_is(r))
        return rx_greq_finish(handle, r, status);
    rx_mpi_recv_unpack(r);
    rx_mpi_status_from_req(status, r);
    int err = r->st_error;
    if (r->kind == RX_REQ_PSEND || r->kind == RX_REQ_PRECV) {
        r->persistent_active = 0;
    } else {
        rx_req_release(r);
        *handle = MPI_REQUEST_NULL;
    }
    return err;
}

static int rx_bad_request(const char *fn, int i)
{
    if (i < 0)
        return rx_mpi_err(NULL, MPI_ERR_REQUEST, fn, "invalid request handle");
    return rx_mpi_err(NULL, MPI_ERR_REQUEST, fn, "invalid request handle at index %d", i);
}

int PMPI_Wait(MPI_Request *request, MPI_Status *status)
{
    RX_CHECK_INIT("MPI_Wait");
    if (!request)
        return rx_mpi_err(NULL, MPI_ERR_REQUEST, "MPI_Wait", "request is NULL");
    int bad;
    rx_req_t *r = rx_req_of(*request, &bad);
    if (bad)
        return rx_bad_request("MPI_Wait", -1);
    if (!r) {
        rx_mpi_status_empty(status);
        return MPI_SUCCESS;
    }
    RX_WAIT_UNTIL(r->complete);
    rx_comm_t *c = r->comm;
    int err = rx_mpi_req_finish(request, r, status);
    return err ? rx_mpi_err(c, err, "MPI_Wait", "%s", err == MPI_ERR_TRUNCATE
                            ? "message longer than the receive buffer" : "request failed")
               : MPI_SUCCESS;
}
RX_ALIAS(Wait)

int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    RX_CHECK_INIT("MPI_Test");
    if (!request || !flag)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Test", "NULL argument");
    int bad;
    rx_req_t *r = rx_req_of(*request, &bad);
    if (bad)
        return rx_bad_request("MPI_Test", -1);
    if (!r) {
        *flag = 1;
        rx_mpi_status_empty(status);
        return MPI_SUCCESS;
    }
    if (!r->complete)
        rx_progress_test();
    *flag = r->complete;
    if (!*flag)
        return MPI_SUCCESS;
    rx_comm_t *c = r->comm;
    int err = rx_mpi_req_finish(request, r, status);
    return err ? rx_mpi_err(c, err, "MPI_Test", "request failed") : MPI_SUCCESS;
}
RX_ALIAS(Test)

/* Checks every handle and sets *from to the first request not complete
 * (count if none), so a wait need not look them all up again to start. */
static int rx_check_array_from(int count, MPI_Request reqs[], int *from, const char *fn)
{
    *from = count;
    if (count < 0)
        return rx_mpi_err(NULL, MPI_ERR_COUNT, fn, "negative count %d", count);
    if (count > 0 && !reqs)
        return rx_mpi_err(NULL, MPI_ERR_REQUEST, fn, "request array is NULL");
    for (int i = 0; i < count; i++) {
        int bad;
        rx_req_t *r = rx_req_of(reqs[i], &bad);
        if (bad)
            return rx_bad_request(fn, i);
        if (r && !r->complete && *from == count)
            *from = i;
    }
    return MPI_SUCCESS;
}

static int rx_check_array(int count, MPI_Request reqs[], const char *fn)
{
    int from;
    return rx_check_array_from(count, reqs, &from, fn);
}

static MPI_Status *rx_status_at(MPI_Status *statuses, int i)
{
    return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

/* The error field of a status is written only by the calls that return several
 * and only when they fail with MPI_ERR_IN_STATUS (MPI-4.1 3.2.5): statuses[i] of
 * a request that ended with code err, when one of the n statuses written so far
 * failed (*any_err, set here). The first failure sets the earlier ones' fields. */
static void rx_status_error(MPI_Status statuses[], int i, int err, int *any_err)
{
    if (err && !*any_err && statuses != MPI_STATUSES_IGNORE)
        for (int j = 0; j < i; j++)
            statuses[j].MPI_ERROR = MPI_SUCCESS;
    *any_err |= err != 0;
    if (*any_err && statuses != MPI_STATUSES_IGNORE)
        statuses[i].MPI_ERROR = err;
}

/* Finish every completed request of the array; returns MPI_ERR_IN_STATUS if
 * any failed (per-request codes then stand in the statuses). */
static int rx_finish_all(int count, MPI_Request reqs[], MPI_Status statuses[], const char *fn)
{
    int any_err = 0;
    rx_comm_t *errc = NULL;
    for (int i = 0; i < count; i++) {
        int bad;
        rx_req_t *r = rx_req_of(reqs[i], &bad);
        MPI_Status *st = rx_status_at(statuses, i);
        if (!r) {
            rx_mpi_status_empty(st);
            rx_status_error(statuses, i, MPI_SUCCESS, &any_err);
            continue;
        }
        rx_comm_t *c = r->comm;
        int err = rx_mpi_req_finish(&reqs[i], r, st);
        rx_status_error(statuses, i, err, &any_err);
        if (err)
            errc = c;
    }
    if (!any_err)
        return MPI_SUCCESS;
    if (statuses == MPI_STATUSES_IGNORE)
        return rx_mpi_err(errc, MPI_ERR_IN_STATUS, fn, "a request failed");
    return rx_mpi_err(errc, MPI_ERR_IN_STATUS, fn, "a request failed (see the statuses)");
}

/* Whether every request from *from on is complete; *from moves to the
 * first one that is not, so a wait that tests again skips those already
 * seen complete (a request stays complete until the wait finishes it). */
static int rx_all_complete_from(int count, MPI_Request reqs[], int *from)
{
    for (int i = *from; i < count; i++) {
        int bad;
        rx_req_t *r = rx_req_of(reqs[i], &bad);
        if (r && !r->complete) {
            *from = i;
            return 0;
        }
    }
    *from = count;
    return 1;
}

static int rx_all_complete(int count, MPI_Request reqs[])
{
    int from = 0;
    return rx_all_complete_from(count, reqs, &from);
}

int PMPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[])
{
    const char *fn = "MPI_Waitall";
    RX_CHECK_INIT(fn);
    int from;
    int rc = rx_check_array_from(count, array_of_requests, &from, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (from < count)
        RX_WAIT_UNTIL(rx_all_complete_from(count, array_of_requests, &from));
    return rx_finish_all(count, array_of_requests, array_of_statuses, fn);
}
RX_ALIAS(Waitall)

/* Testall's first half, shared with MPI_Request_get_status_all: checks the
 * arguments, progresses once if needed and sets *flag. */
static int rx_test_all(int count, MPI_Request reqs[], int *flag, const char *fn)
{
    int rc = rx_check_array(count, reqs, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!flag)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "flag is NULL");
    if (!rx_all_complete(count, reqs))
        rx_progress_test();
    *flag = rx_all_complete(count, reqs);
    return MPI_SUCCESS;
}

int PMPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                 MPI_Status array_of_statuses[])
{
    const char *fn = "MPI_Testall";
    RX_CHECK_INIT(fn);
    int rc = rx_test_all(count, array_of_requests, flag, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    return *flag ? rx_finish_all(count, array_of_requests, array_of_statuses, fn) : MPI_SUCCESS;
}
RX_ALIAS(Testall)

/* Index of a completed active request, -1 if none, -2 if none is active. */
static int rx_find_complete(int count, MPI_Request reqs[])
{
    int active = 0;
    for (int i = 0; i < count; i++) {
        int bad;
        rx_req_t *r = rx_req_of(reqs[i], &bad);
        if (!r)
            continue;
        active = 1;
        if (r->complete)
            return i;
    }
    return active ? -1 : -2;
}

static int rx_finish_one(MPI_Request reqs[], int i, MPI_Status *status, const char *fn)
{
    int bad;
    rx_req_t *r = rx_req_of(reqs[i], &bad);
    rx_comm_t *c = r->comm;
    int err = rx_mpi_req_finish(&reqs[i], r, status);
    return err ? rx_mpi_err(c, err, fn, "request %d failed", i) : MPI_SUCCESS;
}

int PMPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)
{
    const char *fn = "MPI_Waitany";
    RX_CHECK_INIT(fn);
    int rc = rx_check_array(count, array_of_requests, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!index)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "index is NULL");
    int i;
    RX_WAIT_UNTIL((i = rx_find_complete(count, array_of_requests)) != -1);
    if (i == -2) {
        *index = MPI_UNDEFINED;
        rx_mpi_status_empty(status);
        return MPI_SUCCESS;
    }
    *index = i;
    return rx_finish_one(array_of_requests, i, status, fn);
}
RX_ALIAS(Waitany)

/* Testany's first half, shared with MPI_Request_get_status_any: checks the
 * arguments, progresses once if needed; *found as rx_find_complete gives. */
static int rx_test_any(int count, MPI_Request reqs[], int *index, int *flag, int *found,
                       const char *fn)
{
    int rc = rx_check_array(count, reqs, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!index || !flag)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "NULL argument");
    *found = rx_find_complete(count, reqs);
    if (*found == -1) {
        rx_progress_test();
        *found = rx_find_complete(count, reqs);
    }
    return MPI_SUCCESS;
}

int PMPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag,
                 MPI_Status *status)
{
    const char *fn = "MPI_Testany";
    RX_CHECK_INIT(fn);
    int i;
    int rc = rx_test_any(count, array_of_requests, index, flag, &i, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (i == -2) {
        *flag = 1;
        *index = MPI_UNDEFINED;
        rx_mpi_status_empty(status);
        return MPI_SUCCESS;
    }
    *flag = i >= 0;
    *index = MPI_UNDEFINED;
    if (i < 0)
        return MPI_SUCCESS;
    *index = i;
    return rx_finish_one(array_of_requests, i, status, fn);
}
RX_ALIAS(Testany)

static int rx_peek_status(rx_req_t *r, MPI_Status *status);

/* MPI_Waitsome (block), MPI_Testsome and MPI_Request_get_status_some (peek:
 * statuses of the completed requests, which stay as they are): the checks,
 * progress (until a request completes, or once), then every completed
 * request reported. All requests null or inactive: *outcount MPI_UNDEFINED. */
static int rx_some(int incount, MPI_Request reqs[], int *outcount, int indices[],
                   MPI_Status statuses[], int block, int peek, const char *fn)
{
    RX_CHECK_INIT(fn);
    int rc = rx_check_array(incount, reqs, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!outcount || (incount > 0 && !indices))
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "NULL argument");
    int n = 0, any_err = 0;
    if (block) {
        RX_WAIT_UNTIL((n = rx_find_complete(incount, reqs)) != -1);
    } else if ((n = rx_find_complete(incount, reqs)) == -1) {
        rx_progress_test();
        n = rx_find_complete(incount, reqs);
    }
    if (n == -2) {
        *outcount = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    rx_comm_t *errc = NULL;
    n = 0;
    for (int i = 0; i < incount; i++) {
        int bad;
        rx_req_t *r = rx_req_of(reqs[i], &bad);
        if (!r || !r->complete)
            continue;
        rx_comm_t *c = r->comm;
        MPI_Status *st = rx_status_at(statuses, n);
        int err = peek ? rx_peek_status(r, st) : rx_mpi_req_finish(&reqs[i], r, st);
        rx_status_error(statuses, n, err, &any_err);
        if (err)
            errc = c;
        indices[n++] = i;
    }
    *outcount = n;
    return any_err ? rx_mpi_err(errc, MPI_ERR_IN_STATUS, fn, "a request failed") : MPI_SUCCESS;
}

int PMPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[])
{
    return rx_some(incount, array_of_requests, outcount, array_of_indices, array_of_statuses, 1,
                   0, "MPI_Waitsome");
}
RX_ALIAS(Waitsome)

int PMPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[])
{
    return rx_some(incount, array_of_requests, outcount, array_of_indices, array_of_statuses, 0,
                   0, "MPI_Testsome");
}
RX_ALIAS(Testsome)

int PMPI_Request_free(MPI_Request *request)
{
    RX_CHECK_INIT("MPI_Request_free");
    if (!request)
        return rx_mpi_err(NULL, MPI_ERR_REQUEST, "MPI_Request_free", "request is NULL");
    rx_req_t *r = rx_req_of_handle(*request);
    if (!r)
        return rx_mpi_err(NULL, MPI_ERR_REQUEST, "MPI_Request_free", "invalid request handle%s",
                          *request == MPI_REQUEST_NULL ? " (MPI_REQUEST_NULL)" : "");
    if (rx_greq_is(r)) {
        *request = MPI_REQUEST_NULL;
        int rc = rx_greq_free(r);
        return rc == MPI_SUCCESS ? rc : rx_mpi_err(NULL, rc, "MPI_Request_free", "free_fn failed");
    }
    if (r->kind == RX_REQ_PSEND || r->kind == RX_REQ_PRECV) {
        if (rx_persist_free(r) != RX_OK)
            return rx_mpi_err(r->comm, MPI_ERR_NO_MEM, "MPI_Request_free", "out of memory");
    } else if (r->complete) {
        rx_req_release(r);
    } else {
        r->user_freed = 1; /* released when the operation completes */
    }
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}
RX_ALIAS(Request_free)

int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    RX_CHECK_INIT("MPI_Request_get_status");
    if (!flag)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Request_get_status", "flag is NULL");
    int bad;
    rx_req_t *r = rx_req_of(request, &bad);
    if (bad)
        return rx_bad_request("MPI_Request_get_status", -1);
    if (!r) {
        *flag = 1;
        rx_mpi_status_empty(status);
        return MPI_SUCCESS;
    }
    if (!r->complete)
        rx_progress_test();
    *flag = r->complete;
    if (*flag && rx_greq_is(r)) {
        int rc = rx_greq_status(r, status);
        return rc == MPI_SUCCESS ? rc
                                 : rx_mpi_err(NULL, rc, "MPI_Request_get_status", "query_fn failed");
    }
    if (*flag)
        rx_mpi_status_from_req(status, r);
    return MPI_SUCCESS;
}
RX_ALIAS(Request_get_status)

/* The MPI-4.1 array forms of MPI_Request_get_status (§3.7.6): they report
 * what Testany / Testall / Testsome would, but leave every request as it is
 * (active, allocated, its handle unchanged) for a later completion call. */

/* status of a completed active request without finishing it; the error it
 * completed with (the query_fn's for a generalized request). */
static int rx_peek_status(rx_req_t *r, MPI_Status *status)
{
    if (rx_greq_is(r))
        return rx_greq_status(r, status);
    rx_mpi_status_from_req(status, r);
    return r->st_error;
}

int PMPI_Request_get_status_any(int count, MPI_Request array_of_requests[], int *index,
                                int *flag, MPI_Status *status)
{
    const char *fn = "MPI_Request_get_status_any";
    RX_CHECK_INIT(fn);
    int i;
    int rc = rx_test_any(count, array_of_requests, index, flag, &i, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    *index = MPI_UNDEFINED;
    *flag = i != -1;
    if (i == -2)
        rx_mpi_status_empty(status);
    if (i < 0)
        return MPI_SUCCESS;
    *index = i;
    int bad;
    rx_req_t *r = rx_req_of(array_of_requests[i], &bad);
    int err = rx_peek_status(r, status);
    return err ? rx_mpi_err(r->comm, err, fn, "request %d failed", i) : MPI_SUCCESS;
}
RX_ALIAS(Request_get_status_any)

int PMPI_Request_get_status_all(int count, MPI_Request array_of_requests[], int *flag,
                                MPI_Status array_of_statuses[])
{
    const char *fn = "MPI_Request_get_status_all";
    RX_CHECK_INIT(fn);
    int rc = rx_test_all(count, array_of_requests, flag, fn);
    if (rc != MPI_SUCCESS || !*flag)
        return rc;
    rx_comm_t *errc = NULL;
    int any_err = 0;
    for (int i = 0; i < count; i++) {
        int bad;
        rx_req_t *r = rx_req_of(array_of_requests[i], &bad);
        MPI_Status *st = rx_status_at(array_of_statuses, i);
        int err = MPI_SUCCESS;
        if (!r)
            rx_mpi_status_empty(st);
        else if ((err = rx_peek_status(r, st)) != MPI_SUCCESS)
            errc = r->comm;
        rx_status_error(array_of_statuses, i, err, &any_err);
    }
    return any_err ? rx_mpi_err(errc, MPI_ERR_IN_STATUS, fn, "a request failed") : MPI_SUCCESS;
}
RX_ALIAS(Request_get_status_all)

int PMPI_Request_get_status_some(int incount, MPI_Request array_of_requests[], int *outcount,
                                 int array_of_indices[], MPI_Status array_of_statuses[])
{
    return rx_some(incount, array_of_requests, outcount, array_of_indices, array_of_statuses, 0,
                   1, "MPI_Request_get_status_some");
}
RX_ALIAS(Request_get_status_some)

int PMPI_Cancel(MPI_Request *request)
{
    RX_CHECK_INIT("MPI_Cancel");
    if (!request)
        return rx_mpi_err(NULL, MPI_ERR_REQUEST, "MPI_Cancel", "request is NULL");
    int bad;
    rx_req_t *r = rx_req_of(*request, &bad);
    if (bad || !r)
        return rx_mpi_err(NULL, MPI_ERR_REQUEST, "MPI_Cancel", "invalid request handle");
    if (rx_greq_is(r)) {
        int rc = rx_greq_cancel(r);
        return rc == MPI_SUCCESS ? rc : rx_mpi_err(NULL, rc, "MPI_Cancel", "cancel_fn failed");
    }
    /* receives still unmatched are cancelled at once; a send that waits for
     * its receiver asks it to drop the message and completes with the
     * answer; one that completed without the receiver (eager) stays sent,
     * which MPI allows */
    if ((r->kind == RX_REQ_RECV || r->kind == RX_REQ_PRECV) && !r->complete)
        rx_p2p_cancel_recv(r);
    else if ((r->kind == RX_REQ_SEND || r->kind == RX_REQ_PSEND) && !r->complete && !r->is_bsend &&
             r->p_mode != RX_PMODE_COLL && r->p_mode != RX_PMODE_PART) {
        int rc = rx_p2p_cancel_send(r);
        if (rc != RX_OK)
            return rx_mpi_err(r->comm, rx_mpi_class_of(rc), "MPI_Cancel", "the cancel request could not be sent");
    }
    return MPI_SUCCESS;
}
RX_ALIAS(Cancel)
