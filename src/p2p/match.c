/* SPDX-License-Identifier: MIT
 * Matching queues, one pair per context id, created on first use: a message
 * may arrive for a communicator this process has not created yet. */
#include "p2p.h"

#include <stdlib.h>

static rx_mq_t *rx_mqs[RX_CTX_MAX];

rx_mq_t *rx_mq_get(uint32_t ctx)
{
    if (ctx >= RX_CTX_MAX)
        return NULL;
    rx_mq_t *q = rx_mqs[ctx];
    if (__builtin_expect(!q, 0))
        q = rx_mqs[ctx] = calloc(1, sizeof *q);
    return q;
}

static inline int rx_matches(int want_src, int want_tag, int src, int tag)
{
    return (want_src == src || want_src == -1) && (want_tag == tag || want_tag == -1);
}

static void rx_mq_unlink(rx_mq_t *q, rx_req_t *req)
{
    if (req->prev)
        req->prev->next = req->next;
    else
        q->posted_head = req->next;
    if (req->next)
        req->next->prev = req->prev;
    else
        q->posted_tail = req->prev;
    req->next = req->prev = NULL;
}

rx_req_t *rx_mq_take_posted(rx_mq_t *q, int src, int tag)
{
    for (rx_req_t *r = q->posted_head; r; r = r->next) {
        if (rx_matches(r->peer, r->tag, src, tag)) {
            rx_mq_unlink(q, r);
            return r;
        }
    }
    return NULL;
}

void rx_mq_post(rx_mq_t *q, rx_req_t *req)
{
    req->next = NULL;
    req->prev = q->posted_tail;
    if (q->posted_tail)
        q->posted_tail->next = req;
    else
        q->posted_head = req;
    q->posted_tail = req;
}

int rx_mq_unpost(rx_mq_t *q, rx_req_t *req)
{
    int found = 0;
    for (rx_req_t *r = q->posted_head; r; r = r->next)
        if (r == req) {
            found = 1;
            break;
        }
    if (!found)
        return 0;
    rx_mq_unlink(q, req);
    return 1;
}

rx_unexp_t *rx_mq_find_unexp(rx_mq_t *q, int src, int tag)
{
    for (rx_unexp_t *u = q->unexp_head; u; u = u->next)
        if (rx_matches(src, tag, u->src, u->tag))
            return u;
    return NULL;
}

/* Takes u, which follows prev (NULL: the head), out of the unexpected list. */
static rx_unexp_t *rx_mq_unlink_unexp(rx_mq_t *q, rx_unexp_t *prev, rx_unexp_t *u)
{
    if (prev)
        prev->next = u->next;
    else
        q->unexp_head = u->next;
    if (q->unexp_tail == u)
        q->unexp_tail = prev;
    u->next = NULL;
    return u;
}

rx_unexp_t *rx_mq_take_unexp(rx_mq_t *q, int src, int tag)
{
    rx_unexp_t *prev = NULL;
    for (rx_unexp_t *u = q->unexp_head; u; prev = u, u = u->next)
        if (rx_matches(src, tag, u->src, u->tag))
            return rx_mq_unlink_unexp(q, prev, u);
    return NULL;
}

/* Only a send still waiting for its receiver is asked for: its cookie names
 * no other message in the queue (an earlier send from the same request
 * address that left an eager message here was not synchronous). */
rx_unexp_t *rx_mq_take_unexp_of(rx_mq_t *q, int world_src, uint64_t cookie)
{
    rx_unexp_t *prev = NULL;
    for (rx_unexp_t *u = q->unexp_head; u; prev = u, u = u->next)
        if (u->world_src == world_src && u->cookie == cookie &&
            (u->type == RX_AM_RTS || (u->flags & RX_AM_F_SYNC)))
            return rx_mq_unlink_unexp(q, prev, u);
    return NULL;
}

void rx_mq_add_unexp(rx_mq_t *q, rx_unexp_t *u)
{
    u->next = NULL;
    if (q->unexp_tail)
        q->unexp_tail->next = u;
    else
        q->unexp_head = u;
    q->unexp_tail = u;
}

void rx_mq_fini(void)
{
    for (int i = 0; i < RX_CTX_MAX; i++) {
        rx_mq_t *q = rx_mqs[i];
        if (!q)
            continue;
        while (q->unexp_head) {
            rx_unexp_t *n = q->unexp_head->next;
            free(q->unexp_head->data);
            free(q->unexp_head);
            q->unexp_head = n;
        }
        free(q);
        rx_mqs[i] = NULL;
    }
}
