/* SPDX-License-Identifier: MIT
 * Nonblocking direct allreduces of node-local communicators (the protocol
 * of coll_shm_direct_red.c, as a state machine), stepped either by this
 * rank's progress hook, during its MPI calls, or by the offload thread.
 *
 * Offload thread (RDMX_COLL_OFFLOAD): one thread per rank, on cores the
 * application does not compute on, runs the large ones so they progress
 * while the rank computes without calling MPI. On a node where every core
 * computes, nothing is idle to do that work, which is why it is off by
 * default. The thread touches only the communicator's shared region, the
 * user's buffers and cross-memory reads; it never enters the progress
 * engine, so the rest of the library stays single-threaded. Requests stay
 * with the owning thread: its hook completes them once the thread has
 * flagged the operation done.
 *
 * Both step every operation in hand as far as it goes without waiting, one
 * at a time per communicator (in call order) but several communicators at
 * once: ranks may start nonblocking collectives of different communicators
 * in different orders.
 *
 * Whether a call takes the direct protocol is node_select.c's choice,
 * which every rank makes alike; which of the two steps it is each rank's
 * own business. Each operation takes its sequence number when started;
 * any other node-path collective on that communicator first waits for
 * those in flight (rx_shm_drain), since they share the sequence. */
#define _GNU_SOURCE
#include "offload.h"
#include "op/opobj.h"
#include "util/config.h"
#include "util/log.h"
#include "util/status.h"

#include <pthread.h>
#include <signal.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

__thread int rx_coll_in_offload;

typedef struct rx_off_item {
    struct rx_off_item *next;  /* thread's queue, then its list of operations in hand */
    struct rx_off_item *inext; /* owner's list of queued operations */
    rx_dir_op_t dir;           /* stepped by the thread, or by the hook when !on_thread */
    rx_dtype_t *dt;
    rx_req_t *req;
    int on_thread;
    int done; /* set by the thread (release), read by the owner (acquire) */
} rx_off_item_t;

static struct {
    int state; /* 0 not tried, 1 running, -1 unavailable */
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    rx_off_item_t *head, *tail;
    int fresh; /* head is non-empty: read by the thread without the lock */
    int quit;
    cpu_set_t cpus;
    int bind;
} rx_off = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

static rx_off_item_t *rx_off_inflight, **rx_off_itail = &rx_off_inflight; /* owner thread only, in call order */

/* Whether it is the oldest of its communicator in the list from q (linked
 * by next on the thread, by inext on the owner): earlier ones hold lower
 * sequence numbers and must finish first. */
static int rx_off_first(const rx_off_item_t *it, const rx_off_item_t *q, int by_next)
{
    for (; q != it; q = by_next ? q->next : q->inext)
        if (q->dir.st == it->dir.st)
            return 0;
    return 1;
}

/* "1", "6-7", "0,2-3" into set; 0 on a malformed list */
static int rx_off_cpulist(const char *s, cpu_set_t *set)
{
    CPU_ZERO(set);
    int any = 0;
    while (*s) {
        char *e;
        long a = strtol(s, &e, 10), b = a;
        if (e == s || a < 0)
            return 0;
        s = e;
        if (*s == '-') {
            b = strtol(s + 1, &e, 10);
            if (e == s + 1 || b < a)
                return 0;
            s = e;
        }
        for (long i = a; i <= b && i < CPU_SETSIZE; i++) {
            CPU_SET((int)i, set);
            any = 1;
        }
        if (*s == ',')
            s++;
        else if (*s)
            return 0;
    }
    return any;
}

/* The thread's loop: take new operations, step those in hand (the first
 * of each communicator), spin briefly and yield when nothing moved, sleep
 * when nothing is left. */
static void *rx_off_main(void *arg)
{
    (void)arg;
    rx_coll_in_offload = 1;
    if (rx_off.bind && pthread_setaffinity_np(pthread_self(), sizeof rx_off.cpus, &rx_off.cpus))
        rx_log_warn("RDMX_COLL_OFFLOAD: cannot bind the offload thread to its CPUs; it runs unbound");
    rx_off_item_t *hand = NULL, **tail = &hand;
    int idle = 0;
    for (;;) {
        if (!hand || __atomic_load_n(&rx_off.fresh, __ATOMIC_ACQUIRE)) {
            pthread_mutex_lock(&rx_off.mu);
            while (!rx_off.head && !hand && !rx_off.quit)
                pthread_cond_wait(&rx_off.cv, &rx_off.mu);
            if (!rx_off.head && !hand) {
                pthread_mutex_unlock(&rx_off.mu);
                rx_shm_direct_scratch_free();
                return NULL;
            }
            *tail = rx_off.head; /* in queue order, after those in hand */
            while (*tail)
                tail = &(*tail)->next;
            rx_off.head = rx_off.tail = NULL;
            __atomic_store_n(&rx_off.fresh, 0, __ATOMIC_RELAXED);
            pthread_mutex_unlock(&rx_off.mu);
        }
        int moved = 0;
        for (rx_off_item_t **pp = &hand; *pp;) {
            rx_off_item_t *it = *pp;
            int phase = it->dir.phase;
            if (rx_off_first(it, hand, 1) && rx_dir_op_step(&it->dir)) {
                *pp = it->next;
                if (tail == &it->next)
                    tail = pp;
                __atomic_store_n(&it->done, 1, __ATOMIC_RELEASE);
                moved = 1;
                continue;
            }
            moved |= it->dir.phase != phase;
            pp = &it->next;
        }
        if (moved) {
            idle = 0;
        } else if (++idle > 4096) {
            /* peers have not started theirs yet (they compute): poll gently */
            struct timespec ts = {0, 20000};
            nanosleep(&ts, NULL);
        } else if (idle > rx_rt.spin_count) {
            sched_yield();
        }
    }
}

int rx_coll_offload_vote(void)
{
    if (rx_off.state)
        return rx_off.state > 0;
    rx_off.state = -1;
    const char *v = rx_config()->COLL_OFFLOAD;
    if (!v || !*v || !strcmp(v, "off"))
        return 0;
    if (!strcmp(v, "auto")) {
        /* rdmx-run names the cores it left free when it bound the ranks */
        const char *spare = getenv("RDMX_SPARE_CPUS");
        if (!spare || !*spare)
            return 0;
        if (!rx_off_cpulist(spare, &rx_off.cpus)) {
            rx_log_warn("RDMX_SPARE_CPUS=%s: not a CPU list; no offload thread", spare);
            return 0;
        }
        rx_off.bind = 1;
    } else if (!strcmp(v, "on")) {
        rx_off.bind = 0;
    } else if (rx_off_cpulist(v, &rx_off.cpus)) {
        rx_off.bind = 1;
    } else {
        rx_log_warn("RDMX_COLL_OFFLOAD=%s: expected off, auto, on or a CPU list; no offload thread",
                    v);
        return 0;
    }
    /* the application's signal handlers stay on its own threads */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&rx_off.thread, NULL, rx_off_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        rx_log_warn("RDMX_COLL_OFFLOAD: cannot start the offload thread; communicators run without it");
        return 0;
    }
    rx_off.state = 1;
    return 1;
}

/* The owning thread's hook: steps the operations it runs itself (the
 * first of each communicator, as the thread does) and completes those
 * finished, by it or by the thread. */
static int rx_off_hook(void)
{
    int n = 0;
    rx_off_item_t **pp = &rx_off_inflight;
    while (*pp) {
        rx_off_item_t *it = *pp;
        /* done is the thread's to write only for its own items; the atomic
         * load keeps the compiler from merging the two reads into one that
         * also covers the thread's items (a race for ThreadSanitizer) */
        if (!it->on_thread && !__atomic_load_n(&it->done, __ATOMIC_RELAXED)) {
            int phase = it->dir.phase;
            if (rx_off_first(it, rx_off_inflight, 0) && rx_dir_op_step(&it->dir))
                it->done = 1;
            n += it->dir.phase != phase;
        }
        if (!__atomic_load_n(&it->done, __ATOMIC_ACQUIRE)) {
            pp = &it->inext;
            continue;
        }
        *pp = it->inext;
        if (rx_off_itail == &it->inext)
            rx_off_itail = pp;
        it->dir.st->offload_pending--;
        rx_progress_helped--;
        rx_req_t *r = it->req;
        if (it->dir.rc != RX_OK)
            rx_req_fail(r, RX_ERR_INTERN);
        rx_dtype_unref(it->dt);
        free(it);
        rx_req_complete(r); /* lets go of the communicator */
        n++;
    }
    return n;
}

int rx_coll_offload_start(rx_shm_state_t *st, const void *sbuf, void *rbuf, size_t count,
                          const rx_dtype_t *dt, const rx_opobj_t *op, int thread, rx_req_t **out)
{
    rx_comm_t *c = st->c;
    if (st->offload_pending)
        thread = st->offload_where; /* one at a time per communicator: after the earlier ones */
    rx_req_t *r = rx_req_alloc(RX_REQ_COLL);
    rx_off_item_t *it = calloc(1, sizeof *it);
    if (!r || !it || rx_progress_hook_add(rx_off_hook) != 0) {
        /* the peers run it: run it here instead, so they are not left waiting */
        if (r)
            rx_req_release(r);
        free(it);
        int rc = rx_dir_run_on(st, sbuf, rbuf, count, dt, op, -1);
        return rc != RX_OK ? rc : RX_ERR_NOMEM; /* no request to return */
    }
    rx_dir_op_init(&it->dir, st, ++st->seq, sbuf, rbuf, count, dt, op, -1);
    it->dt = (rx_dtype_t *)dt;
    rx_dtype_ref(it->dt); /* the application may free the type before completion */
    it->req = r;
    it->on_thread = thread;
    rx_req_hold_comm(r, c);
    st->offload_pending++;
    st->offload_where = thread;
    *rx_off_itail = it;
    rx_off_itail = &it->inext;
    *out = r;
    rx_progress_helped++; /* peers flag their steps in the region, which rings no doorbell */
    if (!thread) {
        rx_off_hook(); /* the first steps now, so peers can start */
        return RX_OK;
    }
    pthread_mutex_lock(&rx_off.mu);
    if (rx_off.tail)
        rx_off.tail->next = it;
    else
        rx_off.head = it;
    rx_off.tail = it;
    __atomic_store_n(&rx_off.fresh, 1, __ATOMIC_RELEASE);
    pthread_cond_signal(&rx_off.cv);
    pthread_mutex_unlock(&rx_off.mu);
    return RX_OK;
}

void rx_coll_offload_fini(void)
{
    while (rx_off_inflight) {
        if (!rx_progress())
            sched_yield();
    }
    if (rx_off.state <= 0)
        return;
    pthread_mutex_lock(&rx_off.mu);
    rx_off.quit = 1;
    pthread_cond_signal(&rx_off.cv);
    pthread_mutex_unlock(&rx_off.mu);
    pthread_join(rx_off.thread, NULL);
    rx_off.state = 0;
    rx_off.quit = 0;
}
