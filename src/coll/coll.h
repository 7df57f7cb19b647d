/* SPDX-License-Identifier: MIT
 * Collective operations on intracommunicators.
 *
 * Every algorithm is a schedule (sched/sched.h); the executor here runs it over
 * the point-to-point layer on the communicator's collective context
 * (ctx + 1) with one tag per collective taken from the communicator's
 * sequence number (every member calls the same collectives in the same
 * order, so all agree on it). Blocking calls run the executor to
 * completion; nonblocking calls hand it to a progress hook, so any wait or
 * test of the process moves it on. Ranks of one node also have a
 * node-shared-memory path (node_select.c and the leaves it chooses
 * among), which blocking calls try first.
 *
 * Buffers given to the executor are in wire form (raw bytes; the MPI layer
 * packs other layouts and lists what to unpack at completion). */
#ifndef RX_COLL_H
#define RX_COLL_H

#include "core/comm.h"
#include "core/request.h"
#include "dtype/dtype.h"
#include "op/opobj.h"
#include "sched/sched.h"

#include <stddef.h>


/* What to do with staged output when a collective completes. */
typedef struct rx_coll_unpack {
    const rx_dtype_t *dt;
    void *dst;            /* user buffer */
    size_t count;         /* elements */
    uint64_t off;         /* in the OUT staging buffer */
    int span;             /* 1: staging holds the memory span (copy the data blocks) */
} rx_coll_unpack_t;

typedef struct rx_coll_exec {
    struct rx_coll_exec *next;     /* list of running nonblocking collectives */
    rx_sched_t s;
    const rx_sched_t *sched;       /* what runs: &s, or a schedule of the cache (exec.c) */
    struct rx_sched_entry *cached; /* the cache entry held while it runs */
    rx_sched_args_t args;
    char *buf[RX_SB_COUNT];
    void *tmp_alloc;
    size_t tmp_cap;
    rx_comm_t *c;
    int tag;
    const rx_opobj_t *op;
    const rx_dtype_t *dt;
    /* non-contiguous reductions move the memory span of the data (see the
     * binding): reduce steps of span_bytes cover span_count elements whose
     * first one starts span_lb bytes before the span */
    uint64_t span_bytes, span_count;
    intptr_t span_lb;
    uint32_t round;
    int posted;                    /* the current round's transfers are out */
    rx_req_t **reqs;
    int nreq, reqcap;
    int err;                       /* RX_ERR_* of the first failure */
    rx_req_t *req;                 /* the request of a nonblocking collective */
    void *stage[3];                /* freed at completion */
    rx_coll_unpack_t *unp;
    int nunp;
    uint64_t *vec;                 /* v-variant arrays (freed at completion) */
    int *nodemap;                  /* node of each member (hierarchical) */
} rx_coll_exec_t;

/* The executor (exec.c). get: a cleared exec for one collective (the
 * blocking one is reused). run: choose (args.algo AUTO resolved by
 * rx_coll_select), build, execute to completion, release; returns RX_*.
 * start: build and hand to the progress engine; *out completes when done. */
rx_coll_exec_t *rx_coll_exec_get(int blocking);
/* rx_coll_exec_get with the communicator and kind filled in (unit 1,
 * commutative until an op says otherwise). */
rx_coll_exec_t *rx_coll_exec_for(rx_comm_t *c, int kind, int blocking);
int rx_coll_run(rx_coll_exec_t *e);
int rx_coll_start(rx_coll_exec_t *e, rx_req_t **out);
void rx_coll_exec_put(rx_coll_exec_t *e);
/* Schedule cache (exec.c): the schedule for a on c, from the communicator's
 * cache or built into it, held in *held until rx_coll_sched_put; NULL when
 * not cached (v-variants, very large, every entry in use: *rc RX_OK) or on
 * an error (*rc). rx_coll_comm_release drops the communicator's entries;
 * stats: hits and misses since start. */
const rx_sched_t *rx_coll_sched_get(rx_comm_t *c, const rx_sched_args_t *a,
                                    struct rx_sched_entry **held, int *rc);
void rx_coll_sched_put(struct rx_sched_entry *held);
void rx_coll_sched_cache_drop(rx_comm_t *c);
void rx_coll_sched_cache_stats(uint64_t *hits, uint64_t *misses);
/* inout = in op inout for count elements of dt, any layout. */
void rx_coll_reduce_apply(const rx_opobj_t *op, const rx_dtype_t *dt, const void *in, void *inout,
                          size_t count);

/* Algorithm choice (exec.c, from the list of src/sched): the RDMX_COLL_<KIND> variable if set and
 * applicable, else the measured crossovers. Fills e->args.algo (and the
 * node map for hierarchical algorithms). */
int rx_coll_select(rx_coll_exec_t *e);
/* The algorithm RDMX_COLL_<KIND> asks for (RX_ALGO_AUTO if none). */
int rx_coll_forced(int kind);
/* 1 if the members span several nodes (or RDMX_COLL_NODE_SIZE says so). */
int rx_coll_multinode(const rx_comm_t *c);

/* The node path (node_select.c) for members all on one node: the one
 * place that chooses among its algorithms (slot, ring, direct, direct
 * reduction, streamed reduction) from what every member agrees on, and returns the algorithm's
 * RX_* status, or RX_COLL_DECLINED when none applies (too large, disabled,
 * forced elsewhere, no region): the caller then runs a schedule. */
enum { RX_COLL_DECLINED = 100 /* positive: neither RX_OK, RX_INPROGRESS nor an error */ };
int rx_coll_node_barrier(rx_comm_t *c);
int rx_coll_node_bcast(void *buf, size_t bytes, int root, rx_comm_t *c);
int rx_coll_node_allreduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                           const rx_opobj_t *op, rx_comm_t *c);
int rx_coll_node_reduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                        const rx_opobj_t *op, int root, rx_comm_t *c);
/* Blocks of bytes in rank order in rbuf (wire form). allgather / gather:
 * sbuf NULL means the own block is already in place; scatter: rbuf NULL
 * at the root likewise; alltoall: sbuf may equal rbuf. */
int rx_coll_node_allgather(const void *sbuf, size_t bytes, void *rbuf, rx_comm_t *c);
int rx_coll_node_alltoall(const void *sbuf, size_t bytes, void *rbuf, rx_comm_t *c);
int rx_coll_node_gather(const void *sbuf, size_t bytes, void *rbuf, int root, rx_comm_t *c);
int rx_coll_node_scatter(const void *sbuf, size_t bytes, void *rbuf, int root, rx_comm_t *c);
/* Nonblocking allreduce by the direct reduction, stepped by the offload
 * thread or this rank's progress hook (offload.c); only on a region an
 * earlier blocking collective made (a nonblocking call never blocks to make
 * one). RX_OK with *out set, an error, or RX_COLL_DECLINED. */
int rx_coll_node_iallreduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                            const rx_opobj_t *op, rx_comm_t *c, rx_req_t **out);
/* Hierarchical barrier, bcast, reduce and allreduce of a communicator
 * across nodes (node_hier.c) whose node phases run on the node path of
 * each node's members (where they really share a node) and whose phase
 * among the node leaders is a schedule; RX_COLL_DECLINED when that does not
 * apply (the caller runs the hierarchical schedule). Blocking, contiguous
 * data; every member decides alike. */
int rx_coll_hier_barrier(rx_comm_t *c);
int rx_coll_hier_bcast(void *buf, size_t bytes, int root, rx_comm_t *c);
int rx_coll_hier_reduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                        const rx_opobj_t *op, int root, rx_comm_t *c);
int rx_coll_hier_allreduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                           const rx_opobj_t *op, rx_comm_t *c);
/* Release the communicator's shared-memory state; the binding calls it for
 * every communicator it destroys (a later one may reuse handle and address). */
void rx_coll_comm_release(rx_comm_t *c);

/* Convenience entry points for contiguous data, used by the runtime itself
 * (communicator creation) and the binding. */
int rx_coll_barrier(rx_comm_t *c);
int rx_coll_bcast(void *buf, size_t bytes, int root, rx_comm_t *c);
/* sbuf may equal rbuf (in place); count elements of dt. */
int rx_coll_reduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                   const rx_opobj_t *op, int root, rx_comm_t *c);
int rx_coll_allreduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                      const rx_opobj_t *op, rx_comm_t *c);
/* The same by a schedule only, never the node path: what making the node
 * path's own regions and the leaders' phase of its hierarchical
 * collectives use. */
int rx_coll_sched_barrier(rx_comm_t *c);
int rx_coll_sched_bcast(void *buf, size_t bytes, int root, rx_comm_t *c);
int rx_coll_sched_reduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                         const rx_opobj_t *op, int root, rx_comm_t *c);
int rx_coll_sched_allreduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                            const rx_opobj_t *op, rx_comm_t *c);
int rx_coll_sched_allgather(const void *sbuf, size_t bytes, void *rbuf, rx_comm_t *c);
/* Each rank contributes bytes; root receives size * bytes in rank order.
 * sbuf NULL at the root: its block is already in place. */
int rx_coll_gather(const void *sbuf, size_t bytes, void *rbuf, int root, rx_comm_t *c);
/* sbuf NULL: the own block is already in place. */
int rx_coll_allgather(const void *sbuf, size_t bytes, void *rbuf, rx_comm_t *c);

/* Map a region of size bytes shared by every member of c; all members must be
 * on one node (c->local_size == c->size). Release with rx_region_detach.
 * Its name and the members' votes travel by schedules run directly, never
 * by the node path (which needs such a region itself). */
int rx_coll_shared_region(rx_comm_t *c, size_t size, void **addr);
/* The same, and *vote becomes the logical and of every member's *vote. */
int rx_coll_shared_region_vote(rx_comm_t *c, size_t size, void **addr, int *vote);
/* One region of size bytes per group of members: every member of c calls it;
 * maker is the rank that makes the region this member maps (the maker
 * itself included), or -1 for a member that maps none. RX_OK (and *vote
 * the logical and over c, if given) only if every member that wanted a
 * region has it; otherwise nobody keeps one. */
int rx_coll_group_region(rx_comm_t *c, int maker, size_t size, void **addr, int *vote);

/* p2p helpers (coll_p2p.c) */
int rx_coll_tag(rx_comm_t *c);

/* Persistent collectives may be started in different orders on different
 * members (MPI-4.1 §6.13), so their messages cannot carry call-order tags.
 * Each persistent request takes a block of tags when it is made (the init
 * calls are ordered as every collective call is, so all members take the
 * same block), and every collective tag taken while one of its starts
 * issues the operation comes from that block. Pinned tags have a half of
 * the tag space of their own and never meet call-order ones. */
uint32_t rx_coll_pin_reserve(rx_comm_t *c);
typedef struct rx_coll_pin {
    int on;
    uint32_t block, used; /* the request's block; tags of it taken so far */
} rx_coll_pin_t;
#define RX_COLL_PIN_NONE ((rx_coll_pin_t){0, 0, 0})
/* Make pin the current one; returns the one before. An operation that takes
 * tags later, from the progress engine (intercommunicator plans), keeps its
 * own and swaps it in around each step. */
rx_coll_pin_t rx_coll_pin_swap(rx_coll_pin_t pin);
int rx_coll_pinned(void); /* pinned tags are taken: paths ordered by call are closed */
int rx_coll_send(const void *buf, size_t bytes, int peer, int tag, rx_comm_t *c);
int rx_coll_recv(void *buf, size_t bytes, int peer, int tag, rx_comm_t *c);
int rx_coll_sendrecv(const void *sbuf, size_t sbytes, int dst, void *rbuf, size_t rbytes,
                     int src, int tag, rx_comm_t *c);

#endif
