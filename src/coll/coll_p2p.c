/* SPDX-License-Identifier: MIT
 * Blocking send / receive on a communicator's collective context. */
#include "coll.h"
#include "core/rt.h"
#include "p2p/p2p.h"
#include "util/status.h"

int rx_coll_tag(rx_comm_t *c)
{
    return (int)(c->coll_seq++ & 0x3fffffff);
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
