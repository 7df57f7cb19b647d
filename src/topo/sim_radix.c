/* SPDX-License-Identifier: MIT
 * Radix event queue of contention-free runs (sim_impl.h): times are non-negative doubles, whose
 * bits order as integers; every event pushed is at or after the instant being handled, so keys
 * only grow past rq_last, the key last taken, except events pushed at a time before rq_last
 * (within the horizon of the instant being or just handled): they take rq_last as key (bucket 0)
 * and keep their time, and every event of bucket 0 belongs to the next instant handled, which
 * starts at the earliest of them. A push is an append; an event moves down at most 64 times. */
#include "sim_impl.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

static uint64_t rx_rq_key(double t)
{
    uint64_t k;
    memcpy(&k, &t, sizeof k);
    return k;
}

static int rx_rq_bucket(uint64_t key, uint64_t last)
{
    return key == last ? 0 : 64 - __builtin_clzll(key ^ last);
}

/* Room for n events in bucket q. */
static int rx_rq_reserve(struct rx_ev_bucket *q, uint32_t n)
{
    if (n <= q->cap)
        return RX_OK;
    uint32_t cap = q->cap ? q->cap : 64;
    while (cap < n)
        cap *= 2;
    rx_event_t *x = realloc(q->e, cap * sizeof *x);
    if (!x)
        return RX_ERR_NOMEM;
    q->e = x;
    q->cap = cap;
    return RX_OK;
}

static int rx_rq_append(rx_sim_t *s, int b, const rx_event_t *e)
{
    struct rx_ev_bucket *q = &s->rq[b];
    int rc = rx_rq_reserve(q, q->n + 1);
    if (!rc)
        q->e[q->n++] = *e;
    return rc;
}

int rx_rq_push(rx_sim_t *s, const rx_event_t *e)
{
    uint64_t k = rx_rq_key(e->t);
    int rc = rx_rq_append(s, k <= s->rq_last ? 0 : rx_rq_bucket(k, s->rq_last), e);
    if (!rc)
        s->nev++;
    return rc;
}

/* The lowest non-empty bucket above 0 (there is one: bucket 0 is empty and nev > 0), and its
 * smallest key. */
static int rx_rq_lowest(const rx_sim_t *s, uint64_t *min)
{
    int b = 1;
    while (!s->rq[b].n)
        b++;
    const struct rx_ev_bucket *q = &s->rq[b];
    uint64_t m = UINT64_MAX;
    for (uint32_t i = 0; i < q->n; i++) {
        uint64_t k = rx_rq_key(q->e[i].t); /* above rq_last: its own time */
        if (k < m)
            m = k;
    }
    *min = m;
    return b;
}

/* Bucket 0 empty: rq_last moves to the smallest key, and bucket b (which holds it) spreads over
 * the buckets below it; room is made first, so that a failure leaves the queue as it was. */
static int rx_rq_refill(rx_sim_t *s, int b, uint64_t min)
{
    struct rx_ev_bucket *q = &s->rq[b];
    uint32_t cnt[65] = {0};
    for (uint32_t i = 0; i < q->n; i++)
        cnt[rx_rq_bucket(rx_rq_key(q->e[i].t), min)]++;
    for (int d = 0; d < b; d++) {
        int rc = rx_rq_reserve(&s->rq[d], s->rq[d].n + cnt[d]);
        if (rc)
            return rc;
    }
    s->rq_last = min;
    for (uint32_t i = 0; i < q->n; i++) {
        struct rx_ev_bucket *d = &s->rq[rx_rq_bucket(rx_rq_key(q->e[i].t), min)];
        d->e[d->n++] = q->e[i];
    }
    q->n = 0;
    return RX_OK;
}

static rx_event_t rx_rq_take(rx_sim_t *s, uint32_t i)
{
    struct rx_ev_bucket *q = &s->rq[0];
    rx_event_t e = q->e[i];
    q->e[i] = q->e[--q->n];
    s->nev--;
    return e;
}

int rx_rq_pop_first(rx_sim_t *s, rx_event_t *e)
{
    while (!s->rq[0].n) {
        uint64_t min;
        int rc, b = rx_rq_lowest(s, &min);
        if ((rc = rx_rq_refill(s, b, min)))
            return rc;
    }
    /* bucket 0: events at rq_last and those pushed below it; the earliest is the instant */
    const struct rx_ev_bucket *q = &s->rq[0];
    uint32_t best = 0;
    for (uint32_t i = 1; i < q->n; i++)
        if (q->e[i].t < q->e[best].t)
            best = i;
    *e = rx_rq_take(s, best);
    return RX_OK;
}

/* 1 with an event not later than horizon in *e, 0 when there is none, or an error. */
int rx_rq_pop_until(rx_sim_t *s, double horizon, rx_event_t *e)
{
    if (!s->nev)
        return 0;
    if (!s->rq[0].n) {
        uint64_t min;
        int rc, b = rx_rq_lowest(s, &min);
        double t;
        memcpy(&t, &min, sizeof t);
        if (t > horizon)
            return 0;
        if ((rc = rx_rq_refill(s, b, min)))
            return rc;
    }
    *e = rx_rq_take(s, s->rq[0].n - 1);
    return 1;
}

void rx_rq_free(rx_sim_t *s)
{
    for (int b = 0; b < 65; b++)
        free(s->rq[b].e);
}
