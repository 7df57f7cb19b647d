/* SPDX-License-Identifier: MIT
 * Per-flow routing for fat-trees, dragonflies and generic (loaded) fabrics. */
#include "route.h"
#include "util/log.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

static const char *rx_route_names[] = {"default", "dmodk", "ecmp", "minimal", "valiant", "ugal", "ugal-l"};

const char *rx_route_name(int algo)
{
    return algo >= 0 && algo < RX_ROUTE_NALGOS ? rx_route_names[algo] : "?";
}

int rx_route_parse(const rx_topo_t *t, const char *name, int *algo)
{
    for (int a = 0; a < RX_ROUTE_NALGOS; a++) {
        if (strcmp(name, rx_route_names[a]))
            continue;
        int df = a >= RX_ROUTE_MINIMAL;
        if (a != RX_ROUTE_DEFAULT && df != (t->family == RX_TOPO_DRAGONFLY)) {
            rx_log_error("rdmx-topo: routing \"%s\" does not apply to this fabric (%s); use %s", name, t->desc,
                         t->family == RX_TOPO_DRAGONFLY ? "minimal, valiant, ugal or ugal-l" : "dmodk or ecmp");
            return RX_ERR_INVAL;
        }
        *algo = a;
        return RX_OK;
    }
    rx_log_error("rdmx-topo: unknown routing \"%s\" (dmodk, ecmp, minimal, valiant, ugal, ugal-l)", name);
    return RX_ERR_INVAL;
}

/* ---- fat-trees ---- */

static int rx_route_fattree(const rx_router_t *r, uint32_t s, uint32_t d, uint32_t *path, int *nh)
{
    const rx_topo_t *t = r->t;
    const rx_fattree_params_t *p = &t->ft;
    int L = 1;
    while (L < p->levels && s / p->M[L] != d / p->M[L])
        L++;
    if (s / p->M[L] != d / p->M[L])
        return RX_ERR_INVAL;
    int n = 0;
    uint64_t ci = s; /* index within the current level */
    for (int l = 1; l <= L; l++) {
        uint64_t w = (uint64_t)p->up[l - 1], m = (uint64_t)p->down[l - 1];
        uint64_t k;
        if (w == 1)
            k = 0;
        else if (r->algo == RX_ROUTE_ECMP)
            k = rx_hash64(r->seed * 0x9e3779b97f4a7c15ULL ^ ((uint64_t)s << 32 | d) ^ ((uint64_t)l << 58)) % w;
        else
            k = (d / p->W[l - 1]) % w;
        const rx_topo_vertex_t *v = &t->v[p->first[l - 1] + ci];
        uint32_t ndown = l > 1 ? (uint32_t)p->down[l - 2] : 0;
        path[n++] = t->out[v->port0 + ndown + k];
        uint64_t D = ci / p->W[l - 1], U = ci % p->W[l - 1];
        ci = (D / m) * p->W[l] + U + p->W[l - 1] * k;
    }
    for (int l = L; l >= 1; l--) {
        uint64_t m = (uint64_t)p->down[l - 1];
        uint64_t c = (d / p->M[l - 1]) % m;
        const rx_topo_vertex_t *v = &t->v[p->first[l] + ci];
        path[n++] = t->out[v->port0 + c];
        uint64_t D = ci / p->W[l], U = ci % p->W[l];
        ci = (c + m * D) * p->W[l - 1] + U % p->W[l - 1];
    }
    *nh = n;
    return RX_OK;
}

/* ---- dragonflies ---- */

/* Router-to-router part of a minimal route from router ra to router rb (absolute router indices). */
static int rx_df_min(const rx_topo_t *t, uint32_t ra, uint32_t rb, uint64_t h, uint32_t *path)
{
    const rx_dragonfly_params_t *df = &t->df;
    uint32_t a = (uint32_t)df->a, N = t->nnodes;
    uint32_t ga = ra / a, gb = rb / a;
    int n = 0;
    if (ga == gb) {
        if (ra != rb)
            path[n++] = df->local[ra * a + rb % a];
        return n;
    }
    size_t pair = (size_t)ga * df->g + gb;
    uint32_t cnt = df->gidx[pair + 1] - df->gidx[pair];
    /* prefer a global link on the source router itself, otherwise spread by hash */
    uint32_t gl = df->glinks[df->gidx[pair] + h % cnt];
    for (uint32_t i = 0; i < cnt; i++) {
        uint32_t li = df->glinks[df->gidx[pair] + i];
        if (t->l[li].src - N == ra) {
            gl = li;
            break;
        }
    }
    uint32_t x = t->l[gl].src - N, y = t->l[gl].dst - N;
    if (x != ra)
        path[n++] = df->local[ra * a + x % a];
    path[n++] = gl;
    if (y != rb)
        path[n++] = df->local[y * a + rb % a];
    return n;
}

static uint32_t rx_route_load(const rx_router_t *r, uint32_t l)
{
    return r->load ? r->load[(size_t)l * (r->load_stride ? r->load_stride : 1)] : 0;
}

static double rx_path_cost(const rx_router_t *r, const uint32_t *path, int n)
{
    if (r->algo == RX_ROUTE_UGAL_L) /* what the source router knows: its own output */
        return n ? (rx_route_load(r, path[0]) + 1.0) / r->t->l[path[0]].bw * n : 0;
    double worst = 0;
    for (int i = 0; i < n; i++) {
        double c = (rx_route_load(r, path[i]) + 1.0) / r->t->l[path[i]].bw;
        if (c > worst)
            worst = c;
    }
    return worst * n;
}

static int rx_df_valiant(const rx_topo_t *t, uint32_t rs, uint32_t rd, uint64_t h, uint32_t *path)
{
    const rx_dragonfly_params_t *df = &t->df;
    uint32_t a = (uint32_t)df->a, g = (uint32_t)df->g;
    uint32_t gs = rs / a, gd = rd / a;
    if (gs == gd || g < 3)
        return rx_df_min(t, rs, rd, h, path);
    uint32_t gi = (uint32_t)(h % (g - 2));
    /* skip the source and destination groups */
    uint32_t lo = gs < gd ? gs : gd, hi = gs < gd ? gd : gs;
    if (gi >= lo)
        gi++;
    if (gi >= hi)
        gi++;
    /* Valiant to a group, not to a router: continue from where the global link lands */
    uint32_t ri = gi * a + (uint32_t)((h >> 20) % a);
    int n = rx_df_min(t, rs, ri, h >> 8, path);
    while (t->l[path[n - 1]].cls != RX_LC_GLOBAL)
        n--;
    uint32_t land = t->l[path[n - 1]].dst - t->nnodes;
    n += rx_df_min(t, land, rd, h >> 16, path + n);
    return n;
}

static int rx_route_dragonfly(const rx_router_t *r, uint32_t s, uint32_t d, uint64_t flow_id, uint32_t *path,
                              int *nh)
{
    const rx_topo_t *t = r->t;
    uint32_t N = t->nnodes, p = (uint32_t)t->df.p;
    uint32_t rs = s / p, rd = d / p;
    uint64_t h = rx_hash64(r->seed * 0x9e3779b97f4a7c15ULL ^ ((uint64_t)s << 40) ^ ((uint64_t)d << 16) ^ flow_id);
    uint64_t hp = rx_hash64(r->seed ^ ((uint64_t)s << 32 | d)); /* per pair: global-link choice */
    uint32_t mid[2][RX_ROUTE_MAXHOPS];
    int n = 0;
    path[n++] = rx_topo_inject(t, s);
    int algo = r->algo == RX_ROUTE_DEFAULT ? RX_ROUTE_MINIMAL : r->algo;
    int m;
    if (algo == RX_ROUTE_MINIMAL) {
        m = rx_df_min(t, rs, rd, hp, path + n);
    } else if (algo == RX_ROUTE_VALIANT) {
        m = rx_df_valiant(t, rs, rd, h, path + n);
    } else {
        m = rx_df_min(t, rs, rd, hp, path + n);
        if (rs / t->df.a != rd / t->df.a) {
            double best = rx_path_cost(r, path + n, m);
            for (int c = 0; c < 2; c++) {
                int mv = rx_df_valiant(t, rs, rd, rx_hash64(h + (uint64_t)c), mid[c]);
                double cost = rx_path_cost(r, mid[c], mv);
                if (cost < best) {
                    best = cost;
                    memcpy(path + n, mid[c], (size_t)mv * sizeof *path);
                    m = mv;
                }
            }
        }
    }
    n += m;
    path[n++] = rx_topo_eject(t, d);
    (void)N;
    *nh = n;
    return RX_OK;
}

/* ---- generic fabrics: shortest paths ---- */

int rx_route_prepare(rx_topo_t *t)
{
    if (t->dist)
        return RX_OK;
    uint32_t N = t->nnodes, S = t->nverts - N;
    uint16_t *dist = malloc((size_t)S * N * sizeof *dist);
    uint32_t *queue = malloc((size_t)t->nverts * sizeof *queue);
    uint16_t *dv = malloc((size_t)t->nverts * sizeof *dv);
    if (!dist || !queue || !dv) {
        free(dist);
        free(queue);
        free(dv);
        return RX_ERR_NOMEM;
    }
    for (uint32_t n = 0; n < N; n++) {
        memset(dv, 0xff, (size_t)t->nverts * sizeof *dv);
        uint32_t qh = 0, qt = 0;
        queue[qt++] = n;
        dv[n] = 0;
        while (qh < qt) {
            uint32_t v = queue[qh++];
            if (v != n && t->v[v].kind == RX_TOPO_NODE)
                continue; /* nodes do not forward */
            const rx_topo_vertex_t *x = &t->v[v];
            for (uint32_t i = 0; i < x->nports; i++) {
                uint32_t w = t->l[t->out[x->port0 + i]].dst;
                if (dv[w] == 0xffff) {
                    dv[w] = dv[v] + 1;
                    queue[qt++] = w;
                }
            }
        }
        for (uint32_t sw = 0; sw < S; sw++)
            dist[(size_t)sw * N + n] = dv[N + sw];
    }
    free(queue);
    free(dv);
    t->dist = dist;
    return RX_OK;
}

static int rx_route_generic(const rx_router_t *r, uint32_t s, uint32_t d, uint32_t *path, int *nh)
{
    rx_topo_t *t = r->t;
    uint32_t N = t->nnodes;
    int rc = rx_route_prepare(t);
    if (rc)
        return rc;
    uint32_t cur = s;
    int n = 0;
    for (;;) {
        const rx_topo_vertex_t *x = &t->v[cur];
        uint32_t cand[64], nc = 0, best = 0xffff;
        for (uint32_t i = 0; i < x->nports; i++) {
            uint32_t li = t->out[x->port0 + i], w = t->l[li].dst;
            uint32_t dw = w == d ? 0 : w < N ? 0xffff : t->dist[(size_t)(w - N) * N + d];
            if (dw < best) {
                best = dw;
                nc = 0;
            }
            if (dw == best && dw != 0xffff && nc < 64)
                cand[nc++] = li;
        }
        if (!nc || n >= RX_ROUTE_MAXHOPS) {
            rx_log_error("rdmx-topo: no route from node %u to node %u%s", s, d,
                         n >= RX_ROUTE_MAXHOPS ? " within the hop limit" : "");
            return RX_ERR_NOTFOUND;
        }
        uint64_t pick = r->algo == RX_ROUTE_ECMP
                            ? rx_hash64(r->seed * 0x9e3779b97f4a7c15ULL ^ ((uint64_t)s << 32 | d) ^ ((uint64_t)n << 58))
                            : d;
        uint32_t li = cand[pick % nc];
        path[n++] = li;
        cur = t->l[li].dst;
        if (cur == d)
            break;
    }
    *nh = n;
    return RX_OK;
}

int rx_route(const rx_router_t *r, uint32_t src, uint32_t dst, uint64_t flow_id, uint32_t *path, int *nhops)
{
    if (src == dst || src >= r->t->nnodes || dst >= r->t->nnodes)
        return RX_ERR_INVAL;
    switch (r->t->family) {
    case RX_TOPO_FATTREE: return rx_route_fattree(r, src, dst, path, nhops);
    case RX_TOPO_DRAGONFLY: return rx_route_dragonfly(r, src, dst, flow_id, path, nhops);
    default: return rx_route_generic(r, src, dst, path, nhops);
    }
}

int rx_route_distance(rx_topo_t *t, uint32_t s, uint32_t d)
{
    if (s == d)
        return 0;
    if (t->family == RX_TOPO_FATTREE) {
        int L = 1;
        while (L < t->ft.levels && s / t->ft.M[L] != d / t->ft.M[L])
            L++;
        return 2 * L;
    }
    if (t->family == RX_TOPO_DRAGONFLY) {
        const rx_dragonfly_params_t *df = &t->df;
        uint32_t a = (uint32_t)df->a, N = t->nnodes;
        uint32_t rs = s / (uint32_t)df->p, rd = d / (uint32_t)df->p;
        if (rs == rd)
            return 2;
        if (rs / a == rd / a)
            return 3;
        size_t pair = (size_t)(rs / a) * df->g + rd / a;
        int best = 99;
        for (uint32_t i = df->gidx[pair]; i < df->gidx[pair + 1]; i++) {
            const rx_topo_link_t *l = &t->l[df->glinks[i]];
            int hops = 3 + (l->src - N != rs) + (l->dst - N != rd);
            if (hops < best)
                best = hops;
        }
        return best;
    }
    if (rx_route_prepare(t))
        return -1;
    int best = 0xffff;
    const rx_topo_vertex_t *x = &t->v[s];
    for (uint32_t i = 0; i < x->nports; i++) {
        uint32_t w = t->l[t->out[x->port0 + i]].dst;
        int dw = w == d ? 0 : w < t->nnodes ? 0xffff : t->dist[(size_t)(w - t->nnodes) * t->nnodes + d];
        if (dw + 1 < best)
            best = dw + 1;
    }
    return best >= 0xffff ? -1 : best;
}
