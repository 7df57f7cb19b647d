/* SPDX-License-Identifier: MIT
 * The transport interface: one ops table per transport, RDMA semantics.
 *
 * Lifecycle (every transport):
 *   1. init:    the core walks the registry (rx_tl_open_all) and calls each
 *               wanted transport's create function with the job description
 *               (rx_tl_job_t); it may use the bootstrap (put / fence / get)
 *               to exchange addresses, and fills an rx_tl_t whose ops point
 *               to the transport's static const table.
 *   2. use:     am_send to any peer it reaches (tl->reaches[world_rank]);
 *               progress() delivers incoming active messages to the job's
 *               am_handler; get/put move bytes directly between registered
 *               memory, single-copy when caps say so.
 *   3. fini:    every request has completed; the transport releases all.
 *
 * Active messages carry a 24-byte header interpreted only by the layer above
 * (p2p: eager / rendezvous protocols) plus a contiguous payload. Delivery is
 * reliable and in order per (sender, receiver) pair. The handler runs inside
 * progress(); it may call am_send (which then must not recurse into progress)
 * and must copy whatever payload it keeps, since the payload pointer is only
 * valid until it returns.
 *
 * Nothing here blocks: am_send returns RX_ERR_AGAIN when the transport has no
 * room, and the caller retries after progress. */
#ifndef RX_TL_H
#define RX_TL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

typedef struct rx_am_hdr {
    uint8_t type;     /* protocol message type, defined by the layer above */
    uint8_t flags;
    uint16_t rsvd;
    uint32_t ctx;     /* communicator context id */
    int32_t src;      /* sender's rank in that communicator */
    int32_t tag;
    uint64_t cookie;  /* request identifier for replies (sync ack, rendezvous) */
} rx_am_hdr_t;

_Static_assert(sizeof(rx_am_hdr_t) == 24, "active-message header is 24 bytes");

/* A remote key: what a peer needs to reach registered memory. */
typedef struct rx_rkey {
    uint64_t addr;    /* address in the owner's address space */
    uint64_t key;     /* transport-specific (shm: owner's pid; ofi: fi_mr_key) */
} rx_rkey_t;

/* Capabilities: only what a caller must know before calling, to choose a
 * protocol or a path; every operation itself is always callable (see
 * rx_tl_ops_t). */
enum rx_tl_caps {
    /* get / put are single-copy (cross-memory attach, RDMA): the rendezvous
     * reads the sender's buffer instead of streaming it in messages, and a
     * window reaches the target's memory without the target's CPU */
    RX_TL_CAP_GET = 1u << 0,
    RX_TL_CAP_PUT = 1u << 1,
    /* some atomics are native: amo_types says which (op, type) pairs; the
     * layer above emulates the others with active messages */
    RX_TL_CAP_ATOMIC = 1u << 2,
    /* getv is single-copy too: worth sending a typed message by its layout */
    RX_TL_CAP_GETV = 1u << 3,
    /* one-sided operations for windows across nodes: memory registered with
     * mem_reg, put_nb / get_nb issued and completed by flush (the network
     * transport when RDMX_OFI_RMA is on) */
    RX_TL_CAP_NET_RMA = 1u << 4,
    /* sleep() wakes when a message of this transport arrives (a doorbell);
     * without it waits sleep in short slices */
    RX_TL_CAP_WAKE = 1u << 5,
    /* get / put reach any memory of the peer: a key is (address, owner's
     * pid), which any process makes with mem_reg, so the layer above need
     * not exchange registrations (cross-memory attach, the process itself) */
    RX_TL_CAP_ANY_MEMORY = 1u << 6,
};

/* Remote atomic operations (the atomic slot below): MPI's predefined
 * reduction ops that networks offer, plus plain write (MPI_REPLACE), read
 * (MPI_NO_OP) and compare-and-swap. */
enum rx_tl_amo {
    RX_TL_AMO_SUM, RX_TL_AMO_PROD, RX_TL_AMO_MIN, RX_TL_AMO_MAX,
    RX_TL_AMO_LAND, RX_TL_AMO_LOR, RX_TL_AMO_LXOR,
    RX_TL_AMO_BAND, RX_TL_AMO_BOR, RX_TL_AMO_BXOR,
    RX_TL_AMO_WRITE, RX_TL_AMO_READ, RX_TL_AMO_CSWAP,
    RX_TL_AMO_NOPS
};
/* Element types of remote atomics (bit positions in rx_tl_t.amo_types). */
enum rx_tl_amo_type {
    RX_TL_AMT_I8, RX_TL_AMT_U8, RX_TL_AMT_I16, RX_TL_AMT_U16, RX_TL_AMT_I32, RX_TL_AMT_U32,
    RX_TL_AMT_I64, RX_TL_AMT_U64, RX_TL_AMT_FLOAT, RX_TL_AMT_DOUBLE,
    RX_TL_AMT_NTYPES
};

typedef struct rx_tl rx_tl_t;

/* Longest I/O-vector list one getv call takes (the kernel's IOV_MAX). */
#define RX_TL_IOV_MAX 1024

/* Completion of an asynchronous operation (get_nb): status RX_OK or an error;
 * runs inside the transport's progress(). */
typedef void (*rx_tl_done_t)(void *arg, int status);

/* Upcall for each delivered message; world_src is the sender's job rank. */
typedef void (*rx_am_handler_t)(void *arg, int world_src, const rx_am_hdr_t *hdr,
                                const void *payload, size_t len);

/* What the core tells a transport at creation. */
typedef struct rx_tl_job {
    int rank, size;            /* job rank and size */
    int peers_max;             /* length of reaches[]: the job's ranks, then
                                * processes connected at run time, which only
                                * links (rx_tl_shm_link_create) reach */
    int local_rank, local_size;
    const int *local_ranks;    /* job ranks on this node, by local rank */
    const int *node_of;        /* node index of each job rank */
    int nnodes;
    const char *jobid;         /* unique per job, names shared segments */
    int block_waits;           /* 1: waiters may sleep; senders must ring doorbells */
    rx_am_handler_t am_handler;
    void *am_arg;
} rx_tl_job_t;

/* The operations of one transport: one static const table per transport,
 * every slot set. An operation a transport does not offer points to the
 * shared stub below, which returns RX_ERR_UNSUPPORTED (or, for flush,
 * mem_release, rma_expose and sleep, does the right nothing). */
typedef struct rx_tl_ops {
    /* Send one active message; RX_OK once the payload is copied out (the
     * buffer may be reused), RX_ERR_AGAIN when there is no room now,
     * RX_ERR_INVAL above max_am_payload. */
    int (*am_send)(rx_tl_t *tl, int world_peer, const rx_am_hdr_t *hdr, const void *payload,
                   size_t len);
    /* Deliver pending incoming messages; returns how many were delivered. */
    int (*progress)(rx_tl_t *tl);
    /* Sleep until a message may have arrived for this process or timeout_us
     * passed (block mode; RX_TL_CAP_WAKE). Returns at once if something is
     * pending. */
    void (*sleep)(rx_tl_t *tl, int timeout_us);
    /* Register memory for remote access; fills *rkey. */
    int (*mem_reg)(rx_tl_t *tl, void *addr, size_t len, rx_rkey_t *rkey);
    /* The layer above no longer exposes memory it passed to mem_reg (a
     * rendezvous send completed); lets a registration cache release or
     * evict it. */
    void (*mem_release)(rx_tl_t *tl, void *addr, size_t len);
    /* Read len bytes from (rkey, offset) at world_peer into local. RX_OK
     * when complete, or an error. */
    int (*get)(rx_tl_t *tl, int world_peer, void *local, size_t len, const rx_rkey_t *rkey,
               uint64_t offset);
    int (*put)(rx_tl_t *tl, int world_peer, const void *local, size_t len,
               const rx_rkey_t *rkey, uint64_t offset);
    /* Start reading like get and return at once; done(arg, status) runs from
     * progress() once the bytes are in local. RX_OK means done will run; any
     * other return (RX_ERR_UNSUPPORTED: use get) means it will not. done
     * NULL: nothing runs, flush(world_peer) completes the read. */
    int (*get_nb)(rx_tl_t *tl, int world_peer, void *local, size_t len, const rx_rkey_t *rkey,
                  uint64_t offset, rx_tl_done_t done, void *arg);
    /* Start a write and return at once; local must stay unchanged until
     * flush(world_peer) completes it. */
    int (*put_nb)(rx_tl_t *tl, int world_peer, const void *local, size_t len,
                  const rx_rkey_t *rkey, uint64_t offset);
    /* Read the pieces remote[0..nremote) of world_peer's memory (addresses
     * in its address space, reached through rkey->key; rkey->addr is
     * ignored) into the pieces local[0..nlocal), in order, both lists
     * covering the same number of bytes and at most RX_TL_IOV_MAX long.
     * Lets the layer above move data between two non-contiguous layouts in
     * one copy; completes before it returns. */
    int (*getv)(rx_tl_t *tl, int world_peer, const struct iovec *local, size_t nlocal,
                const struct iovec *remote, size_t nremote, const rx_rkey_t *rkey);
    /* One-sided atomics on count elements of type (rx_tl_amo_type) at
     * (rkey, offset) where amo_types allows (op, type), RX_ERR_UNSUPPORTED
     * elsewhere. READ and CSWAP (count 1) need fetched. With fetched it returns
     * once the old values are in fetched; without, it returns once issued:
     * operand must stay unchanged until flush(world_peer), which completes
     * it. */
    int (*atomic)(rx_tl_t *tl, int world_peer, int op, int type, size_t count,
                  const void *operand, const void *compare, void *fetched,
                  const rx_rkey_t *rkey, uint64_t offset);
    /* Remote completion: returns once every get / put / atomic this process
     * issued to world_peer (-1: to every peer) is complete at the target and
     * its local buffers may be reused; returns the first error of those
     * operations. */
    int (*flush)(rx_tl_t *tl, int world_peer);
    /* This process now exposes memory to peers' one-sided operations (a
     * window); a transport whose provider moves such data only when polled
     * arranges for it to happen without the application's calls. */
    void (*rma_expose)(rx_tl_t *tl);
    /* Every request has completed: release everything. */
    void (*fini)(rx_tl_t *tl);
} rx_tl_ops_t;

/* One transport instance: its operations and what they reach. */
struct rx_tl {
    const rx_tl_ops_t *ops;
    const char *name;
    unsigned caps;             /* rx_tl_caps */
    size_t max_am_payload;     /* largest payload one am_send carries */
    size_t eager_limit;        /* payloads above this go by rendezvous */
    const unsigned char *reaches; /* reaches[world_rank] != 0 if this transport reaches it */
    /* RX_TL_CAP_ATOMIC: bit t of amo_types[op] set when op works natively on
     * elements of type t (rx_tl_amo_type), fetching or not. Such atomics are
     * applied at the target with the CPU's atomic instructions, so they stay
     * atomic with respect to loads, stores and atomic instructions of the
     * target's node on the same 1, 2, 4 or 8-byte element; a transport
     * whose atomics are not (a NIC's own atomic unit) does not advertise them. */
    uint32_t amo_types[RX_TL_AMO_NOPS];
    void *priv;
};

/* Shared slots for operations a transport does not offer (src/tl/stub.c). */
int rx_tl_get_unsupported(rx_tl_t *tl, int world_peer, void *local, size_t len,
                          const rx_rkey_t *rkey, uint64_t offset);
int rx_tl_put_unsupported(rx_tl_t *tl, int world_peer, const void *local, size_t len,
                          const rx_rkey_t *rkey, uint64_t offset);
int rx_tl_get_nb_unsupported(rx_tl_t *tl, int world_peer, void *local, size_t len,
                             const rx_rkey_t *rkey, uint64_t offset, rx_tl_done_t done,
                             void *arg);
int rx_tl_put_nb_unsupported(rx_tl_t *tl, int world_peer, const void *local, size_t len,
                             const rx_rkey_t *rkey, uint64_t offset);
int rx_tl_getv_unsupported(rx_tl_t *tl, int world_peer, const struct iovec *local,
                           size_t nlocal, const struct iovec *remote, size_t nremote,
                           const rx_rkey_t *rkey);
int rx_tl_atomic_unsupported(rx_tl_t *tl, int world_peer, int op, int type, size_t count,
                             const void *operand, const void *compare, void *fetched,
                             const rx_rkey_t *rkey, uint64_t offset);
/* Transports whose one-sided operations complete before they return. */
int rx_tl_flush_complete(rx_tl_t *tl, int world_peer);
/* Transports without a registration cache or a provider to keep polled. */
void rx_tl_mem_release_none(rx_tl_t *tl, void *addr, size_t len);
void rx_tl_rma_expose_none(rx_tl_t *tl);
/* Transports with nothing to sleep on (RX_TL_CAP_WAKE unset). */
void rx_tl_sleep_none(rx_tl_t *tl, int timeout_us);
/* Registration for transports that reach memory by the owner's pid
 * (cross-memory attach, or the process itself): no state to keep. */
int rx_tl_mem_reg_pid(rx_tl_t *tl, void *addr, size_t len, rx_rkey_t *rkey);

/* Node-shared regions (src/tl/shm/region.c): memory the ranks of one node
 * map together. The creator makes the region and passes name to the others
 * (by a message), each attaches, and once all have, the creator unlinks the
 * name: nothing remains in /dev/shm even if the job crashes later. */
#define RX_REGION_NAME_MAX 160
int rx_region_create(const char *jobid, size_t size, char *name, size_t namelen, void **addr);
int rx_region_attach(const char *name, size_t size, void **addr);
void rx_region_unlink(const char *name);
void rx_region_detach(void *addr, size_t size);

/* Node-shareable private memory (src/tl/shm/region_fd.c): an anonymous memory
 * file that no name ever refers to. The owner allocates it alone (MPI_Alloc_mem
 * is not collective); another rank of the node maps it later by the owner's
 * pid and descriptor, as long as the owner keeps the descriptor open. Mapping
 * needs the same permission as cross-memory attach; RX_ERR_IO when refused. */
int rx_region_fd_alloc(size_t size, int *fd, void **addr);
int rx_region_fd_map(int owner_pid, int fd, size_t size, void **addr);
void rx_region_fd_free(int fd, void *addr, size_t size);

/* Links (src/tl/shm/link.c): rings between two groups of processes of one
 * node that did not start together (MPI_Comm_spawn, _connect / _accept,
 * _join), in a region of rx_tl_link_bytes that one of them creates and all
 * map (zero-filled: rx_region_create). Side A has na members, side B nb;
 * the link reaches the other side's members under the peer indices given.
 * It rings no doorbells: its owner must wait in short slices. */
typedef struct rx_tl_link {
    int na, nb;
    int side, me;              /* this process: side 0 (A) or 1 (B), its index there */
    uint32_t ring_size;        /* the same on both sides (the largest proposed) */
    const int *peer;           /* peer index of each member of the other side; -1: no ring */
    const int *peer_pid;
    int cma;                   /* single copy works between every pair */
    int peers_max;             /* length of the per-peer tables */
    rx_am_handler_t am_handler;
    void *am_arg;
} rx_tl_link_t;
uint32_t rx_tl_link_ring_size(void);  /* this process's proposal */
size_t rx_tl_link_bytes(int na, int nb, uint32_t ring_size);
/* The link over base (bytes long, mapped); its fini unmaps base. */
int rx_tl_link_create(const rx_tl_link_t *d, void *base, size_t bytes, rx_tl_t **out);
/* Cross-memory attach between the groups: each process lets peers attach
 * and publishes the address rx_tl_link_probe_addr gives; a peer's probe
 * reads it (1: works). */
uint64_t rx_tl_link_probe_addr(void);
int rx_tl_link_probe(int pid, uint64_t addr);

/* The transports (src/tl/registry.c): which exist, in which order each
 * peer picks them, and which every rank creates. */
typedef struct rx_tl_entry {
    const char *name;
    /* 1 when every rank creates this transport for the job (set-up fences
     * are global, so the answer must be the same on every rank), 0 when
     * none does; RX_ERR_* when the job needs it and it cannot be had. */
    int (*wanted)(const rx_tl_job_t *job);
    int (*create)(const rx_tl_job_t *job, rx_tl_t **out);
    /* Per-peer preference: lower first. A function so that configuration
     * (RDMX_OFI=all puts the network ahead of shared memory) can move it. */
    int (*priority)(void);
} rx_tl_entry_t;

/* The registered transports; *n receives how many. */
const rx_tl_entry_t *rx_tl_registry(int *n);
/* Create the wanted transports and keep those that reach a peer, in
 * per-peer preference order (tls[0..*ntl), at most max); on failure every
 * transport created is released. */
int rx_tl_open_all(const rx_tl_job_t *job, rx_tl_t **tls, int max, int *ntl);
/* The first of tls[0..ntl) that reaches world_peer and has every
 * capability in want and none in refuse; NULL when none does. */
rx_tl_t *rx_tl_reaching(rx_tl_t *const *tls, int ntl, int world_peer, unsigned want,
                        unsigned refuse);

/* The transports' own create functions, in the registry only. */
int rx_tl_self_create(const rx_tl_job_t *job, rx_tl_t **out);
int rx_tl_shm_create(const rx_tl_job_t *job, rx_tl_t **out);
/* libfabric (src/tl/ofi/), built when libfabric is found (RDMX_HAVE_OFI). */
int rx_tl_ofi_create(const rx_tl_job_t *job, rx_tl_t **out);

#endif
