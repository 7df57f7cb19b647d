/* SPDX-License-Identifier: MIT
 * The one progress engine: every transport and every upper-layer queue is
 * polled from here, whichever call is waiting. */
#define _GNU_SOURCE
#include "rt.h"
#include "util/cs.h"

#include <sched.h>
#include <time.h>

#define RX_HOOK_MAX 16 /* eight were taken once the MPI layer had its own request watchers */
/* Each hook may own a count of messages it holds for lack of ring space (one
 * per producer: a flag shared by the layers was cleared by one of them while
 * the other still had messages queued). */
static struct {
    rx_progress_hook_t fn;
    const int *queued;
} rx_hooks[RX_HOOK_MAX];
static int rx_nhooks;
int rx_progress_helped;

int rx_progress_hook_add_queue(rx_progress_hook_t hook, const int *queued)
{
    for (int i = 0; i < rx_nhooks; i++)
        if (rx_hooks[i].fn == hook)
            return 0;
    if (rx_nhooks == RX_HOOK_MAX)
        return -1;
    rx_hooks[rx_nhooks].fn = hook;
    rx_hooks[rx_nhooks++].queued = queued;
    return 0;
}

int rx_progress_hook_add(rx_progress_hook_t hook) { return rx_progress_hook_add_queue(hook, NULL); }

static int rx_progress_backlogged(void)
{
    for (int i = 0; i < rx_nhooks; i++)
        if (rx_hooks[i].queued && *rx_hooks[i].queued)
            return 1;
    return 0;
}

int rx_progress(void)
{
    int n = 0;
    rx_cs_yield(); /* between polls, not inside one (rx_cs_poll_nest) */
    rx_cs_poll_nest++;
    for (int i = 0; i < rx_rt.ntl; i++)
        n += rx_rt.tls[i]->ops->progress(rx_rt.tls[i]);
    for (int i = 0; i < rx_nhooks; i++)
        n += rx_hooks[i].fn();
    rx_cs_poll_nest--;
    return n;
}

/* Under MPI_THREAD_MULTIPLE a waiting thread gives the critical section up
 * while it yields or sleeps (never inside a hook's own wait), and only one
 * thread at a time sleeps on the doorbell, whose "sleeping" flag has one
 * writer; the others nap briefly, and whichever thread next holds the
 * section polls for all of them. */
static atomic_int rx_doorbell_taken;

static void rx_wait_yield(void)
{
    int d = rx_cs_drop();
    sched_yield();
    rx_cs_take(d);
}

int rx_progress_test(void)
{
    int n = rx_progress();
    if (n == 0 && rx_rt.wait_mode == RX_WAIT_BLOCK)
        rx_wait_yield();
    return n;
}

void rx_wait_idle_slow(rx_waiter_t *w)
{
    /* spin mode too yields once a wait has spun long (tens of microseconds):
     * on a dedicated core that costs one cheap system call per poll, and on
     * a shared one it lets the rank we wait for run */
    if (rx_rt.wait_mode != RX_WAIT_BLOCK || rx_progress_helped) {
        rx_wait_yield();
        return;
    }
    /* block mode: a few yields first (the peer may be about to answer), then
     * sleep until a sender rings our doorbell */
    if (w->idle < rx_rt.spin_count + rx_rt.yield_count) {
        rx_wait_yield();
        return;
    }
    /* a doorbell wakes for its own transport's messages only: with another
     * transport reaching peers too (wake_tl NULL), sleep in short slices */
    int backlog = rx_progress_backlogged();
    int doorbell = rx_rt.wake_tl != NULL;
    if (doorbell && rx_mt && atomic_exchange(&rx_doorbell_taken, 1))
        doorbell = 0; /* another thread sleeps on it */
    if (doorbell) {
        /* the transport drops the section once it has announced the sleep */
        rx_rt.wake_tl->ops->sleep(rx_rt.wake_tl, backlog ? 200 : 20000);
        if (rx_mt)
            atomic_store(&rx_doorbell_taken, 0);
    } else {
        struct timespec ts = {0, backlog || rx_rt.wake_tl ? 20000 : 200000};
        int d = rx_cs_drop();
        nanosleep(&ts, NULL);
        rx_cs_take(d);
    }
}
