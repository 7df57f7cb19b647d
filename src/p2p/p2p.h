/* SPDX-License-Identifier: MIT
 * Point-to-point protocols over the transport interface, independent of any
 * one transport:
 *   eager       payload travels with the header (one copy in, one copy out);
 *               synchronous sends add a match acknowledgement (SACK)
 *   rendezvous  the sender announces (RTS) its registered buffer; on match the
 *               receiver reads it with the transport's get (single copy /
 *               RDMA read) and answers FIN; without a native get the receiver
 *               answers CTS and the sender streams DATA fragments.
 * Matching follows MPI: per context id, posted receives in post order,
 * unexpected messages in arrival order, so messages never overtake. */
#ifndef RX_P2P_H
#define RX_P2P_H

#include "core/comm.h"
#include "core/request.h"
#include "tl/tl.h"

#include <stddef.h>

enum rx_am_type {
    RX_AM_EAGER = 1,
    RX_AM_RTS,   /* payload rx_rts_t; cookie = sender request */
    RX_AM_SACK,  /* cookie = sender request: a synchronous eager send matched */
    RX_AM_FIN,   /* cookie = sender request: the receiver has read the data */
    RX_AM_CTS,   /* cookie = sender request, payload = receiver request cookie */
    RX_AM_DATA,  /* cookie = receiver request; offset in (src, tag) */
    RX_AM_CANCEL,     /* cookie = sender request, payload = uint64 context id */
    RX_AM_CANCEL_ACK, /* cookie = sender request, payload = uint64 1: cancelled, 0: matched */
};
#define RX_AM_F_SYNC 1

/* Request-to-send. A packed send names its bytes (rkey.addr, len). A typed
 * send (transports with getv) leaves its data where the datatype put it:
 * rkey.addr is the buffer, and the receiver reads the sender's block list
 * (nblocks blocks at address `blocks` in the sender) to build I/O vectors;
 * element e's block b lies at rkey.addr + e * extent + blocks[b].off. */
typedef struct rx_rts {
    uint64_t len;
    rx_rkey_t rkey;
    uint64_t nblocks;  /* 0: packed */
    uint64_t blocks;
    uint64_t count;
    int64_t extent;
} rx_rts_t;

/* Match info of a probed message. */
typedef struct rx_p2p_status {
    int source, tag;
    size_t bytes;
} rx_p2p_status_t;

/* Active-message upcall given to rx_init. */
void rx_p2p_am_handler(void *arg, int world_src, const rx_am_hdr_t *hdr, const void *payload,
                       size_t len);
int rx_p2p_init(void);
/* Drain pending sends and free the queues; call after a final barrier. */
void rx_p2p_fini(void);

/* Typed requests: a send or receive whose data is (user_buf, user_count,
 * user_dtype) of a datatype whose memory is not its packed form, with no
 * staging copy yet; bytes is count * wire. p2p chooses how to move it:
 * packed into a reusable staging buffer (eager, or where the transport cannot
 * move scattered data), or straight between the two layouts with the
 * transport's getv. Staging it takes stays in req->staging until the request
 * finishes (rx_p2p_req_finish). A typed send holds a reference on its type
 * while the receiver may read its block list. */
static inline int rx_req_typed(const rx_req_t *r)
{
    return r->user_dtype && !r->staging && (r->kind == RX_REQ_SEND || r->kind == RX_REQ_RECV);
}
/* Start a send described by req (buf, bytes, comm, peer, tag, ctx, sync), or
 * a typed one. */
int rx_p2p_isend(rx_req_t *req);
/* Start a receive described by req (buf, bytes = capacity, peer or ANY,
 * tag or ANY, ctx, comm). */
int rx_p2p_irecv(rx_req_t *req);
/* Blocking eager fast path: RX_OK when sent and complete (no request needed),
 * RX_ERR_AGAIN when the caller must take the request path. */
int rx_p2p_send_try(const void *buf, size_t bytes, const rx_comm_t *comm, int peer, int tag,
                    uint32_t ctx);
/* The same for count elements of a non-raw datatype, packed on the way. */
int rx_p2p_send_try_typed(const void *buf, size_t count, const void *dtype,
                          const rx_comm_t *comm, int peer, int tag, uint32_t ctx);
/* A completed send or receive is about to be released or reported: unpack a
 * receive's staging copy into its typed buffer, give staging back for reuse. */
void rx_p2p_req_finish(rx_req_t *req);
/* Look for a matching unexpected message without receiving it. */
int rx_p2p_iprobe(uint32_t ctx, int source, int tag, rx_p2p_status_t *st);
/* Matched probe: take the first matching unexpected message out of the
 * queue (NULL if none) in the same step that finds it, so no other receive
 * can match it; later hand it to a receive described as for rx_p2p_irecv
 * (peer, tag and ctx aside), which consumes it. A synchronous or
 * rendezvous sender completes once that receive takes the data. */
struct rx_unexp *rx_p2p_improbe(uint32_t ctx, int source, int tag);
void rx_p2p_irecv_matched(rx_req_t *req, struct rx_unexp *u);
/* Cancel a receive still in the posted queue: returns 1 if cancelled. */
int rx_p2p_cancel_recv(rx_req_t *req);
/* Ask the receiver to drop a send it has not matched yet (a rendezvous or a
 * synchronous send: the others complete without the receiver). The request
 * then completes with the answer, cancelled or not, so a wait on it returns
 * whether the receiver ever posts a receive or not. */
int rx_p2p_cancel_send(rx_req_t *req);
/* A send's protocol finished (FIN, SACK, its last fragment): complete it,
 * unless a cancel request is out, whose answer must find it still live. */
void rx_p2p_send_done(rx_req_t *req);

/* match.c: the queues */
typedef struct rx_unexp {
    struct rx_unexp *next;
    int src, tag, world_src;
    uint8_t type, flags;
    size_t len;
    uint64_t cookie;
    rx_rts_t rts;
    unsigned char *data;
} rx_unexp_t;

typedef struct rx_mq {
    rx_req_t *posted_head, *posted_tail;
    rx_unexp_t *unexp_head, *unexp_tail;
} rx_mq_t;

rx_mq_t *rx_mq_get(uint32_t ctx);
rx_req_t *rx_mq_take_posted(rx_mq_t *q, int src, int tag);
void rx_mq_post(rx_mq_t *q, rx_req_t *req);
int rx_mq_unpost(rx_mq_t *q, rx_req_t *req);
rx_unexp_t *rx_mq_take_unexp(rx_mq_t *q, int src, int tag);
rx_unexp_t *rx_mq_find_unexp(rx_mq_t *q, int src, int tag);
/* The unmatched rendezvous or synchronous message of one send (the sender's
 * world rank and request), taken out of the queue; NULL if matched already. */
rx_unexp_t *rx_mq_take_unexp_of(rx_mq_t *q, int world_src, uint64_t cookie);
void rx_mq_add_unexp(rx_mq_t *q, rx_unexp_t *u);
void rx_mq_fini(void);

/* pending.c: per-peer queues of messages that found no room in the transport */
enum rx_pend_kind { RX_PEND_EAGER, RX_PEND_CTRL, RX_PEND_STREAM };
int rx_pend_empty(int world);
int rx_pend_push_req(int world, int kind, rx_req_t *req);
int rx_pend_push_ctrl(int world, const rx_am_hdr_t *hdr, const void *payload, size_t len);
int rx_pend_progress(void);
/* Drive the queues from the progress engine; their length counts as backlog. */
int rx_pend_init(void);
void rx_pend_fini(void);
/* Send a control message now, or queue it behind earlier ones. */
int rx_p2p_send_ctrl(int world, uint8_t type, uint64_t cookie, const void *payload, size_t len);
/* Stream fragments of a rendezvous send; RX_OK when all went out. */
int rx_p2p_stream(rx_req_t *req);

/* layout.c: a rendezvous whose data or destination is non-contiguous, read
 * with the transport's getv; the data is in place (unpacked) on return. */
int rx_p2p_get_layout(rx_tl_t *tl, int world_src, rx_req_t *r, const rx_rts_t *rts);

/* stage.c: staging buffers kept for reuse (plain malloc blocks: free() is a
 * valid way to drop one). */
void *rx_stage_get(size_t bytes);
void rx_stage_put(void *buf);
void rx_stage_fini(void);

#endif
