/* SPDX-License-Identifier: MIT
 * Barrier-synchronised workloads, phase by phase.
 *
 * Under barrier synchronisation no flow crosses a barrier: every phase starts on an empty fabric,
 * so a phase's duration, its flows and link loads do not depend on the phases before it (random
 * routing choices are salted by round and step, not by time; UGAL's link loads are those of the
 * phase). The phases are therefore simulated independently, each from time 0, by several
 * threads, and the completion time is the sum of the durations, added in phase order so that the
 * result does not depend on the number of threads. Phases are handed out in windows: the
 * per-phase figures of one window are merged in order before the next starts, so memory stays
 * independent of the number of phases.
 *
 * Identical phases are simulated once. With routing that depends only on the pair of nodes
 * (D-mod-k, ECMP, minimal, shortest paths: not Valiant or UGAL, whose choices are salted by
 * round or follow the load), a phase is a function of its transfers and local steps; phases with the same 128-bit
 * hash of every rank's steps reuse the figures of the first (a ring allreduce of p ranks has
 * 2(p-1) rounds but a handful of distinct ones). Their link bytes are added by routing the first
 * one's transfers again, once per distinct phase, times its repetitions. */
#include "sim_impl.h"
#include "util/log.h"
#include "util/status.h"
#include "util/timer.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RX_PHASE_WINDOW 1024u
#define RX_PHASE_MAXTHREADS 64

typedef struct rx_phase_fig {
    double dur, peak_rate, sat_rate;
    uint32_t sat_live;
} rx_phase_fig_t;

/* A distinct phase: its figures, what it adds to the sums, and how often it recurred. */
typedef struct rx_memo_ent {
    uint64_t h1, h2;
    uint32_t phase;  /* the first phase with these steps */
    int done;        /* 1: figures below are valid; 0: being simulated; -1: that failed */
    rx_phase_fig_t fig;
    double net_bytes;
    uint64_t flows, hits;
} rx_memo_ent_t;

typedef struct rx_memo {
    pthread_mutex_t lock;
    pthread_cond_t ready; /* an entry's simulation ended */
    rx_memo_ent_t *e;
    uint64_t n, cap; /* open addressing, cap a power of two */
} rx_memo_t;

struct rx_phase_run;

typedef struct rx_phase_worker {
    rx_sim_t s;
    rx_sim_result_t res; /* this worker's sums and maxima */
    struct rx_phase_run *run;
    pthread_t th;
    int rc, started;
} rx_phase_worker_t;

typedef struct rx_phase_run {
    const rx_workload_t *w;
    uint32_t base, count; /* the window: phases base .. base + count - 1 */
    rx_phase_fig_t fig[RX_PHASE_WINDOW];
    atomic_uint next;
    atomic_int failed;
    atomic_uint done;     /* phases finished, for the progress line */
    double t0, last_report;
    int progress;
    rx_memo_t *memo; /* NULL: every phase is simulated */
    atomic_ullong reused;
    atomic_int reported; /* a deadlock was logged */
} rx_phase_run_t;

static uint64_t rx_mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdULL;
    return h ^ (h >> 33);
}

/* Two independent hashes of every rank's steps in phase k. */
static int rx_phase_key(const rx_workload_t *w, uint32_t k, uint64_t *h1, uint64_t *h2)
{
    uint64_t a = 0x243f6a8885a308d3ULL, b = 0x13198a2e03707344ULL;
    for (uint32_t r = 0; r < w->nranks; r++) {
        const rx_step_t *st;
        uint32_t n = 0;
        int rc = w->round(w->ctx, r, k, &st, &n);
        if (rc == RX_ERR_NOTFOUND)
            n = UINT32_MAX; /* absent differs from an empty round */
        else if (rc)
            return rc;
        a = rx_mix(a, (uint64_t)r << 32 | n);
        b = rx_mix(b ^ 0x5bd1e995, (uint64_t)n << 32 | r);
        for (uint32_t j = 0; n != UINT32_MAX && j < n; j++) {
            uint64_t v = (uint64_t)st[j].op << 56 ^ (uint64_t)st[j].peer << 24 ^ st[j].bytes;
            a = rx_mix(a, v);
            b = rx_mix(b, v ^ st[j].bytes << 40 ^ st[j].peer);
        }
    }
    *h1 = a;
    *h2 = b;
    return RX_OK;
}

/* Finds the entry of (h1, h2), inserting it for phase k when absent (*fresh = 1). */
static rx_memo_ent_t *rx_memo_get(rx_memo_t *m, uint64_t h1, uint64_t h2, uint32_t k, int *fresh)
{
    *fresh = 0;
    if (2 * (m->n + 1) > m->cap) {
        uint64_t cap = m->cap ? 2 * m->cap : 1024;
        rx_memo_ent_t *e = calloc(cap, sizeof *e);
        if (!e)
            return NULL;
        for (uint64_t i = 0; i < m->cap; i++) {
            if (!m->e[i].h1 && !m->e[i].h2)
                continue;
            uint64_t j = m->e[i].h1 & (cap - 1);
            while (e[j].h1 || e[j].h2)
                j = (j + 1) & (cap - 1);
            e[j] = m->e[i];
        }
        free(m->e);
        m->e = e;
        m->cap = cap;
    }
    if (!h1 && !h2)
        h1 = 1; /* (0, 0) marks a free slot */
    uint64_t j = h1 & (m->cap - 1);
    while (m->e[j].h1 || m->e[j].h2) {
        if (m->e[j].h1 == h1 && m->e[j].h2 == h2)
            return &m->e[j];
        j = (j + 1) & (m->cap - 1);
    }
    m->e[j] = (rx_memo_ent_t){.h1 = h1, .h2 = h2, .phase = k};
    m->n++;
    *fresh = 1;
    return &m->e[j];
}

/* Simulates phase k from time 0 on the worker's (empty) fabric. */
static int rx_phase_one(rx_phase_worker_t *wk, uint32_t k, rx_phase_fig_t *fig)
{
    rx_sim_t *s = &wk->s;
    /* a canonical start: flow ids from 0 again (all flows of the worker's last phase are done), so
     * that list orders, and with them the rounding of the rates, depend on this phase alone and
     * not on which phases this thread ran before */
    s->nf = 0;
    s->ffree = UINT32_MAX;
    s->nev = 0;
    rx_act_clear(s);
    s->now = 0;
    s->nfinished = 0;
    s->barrier_count = 0;
    s->phase_end = -1;
    s->agg_rate = s->peak_rate = s->sat_rate = 0;
    s->sat_live = 0;
    for (uint32_t i = 0; i < s->w->nranks; i++) {
        rx_rank_t *r = &s->ranks[i];
        r->round = k;
        r->finished = 0;
        r->pending = 0;
        r->compute = 0;
        r->nposts = 0;
    }
    int rc = RX_OK;
    for (uint32_t i = 0; i < s->w->nranks && !rc; i++)
        rc = rx_rank_enter(s, i);
    if (!rc)
        rc = rx_sim_loop(s);
    /* a deadlock is reported once, by the first thread that finds one */
    if (!rc && s->phase_end < 0 && s->nfinished < s->w->nranks)
        rc = atomic_exchange(&wk->run->reported, 1) ? RX_ERR_INVAL : rx_sim_stuck(s, 1);
    fig->dur = s->phase_end > 0 ? s->phase_end : 0;
    fig->peak_rate = s->peak_rate;
    fig->sat_rate = s->sat_rate;
    fig->sat_live = s->sat_live;
    return rc;
}

/* Phase k: from the memo when an identical phase was simulated, else simulated (and recorded).
 * A thread that meets a phase another thread is simulating waits for its figures rather than
 * simulating it too, so which phases are simulated, and the counts reported, do not depend on
 * how the threads were scheduled. */
static int rx_phase_take(rx_phase_worker_t *wk, uint32_t k, rx_phase_fig_t *fig)
{
    rx_phase_run_t *run = wk->run;
    if (!run->memo)
        return rx_phase_one(wk, k, fig);
    uint64_t h1, h2;
    int fresh, rc = rx_phase_key(run->w, k, &h1, &h2);
    if (rc)
        return rc;
    rx_memo_t *m = run->memo;
    pthread_mutex_lock(&m->lock);
    rx_memo_ent_t *e = rx_memo_get(m, h1, h2, k, &fresh);
    while (e && !fresh && !e->done) {
        pthread_cond_wait(&m->ready, &m->lock);
        e = rx_memo_get(m, h1, h2, k, &fresh); /* the table may have moved */
    }
    if (e && e->done > 0) {
        *fig = e->fig;
        e->hits++;
        pthread_mutex_unlock(&m->lock);
        atomic_fetch_add(&run->reused, 1);
        return RX_OK;
    }
    pthread_mutex_unlock(&m->lock);
    if (!e)
        return RX_ERR_NOMEM;
    if (!fresh) /* its first simulation failed: that error is reported; this phase on its own */
        return rx_phase_one(wk, k, fig);
    double nb = wk->res.net_bytes;
    uint64_t nf = wk->res.flows;
    rc = rx_phase_one(wk, k, fig);
    pthread_mutex_lock(&m->lock);
    e = rx_memo_get(m, h1, h2, k, &fresh);
    if (e) {
        e->fig = *fig;
        e->net_bytes = wk->res.net_bytes - nb;
        e->flows = wk->res.flows - nf;
        e->done = rc ? -1 : 1;
    }
    pthread_cond_broadcast(&m->ready);
    pthread_mutex_unlock(&m->lock);
    return rc ? rc : e ? RX_OK : RX_ERR_NOMEM;
}

/* What the repetitions of memoised phases add: bytes and flows, and the link bytes of routing
 * their transfers again (the routes depend on the pair only). */
static int rx_memo_apply(const rx_memo_t *m, rx_topo_t *t, const rx_workload_t *w, const rx_sim_t *s,
                         rx_sim_result_t *res)
{
    for (uint64_t i = 0; i < m->cap; i++) {
        const rx_memo_ent_t *e = &m->e[i];
        if (e->done <= 0 || !e->hits)
            continue;
        res->net_bytes += e->net_bytes * (double)e->hits;
        res->flows += e->flows * e->hits;
        for (uint32_t r = 0; r < w->nranks; r++) {
            const rx_step_t *st;
            uint32_t n;
            int rc = w->round(w->ctx, r, e->phase, &st, &n);
            if (rc == RX_ERR_NOTFOUND)
                continue;
            if (rc)
                return rc;
            for (uint32_t j = 0; j < n; j++) {
                uint32_t ns = s->rank_node[r], nd = s->rank_node[st[j].peer];
                if (st[j].op != RX_STEP_SEND || !st[j].bytes || ns == nd)
                    continue;
                uint32_t path[RX_ROUTE_MAXHOPS];
                int nh;
                if ((rc = rx_route(&s->router, ns, nd, (uint64_t)e->phase << 24 | j, path, &nh)))
                    return rc;
                for (int h = 0; h < nh; h++)
                    res->link_bytes[path[h]] += (double)st[j].bytes * (double)e->hits;
            }
        }
    }
    (void)t;
    return RX_OK;
}

static void rx_phase_report(rx_phase_run_t *run)
{
    double now = rx_time_now();
    if (!run->progress || now - run->last_report < 10)
        return;
    run->last_report = now;
    uint32_t done = atomic_load(&run->done);
    fprintf(stderr, "rdmx-topo: phase %u of %u (%.0f%%), %.0f s\n", done, run->w->nrounds,
            100.0 * done / run->w->nrounds, now - run->t0);
}

static void *rx_phase_thread(void *arg)
{
    rx_phase_worker_t *wk = arg;
    rx_phase_run_t *run = wk->run;
    for (;;) {
        uint32_t i = atomic_fetch_add(&run->next, 1);
        if (i >= run->count || atomic_load(&run->failed))
            break;
        int rc = rx_phase_take(wk, run->base + i, &run->fig[i]);
        if (rc) {
            wk->rc = rc;
            atomic_store(&run->failed, 1);
            break;
        }
        atomic_fetch_add(&run->done, 1);
    }
    return NULL;
}

static int rx_phase_threads(const rx_sim_opts_t *o, const rx_workload_t *w)
{
    int n = o->threads;
    if (n <= 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        n = cpus > 0 ? (int)cpus : 1;
    }
    if (n > RX_PHASE_MAXTHREADS)
        n = RX_PHASE_MAXTHREADS;
    if (!w->concurrent || w->nrounds < 2)
        n = 1;
    if ((uint32_t)n > w->nrounds)
        n = (int)w->nrounds;
    return n;
}

int rx_sim_run_phases(rx_topo_t *t, const rx_workload_t *w, const rx_sim_opts_t *o, rx_sim_result_t *res)
{
    double t0 = rx_time_now();
    int nth = rx_phase_threads(o, w);
    rx_phase_worker_t *wk = calloc((size_t)nth, sizeof *wk);
    rx_phase_run_t *run = calloc(1, sizeof *run);
    int rc = wk && run ? RX_OK : RX_ERR_NOMEM;
    rx_sim_opts_t po = *o;
    for (int i = 0; i < nth && !rc; i++) {
        wk[i].run = run;
        rc = rx_sim_setup(&wk[i].s, t, w, &po, &wk[i].res);
        wk[i].s.one_phase = 1;
    }
    memset(res, 0, sizeof *res);
    double peak_rate = 0, sat_rate = 0;
    uint32_t sat_live = 0;
    rx_memo_t memo = {.lock = PTHREAD_MUTEX_INITIALIZER, .ready = PTHREAD_COND_INITIALIZER};
    if (!rc) {
        run->w = w;
        run->t0 = run->last_report = t0;
        run->progress = o->progress;
        if (rx_route_pair_only(o->algo) && !o->no_memo && w->nrounds > 1)
            run->memo = &memo;
    }
    for (uint32_t base = 0; !rc && base < w->nrounds; base += RX_PHASE_WINDOW) {
        run->base = base;
        run->count = w->nrounds - base < RX_PHASE_WINDOW ? w->nrounds - base : RX_PHASE_WINDOW;
        atomic_store(&run->next, 0);
        for (int i = 1; i < nth; i++)
            wk[i].started = !pthread_create(&wk[i].th, NULL, rx_phase_thread, &wk[i]);
        /* the calling thread is worker 0 and reports progress between its phases */
        for (;;) {
            uint32_t i = atomic_fetch_add(&run->next, 1);
            if (i >= run->count || atomic_load(&run->failed))
                break;
            if ((wk[0].rc = rx_phase_take(&wk[0], base + i, &run->fig[i]))) {
                atomic_store(&run->failed, 1);
                break;
            }
            atomic_fetch_add(&run->done, 1);
            rx_phase_report(run);
        }
        for (int i = 1; i < nth; i++)
            if (wk[i].started) {
                pthread_join(wk[i].th, NULL);
                wk[i].started = 0;
            }
        for (int i = 0; i < nth && !rc; i++)
            rc = wk[i].rc;

        /* in phase order: the sums and the first phase with the most live flows do not depend on
         * which thread ran what */
        for (uint32_t i = 0; !rc && i < run->count; i++) {
            const rx_phase_fig_t *f = &run->fig[i];
            res->time += f->dur;
            if (f->peak_rate > peak_rate)
                peak_rate = f->peak_rate;
            if (f->sat_live > sat_live) {
                sat_live = f->sat_live;
                sat_rate = f->sat_rate;
            }
        }
    }
    if (!rc) {
        res->nlinks = t->nlinks;
        res->link_bytes = calloc(t->nlinks, sizeof *res->link_bytes);
        res->link_maxflows = calloc(t->nlinks, sizeof *res->link_maxflows);
        if (!res->link_bytes || !res->link_maxflows)
            rc = RX_ERR_NOMEM;
    }
    double inj_sum = 0;
    if (!rc) {
        for (int i = 0; i < nth; i++) {
            rx_sim_flush_links(&wk[i].s);
            const rx_sim_result_t *r = &wk[i].res;
            res->net_bytes += r->net_bytes;
            res->flows += r->flows;
            res->solves += r->solves;
            res->events += r->events;
            if (r->peak_live > res->peak_live)
                res->peak_live = r->peak_live;
            for (uint32_t l = 0; l < t->nlinks; l++) {
                res->link_bytes[l] += r->link_bytes[l];
                if (r->link_maxflows[l] > res->link_maxflows[l])
                    res->link_maxflows[l] = r->link_maxflows[l];
            }
        }
        for (uint32_t n = 0; n < t->nnodes; n++) {
            int inj = 0;
            for (int i = 0; i < nth; i++)
                inj |= wk[i].s.injecting[n];
            if (inj) {
                res->senders++;
                inj_sum += t->l[rx_topo_inject(t, n)].bw;
            }
        }
        if (run->memo)
            rc = rx_memo_apply(run->memo, t, w, &wk[0].s, res);
        res->phases_reused = atomic_load(&run->reused);
        rx_sim_finish(t, res, inj_sum, peak_rate, sat_rate);
    }
    free(memo.e);
    for (int i = 0; wk && i < nth; i++) {
        rx_sim_cleanup(&wk[i].s);
        rx_sim_result_free(&wk[i].res);
    }
    free(wk);
    free(run);
    res->cpu_seconds = rx_time_now() - t0;
    if (rc)
        rx_sim_result_free(res);
    return rc;
}
