/* SPDX-License-Identifier: MIT
 * Sleeping and waking on a futex in the shared segment, for oversubscribed
 * nodes where spinning would steal the CPU from the rank we wait for.
 * Protocol (an eventcount): the sleeper reads the doorbell, announces
 * sleeping, re-checks its rings, then waits while the doorbell is unchanged;
 * a sender publishes its record, issues a full fence, and rings the doorbell
 * only if the receiver announced sleeping. The fence pairs with the sleeper's
 * so at least one side sees the other. */
#include "shm.h"
#include "util/cs.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

void rx_shm_doorbell_ring(rx_shm_rank_ctl_t *peer)
{
    atomic_fetch_add_explicit(&peer->doorbell, 1, memory_order_release);
    syscall(SYS_futex, &peer->doorbell, FUTEX_WAKE, 1, NULL, NULL, 0);
}

static int rx_shm_pending(rx_shm_t *shm)
{
    for (int i = 0; i < shm->nrx; i++) {
        rx_shm_rx_t *r = &shm->rx[i];
        rx_shm_rec_t *rec = (rx_shm_rec_t *)(r->data + (r->pos & (shm->ring_size - 1)));
        if (atomic_load_explicit(&rec->seq, memory_order_acquire) == r->seq)
            return 1;
    }
    return 0;
}

void rx_shm_doorbell_sleep(rx_shm_t *shm, int timeout_us)
{
    if (!shm->ctl)
        return;
    rx_shm_rank_ctl_t *me = &shm->ctl[shm->local_rank];
    uint32_t v = atomic_load_explicit(&me->doorbell, memory_order_acquire);
    atomic_store_explicit(&me->sleeping, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    if (!rx_shm_pending(shm)) {
        struct timespec ts = {timeout_us / 1000000, (long)(timeout_us % 1000000) * 1000};
        /* under MPI_THREAD_MULTIPLE the other threads go on meanwhile; what
         * they consume is what would have woken us */
        int d = rx_cs_drop();
        syscall(SYS_futex, &me->doorbell, FUTEX_WAIT, v, &ts, NULL, 0);
        rx_cs_take(d);
    }
    atomic_store_explicit(&me->sleeping, 0, memory_order_relaxed);
}
