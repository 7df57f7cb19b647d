/* SPDX-License-Identifier: MIT
 * Internals of the node path: the per-communicator region (node_region.c),
 * its flag protocol, the waits, and the algorithms node_select.c chooses
 * among. Each algorithm (leaf) runs on a region state it is handed and
 * applies to every call it is given: all the choosing, and every "does not
 * apply", is node_select.c's.
 *   slot       coll_shm.c (barrier, reductions), coll_shm_move.c (gather,
 *              scatter, allgather, alltoall): through the ranks' slots
 *   ring       coll_shm_bcast.c: broadcast through the ring entries
 *   direct     coll_shm_direct.c: bcast, allgather, alltoall read in place
 *              by cross-memory attach
 *   direct reduction  coll_shm_direct_red.c: large reductions read in
 *              place; offload.c steps them for nonblocking calls
 *   stream     coll_shm_stream_red.c: a two-rank Reduce, the non-root's
 *              input streamed through the ring while the root combines
 *
 * Region of a communicator of p ranks (S = slot size, K = ring depth,
 * D = ring chunk):
 *   ctrl[p][2]   one cache line per rank and parity: seq, then up to 48
 *                bytes of payload inline (one line moves flag and data)
 *   done[p]      one line per rank: seq of the last reduction share done
 *   fin[p]       one line per rank: seq of the last direct allreduce whose
 *                peers' buffers it has finished reading
 *   bc_ack[p]    one line per rank: the last broadcast ring entry it used
 *   bc_line[K]   broadcast ring entries: ring seq + inline payload
 *   slot[p][2]   S bytes per rank and parity for larger payloads
 *   res[2]       S bytes per parity: the reduced vector (split reductions)
 *   bc_data[K]   D bytes per ring entry
 * Every line has one writer at a time. Sequence numbers only grow;
 * collective s uses parity s & 1, and before a rank writes its parity
 * buffers for s it makes sure every rank has arrived at s - 1 (so nobody
 * still reads what s - 2 left there). Broadcasts use the ring instead,
 * with a sequence of their own: the root of entry t may write it once
 * every rank has acknowledged t - K, so a root runs up to K entries ahead
 * of slow receivers (what makes back-to-back broadcasts cheap when ranks
 * outnumber cores).
 *
 * Direct path (coll_shm_direct.c, needs cross-memory attach): a rank's
 * control line for s carries the address of its input and its remote key
 * instead of data; peers read the input straight into their outputs and
 * then store s in their done line. The owner returns only once every
 * reader's done line shows s, so its buffer outlives the reads, and that
 * also means everyone arrived at s.
 *
 * Direct allreduce (large vectors; also what the offload thread runs): the
 * control line carries the input and output addresses; each rank reduces
 * its share of the vector reading every input, writes it to its output and
 * stores s in done; then reads the other shares from their owners' outputs
 * and stores s in fin. A rank returns once every fin shows s. */
#ifndef RX_COLL_SHM_H
#define RX_COLL_SHM_H

#define _GNU_SOURCE
#include "coll.h"
#include "core/rt.h"

#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#define RX_LINE 64
#define RX_INLINE (RX_LINE - 16) /* payload 16-aligned: ops read it in place (long double) */
#define RX_BC_DEPTH 32           /* broadcast ring entries */
#define RX_BC_CHUNK 16384        /* bytes per ring entry (larger messages take several) */

typedef struct rx_shm_line {
    volatile uint64_t seq;
    uint64_t pad;
    unsigned char data[RX_INLINE];
} __attribute__((aligned(RX_LINE))) rx_shm_line_t;

typedef struct rx_shm_state {
    rx_comm_t *c;
    int failed;
    int cma;      /* direct path: -1 not yet known, 0 unavailable, 1 usable */
    uint64_t pid; /* remote key of my memory for peers' cross-memory reads */
    void *base;
    size_t size, slot;
    uint64_t seq, arrived; /* arrived: every rank has reached this seq */
    uint64_t bseq, bfree;  /* ring: last entry used; entries up to bfree are free to write */
    rx_shm_line_t *ctrl, *done, *fin, *bc_ack, *bc_line;
    int offload;          /* every member runs an offload thread (agreed at creation) */
    int offload_pending;  /* nonblocking direct operations of this communicator in flight (owner thread only) */
    int offload_where;    /* those run on the offload thread (1) or by the progress hook (0) */
    char *slots, *res, *bc_data;
} rx_shm_state_t;

/* The region (node_region.c). rx_shm_state: c's state, made on the first
 * call (a blocking step every member takes; offload_vote is this rank's
 * vote for the offload thread), NULL when it cannot be made or failed
 * before. rx_shm_existing: only one made earlier. */
rx_shm_state_t *rx_shm_state(rx_comm_t *c, int offload_vote);
rx_shm_state_t *rx_shm_existing(rx_comm_t *c);
/* The region of one node group of a communicator across nodes: every
 * member of parent calls it, maker as for rx_coll_group_region (-1: this
 * member is in no group, *out stays NULL). view: the group as the leaves
 * see it (rank, size, world). RX_OK only if every group got its region. */
int rx_shm_group_state(rx_comm_t *parent, rx_comm_t *view, int maker, rx_shm_state_t **out);
void rx_shm_state_free(rx_shm_state_t *st);
/* Release c's hierarchical node-path state (node_hier.c). */
void rx_node_hier_release(rx_comm_t *c);

/* Wait until every nonblocking direct operation of st has finished: they
 * hold earlier sequence numbers of the region. */
void rx_shm_drain(rx_shm_state_t *st);

/* Slot leaves. Reductions: contiguous, count > 0, count * extent within a
 * slot. Gather, scatter, allgather, alltoall: a rank's whole contribution
 * (one block; p blocks for scatter's root and alltoall) within a slot. */
void rx_shm_slot_barrier(rx_shm_state_t *st);
void rx_shm_slot_reduce(rx_shm_state_t *st, const void *sbuf, void *rbuf, size_t count,
                        const rx_dtype_t *dt, const rx_opobj_t *op, int root);
void rx_shm_slot_allgather(rx_shm_state_t *st, const void *sbuf, size_t bytes, void *rbuf);
void rx_shm_slot_alltoall(rx_shm_state_t *st, const void *sbuf, size_t bytes, void *rbuf);
void rx_shm_slot_gather(rx_shm_state_t *st, const void *sbuf, size_t bytes, void *rbuf, int root);
void rx_shm_slot_scatter(rx_shm_state_t *st, const void *sbuf, size_t bytes, void *rbuf,
                         int root);

/* Stream leaf: a Reduce of a two-rank communicator through the ring,
 * contiguous dt, extent at most RX_BC_CHUNK, any count. */
void rx_shm_stream_reduce(rx_shm_state_t *st, const void *sbuf, void *rbuf, size_t count,
                          const rx_dtype_t *dt, const rx_opobj_t *op, int root);

/* Ring leaf: any size (large messages stream through the entries). */
void rx_shm_ring_bcast(rx_shm_state_t *st, void *buf, size_t bytes, int root);
/* The writer of ring entry t: wait until every other rank has used t - K. */
void rx_shm_ring_space(rx_shm_state_t *st, uint64_t t);

/* The node phases of hierarchical collectives (node_select.c chooses the
 * leaf): reduce to / bcast from the group's rank root on a group's state.
 * Reduce: contiguous dt, count > 0, extent within a slot. */
int rx_node_phase_reduce(rx_shm_state_t *st, const void *sbuf, void *rbuf, size_t count,
                         const rx_dtype_t *dt, const rx_opobj_t *op, int root);
int rx_node_phase_bcast(rx_shm_state_t *st, void *buf, size_t bytes, int root);

/* Direct leaves (single copy by cross-memory attach), on a state where
 * rx_shm_direct_usable holds. alltoall: bytes * p must not overflow. */
int rx_shm_direct_bcast(rx_shm_state_t *st, void *buf, size_t bytes, int root);
int rx_shm_direct_allgather(rx_shm_state_t *st, const void *sbuf, size_t bytes, void *rbuf);
int rx_shm_direct_alltoall(rx_shm_state_t *st, const void *sbuf, size_t bytes, void *rbuf);
/* Whether cross-memory attach reaches every other member (probed once per
 * region; every member gets the same answer, see coll_shm_direct.c). */
int rx_shm_direct_usable(rx_shm_state_t *st);

/* Direct reductions (coll_shm_direct_red.c; protocol above): a state
 * machine so that the offload thread can interleave operations of several
 * communicators, which MPI lets ranks start in different orders. */
typedef struct rx_dir_op {
    rx_shm_state_t *st;
    uint64_t s;
    const char *in;
    char *out;
    size_t count;
    const rx_dtype_t *dt;
    const rx_opobj_t *op;
    int root;      /* -1: allreduce */
    int in_place;
    int phase;
    int next;      /* gather: the next peer (1 .. p - 1 steps from me) */
    int rc;
    uint64_t *peer; /* per rank: input, remote key, output */
} rx_dir_op_t;

/* Prepare collective s (taken from st->seq by the caller); sbuf == rbuf in
 * place. Touches only the region, the buffers and cross-memory reads, so
 * the offload thread may run it. Local failures are carried through the
 * protocol (peers see them), never by leaving early. */
void rx_dir_op_init(rx_dir_op_t *o, rx_shm_state_t *st, uint64_t s, const void *sbuf, void *rbuf,
                    size_t count, const rx_dtype_t *dt, const rx_opobj_t *op, int root);
/* Advance as far as possible without waiting for a peer; 1 when finished
 * (o->rc is then the result and the operation's memory is released). */
int rx_dir_op_step(rx_dir_op_t *o);
/* Run one to completion on st (after the operations in flight there) on
 * the calling, owning thread; takes the next sequence number. root -1:
 * allreduce. Contiguous data, any count. */
int rx_dir_run_on(rx_shm_state_t *st, const void *sbuf, void *rbuf, size_t count,
                  const rx_dtype_t *dt, const rx_opobj_t *op, int root);
/* Free the calling thread's scratch of the direct reductions. */
void rx_shm_direct_scratch_free(void);

static inline uint64_t rx_ld(const volatile uint64_t *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void rx_st(volatile uint64_t *p, uint64_t v)
{
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
}

extern __thread int rx_coll_in_offload; /* set on the offload thread: no progress engine there */

/* One idle turn of a wait for a peer's flag; *n counts them. Spins, keeps
 * the progress engine turning (a peer may need our answer to a
 * point-to-point message before it can arrive here; not on the offload
 * thread, which never touches the engine) and yields once spinning has not
 * helped — in spin mode too, as the point-to-point waits do: on a loaded
 * machine the rank that must set the flag may be waiting for this CPU.
 * Flag writes ring no doorbell, so in block mode (ranks outnumber cores) a
 * wait that a thousand yields (milliseconds) have not ended naps instead,
 * 16 µs doubling to 1 ms: a yielding rank stays runnable and takes its share
 * of a core from the ranks that are working (a rank idle at a barrier while
 * two others moved 2 GiB halved their speed), and 1 ms is about the slice a
 * descheduled peer takes to come back anyway. Napping sooner cost short
 * oversubscribed collectives 5 %: the timer wakes late (its slack is 50 µs). */
#define RX_SHM_YIELDS_BEFORE_NAP 1024
static inline void rx_shm_pause(int *n)
{
    if (*n == INT32_MAX) /* a wait of hours: keep the counter in range, napping */
        *n = rx_rt.spin_count + RX_SHM_YIELDS_BEFORE_NAP + 64;
    int k = ++*n - rx_rt.spin_count;
    int nap = rx_rt.wait_mode == RX_WAIT_BLOCK && k > RX_SHM_YIELDS_BEFORE_NAP;
    if (((*n & 15) == 0 || nap) && !rx_coll_in_offload)
        rx_progress();
    if (nap) {
        int j = k - RX_SHM_YIELDS_BEFORE_NAP;
        struct timespec ts = {0, j >= 7 ? 1000000 : 8000L << j};
        nanosleep(&ts, NULL);
    } else if (k > 0) {
        sched_yield();
    }
#if defined(__x86_64__) || defined(__i386__)
    else
        __builtin_ia32_pause();
#endif
}

/* Wait for *flag >= s. */
static inline void rx_shm_wait(const volatile uint64_t *flag, uint64_t s)
{
    int n = 0;
    while (rx_ld(flag) < s)
        rx_shm_pause(&n);
}

static inline rx_shm_line_t *rx_ctrl(rx_shm_state_t *st, int r, uint64_t s)
{
    return &st->ctrl[2 * r + (int)(s & 1)];
}

static inline char *rx_slot(rx_shm_state_t *st, int r, uint64_t s)
{
    return st->slots + (2 * (size_t)r + (size_t)(s & 1)) * st->slot;
}

static inline void rx_wait_all(rx_shm_state_t *st, uint64_t s)
{
    for (int j = 0; j < st->c->size; j++)
        rx_shm_wait(&rx_ctrl(st, j, s)->seq, s);
    st->arrived = s;
}

/* Before writing the parity buffers of s: everyone is done with s - 2. */
static inline void rx_may_write(rx_shm_state_t *st, uint64_t s)
{
    if (st->arrived + 1 >= s)
        return;
    for (int j = 0; j < st->c->size; j++)
        rx_shm_wait(&rx_ctrl(st, j, s - 1)->seq, s - 1);
    st->arrived = s - 1;
}

/* Publish my contribution of bytes for s: inline or in my slot. */
static inline void rx_put_contrib(rx_shm_state_t *st, const void *sbuf, size_t bytes, uint64_t s)
{
    rx_may_write(st, s);
    rx_shm_line_t *l = rx_ctrl(st, st->c->rank, s);
    if (bytes)
        memcpy(bytes <= RX_INLINE ? (void *)l->data : (void *)rx_slot(st, st->c->rank, s), sbuf,
               bytes);
    rx_st(&l->seq, s);
}

/* Where rank r's contribution of bytes for s lies. */
static inline const char *rx_contrib(rx_shm_state_t *st, int r, size_t bytes, uint64_t s)
{
    return bytes <= RX_INLINE ? (const char *)rx_ctrl(st, r, s)->data : rx_slot(st, r, s);
}

#endif
