/* SPDX-License-Identifier: MIT
 * Rendezvous between datatype layouts. The receiver walks the sender's blocks
 * (read once from the sender's memory) and its own in step, and hands the
 * transport's getv lists of at most RX_TL_IOV_MAX pieces per side, cut so
 * both lists cover the same bytes: non-contiguous data moves in one copy,
 * without packing at either end. A receive whose blocks are too short for
 * pieces to pay (each costs more than copying it twice) lands in a staging
 * copy and is unpacked with the strided fast paths instead. */
#include "p2p.h"
#include "dtype/dtype.h"
#include "util/config.h"
#include "util/log.h"
#include "util/status.h"

#include <stdlib.h>

static struct iovec rx_liov[RX_TL_IOV_MAX], rx_riov[RX_TL_IOV_MAX];

/* Copy total bytes from the remote cursor's pieces to the local cursor's. */
static int rx_layout_copy(rx_tl_t *tl, int world_src, const rx_rkey_t *rkey,
                          rx_dtype_iter_t *rit, rx_dtype_iter_t *lit, size_t total)
{
    while (total) {
        rx_dtype_iter_t rsave = *rit;
        size_t rb, lb;
        size_t nr = rx_dtype_iter_next(rit, rx_riov, RX_TL_IOV_MAX, total, &rb);
        size_t nl = rx_dtype_iter_next(lit, rx_liov, RX_TL_IOV_MAX, rb, &lb);
        if (lb < rb) { /* the local side ran out of pieces first: cut the remote to match */
            *rit = rsave;
            nr = rx_dtype_iter_next(rit, rx_riov, RX_TL_IOV_MAX, lb, &rb);
        }
        if (!lb) {
            rx_log_error("p2p: layouts of a rendezvous disagree on its size");
            return RX_ERR_INTERN;
        }
        int rc = tl->ops->getv(tl, world_src, rx_liov, nl, rx_riov, nr, rkey);
        if (rc != RX_OK)
            return rc;
        total -= lb;
    }
    return RX_OK;
}

int rx_p2p_get_layout(rx_tl_t *tl, int world_src, rx_req_t *r, const rx_rts_t *rts)
{
    size_t total = r->st_bytes;
    const rx_dtype_t *dt = rx_req_typed(r) ? r->user_dtype : NULL;
    long long rmin = rx_config()->P2P_IOV_RECV_MIN;
    int direct = dt && rmin > 0 && rx_dtype_avg_block(dt) >= (size_t)rmin;
    void *staging = NULL;
    char *dst = r->buf;
    if (dt && !direct) {
        if (!(staging = rx_stage_get(total)))
            return RX_ERR_NOMEM;
        dst = staging;
    }
    int rc = RX_OK;
    if (!rts->nblocks && !direct) {
        /* packed at both ends: the plain single copy (cooperative when large) */
        rc = tl->ops->get(tl, world_src, dst, total, &rts->rkey, 0);
    } else {
        struct rx_dtype_block rone = {0, (size_t)rts->len}, lone = {0, total};
        struct rx_dtype_block *rblocks = NULL;
        rx_dtype_iter_t rit, lit;
        if (rts->nblocks) {
            size_t bl = (size_t)rts->nblocks * sizeof *rblocks;
            rx_rkey_t bkey = {.addr = rts->blocks, .key = rts->rkey.key};
            if (!(rblocks = rx_stage_get(bl)))
                rc = RX_ERR_NOMEM;
            else
                rc = tl->ops->get(tl, world_src, rblocks, bl, &bkey, 0);
            rx_dtype_iter_init(&rit, (uintptr_t)rts->rkey.addr, (size_t)rts->count,
                               (intptr_t)rts->extent, rblocks, (size_t)rts->nblocks);
        } else {
            rx_dtype_iter_init(&rit, (uintptr_t)rts->rkey.addr, 1, (intptr_t)rts->len, &rone, 1);
        }
        if (direct)
            rx_dtype_iter_init(&lit, (uintptr_t)r->user_buf, (size_t)r->user_count, dt->extent,
                               dt->blocks, (size_t)dt->nblocks);
        else
            rx_dtype_iter_init(&lit, (uintptr_t)dst, 1, (intptr_t)total, &lone, 1);
        if (rc == RX_OK)
            rc = rx_layout_copy(tl, world_src, &rts->rkey, &rit, &lit, total);
        rx_stage_put(rblocks);
    }
    if (staging) {
        if (rc == RX_OK)
            rx_dtype_unpack(dt, staging, total, r->user_buf);
        rx_stage_put(staging);
    }
    return rc;
}
