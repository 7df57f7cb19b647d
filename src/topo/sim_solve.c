/* SPDX-License-Identifier: MIT
 * Max-min fair rates by progressive filling, re-solved only above the level an event can reach.
 *
 * Filling: each link offers (capacity left) / (unfrozen flows); the link with the smallest offer is
 * the next bottleneck, its flows freeze at that rate (their "level") and are charged on their other
 * links. Offers only grow as flows freeze, so the heap holds one entry per link, a lower bound of
 * its offer: a link whose offer changed since its entry was made (a version per link) goes back in
 * at its current offer when the entry comes out, and the first entry that comes out current is
 * the minimum. Charging a link is then no heap operation.
 *
 * Incremental re-solve. Filling visits levels in increasing order, so two runs agree up to the first
 * level where some offer differs. A flow that left was unfrozen, on every link it crossed, until its
 * own level: removing it raises offers only on links that bottleneck at or above that level. A flow
 * that arrives lowers the offers of its links; given the old levels, the first level where one of
 * those links would bottleneck is computed exactly from the sorted rates on the link. Below the
 * smallest of these levels every flow keeps its rate; the solver freezes them as they are and
 * re-fills only the flows at or above it (usually the few fastest flows: in a phase of equal
 * transfers the fastest finish first). Events at one instant are batched into one solve. */
#include "sim_impl.h"
#include "util/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int rx_solver_init(rx_sim_t *s)
{
    s->clinks = malloc(s->t->nlinks * sizeof *s->clinks);
    s->departed_min = INFINITY;
    if (!s->clinks)
        return RX_ERR_NOMEM;
    return RX_OK;
}

void rx_solver_free(rx_sim_t *s)
{
    free(s->clinks);
    free(s->arrived);
    free(s->rbuf);
    free(s->cflows);
    free(s->heap);
    free(s->dlinks);
}

int rx_solver_depart(rx_sim_t *s, uint32_t fid)
{
    const rx_flow_t *f = &s->f[fid];
    if (s->frate[fid] < s->departed_min)
        s->departed_min = s->frate[fid];
    s->changed = 1;
    if (s->ndl + f->nh > s->dlcap) {
        uint32_t cap = s->dlcap ? s->dlcap * 2 : 1024;
        while (cap < s->ndl + f->nh)
            cap *= 2;
        uint32_t *d = realloc(s->dlinks, cap * sizeof *d);
        if (!d)
            return RX_ERR_NOMEM;
        s->dlinks = d;
        s->dlcap = cap;
    }
    for (int k = 0; k < f->nh; k++)
        s->dlinks[s->ndl + k] = f->hop[k].link;
    s->ndl += f->nh;
    return RX_OK;
}

int rx_solver_arrive(rx_sim_t *s, uint32_t fid)
{
    if (s->narrived == s->arrcap) {
        uint32_t cap = s->arrcap ? s->arrcap * 2 : 1024;
        uint32_t *a = realloc(s->arrived, cap * sizeof *a);
        if (!a)
            return RX_ERR_NOMEM;
        s->arrived = a;
        s->arrcap = cap;
    }
    s->arrived[s->narrived++] = fid;
    s->changed = 1;
    return RX_OK;
}

static int rx_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* First level at which link l bottlenecks once its k new flows join, the old flows keeping their
 * old levels below it. */
static double rx_arrival_level(rx_sim_t *s, uint32_t l, uint32_t k, int *rc)
{
    const rx_link_state_t *ls = &s->ls[l];
    uint32_t n = 0;
    if (ls->n == k) /* only the arrived flows: the loop below would give the same */
        return ls->bw / (double)k;
    if (ls->n > s->rbufcap) {
        double *b = realloc(s->rbuf, ls->n * sizeof *b);
        if (!b) {
            *rc = RX_ERR_NOMEM;
            return 0;
        }
        s->rbuf = b;
        s->rbufcap = ls->n;
    }
    for (uint32_t j = 0; j < ls->n; j++) {
        uint32_t fid = ls->fl[j];
        if (s->frate[fid] > 0 || s->frozen[fid] != UINT32_MAX) /* arrived flows are the k counted apart */
            s->rbuf[n++] = s->frate[fid];
    }
    if (n <= 32) { /* the usual few flows of a link: insertion sort, no calls per comparison */
        for (uint32_t i = 1; i < n; i++) {
            double x = s->rbuf[i];
            uint32_t j = i;
            for (; j > 0 && s->rbuf[j - 1] > x; j--)
                s->rbuf[j] = s->rbuf[j - 1];
            s->rbuf[j] = x;
        }
    } else
        qsort(s->rbuf, n, sizeof *s->rbuf, rx_cmp_double);
    double cap = ls->bw, frozen = 0;
    for (uint32_t i = 0; i <= n; i++) {
        double lev = (cap - frozen) / (double)(k + n - i);
        if (i == n || lev <= s->rbuf[i])
            return lev;
        frozen += s->rbuf[i];
    }
    return 0;
}

static int rx_heap_push(rx_sim_t *s, double share, uint32_t link)
{
    if (s->nheap == s->heapcap) {
        size_t cap = s->heapcap ? s->heapcap * 2 : 4096;
        rx_solve_entry_t *h = realloc(s->heap, cap * sizeof *h);
        if (!h)
            return RX_ERR_NOMEM;
        s->heap = h;
        s->heapcap = cap;
    }
    size_t i = s->nheap++;
    rx_solve_entry_t x = {share, link, s->ls[link].ver};
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (s->heap[p].share <= share)
            break;
        s->heap[i] = s->heap[p];
        i = p;
    }
    s->heap[i] = x;
    return RX_OK;
}

static rx_solve_entry_t rx_heap_pop(rx_sim_t *s)
{
    rx_solve_entry_t top = s->heap[0], x = s->heap[--s->nheap];
    size_t n = s->nheap, i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && s->heap[c + 1].share < s->heap[c].share)
            c++;
        if (s->heap[c].share >= x.share)
            break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    if (n)
        s->heap[i] = x;
    return top;
}

static int rx_cflow_add(rx_sim_t *s, uint32_t *n, uint32_t fid)
{
    if (*n == s->ncflows_cap) {
        uint32_t cap = s->ncflows_cap ? s->ncflows_cap * 2 : 1024;
        uint32_t *c = realloc(s->cflows, cap * sizeof *c);
        if (!c)
            return RX_ERR_NOMEM;
        s->cflows = c;
        s->ncflows_cap = cap;
    }
    s->cflows[(*n)++] = fid;
    return RX_OK;
}

/* What rx_solve does when every arrived flow is alone on its links and no departed flow shared a
 * link with another (a contention-free run): each arrived flow takes the smallest capacity of its
 * path (set in f->nrate when it was routed), in arrival order, and the other flows keep their
 * rates. The same arithmetic in the same order as rx_solve, so the same rates, events and sums. */
int rx_solve_alone(rx_sim_t *s)
{
    s->changed = 0;
    for (uint32_t i = 0; i < s->ndl; i++) /* links released at the instant: free now */
        s->lbusy[s->dlinks[i]] = 1;
    s->ndl = 0;
    s->departed_min = INFINITY;
    uint32_t n = s->narrived;
    s->narrived = 0;
    if (!n)
        return RX_OK;
    s->res->solves++;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t fid = s->arrived[i];
        rx_flow_t *f = &s->f[fid];
        f->t_upd = s->now;
        s->agg_rate += f->nrate; /* the rate was 0 */
        s->frate[fid] = f->nrate;
        int rc = rx_sim_schedule_done(s, fid);
        if (rc)
            return rc;
    }
    if (s->agg_rate > s->peak_rate)
        s->peak_rate = s->agg_rate;
    if (s->live > s->sat_live) {
        s->sat_live = s->live;
        s->sat_rate = s->agg_rate;
    }
    return RX_OK;
}

int rx_solve(rx_sim_t *s)
{
    int rc = RX_OK;
    if (s->alone)
        return rx_solve_alone(s);
    s->changed = 0;
    s->epoch++;
    if (s->epoch == UINT32_MAX) { /* wrapped: marks of long ago could look current */
        for (uint32_t l = 0; l < s->t->nlinks; l++)
            s->ls[l].mark = 0;
        memset(s->frozen, 0, s->fcap * sizeof *s->frozen);
        memset(s->fmark, 0, s->fcap * sizeof *s->fmark);
        s->epoch = 1;
    }
    const uint32_t ep = s->epoch;
    /* the lowest level the batch of arrivals and departures can change */
    double level = s->departed_min;
    for (uint32_t i = 0; i < s->narrived; i++) {
        rx_flow_t *f = &s->f[s->arrived[i]];
        s->frozen[s->arrived[i]] = UINT32_MAX; /* marks "arrived" for rx_arrival_level */
        for (int k = 0; k < f->nh; k++)
            s->ls[f->hop[k].link].newcnt++;
    }
    for (uint32_t i = 0; i < s->narrived && !rc; i++) {
        rx_flow_t *f = &s->f[s->arrived[i]];
        for (int k = 0; k < f->nh && !rc; k++) {
            uint32_t l = f->hop[k].link;
            if (!s->ls[l].newcnt)
                continue; /* done already */
            double lev = rx_arrival_level(s, l, s->ls[l].newcnt, &rc);
            if (lev < level)
                level = lev;
            s->ls[l].newcnt = 0;
        }
    }
    if (rc)
        return rc;
    if (s->o.full_solve)
        level = 0;
    s->departed_min = INFINITY;
    /* flows at or above that level are re-filled; the rest keep their rates */
    double cut = level * (1 - 1e-9);
    uint32_t nfl = 0;
    for (uint32_t i = 0; i < s->narrived; i++) {
        uint32_t fid = s->arrived[i];
        if (s->f[fid].state != RX_FS_ACTIVE || s->fmark[fid] == ep)
            continue;
        s->fmark[fid] = ep;
        s->frozen[fid] = 0;
        if ((rc = rx_cflow_add(s, &nfl, fid)))
            return rc;
    }
    s->narrived = 0;
    uint32_t nl = 0;
    if (s->o.full_solve) {
        for (uint32_t i = 0; i < s->nact; i++) {
            uint32_t fid = s->act[i];
            if (s->fmark[fid] != ep) {
                s->fmark[fid] = ep;
                if ((rc = rx_cflow_add(s, &nfl, fid)))
                    return rc;
            }
        }
        for (uint32_t i = 0; i < nfl; i++) {
            const rx_flow_t *f = &s->f[s->cflows[i]];
            for (int k = 0; k < f->nh; k++)
                if (s->ls[f->hop[k].link].mark != ep) {
                    s->ls[f->hop[k].link].mark = ep;
                    s->clinks[nl++] = f->hop[k].link;
                }
        }
    } else if (level < INFINITY) {
        /* Only the flows connected to a changed link through flows at or above the cut can move:
         * elsewhere the residual problem is the one already solved. Breadth-first from the links
         * of the arrived and departed flows over those flows; every link of a re-filled flow is
         * visited, so clinks ends up as their links (and the departed flows' ones). An arrived
         * flow alone on every link it crosses gets what the filling would give it, the smallest
         * of their capacities, without entering it (a ring of neighbours: every flow). */
        for (uint32_t i = 0; i < nfl; i++) {
            uint32_t fid = s->cflows[i];
            rx_flow_t *f = &s->f[fid];
            double alone = INFINITY;
            for (int k = 0; k < f->nh && alone > 0; k++) {
                const rx_link_state_t *ls = &s->ls[f->hop[k].link];
                if (ls->n != 1)
                    alone = 0;
                else if (ls->bw < alone)
                    alone = ls->bw;
            }
            if (alone > 0 && alone < INFINITY) {
                f->nrate = alone;
                s->frozen[fid] = ep;
                continue;
            }
            for (int k = 0; k < f->nh; k++)
                if (s->ls[f->hop[k].link].mark != ep) {
                    s->ls[f->hop[k].link].mark = ep;
                    s->clinks[nl++] = f->hop[k].link;
                }
        }
        for (uint32_t i = 0; i < s->ndl; i++)
            if (s->ls[s->dlinks[i]].mark != ep) {
                s->ls[s->dlinks[i]].mark = ep;
                s->clinks[nl++] = s->dlinks[i];
            }
        for (uint32_t q = 0; q < nl; q++) {
            const rx_link_state_t *ls = &s->ls[s->clinks[q]];
            for (uint32_t j = 0; j < ls->n; j++) {
                uint32_t fid = ls->fl[j];
                if (s->fmark[fid] == ep || s->frate[fid] < cut)
                    continue;
                const rx_flow_t *f = &s->f[fid];
                s->fmark[fid] = ep;
                if ((rc = rx_cflow_add(s, &nfl, fid)))
                    return rc;
                for (int k = 0; k < f->nh; k++)
                    if (s->ls[f->hop[k].link].mark != ep) {
                        s->ls[f->hop[k].link].mark = ep;
                        s->clinks[nl++] = f->hop[k].link;
                    }
            }
        }
    }
    s->ndl = 0;
    if (!nfl)
        return RX_OK;
    s->res->solves++;
    /* the links of the re-filled flows: capacity net of the flows that keep their rates */
    s->nheap = 0;
    for (uint32_t i = 0; i < nl; i++) {
        uint32_t l = s->clinks[i];
        rx_link_state_t *ls = &s->ls[l];
        double cap = ls->bw;
        uint32_t u = 0;
        for (uint32_t j = 0; j < ls->n; j++) {
            uint32_t fid = ls->fl[j];
            if (s->fmark[fid] == ep)
                u++;
            else
                cap -= s->frate[fid];
        }
        ls->rcap = cap > 0 ? cap : 0;
        ls->unf = u;
        ls->ver++;
        if (u && (rc = rx_heap_push(s, ls->rcap / u, l)))
            return rc;
    }
    while (s->nheap) {
        rx_solve_entry_t e = rx_heap_pop(s);
        uint32_t l = e.link;
        const rx_link_state_t *ls = &s->ls[l];
        if (!ls->unf)
            continue;
        if (e.ver != ls->ver) { /* its offer grew since the entry was made: back in at the current one */
            if ((rc = rx_heap_push(s, ls->rcap / ls->unf, l)))
                return rc;
            continue;
        }
        double share = ls->rcap / ls->unf;
        if (share < 0)
            share = 0;
        for (uint32_t j = 0; j < ls->n; j++) {
            uint32_t fid = ls->fl[j];
            if (s->fmark[fid] != ep || s->frozen[fid] == ep)
                continue;
            rx_flow_t *f = &s->f[fid];
            s->frozen[fid] = ep;
            f->nrate = share;
            for (int k = 0; k < f->nh; k++) {
                uint32_t l2 = f->hop[k].link;
                rx_link_state_t *x = &s->ls[l2];
                x->rcap -= share;
                x->unf--;
                x->ver++;
            }
        }
    }
    for (uint32_t i = 0; i < nfl; i++) {
        uint32_t fid = s->cflows[i];
        rx_flow_t *f = &s->f[fid];
        double rate = s->frate[fid];
        if (f->nrate == rate && rate > 0)
            continue;
        f->rem -= rate * (s->now - f->t_upd);
        if (f->rem < 0)
            f->rem = 0;
        f->t_upd = s->now;
        s->agg_rate += f->nrate - rate;
        s->frate[fid] = f->nrate;
        if ((rc = rx_sim_schedule_done(s, fid)))
            return rc;
    }
    if (s->agg_rate > s->peak_rate)
        s->peak_rate = s->agg_rate;
    if (s->live > s->sat_live) { /* the moment the most flows compete: the saturation throughput */
        s->sat_live = s->live;
        s->sat_rate = s->agg_rate;
    }
    return RX_OK;
}
