/* SPDX-License-Identifier: MIT
 * Cooperative single copy (see rx_shm_coop_t in shm.h). The receiver's get
 * describes the transfer in the ring's coop slot, asks the sender for help
 * with a transport-internal record, and claims chunks until none is left;
 * the sender, when its progress sees the request, claims chunks too. */
#define _GNU_SOURCE
#include "shm.h"
#include "util/log.h"
#include "util/status.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/uio.h>

static inline void rx_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Claim the next chunk of transfer gen; -1 when none is left (or the slot has
 * moved on to a newer transfer). */
static int64_t rx_coop_claim(rx_shm_coop_t *c, uint32_t gen, uint32_t nchunks)
{
    uint64_t w = atomic_load_explicit(&c->next, memory_order_acquire);
    for (;;) {
        if ((uint32_t)(w >> 32) != gen || (uint32_t)w >= nchunks)
            return -1;
        if (atomic_compare_exchange_weak_explicit(&c->next, &w, w + 1, memory_order_acq_rel,
                                                  memory_order_acquire))
            return (int64_t)(uint32_t)w;
    }
}

void rx_shm_coop_help(rx_shm_t *shm, int world_src, uint32_t gen)
{
    /* we are the sender of the ring towards world_src: its slot is in our tx */
    rx_shm_coop_t *c = &shm->tx[world_src].ctl->coop;
    uint64_t w = atomic_load_explicit(&c->next, memory_order_acquire);
    if ((uint32_t)(w >> 32) != gen)
        return;
    uint32_t nchunks = c->nchunks, chunk = c->chunk;
    uint64_t src = c->src, dst = c->dst, len = c->len;
    if ((uint32_t)(atomic_load_explicit(&c->next, memory_order_acquire) >> 32) != gen)
        return; /* fields changed under us: a newer transfer, not ours to help */
    int64_t k;
    while ((k = rx_coop_claim(c, gen, nchunks)) >= 0) {
        uint64_t off = (uint64_t)k * chunk;
        size_t n = len - off < chunk ? (size_t)(len - off) : chunk;
        int err = rx_shm_cma_copy(shm->pid_of[world_src], 1, (char *)(uintptr_t)(src + off),
                                  dst + off, n);
        if (err) {
            /* the receiver learns it from the slot and fails its get; we
             * stop helping (it copies the rest, or it is gone) */
            atomic_store_explicit(&c->failed, gen, memory_order_relaxed);
            rx_shm_copy_failed(shm, world_src, "cooperative write to", err);
        }
        /* counted even on failure so the receiver never waits forever */
        atomic_fetch_add_explicit(&c->done, 1, memory_order_release);
        if (err)
            return;
    }
}

/* Whether the process pid has ended (its zombie still counts until the
 * launcher reaps it, which it does at once). */
static int rx_coop_peer_dead(pid_t pid)
{
    return kill(pid, 0) < 0 && errno == ESRCH;
}

/* Whether world_peer is itself in the middle of a read from us (its slot
 * lies in our ring towards it). Traffic both ways at once: the peer has a
 * copy of its own to do, so asking it for help only adds the wait for the
 * chunks it claims between its own (2 ranks, bidirectional bandwidth of
 * 1-4 MiB: 0.77-0.85 of the peers' with help asked for every message). */
static int rx_coop_peer_busy(rx_shm_t *shm, int world_peer)
{
    const rx_shm_coop_t *o = &shm->tx[world_peer].ctl->coop;
    return atomic_load_explicit(&o->done, memory_order_acquire) < o->nchunks;
}

int rx_shm_coop_get(rx_shm_t *shm, int world_peer, void *local, size_t len, uint64_t remote)
{
    rx_shm_coop_t *c = shm->coop_in[world_peer];
    int busy = rx_coop_peer_busy(shm, world_peer);
    uint32_t chunk = (uint32_t)shm->coop_chunk;
    uint32_t nchunks = busy ? 1 : (uint32_t)((len + chunk - 1) / chunk);
    uint32_t gen = c->gen + 1;
    c->gen = gen;
    c->src = remote;
    c->dst = (uint64_t)(uintptr_t)local;
    c->len = len;
    c->chunk = chunk;
    c->nchunks = nchunks;
    atomic_store_explicit(&c->done, 0, memory_order_relaxed);
    if (busy) {
        /* alone, but shown in the slot as a transfer in progress (with no
         * chunk left to claim), so the peer reading from us at the same
         * time does not ask us either */
        atomic_store_explicit(&c->next, ((uint64_t)gen << 32) | 1, memory_order_release);
        int err = rx_shm_cma_copy(shm->pid_of[world_peer], 0, local, remote, len);
        atomic_store_explicit(&c->done, 1, memory_order_release);
        return !err ? RX_OK : rx_shm_copy_failed(shm, world_peer, "process_vm_readv from", err);
    }
    atomic_store_explicit(&c->next, (uint64_t)gen << 32, memory_order_release);
    rx_am_hdr_t hdr = {.type = RX_SHM_AM_COOP, .cookie = gen};
    /* if our ring to the sender is full it simply gets no help */
    shm->tl.ops->am_send(&shm->tl, world_peer, &hdr, NULL, 0);

    int err = 0;
    int64_t k;
    while ((k = rx_coop_claim(c, gen, nchunks)) >= 0) {
        uint64_t off = (uint64_t)k * chunk;
        size_t n = len - off < chunk ? (size_t)(len - off) : chunk;
        /* after one failure the remaining chunks are only counted: the
         * message is lost either way, and one report is enough */
        if (!err)
            err = rx_shm_cma_copy(shm->pid_of[world_peer], 0, (char *)local + off, remote + off, n);
        atomic_fetch_add_explicit(&c->done, 1, memory_order_release);
    }
    /* the sender may still be copying the chunks it claimed; if it dies
     * holding one, that chunk is never counted */
    for (unsigned spins = 0;
         atomic_load_explicit(&c->done, memory_order_acquire) < nchunks; spins++) {
        if (spins > 64 && shm->block_waits)
            sched_yield();
        else
            rx_cpu_relax();
        if ((spins & 4095) == 4095 && rx_coop_peer_dead(shm->pid_of[world_peer])) {
            err = ESRCH;
            break;
        }
    }
    if (!err && atomic_load_explicit(&c->failed, memory_order_relaxed) == gen)
        err = EIO; /* a chunk the sender wrote for us did not arrive; it logged why */
    return err ? rx_shm_copy_failed(shm, world_peer, "cooperative read from", err) : RX_OK;
}
