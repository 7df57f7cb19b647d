/* SPDX-License-Identifier: MIT
 * The libfabric transport: reliable-datagram endpoints (FI_EP_RDM), one per
 * process, reaching every rank on another node.
 *
 *   ofi_tl.c    provider choice, fabric/domain/endpoint set-up, address
 *               exchange through the bootstrap, the ops table, counters
 *   ofi_am.c    active messages: pre-posted receive buffers, staged sends,
 *               completion-queue progress
 *   ofi_rma.c   rendezvous reads (fi_read into the user buffer); one-sided
 *               reads, writes and atomics for windows, flush
 *   mr_cache.c  the registration cache and its invalidation on unmap
 *
 * Wire format of an active message: rx_ofi_wire_t (sender rank) followed by
 * the 24-byte rx_am_hdr_t and the payload, in one fi_send into one of the
 * receiver's posted buffers. FI_ORDER_SAS keeps the matching of messages to
 * buffers in order, but not their completions: a provider may finish a large
 * message (its own rendezvous, e.g. ofi_rxm above 16 KiB) after a small one
 * sent later, and under load even the matching order is not kept. The
 * per-pair sequence number restores the order: a message that completes
 * early is copied aside (its buffer reposted at once, so early messages can
 * never take every buffer) and delivered when those before it have been. */
#ifndef RX_TL_OFI_H
#define RX_TL_OFI_H

#include "tl/tl.h"

#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_rma.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

typedef struct rx_ofi_wire {
    uint32_t src;   /* sender's job rank */
    uint32_t seq;   /* per (sender, receiver) message number */
} rx_ofi_wire_t;

#define RX_OFI_MSG_HDR (sizeof(rx_ofi_wire_t) + sizeof(rx_am_hdr_t))

/* Every posted operation carries one of these as its context; the
 * fi_context must come first (FI_CONTEXT mode). */
enum { RX_OFI_OP_RECV = 1, RX_OFI_OP_SEND, RX_OFI_OP_READ, RX_OFI_OP_WRITE };

struct rx_ofi_mr;

typedef struct rx_ofi_op {
    struct fi_context fctx;
    int kind;
    struct rx_ofi_op *next;  /* free list / retry queue */
    /* RECV, SEND: the buffer */
    unsigned char *buf;
    /* READ, WRITE; SEND: the destination */
    int peer;
    void *local;
    size_t len;
    uint64_t raddr, rkey;
    struct rx_ofi_mr *lmr;   /* local registration (FI_MR_LOCAL), or NULL */
    rx_tl_done_t done;       /* NULL: counted per peer until flush */
    void *arg;
    /* atomics (kind READ when they fetch, else WRITE): amo = rx_tl_amo + 1 */
    int amo, amt;
    const void *compare;
    void *result;
    struct rx_ofi_mr *clmr, *rlmr;
} rx_ofi_op_t;

/* A cached registration covering [base, base + len). */
typedef struct rx_ofi_mr {
    struct rx_ofi_mr *prev, *next; /* LRU list, most recent first */
    uintptr_t base;
    size_t len;
    struct fid_mr *mr;
    void *desc;
    uint64_t key;
    uint64_t gen;                  /* unmap generation when registered */
    int refs;                      /* transfers using it now */
    int dead;                      /* invalidated: freed once refs drop to 0 */
} rx_ofi_mr_t;

/* A message that arrived before its predecessors, copied out of its buffer. */
typedef struct rx_ofi_early {
    struct rx_ofi_early *next;
    uint32_t seq;
    size_t len;                /* of the whole message */
    unsigned char data[];      /* wire header, am header, payload */
} rx_ofi_early_t;

typedef struct rx_ofi_stats {
    uint64_t copied;        /* bytes rdmx copied to stage sends (headers excluded) */
    uint64_t rndv_read;     /* bytes moved by fi_read straight into user buffers */
    uint64_t rndv_reads;    /* rendezvous reads completed */
    uint64_t eager_sent;    /* active messages sent */
    uint64_t reordered;     /* messages that arrived early and were held */
    uint64_t mr_hits, mr_misses, mr_invalidated, mr_evicted;
} rx_ofi_stats_t;

typedef struct rx_ofi {
    rx_tl_t tl;
    int rank, size;
    struct fi_info *info;
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct fid_av *av;
    struct fid_cq *cq;
    struct fid_ep *ep;
    fi_addr_t *addr;          /* by job rank */
    unsigned char *reach;
    int mr_local;             /* FI_MR_LOCAL: local buffers need descriptors */
    int virt_addr;            /* FI_MR_VIRT_ADDR: remote addresses are virtual */
    int prov_key;             /* FI_MR_PROV_KEY: the provider picks keys */
    uint64_t next_key;        /* our keys otherwise */
    size_t inject_size;
    size_t max_msg;
    /* active messages */
    size_t buf_size;          /* RX_OFI_MSG_HDR + max payload */
    int nrecv, nsend;
    unsigned char *recv_mem, *send_mem;
    struct fid_mr *recv_mr, *send_mr;
    void *recv_desc, *send_desc;
    rx_ofi_op_t *recv_ops, *send_ops;
    uint32_t *tx_seq;         /* next sequence number to each rank */
    uint32_t *rx_seq;         /* next expected from each rank */
    struct rx_ofi_early **early; /* per source: early messages, in sequence order */
    rx_ofi_op_t *send_free;
    int sends_out;            /* sends posted and not completed */
    /* rendezvous */
    rx_ofi_op_t *op_free;
    rx_ofi_op_t *retry_head, *retry_tail; /* reads/writes the provider refused for now */
    int rma_out;
    int *peer_out;            /* one-sided operations in flight to each rank, awaiting flush */
    int *peer_err;            /* first error among them */
    int fi_amt[RX_TL_AMT_NTYPES]; /* fi_datatype of each rx_tl_amo_type */
    size_t amo_count[RX_TL_AMT_NTYPES]; /* elements per atomic operation */
    int delivery_complete;    /* writes ask for FI_DELIVERY_COMPLETE */
    int progress_thread;      /* windows get a progress thread (RDMX_OFI_PROGRESS) */
    struct fid_cntr *pcntr;   /* polled by that thread: reading it drives the endpoint */
    pthread_t pthr;
    int pthr_on;
    _Atomic int pthr_stop;
    /* registration cache */
    rx_ofi_mr_t *mr_head, *mr_tail;
    int mr_count, mr_cap;
    int in_progress;          /* inside progress(): handlers' sends must not recurse */
    rx_am_handler_t handler;
    void *handler_arg;
    rx_ofi_stats_t st;
} rx_ofi_t;

/* ofi_tl.c: log a libfabric error once, with its text */
int rx_ofi_err(const char *what, int ret);
/* Nonzero for providers that run over kernel TCP sockets (tcp, net,
 * sockets, with or without ofi_rxm): data moves by the CPU, copies are cheap
 * next to a round trip. */
int rx_ofi_prov_is_tcp(const char *prov);

/* ofi_am.c */
int rx_ofi_am_init(rx_ofi_t *o);
void rx_ofi_am_fini(rx_ofi_t *o);
int rx_ofi_am_send(rx_tl_t *tl, int world_peer, const rx_am_hdr_t *hdr, const void *payload,
                   size_t len);
int rx_ofi_progress(rx_tl_t *tl);

/* ofi_rma.c */
int rx_ofi_get_nb(rx_tl_t *tl, int world_peer, void *local, size_t len, const rx_rkey_t *rkey,
                  uint64_t offset, rx_tl_done_t done, void *arg);
int rx_ofi_get(rx_tl_t *tl, int world_peer, void *local, size_t len, const rx_rkey_t *rkey,
               uint64_t offset);
int rx_ofi_put(rx_tl_t *tl, int world_peer, const void *local, size_t len, const rx_rkey_t *rkey,
               uint64_t offset);
/* A read or write completed (or failed) in the completion queue. */
void rx_ofi_rma_complete(rx_ofi_t *o, rx_ofi_op_t *op, int status);
/* Post what the provider refused earlier; returns how many went out. */
int rx_ofi_rma_retry(rx_ofi_t *o);
void rx_ofi_rma_fini(rx_ofi_t *o);
/* One-sided operations for windows (tl.h: put_nb, atomic, flush). */
int rx_ofi_put_nb(rx_tl_t *tl, int world_peer, const void *local, size_t len,
                  const rx_rkey_t *rkey, uint64_t offset);
int rx_ofi_atomic(rx_tl_t *tl, int world_peer, int op, int type, size_t count,
                  const void *operand, const void *compare, void *fetched,
                  const rx_rkey_t *rkey, uint64_t offset);
int rx_ofi_flush(rx_tl_t *tl, int world_peer);
/* Fill tl.amo_types from fi_query_atomic; 0 when nothing is native. */
int rx_ofi_atomic_query(rx_ofi_t *o);
/* tl.rma_expose: start the progress thread (once); stopped by rma_fini. */
void rx_ofi_rma_expose(rx_tl_t *tl);

/* mr_cache.c */
/* A registration covering [addr, addr + len), from the cache or new; holds a
 * reference until rx_ofi_mr_put. */
int rx_ofi_mr_get(rx_ofi_t *o, const void *addr, size_t len, rx_ofi_mr_t **out);
void rx_ofi_mr_put(rx_ofi_t *o, rx_ofi_mr_t *m);
/* Find the registration covering [addr, addr + len) that a mem_reg handed out
 * and drop that reference. */
void rx_ofi_mr_release_range(rx_ofi_t *o, const void *addr, size_t len);
void rx_ofi_mr_fini(rx_ofi_t *o);
/* Register a fixed buffer of the transport itself (not cached). */
int rx_ofi_mr_raw(rx_ofi_t *o, void *addr, size_t len, uint64_t access, struct fid_mr **mr,
                  void **desc);
/* Keep freed heap memory mapped (pinning providers): see mr_cache.c. */
void rx_ofi_mr_hold_heap(void);

#endif
