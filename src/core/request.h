/* SPDX-License-Identifier: MIT
 * Requests: one structure for every nonblocking operation, kept in a pool of
 * stable addresses; an MPI_Request is RX_HANDLE(RX_KIND_REQUEST, id), the id
 * being the pool index (RX_REQ_INDEX_BITS) under a generation that changes
 * each time the slot is released (core/handle.h). At most 2^20 - 1 requests
 * are live at once; rx_req_alloc fails beyond. */
#ifndef RX_CORE_REQUEST_H
#define RX_CORE_REQUEST_H

#include "core/handle.h"
#include "tl/tl.h"

#include <stddef.h>
#include <stdint.h>

enum rx_req_kind {
    RX_REQ_SEND = 1,
    RX_REQ_RECV,
    RX_REQ_COLL,     /* a nonblocking collective */
    RX_REQ_PSEND,    /* persistent send (inactive until started) */
    RX_REQ_PRECV,
};

enum rx_req_state { /* p2p protocol progress */
    RX_RS_NONE = 0,
    RX_RS_EAGER_PENDING,   /* eager send waiting for ring space */
    RX_RS_SYNC_WAIT,       /* eager synchronous send waiting for the match ack */
    RX_RS_RNDV_WAIT,       /* rendezvous sender waiting for FIN or CTS */
    RX_RS_RNDV_STREAM,     /* rendezvous sender streaming fragments */
    RX_RS_POSTED,          /* receive in the posted queue */
    RX_RS_RECV_STREAM,     /* receive matched, fragments arriving */
};

struct rx_comm;

typedef struct rx_req {
    struct rx_req *next, *prev;   /* posted queue or pending lists */
    int kind;
    int state;
    volatile int complete;
    int index;                    /* id (pool index and generation), -1 when free;
                                   * the MPI handle is RX_HANDLE(RX_KIND_REQUEST, index) */
    int user_freed;               /* MPI_Request_free: release on completion */
    int is_bsend;
    int persistent_active;
    int cancelled;
    int cancel_wait;              /* send: 1 a cancel request is out, 2 and the send finished meanwhile */
    /* status */
    int st_source, st_tag, st_error; /* st_error: the binding's error class */
    int st_rc;                    /* the RX_ERR_* that failed it below the binding (rx_req_fail) */
    size_t st_bytes;
    /* operation */
    struct rx_comm *comm;
    void *buf;                    /* contiguous data (packed if the type was not) */
    size_t bytes;                 /* send size or receive capacity */
    int peer;                     /* comm rank, or MPI_ANY_SOURCE */
    int tag;
    uint32_t ctx;
    int world_peer;
    int sync;                     /* Ssend semantics */
    /* rendezvous / pipelined state */
    size_t offset;
    size_t rndv_total;            /* message size announced by the sender */
    uint64_t remote_cookie;
    /* datatypes whose packed form differs from memory: buf is a staging copy
     * (freed with the request); receives unpack it into user_buf at the end */
    void *staging;
    void *user_buf;
    int64_t user_count;           /* MPI_Count: the _c forms pass more than INT_MAX */
    const void *user_dtype;
    /* persistent requests keep their arguments here */
    const void *p_buf;
    int64_t p_count;
    int p_dtype, p_mode;
    int comm_held;                /* holds comm (rx_req_hold_comm) */
    /* nonblocking collectives */
    void *coll;
    int (*coll_progress)(struct rx_req *req);
} rx_req_t;

/* Allocate a zeroed request (NULL when out of memory). */
rx_req_t *rx_req_alloc(int kind);
void rx_req_release(rx_req_t *req);
#define RX_REQ_INDEX_BITS 20
#define RX_REQ_INDEX_MASK ((1u << RX_REQ_INDEX_BITS) - 1)
#define RX_REQ_CHUNK 1024
#define RX_REQ_MAX_CHUNKS ((1 << RX_REQ_INDEX_BITS) / RX_REQ_CHUNK)

/* The pool's chunks (request.c): inline lookups read them, since every
 * completion call looks up each of its requests. */
extern rx_req_t *rx_req_chunks[RX_REQ_MAX_CHUNKS];
extern int rx_req_nchunks;

/* The one request of every send that completed inside its call (an eager
 * message the transport copied out before returning, as a blocking send
 * does): nothing is allocated, waited for or released for it, like MPICH's
 * pre-completed lightweight requests. Its handle names slot 0 in the
 * second generation, which the pool never hands out (slot 0 would be
 * MPI_REQUEST_NULL), so rx_req_lookup does not find it and internal users
 * of rx_req_lookup see a finished part; its index is -1, so releasing it
 * does nothing. Nothing writes it. */
#define RX_REQ_DONE_SEND_ID (1 << RX_REQ_INDEX_BITS)
extern rx_req_t rx_req_done_send;

/* Look up a live request by id; NULL if none (or a stale id). */
static inline rx_req_t *rx_req_lookup(int id)
{
    unsigned index = (unsigned)id & RX_REQ_INDEX_MASK;
    if (id <= 0 || index >= (unsigned)rx_req_nchunks * RX_REQ_CHUNK)
        return NULL;
    rx_req_t *r = &rx_req_chunks[index / RX_REQ_CHUNK][index % RX_REQ_CHUNK];
    return r->index == id ? r : NULL;
}

/* The request an MPI_Request names for the application: NULL for another
 * kind, a stale handle, or one MPI_Request_free gave up (still in flight). */
static inline rx_req_t *rx_req_of_handle(int handle)
{
    if (RX_HANDLE_KIND(handle) != RX_KIND_REQUEST)
        return NULL;
    int id = RX_HANDLE_INDEX(handle);
    if (id == RX_REQ_DONE_SEND_ID)
        return &rx_req_done_send;
    rx_req_t *r = rx_req_lookup(id);
    return r && !r->user_freed ? r : NULL;
}
/* Mark complete; releases it if the user already freed it. A request that
 * holds its communicator lets go of it here (persistent ones on release),
 * and if that reclaimed a communicator freed meanwhile, req->comm becomes
 * NULL. */
void rx_req_complete(rx_req_t *req);
/* Run by rx_req_complete for a persistent request (RX_REQ_PSEND/PRECV) the
 * application freed while it was active: set by the MPI layer
 * (src/mpi/persist.c), which lands a staged receive's data and releases
 * it, so the data is in place as soon as the operation completes. */
extern void (*rx_req_freed_persistent_done)(rx_req_t *req);
/* Set req->comm and hold it: MPI_Comm_free then waits for this request. */
void rx_req_hold_comm(rx_req_t *req, struct rx_comm *c);
void rx_req_pool_fini(void);
int rx_req_live_count(void);
/* Fail a request from a layer below the binding, which speaks RX_ERR_*:
 * st_rc keeps the status, st_error gets the class the binding maps it to
 * (rx_req_error_class, installed when the runtime starts for MPI; without
 * it, the status itself). */
extern int (*rx_req_error_class)(int rx_status);
static inline void rx_req_fail(rx_req_t *req, int rx_status)
{
    req->st_rc = rx_status;
    req->st_error = rx_req_error_class ? rx_req_error_class(rx_status) : rx_status;
}

#endif
