/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "cs.h"

#include <sched.h>

int rx_mt;
int rx_cs_poll_nest;
rx_cs_t rx_cs;
__thread int rx_cs_depth __attribute__((tls_model("initial-exec")));
__thread void (*rx_cs_on_exit)(void) __attribute__((tls_model("initial-exec")));

void rx_cs_exit_slow(void)
{
    void (*fn)(void) = rx_cs_on_exit;
    rx_cs_on_exit = 0;
    fn();
}

static inline void rx_cs_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Spin a little (the holder's sections are short), then yield: ranks are
 * often oversubscribed, and with more threads than cores the holder may be
 * waiting for our CPU. */
void rx_cs_acquire_slow(void)
{
    atomic_fetch_add_explicit(&rx_cs.waiters, 1, memory_order_relaxed);
    for (unsigned spins = 0;; spins++) {
        if (atomic_load_explicit(&rx_cs.held, memory_order_relaxed) == 0) {
            int expect = 0;
            if (atomic_compare_exchange_weak_explicit(&rx_cs.held, &expect, 1,
                                                      memory_order_acquire, memory_order_relaxed))
                break;
        }
        if (spins < 64)
            rx_cs_pause();
        else
            sched_yield();
    }
    atomic_fetch_sub_explicit(&rx_cs.waiters, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&rx_cs.handoffs, 1, memory_order_relaxed);
}

/* Hand the section to a waiter: release, then wait until someone else has
 * taken it (or briefly, if the waiter went away) before competing again, or
 * the releasing thread, whose cache holds the line, would win every time. */
void rx_cs_yield_slow(void)
{
    unsigned seen = atomic_load_explicit(&rx_cs.handoffs, memory_order_relaxed);
    rx_cs_release();
    for (unsigned spins = 0; spins < 256; spins++) {
        if (atomic_load_explicit(&rx_cs.handoffs, memory_order_relaxed) != seen)
            break;
        if (spins < 32)
            rx_cs_pause();
        else
            sched_yield();
    }
    rx_cs_acquire();
}
