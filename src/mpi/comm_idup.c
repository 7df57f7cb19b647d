/* SPDX-License-Identifier: MIT
 * MPI_Comm_idup and MPI_Comm_idup_with_info: a duplicate whose context id is
 * agreed without blocking, so members may call it at different times and
 * keep communicating meanwhile.
 *
 * Everything of the duplicate but its context id is made at the call
 * (attribute copy callbacks run then, as in MPI_Comm_dup). The id comes
 * from rounds of messages on the parent's collective context, with one tag
 * taken from the parent's collective sequence at the call (so members agree
 * on it, and blocking collectives of the parent never match these
 * messages). A round, rank 0 of the parent coordinating:
 *   1. every other member sends its mask of free ids;
 *   2. rank 0 ANDs them with its own, reserves the lowest common id of the
 *      nonblocking range (rx_ctx_pick_nb) and sends it out;
 *   3. each member reserves that id if it is still free there (another
 *      nonblocking creation may have taken it since step 1) and answers;
 *   4. rank 0 sends the verdict: commit, retry (reservations given back,
 *      the next masks no longer offer the id that failed) or no id at all.
 * Messages of one pair follow each other in this order, so one tag serves
 * every round. Reservations mark the id taken at once, which is what keeps
 * concurrent nonblocking creations apart. */
#include "info_impl.h"
#include "coll/neighbor.h"

#include <stdlib.h>
#include <string.h>

enum { RX_IDUP_START, RX_IDUP_MASKS, RX_IDUP_CAND, RX_IDUP_OKS, RX_IDUP_COMMIT };
enum { RX_IDUP_RETRY = 0, RX_IDUP_COMMITTED = 1, RX_IDUP_NONE = -1 };

#define RX_IDUP_MAXR 4 /* receives a non-root member has out at once */

typedef struct rx_idup {
    struct rx_idup *next;
    rx_req_t *req;               /* the program's request (holds parent) */
    rx_comm_t *parent;
    rx_comm_t *n;                /* the duplicate, without context id yet */
    MPI_Comm *out;
    int tag, phase, cand, reserved, err;
    uint32_t mine[RX_CTX_WORDS]; /* this member's mask (non-root) */
    uint32_t *masks;             /* rank 0: every member's */
    int32_t cand_msg, ok_msg, verdict;
    int32_t *oks;                /* rank 0: every member's answer */
    rx_req_t **recv;             /* receives of the current step */
    int nrecv;
    rx_req_t **send;             /* sends not yet complete */
    int nsend, sendcap;
} rx_idup_t;

static rx_idup_t *rx_idups;

static rx_req_t *rx_idup_post(rx_idup_t *d, int kind, void *buf, size_t bytes, int peer)
{
    rx_req_t *r = rx_req_alloc(kind);
    if (!r)
        return NULL;
    r->buf = buf;
    r->bytes = bytes;
    r->peer = peer;
    r->tag = d->tag;
    r->comm = d->parent;
    r->ctx = d->parent->ctx + 1;
    if ((kind == RX_REQ_SEND ? rx_p2p_isend(r) : rx_p2p_irecv(r)) != RX_OK) {
        rx_req_release(r);
        return NULL;
    }
    return r;
}

static int rx_idup_send(rx_idup_t *d, void *buf, size_t bytes, int peer)
{
    if (d->nsend == d->sendcap) {
        int cap = d->sendcap ? 2 * d->sendcap : 8;
        rx_req_t **s = realloc(d->send, sizeof *s * (size_t)cap);
        if (!s)
            return RX_ERR_NOMEM;
        d->send = s;
        d->sendcap = cap;
    }
    rx_req_t *r = rx_idup_post(d, RX_REQ_SEND, buf, bytes, peer);
    if (!r)
        return RX_ERR_NOMEM;
    d->send[d->nsend++] = r;
    return RX_OK;
}

static int rx_idup_recv(rx_idup_t *d, void *buf, size_t bytes, int peer)
{
    rx_req_t *r = rx_idup_post(d, RX_REQ_RECV, buf, bytes, peer);
    if (!r)
        return RX_ERR_NOMEM;
    d->recv[d->nrecv++] = r;
    return RX_OK;
}

/* 1 when every receive of the step arrived (their requests then released). */
static int rx_idup_recvs_done(rx_idup_t *d)
{
    for (int i = 0; i < d->nrecv; i++)
        if (!d->recv[i]->complete)
            return 0;
    for (int i = 0; i < d->nrecv; i++) {
        if (d->recv[i]->st_error)
            d->err = RX_ERR_INTERN;
        rx_req_release(d->recv[i]);
    }
    d->nrecv = 0;
    return 1;
}

static void rx_idup_reap_sends(rx_idup_t *d)
{
    int k = 0;
    for (int i = 0; i < d->nsend; i++) {
        if (d->send[i]->complete)
            rx_req_release(d->send[i]);
        else
            d->send[k++] = d->send[i];
    }
    d->nsend = k;
}

static int rx_ctx_is_free(int id) { return id >= 0 && (rx_ctx_mask()[id / 32] >> (id % 32)) & 1; }

/* Rank 0, step 2: every mask is in. */
static int rx_idup_root_pick(rx_idup_t *d)
{
    int p = d->parent->size;
    uint32_t common[RX_CTX_WORDS];
    memcpy(common, rx_ctx_mask(), sizeof common);
    for (int r = 1; r < p; r++)
        for (int w = 0; w < RX_CTX_WORDS; w++)
            common[w] &= d->masks[(size_t)r * RX_CTX_WORDS + w];
    d->cand = rx_ctx_pick_nb(common);
    if (d->cand >= 0) {
        rx_ctx_take(d->cand);
        d->reserved = 1;
    }
    d->cand_msg = d->cand;
    int rc = RX_OK;
    for (int r = 1; r < p && rc == RX_OK; r++)
        rc = rx_idup_send(d, &d->cand_msg, sizeof d->cand_msg, r);
    for (int r = 1; r < p && rc == RX_OK; r++)
        rc = rx_idup_recv(d, &d->oks[r], sizeof d->oks[r], r);
    return rc;
}

/* Rank 0, step 4: every answer is in. */
static int rx_idup_root_verdict(rx_idup_t *d)
{
    int all_ok = d->cand >= 0;
    for (int r = 1; r < d->parent->size; r++)
        all_ok &= d->oks[r] == 1;
    d->verdict = d->cand < 0 ? RX_IDUP_NONE : all_ok ? RX_IDUP_COMMITTED : RX_IDUP_RETRY;
    int rc = RX_OK;
    for (int r = 1; r < d->parent->size && rc == RX_OK; r++)
        rc = rx_idup_send(d, &d->verdict, sizeof d->verdict, r);
    return rc;
}

/* Give the reservation back unless committed; the next phase. */
static int rx_idup_after_verdict(rx_idup_t *d)
{
    if (d->verdict == RX_IDUP_COMMITTED)
        return RX_IDUP_COMMIT;
    if (d->reserved)
        rx_ctx_release(d->cand);
    d->reserved = 0;
    if (d->verdict == RX_IDUP_NONE) {
        d->err = RX_ERR_NOMEM;
        return RX_IDUP_COMMIT;
    }
    return RX_IDUP_START;
}

/* Move one creation on as far as it goes now; 1 when it finished. */
static int rx_idup_step(rx_idup_t *d)
{
    int root = d->parent->rank == 0, rc = RX_OK;
    for (;;) {
        switch (d->phase) {
        case RX_IDUP_START:
            if (root) {
                for (int r = 1; r < d->parent->size && rc == RX_OK; r++)
                    rc = rx_idup_recv(d, d->masks + (size_t)r * RX_CTX_WORDS,
                                      sizeof d->mine, r);
            } else {
                memcpy(d->mine, rx_ctx_mask(), sizeof d->mine);
                rc = rx_idup_send(d, d->mine, sizeof d->mine, 0);
                if (rc == RX_OK)
                    rc = rx_idup_recv(d, &d->cand_msg, sizeof d->cand_msg, 0);
            }
            d->phase = RX_IDUP_MASKS;
            break;
        case RX_IDUP_MASKS: /* root: masks; others: the candidate */
            if (!rx_idup_recvs_done(d))
                return 0;
            if (root) {
                rc = rx_idup_root_pick(d);
                d->phase = RX_IDUP_OKS;
                break;
            }
            d->cand = d->cand_msg;
            d->reserved = rx_ctx_is_free(d->cand);
            if (d->reserved)
                rx_ctx_take(d->cand);
            d->ok_msg = d->reserved;
            rc = rx_idup_send(d, &d->ok_msg, sizeof d->ok_msg, 0);
            if (rc == RX_OK)
                rc = rx_idup_recv(d, &d->verdict, sizeof d->verdict, 0);
            d->phase = RX_IDUP_CAND;
            break;
        case RX_IDUP_CAND: /* others: the verdict */
            if (!rx_idup_recvs_done(d))
                return 0;
            d->phase = rx_idup_after_verdict(d);
            break;
        case RX_IDUP_OKS: /* root: the answers */
            if (!rx_idup_recvs_done(d))
                return 0;
            rc = rx_idup_root_verdict(d);
            d->phase = rx_idup_after_verdict(d);
            break;
        case RX_IDUP_COMMIT: /* sends still out use the buffers */
            rx_idup_reap_sends(d);
            return d->nsend == 0;
        }
        if (rc != RX_OK || d->err) {
            d->err = rc != RX_OK ? rc : d->err;
            d->phase = RX_IDUP_COMMIT;
        }
        rx_idup_reap_sends(d);
    }
}

static void rx_idup_free(rx_idup_t *d)
{
    if (d->n) {
        rx_attr_delete_all(d->n);
        rx_info_destroy(d->n->hints);
        rx_comm_destroy(d->n);
    }
    free(d->masks);
    free(d->oks);
    free(d->recv);
    free(d->send);
    free(d);
}

/* The id is agreed: the duplicate gets it and its handle. */
static void rx_idup_finish(rx_idup_t *d)
{
    rx_req_t *req = d->req;
    MPI_Comm h = MPI_COMM_NULL;
    if (!d->err && rx_comm_make(d->parent, d->parent->group, d->cand, &h, "MPI_Comm_idup") ==
                       MPI_SUCCESS) {
        rx_comm_t *c = rx_comm_get(h);
        c->attrs = d->n->attrs;
        c->topo = d->n->topo;
        c->topo_kind = d->n->topo_kind;
        c->hints = d->n->hints;
        rx_errh_attach(d->n->errhandler); /* counted: errors.c frees unused handlers */
        rx_errh_detach(c->errhandler);
        c->errhandler = d->n->errhandler;
        d->n->attrs = NULL;
        d->n->topo = NULL;
        d->n->hints = NULL;
    } else {
        if (d->reserved)
            rx_ctx_release(d->cand);
        req->st_error = d->err == RX_ERR_NOMEM ? MPI_ERR_NO_MEM : MPI_ERR_INTERN;
    }
    *d->out = h;
    rx_idup_free(d);
    rx_req_complete(req);
}

static int rx_idup_progress(void)
{
    int n = 0;
    for (rx_idup_t **p = &rx_idups; *p;) {
        rx_idup_t *d = *p;
        if (rx_idup_step(d)) {
            *p = d->next;
            rx_idup_finish(d);
            n++;
        } else {
            p = &d->next;
        }
    }
    return n;
}

/* The duplicate as MPI_Comm_dup makes it, minus context id and handle. */
static int rx_idup_prepare(rx_idup_t *d, rx_comm_t *c, const rx_info_t *info, int with_info)
{
    if (!(d->n = rx_comm_new(c->group, 0)))
        return MPI_ERR_NO_MEM;
    d->n->errhandler = c->errhandler;
    if (c->topo && !(d->n->topo = rx_topo_copy(c->topo)))
        return MPI_ERR_NO_MEM;
    d->n->topo_kind = c->topo ? c->topo_kind : 0;
    const rx_info_t *h = with_info ? info : c->hints;
    if (h && !(d->n->hints = rx_info_copy(h)))
        return MPI_ERR_NO_MEM;
    int p = c->size, rc = rx_attr_copy_all(c, d->n);
    if (rc != RX_OK)
        return rc == RX_ERR_NOMEM ? MPI_ERR_NO_MEM : rc; /* or the callback's code */
    d->recv = malloc(sizeof *d->recv * (size_t)(p > RX_IDUP_MAXR ? p : RX_IDUP_MAXR));
    if (!d->recv)
        return MPI_ERR_NO_MEM;
    if (c->rank == 0 && (!(d->masks = calloc((size_t)p, sizeof d->mine)) ||
                         !(d->oks = calloc((size_t)p, sizeof *d->oks))))
        return MPI_ERR_NO_MEM;
    return MPI_SUCCESS;
}

static int rx_idup_start(MPI_Comm comm, MPI_Info info, int with_info, MPI_Comm *newcomm,
                         MPI_Request *request, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    rx_info_t *given = NULL;
    int rc = with_info ? rx_info_arg(c, info, &given, fn) : MPI_SUCCESS;
    if (rc != MPI_SUCCESS)
        return rc;
    if (!newcomm || !request)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "NULL newcomm or request");
    if (c->remote)
        return rx_mpi_err(c, MPI_ERR_UNSUPPORTED_OPERATION, fn, "not available on an "
                          "intercommunicator (MPI_Comm_dup is)");
    if (rx_progress_hook_add(rx_idup_progress) != 0)
        return rx_mpi_err(c, MPI_ERR_INTERN, fn, "no progress hook left");
    rx_idup_t *d = calloc(1, sizeof *d);
    rx_req_t *req = d ? rx_req_alloc(RX_REQ_COLL) : NULL;
    rc = req ? rx_idup_prepare(d, c, given, with_info) : MPI_ERR_NO_MEM;
    if (rc != MPI_SUCCESS) {
        rx_req_release(req);
        if (d)
            rx_idup_free(d);
        return rx_mpi_err(c, rc, fn, "%s", rc == MPI_ERR_NO_MEM
                                               ? "out of memory"
                                               : "an attribute copy callback failed");
    }
    rx_req_hold_comm(req, c);
    d->req = req;
    d->parent = c;
    d->out = newcomm;
    d->tag = rx_coll_tag(c); /* taken in call order: the same at every member */
    d->next = rx_idups;
    rx_idups = d;
    *newcomm = MPI_COMM_NULL; /* until the request completes */
    *request = RX_HANDLE(RX_KIND_REQUEST, req->index);
    rx_progress();
    return MPI_SUCCESS;
}

int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    return rx_idup_start(comm, MPI_INFO_NULL, 0, newcomm, request, "MPI_Comm_idup");
}
RX_ALIAS(Comm_idup)

int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
                             MPI_Request *request)
{
    return rx_idup_start(comm, info, 1, newcomm, request, "MPI_Comm_idup_with_info");
}
RX_ALIAS(Comm_idup_with_info)
