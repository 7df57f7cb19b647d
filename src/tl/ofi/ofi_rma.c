/* SPDX-License-Identifier: MIT
 * One-sided transfers: the rendezvous receiver reads the sender's registered
 * buffer with fi_read straight into its own buffer (no staging on either
 * side); fi_write serves put. A transfer above the provider's largest message
 * goes as several operations that complete together. Operations the provider
 * refuses for now (FI_EAGAIN) wait in a queue that progress retries in order. */
#include "ofi.h"
#include "util/log.h"
#include "util/status.h"

#include <rdma/fi_errno.h>
#include <stdlib.h>

static rx_ofi_op_t *rx_ofi_op_alloc(rx_ofi_t *o)
{
    rx_ofi_op_t *op = o->op_free;
    if (op)
        o->op_free = op->next;
    else if (!(op = malloc(sizeof *op)))
        return NULL;
    *op = (rx_ofi_op_t){0};
    return op;
}

static void rx_ofi_op_free(rx_ofi_t *o, rx_ofi_op_t *op)
{
    op->next = o->op_free;
    o->op_free = op;
}

/* RX_OK: posted; RX_ERR_AGAIN: not now; else failed. */
static int rx_ofi_rma_post(rx_ofi_t *o, rx_ofi_op_t *op)
{
    void *desc = op->lmr ? op->lmr->desc : NULL;
    ssize_t ret = op->kind == RX_OFI_OP_READ
        ? fi_read(o->ep, op->local, op->len, desc, o->addr[op->peer], op->raddr, op->rkey, op)
        : fi_write(o->ep, op->local, op->len, desc, o->addr[op->peer], op->raddr, op->rkey, op);
    if (ret == 0) {
        o->rma_out++;
        return RX_OK;
    }
    if (ret == -FI_EAGAIN)
        return RX_ERR_AGAIN;
    return rx_ofi_err(op->kind == RX_OFI_OP_READ ? "fi_read" : "fi_write", (int)ret);
}

static void rx_ofi_retry_push(rx_ofi_t *o, rx_ofi_op_t *op)
{
    op->next = NULL;
    if (o->retry_tail)
        o->retry_tail->next = op;
    else
        o->retry_head = op;
    o->retry_tail = op;
}

int rx_ofi_rma_retry(rx_ofi_t *o)
{
    int n = 0;
    while (o->retry_head) {
        rx_ofi_op_t *op = o->retry_head;
        int rc = rx_ofi_rma_post(o, op);
        if (rc == RX_ERR_AGAIN)
            break;
        o->retry_head = op->next;
        if (!o->retry_head)
            o->retry_tail = NULL;
        n++;
        if (rc != RX_OK)
            rx_ofi_rma_complete(o, op, rc);
    }
    return n;
}

/* Parent of a transfer split into several operations. */
typedef struct rx_ofi_multi {
    int left, status;
    rx_tl_done_t done;
    void *arg;
} rx_ofi_multi_t;

static void rx_ofi_multi_done(void *arg, int status)
{
    rx_ofi_multi_t *m = arg;
    if (status != RX_OK)
        m->status = status;
    if (--m->left == 0) {
        m->done(m->arg, m->status);
        free(m);
    }
}

static int rx_ofi_rma_start(rx_ofi_t *o, int kind, int peer, void *local, size_t len,
                            const rx_rkey_t *rkey, uint64_t offset, rx_tl_done_t done, void *arg)
{
    size_t chunk = o->max_msg;
    rx_ofi_multi_t *m = NULL;
    if (len > chunk) {
        if (!(m = malloc(sizeof *m)))
            return RX_ERR_NOMEM;
        *m = (rx_ofi_multi_t){.left = (int)((len + chunk - 1) / chunk), .done = done, .arg = arg};
        done = rx_ofi_multi_done;
        arg = m;
    }
    size_t off = 0;
    do {
        size_t n = len - off < chunk ? len - off : chunk;
        rx_ofi_op_t *op = rx_ofi_op_alloc(o);
        int rc = op ? RX_OK : RX_ERR_NOMEM;
        if (op) {
            op->kind = kind;
            op->peer = peer;
            op->local = (char *)local + off;
            op->len = n;
            op->raddr = rkey->addr + offset + off;
            op->rkey = rkey->key;
            op->done = done;
            op->arg = arg;
            if (o->mr_local)
                rc = rx_ofi_mr_get(o, op->local, n, &op->lmr);
        }
        if (rc == RX_OK) {
            /* behind earlier refused operations, to keep their order */
            rc = o->retry_head ? RX_ERR_AGAIN : rx_ofi_rma_post(o, op);
            if (rc == RX_ERR_AGAIN) {
                rx_ofi_retry_push(o, op);
                rc = RX_OK;
            }
        }
        if (rc != RX_OK) {
            if (op && op->lmr)
                rx_ofi_mr_put(o, op->lmr);
            if (op)
                rx_ofi_op_free(o, op);
            if (!m)
                return rc; /* nothing posted: the caller learns it here */
            /* parts already posted complete later; fail the rest */
            m->status = rc;
            int rest = (int)((len - off + chunk - 1) / chunk);
            m->left -= rest - 1;
            rx_ofi_multi_done(m, rc);
            return RX_OK;
        }
        off += n;
    } while (off < len);
    return RX_OK;
}

void rx_ofi_rma_complete(rx_ofi_t *o, rx_ofi_op_t *op, int status)
{
    if (status == RX_OK && op->kind == RX_OFI_OP_READ) {
        o->st.rndv_read += op->len;
        o->st.rndv_reads++;
    }
    o->rma_out--;
    if (op->lmr)
        rx_ofi_mr_put(o, op->lmr);
    rx_tl_done_t done = op->done;
    void *arg = op->arg;
    rx_ofi_op_free(o, op);
    done(arg, status);
}

int rx_ofi_get_nb(rx_tl_t *tl, int world_peer, void *local, size_t len, const rx_rkey_t *rkey,
                  uint64_t offset, rx_tl_done_t done, void *arg)
{
    return rx_ofi_rma_start((rx_ofi_t *)tl, RX_OFI_OP_READ, world_peer, local, len, rkey, offset,
                            done, arg);
}

typedef struct {
    int finished, status;
} rx_ofi_sync_t;

static void rx_ofi_sync_done(void *arg, int status)
{
    rx_ofi_sync_t *s = arg;
    s->status = status;
    s->finished = 1;
}

static int rx_ofi_rma_sync(rx_ofi_t *o, int kind, int peer, void *local, size_t len,
                           const rx_rkey_t *rkey, uint64_t offset)
{
    rx_ofi_sync_t s = {0};
    if (o->in_progress) {
        rx_log_error("ofi: a blocking get/put cannot run inside a message handler");
        return RX_ERR_INVAL;
    }
    int rc = rx_ofi_rma_start(o, kind, peer, local, len, rkey, offset, rx_ofi_sync_done, &s);
    if (rc != RX_OK)
        return rc;
    while (!s.finished)
        rx_ofi_progress(&o->tl);
    return s.status;
}

int rx_ofi_get(rx_tl_t *tl, int world_peer, void *local, size_t len, const rx_rkey_t *rkey,
               uint64_t offset)
{
    return rx_ofi_rma_sync((rx_ofi_t *)tl, RX_OFI_OP_READ, world_peer, local, len, rkey, offset);
}

int rx_ofi_put(rx_tl_t *tl, int world_peer, const void *local, size_t len, const rx_rkey_t *rkey,
               uint64_t offset)
{
    return rx_ofi_rma_sync((rx_ofi_t *)tl, RX_OFI_OP_WRITE, world_peer, (void *)local, len, rkey,
                           offset);
}

void rx_ofi_rma_fini(rx_ofi_t *o)
{
    while (o->op_free) {
        rx_ofi_op_t *op = o->op_free;
        o->op_free = op->next;
        free(op);
    }
}
