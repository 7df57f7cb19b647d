/* SPDX-License-Identifier: MIT
 * Matched probes (MPI-4.1 §3.8.2): MPI_Mprobe / MPI_Improbe take the message
 * out of the matching queue as they find it (rx_p2p_improbe), so no other
 * receive or probe can match it; MPI_Mrecv / MPI_Imrecv then receive exactly
 * that message, eager or rendezvous. An MPI_Message names the dequeued
 * message until it is received. */
#include "mpi_impl.h"
#include "bigcount.h"

#include <stdlib.h>

typedef struct rx_msg {
    int handle;          /* handle id */
    struct rx_unexp *u;  /* the message, out of the queue */
    rx_comm_t *comm;     /* held until the message is received */
} rx_msg_t;

/* Messages are their own handle kind, beside those of core/handle.h (a
 * multiple of 4 none of them uses); the predefined MPI_MESSAGE_NO_PROC is
 * index 1, see include/mpi.h. */
#define RX_KIND_MESSAGE 0x74
static rx_htab_t rx_msg_table = {.kind = RX_KIND_MESSAGE};

static int rx_mprobe_args(rx_comm_t *c, int source, int tag, MPI_Message *message,
                          const char *fn)
{
    int rc = rx_mpi_check_rank(c, source, 1, fn);
    if (rc == MPI_SUCCESS)
        rc = rx_mpi_check_tag(c, tag, 1, fn);
    if (rc == MPI_SUCCESS && !message)
        rc = rx_mpi_err(c, MPI_ERR_ARG, fn, "message is NULL");
    return rc;
}

static void rx_msg_status(MPI_Status *status, const struct rx_unexp *u)
{
    if (status == MPI_STATUS_IGNORE)
        return;
    status->MPI_SOURCE = u->src;
    status->MPI_TAG = u->tag;
    status->rx_cancelled = 0;
    status->rx_bytes = (long long)u->len;
}

static void rx_msg_status_proc_null(MPI_Status *status)
{
    rx_mpi_status_empty(status);
    if (status != MPI_STATUS_IGNORE)
        status->MPI_SOURCE = MPI_PROC_NULL;
}

/* A handle for the dequeued message u; on failure u goes back to the head of
 * its queue, where it was the first match (so the order stays right). */
static int rx_msg_publish(rx_comm_t *c, struct rx_unexp *u, MPI_Message *message, const char *fn)
{
    rx_msg_t *m = malloc(sizeof *m);
    int id = m ? rx_htab_add(&rx_msg_table, m, 2) : -1;
    if (id < 0) {
        free(m);
        rx_mq_t *q = rx_mq_get(c->ctx);
        u->next = q->unexp_head;
        q->unexp_head = u;
        if (!q->unexp_tail)
            q->unexp_tail = u;
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    m->handle = id;
    m->u = u;
    m->comm = c;
    rx_comm_hold(c);
    *message = RX_HANDLE(RX_KIND_MESSAGE, id);
    return MPI_SUCCESS;
}

int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                 MPI_Status *status)
{
    const char *fn = "MPI_Improbe";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    int rc = rx_mprobe_args(c, source, tag, message, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!flag)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "flag is NULL");
    *flag = 1;
    if (source == MPI_PROC_NULL) {
        *message = MPI_MESSAGE_NO_PROC;
        rx_msg_status_proc_null(status);
        return MPI_SUCCESS;
    }
    rx_progress_test();
    struct rx_unexp *u = rx_p2p_improbe(c->ctx, source, tag);
    if (!u) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    rx_msg_status(status, u);
    return rx_msg_publish(c, u, message, fn);
}
RX_ALIAS(Improbe)

int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    const char *fn = "MPI_Mprobe";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    int rc = rx_mprobe_args(c, source, tag, message, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (source == MPI_PROC_NULL) {
        *message = MPI_MESSAGE_NO_PROC;
        rx_msg_status_proc_null(status);
        return MPI_SUCCESS;
    }
    struct rx_unexp *u;
    RX_WAIT_UNTIL((u = rx_p2p_improbe(c->ctx, source, tag)) != NULL);
    rx_msg_status(status, u);
    return rx_msg_publish(c, u, message, fn);
}
RX_ALIAS(Mprobe)

/* Start receiving the message of *message into (buf, count, datatype): a
 * request (*out), or NULL for MPI_MESSAGE_NO_PROC. */
static int rx_mrecv_start(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                          rx_req_t **out, const char *fn)
{
    *out = NULL;
    if (!message)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "message is NULL");
    if (*message == MPI_MESSAGE_NO_PROC) {
        *message = MPI_MESSAGE_NULL;
        return MPI_SUCCESS;
    }
    rx_msg_t *m = rx_htab_get(&rx_msg_table, *message);
    if (!m)
        return rx_mpi_err(NULL, MPI_ERR_REQUEST, fn, "invalid message handle%s",
                          *message == MPI_MESSAGE_NULL ? " (MPI_MESSAGE_NULL)" : "");
    rx_comm_t *c = m->comm;
    RX_CHECK_COUNT(c, count, fn);
    RX_GET_DTYPE(dt, c, datatype, fn);
    if (!buf && count > 0 && dt->size > 0)
        return rx_mpi_err(c, MPI_ERR_BUFFER, fn, "NULL buffer with count %lld", (long long)count);
    rx_req_t *r = rx_req_alloc(RX_REQ_RECV);
    if (!r)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of requests");
    rx_req_hold_comm(r, c);
    r->peer = m->u->src;
    r->tag = m->u->tag;
    r->ctx = c->ctx;
    r->buf = buf;
    if (rx_dtype_wire_is_raw(dt)) {
        r->bytes = (size_t)count * (size_t)dt->extent;
    } else { /* a typed receive (p2p.h), holding its type until it completes */
        r->bytes = (size_t)count * dt->wire;
        r->user_buf = buf;
        r->user_count = count;
        r->user_dtype = dt;
        rx_dtype_ref(dt);
    }
    rx_htab_del(&rx_msg_table, m->handle);
    rx_p2p_irecv_matched(r, m->u);
    rx_comm_unhold(c); /* the request holds it now */
    free(m);
    *message = MPI_MESSAGE_NULL;
    *out = r;
    return MPI_SUCCESS;
}

static int rx_imrecv(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                     MPI_Request *request, const char *fn)
{
    RX_CHECK_INIT(fn);
    if (!request)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "request is NULL");
    rx_req_t *r;
    int rc = rx_mrecv_start(buf, count, datatype, message, &r, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!r) { /* MPI_MESSAGE_NO_PROC: done at once */
        if (!(r = rx_req_alloc(RX_REQ_RECV)))
            return rx_mpi_err(NULL, MPI_ERR_NO_MEM, fn, "out of requests");
        r->st_source = MPI_PROC_NULL;
        r->st_tag = MPI_ANY_TAG;
        r->complete = 1;
    }
    *request = RX_HANDLE(RX_KIND_REQUEST, r->index);
    return MPI_SUCCESS;
}
#define RX_IMRECV_PARAMS(C, D, A) \
    (void *buf, C count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request)
RX_COUNT_FORMS(Imrecv, RX_IMRECV_PARAMS,
               return rx_imrecv(buf, count, datatype, message, request, fn);)

static int rx_mrecv(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                    MPI_Status *status, const char *fn)
{
    RX_CHECK_INIT(fn);
    rx_req_t *r;
    int rc = rx_mrecv_start(buf, count, datatype, message, &r, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!r) {
        rx_msg_status_proc_null(status);
        return MPI_SUCCESS;
    }
    RX_WAIT_UNTIL(r->complete);
    rx_comm_t *c = r->comm;
    size_t cap = r->bytes;
    int src = r->st_source, tag = r->st_tag;
    MPI_Request h = RX_HANDLE(RX_KIND_REQUEST, r->index);
    int err = rx_mpi_req_finish(&h, r, status);
    if (err == MPI_ERR_TRUNCATE)
        return rx_mpi_err(c, err, fn,
                          "message from rank %d (tag %d) longer than the receive buffer of %zu bytes",
                          src, tag, cap);
    return err ? rx_mpi_err(c, err, fn, "receive failed") : MPI_SUCCESS;
}
#define RX_MRECV_PARAMS(C, D, A) \
    (void *buf, C count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status)
RX_COUNT_FORMS(Mrecv, RX_MRECV_PARAMS,
               return rx_mrecv(buf, count, datatype, message, status, fn);)
