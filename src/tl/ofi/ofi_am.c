/* SPDX-License-Identifier: MIT
 * Active messages over the endpoint: the receiver keeps a set of buffers
 * posted (each holds the largest message), the sender stages header and
 * payload into one of its send buffers (or an inject for tiny messages), so
 * am_send returns with the caller's buffer free, as tl.h requires. Completion
 * of receives hands the message to the handler in place and reposts the
 * buffer; completion of sends returns the buffer to the free list. */
#include "ofi.h"
#include "boot/boot.h"
#include "util/log.h"
#include "util/status.h"

#include <rdma/fi_errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define RX_OFI_NRECV 64
#define RX_OFI_NSEND 64

static int rx_ofi_post_recv(rx_ofi_t *o, rx_ofi_op_t *op)
{
    for (;;) {
        ssize_t ret = fi_recv(o->ep, op->buf, o->buf_size, o->recv_desc, FI_ADDR_UNSPEC, op);
        if (ret == 0)
            return RX_OK;
        if (ret != -FI_EAGAIN)
            return rx_ofi_err("fi_recv", (int)ret);
        fi_cq_read(o->cq, NULL, 0); /* drive the provider, then retry */
    }
}

static unsigned char *rx_ofi_alloc_bufs(size_t n, size_t size)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, n * size))
        return NULL;
    return p;
}

int rx_ofi_am_init(rx_ofi_t *o)
{
    o->nrecv = RX_OFI_NRECV;
    o->nsend = RX_OFI_NSEND;
    o->recv_mem = rx_ofi_alloc_bufs((size_t)o->nrecv, o->buf_size);
    o->send_mem = rx_ofi_alloc_bufs((size_t)o->nsend, o->buf_size);
    o->recv_ops = calloc((size_t)o->nrecv, sizeof *o->recv_ops);
    o->send_ops = calloc((size_t)o->nsend, sizeof *o->send_ops);
    o->tx_seq = calloc((size_t)o->size, sizeof *o->tx_seq);
    o->rx_seq = calloc((size_t)o->size, sizeof *o->rx_seq);
    o->early = calloc((size_t)o->size, sizeof *o->early);
    if (!o->recv_mem || !o->send_mem || !o->recv_ops || !o->send_ops || !o->tx_seq ||
        !o->rx_seq || !o->early)
        return RX_ERR_NOMEM;
    int rc;
    if (o->mr_local) {
        if ((rc = rx_ofi_mr_raw(o, o->recv_mem, (size_t)o->nrecv * o->buf_size, FI_RECV,
                                &o->recv_mr, &o->recv_desc)) != RX_OK ||
            (rc = rx_ofi_mr_raw(o, o->send_mem, (size_t)o->nsend * o->buf_size, FI_SEND,
                                &o->send_mr, &o->send_desc)) != RX_OK)
            return rc;
    }
    for (int i = 0; i < o->nsend; i++) {
        rx_ofi_op_t *op = &o->send_ops[i];
        op->kind = RX_OFI_OP_SEND;
        op->buf = o->send_mem + (size_t)i * o->buf_size;
        op->next = o->send_free;
        o->send_free = op;
    }
    for (int i = 0; i < o->nrecv; i++) {
        rx_ofi_op_t *op = &o->recv_ops[i];
        op->kind = RX_OFI_OP_RECV;
        op->buf = o->recv_mem + (size_t)i * o->buf_size;
        if ((rc = rx_ofi_post_recv(o, op)) != RX_OK)
            return rc;
    }
    return RX_OK;
}

void rx_ofi_am_fini(rx_ofi_t *o)
{
    if (o->recv_mr)
        fi_close(&o->recv_mr->fid);
    if (o->send_mr)
        fi_close(&o->send_mr->fid);
    free(o->recv_mem);
    free(o->send_mem);
    free(o->recv_ops);
    free(o->send_ops);
    free(o->tx_seq);
    free(o->rx_seq);
    for (int r = 0; o->early && r < o->size; r++)
        while (o->early[r]) {
            rx_ofi_early_t *e = o->early[r];
            o->early[r] = e->next;
            free(e);
        }
    free(o->early);
}

int rx_ofi_am_send(rx_tl_t *tl, int world_peer, const rx_am_hdr_t *hdr, const void *payload,
                   size_t len)
{
    rx_ofi_t *o = (rx_ofi_t *)tl;
    size_t total = RX_OFI_MSG_HDR + len;
    if (__builtin_expect(len > tl->max_am_payload, 0))
        return RX_ERR_INVAL;
    rx_ofi_wire_t w = {.src = (uint32_t)o->rank, .seq = o->tx_seq[world_peer]};
    if (total <= o->inject_size && total <= 256) {
        /* the provider copies it at once and reports no completion */
        unsigned char buf[256];
        memcpy(buf, &w, sizeof w);
        memcpy(buf + sizeof w, hdr, sizeof *hdr);
        if (len)
            memcpy(buf + RX_OFI_MSG_HDR, payload, len);
        ssize_t ret = fi_inject(o->ep, buf, total, o->addr[world_peer]);
        if (ret == 0) {
            o->tx_seq[world_peer]++;
            o->st.copied += len;
            o->st.eager_sent++;
            return RX_OK;
        }
        if (ret != -FI_EAGAIN)
            return rx_ofi_err("fi_inject", (int)ret);
        if (!o->in_progress)
            rx_ofi_progress(tl);
        return RX_ERR_AGAIN;
    }
    rx_ofi_op_t *op = o->send_free;
    if (!op) {
        if (!o->in_progress) /* a handler's send must not recurse into progress */
            rx_ofi_progress(tl);
        if (!(op = o->send_free))
            return RX_ERR_AGAIN;
    }
    /* the progress above may have sent to this peer: number it now */
    w.seq = o->tx_seq[world_peer];
    op->peer = world_peer; /* named if the send fails */
    memcpy(op->buf, &w, sizeof w);
    memcpy(op->buf + sizeof w, hdr, sizeof *hdr);
    if (len)
        memcpy(op->buf + RX_OFI_MSG_HDR, payload, len);
    ssize_t ret = fi_send(o->ep, op->buf, total, o->send_desc, o->addr[world_peer], op);
    if (ret == -FI_EAGAIN) {
        if (!o->in_progress)
            rx_ofi_progress(tl);
        return RX_ERR_AGAIN;
    }
    if (ret != 0)
        return rx_ofi_err("fi_send", (int)ret);
    o->tx_seq[world_peer]++;
    o->send_free = op->next;
    o->sends_out++;
    o->st.copied += len;
    o->st.eager_sent++;
    return RX_OK;
}

/* A failed operation in the completion queue: the peer is unreachable or
 * gone. Errors are fatal in MPI's default handler; ending the job here gives
 * a clear message instead of a hang. */
static void rx_ofi_cq_error(rx_ofi_t *o)
{
    struct fi_cq_err_entry e = {0};
    if (fi_cq_readerr(o->cq, &e, 0) != 1)
        return;
    rx_ofi_op_t *op = e.op_context;
    char buf[256];
    const char *why = fi_cq_strerror(o->cq, e.prov_errno, e.err_data, buf, sizeof buf);
    if (op && (op->kind == RX_OFI_OP_READ || op->kind == RX_OFI_OP_WRITE)) {
        rx_log_error("ofi: RDMA %s of %zu bytes from rank %d failed: %s (%s)",
                     op->kind == RX_OFI_OP_READ ? "read" : "write", op->len, op->peer,
                     fi_strerror(e.err), why ? why : "");
        rx_ofi_rma_complete(o, op, RX_ERR_PEER);
        return;
    }
    if (op && op->kind == RX_OFI_OP_RECV && e.err == FI_ECANCELED)
        return; /* receives cancelled at close */
    const char *what = op && op->kind == RX_OFI_OP_RECV ? "a receive" : "a send";
    rx_log_error("ofi: %s failed: %s (%s); ending the job", what, fi_strerror(e.err),
                 why ? why : "");
    /* the launcher names the lost connection (and both hosts) as the cause */
    char text[300];
    snprintf(text, sizeof text, "%s failed: %s", what, fi_strerror(e.err));
    rx_boot_abort_lost(1, op && op->kind == RX_OFI_OP_SEND ? op->peer : -1, text);
}

static void rx_ofi_deliver(rx_ofi_t *o, const unsigned char *msg, size_t len)
{
    const rx_ofi_wire_t *w = (const rx_ofi_wire_t *)msg;
    const rx_am_hdr_t *h = (const rx_am_hdr_t *)(msg + sizeof *w);
    o->rx_seq[w->src]++;
    o->handler(o->handler_arg, (int)w->src, h, msg + RX_OFI_MSG_HDR, len - RX_OFI_MSG_HDR);
}

/* A receive of len bytes completed: deliver it if it is the next from its
 * sender (and the early ones it unblocks), else copy it aside in sequence
 * order. The buffer is reposted either way. */
static void rx_ofi_recv_done(rx_ofi_t *o, rx_ofi_op_t *op, size_t len)
{
    const rx_ofi_wire_t *w = (const rx_ofi_wire_t *)op->buf;
    if (len < RX_OFI_MSG_HDR || w->src >= (uint32_t)o->size) {
        rx_log_error("ofi: malformed message of %zu bytes dropped", len);
        rx_ofi_post_recv(o, op);
        return;
    }
    uint32_t src = w->src;
    if (w->seq != o->rx_seq[src]) {
        rx_ofi_early_t *e = malloc(sizeof *e + len);
        if (!e) {
            rx_log_error("ofi: out of memory holding an early message");
            rx_boot_abort(1, "out of memory");
        }
        e->seq = w->seq;
        e->len = len;
        memcpy(e->data, op->buf, len);
        o->st.copied += len - RX_OFI_MSG_HDR;
        o->st.reordered++;
        rx_ofi_post_recv(o, op);
        rx_ofi_early_t **pp = &o->early[src];
        while (*pp && (int32_t)((*pp)->seq - e->seq) < 0)
            pp = &(*pp)->next;
        e->next = *pp;
        *pp = e;
        return;
    }
    rx_ofi_deliver(o, op->buf, len);
    rx_ofi_post_recv(o, op);
    while (o->early[src] && o->early[src]->seq == o->rx_seq[src]) {
        rx_ofi_early_t *e = o->early[src];
        o->early[src] = e->next;
        rx_ofi_deliver(o, e->data, e->len);
        free(e);
    }
}

int rx_ofi_progress(rx_tl_t *tl)
{
    rx_ofi_t *o = (rx_ofi_t *)tl;
    struct fi_cq_msg_entry ev[16];
    int n = 0;
    if (o->in_progress)
        return 0;
    o->in_progress = 1;
    if (o->retry_head)
        n += rx_ofi_rma_retry(o);
    for (;;) {
        ssize_t got = fi_cq_read(o->cq, ev, 16);
        if (got == -FI_EAGAIN)
            break;
        if (got == -FI_EAVAIL) {
            rx_ofi_cq_error(o);
            n++;
            continue;
        }
        if (got < 0) {
            rx_ofi_err("fi_cq_read", (int)got);
            break;
        }
        for (ssize_t i = 0; i < got; i++) {
            rx_ofi_op_t *op = ev[i].op_context;
            switch (op->kind) {
            case RX_OFI_OP_RECV:
                rx_ofi_recv_done(o, op, ev[i].len);
                break;
            case RX_OFI_OP_SEND:
                op->next = o->send_free;
                o->send_free = op;
                o->sends_out--;
                break;
            case RX_OFI_OP_READ:
            case RX_OFI_OP_WRITE:
                rx_ofi_rma_complete(o, op, RX_OK);
                break;
            }
        }
        n += (int)got;
        if (got < 16)
            break;
    }
    o->in_progress = 0;
    return n;
}
