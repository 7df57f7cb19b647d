/* SPDX-License-Identifier: MIT
 * Receiver side: the active-message handler, matching and delivery. */
#include "p2p.h"
#include "am_rma.h"
#include "core/rt.h"
#include "dtype/dtype.h"
#include "util/log.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>


static void rx_recv_finish(rx_req_t *r, int src, int tag, size_t len)
{
    r->st_source = src;
    r->st_tag = tag;
    r->st_bytes = len < r->bytes ? len : r->bytes;
    if (len > r->bytes)
        rx_req_fail(r, RX_ERR_TRUNCATE);
    else
        r->st_error = r->st_rc = 0;
}

static void rx_recv_eager(rx_req_t *r, int world_src, const rx_am_hdr_t *hdr, int flags,
                          const void *data, size_t len)
{
    rx_recv_finish(r, hdr->src, hdr->tag, len);
    if (r->st_bytes && rx_req_typed(r)) /* straight from the ring, no staging */
        rx_dtype_unpack(r->user_dtype, data, r->st_bytes, r->user_buf);
    else if (r->st_bytes)
        memcpy(r->buf, data, r->st_bytes);
    if (flags & RX_AM_F_SYNC)
        rx_p2p_send_ctrl(world_src, RX_AM_SACK, hdr->cookie, NULL, 0);
    r->state = RX_RS_NONE;
    rx_req_complete(r);
}

/* An asynchronous rendezvous read (tl->get_nb) finished: tell the sender. */
static void rx_recv_rndv_read_done(void *arg, int status)
{
    rx_req_t *r = arg;
    if (status != RX_OK)
        rx_req_fail(r, RX_ERR_INTERN); /* the transport logged why */
    rx_p2p_send_ctrl(r->world_peer, RX_AM_FIN, r->remote_cookie, NULL, 0);
    r->state = RX_RS_NONE;
    rx_req_complete(r);
}

static void rx_recv_rndv(rx_req_t *r, int world_src, int src, int tag, const rx_rts_t *rts,
                         uint64_t cookie)
{
    rx_tl_t *tl = rx_rt.peer_tl[world_src];
    size_t len = (size_t)rts->len;
    const rx_rkey_t *rkey = &rts->rkey;
    rx_recv_finish(r, src, tag, len);
    if ((rts->nblocks || rx_req_typed(r)) && (tl->caps & RX_TL_CAP_GETV) && r->st_bytes) {
        if (rx_p2p_get_layout(tl, world_src, r, rts) != RX_OK)
            rx_req_fail(r, RX_ERR_INTERN); /* logged where it failed */
        rx_p2p_send_ctrl(world_src, RX_AM_FIN, cookie, NULL, 0);
        r->state = RX_RS_NONE;
        rx_req_complete(r);
        return;
    }
    if (rx_req_typed(r)) {
        /* the transport moves contiguous bytes only: stage, unpack at the end */
        if (!(r->staging = rx_stage_get(r->bytes))) {
            rx_log_error("p2p: out of memory for a %zu-byte staging buffer", r->bytes);
            abort();
        }
        r->buf = r->staging;
    }
    if ((tl->caps & RX_TL_CAP_GET) && r->st_bytes) {
        /* the read completes later, in progress; the request waits for it */
        r->world_peer = world_src;
        r->remote_cookie = cookie;
        int rc = tl->ops->get_nb(tl, world_src, r->buf, r->st_bytes, rkey, 0,
                                 rx_recv_rndv_read_done, r);
        if (rc == RX_OK) {
            r->state = RX_RS_RECV_STREAM; /* done runs from progress only */
            return;
        }
        if (rc != RX_ERR_UNSUPPORTED) {
            rx_recv_rndv_read_done(r, RX_ERR_IO);
            return;
        }
        /* a transport whose reads complete in the call: below */
    }
    if (tl->caps & RX_TL_CAP_GET) {
        int rc = r->st_bytes ? tl->ops->get(tl, world_src, r->buf, r->st_bytes, rkey, 0) : RX_OK;
        if (rc != RX_OK)
            rx_req_fail(r, RX_ERR_INTERN); /* the transport logged why */
        rx_p2p_send_ctrl(world_src, RX_AM_FIN, cookie, NULL, 0);
        r->state = RX_RS_NONE;
        rx_req_complete(r);
        return;
    }
    r->state = RX_RS_RECV_STREAM;
    r->rndv_total = len;
    r->offset = 0;
    uint64_t mine = (uint64_t)(uintptr_t)r;
    rx_p2p_send_ctrl(world_src, RX_AM_CTS, cookie, &mine, sizeof mine);
}

static void rx_recv_data(rx_req_t *r, const rx_am_hdr_t *hdr, const void *data, size_t len)
{
    size_t off = (size_t)((uint64_t)(uint32_t)hdr->src | ((uint64_t)(uint32_t)hdr->tag << 32));
    if (off < r->bytes) {
        size_t n = r->bytes - off < len ? r->bytes - off : len;
        memcpy((char *)r->buf + off, data, n);
    }
    r->offset += len;
    if (r->offset >= r->rndv_total) {
        r->state = RX_RS_NONE;
        rx_req_complete(r);
    }
}

/* A rendezvous send is over (read by the receiver, or cancelled): its
 * registration may go, and the block list a typed send exposed. */
static void rx_send_release_rndv(rx_req_t *s, int world)
{
    rx_tl_t *tl = rx_rt.peer_tl[world];
    tl->ops->mem_release(tl, s->buf, s->bytes);
    if (rx_req_typed(s)) {
        rx_dtype_unref((rx_dtype_t *)s->user_dtype);
        s->user_dtype = NULL;
    }
}

void rx_p2p_am_handler(void *arg, int world_src, const rx_am_hdr_t *hdr, const void *payload,
                       size_t len)
{
    (void)arg;
    switch (hdr->type) {
    case RX_AM_EAGER:
    case RX_AM_RTS: {
        rx_mq_t *q = rx_mq_get(hdr->ctx);
        if (!q) {
            rx_log_error("p2p: message from rank %d with bad context %u dropped", world_src,
                         hdr->ctx);
            return;
        }
        rx_req_t *r = rx_mq_take_posted(q, hdr->src, hdr->tag);
        if (r) {
            if (hdr->type == RX_AM_EAGER) {
                rx_recv_eager(r, world_src, hdr, hdr->flags, payload, len);
            } else {
                rx_rts_t rts;
                memcpy(&rts, payload, sizeof rts);
                rx_recv_rndv(r, world_src, hdr->src, hdr->tag, &rts, hdr->cookie);
            }
            return;
        }
        rx_unexp_t *u = malloc(sizeof *u);
        if (!u) {
            rx_log_error("p2p: out of memory for an unexpected message");
            abort();
        }
        u->src = hdr->src;
        u->tag = hdr->tag;
        u->world_src = world_src;
        u->type = hdr->type;
        u->flags = hdr->flags;
        u->cookie = hdr->cookie;
        u->data = NULL;
        if (hdr->type == RX_AM_EAGER) {
            u->len = len;
            if (len) {
                u->data = malloc(len);
                if (!u->data) {
                    rx_log_error("p2p: out of memory for an unexpected message of %zu bytes", len);
                    abort();
                }
                memcpy(u->data, payload, len);
            }
        } else {
            memcpy(&u->rts, payload, sizeof u->rts);
            u->len = u->rts.len;
        }
        rx_mq_add_unexp(q, u);
        return;
    }
    case RX_AM_SACK:
    case RX_AM_FIN: {
        rx_req_t *s = (rx_req_t *)(uintptr_t)hdr->cookie;
        if (hdr->type == RX_AM_FIN)
            rx_send_release_rndv(s, world_src);
        rx_p2p_send_done(s);
        return;
    }
    case RX_AM_CANCEL: {
        uint64_t ctx, ans = 0;
        memcpy(&ctx, payload, sizeof ctx);
        rx_mq_t *q = rx_mq_get((uint32_t)ctx);
        rx_unexp_t *u = q ? rx_mq_take_unexp_of(q, world_src, hdr->cookie) : NULL;
        if (u) {
            free(u->data);
            free(u);
            ans = 1;
        }
        rx_p2p_send_ctrl(world_src, RX_AM_CANCEL_ACK, hdr->cookie, &ans, sizeof ans);
        return;
    }
    case RX_AM_CANCEL_ACK: {
        rx_req_t *s = (rx_req_t *)(uintptr_t)hdr->cookie;
        uint64_t ans;
        memcpy(&ans, payload, sizeof ans);
        int finished = s->cancel_wait == 2;
        s->cancel_wait = 0;
        if (ans) { /* never matched: nothing more comes for it */
            if (s->state == RX_RS_RNDV_WAIT)
                rx_send_release_rndv(s, world_src);
            s->state = RX_RS_NONE;
            s->cancelled = 1;
            rx_req_complete(s);
        } else if (finished) /* matched, and its FIN or SACK came first */
            rx_req_complete(s);
        return;
    }
    case RX_AM_CTS: {
        rx_req_t *s = (rx_req_t *)(uintptr_t)hdr->cookie;
        memcpy(&s->remote_cookie, payload, sizeof s->remote_cookie);
        s->state = RX_RS_RNDV_STREAM;
        s->offset = 0;
        if (!rx_pend_empty(s->world_peer) || rx_p2p_stream(s) == RX_ERR_AGAIN)
            rx_pend_push_req(s->world_peer, RX_PEND_STREAM, s);
        return;
    }
    case RX_AM_DATA:
        rx_recv_data((rx_req_t *)(uintptr_t)hdr->cookie, hdr, payload, len);
        return;
    default:
        if (hdr->type >= RX_AM_RMA_FIRST && rx_p2p_rma_hook) {
            rx_p2p_rma_hook(arg, world_src, hdr, payload, len);
            return;
        }
        rx_log_error("p2p: unknown message type %u from rank %d", hdr->type, world_src);
    }
}

int rx_p2p_irecv(rx_req_t *req)
{
    rx_mq_t *q = rx_mq_get(req->ctx);
    if (!q)
        return RX_ERR_NOMEM;
    rx_unexp_t *u = q->unexp_head ? rx_mq_take_unexp(q, req->peer, req->tag) : NULL;
    if (!u) {
        req->state = RX_RS_POSTED;
        rx_mq_post(q, req);
        return RX_OK;
    }
    rx_p2p_irecv_matched(req, u);
    return RX_OK;
}

rx_unexp_t *rx_p2p_improbe(uint32_t ctx, int source, int tag)
{
    rx_mq_t *q = rx_mq_get(ctx);
    return q && q->unexp_head ? rx_mq_take_unexp(q, source, tag) : NULL;
}

void rx_p2p_irecv_matched(rx_req_t *req, rx_unexp_t *u)
{
    if (u->type == RX_AM_EAGER) {
        rx_am_hdr_t hdr = {.src = u->src, .tag = u->tag, .cookie = u->cookie};
        rx_recv_eager(req, u->world_src, &hdr, u->flags, u->data, u->len);
    } else {
        rx_recv_rndv(req, u->world_src, u->src, u->tag, &u->rts, u->cookie);
    }
    free(u->data);
    free(u);
}

int rx_p2p_iprobe(uint32_t ctx, int source, int tag, rx_p2p_status_t *st)
{
    rx_mq_t *q = rx_mq_get(ctx);
    rx_unexp_t *u = q ? rx_mq_find_unexp(q, source, tag) : NULL;
    if (!u)
        return 0;
    st->source = u->src;
    st->tag = u->tag;
    st->bytes = u->len;
    return 1;
}

int rx_p2p_cancel_recv(rx_req_t *req)
{
    if (req->state != RX_RS_POSTED)
        return 0;
    rx_mq_t *q = rx_mq_get(req->ctx);
    if (!q || !rx_mq_unpost(q, req))
        return 0;
    req->state = RX_RS_NONE;
    req->cancelled = 1;
    rx_req_complete(req);
    return 1;
}

int rx_p2p_init(void)
{
    return rx_pend_init();
}

void rx_p2p_req_finish(rx_req_t *r)
{
    if (r->kind != RX_REQ_SEND && r->kind != RX_REQ_RECV)
        return; /* persistent requests keep their staging for the next start */
    if (r->kind == RX_REQ_RECV && r->staging && r->user_dtype)
        rx_dtype_unpack(r->user_dtype, r->staging, r->st_bytes, r->user_buf);
    rx_stage_put(r->staging);
    r->staging = NULL;
}

void rx_p2p_fini(void)
{
    rx_pend_fini();
    rx_mq_fini();
    rx_stage_fini();
}
