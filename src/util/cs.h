/* SPDX-License-Identifier: MIT
 * The library's critical section under MPI_THREAD_MULTIPLE.
 *
 * Every MPI entry point (the generated wrappers, scripts/gen-mpi-cs.py) holds
 * it for the whole call when the program asked for MULTIPLE (rx_mt), so the
 * state below the binding (matching queues, requests, handle tables,
 * collective and window state, transports) sees one thread at a time, as it
 * does below MULTIPLE. A thread that waits gives it up between polls
 * (rx_cs_yield from the progress engine, rx_cs_drop/rx_cs_take around
 * sleeping), so a blocking call in one thread never stops the others, and
 * whichever thread polls moves every thread's messages.
 *
 * It is recursive (a user callback run inside a call - error handler,
 * attribute copy, reduction function - may call MPI again) and cheap when
 * uncontended: one compare-and-swap to enter, one store to leave. Below
 * MULTIPLE nothing of this runs: the wrappers test rx_mt first, set once at
 * initialisation and never again while the runtime is up. */
#ifndef RX_UTIL_CS_H
#define RX_UTIL_CS_H

#include <stdatomic.h>

extern int rx_mt; /* MPI_THREAD_MULTIPLE was granted */

typedef struct rx_cs {
    atomic_int held;         /* 0 free, 1 held */
    atomic_int waiters;      /* threads spinning in rx_cs_acquire */
    atomic_uint handoffs;    /* acquisitions by waiters so far: a yielding holder waits for one */
} rx_cs_t;

extern rx_cs_t rx_cs;
extern __thread int rx_cs_depth __attribute__((tls_model("initial-exec")));
/* Run once when the calling thread's outermost MPI call returns, then
 * cleared (the context-id reservations of src/mpi/comm_ctx.c). */
extern __thread void (*rx_cs_on_exit)(void) __attribute__((tls_model("initial-exec")));
void rx_cs_exit_slow(void);

void rx_cs_acquire_slow(void);

static inline __attribute__((always_inline)) void rx_cs_acquire(void)
{
    int expect = 0;
    /* uncontended: one atomic instruction. Only waiters count a handoff
     * (rx_cs_acquire_slow): a yielding holder waits for one of them, and a
     * thread that comes in fresh just then costs the yielder a short wait. */
    if (__builtin_expect(atomic_compare_exchange_strong_explicit(&rx_cs.held, &expect, 1,
                                                                 memory_order_acquire,
                                                                 memory_order_relaxed),
                         1))
        return;
    rx_cs_acquire_slow();
}

static inline void rx_cs_release(void) { atomic_store_explicit(&rx_cs.held, 0, memory_order_release); }

/* Entry and exit of an MPI call (recursive). */
static inline __attribute__((always_inline)) void rx_cs_enter(void)
{
    if (rx_cs_depth++ == 0)
        rx_cs_acquire();
}
static inline __attribute__((always_inline)) void rx_cs_exit(void)
{
    if (--rx_cs_depth == 0) {
        if (__builtin_expect(rx_cs_on_exit != 0, 0))
            rx_cs_exit_slow();
        rx_cs_release();
    }
}

/* Polls running inside a poll (a progress hook that waits). Under the
 * section only the outermost poll gives it up, since a hook may be walking a
 * list that another thread's call would change. Written by the holder. */
extern int rx_cs_poll_nest;

/* Let a waiting thread in, if any: called by a thread that holds the section
 * between two polls of a wait. */
void rx_cs_yield_slow(void);
static inline void rx_cs_yield(void)
{
    if (rx_mt && rx_cs_depth > 0 && rx_cs_poll_nest == 0 &&
        atomic_load_explicit(&rx_cs.waiters, memory_order_relaxed) > 0)
        rx_cs_yield_slow();
}

/* Give the section up entirely around a sleep of a wait, and take it back;
 * returns the depth to hand to rx_cs_take (0: this thread did not hold it,
 * or waits inside a hook and keeps it). */
static inline int rx_cs_drop(void)
{
    int d = rx_mt && rx_cs_poll_nest == 0 ? rx_cs_depth : 0;
    if (d > 0) {
        rx_cs_depth = 0;
        rx_cs_release();
    }
    return d;
}
static inline void rx_cs_take(int depth)
{
    if (depth > 0) {
        rx_cs_acquire();
        rx_cs_depth = depth;
    }
}

#endif
