/* SPDX-License-Identifier: MIT
 * Shared-memory transport, private definitions.
 *
 * One segment per node holds, for L local ranks:
 *   [header][rank control blocks x L][ring control x L*L][ring data x L*L]
 * Ring (s,d) carries messages from local rank s to local rank d: a byte ring of
 * 64-byte aligned records written only by s and read only by d. The producer
 * publishes a record by storing its sequence number last (release), after
 * overwriting the sequence word where the next record will start (that word
 * may hold an earlier lap's payload); the consumer polls the sequence number of the next record (acquire) and
 * publishes how far it has read in the ring's control line. No read-modify-
 * write atomics on this path; the producer's position and cached view of the
 * consumer's position live in its private memory. */
#ifndef RX_TL_SHM_H
#define RX_TL_SHM_H

#include "tl/tl.h"

#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/types.h>

#define RX_CACHELINE 64
#define RX_SHM_MAGIC 0x72646d7873686d31ull /* "rdmxshm1" */
#define RX_SHM_REC_WRAP UINT32_MAX

typedef struct rx_shm_seg_hdr {
    uint64_t magic;
    uint32_t local_size;
    uint32_t ring_size;
    uint64_t total_size;
    char pad[RX_CACHELINE - 24];
} rx_shm_seg_hdr_t;

/* Per local rank; the owner writes sleeping, senders ring the doorbell. */
typedef struct rx_shm_rank_ctl {
    _Atomic uint32_t doorbell;
    _Atomic uint32_t sleeping;
    int32_t pid;
    int32_t cma_ok;          /* this rank's single-copy probe succeeded */
    uint64_t probe_addr;     /* address of an 8-byte probe value in this rank */
    char pad[RX_CACHELINE - 24];
} rx_shm_rank_ctl_t;

/* Cooperative single copy of one large message from the ring's sender to its
 * receiver: the receiver describes the transfer here and both sides claim
 * chunks (receiver: process_vm_readv, sender: process_vm_writev), so two
 * cores copy at once when the sender is waiting in MPI, and the receiver
 * alone copies everything when it is not. `next` holds (generation << 32 |
 * next chunk): a claim names the transfer it belongs to, so a late helper can
 * never copy for a newer transfer with stale addresses. */
typedef struct rx_shm_coop {
    _Atomic uint64_t next;
    _Atomic uint32_t done;   /* chunks copied, by either side */
    uint32_t nchunks;
    uint64_t src;            /* sender's buffer (sender's address space) */
    uint64_t dst;            /* receiver's buffer */
    uint64_t len;
    uint32_t chunk;
    uint32_t gen;            /* written by the receiver only */
    _Atomic uint32_t failed; /* gen of a transfer one of the sender's writes failed in */
    char pad[RX_CACHELINE - 52];
} rx_shm_coop_t;

typedef struct rx_shm_ring_ctl {
    _Atomic uint64_t tail;   /* bytes consumed, written by the consumer only */
    char pad[RX_CACHELINE - 8];
    rx_shm_coop_t coop;
} rx_shm_ring_ctl_t;

/* Record type reserved for the transport's own messages (never delivered up). */
#define RX_SHM_AM_COOP 0xffu

/* A record: 32-byte header, then the payload, padded to 64 bytes. */
typedef struct rx_shm_rec {
    _Atomic uint32_t seq;
    uint32_t len;
    rx_am_hdr_t hdr;
} rx_shm_rec_t;

_Static_assert(sizeof(rx_shm_rec_t) == 32, "record header is 32 bytes");

/* Producer side of one outgoing ring (private memory). */
typedef struct rx_shm_tx {
    unsigned char *data;
    rx_shm_ring_ctl_t *ctl;
    rx_shm_rank_ctl_t *peer_ctl;
    uint64_t head;
    uint64_t cached_tail;
    uint32_t seq;
} rx_shm_tx_t;

/* Consumer side of one incoming ring (private memory). */
typedef struct rx_shm_rx {
    unsigned char *data;
    rx_shm_ring_ctl_t *ctl;
    uint64_t pos;
    uint32_t seq;
    int world_src;
} rx_shm_rx_t;

typedef struct rx_shm {
    rx_tl_t tl;
    void *base;
    size_t seg_size;
    uint32_t ring_size;
    int local_rank, local_size;
    int block_waits;
    rx_am_handler_t handler;
    void *handler_arg;
    rx_shm_rank_ctl_t *ctl;       /* L entries */
    rx_shm_tx_t *tx;              /* indexed by world rank (NULL data if not local) */
    rx_shm_rx_t *rx;              /* L-1 incoming rings, polled in order */
    int nrx;
    int *pid_of;                  /* indexed by world rank */
    unsigned char *reach;         /* indexed by world rank */
    int cma;                      /* single copy enabled node-wide */
    size_t coop_min, coop_chunk;  /* cooperative copy from this size, in chunks */
    rx_shm_coop_t **coop_in;      /* by world rank: slot of the ring from that rank */
    _Atomic int *copy_err;        /* by world rank: errno of the last failed copy reported */
    uint64_t probe_value;
} rx_shm_t;

/* Fill the ops table over an already laid-out rx_shm_t (unit tests build
 * rings in private memory this way). */
int rx_tl_shm_ops_for_test(rx_shm_t *shm, rx_tl_t **out);
/* After ring_size and cma are known: payload and eager limits, the
 * cooperative copy's settings, the single-copy capabilities. */
void rx_shm_set_limits(rx_shm_t *shm);
/* segment.c */
int rx_shm_segment_create(rx_shm_t *shm, const rx_tl_job_t *job);
void rx_shm_segment_release(rx_shm_t *shm);
/* cma.c */
int rx_shm_cma_probe(rx_shm_t *shm, const rx_tl_job_t *job);
int rx_shm_cma_get(rx_tl_t *tl, int world_peer, void *local, size_t len, const rx_rkey_t *rkey,
                   uint64_t offset);
int rx_shm_cma_getv(rx_tl_t *tl, int world_peer, const struct iovec *local, size_t nlocal,
                    const struct iovec *remote, size_t nremote, const rx_rkey_t *rkey);
int rx_shm_cma_put(rx_tl_t *tl, int world_peer, const void *local, size_t len,
                   const rx_rkey_t *rkey, uint64_t offset);
/* Copy len bytes from (write: to) process pid at remote, resuming after
 * partial transfers; 0, or the errno of the failure. */
int rx_shm_cma_copy(pid_t pid, int write, char *local, uint64_t remote, size_t len);
/* A cross-memory copy with world_peer failed with errno err:
 * logs it unless the same error with that peer was logged before, and returns
 * RX_ERR_PEER when the peer has exited (ESRCH), else RX_ERR_IO. */
int rx_shm_copy_failed(rx_shm_t *shm, int world_peer, const char *what, int err);
/* Nonzero once a copy found world_peer's process gone: later copies fail at
 * once (its pid may even belong to another process by now). */
int rx_shm_peer_gone(rx_shm_t *shm, int world_peer);
/* coop.c */
void rx_shm_coop_help(rx_shm_t *shm, int world_src, uint32_t gen);
int rx_shm_coop_get(rx_shm_t *shm, int world_peer, void *local, size_t len, uint64_t remote);
/* doorbell.c */
void rx_shm_doorbell_ring(rx_shm_rank_ctl_t *peer);
void rx_shm_doorbell_sleep(rx_shm_t *shm, int timeout_us);

/* mmap flags for node-shared memory. Mappings up to 64 MiB (the rings'
 * segment, collective regions, most windows) have their page tables filled at
 * map time: otherwise every process takes a fault at the first touch of each
 * page, and a ring's 64 pages per peer were touched inside the first timed
 * thousands of messages (0-byte latency 1.3-1.6x that of later sizes). Larger
 * mappings fault as they are used, so that a big window or heap costs no
 * more at creation than touching it would. */
static inline int rx_shm_map_flags(size_t len)
{
    return MAP_SHARED | (len <= ((size_t)64 << 20) ? MAP_POPULATE : 0);
}

static inline size_t rx_shm_rec_size(size_t len)
{
    return (sizeof(rx_shm_rec_t) + len + RX_CACHELINE - 1) & ~(size_t)(RX_CACHELINE - 1);
}

#endif
