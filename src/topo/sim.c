/* SPDX-License-Identifier: MIT
 * Flow-level simulator: event loop, rank progress and transfer matching. The max-min solver is in
 * sim_solve.c; the shared state in sim_impl.h. */
#include "sim_impl.h"
#include "util/log.h"
#include "util/status.h"
#include "util/timer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void rx_sim_opts_default(rx_sim_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->compute_bw = 10e9;
    o->intra_bw = 20e9;
    o->seed = 1;
}

void rx_sim_result_free(rx_sim_result_t *r)
{
    free(r->link_bytes);
    free(r->link_maxflows);
    free(r->job_time);
    r->link_bytes = NULL;
    r->link_maxflows = NULL;
    r->job_time = NULL;
}

/* ---- event heap ---- */

static int rx_ev_push(rx_sim_t *s, double t, uint32_t type, uint32_t id, uint32_t ver)
{
    if (s->radix)
        return rx_rq_push(s, &(rx_event_t){.t = t, .id = id, .type = type, .ver = ver});
    if (s->nev == s->evcap) {
        uint32_t cap = s->evcap ? s->evcap * 2 : 1024;
        rx_event_t *e = realloc(s->ev, cap * sizeof *e);
        if (!e)
            return RX_ERR_NOMEM;
        s->ev = e;
        s->evcap = cap;
    }
    uint32_t i = s->nev++;
    rx_event_t x = {.t = t, .id = id, .type = type, .ver = ver};
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (s->ev[p].t <= t)
            break;
        s->ev[i] = s->ev[p];
        i = p;
    }
    s->ev[i] = x;
    return RX_OK;
}

static void rx_ev_sift_down(rx_event_t *h, uint32_t n, uint32_t i)
{
    rx_event_t x = h[i];
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && h[c + 1].t < h[c].t)
            c++;
        if (h[c].t >= x.t)
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
}

/* An activation at now + lat, into the FIFO of its latency (sim_impl.h). */
static int rx_act_push(rx_sim_t *s, double lat, uint32_t fid)
{
    uint32_t q = s->lqlast;
    if (q >= s->nlq || s->lq[q].lat != lat) {
        for (q = 0; q < s->nlq && s->lq[q].lat != lat; q++)
            ;
        if (q == s->nlq) {
            if (q == RX_SIM_LATQ)
                return rx_ev_push(s, s->now + lat, RX_EV_FLOW_ACTIVATE, fid, 0);
            s->lq[q] = (struct rx_latq){.lat = lat};
            s->nlq++;
        }
        s->lqlast = q;
    }
    struct rx_latq *a = &s->lq[q];
    if (a->n == a->cap) {
        uint32_t cap = a->cap ? a->cap * 2 : 1024;
        rx_event_t *e = malloc(cap * sizeof *e);
        if (!e)
            return RX_ERR_NOMEM;
        for (uint32_t i = 0; i < a->n; i++)
            e[i] = a->e[(a->head + i) & (a->cap - 1)];
        free(a->e);
        a->e = e;
        a->head = 0;
        a->cap = cap;
    }
    rx_event_t x = {.t = s->now + lat, .id = fid, .type = RX_EV_FLOW_ACTIVATE};
    a->e[(a->head + a->n++) & (a->cap - 1)] = x;
    s->nlev++;
    /* its time is the latest of its queue: it is the earliest head only of a queue just refilled */
    if (a->n == 1 && (s->lqmin == UINT32_MAX || x.t < s->lq[s->lqmin].e[s->lq[s->lqmin].head].t))
        s->lqmin = q;
    return RX_OK;
}

/* The earliest pending event, or NULL: the heap's top, or the earliest FIFO head when strictly
 * earlier (ties: the heap first, then the lower queue). */
static const rx_event_t *rx_ev_first(const rx_sim_t *s)
{
    const rx_event_t *h = s->nev ? &s->ev[0] : NULL;
    if (s->lqmin != UINT32_MAX) {
        const struct rx_latq *a = &s->lq[s->lqmin];
        const rx_event_t *x = &a->e[a->head];
        if (!h || x->t < h->t)
            return x;
    }
    return h;
}

static rx_event_t rx_ev_pop(rx_sim_t *s);

/* Removes the earliest pending event (there is one). */
static rx_event_t rx_ev_take(rx_sim_t *s)
{
    const rx_event_t *x = rx_ev_first(s);
    if (x == &s->ev[0] && s->nev)
        return rx_ev_pop(s);
    struct rx_latq *a = &s->lq[s->lqmin];
    rx_event_t e = *x;
    a->head = (a->head + 1) & (a->cap - 1);
    a->n--;
    s->nlev--;
    s->lqmin = UINT32_MAX;
    for (uint32_t q = 0; q < s->nlq; q++)
        if (s->lq[q].n && (s->lqmin == UINT32_MAX ||
                           s->lq[q].e[s->lq[q].head].t < s->lq[s->lqmin].e[s->lq[s->lqmin].head].t))
            s->lqmin = q;
    return e;
}

/* Drops every pending activation (a new phase starts on an empty fabric). */
void rx_act_clear(rx_sim_t *s)
{
    for (uint32_t q = 0; q < s->nlq; q++)
        s->lq[q].head = s->lq[q].n = 0;
    s->nlev = 0;
    s->lqmin = UINT32_MAX;
}

/* Removes the earliest event. Bottom-up: the hole left at the root goes down to a leaf along the
 * smaller children (one comparison a level), then the last element rises from there over the
 * path's elements not earlier than itself. The heap ends as rx_ev_sift_down leaves it, ties
 * included (the path is sorted; sifting down moves up exactly the elements earlier than the last
 * one), so events of equal time come out in the same order. */
static rx_event_t rx_ev_pop(rx_sim_t *s)
{
    rx_event_t *h = s->ev, top = h[0];
    uint32_t n = --s->nev, i = 0, c;
    if (!n)
        return top;
    rx_event_t x = h[n];
    while ((c = 2 * i + 2) < n) { /* both children */
        c -= h[c].t >= h[c - 1].t; /* the right one only when strictly earlier */
        h[i] = h[c];
        i = c;
    }
    if (c == n) { /* a left child alone */
        h[i] = h[c - 1];
        i = c - 1;
    }
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (h[p].t < x.t)
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = x;
    return top;
}

/* A completion is current while the flow's current version (fcur, 0 when not active) is its own. */
static int rx_ev_stale(const rx_sim_t *s, const rx_event_t *e)
{
    return e->type == RX_EV_FLOW_DONE && s->fcur[e->id] != e->ver;
}

/* Drops stale completions once they outnumber the live ones: keeps memory linear in live flows. */
static void rx_ev_compact(rx_sim_t *s)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < s->nev; i++)
        if (!rx_ev_stale(s, &s->ev[i]))
            s->ev[k++] = s->ev[i];
    s->nev = k;
    for (uint32_t i = k / 2 + 1; i-- > 0;)
        if (i < k)
            rx_ev_sift_down(s->ev, k, i);
}

int rx_sim_schedule_done(rx_sim_t *s, uint32_t fid)
{
    rx_flow_t *f = &s->f[fid];
    f->ver += 1 + !(f->ver + 1); /* 0 stands for "not active" in fcur */
    s->fcur[fid] = f->ver;
    double rate = s->frate[fid];
    double t = rate > 0 ? s->now + f->rem / rate : INFINITY;
    if (!isfinite(t))
        return RX_OK;
    return rx_ev_push(s, t, RX_EV_FLOW_DONE, fid, f->ver);
}

/* ---- flows ---- */

static int rx_flow_alloc(rx_sim_t *s, uint32_t *id)
{
    if (s->ffree != UINT32_MAX) {
        *id = s->ffree;
        s->ffree = s->f[*id].next_free;
        return RX_OK;
    }
    if (s->nf == s->fcap) {
        if (s->fcap >= RX_SIM_MAXID / 2)
            return RX_ERR_NOMEM; /* event ids have 30 bits */
        uint32_t cap = s->fcap ? s->fcap * 2 : 1024;
        rx_flow_t *f = realloc(s->f, cap * sizeof *f);
        if (f)
            s->f = f;
        uint32_t *m = f ? realloc(s->fmark, cap * sizeof *m) : NULL;
        if (m)
            s->fmark = m;
        double *r = m ? realloc(s->frate, cap * sizeof *r) : NULL;
        if (r)
            s->frate = r;
        uint32_t *z = r ? realloc(s->frozen, cap * sizeof *z) : NULL;
        if (z)
            s->frozen = z;
        uint32_t *v = z ? realloc(s->fcur, cap * sizeof *v) : NULL;
        if (!v)
            return RX_ERR_NOMEM;
        s->fcur = v;
        memset(v + s->fcap, 0, (cap - s->fcap) * sizeof *v);
        memset(m + s->fcap, 0, (cap - s->fcap) * sizeof *m);
        memset(z + s->fcap, 0, (cap - s->fcap) * sizeof *z);
        s->fcap = cap;
    }
    s->f[s->nf].ver = 0;
    *id = s->nf++;
    return RX_OK;
}

static int rx_link_attach(rx_sim_t *s, uint32_t fid)
{
    rx_flow_t *f = &s->f[fid];
    for (int i = 0; i < f->nh; i++) {
        rx_link_state_t *ls = &s->ls[f->hop[i].link];
        if (ls->n == ls->cap) {
            uint32_t cap = ls->cap ? ls->cap * 2 : 4;
            uint32_t *a = realloc(ls->fl, cap * sizeof *a);
            if (!a)
                return RX_ERR_NOMEM;
            ls->fl = a;
            ls->cap = cap;
        }
        f->hop[i].pos = ls->n;
        ls->fl[ls->n++] = fid;
        if (ls->n > ls->maxflows)
            ls->maxflows = ls->n;
    }
    return rx_solver_arrive(s, fid);
}

static int rx_link_detach(rx_sim_t *s, uint32_t fid)
{
    rx_flow_t *f = &s->f[fid];
    for (int i = 0; i < f->nh; i++) {
        rx_link_state_t *ls = &s->ls[f->hop[i].link];
        uint32_t last = ls->fl[--ls->n];
        uint32_t at = f->hop[i].pos;
        if (last != fid) {
            ls->fl[at] = last;
            rx_flow_t *g = &s->f[last];
            for (int j = 0; j < g->nh; j++)
                if (g->hop[j].link == f->hop[i].link) {
                    g->hop[j].pos = at;
                    break;
                }
        }
        ls->bytes += (double)f->bytes;
    }
    return rx_solver_depart(s, fid);
}

/* Adds the bytes sent on a memoised route to its links (contention-free runs). */
static void rx_memo_flush(rx_sim_t *s, rx_route_memo_t *m)
{
    if (m->nd != UINT32_MAX && m->bytes > 0)
        for (int i = 0; i < m->nh; i++)
            s->ls[m->path[i]].bytes += m->bytes;
    m->bytes = 0;
}

/* A flow of a contention-free run becomes active: it takes its links, or the run is contended
 * (a link held already, or a rate the filling would not give alone). */
static int rx_flow_take_links(rx_sim_t *s, uint32_t fid)
{
    rx_flow_t *f = &s->f[fid];
    if (!(f->nrate > 0 && f->nrate < INFINITY)) {
        s->contended = 1;
        return RX_ERR_AGAIN;
    }
    /* a link released at this instant counts as held: with the link lists, the order of the
     * instant's events would decide whether both flows were on it at once (its most flows) */
    for (int i = 0; i < f->nh; i++) {
        uint8_t *b = &s->lbusy[f->hop[i].link];
        if (*b >= 2) {
            s->contended = 1;
            return RX_ERR_AGAIN;
        }
        *b = 2;
    }
    /* exact sums of rates, whatever their order, in a radix-queue run */
    if (s->radix && (double)(s->live + 1) * s->maxbw >= 0x1p53) {
        s->contended = 1;
        return RX_ERR_AGAIN;
    }
    return rx_solver_arrive(s, fid);
}

/* A send met its receive: route the transfer and start its latency phase. */
/* salt: (sender's round, step index), so that random routing choices do not depend on the order
 * in which simultaneous events happen to be processed */
static int rx_transfer_start(rx_sim_t *s, uint32_t src, uint32_t dst, uint64_t bytes, uint64_t salt)
{
    uint32_t ns = s->rank_node[src], nd = s->rank_node[dst];
    uint32_t fid;
    int rc = rx_flow_alloc(s, &fid);
    if (rc)
        return rc;
    rx_flow_t *f = &s->f[fid];
    memset(f, 0, offsetof(rx_flow_t, ver));
    f->ver++;
    f->src = src;
    f->dst = dst;
    f->bytes = bytes;
    f->rem = (double)bytes;
    f->next_free = UINT32_MAX;
    s->frate[fid] = 0;
    s->frozen[fid] = 0;
    if (ns == nd) {
        f->state = RX_FS_LOCAL;
        return rx_ev_push(s, s->now + (double)bytes / s->o.intra_bw, RX_EV_LOCAL_DONE, fid, 0);
    }
    int nh;
    double lat = 0, bw = INFINITY;
    rx_route_memo_t *m = s->rmemo ? &s->rmemo[src] : NULL;
    if (m && m->nd == nd) { /* the sender's last destination again: its route and latency */
        nh = m->nh;
        for (int i = 0; i < nh; i++)
            f->hop[i].link = m->path[i];
        lat = m->lat;
        bw = m->bw;
    } else {
        uint32_t path[RX_ROUTE_MAXHOPS];
        rc = rx_route(&s->router, ns, nd, salt, path, &nh);
        if (rc)
            return rc;
        for (int i = 0; i < nh; i++) {
            f->hop[i].link = path[i];
            const struct rx_link_kind *k = s->lkind ? &s->lkinds[s->lkind[path[i]]] : NULL;
            double llat = k ? k->lat : s->t->l[path[i]].lat, lbw = k ? k->bw : s->t->l[path[i]].bw;
            lat += llat;
            if (lbw < bw)
                bw = lbw;
        }
        if (m) {
            if (s->alone)
                rx_memo_flush(s, m);
            m->nd = nd;
            m->nh = (uint16_t)nh;
            m->lat = lat;
            m->bw = bw;
            memcpy(m->path, path, (size_t)nh * sizeof *path);
        }
    }
    f->nh = (uint16_t)nh;
    if (s->alone) {
        /* the rate it will have (alone on every link), and its bytes on its links: added when
         * sent rather than when done, which is the same sum once every flow is done (the run is
         * given up otherwise); sums of whole bytes below 2^53 do not depend on their order */
        f->nrate = bw;
        if (m) {
            if (m->bytes + (double)bytes > 0x1p52)
                rx_memo_flush(s, m);
            m->bytes += (double)bytes;
        } else
            for (int i = 0; i < nh; i++)
                s->ls[f->hop[i].link].bytes += (double)bytes;
    }
    /* routing of the next flows (UGAL) must see this one: count it on its links now */
    for (int i = 0; i < nh && s->track_load; i++)
        s->ls[f->hop[i].link].load++;
    f->state = RX_FS_LATENCY;
    s->res->flows++;
    if (!s->injecting[ns]) {
        s->injecting[ns] = 1;
        s->res->senders++;
        s->inj_sum += s->t->l[rx_topo_inject(s->t, ns)].bw;
    }
    /* The FIFOs take an instant's activations in the order the transfers started, the heap in
     * its own order; under rank synchronisation that order reaches adaptive routing choices and
     * the rounding of rates (scale.cmake pins those figures), so only phase-synchronised runs,
     * whose routes are all chosen when the phase starts, use them. */
    if (s->radix || !s->one_phase)
        return rx_ev_push(s, s->now + lat, RX_EV_FLOW_ACTIVATE, fid, 0);
    return rx_act_push(s, lat, fid);
}

static void rx_flow_release(rx_sim_t *s, uint32_t fid)
{
    s->f[fid].state = RX_FS_FREE;
    s->f[fid].next_free = s->ffree;
    s->ffree = fid;
}

/* ---- ranks ---- */

static int rx_rank_push_post(rx_rank_t *r, uint8_t op, uint32_t peer, uint64_t bytes, uint64_t salt)
{
    if (r->nposts == r->postcap) {
        uint32_t cap = r->postcap ? r->postcap * 2 : 4;
        rx_post_t *p = realloc(r->posts, cap * sizeof *p);
        if (!p)
            return RX_ERR_NOMEM;
        r->posts = p;
        r->postcap = cap;
    }
    r->posts[r->nposts++] = (rx_post_t){.op = op, .peer = peer, .bytes = bytes, .salt = salt};
    return RX_OK;
}

/* Finds and removes the first post of `op` to `peer` in rank r's list. */
static int rx_rank_take_post(rx_rank_t *r, uint8_t op, uint32_t peer, uint64_t *bytes, uint64_t *salt)
{
    for (uint32_t i = 0; i < r->nposts; i++) {
        if (r->posts[i].op == op && r->posts[i].peer == peer) {
            *bytes = r->posts[i].bytes;
            *salt = r->posts[i].salt;
            memmove(&r->posts[i], &r->posts[i + 1], (r->nposts - i - 1) * sizeof *r->posts);
            r->nposts--;
            return 1;
        }
    }
    return 0;
}


/* Whether rank's ranks synchronise by phases, and which ranks share its barrier. */
static int rx_rank_barrier(const rx_sim_t *s, uint32_t rank, uint32_t **count, uint32_t *lo, uint32_t *hi)
{
    if (!s->rjob) {
        *count = (uint32_t *)&s->barrier_count;
        *lo = 0;
        *hi = s->w->nranks;
        return s->o.barrier;
    }
    uint32_t j = s->rjob[rank];
    *count = &s->jbar[j];
    *lo = s->o.job_first[j];
    *hi = s->o.job_first[j + 1];
    return s->o.job_barrier && s->o.job_barrier[j];
}

static int rx_rank_round_done(rx_sim_t *s, uint32_t rank)
{
    rx_rank_t *r = &s->ranks[rank];
    r->round++;
    s->rounds_done++;
    uint32_t *count, lo, hi;
    if (rx_rank_barrier(s, rank, &count, &lo, &hi)) {
        if (++*count < hi - lo)
            return RX_OK;
        /* the last rank of the phase releases everyone */
        *count = 0;
        if (s->one_phase) { /* sim_phase.c runs each phase on its own */
            s->phase_end = s->now;
            return RX_OK;
        }
        for (uint32_t i = lo; i < hi; i++) {
            int rc = rx_rank_enter(s, i);
            if (rc)
                return rc;
        }
        return RX_OK;
    }
    return rx_rank_enter(s, rank);
}

static int rx_rank_comm_done(rx_sim_t *s, uint32_t rank)
{
    rx_rank_t *r = &s->ranks[rank];
    if (r->compute > 0) {
        double t = s->now + r->compute;
        r->compute = 0;
        return rx_ev_push(s, t, RX_EV_COMPUTE_DONE, rank, 0);
    }
    return rx_rank_round_done(s, rank);
}

int rx_rank_enter(rx_sim_t *s, uint32_t rank)
{
    rx_rank_t *r = &s->ranks[rank];
    uint32_t *count, lo, hi;
    int barrier = rx_rank_barrier(s, rank, &count, &lo, &hi);
    if (r->finished)
        return barrier ? rx_rank_round_done(s, rank) : RX_OK;
    const rx_step_t *st;
    uint32_t n;
    int rc = s->w->round(s->w->ctx, rank, r->round, &st, &n);
    if (rc == RX_ERR_NOTFOUND) {
        r->finished = 1;
        s->nfinished++;
        if (s->now > s->res->time)
            s->res->time = s->now;
        uint32_t done = s->nfinished;
        if (s->rjob) {
            uint32_t j = s->rjob[rank];
            done = ++s->jfin[j];
            if (s->now > s->res->job_time[j])
                s->res->job_time[j] = s->now;
        }
        return barrier && done < hi - lo ? rx_rank_round_done(s, rank) : RX_OK;
    }
    if (rc)
        return rc;
    r->pending = 0;
    r->compute = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (st[i].op == RX_STEP_REDUCE || st[i].op == RX_STEP_COPY) {
            r->compute += (double)st[i].bytes / s->o.compute_bw;
            continue;
        }
        if (st[i].peer >= s->w->nranks)
            return RX_ERR_INVAL;
        r->pending++;
    }
    /* count first, post after: a match can complete instantly and must not see a partial count */
    r->pending++;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t b, unused, salt = (uint64_t)r->round << 24 | i;
        uint32_t peer = st[i].peer;
        if (st[i].op == RX_STEP_SEND) {
            if (rx_rank_take_post(&s->ranks[peer], RX_STEP_RECV, rank, &b, &unused))
                rc = rx_transfer_start(s, rank, peer, st[i].bytes, salt);
            else
                rc = rx_rank_push_post(r, RX_STEP_SEND, peer, st[i].bytes, salt);
        } else if (st[i].op == RX_STEP_RECV) {
            if (rx_rank_take_post(&s->ranks[peer], RX_STEP_SEND, rank, &b, &salt))
                rc = rx_transfer_start(s, peer, rank, b, salt);
            else
                rc = rx_rank_push_post(r, RX_STEP_RECV, peer, st[i].bytes, 0);
        }
        if (rc)
            return rc;
    }
    if (--r->pending == 0)
        return rx_rank_comm_done(s, rank);
    return RX_OK;
}

static int rx_transfer_done(rx_sim_t *s, uint32_t fid)
{
    uint32_t src = s->f[fid].src, dst = s->f[fid].dst;
    rx_flow_release(s, fid);
    int rc = RX_OK;
    if (--s->ranks[src].pending == 0)
        rc = rx_rank_comm_done(s, src);
    if (!rc && --s->ranks[dst].pending == 0)
        rc = rx_rank_comm_done(s, dst);
    return rc;
}

/* ---- main loop ---- */

static int rx_sim_handle(rx_sim_t *s, const rx_event_t *e)
{
    rx_flow_t *f;
    switch (e->type) {
    case RX_EV_FLOW_ACTIVATE:
        f = &s->f[e->id];
        if (f->bytes == 0) { /* an empty message costs its latency only */
            for (int i = 0; i < f->nh && s->track_load; i++)
                s->ls[f->hop[i].link].load--;
            f->state = RX_FS_DONE;
            return rx_sim_defer_done(s, e->id);
        }
        f->state = RX_FS_ACTIVE;
        f->t_upd = s->now;
        s->frate[e->id] = 0;
        if (s->alone) {
            if (++s->live > s->res->peak_live)
                s->res->peak_live = s->live;
            return rx_flow_take_links(s, e->id);
        }
        if (s->nact == s->actcap) {
            uint32_t cap = s->actcap ? s->actcap * 2 : 1024;
            uint32_t *a = realloc(s->act, cap * sizeof *a);
            if (!a)
                return RX_ERR_NOMEM;
            s->act = a;
            s->actcap = cap;
        }
        f->apos = s->nact;
        s->act[s->nact++] = e->id;
        s->live++;
        if (s->live > s->res->peak_live)
            s->res->peak_live = s->live;
        return rx_link_attach(s, e->id);
    case RX_EV_FLOW_DONE:
        f = &s->f[e->id];
        s->agg_rate -= s->frate[e->id];
        s->res->net_bytes += (double)f->bytes;
        if (s->alone) {
            if (s->radix && s->res->net_bytes >= 0x1p52) { /* sums of whole bytes stay exact */
                s->contended = 1;
                return RX_ERR_AGAIN;
            }
            for (int i = 0; i < f->nh; i++)
                s->lbusy[f->hop[i].link] = 3; /* held until the instant's solve */
            int rc = rx_solver_depart(s, e->id);
            if (rc)
                return rc;
            f->state = RX_FS_DONE;
            s->fcur[e->id] = 0;
            s->live--;
            return rx_sim_defer_done(s, e->id);
        }
        {
            uint32_t last = s->act[--s->nact];
            s->act[f->apos] = last;
            s->f[last].apos = f->apos;
        }
        int drc = rx_link_detach(s, e->id);
        for (int i = 0; i < f->nh && s->track_load; i++)
            s->ls[f->hop[i].link].load--;
        f->state = RX_FS_DONE;
        s->fcur[e->id] = 0;
        s->live--;
        if (drc)
            return drc;
        /* the rank bookkeeping may start new flows: do it after the solver saw the departure */
        return rx_sim_defer_done(s, e->id);
    case RX_EV_LOCAL_DONE:
        return rx_transfer_done(s, e->id);
    case RX_EV_COMPUTE_DONE:
        return rx_rank_round_done(s, e->id);
    }
    return RX_ERR_INTERN;
}

/* Flow arrivals and completions of one instant, up to RX_SIM_BATCH of them, handled in the order
 * they leave the queue, as one by one. Handling them pushes no event and changes no other event's
 * staleness (only the solver reschedules), so they can be taken first; their flow records, then
 * the link states of their hops, then the flows their departures swap within the links' lists
 * are loaded ahead, since each is a miss to memory on fabrics of 10^5 links. */
#define RX_SIM_BATCH 64
static int rx_sim_handle_flows(rx_sim_t *s, double horizon)
{
    rx_event_t b[RX_SIM_BATCH];
    uint32_t nb = 0;
    const rx_event_t *x;
    while (nb < RX_SIM_BATCH && (x = rx_ev_first(s)) && x->t <= horizon && x->type <= RX_EV_FLOW_ACTIVATE) {
        b[nb] = rx_ev_take(s);
        if (!rx_ev_stale(s, &b[nb]))
            __builtin_prefetch(&s->f[b[nb++].id]);
    }
    for (uint32_t i = 0; i < nb; i++) {
        const rx_flow_t *f = &s->f[b[i].id];
        for (int j = 0; j < f->nh; j++)
            __builtin_prefetch(&s->ls[f->hop[j].link]);
    }
    if (!s->alone)
        for (uint32_t i = 0; i < nb; i++) {
            if (b[i].type != RX_EV_FLOW_DONE)
                continue;
            const rx_flow_t *f = &s->f[b[i].id];
            for (int j = 0; j < f->nh; j++) {
                const rx_link_state_t *ls = &s->ls[f->hop[j].link];
                if (ls->n)
                    __builtin_prefetch(&s->f[ls->fl[ls->n - 1]]);
            }
        }
    int rc = RX_OK;
    for (uint32_t i = 0; i < nb && !rc; i++)
        rc = rx_sim_handle(s, &b[i]);
    return rc;
}

int rx_sim_defer_done(rx_sim_t *s, uint32_t fid)
{
    if (s->ndone == s->donecap) {
        uint32_t cap = s->donecap ? s->donecap * 2 : 256;
        uint32_t *d = realloc(s->done, cap * sizeof *d);
        if (!d)
            return RX_ERR_NOMEM;
        s->done = d;
        s->donecap = cap;
    }
    s->done[s->ndone++] = fid;
    return RX_OK;
}

void rx_sim_cleanup(rx_sim_t *s)
{
    if (s->ls)
        for (uint32_t i = 0; i < s->t->nlinks; i++)
            free(s->ls[i].fl);
    if (s->ranks)
        for (uint32_t i = 0; i < s->w->nranks; i++)
            free(s->ranks[i].posts);
    free(s->ls);
    free(s->lkind);
    free(s->ranks);
    free(s->f);
    free(s->fmark);
    free(s->act);
    free(s->frate);
    free(s->frozen);
    free(s->fcur);
    free(s->rmemo);
    free(s->lbusy);
    free(s->dkey);
    rx_rq_free(s);
    free(s->ev);
    for (uint32_t q = 0; q < s->nlq; q++)
        free(s->lq[q].e);
    free(s->done);
    free(s->injecting);
    free(s->own_rank_node);
    free(s->rjob);
    free(s->jbar);
    free(s->jfin);
    rx_solver_free(s);
}

int rx_sim_setup(rx_sim_t *s, rx_topo_t *t, const rx_workload_t *w, const rx_sim_opts_t *o, rx_sim_result_t *res)
{
    memset(res, 0, sizeof *res);
    memset(s, 0, sizeof *s);
    s->t = t;
    s->w = w;
    s->o = *o;
    s->res = res;
    s->ffree = UINT32_MAX;
    s->lqmin = UINT32_MAX;
    if (w->nranks == 0 || w->nranks >= RX_SIM_MAXID)
        return RX_ERR_INVAL;
    if (!o->rank_node && w->nranks > t->nnodes) {
        rx_log_error("rdmx-topo: %u ranks on %u nodes: give a placement (rank -> node)", w->nranks, t->nnodes);
        return RX_ERR_INVAL;
    }
    res->nlinks = t->nlinks;
    res->link_bytes = calloc(t->nlinks, sizeof *res->link_bytes);
    res->link_maxflows = calloc(t->nlinks, sizeof *res->link_maxflows);
    s->ls = aligned_alloc(_Alignof(rx_link_state_t), (t->nlinks ? t->nlinks : 1) * sizeof *s->ls);
    if (s->ls) {
        memset(s->ls, 0, t->nlinks * sizeof *s->ls);
        for (uint32_t l = 0; l < t->nlinks; l++)
            s->ls[l].bw = t->l[l].bw;
    }
    s->lkind = malloc(t->nlinks ? t->nlinks : 1);
    for (uint32_t l = 0, nk = 0; l < t->nlinks && s->lkind; l++) {
        uint32_t k = 0;
        while (k < nk && !(s->lkinds[k].lat == t->l[l].lat && s->lkinds[k].bw == t->l[l].bw))
            k++;
        if (k == nk) {
            if (nk == 256) {
                free(s->lkind);
                s->lkind = NULL;
                break;
            }
            s->lkinds[nk++] = (struct rx_link_kind){t->l[l].lat, t->l[l].bw};
        }
        s->lkind[l] = (uint8_t)k;
    }
    s->ranks = calloc(w->nranks, sizeof *s->ranks);
    s->injecting = calloc(t->nnodes, 1);
    if (!res->link_bytes || !res->link_maxflows || !s->ls || !s->ranks || !s->injecting)
        return RX_ERR_NOMEM;
    if (o->rank_node) {
        s->rank_node = o->rank_node;
        for (uint32_t i = 0; i < w->nranks; i++)
            if (o->rank_node[i] >= t->nnodes) {
                rx_log_error("rdmx-topo: rank %u placed on node %u, the fabric has %u", i, o->rank_node[i], t->nnodes);
                return RX_ERR_INVAL;
            }
    } else {
        if (!(s->own_rank_node = malloc(w->nranks * sizeof *s->own_rank_node)))
            return RX_ERR_NOMEM;
        for (uint32_t i = 0; i < w->nranks; i++)
            s->own_rank_node[i] = i;
        s->rank_node = s->own_rank_node;
    }
    if (o->njobs) {
        if (!o->job_first || o->job_first[0] != 0 || o->job_first[o->njobs] != w->nranks)
            return RX_ERR_INVAL;
        s->rjob = malloc(w->nranks * sizeof *s->rjob);
        s->jbar = calloc(o->njobs, sizeof *s->jbar);
        s->jfin = calloc(o->njobs, sizeof *s->jfin);
        res->job_time = calloc(o->njobs, sizeof *res->job_time);
        if (!s->rjob || !s->jbar || !s->jfin || !res->job_time)
            return RX_ERR_NOMEM;
        for (uint32_t j = 0; j < o->njobs; j++) {
            if (o->job_first[j + 1] < o->job_first[j])
                return RX_ERR_INVAL;
            for (uint32_t i = o->job_first[j]; i < o->job_first[j + 1]; i++)
                s->rjob[i] = j;
        }
    }
    s->track_load = o->algo == RX_ROUTE_UGAL || o->algo == RX_ROUTE_UGAL_L;
    if (rx_route_pair_only(o->algo) && !o->barrier) { /* ranks that keep their peer (rings) reuse routes */
        if (!(s->rmemo = aligned_alloc(64, ((w->nranks * sizeof *s->rmemo + 63) & ~(size_t)63))))
            return RX_ERR_NOMEM;
        for (uint32_t i = 0; i < w->nranks; i++) {
            s->rmemo[i].nd = UINT32_MAX;
            s->rmemo[i].bytes = 0;
        }
    }
    s->router = (rx_router_t){.t = t, .algo = o->algo, .seed = o->seed,
                              .load = s->track_load ? &s->ls[0].load : NULL,
                              .load_stride = sizeof *s->ls / sizeof s->ls[0].load};
    return rx_solver_init(s);
}

/* Every 10 s of a long run without phases (those report per phase), a line on stderr: the rounds
 * the ranks finished out of all (w->nrounds for each rank: an upper bound) and the simulated time. */
static void rx_sim_report(rx_sim_t *s)
{
    double now = rx_time_now();
    if (now - s->last_report < 10)
        return;
    double total = (double)s->w->nranks * s->w->nrounds;
    fprintf(stderr, "rdmx-topo: %llu of %.0f rank rounds (%.0f%%), simulated %.6g s, %.0f s\n",
            (unsigned long long)s->rounds_done, total, total > 0 ? 100.0 * (double)s->rounds_done / total : 0,
            s->now, now - s->t0);
    s->last_report = now;
}

static int rx_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* A radix run handles an instant's events in any order: its completions go to their ranks in rank
 * order, so that neighbouring ranks' records, schedules and routes are read together (a ring's
 * instants are runs of consecutive ranks) instead of in the order of the queue. */
static int rx_sim_sort_done(rx_sim_t *s)
{
    uint32_t n = s->ndone;
    if (n > s->dkeycap) {
        uint64_t *k = realloc(s->dkey, (size_t)n * 2 * sizeof *k);
        if (!k)
            return RX_ERR_NOMEM;
        s->dkey = k;
        s->dkeycap = n * 2;
    }
    for (uint32_t i = 0; i < n; i++)
        s->dkey[i] = (uint64_t)s->f[s->done[i]].src << 32 | s->done[i];
    qsort(s->dkey, n, sizeof *s->dkey, rx_cmp_u64);
    for (uint32_t i = 0; i < n; i++)
        s->done[i] = (uint32_t)s->dkey[i];
    return RX_OK;
}

int rx_sim_loop(rx_sim_t *s)
{
    int rc = RX_OK;
    int progress = s->o.progress && !s->one_phase;
    while (!rc && (s->nev || s->nlev || s->ndone || s->changed)) {
        if (progress && !(++s->report_tick & 0xffff))
            rx_sim_report(s);
        if (s->ndone > 1 && s->radix && (rc = rx_sim_sort_done(s)))
            break;
        if (s->ndone) {
            /* completions whose rank bookkeeping was deferred until after the re-solve */
            for (uint32_t i = 0; i < s->ndone && !rc; i++) {
                uint32_t fid = s->done[i];
                rc = rx_transfer_done(s, fid);
            }
            s->ndone = 0;
            if (rc)
                break;
        }
        if (s->changed)
            rc = rx_solve(s);
        if (rc || !(s->nev || s->nlev))
            break;
        /* advance to the next event and take every event of that instant */
        rx_event_t e;
        if (s->radix) { /* no stale events: every flow's completion is scheduled once */
            if ((rc = rx_rq_pop_first(s, &e)))
                break;
        } else {
            e = rx_ev_take(s);
            if (rx_ev_stale(s, &e))
                continue;
        }
        s->now = e.t;
        s->res->events++;
        rc = rx_sim_handle(s, &e);
        /* equal flows finish at one instant up to rounding: handle them together, one re-solve */
        double horizon = s->now * (1 + 1e-10) + 1e-15;
        if (s->radix) {
            int got = 0;
            while (!rc && (got = rx_rq_pop_until(s, horizon, &e)) == 1)
                rc = rx_sim_handle(s, &e);
            if (!rc && got < 0)
                rc = got;
            continue;
        }
        const rx_event_t *x;
        while (!rc && (x = rx_ev_first(s)) && x->t <= horizon) {
            if (x->type > RX_EV_FLOW_ACTIVATE) {
                e = rx_ev_take(s);
                rc = rx_sim_handle(s, &e);
                continue;
            }
            rc = rx_sim_handle_flows(s, horizon);
        }
        if (s->nev > 4 * (s->live + 1024))
            rx_ev_compact(s);
    }
    return rc;
}

int rx_sim_stuck(rx_sim_t *s, int phase_done)
{
    for (uint32_t i = 0; i < s->w->nranks; i++) {
        rx_rank_t *r = &s->ranks[i];
        if (r->finished || (phase_done && !r->nposts && !r->pending))
            continue;
        if (r->nposts)
            rx_log_error("rdmx-topo: the workload deadlocks: rank %u waits in round %u: its %s rank %u is never "
                         "matched", i, r->round, r->posts[0].op == RX_STEP_SEND ? "send to" : "receive from",
                         r->posts[0].peer);
        else
            rx_log_error("rdmx-topo: the workload deadlocks: rank %u waits in round %u", i, r->round);
        return RX_ERR_INVAL;
    }
    return RX_OK;
}

void rx_sim_flush_links(rx_sim_t *s)
{
    for (uint32_t l = 0; l < s->t->nlinks; l++) {
        s->res->link_bytes[l] += s->ls[l].bytes;
        if (s->ls[l].maxflows > s->res->link_maxflows[l])
            s->res->link_maxflows[l] = s->ls[l].maxflows;
        s->ls[l].bytes = 0;
    }
}

void rx_sim_finish(const rx_topo_t *t, rx_sim_result_t *res, double inj_sum, double peak_rate, double sat_rate)
{
    res->throughput = res->time > 0 && inj_sum > 0 ? res->net_bytes / res->time / inj_sum : 0;
    res->peak_throughput = inj_sum > 0 ? peak_rate / inj_sum : 0;
    res->sat_throughput = inj_sum > 0 ? sat_rate / inj_sum : 0;
    for (uint32_t i = 0; i < t->nlinks; i++) {
        uint32_t m = res->link_maxflows[i];
        if (m > res->max_link_flows_all)
            res->max_link_flows_all = m;
        if (t->l[i].cls != RX_LC_HOST && m > res->max_link_flows)
            res->max_link_flows = m;
    }
}

/* The end of a contention-free run: what the link lists would have counted. */
static void rx_sim_alone_links(rx_sim_t *s)
{
    for (uint32_t i = 0; s->rmemo && i < s->w->nranks; i++)
        rx_memo_flush(s, &s->rmemo[i]);
    for (uint32_t l = 0; l < s->t->nlinks; l++)
        if (s->lbusy[l] && !s->ls[l].maxflows)
            s->ls[l].maxflows = 1;
}

/* One run; alone: try it as contention-free (*contended = 1 when a flow would share a link). */
static int rx_sim_run_once(rx_topo_t *t, const rx_workload_t *w, const rx_sim_opts_t *o, rx_sim_result_t *res,
                           int alone, int *contended)
{
    rx_sim_t S, *s = &S;
    double t0 = rx_time_now();
    int rc = rx_sim_setup(s, t, w, o, res);
    s->t0 = s->last_report = t0;
    if (!rc && alone) {
        s->alone = 1;
        if (!(s->lbusy = calloc(t->nlinks ? t->nlinks : 1, 1)))
            rc = RX_ERR_NOMEM;
        /* whole capacities: sums of rates exact in any order (bounded in rx_flow_take_links) */
        s->radix = 1;
        for (uint32_t l = 0; l < t->nlinks; l++) {
            double bw = t->l[l].bw;
            if (!(bw >= 0 && bw < 0x1p53 && bw == floor(bw)))
                s->radix = 0;
            else if (bw > s->maxbw)
                s->maxbw = bw;
        }
        if (s->maxbw * (double)t->nnodes >= 0x1p53) /* the injection bandwidths' sum too */
            s->radix = 0;
    }
    for (uint32_t i = 0; i < w->nranks && !rc; i++)
        rc = rx_rank_enter(s, i);
    if (!rc)
        rc = rx_sim_loop(s);
    if (!rc && s->nfinished < w->nranks)
        rc = rx_sim_stuck(s, 0);
    *contended = s->contended;
    if (!rc && s->alone)
        rx_sim_alone_links(s);
    if (!rc)
        rx_sim_flush_links(s);
    if (!rc)
        rx_sim_finish(t, res, s->inj_sum, s->peak_rate, s->sat_rate);
    res->cpu_seconds = rx_time_now() - t0;
    rx_sim_cleanup(s);
    if (rc)
        rx_sim_result_free(res);
    return rc;
}

int rx_sim_run(rx_topo_t *t, const rx_workload_t *w, const rx_sim_opts_t *o, rx_sim_result_t *res)
{
    if (o->barrier && !o->njobs)
        return rx_sim_run_phases(t, w, o, res);
    /* first as contention-free where the routing does not read link loads (rings of neighbours,
     * most rank-synchronised collectives on fat enough fabrics), then, at the first flow that
     * would share a link, again with the link lists and the filling */
    int contended = 0, alone = o->algo != RX_ROUTE_UGAL && o->algo != RX_ROUTE_UGAL_L && !o->full_solve;
    double t0 = rx_time_now();
    int rc = rx_sim_run_once(t, w, o, res, alone, &contended);
    if (rc == RX_ERR_AGAIN && contended) {
        rx_log_debug("rdmx-topo: flows share links: simulated again with max-min filling (%.2f s spent)",
                     rx_time_now() - t0);
        rc = rx_sim_run_once(t, w, o, res, 0, &contended);
        res->cpu_seconds = rx_time_now() - t0;
    }
    return rc;
}
