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
};
#define RX_AM_F_SYNC 1

typedef struct rx_rts {
    uint64_t len;
    rx_rkey_t rkey;
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

/* Start a send described by req (buf, bytes, comm, peer, tag, ctx, sync). */
int rx_p2p_isend(rx_req_t *req);
/* Start a receive described by req (buf, bytes = capacity, peer or ANY,
 * tag or ANY, ctx, comm). */
int rx_p2p_irecv(rx_req_t *req);
/* Blocking eager fast path: RX_OK when sent and complete (no request needed),
 * RX_ERR_AGAIN when the caller must take the request path. */
int rx_p2p_send_try(const void *buf, size_t bytes, const rx_comm_t *comm, int peer, int tag,
                    uint32_t ctx);
/* Look for a matching unexpected message without receiving it. */
int rx_p2p_iprobe(uint32_t ctx, int source, int tag, rx_p2p_status_t *st);
/* Cancel a receive still in the posted queue: returns 1 if cancelled. */
int rx_p2p_cancel_recv(rx_req_t *req);

/* match.c: the queues */
typedef struct rx_unexp {
    struct rx_unexp *next;
    int src, tag, world_src;
    uint8_t type, flags;
    size_t len;
    uint64_t cookie;
    rx_rkey_t rkey;
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
void rx_mq_add_unexp(rx_mq_t *q, rx_unexp_t *u);
void rx_mq_fini(void);

/* pending.c: per-peer queues of messages that found no room in the transport */
enum rx_pend_kind { RX_PEND_EAGER, RX_PEND_CTRL, RX_PEND_STREAM };
int rx_pend_empty(int world);
int rx_pend_push_req(int world, int kind, rx_req_t *req);
int rx_pend_push_ctrl(int world, const rx_am_hdr_t *hdr, const void *payload, size_t len);
int rx_pend_progress(void);
void rx_pend_fini(void);
/* Send a control message now, or queue it behind earlier ones. */
int rx_p2p_send_ctrl(int world, uint8_t type, uint64_t cookie, const void *payload, size_t len);
/* Stream fragments of a rendezvous send; RX_OK when all went out. */
int rx_p2p_stream(rx_req_t *req);

#endif
