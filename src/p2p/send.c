/* SPDX-License-Identifier: MIT
 * Sender side of the protocols. */
#include "p2p.h"
#include "trace.h"
#include "core/rt.h"
#include "util/config.h"
#include "util/status.h"

#include <string.h>

int rx_p2p_send_try(const void *buf, size_t bytes, const rx_comm_t *comm, int peer, int tag,
                    uint32_t ctx)
{
    int world = comm->world[peer];
    rx_tl_t *tl = rx_rt.peer_tl[world];
    if (bytes > tl->eager_limit || !rx_pend_empty(world))
        return RX_ERR_AGAIN;
    rx_am_hdr_t hdr = {.type = RX_AM_EAGER, .ctx = ctx, .src = comm->rank, .tag = tag};
    int rc = tl->am_send(tl, world, &hdr, buf, bytes);
    if (rc == RX_OK)
        rx_trace_count(world, bytes);
    return rc;
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
    if (req->bytes <= tl->eager_limit) {
        hdr.type = RX_AM_EAGER;
        hdr.flags = req->sync ? RX_AM_F_SYNC : 0;
        if (rx_pend_empty(world)) {
            rc = tl->am_send(tl, world, &hdr, req->buf, req->bytes);
            if (rc == RX_OK) {
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
    rx_rts_t rts = {.len = req->bytes};
    if ((rc = tl->mem_reg(tl, req->buf, req->bytes, &rts.rkey)) != RX_OK)
        return rc;
    hdr.type = RX_AM_RTS;
    req->state = RX_RS_RNDV_WAIT;
    if (rx_pend_empty(world)) {
        rc = tl->am_send(tl, world, &hdr, &rts, sizeof rts);
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
        int rc = tl->am_send(tl, req->world_peer, &hdr, (const char *)req->buf + req->offset, n);
        if (rc != RX_OK)
            return rc;
        req->offset += n;
    }
    req->state = RX_RS_NONE;
    rx_req_complete(req);
    return RX_OK;
}
