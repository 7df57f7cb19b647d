/* SPDX-License-Identifier: MIT
 * Sender side of the protocols. */
#include "p2p.h"
#include "trace.h"
#include "core/rt.h"
#include "dtype/dtype.h"
#include "util/config.h"
#include "util/status.h"

#include <string.h>

/* The transport for an eager send of bytes to peer, or NULL when the send
 * must take the request path (too large, or earlier messages queued). */
static rx_tl_t *rx_eager_tl(size_t bytes, const rx_comm_t *comm, int peer, int *world)
{
    *world = comm->world[peer];
    rx_tl_t *tl = rx_rt.peer_tl[*world];
    return bytes <= tl->eager_limit && rx_pend_empty(*world) ? tl : NULL;
}

int rx_p2p_send_try(const void *buf, size_t bytes, const rx_comm_t *comm, int peer, int tag,
                    uint32_t ctx)
{
    int world;
    rx_tl_t *tl = rx_eager_tl(bytes, comm, peer, &world);
    if (!tl)
        return RX_ERR_AGAIN;
    rx_am_hdr_t hdr = {.type = RX_AM_EAGER, .ctx = ctx, .src = comm->rank, .tag = tag};
    int rc = tl->ops->am_send(tl, world, &hdr, buf, bytes);
    if (rc == RX_OK)
        rx_trace_count(world, bytes);
    return rc;
}

int rx_p2p_send_try_typed(const void *buf, size_t count, const void *dtype,
                          const rx_comm_t *comm, int peer, int tag, uint32_t ctx)
{
    const rx_dtype_t *dt = dtype;
    size_t bytes = count * dt->wire;
    int world;
    if (!rx_eager_tl(bytes, comm, peer, &world))
        return RX_ERR_AGAIN;
    /* the transport copies the payload out before am_send returns, so one
     * warm buffer serves every message */
    void *s = rx_stage_get(bytes);
    if (!s)
        return RX_ERR_NOMEM;
    rx_dtype_pack(dt, buf, count, s);
    int rc = rx_p2p_send_try(s, bytes, comm, peer, tag, ctx);
    rx_stage_put(s);
    return rc;
}

/* Whether the receiver should read a typed send straight from its layout:
 * worth it when the transport takes I/O vectors and the blocks are long
 * enough that a piece costs less than packing it (each remote piece costs
 * the kernel a page lookup). */
static int rx_send_by_layout(const rx_tl_t *tl, const rx_dtype_t *dt)
{
    long long min = rx_config()->P2P_IOV_SEND_MIN;
    return (tl->caps & RX_TL_CAP_GETV) && min > 0 && rx_dtype_avg_block(dt) >= (size_t)min;
}

int rx_p2p_isend(rx_req_t *req)
{
    int world = req->comm->world[req->peer];
    rx_tl_t *tl = rx_rt.peer_tl[world];
    int rc;
    req->world_peer = world;
    rx_trace_count(world, req->bytes);
    rx_am_hdr_t hdr = {.ctx = req->ctx, .src = req->comm->rank, .tag = req->tag,
                       .cookie = (uint64_t)(uintptr_t)req};
    rx_rts_t rts = {.len = req->bytes};
    if (rx_req_typed(req)) {
        rx_dtype_t *dt = (rx_dtype_t *)req->user_dtype;
        if (req->bytes > tl->eager_limit && rx_send_by_layout(tl, dt)) {
            if ((rc = tl->ops->mem_reg(tl, req->user_buf, req->bytes, &rts.rkey)) != RX_OK)
                return rc;
            rts.nblocks = (uint64_t)dt->nblocks;
            rts.blocks = (uint64_t)(uintptr_t)dt->blocks;
            rts.count = (uint64_t)req->user_count;
            rts.extent = (int64_t)dt->extent;
            req->buf = req->user_buf;
            rx_dtype_ref(dt); /* its block list is read by the receiver; dropped at FIN */
            goto send_rts;
        }
        if (!(req->staging = rx_stage_get(req->bytes)))
            return RX_ERR_NOMEM;
        rx_dtype_pack(dt, req->user_buf, (size_t)req->user_count, req->staging);
        req->buf = req->staging;
    }
    if (req->bytes <= tl->eager_limit) {
        hdr.type = RX_AM_EAGER;
        hdr.flags = req->sync ? RX_AM_F_SYNC : 0;
        if (rx_pend_empty(world)) {
            rc = tl->ops->am_send(tl, world, &hdr, req->buf, req->bytes);
            if (rc == RX_OK) {
                if (req->kind == RX_REQ_SEND && req->user_dtype) {
                    rx_stage_put(req->staging); /* copied out: reusable at once */
                    req->staging = NULL;
                    req->user_dtype = NULL;
                }
                if (req->sync)
                    req->state = RX_RS_SYNC_WAIT;
                else
                    rx_req_complete(req);
                return RX_OK;
            }
            if (rc != RX_ERR_AGAIN)
                return rc;
        }
        req->state = RX_RS_EAGER_PENDING;
        return rx_pend_push_req(world, RX_PEND_EAGER, req);
    }
    if ((rc = tl->ops->mem_reg(tl, req->buf, req->bytes, &rts.rkey)) != RX_OK)
        return rc;
send_rts:
    hdr.type = RX_AM_RTS;
    req->state = RX_RS_RNDV_WAIT;
    if (rx_pend_empty(world)) {
        rc = tl->ops->am_send(tl, world, &hdr, &rts, sizeof rts);
        if (rc != RX_ERR_AGAIN)
            return rc;
    }
    return rx_pend_push_ctrl(world, &hdr, &rts, sizeof rts);
}

/* Pipelined copy for transports without a native get: fragments go through
 * the rings as fast as the receiver drains them. */
int rx_p2p_stream(rx_req_t *req)
{
    rx_tl_t *tl = rx_rt.peer_tl[req->world_peer];
    size_t frag = (size_t)rx_config()->SHM_FRAG_SIZE;
    if (frag == 0 || frag > tl->max_am_payload)
        frag = tl->max_am_payload;
    while (req->offset < req->bytes) {
        size_t n = req->bytes - req->offset < frag ? req->bytes - req->offset : frag;
        rx_am_hdr_t hdr = {.type = RX_AM_DATA, .src = (int32_t)(uint32_t)req->offset,
                           .tag = (int32_t)(uint32_t)((uint64_t)req->offset >> 32),
                           .cookie = req->remote_cookie};
        int rc = tl->ops->am_send(tl, req->world_peer, &hdr, (const char *)req->buf + req->offset, n);
        if (rc != RX_OK)
            return rc;
        req->offset += n;
    }
    rx_p2p_send_done(req);
    return RX_OK;
}

void rx_p2p_send_done(rx_req_t *req)
{
    req->state = RX_RS_NONE;
    if (req->cancel_wait) {
        req->cancel_wait = 2;
        return;
    }
    rx_req_complete(req);
}

int rx_p2p_cancel_send(rx_req_t *req)
{
    if (req->cancel_wait || req->complete)
        return RX_OK;
    /* an eager synchronous send still queued here: the cancel request goes
     * behind it, in order, like everything to one peer */
    if (!(req->state == RX_RS_RNDV_WAIT || req->state == RX_RS_SYNC_WAIT ||
          (req->state == RX_RS_EAGER_PENDING && req->sync)))
        return RX_OK;
    uint64_t ctx = req->ctx;
    req->cancel_wait = 1;
    int rc = rx_p2p_send_ctrl(req->world_peer, RX_AM_CANCEL, (uint64_t)(uintptr_t)req, &ctx, sizeof ctx);
    if (rc != RX_OK)
        req->cancel_wait = 0;
    return rc;
}
