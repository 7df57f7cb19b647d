/* SPDX-License-Identifier: MIT
 * The process-wide runtime: job layout, transports per peer, progress and
 * waiting. Everything above (p2p, coll, mpi) reaches transports only through
 * rx_rt.peer_tl[world_rank]. */
#ifndef RX_CORE_RT_H
#define RX_CORE_RT_H

#include "tl/tl.h"

#include <pthread.h>

enum rx_wait_mode { RX_WAIT_SPIN, RX_WAIT_YIELD, RX_WAIT_BLOCK };

#define RX_TL_MAX 4
/* Processes a rank may come to talk to after start-up (MPI_Comm_spawn,
 * _connect / _accept, _join: src/mpi/dynamic.c), beyond the job's own ranks */
#define RX_DYN_PEERS_MAX 1024

typedef struct rx_rt {
    int initialized, finalized;
    int rank, size;
    /* Peer indices ("world ranks" below): 0..size-1 the job's ranks, then
     * processes connected at run time, nprocs in all; every table indexed
     * by them (peer_tl, node_of, the transports' reaches) holds peers_max */
    int nprocs, peers_max;
    int local_rank, local_size;
    int *local_ranks;        /* world ranks on this node, by local rank */
    int *node_of;            /* node index of each world rank */
    int nnodes;
    int appnum;
    char jobid[64];
    char hostname[256];
    rx_tl_t *tls[RX_TL_MAX]; /* every active transport, polled by progress */
    int ntl;
    rx_tl_t *wake_tl;        /* the transport waits sleep on (RX_TL_CAP_WAKE), or NULL */
    rx_tl_t **peer_tl;       /* transport reaching each world rank */
    int wait_mode;
    int oversubscribed;      /* more ranks on this node than CPUs: the same on every local rank */
    int spin_count;
    int yield_count;
    int thread_level;
    pthread_t main_thread;
    int singleton;
} rx_rt_t;

extern rx_rt_t rx_rt;

/* Start the runtime: bootstrap, node layout, transports; handler receives
 * every active message of every transport. */
int rx_init(rx_am_handler_t handler, void *arg);
/* Quiesce and release everything; collective over the job. */
int rx_finalize(void);

/* Poll every transport and the protocol queues once; returns events handled. */
int rx_progress(void);
/* rx_progress for the calls that test and return (MPI_Test*, MPI_Iprobe,
 * shmem_test*): when ranks outnumber cores (block mode) a poll that handled
 * nothing also yields the CPU, as Open MPI's progress does when it yields
 * when idle (its default when oversubscribed). Programs poll with tests in a
 * loop; without the yield a polling rank keeps its core for a whole
 * scheduler slice while the one it waits for cannot run. */
int rx_progress_test(void);
/* Upper layers register their own queues (pending sends, collective
 * schedules) to be driven by rx_progress. */
typedef int (*rx_progress_hook_t)(void);
int rx_progress_hook_add(rx_progress_hook_t hook);
/* The same for a hook that sends messages it queued for lack of ring space:
 * *queued is the number it holds, written by that layer alone. While any
 * hook's count is nonzero, waits sleep in short slices since no doorbell
 * announces freed space. Returns 0, or -1 when the table is full. */
int rx_progress_hook_add_queue(rx_progress_hook_t hook, const int *queued);
/* nonblocking direct collectives in flight (coll/offload.c): waits yield
 * instead of sleeping, since their peers and the offload thread signal
 * through the node-shared region, which rings no doorbell */
extern int rx_progress_helped;

/* Waiting: call rx_wait_idle() in a loop around rx_progress() whenever a poll
 * found nothing to do; it spins, then yields or sleeps per RDMX_WAIT. */
typedef struct rx_waiter {
    int idle;
} rx_waiter_t;

static inline void rx_waiter_init(rx_waiter_t *w) { w->idle = 0; }
void rx_wait_idle_slow(rx_waiter_t *w);
static inline void rx_wait_idle(rx_waiter_t *w)
{
    if (++w->idle < rx_rt.spin_count) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        __asm__ __volatile__("yield");
#endif
        return;
    }
    rx_wait_idle_slow(w);
}

/* Spin/yield/block until cond holds, driving progress. cond is evaluated
 * once per test and the loop ends on the first true one: a condition may
 * have an effect (MPI_Mprobe's takes the message off the queue), and a
 * second test after a true one would take another message and lose the
 * first - under MPI_THREAD_MULTIPLE, where another thread delivers while
 * this one yields inside rx_progress, that happened. */
#define RX_WAIT_UNTIL(cond)                          \
    do {                                             \
        rx_waiter_t rx_w_;                           \
        rx_waiter_init(&rx_w_);                      \
        while (!(cond)) {                            \
            if (rx_progress() > 0) {                 \
                rx_w_.idle = 0;                      \
                continue;                            \
            }                                        \
            if (cond)                                \
                break;                               \
            rx_wait_idle(&rx_w_);                    \
        }                                            \
    } while (0)

#endif
