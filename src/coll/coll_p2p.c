/* SPDX-License-Identifier: MIT
 * Blocking send / receive on a communicator's collective context. */
#include "coll.h"
#include "core/rt.h"
#include "p2p/p2p.h"
#include "util/status.h"

#define RX_COLL_TAG_PINNED 0x20000000u /* the half of the tag space of pinned tags */
#define RX_COLL_PIN_TAGS 16u           /* tags in one block: the most one start takes */

/* Per thread: a start issues its operation inside one call. */
static __thread rx_coll_pin_t rx_coll_pin;

int rx_coll_tag(rx_comm_t *c)
{
    if (__builtin_expect(rx_coll_pin.on, 0))
        return (int)(RX_COLL_TAG_PINNED | rx_coll_pin.block |
                     (rx_coll_pin.used++ & (RX_COLL_PIN_TAGS - 1)));
    return (int)(c->coll_seq++ & (RX_COLL_TAG_PINNED - 1));
}

uint32_t rx_coll_pin_reserve(rx_comm_t *c)
{
    return (c->pcoll_seq++ * RX_COLL_PIN_TAGS) & (RX_COLL_TAG_PINNED - 1);
}

rx_coll_pin_t rx_coll_pin_swap(rx_coll_pin_t pin)
{
    rx_coll_pin_t before = rx_coll_pin;
    rx_coll_pin = pin;
    return before;
}

int rx_coll_pinned(void)
{
    return rx_coll_pin.on;
}

static rx_req_t *rx_coll_post(int kind, const void *buf, size_t bytes, int peer, int tag,
                              rx_comm_t *c, int *rc)
{
    rx_req_t *r = rx_req_alloc(kind);
    if (!r) {
        *rc = RX_ERR_NOMEM;
        return NULL;
    }
    r->buf = (void *)buf;
    r->bytes = bytes;
    r->peer = peer;
    r->tag = tag;
    r->comm = c;
    r->ctx = c->ctx + 1;
    *rc = kind == RX_REQ_SEND ? rx_p2p_isend(r) : rx_p2p_irecv(r);
    if (*rc != RX_OK) {
        rx_req_release(r);
        return NULL;
    }
    return r;
}

static int rx_coll_finish(rx_req_t *r)
{
    RX_WAIT_UNTIL(r->complete);
    int rc = r->st_error ? RX_ERR_TRUNCATE : RX_OK;
    rx_req_release(r);
    return rc;
}

int rx_coll_send(const void *buf, size_t bytes, int peer, int tag, rx_comm_t *c)
{
    int rc = rx_p2p_send_try(buf, bytes, c, peer, tag, c->ctx + 1);
    if (rc != RX_ERR_AGAIN)
        return rc;
    rx_req_t *r = rx_coll_post(RX_REQ_SEND, buf, bytes, peer, tag, c, &rc);
    return r ? rx_coll_finish(r) : rc;
}

int rx_coll_recv(void *buf, size_t bytes, int peer, int tag, rx_comm_t *c)
{
    int rc;
    rx_req_t *r = rx_coll_post(RX_REQ_RECV, buf, bytes, peer, tag, c, &rc);
    return r ? rx_coll_finish(r) : rc;
}

int rx_coll_sendrecv(const void *sbuf, size_t sbytes, int dst, void *rbuf, size_t rbytes,
                     int src, int tag, rx_comm_t *c)
{
    int rc;
    rx_req_t *rr = rx_coll_post(RX_REQ_RECV, rbuf, rbytes, src, tag, c, &rc);
    if (!rr)
        return rc;
    rc = rx_coll_send(sbuf, sbytes, dst, tag, c);
    int rc2 = rx_coll_finish(rr);
    return rc != RX_OK ? rc : rc2;
}
