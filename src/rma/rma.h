/* SPDX-License-Identifier: MIT
 * One-sided communication: windows, epochs, and put / get / accumulate.
 *
 * How an origin reaches a target (rx_win_tgt_t.kind), chosen per target at
 * window creation, the same way by every origin:
 *   DIRECT  the target's window memory is mapped in this process (its own
 *           memory, or memory from Win_allocate / Win_allocate_shared /
 *           Alloc_mem of a rank on this node, which lives in anonymous memory
 *           files every local rank maps): loads, stores and atomic
 *           instructions, no help from the target's CPU.
 *   TL      the transport moves bytes to and from registered memory
 *           (cross-memory attach within a node for user memory given to
 *           Win_create or Win_attach; the network's RMA for ranks on another
 *           node, "net" targets): still no help from the target's CPU.
 *   AM      active messages the target's progress engine applies: ranks on
 *           another node, transports without a native get / put, or every
 *           target when RDMX_RMA_EMULATE=1.
 *
 * Atomicity of accumulate operations is a property of the target memory, so
 * every origin (and the target's own AM handler) applies the same rule:
 *   - memory mapped by all local ranks of a window whose members all share
 *     one node: every accumulate, fetch-and-op and compare-and-swap takes
 *     the target's accumulate lock and combines with a plain loop (one
 *     atomic instruction for the lock instead of one per element: the
 *     element loop cost 2-3 ns per element, 10-15 times the plain loop);
 *   - memory mapped by all local ranks of a window across nodes (and the
 *     OpenSHMEM heap, whose atomics are single elements): element-wise
 *     atomic instructions (compare-and-swap loops for 1, 2, 4 and 8-byte
 *     elements), which agree with the network's atomics; larger elements
 *     (long double, complex, pairs) take the target's accumulate lock;
 *   - memory only reachable by cross-memory attach: every accumulate, fetch-
 *     and-op and compare-and-swap takes the target's accumulate lock (a spin
 *     lock in the node-shared window metadata), then reads, combines and
 *     writes back by the transport.
 *   - net targets: the network's atomics where it offers the op and type and
 *     the element is one the target's node changes with atomic instructions
 *     (1, 2, 4 or 8 bytes of mapped memory; the provider applies them with
 *     the same instructions), else active messages, whose handler follows
 *     the rules above; elements the node changes under the accumulate lock
 *     (memory reached by cross-memory attach, wider elements) are changed
 *     under that lock, taken over the network: read, combine, write back,
 *     no help from the target's CPU either. The choice depends only on
 *     (target, op, type), so concurrent accumulates with one op on one
 *     element always take one path, and every path uses atomic instructions
 *     on 1, 2, 4 and 8-byte elements of mapped memory.
 * The passive-target lock (MPI_Win_lock) is a reader-writer word in the same
 * metadata, taken with atomic instructions by local origins, with the
 * network's compare-and-swap and fetch-and-add by origins on other nodes
 * (registered with the window), or by the target's AM handler on behalf of
 * origins without native atomics.
 *
 * Completion: DIRECT and local TL operations are complete when the call
 * returns; net operations are issued and completed by the transport's flush;
 * AM operations count as pending on their target until acknowledged, and
 * flush / unlock / fence / complete wait for both. */
#ifndef RX_RMA_H
#define RX_RMA_H

#include "op/opobj.h"
#include "core/comm.h"
#include "core/request.h"
#include "dtype/dtype.h"
#include "tl/tl.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Memory models (rx_win_t.model); the binding keeps MPI_WIN_SEPARATE and
 * MPI_WIN_UNIFIED equal to them (src/mpi/win.c) */
enum rx_win_model { RX_WIN_SEPARATE = 1, RX_WIN_UNIFIED = 2 };

enum rx_rma_kind { RX_RMA_DIRECT = 1, RX_RMA_TL, RX_RMA_AM };

enum rx_win_flavor { /* values of MPI_WIN_FLAVOR_* */
    RX_WIN_FLAVOR_CREATE = 1,
    RX_WIN_FLAVOR_ALLOCATE = 2,
    RX_WIN_FLAVOR_DYNAMIC = 3,
    RX_WIN_FLAVOR_SHARED = 4,
};

/* Dynamic windows: the first RX_WIN_DYN_MAX regions a rank attaches are
 * listed in its node-shared control block, where origins on its node check
 * their ranges without it; more go to a private list (rx_win_t dyn_more)
 * that only the rank itself reads, so an origin whose range the shared list
 * does not cover while ndyn_more is nonzero sends the operation as messages
 * and the target checks it against both lists. An operation may span
 * adjacent regions. */
#define RX_WIN_DYN_MAX 64
/* Passive-target lock word: EXCL bit | number of shared holders, changed
 * by compare-and-swap and additions only. Origins on the node: a writer
 * takes it by compare-and-swap 0 -> EXCL, a reader adds 1 and takes it back
 * when EXCL was set. Origins on other nodes use only the network's
 * fetch-and-add, the atomic providers offer most widely: a writer adds EXCL
 * and takes it back unless the word was 0, with a random, growing pause
 * between tries so that writers on several nodes do not retry in step.
 * Release subtracts. */
#define RX_WIN_LOCK_EXCL (1ull << 62)

typedef struct rx_win_dyn {
    uint64_t addr, len;
} rx_win_dyn_t;

/* The end of the run of regions (adjacent ones together) that holds pos, or
 * pos itself if none does: [pos, end) is attached. */
uint64_t rx_win_dyn_reach(const rx_win_dyn_t *r, uint32_t n, uint64_t pos);

/* One per window member, in the node-shared metadata of its node. */
typedef struct rx_win_ctl {
    _Atomic uint64_t lock;               /* passive target: EXCL bit | shared holders */
    char pad0[56];
    _Atomic uint32_t acc_lock;           /* serializes non-native accumulates */
    char pad1[60];
    _Atomic uint32_t dyn_seq;            /* odd while the list below changes */
    uint32_t ndyn;
    uint32_t ndyn_more;                  /* regions in the owner's private list */
    uint32_t pad2;
    rx_win_dyn_t dyn[RX_WIN_DYN_MAX];
} rx_win_ctl_t;

/* What a member tells the others about reaching it over the network. */
typedef struct rx_win_netkey {
    rx_rkey_t mem, ctl;
    int32_t ok, pad;
} rx_win_netkey_t;

typedef struct rx_win_tgt {
    int kind;
    int lockacc;            /* memory reached by cross-memory attach: accumulates take
                               ctl->acc_lock (see above) */
    int acclock;            /* accumulates take ctl->acc_lock, then combine with plain
                               loads and stores: lockacc, or a window on one node */
    int lock_local;         /* every origin is on this node: nobody takes ctl->acc_lock
                               by the network, so a store releases it */
    char *base;             /* DIRECT: the target's window in this address space */
    uint64_t size;          /* window bytes (0 for dynamic windows) */
    int disp_unit;
    int world;              /* world rank */
    rx_rkey_t rkey;         /* TL: the target's window memory */
    rx_tl_t *tl;            /* TL: the transport that reaches it */
    uint8_t net;            /* TL over the network: completed by tl->flush */
    uint8_t netamo;         /* net: accumulates by the network's atomics where offered */
    uint8_t netlock;        /* net: lock word taken by the network's atomics */
    uint8_t netacclock;     /* net: accumulate lock taken by the network's atomics */
    uint8_t nb_pending;     /* net: operations issued since the last flush */
    rx_rkey_t ctl_rkey;     /* net: the target's control block (lock word first) */
    rx_win_ctl_t *ctl;      /* this target's metadata when on this node, else NULL */
    uint8_t access;         /* 0 none, 1 locked shared, 2 locked exclusive, 3 PSCW start */
    uint8_t nocheck;        /* locked with MPI_MODE_NOCHECK: no lock word held */
    uint32_t am_pending;    /* AM operations not yet acknowledged */
    int am_err;             /* first error an acknowledgement reported */
} rx_win_tgt_t;

typedef struct rx_win {
    int handle;             /* handle index */
    uint32_t id;            /* job-wide id for AM messages: its communicator's ctx */
    rx_comm_t *comm;        /* private duplicate of the creating communicator */
    int comm_handle;        /* MPI_Comm of comm, freed with the window */
    int flavor;
    int rank, size;
    int acc_atomics;        /* set before rx_win_setup: element-wise atomic instructions
                               on mapped memory even on one node (the OpenSHMEM heap) */
    void *base;             /* this rank's window memory */
    size_t bytes;
    int disp_unit;
    rx_win_tgt_t *tgt;      /* by rank in comm */
    rx_win_ctl_t *myctl;
    void *meta;             /* node-shared metadata mapping */
    size_t meta_len;
    void *shared_region;    /* Win_allocate_shared: the node's one region */
    size_t shared_len;
    int own_fd;             /* Win_allocate: this rank's memory file */
    void *own_mem;
    size_t own_len;
    rx_tl_t *net_tl;        /* network transport holding our registrations, or NULL */
    struct rx_win_netkey *net_keys; /* during creation: every member's keys */
    void *myctl_reg;        /* registered control block (net), or NULL */
    void *reg_mem;          /* registered window memory (net), or NULL */
    size_t reg_len;
    void **maps;            /* mappings of peers' memory, by rank (NULL if none) */
    size_t *map_lens;
    /* epochs */
    int fence_open;         /* a fence opened an access epoch for every target */
    int lock_all;           /* MPI_Win_lock_all epoch */
    int lock_count;         /* targets locked with MPI_Win_lock */
    int start_open;         /* PSCW access epoch */
    int *start_ranks, nstart;
    int *post_ranks, npost; /* PSCW exposure epoch */
    int post_open;
    uint32_t am_pending_total;
    rx_win_dyn_t *dyn_more; /* dynamic: attached regions past the shared list */
    uint32_t ndyn_more, dyn_more_cap;
    int errhandler;         /* MPI_Errhandler */
    int model;              /* rx_win_model; MPI_WIN_MODEL points here */
    intptr_t attr_size;     /* MPI_WIN_SIZE points here */
    char name[128];
    struct rx_win *next_live;
} rx_win_t;

/* Memory from MPI_Alloc_mem (mem.c): node-shareable, found again by Win_create. */
int rx_rma_mem_alloc(size_t size, void **addr);
int rx_rma_mem_free(void *addr);   /* RX_ERR_NOTFOUND if addr is not such memory */
/* If [addr, addr+len) lies in Alloc_mem memory: its file and offset. */
int rx_rma_mem_lookup(const void *addr, size_t len, int *fd, uint64_t *off);

/* win.c: creation (collective over comm, a private duplicate the window owns). */
int rx_win_setup(rx_win_t *w, rx_comm_t *comm, int flavor, void *base, size_t bytes,
                 int disp_unit, void **base_out);
void rx_win_teardown(rx_win_t *w);
int rx_win_attach(rx_win_t *w, void *addr, size_t len);
int rx_win_detach(rx_win_t *w, const void *addr);
/* Win_shared_query: where rank r's segment of a shared window is mapped here. */
int rx_win_shared_query(rx_win_t *w, int r, size_t *size, int *disp_unit, void **base);

/* ops.c: one operation on target rank t; the MPI layer checked arguments and
 * the epoch. req, when not NULL, completes with the operation. Returns RX_OK
 * or an RX status; RX_ERR_INVAL means outside the target window. */
typedef struct rx_rma_op {
    int kind;               /* RX_RMA_OP_* */
    const void *obuf;       /* origin data (put / accumulate / compare value source) */
    size_t ocount;
    const rx_dtype_t *odt;
    void *rbuf;             /* result: get destination, fetched values */
    size_t rcount;
    const rx_dtype_t *rdt;
    const void *cbuf;       /* compare-and-swap: compare value */
    int target;
    uint64_t disp;          /* target displacement, in disp units */
    size_t tcount;
    const rx_dtype_t *tdt;
    const rx_opobj_t *op;   /* accumulates */
    int by_am;              /* set by rx_rma_range: only the target can check it */
} rx_rma_op_t;

enum { RX_RMA_OP_PUT = 1, RX_RMA_OP_GET, RX_RMA_OP_ACC, RX_RMA_OP_GACC, RX_RMA_OP_CAS };

int rx_rma_do(rx_win_t *w, const rx_rma_op_t *op, rx_req_t *req);
/* The byte range [*off, *off + *span) the op touches at the target; RX_ERR_INVAL
 * if outside the target's window (nothing was touched). Sets op->by_am when
 * only the target can tell (regions of a dynamic window past the shared
 * list). */
int rx_rma_range(rx_win_t *w, rx_rma_op_t *op, uint64_t *off, uint64_t *span);

/* Fast path of an 8-byte-or-smaller contiguous put / get to a DIRECT target. */
static inline int rx_rma_direct_ok(const rx_win_tgt_t *t) { return t->kind == RX_RMA_DIRECT; }

/* sync.c */
int rx_win_fence(rx_win_t *w, int assert_flags);
int rx_win_lock(rx_win_t *w, int exclusive, int target, int nocheck);
int rx_win_unlock(rx_win_t *w, int target);
int rx_win_lock_all(rx_win_t *w, int nocheck);
int rx_win_unlock_all(rx_win_t *w);
int rx_win_flush(rx_win_t *w, int target);   /* target < 0: every target */
int rx_win_post(rx_win_t *w, const int *ranks, int n);
int rx_win_start(rx_win_t *w, const int *ranks, int n);
int rx_win_complete(rx_win_t *w);
int rx_win_wait(rx_win_t *w, int test_only, int *done);

/* atomic.c: element-wise accumulate into memory of this process. */
void rx_rma_acc_local(const rx_opobj_t *op, int basic, const void *in, void *target,
                      size_t count, void *fetched, int atomic_ok);
int rx_rma_cas_local(int basic, const void *cmp, const void *in, void *target, void *fetched,
                     int atomic_ok);
/* One element of a DIRECT target (fetch-and-op, compare-and-swap) by the
 * target's rule: under its accumulate lock where t->acclock, else one
 * atomic instruction. */
void rx_rma_fop_direct(const rx_win_tgt_t *t, const rx_opobj_t *op, int basic, const void *in,
                       void *target, void *fetched);
void rx_rma_cas_direct(const rx_win_tgt_t *t, int basic, const void *cmp, const void *in,
                       void *target, void *fetched);
/* 1 if accumulates of this basic type may use atomic instructions. */
int rx_rma_native_type(int basic);
void rx_rma_spin_lock(_Atomic uint32_t *l);
void rx_rma_spin_unlock(_Atomic uint32_t *l);
/* Release target t's accumulate lock: a store where only this node takes
 * it, else the subtraction origins on other nodes need. */
static inline void rx_rma_acc_unlock(const rx_win_tgt_t *t)
{
    if (t->lock_local)
        atomic_store_explicit(&t->ctl->acc_lock, 0, memory_order_release);
    else
        rx_rma_spin_unlock(&t->ctl->acc_lock);
}
/* Reader-writer lock word of a target (passive target). */
int rx_rma_lock_try(_Atomic uint64_t *l, int exclusive);
void rx_rma_lock_release(_Atomic uint64_t *l, int exclusive);

/* am.c: emulation by active messages */
int rx_rma_am_init(void);
/* An operation in flight by messages: completes req (and unpacks stage into
 * (rbuf, rdt) if stage is not NULL) once every message was answered. */
typedef struct rx_rma_amrec rx_rma_amrec_t;
rx_rma_amrec_t *rx_rma_am_rec(rx_req_t *req, void *stage, const rx_dtype_t *rdt, void *rbuf);
/* One contiguous target segment at byte offset off: data in, results to out. */
int rx_rma_am_seg(rx_win_t *w, const rx_rma_op_t *op, rx_rma_amrec_t *rec, uint64_t off,
                  const void *in, size_t len, size_t nelem, void *out);
/* No more segments; bytes = the result stream's length. */
void rx_rma_am_rec_done(rx_rma_amrec_t *rec, size_t bytes);
/* Results of an accumulate staged in stream form (bytes of them) into the
 * result buffer of rdt (ops.c). */
void rx_rma_result_unpack(const rx_dtype_t *rdt, const void *stage, size_t bytes, void *rbuf);
int rx_rma_am_lock(rx_win_t *w, int target, int exclusive);
int rx_rma_am_unlock(rx_win_t *w, int target, int exclusive);
int rx_rma_am_flush(rx_win_t *w, int target);
/* Windows known to the AM handler, by id. */
void rx_rma_win_register(rx_win_t *w);
void rx_rma_win_unregister(rx_win_t *w);
rx_win_t *rx_rma_win_find(uint32_t id);
/* Resolve a target-side byte range of this rank's window; NULL if outside. */
void *rx_rma_local_addr(rx_win_t *w, uint64_t off, uint64_t len);

/* net.c: targets on other nodes reached by the network's RMA */
/* The network transport windows may use, or NULL. */
rx_tl_t *rx_rma_net_tl(void);
/* The network atomic for (MPI op, basic type): 1 and *amo, *amt when the
 * target takes it natively, else 0 (emulate). op_id: RX_OP_* or -1 for
 * compare-and-swap. */
int rx_rma_net_amo(const rx_win_tgt_t *t, int op_id, int basic, int *amo, int *amt);
int rx_rma_net_lock(rx_win_tgt_t *t, int exclusive);
/* The target's accumulate lock (rx_win_ctl_t.acc_lock) over the network. */
int rx_rma_net_acc_lock(rx_win_tgt_t *t);
int rx_rma_net_acc_unlock(rx_win_tgt_t *t);
int rx_rma_net_unlock(rx_win_tgt_t *t, int exclusive);
/* Complete issued net operations to target (-1: all). */
int rx_rma_net_flush(rx_win_t *w, int target);

/* 1 when RDMX_RMA_EMULATE forces every target onto active messages. */
int rx_rma_emulate(void);

#endif
