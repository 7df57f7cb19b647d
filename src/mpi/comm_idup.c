/* SPDX-License-Identifier: MIT
 * MPI_Comm_idup and MPI_Comm_idup_with_info: a duplicate whose context ids
 * are agreed without blocking, so members may call it at different times
 * and keep communicating meanwhile. Intra- and intercommunicators alike.
 *
 * Everything of the duplicate but its context ids is made at the call
 * (attribute copy callbacks run then, as in MPI_Comm_dup). The ids (one for
 * an intracommunicator; two for an intercommunicator: itself and its local
 * communicator) come from rounds of messages along a tree over the members,
 * with one tag taken from the parent's collective sequence at the call (so
 * members agree on it, and blocking collectives of the parent never match
 * these messages). A round, the tree's root coordinating:
 *   1. every member sends up the AND of its mask of free ids and those of
 *      the members below it;
 *   2. the root picks the lowest ids of the nonblocking range free in the
 *      AND of all (rx_ctx_pick_nb), reserves them and sends them down;
 *   3. each member reserves them if still free there (another nonblocking
 *      creation may have taken one since step 1) and sends up whether it
 *      and every member below could;
 *   4. the root sends the verdict down: commit, retry (reservations given
 *      back, the next masks no longer offer the ids that failed) or no ids.
 * Messages of one pair follow each other in this order, so one tag serves
 * every round. Reservations mark the ids taken at once, which is what keeps
 * concurrent nonblocking creations apart.
 *
 * The tree: on an intracommunicator rank 0 above every other member, over
 * the parent's collective context. An intercommunicator has two roots, the
 * leaders (local rank 0) of the groups, each above its group's members over
 * the local communicator's point-to-point context (which nothing else uses:
 * the hidden local communicator runs only collectives). The leaders swap
 * what they gathered in steps 1 and 3 over the intercommunicator's
 * collective context, and each then decides as one root would: both see the
 * same masks and answers, so they pick the same ids and the same verdict,
 * and neither has to be chosen over the other. */
#include "info_impl.h"
#include "inter_impl.h"
#include "coll/neighbor.h"

#include <stdlib.h>
#include <string.h>

enum { RX_IDUP_START, RX_IDUP_MASKS, RX_IDUP_PEER_MASK, RX_IDUP_CAND, RX_IDUP_SPREAD,
       RX_IDUP_OKS, RX_IDUP_PEER_OK, RX_IDUP_VERDICT, RX_IDUP_DECIDE, RX_IDUP_COMMIT };
enum { RX_IDUP_RETRY = 0, RX_IDUP_COMMITTED = 1, RX_IDUP_NONE = -1 };

/* A tree edge: the peer's rank in comm, messages on context ctx. */
typedef struct rx_idup_link {
    rx_comm_t *comm;
    uint32_t ctx;
    int peer;
} rx_idup_link_t;

typedef struct rx_idup {
    struct rx_idup *next;
    rx_req_t *req;               /* the program's request (holds parent) */
    rx_comm_t *parent;
    rx_comm_t *n;                /* the duplicate, without context ids yet */
    MPI_Comm *out;
    int tag, phase, nids, reserved, err;
    int has_up, has_peer;        /* at a root: no member above; the other group's root */
    rx_idup_link_t up, peer, *down; /* the member above, the other root, those below */
    int ndown;
    uint32_t mine[RX_CTX_WORDS]; /* the AND of this member's mask and those below */
    uint32_t peer_mask[RX_CTX_WORDS], sent_mask[RX_CTX_WORDS]; /* between the roots */
    uint32_t *masks;             /* the masks from below */
    int32_t cand[2];             /* the ids of the round (cand[0] < 0: none) */
    int32_t ok, up_ok, peer_ok, sent_ok, verdict;
    int32_t *oks;                /* the answers from below */
    rx_req_t **recv;             /* receives of the current step */
    int nrecv;
    rx_req_t **send;             /* sends not yet complete */
    int nsend, sendcap;
} rx_idup_t;

static rx_idup_t *rx_idups;

static rx_req_t *rx_idup_post(rx_idup_t *d, int kind, void *buf, size_t bytes,
                              const rx_idup_link_t *l)
{
    rx_req_t *r = rx_req_alloc(kind);
    if (!r)
        return NULL;
    r->buf = buf;
    r->bytes = bytes;
    r->peer = l->peer;
    r->tag = d->tag;
    r->comm = l->comm;
    r->ctx = l->ctx;
    if ((kind == RX_REQ_SEND ? rx_p2p_isend(r) : rx_p2p_irecv(r)) != RX_OK) {
        rx_req_release(r);
        return NULL;
    }
    return r;
}

static int rx_idup_send(rx_idup_t *d, void *buf, size_t bytes, const rx_idup_link_t *l)
{
    if (d->nsend == d->sendcap) {
        int cap = d->sendcap ? 2 * d->sendcap : 8;
        rx_req_t **s = realloc(d->send, sizeof *s * (size_t)cap);
        if (!s)
            return RX_ERR_NOMEM;
        d->send = s;
        d->sendcap = cap;
    }
    rx_req_t *r = rx_idup_post(d, RX_REQ_SEND, buf, bytes, l);
    if (!r)
        return RX_ERR_NOMEM;
    d->send[d->nsend++] = r;
    return RX_OK;
}

static int rx_idup_recv(rx_idup_t *d, void *buf, size_t bytes, const rx_idup_link_t *l)
{
    rx_req_t *r = rx_idup_post(d, RX_REQ_RECV, buf, bytes, l);
    if (!r)
        return RX_ERR_NOMEM;
    d->recv[d->nrecv++] = r;
    return RX_OK;
}

/* The same message to every member below. */
static int rx_idup_send_down(rx_idup_t *d, void *buf, size_t bytes)
{
    int rc = RX_OK;
    for (int i = 0; i < d->ndown && rc == RX_OK; i++)
        rc = rx_idup_send(d, buf, bytes, &d->down[i]);
    return rc;
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

/* Step 1: this member's mask ANDed with those from below. */
static void rx_idup_and_masks(rx_idup_t *d)
{
    memcpy(d->mine, rx_ctx_mask(), sizeof d->mine);
    for (int i = 0; i < d->ndown; i++)
        for (int w = 0; w < RX_CTX_WORDS; w++)
            d->mine[w] &= d->masks[(size_t)i * RX_CTX_WORDS + w];
}

/* Step 2 at the root: the lowest ids free everywhere. */
static void rx_idup_pick(rx_idup_t *d)
{
    d->cand[0] = d->cand[1] = -1;
    for (int k = 0; k < d->nids; k++) {
        int id = rx_ctx_pick_nb(d->mine);
        if (id < 0) {
            d->cand[0] = -1;
            break;
        }
        d->cand[k] = id;
        d->mine[id / 32] &= ~(1u << (id % 32));
    }
}

/* Step 3: reserve the round's ids if every one is free here. */
static void rx_idup_reserve(rx_idup_t *d)
{
    int all = d->cand[0] >= 0;
    for (int k = 0; k < d->nids && all; k++)
        all = rx_ctx_is_free(d->cand[k]);
    for (int k = 0; k < d->nids && all; k++)
        rx_ctx_take(d->cand[k]);
    d->reserved = all;
    d->ok = all;
}

static void rx_idup_unreserve(rx_idup_t *d)
{
    for (int k = 0; k < d->nids && d->reserved; k++)
        rx_ctx_release(d->cand[k]);
    d->reserved = 0;
}

/* Step 4 everywhere: the reservation stays or goes; the next phase. */
static int rx_idup_after_verdict(rx_idup_t *d)
{
    if (d->verdict == RX_IDUP_COMMITTED)
        return RX_IDUP_COMMIT;
    rx_idup_unreserve(d);
    if (d->verdict == RX_IDUP_NONE) {
        d->err = RX_ERR_NOMEM;
        return RX_IDUP_COMMIT;
    }
    return RX_IDUP_START;
}

/* Move one creation on as far as it goes now; 1 when it finished. */
static int rx_idup_step(rx_idup_t *d)
{
    int rc = RX_OK;
    for (;;) {
        switch (d->phase) {
        case RX_IDUP_START:
            for (int i = 0; i < d->ndown && rc == RX_OK; i++)
                rc = rx_idup_recv(d, d->masks + (size_t)i * RX_CTX_WORDS, sizeof d->mine,
                                  &d->down[i]);
            d->phase = RX_IDUP_MASKS;
            break;
        case RX_IDUP_MASKS: /* the masks from below */
            if (!rx_idup_recvs_done(d))
                return 0;
            rx_idup_and_masks(d);
            if (d->has_up) {
                rc = rx_idup_send(d, d->mine, sizeof d->mine, &d->up);
                if (rc == RX_OK)
                    rc = rx_idup_recv(d, d->cand, sizeof d->cand, &d->up);
                d->phase = RX_IDUP_CAND;
                break;
            }
            if (d->has_peer) { /* sent from a copy: mine changes before the send completes */
                memcpy(d->sent_mask, d->mine, sizeof d->mine);
                rc = rx_idup_send(d, d->sent_mask, sizeof d->sent_mask, &d->peer);
                if (rc == RX_OK)
                    rc = rx_idup_recv(d, d->peer_mask, sizeof d->peer_mask, &d->peer);
                d->phase = RX_IDUP_PEER_MASK;
                break;
            }
            __attribute__((fallthrough)); /* a single root decides at once */
        case RX_IDUP_PEER_MASK: /* the other root's mask */
            if (!rx_idup_recvs_done(d))
                return 0;
            for (int w = 0; d->has_peer && w < RX_CTX_WORDS; w++)
                d->mine[w] &= d->peer_mask[w];
            rx_idup_pick(d);
            rx_idup_reserve(d);
            d->phase = RX_IDUP_SPREAD;
            break;
        case RX_IDUP_CAND: /* the ids from above */
            if (!rx_idup_recvs_done(d))
                return 0;
            rx_idup_reserve(d);
            d->phase = RX_IDUP_SPREAD;
            break;
        case RX_IDUP_SPREAD:
            rc = rx_idup_send_down(d, d->cand, sizeof d->cand);
            for (int i = 0; i < d->ndown && rc == RX_OK; i++)
                rc = rx_idup_recv(d, &d->oks[i], sizeof d->oks[i], &d->down[i]);
            d->phase = RX_IDUP_OKS;
            break;
        case RX_IDUP_OKS: /* the answers from below */
            if (!rx_idup_recvs_done(d))
                return 0;
            d->up_ok = d->ok;
            for (int i = 0; i < d->ndown; i++)
                d->up_ok &= d->oks[i] == 1;
            if (d->has_up) {
                rc = rx_idup_send(d, &d->up_ok, sizeof d->up_ok, &d->up);
                if (rc == RX_OK)
                    rc = rx_idup_recv(d, &d->verdict, sizeof d->verdict, &d->up);
                d->phase = RX_IDUP_VERDICT;
                break;
            }
            if (d->has_peer) {
                d->sent_ok = d->up_ok;
                rc = rx_idup_send(d, &d->sent_ok, sizeof d->sent_ok, &d->peer);
                if (rc == RX_OK)
                    rc = rx_idup_recv(d, &d->peer_ok, sizeof d->peer_ok, &d->peer);
                d->phase = RX_IDUP_PEER_OK;
                break;
            }
            __attribute__((fallthrough));
        case RX_IDUP_PEER_OK: /* the other root's answer */
            if (!rx_idup_recvs_done(d))
                return 0;
            if (d->has_peer)
                d->up_ok &= d->peer_ok == 1;
            d->verdict = d->cand[0] < 0 ? RX_IDUP_NONE
                         : d->up_ok   ? RX_IDUP_COMMITTED
                                      : RX_IDUP_RETRY;
            d->phase = RX_IDUP_DECIDE;
            break;
        case RX_IDUP_VERDICT: /* the verdict from above */
            if (!rx_idup_recvs_done(d))
                return 0;
            d->phase = RX_IDUP_DECIDE;
            break;
        case RX_IDUP_DECIDE:
            rc = rx_idup_send_down(d, &d->verdict, sizeof d->verdict);
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
    free(d->down);
    free(d->recv);
    free(d->send);
    free(d);
}

/* The duplicate with the agreed ids: an intercommunicator takes the second
 * for its local communicator. */
static int rx_idup_make(rx_idup_t *d, MPI_Comm *h)
{
    rx_comm_t *p = d->parent;
    const char *fn = "MPI_Comm_idup";
    if (!p->remote)
        return rx_comm_make(p, p->group, d->cand[0], h, fn);
    int ids[2] = {d->cand[0], d->cand[1]};
    return rx_inter_make(p, p->group, p->remote, ids, h, fn);
}

/* The ids are agreed: the duplicate gets them and its handle. */
static void rx_idup_finish(rx_idup_t *d)
{
    rx_req_t *req = d->req;
    MPI_Comm h = MPI_COMM_NULL;
    if (!d->err && rx_idup_make(d, &h) == MPI_SUCCESS) {
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
        rx_idup_unreserve(d);
        h = MPI_COMM_NULL;
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

/* The tree of c (see the top of the file): d->up, d->peer and d->down. */
static int rx_idup_tree(rx_idup_t *d, rx_comm_t *c)
{
    rx_comm_t *lc = c->remote ? c->local : c;
    rx_idup_link_t group = {lc, c->remote ? lc->ctx : c->ctx + 1, 0};
    if (!(d->down = malloc(sizeof *d->down * (size_t)c->size)))
        return MPI_ERR_NO_MEM;
    d->has_up = c->rank != 0;
    d->up = group;
    d->has_peer = c->remote && c->rank == 0;
    d->peer = (rx_idup_link_t){c, c->ctx + 1, 0}; /* the other group's leader */
    for (int r = 1; c->rank == 0 && r < c->size; r++) {
        d->down[d->ndown] = group;
        d->down[d->ndown++].peer = r;
    }
    d->nids = c->remote ? 2 : 1;
    int nd = d->ndown > 0 ? d->ndown : 1;
    d->recv = malloc(sizeof *d->recv * (size_t)nd);
    d->masks = calloc((size_t)nd, sizeof d->mine);
    d->oks = calloc((size_t)nd, sizeof *d->oks);
    return d->recv && d->masks && d->oks ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

/* The duplicate as MPI_Comm_dup makes it, minus context ids and handle. */
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
    int rc = rx_attr_copy_all(c, d->n);
    if (rc != RX_OK)
        return rc == RX_ERR_NOMEM ? MPI_ERR_NO_MEM : rc; /* or the callback's code */
    return rx_idup_tree(d, c);
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
