/* SPDX-License-Identifier: MIT
 * Neighbourhood collectives: transfers over p2p requests, packed through a
 * staging buffer when the datatype's memory is not its packed form, and the
 * progress hook that completes nonblocking ones. Topology helpers. */
#include "neighbor.h"
#include "coll.h"
#include "core/rt.h"
#include "p2p/p2p.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

#define RX_PROC_NULL (-2)

static size_t rx_topo_ints(int ndims, int indeg, int outdeg, int nnodes, int nedges)
{
    return 3 * (size_t)ndims + 2 * (size_t)indeg + 2 * (size_t)outdeg + (size_t)nnodes +
           (size_t)nedges;
}

static rx_topo_t *rx_topo_alloc(int kind, int ndims, int indeg, int outdeg, int nnodes,
                                int nedges)
{
    size_t ints = rx_topo_ints(ndims, indeg, outdeg, nnodes, nedges);
    rx_topo_t *t = calloc(1, sizeof *t + ints * sizeof(int));
    if (!t)
        return NULL;
    t->kind = kind;
    t->ndims = ndims;
    t->indeg = indeg;
    t->outdeg = outdeg;
    t->nnodes = nnodes;
    t->nedges = nedges;
    int *p = t->data;
    t->dims = p, p += ndims;
    t->periods = p, p += ndims;
    t->coords = p, p += ndims;
    t->in = p, p += indeg;
    t->inw = p, p += indeg;
    t->out = p, p += outdeg;
    t->outw = p, p += outdeg;
    t->index = p, p += nnodes;
    t->edges = p;
    return t;
}

rx_topo_t *rx_topo_new(int kind, int ndims, int indeg, int outdeg)
{
    return rx_topo_alloc(kind, ndims, indeg, outdeg, 0, 0);
}

rx_topo_t *rx_topo_new_graph(int kind, int nnodes, int nedges, int deg)
{
    return rx_topo_alloc(kind, 0, deg, deg, nnodes, nedges);
}

rx_topo_t *rx_topo_copy(const rx_topo_t *t)
{
    rx_topo_t *n = rx_topo_alloc(t->kind, t->ndims, t->indeg, t->outdeg, t->nnodes, t->nedges);
    if (!n)
        return NULL;
    memcpy(n->data, t->data,
           rx_topo_ints(t->ndims, t->indeg, t->outdeg, t->nnodes, t->nedges) * sizeof(int));
    n->weighted = t->weighted;
    return n;
}

int rx_cart_rank(const rx_topo_t *t, const int *coords)
{
    int r = 0;
    for (int d = 0; d < t->ndims; d++) {
        int x = coords[d], n = t->dims[d];
        if (x < 0 || x >= n) {
            if (!t->periods[d])
                return -1;
            x %= n;
            if (x < 0)
                x += n;
        }
        r = r * n + x;
    }
    return r;
}

void rx_cart_coords(const rx_topo_t *t, int rank, int *coords)
{
    for (int d = t->ndims - 1; d >= 0; d--) {
        coords[d] = rank % t->dims[d];
        rank /= t->dims[d];
    }
}

void rx_cart_neighbors(rx_topo_t *t, int rank)
{
    int c[64];
    rx_cart_coords(t, rank, t->coords);
    for (int d = 0; d < t->ndims; d++) {
        for (int s = 0; s < 2; s++) {
            memcpy(c, t->coords, sizeof(int) * (size_t)t->ndims);
            c[d] += s ? 1 : -1;
            int r = rx_cart_rank(t, c);
            t->in[2 * d + s] = t->out[2 * d + s] = r < 0 ? RX_PROC_NULL : r;
            t->inw[2 * d + s] = t->outw[2 * d + s] = 1;
        }
    }
}

void rx_nbr_tags(rx_comm_t *c, int *tag_minus, int *tag_plus)
{
    *tag_minus = rx_coll_tag(c);
    *tag_plus = c->topo_kind == RX_TOPO_CART ? rx_coll_tag(c) : *tag_minus;
}

typedef struct rx_nbr_op {
    struct rx_nbr_op *next;
    rx_req_t *top;
    int n;
    struct rx_nbr_slot {
        rx_req_t *req;
        void *ubuf;               /* receive: where to unpack the staging copy */
        const rx_dtype_t *dt;
    } slot[];
} rx_nbr_op_t;

static rx_nbr_op_t *rx_nbr_active;

/* Unpack, release the p2p requests, report the first error (RX_ERR_*). */
static int rx_nbr_finish(rx_nbr_op_t *op)
{
    int err = 0;
    for (int i = 0; i < op->n; i++) {
        rx_req_t *r = op->slot[i].req;
        if (!r)
            continue;
        if (r->st_rc && !err)
            err = r->st_rc;
        if (op->slot[i].ubuf && r->staging)
            rx_dtype_unpack(op->slot[i].dt, r->staging, r->st_bytes, op->slot[i].ubuf);
        if (op->slot[i].dt)
            rx_dtype_unref((rx_dtype_t *)op->slot[i].dt);
        rx_req_release(r); /* frees the staging copy */
    }
    return err;
}

static int rx_nbr_done(const rx_nbr_op_t *op)
{
    for (int i = 0; i < op->n; i++)
        if (op->slot[i].req && !op->slot[i].req->complete)
            return 0;
    return 1;
}

static int rx_nbr_progress(void)
{
    int n = 0;
    for (rx_nbr_op_t **pp = &rx_nbr_active; *pp;) {
        rx_nbr_op_t *op = *pp;
        if (!rx_nbr_done(op)) {
            pp = &op->next;
            continue;
        }
        *pp = op->next;
        rx_req_t *top = op->top;
        int rc = rx_nbr_finish(op);
        if (rc != RX_OK)
            rx_req_fail(top, rc);
        free(op);
        rx_req_complete(top);
        n++;
    }
    return n;
}

static int rx_nbr_post(rx_comm_t *c, const rx_nbr_xfer_t *x, struct rx_nbr_slot *s)
{
    rx_req_t *r = rx_req_alloc(x->send ? RX_REQ_SEND : RX_REQ_RECV);
    if (!r)
        return RX_ERR_NOMEM;
    s->req = r;
    size_t bytes = x->count * x->dt->wire;
    if (rx_dtype_wire_is_raw(x->dt)) {
        r->buf = x->buf;
    } else {
        r->staging = malloc(bytes ? bytes : 1);
        if (!r->staging) {
            r->complete = 1; /* never posted */
            return RX_ERR_NOMEM;
        }
        r->buf = r->staging;
        if (x->send)
            rx_dtype_pack(x->dt, x->buf, x->count, r->staging);
        else {
            s->ubuf = x->buf;
            s->dt = x->dt;
            rx_dtype_ref((rx_dtype_t *)x->dt); /* the application may free it in flight */
        }
    }
    r->bytes = bytes;
    r->peer = x->peer;
    r->tag = x->tag;
    r->comm = c;
    r->ctx = c->ctx + 1;
    int rc = x->send ? rx_p2p_isend(r) : rx_p2p_irecv(r);
    if (rc != RX_OK)
        r->complete = 1;
    return rc;
}

int rx_nbr_run(rx_comm_t *c, const rx_nbr_xfer_t *x, int n, rx_req_t *top)
{
    rx_nbr_op_t *op = calloc(1, sizeof *op + (size_t)n * sizeof op->slot[0]);
    if (!op)
        return RX_ERR_NOMEM;
    op->n = n;
    op->top = top;
    int rc = RX_OK;
    /* receives first, so early sends find them posted */
    for (int pass = 0; pass < 2 && rc == RX_OK; pass++)
        for (int i = 0; i < n && rc == RX_OK; i++)
            if (x[i].send == pass && x[i].peer != RX_PROC_NULL)
                rc = rx_nbr_post(c, &x[i], &op->slot[i]);
    if (rc != RX_OK) {
        /* what was posted must still finish before its buffers go */
        RX_WAIT_UNTIL(rx_nbr_done(op));
        rx_nbr_finish(op);
        free(op);
        return rc;
    }
    if (!top) {
        RX_WAIT_UNTIL(rx_nbr_done(op));
        int err = rx_nbr_finish(op);
        free(op);
        return err;
    }
    if (rx_progress_hook_add(rx_nbr_progress) != 0) {
        RX_WAIT_UNTIL(rx_nbr_done(op));
        int rc = rx_nbr_finish(op);
        if (rc != RX_OK)
            rx_req_fail(top, rc);
        free(op);
        rx_req_complete(top);
        return RX_OK;
    }
    op->next = rx_nbr_active;
    rx_nbr_active = op;
    return RX_OK;
}
