/* SPDX-License-Identifier: MIT
 * Synchronization: fence, passive-target locks and flushes, and general
 * active target (post / start / complete / wait).
 *
 * Fence is a barrier on the window's private communicator once every
 * emulated operation has been answered (direct and transport operations are
 * complete when issued; the network's are completed by its flush). Locks are
 * the reader-writer words of the node-shared metadata, taken with atomic
 * instructions, or with the network's atomics from other nodes; only targets
 * reached by messages ask the target's progress for them. Post / start /
 * complete / wait exchange
 * zero-byte messages on the private communicator: POST tells an origin it may
 * access, COMPLETE tells the target that the origin's operations are done. */
#include "rma.h"
#include "coll/coll.h"
#include "core/rt.h"
#include "p2p/p2p.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

enum { RX_TAG_POST = 1, RX_TAG_COMPLETE = 2 };

static int rx_win_send0(rx_win_t *w, int peer, int tag)
{
    rx_req_t *r = rx_req_alloc(RX_REQ_SEND);
    if (!r)
        return RX_ERR_NOMEM;
    r->comm = w->comm;
    r->peer = peer;
    r->tag = tag;
    r->ctx = w->comm->ctx;
    r->user_freed = 1; /* released by its completion */
    int rc = rx_p2p_isend(r);
    if (rc != RX_OK && !r->complete)
        rx_req_release(r);
    return rc;
}

static rx_req_t *rx_win_recv0(rx_win_t *w, int peer, int tag)
{
    rx_req_t *r = rx_req_alloc(RX_REQ_RECV);
    if (!r)
        return NULL;
    r->comm = w->comm;
    r->peer = peer;
    r->tag = tag;
    r->ctx = w->comm->ctx;
    if (rx_p2p_irecv(r) != RX_OK) {
        rx_req_release(r);
        return NULL;
    }
    return r;
}

int rx_win_flush(rx_win_t *w, int target)
{
    /* direct stores are complete; make them visible before what follows */
    atomic_thread_fence(memory_order_seq_cst);
    int nrc = w->net_tl ? rx_rma_net_flush(w, target) : RX_OK;
    if (nrc != RX_OK) {
        rx_rma_am_flush(w, target); /* still wait for those: their buffers are in use */
        return nrc;
    }
    if (!w->am_pending_total) {
        if (target >= 0 && w->tgt[target].am_err) {
            int e = w->tgt[target].am_err;
            w->tgt[target].am_err = 0;
            return e;
        }
        return RX_OK;
    }
    return rx_rma_am_flush(w, target);
}

int rx_win_fence(rx_win_t *w, int assert_flags)
{
    int rc = rx_win_flush(w, -1);
    int brc = rx_coll_barrier(w->comm);
    (void)assert_flags;
    return rc != RX_OK ? rc : brc;
}

static int rx_lock_local(rx_win_t *w, rx_win_tgt_t *t, int exclusive)
{
    (void)w;
    if (rx_rma_lock_try(&t->ctl->lock, exclusive))
        return RX_OK;
    /* keep answering others while we wait: they may hold what we wait for.
     * RX_WAIT_UNTIL may evaluate its condition twice in a row: a try that
     * succeeds must not be followed by another (which would fail against
     * our own hold and wait for ever) */
    int got = 0;
    RX_WAIT_UNTIL(got || (got = rx_rma_lock_try(&t->ctl->lock, exclusive)));
    return RX_OK;
}

/* The lock word of target: in our node's metadata, over the network, or by
 * asking the target. */
static int rx_lock_take(rx_win_t *w, int target, int exclusive)
{
    rx_win_tgt_t *t = &w->tgt[target];
    if (t->kind != RX_RMA_AM && t->ctl)
        return rx_lock_local(w, t, exclusive);
    if (t->net && t->netlock)
        return rx_rma_net_lock(t, exclusive);
    return rx_rma_am_lock(w, target, exclusive);
}

static int rx_lock_drop(rx_win_t *w, int target, int exclusive)
{
    rx_win_tgt_t *t = &w->tgt[target];
    if (t->kind != RX_RMA_AM && t->ctl) {
        rx_rma_lock_release(&t->ctl->lock, exclusive);
        return RX_OK;
    }
    if (t->net && t->netlock)
        return rx_rma_net_unlock(t, exclusive);
    return rx_rma_am_unlock(w, target, exclusive);
}

int rx_win_lock(rx_win_t *w, int exclusive, int target, int nocheck)
{
    rx_win_tgt_t *t = &w->tgt[target];
    int rc = RX_OK;
    if (!nocheck)
        rc = rx_lock_take(w, target, exclusive);
    if (rc == RX_OK) {
        t->access = exclusive ? 2 : 1;
        t->nocheck = (uint8_t)nocheck;
        w->lock_count++;
    }
    return rc;
}

int rx_win_unlock(rx_win_t *w, int target)
{
    rx_win_tgt_t *t = &w->tgt[target];
    int rc = rx_win_flush(w, target), exclusive = t->access == 2;
    if (!t->nocheck) {
        int urc = rx_lock_drop(w, target, exclusive);
        if (rc == RX_OK)
            rc = urc;
    }
    t->access = 0;
    t->nocheck = 0;
    w->lock_count--;
    return rc;
}

int rx_win_lock_all(rx_win_t *w, int nocheck)
{
    for (int i = 0; i < w->size && !nocheck; i++) {
        int rc = rx_lock_take(w, i, 0);
        if (rc != RX_OK)
            return rc;
    }
    w->lock_all = nocheck ? 2 : 1;
    return RX_OK;
}

int rx_win_unlock_all(rx_win_t *w)
{
    int rc = rx_win_flush(w, -1);
    for (int i = 0; i < w->size && w->lock_all == 1; i++) {
        int urc = rx_lock_drop(w, i, 0);
        if (rc == RX_OK)
            rc = urc;
    }
    w->lock_all = 0;
    return rc;
}

/* Exposure epoch: tell each origin it may access us; the COMPLETE messages
 * are received by wait / test. */
int rx_win_post(rx_win_t *w, const int *ranks, int n)
{
    atomic_thread_fence(memory_order_seq_cst);
    free(w->post_ranks);
    w->post_ranks = malloc(sizeof(int) * (size_t)(n ? n : 1) * 2);
    if (!w->post_ranks)
        return RX_ERR_NOMEM;
    w->npost = n;
    rx_req_t **reqs = (rx_req_t **)calloc((size_t)(n ? n : 1), sizeof *reqs);
    if (!reqs)
        return RX_ERR_NOMEM;
    /* receives first, so no COMPLETE can arrive unmatched for long */
    for (int i = 0; i < n; i++) {
        w->post_ranks[i] = ranks[i];
        reqs[i] = rx_win_recv0(w, ranks[i], RX_TAG_COMPLETE);
        if (!reqs[i]) {
            free(reqs);
            return RX_ERR_NOMEM;
        }
    }
    w->post_open = 1;
    /* keep the requests with the ranks: index them by pool index */
    for (int i = 0; i < n; i++)
        w->post_ranks[n + i] = reqs[i]->index;
    free(reqs);
    for (int i = 0; i < n; i++) {
        int rc = rx_win_send0(w, ranks[i], RX_TAG_POST);
        if (rc != RX_OK)
            return rc;
    }
    return RX_OK;
}

int rx_win_start(rx_win_t *w, const int *ranks, int n)
{
    free(w->start_ranks);
    w->start_ranks = malloc(sizeof(int) * (size_t)(n ? n : 1));
    if (!w->start_ranks)
        return RX_ERR_NOMEM;
    w->nstart = n;
    for (int i = 0; i < n; i++) {
        w->start_ranks[i] = ranks[i];
        rx_req_t *r = rx_win_recv0(w, ranks[i], RX_TAG_POST);
        if (!r)
            return RX_ERR_NOMEM;
        RX_WAIT_UNTIL(r->complete);
        rx_req_release(r);
        w->tgt[ranks[i]].access = 3;
    }
    atomic_thread_fence(memory_order_seq_cst);
    w->start_open = 1;
    return RX_OK;
}

int rx_win_complete(rx_win_t *w)
{
    int rc = RX_OK;
    for (int i = 0; i < w->nstart; i++) {
        int t = w->start_ranks[i];
        int frc = rx_win_flush(w, t);
        if (rc == RX_OK)
            rc = frc;
        int src = rx_win_send0(w, t, RX_TAG_COMPLETE);
        if (rc == RX_OK)
            rc = src;
        w->tgt[t].access = 0;
    }
    w->start_open = 0;
    w->nstart = 0;
    return rc;
}

int rx_win_wait(rx_win_t *w, int test_only, int *done)
{
    int n = w->npost;
    if (test_only) {
        rx_progress();
        for (int i = 0; i < n; i++) {
            rx_req_t *r = rx_req_lookup(w->post_ranks[n + i]);
            if (r && !r->complete) {
                *done = 0;
                return RX_OK;
            }
        }
    }
    for (int i = 0; i < n; i++) {
        rx_req_t *r = rx_req_lookup(w->post_ranks[n + i]);
        if (!r)
            continue;
        RX_WAIT_UNTIL(r->complete);
        rx_req_release(r);
    }
    atomic_thread_fence(memory_order_seq_cst);
    w->post_open = 0;
    w->npost = 0;
    if (done)
        *done = 1;
    return RX_OK;
}
