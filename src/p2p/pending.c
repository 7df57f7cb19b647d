/* SPDX-License-Identifier: MIT
 * Per-peer FIFO of messages the transport had no room for. Once a peer has a
 * backlog every later message to it queues behind, so order is kept. */
#include "p2p.h"
#include "core/rt.h"
#include "util/config.h"
#include "util/log.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

typedef struct rx_pend {
    struct rx_pend *next;
    int kind;
    rx_req_t *req;
    rx_am_hdr_t hdr;
    size_t len;
    unsigned char payload[sizeof(rx_rts_t) + 8];
} rx_pend_t;

typedef struct rx_pend_q {
    rx_pend_t *head, *tail;
} rx_pend_q_t;

static rx_pend_q_t *rx_pq;
static int rx_pq_size;
static int rx_pend_count;

static rx_pend_q_t *rx_pend_q(int world)
{
    if (!rx_pq) {
        rx_pq = calloc((size_t)rx_rt.peers_max, sizeof *rx_pq);
        if (!rx_pq)
            return NULL;
        rx_pq_size = rx_rt.peers_max;
    }
    return &rx_pq[world];
}

int rx_pend_empty(int world) { return !rx_pend_count || !rx_pq[world].head; }

static int rx_pend_append(int world, rx_pend_t *p)
{
    rx_pend_q_t *q = rx_pend_q(world);
    if (!q) {
        free(p);
        return RX_ERR_NOMEM;
    }
    p->next = NULL;
    if (q->tail)
        q->tail->next = p;
    else
        q->head = p;
    q->tail = p;
    rx_pend_count++;
    return RX_OK;
}

int rx_pend_push_req(int world, int kind, rx_req_t *req)
{
    rx_pend_t *p = calloc(1, sizeof *p);
    if (!p)
        return RX_ERR_NOMEM;
    p->kind = kind;
    p->req = req;
    return rx_pend_append(world, p);
}

int rx_pend_push_ctrl(int world, const rx_am_hdr_t *hdr, const void *payload, size_t len)
{
    rx_pend_t *p = calloc(1, sizeof *p);
    if (!p)
        return RX_ERR_NOMEM;
    p->kind = RX_PEND_CTRL;
    p->hdr = *hdr;
    p->len = len;
    if (len)
        memcpy(p->payload, payload, len);
    return rx_pend_append(world, p);
}

int rx_p2p_send_ctrl(int world, uint8_t type, uint64_t cookie, const void *payload, size_t len)
{
    rx_am_hdr_t hdr = {.type = type, .cookie = cookie};
    rx_tl_t *tl = rx_rt.peer_tl[world];
    if (rx_pend_empty(world)) {
        int rc = tl->ops->am_send(tl, world, &hdr, payload, len);
        if (rc != RX_ERR_AGAIN)
            return rc;
    }
    return rx_pend_push_ctrl(world, &hdr, payload, len);
}

/* Try the head entry; RX_OK when it is fully sent. */
static int rx_pend_try(int world, rx_pend_t *p)
{
    rx_tl_t *tl = rx_rt.peer_tl[world];
    rx_req_t *req = p->req;
    int rc;
    switch (p->kind) {
    case RX_PEND_CTRL:
        return tl->ops->am_send(tl, world, &p->hdr, p->payload, p->len);
    case RX_PEND_EAGER: {
        rx_am_hdr_t hdr = {.type = RX_AM_EAGER, .flags = req->sync ? RX_AM_F_SYNC : 0,
                           .ctx = req->ctx, .src = req->comm->rank, .tag = req->tag,
                           .cookie = (uint64_t)(uintptr_t)req};
        rc = tl->ops->am_send(tl, world, &hdr, req->buf, req->bytes);
        if (rc == RX_OK) {
            if (req->sync)
                req->state = RX_RS_SYNC_WAIT;
            else {
                req->state = RX_RS_NONE;
                rx_req_complete(req);
            }
        }
        return rc;
    }
    case RX_PEND_STREAM:
        return rx_p2p_stream(req);
    }
    return RX_ERR_INTERN;
}

int rx_pend_progress(void)
{
    if (!rx_pend_count)
        return 0;
    int n = 0;
    for (int w = 0; w < rx_pq_size; w++) {
        rx_pend_q_t *q = &rx_pq[w];
        while (q->head) {
            int rc = rx_pend_try(w, q->head);
            if (rc == RX_ERR_AGAIN)
                break;
            if (rc != RX_OK)
                rx_log_error("p2p: send to rank %d failed: %s", w, rx_status_string(rc));
            rx_pend_t *p = q->head;
            q->head = p->next;
            if (!q->head)
                q->tail = NULL;
            free(p);
            rx_pend_count--;
            n++;
        }
    }
    return n;
}

int rx_pend_init(void)
{
    return rx_progress_hook_add_queue(rx_pend_progress, &rx_pend_count) == 0 ? RX_OK : RX_ERR_INTERN;
}

void rx_pend_fini(void)
{
    while (rx_pend_count)
        rx_progress();
    free(rx_pq);
    rx_pq = NULL;
    rx_pq_size = 0;
}
