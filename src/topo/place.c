/* SPDX-License-Identifier: MIT
 * Rank placement methods (linear, random, Slurm-style best fit, Scotch graph mapping), scoring and
 * hostfiles. See place.h. */
#include "place.h"
#include "names.h"
#include "route.h"
#include "scotch_graph.h"
#include "util/log.h"
#include "util/status.h"
#include "util/timer.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <scotch.h>

static const char *rx_place_names[] = {"linear", "random", "bestfit", "scotch", "spread", "auto"};

int rx_place_method_parse(const char *name, int *method)
{
    for (int i = 0; i < RX_PLACE_NMETHODS; i++)
        if (!strcmp(name, rx_place_names[i])) {
            *method = i;
            return RX_OK;
        }
    rx_log_error("rdmx-topo: unknown placement method \"%s\" (linear, random, bestfit, scotch, spread, auto)", name);
    return RX_ERR_INVAL;
}

const char *rx_place_method_name(int m)
{
    return m >= 0 && m < RX_PLACE_NMETHODS ? rx_place_names[m] : "?";
}

static const char *rx_node_name(const rx_topo_t *t, uint32_t n, char *buf, size_t len)
{
    if (t->v[n].name)
        return t->v[n].name;
    snprintf(buf, len, "n%u", n);
    return buf;
}

/* ---- free node lists ---- */

typedef struct rx_free_ctx {
    const rx_topo_t *t;
    rx_names_t names;
    uint32_t *nodes, n, cap;
    unsigned char *used;
} rx_free_ctx_t;

static int rx_free_push(rx_free_ctx_t *c, uint32_t id)
{
    if (c->used[id])
        return RX_OK; /* listed twice: once is enough */
    c->used[id] = 1;
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 256;
        uint32_t *x = realloc(c->nodes, c->cap * sizeof *x);
        if (!x)
            return RX_ERR_NOMEM;
        c->nodes = x;
    }
    c->nodes[c->n++] = id;
    return RX_OK;
}

static int rx_free_name(const char *name, void *arg)
{
    rx_free_ctx_t *c = arg;
    uint32_t id = rx_names_get(&c->names, name);
    if (id == UINT32_MAX) {
        rx_log_error("rdmx-topo: free node \"%s\" is not in the fabric", name);
        return RX_ERR_NOTFOUND;
    }
    return rx_free_push(c, id);
}

int rx_place_parse_free(const rx_topo_t *t, const char *list, uint32_t **nodes, uint32_t *n)
{
    rx_free_ctx_t c = {.t = t};
    int rc = RX_OK;
    if (!(c.used = calloc(t->nnodes, 1)))
        return RX_ERR_NOMEM;
    if (isdigit((unsigned char)list[0])) {
        const char *p = list;
        while (*p && !rc) {
            char *end;
            unsigned long lo = strtoul(p, &end, 10), hi = lo;
            if (end == p)
                break;
            if (*end == '-')
                hi = strtoul(end + 1, &end, 10);
            if (hi < lo || hi >= t->nnodes || (*end && *end != ',')) {
                rx_log_error("rdmx-topo: free list \"%s\": ranges of node ids below %u expected", list, t->nnodes);
                rc = RX_ERR_INVAL;
                break;
            }
            for (unsigned long i = lo; i <= hi && !rc; i++)
                rc = rx_free_push(&c, (uint32_t)i);
            p = *end ? end + 1 : end;
        }
    } else {
        char buf[64];
        for (uint32_t i = 0; i < t->nnodes && !rc; i++)
            rc = rx_names_put(&c.names, rx_node_name(t, i, buf, sizeof buf), i);
        if (!rc) {
            rc = rx_hostlist_expand(list, rx_free_name, &c);
            if (rc == RX_ERR_INVAL)
                rx_log_error("rdmx-topo: bad hostlist \"%s\"", list);
        }
    }
    rx_names_free(&c.names);
    free(c.used);
    if (rc) {
        free(c.nodes);
        return rc;
    }
    *nodes = c.nodes;
    *n = c.n;
    return RX_OK;
}

/* ---- switch hierarchy: dom[l * N + node] names the level-l subtree holding the node ---- */

typedef struct rx_hier {
    int nlev;
    uint32_t *dom;
} rx_hier_t;

static int rx_hier_build(rx_topo_t *t, rx_hier_t *h)
{
    uint32_t N = t->nnodes;
    int nlev = t->family == RX_TOPO_FATTREE ? t->ft.levels : t->family == RX_TOPO_DRAGONFLY ? 3 : 0;
    if (t->family == RX_TOPO_GENERIC) {
        /* leaf switch, then each switch's first neighbour one step further from the nodes */
        if (rx_route_prepare(t))
            return RX_ERR_NOMEM;
        nlev = 1;
        uint32_t S = t->nverts - N;
        uint32_t *height = malloc(S * sizeof *height), *parent = malloc(S * sizeof *parent);
        if (!height || !parent) {
            free(height);
            free(parent);
            return RX_ERR_NOMEM;
        }
        for (uint32_t s = 0; s < S; s++) {
            uint32_t best = UINT32_MAX;
            for (uint32_t n = 0; n < N; n++)
                if (t->dist[(size_t)s * N + n] < best)
                    best = t->dist[(size_t)s * N + n];
            height[s] = best;
        }
        for (uint32_t s = 0; s < S; s++) {
            parent[s] = UINT32_MAX;
            const rx_topo_vertex_t *v = &t->v[N + s];
            for (uint32_t i = 0; i < v->nports; i++) {
                uint32_t w = t->l[t->out[v->port0 + i]].dst;
                if (w >= N && height[w - N] == height[s] + 1) {
                    parent[s] = w - N;
                    break;
                }
            }
        }
        int depth = 1;
        for (uint32_t n = 0; n < N; n++) {
            uint32_t s = t->l[rx_topo_inject(t, n)].dst - N;
            int d = 1;
            while (parent[s] != UINT32_MAX && d < 16) {
                s = parent[s];
                d++;
            }
            if (d > depth)
                depth = d;
        }
        nlev = depth + 1;
        h->dom = malloc((size_t)nlev * N * sizeof *h->dom);
        if (!h->dom) {
            free(height);
            free(parent);
            return RX_ERR_NOMEM;
        }
        for (uint32_t n = 0; n < N; n++) {
            uint32_t s = t->l[rx_topo_inject(t, n)].dst - N;
            for (int l = 0; l < nlev - 1; l++) {
                h->dom[(size_t)l * N + n] = s;
                if (parent[s] != UINT32_MAX)
                    s = parent[s];
            }
            h->dom[(size_t)(nlev - 1) * N + n] = 0;
        }
        free(height);
        free(parent);
        h->nlev = nlev;
        return RX_OK;
    }
    h->nlev = nlev;
    h->dom = malloc((size_t)nlev * N * sizeof *h->dom);
    if (!h->dom)
        return RX_ERR_NOMEM;
    for (uint32_t n = 0; n < N; n++) {
        for (int l = 0; l < nlev; l++) {
            uint32_t d;
            if (t->family == RX_TOPO_FATTREE)
                d = (uint32_t)(n / t->ft.M[l + 1]);
            else
                d = l == 0 ? n / (uint32_t)t->df.p : l == 1 ? n / (uint32_t)(t->df.p * t->df.a) : 0;
            h->dom[(size_t)l * N + n] = d;
        }
    }
    return RX_OK;
}

/* Slurm's tree policy: the lowest level whose some subtree holds n free nodes, the best-fitting
 * such subtree, then its leaf switches fullest first (fewest leaves, fewest crossings). */
static int rx_place_bestfit(rx_topo_t *t, uint32_t n, const uint32_t *fr, uint32_t nfree, uint32_t *out)
{
    rx_hier_t h = {0};
    int rc = rx_hier_build(t, &h);
    if (rc)
        return rc;
    uint32_t N = t->nnodes;
    uint32_t *cnt = calloc((size_t)t->nverts + 1, sizeof *cnt);
    if (!cnt) {
        free(h.dom);
        return RX_ERR_NOMEM;
    }
    int lev = -1;
    uint32_t dom = 0;
    for (int l = 0; l < h.nlev && lev < 0; l++) {
        memset(cnt, 0, ((size_t)t->nverts + 1) * sizeof *cnt);
        for (uint32_t i = 0; i < nfree; i++)
            cnt[h.dom[(size_t)l * N + fr[i]]]++;
        uint32_t best = UINT32_MAX;
        for (uint32_t i = 0; i < nfree; i++) {
            uint32_t d = h.dom[(size_t)l * N + fr[i]];
            if (cnt[d] >= n && (cnt[d] < best || (cnt[d] == best && d < dom))) {
                best = cnt[d];
                dom = d;
                lev = l;
            }
        }
    }
    if (lev < 0) {
        rx_log_error("rdmx-topo: %u ranks do not fit on %u free nodes", n, nfree);
        free(cnt);
        free(h.dom);
        return RX_ERR_INVAL;
    }
    /* leaves of the chosen subtree, fullest first */
    memset(cnt, 0, ((size_t)t->nverts + 1) * sizeof *cnt);
    uint32_t *cand = malloc(nfree * sizeof *cand), nc = 0;
    if (!cand) {
        free(cnt);
        free(h.dom);
        return RX_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < nfree; i++)
        if (h.dom[(size_t)lev * N + fr[i]] == dom) {
            cand[nc++] = fr[i];
            cnt[h.dom[fr[i]]]++;
        }
    /* selection by repeated scans: leaves are few compared with nodes */
    uint32_t k = 0;
    while (k < n) {
        uint32_t bestleaf = UINT32_MAX, bc = 0;
        for (uint32_t i = 0; i < nc; i++) {
            uint32_t lf = h.dom[cand[i]];
            if (cnt[lf] > bc || (cnt[lf] == bc && bc && lf < bestleaf)) {
                bc = cnt[lf];
                bestleaf = lf;
            }
        }
        for (uint32_t i = 0; i < nc && k < n; i++)
            if (h.dom[cand[i]] == bestleaf)
                out[k++] = cand[i];
        cnt[bestleaf] = 0;
    }
    /* ranks in node order inside the allocation, as Slurm hands them out */
    for (uint32_t i = 1; i < n; i++) {
        uint32_t x = out[i], j = i;
        while (j > 0 && out[j - 1] > x) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = x;
    }
    free(cand);
    free(cnt);
    free(h.dom);
    return RX_OK;
}

/* ---- Scotch ---- */

static int rx_place_scotch(rx_topo_t *t, const rx_commat_t *m, const uint32_t *nodes, uint32_t n, uint32_t *map)
{
    /* symmetric rank graph, edge weight = bytes both ways, scaled into Scotch's integers */
    rx_commat_t sym = {.n = m->n};
    int rc = RX_ERR_NOMEM;
    SCOTCH_Num *vert = NULL, *edge = NULL, *edlo = NULL, *part = NULL, *list = NULL;
    for (uint32_t i = 0; i < m->nnz; i++)
        if ((rc = rx_commat_push(&sym, m->src[i], m->dst[i], 0, m->bytes[i])) ||
            (rc = rx_commat_push(&sym, m->dst[i], m->src[i], 0, m->bytes[i])))
            goto out;
    if ((rc = rx_commat_sort(&sym)))
        goto out;
    rc = RX_ERR_NOMEM;
    double wmax = 0;
    for (uint32_t i = 0; i < sym.nnz; i++)
        if (sym.bytes[i] > wmax)
            wmax = sym.bytes[i];
    vert = malloc((n + 1) * sizeof *vert);
    edge = malloc((sym.nnz + 1) * sizeof *edge);
    edlo = malloc((sym.nnz + 1) * sizeof *edlo);
    part = malloc(n * sizeof *part);
    list = malloc(n * sizeof *list);
    if (!vert || !edge || !edlo || !part || !list)
        goto out;
    uint32_t k = 0;
    for (uint32_t r = 0; r < n; r++) {
        vert[r] = k;
        while (k < sym.nnz && sym.src[k] == r) {
            edge[k] = sym.dst[k];
            edlo[k] = (SCOTCH_Num)fmax(1, llround(sym.bytes[k] / wmax * 1e6));
            k++;
        }
    }
    vert[n] = k;
    for (uint32_t i = 0; i < n; i++)
        list[i] = nodes[i];
    SCOTCH_Graph g;
    SCOTCH_Arch full, sub;
    SCOTCH_Strat st;
    SCOTCH_Graph fg;
    rx_scotch_graph_t fsg = {0};
    SCOTCH_graphInit(&g);
    SCOTCH_stratInit(&st);
    SCOTCH_archInit(&full);
    SCOTCH_archInit(&sub);
    SCOTCH_graphInit(&fg);
    rc = RX_ERR_INTERN;
    if (SCOTCH_graphBuild(&g, 0, n, vert, vert + 1, NULL, NULL, k, edge, edlo)) {
        rx_log_error("rdmx-topo: Scotch rejected the communication graph");
        goto scotch_out;
    }
    int use_sub = 1;
    if (t->family == RX_TOPO_FATTREE || t->family == RX_TOPO_DRAGONFLY) {
        SCOTCH_Num size[RX_FT_MAXLEVEL], link[RX_FT_MAXLEVEL], nl;
        if (t->family == RX_TOPO_FATTREE) {
            nl = t->ft.levels;
            for (int i = 0; i < nl; i++) {
                size[i] = t->ft.down[nl - 1 - i];
                link[i] = 2 * (nl - i); /* hops between two leaves parted at this level */
            }
        } else {
            nl = 3;
            size[0] = t->df.g; link[0] = 5;
            size[1] = t->df.a; link[1] = 3;
            size[2] = t->df.p; link[2] = 2;
        }
        if (SCOTCH_archTleaf(&full, nl, size, link)) {
            rx_log_error("rdmx-topo: Scotch rejected the tree architecture");
            goto scotch_out;
        }
    } else {
        /* loaded fabric: Scotch derives distances from the fabric graph itself */
        if ((rc = rx_scotch_graph_build(t, &fsg)))
            goto scotch_out;
        rc = RX_ERR_INTERN;
        if (SCOTCH_graphBuild(&fg, 0, fsg.nverts, fsg.vert, fsg.vert + 1, NULL, NULL, fsg.narcs, fsg.edge, NULL) ||
            SCOTCH_archBuild2(&full, &fg, n, list)) {
            rx_log_error("rdmx-topo: Scotch could not build an architecture from the fabric");
            goto scotch_out;
        }
        use_sub = 0;
    }
    if (use_sub && SCOTCH_archSub(&sub, &full, n, list)) {
        rx_log_error("rdmx-topo: Scotch could not restrict the architecture to the free nodes");
        goto scotch_out;
    }
    if (SCOTCH_stratGraphMapBuild(&st, SCOTCH_STRATQUALITY, n, 0.0) ||
        SCOTCH_graphMap(&g, use_sub ? &sub : &full, &st, part)) {
        rx_log_error("rdmx-topo: Scotch mapping failed");
        goto scotch_out;
    }
    /* terminals are indices into the node list; make the mapping one rank per node */
    {
        unsigned char *taken = calloc(n, 1);
        uint32_t *spill = malloc(n * sizeof *spill), ns = 0;
        if (!taken || !spill) {
            free(taken);
            free(spill);
            rc = RX_ERR_NOMEM;
            goto scotch_out;
        }
        for (uint32_t r = 0; r < n; r++) {
            SCOTCH_Num p = part[r];
            if (p < 0 || (uint32_t)p >= n || taken[p])
                spill[ns++] = r;
            else {
                taken[p] = 1;
                map[r] = nodes[p];
            }
        }
        /* a rank that lost its node goes to the nearest unused one */
        for (uint32_t i = 0; i < ns; i++) {
            uint32_t r = spill[i], want = part[r] >= 0 && (uint32_t)part[r] < n ? nodes[part[r]] : nodes[0];
            int bd = 1 << 30;
            uint32_t bj = 0;
            for (uint32_t j = 0; j < n; j++) {
                if (taken[j])
                    continue;
                int d = rx_route_distance(t, want, nodes[j]);
                if (d < bd) {
                    bd = d;
                    bj = j;
                }
            }
            taken[bj] = 1;
            map[r] = nodes[bj];
        }
        free(taken);
        free(spill);
    }
    rc = RX_OK;
scotch_out:
    SCOTCH_graphExit(&g);
    SCOTCH_graphExit(&fg);
    SCOTCH_archExit(&sub);
    SCOTCH_archExit(&full);
    SCOTCH_stratExit(&st);
    rx_scotch_graph_free(&fsg);
out:
    rx_commat_free(&sym);
    free(vert);
    free(edge);
    free(edlo);
    free(part);
    free(list);
    return rc;
}

/* The top-level domain of a node: its dragonfly group, its top subtree, or its switch. */
static uint32_t rx_place_domain(const rx_topo_t *t, uint32_t n)
{
    if (t->family == RX_TOPO_DRAGONFLY)
        return n / (uint32_t)t->df.p / (uint32_t)t->df.a;
    if (t->family == RX_TOPO_FATTREE && t->ft.levels > 1)
        return (uint32_t)(n / t->ft.M[t->ft.levels - 1]);
    return t->l[rx_topo_inject(t, n)].dst;
}

/* Round-robin over the domains, each domain's free nodes in list order. */
static int rx_place_spread(const rx_topo_t *t, uint32_t n, const uint32_t *fr, uint32_t nfree, uint32_t *map)
{
    uint32_t *dom = malloc(nfree * sizeof *dom), *ord = malloc(nfree * sizeof *ord);
    uint32_t *head = calloc(t->nverts + 1, sizeof *head), *pos = calloc(t->nverts + 1, sizeof *pos);
    int rc = dom && ord && head && pos ? RX_OK : RX_ERR_NOMEM;
    for (uint32_t i = 0; !rc && i < nfree; i++) {
        dom[i] = rx_place_domain(t, fr[i]);
        head[dom[i] + 1]++;
    }
    for (uint32_t d = 0; !rc && d < t->nverts; d++)
        head[d + 1] += head[d];
    for (uint32_t i = 0; !rc && i < nfree; i++)
        ord[head[dom[i]] + pos[dom[i]]++] = fr[i];
    for (uint32_t d = 0; !rc && d < t->nverts; d++)
        pos[d] = 0;
    for (uint32_t k = 0, d = 0; !rc && k < n; d = d + 1 == t->nverts ? 0 : d + 1)
        if (head[d] + pos[d] < head[d + 1])
            map[k++] = ord[head[d] + pos[d]++];
    free(dom);
    free(ord);
    free(head);
    free(pos);
    return rc;
}

int rx_place_best(rx_topo_t *t, const rx_commat_t *m, const rx_workload_t *w, const rx_sim_opts_t *so,
                  const uint32_t *fr, uint32_t nfree, uint64_t seed, uint32_t *map, int *chosen)
{
    uint32_t n = m->n, *cand = malloc(n * sizeof *cand);
    if (!cand)
        return RX_ERR_NOMEM;
    double best = INFINITY, best_hb = INFINITY;
    int rc = RX_OK;
    *chosen = -1;
    for (int c = 0; c < RX_PLACE_AUTO && !rc; c++) {
        if (c == RX_PLACE_SCOTCH && !m->nnz)
            continue; /* no matrix to map */
        rx_place_score_t sc = {0};
        if ((rc = rx_place_map(t, m, c, fr, nfree, seed, cand)) || (rc = rx_place_score(t, m, cand, so ? so->algo : 0, &sc)))
            break;
        double v = sc.max_link_time;
        if (w && so) {
            rx_sim_opts_t o = *so;
            rx_sim_result_t res;
            o.rank_node = cand;
            o.progress = 0;
            if ((rc = rx_sim_run(t, w, &o, &res)))
                break;
            v = res.time;
            rx_sim_result_free(&res);
        }
        if (v < best * (1 - 1e-9) || (v <= best * (1 + 1e-9) && sc.hop_bytes < best_hb)) {
            best = v;
            best_hb = sc.hop_bytes;
            *chosen = c;
            memcpy(map, cand, n * sizeof *map);
        }
    }
    free(cand);
    return rc;
}

int rx_place_map(rx_topo_t *t, const rx_commat_t *m, int method, const uint32_t *fr, uint32_t nfree, uint64_t seed,
                 uint32_t *map)
{
    uint32_t n = m->n, *all = NULL;
    if (!fr) {
        if (!(all = malloc(t->nnodes * sizeof *all)))
            return RX_ERR_NOMEM;
        for (uint32_t i = 0; i < t->nnodes; i++)
            all[i] = i;
        fr = all;
        nfree = t->nnodes;
    }
    int rc = RX_OK;
    if (n > nfree) {
        rx_log_error("rdmx-topo: %u ranks do not fit on %u free nodes (one rank per node)", n, nfree);
        rc = RX_ERR_INVAL;
    } else if (method == RX_PLACE_LINEAR) {
        memcpy(map, fr, n * sizeof *map);
    } else if (method == RX_PLACE_RANDOM) {
        uint32_t *p = malloc(nfree * sizeof *p);
        if (!p)
            rc = RX_ERR_NOMEM;
        else {
            memcpy(p, fr, nfree * sizeof *p);
            uint64_t s = seed * 0x9e3779b97f4a7c15ULL + 3;
            for (uint32_t i = nfree - 1; i > 0; i--) {
                s += 0x9e3779b97f4a7c15ULL;
                uint32_t j = (uint32_t)(rx_hash64(s) % (i + 1));
                uint32_t x = p[i];
                p[i] = p[j];
                p[j] = x;
            }
            memcpy(map, p, n * sizeof *map);
            free(p);
        }
    } else if (method == RX_PLACE_BESTFIT) {
        rc = rx_place_bestfit(t, n, fr, nfree, map);
    } else if (method == RX_PLACE_SPREAD) {
        rc = rx_place_spread(t, n, fr, nfree, map);
    } else if (method == RX_PLACE_AUTO) {
        int chosen;
        rc = rx_place_best(t, m, NULL, NULL, fr, nfree, seed, map, &chosen);
    } else {
        uint32_t *sel = malloc(n * sizeof *sel);
        if (!sel)
            rc = RX_ERR_NOMEM;
        else {
            rc = rx_place_bestfit(t, n, fr, nfree, sel);
            if (!rc)
                rc = rx_place_scotch(t, m, sel, n, map);
            free(sel);
        }
    }
    free(all);
    return rc;
}

int rx_place_link_bytes(rx_topo_t *t, const rx_commat_t *m, const uint32_t *map, int algo, double *lb,
                        double *hop_bytes)
{
    rx_router_t r = {.t = t, .algo = algo, .seed = 1};
    for (uint32_t i = 0; i < m->nnz; i++) {
        uint32_t a = map[m->src[i]], b = map[m->dst[i]];
        if (a == b)
            continue;
        uint32_t path[RX_ROUTE_MAXHOPS];
        int nh;
        int rc = rx_route(&r, a, b, i, path, &nh);
        if (rc)
            return rc;
        if (hop_bytes)
            *hop_bytes += m->bytes[i] * nh;
        for (int k = 0; k < nh; k++)
            lb[path[k]] += m->bytes[i];
    }
    return RX_OK;
}

static int rx_place_score_bg(rx_topo_t *t, const rx_commat_t *m, const uint32_t *map, int algo, const double *bg,
                             rx_place_score_t *s)
{
    double *lb = calloc(t->nlinks, sizeof *lb);
    if (!lb)
        return RX_ERR_NOMEM;
    if (bg) /* jobs already running: their bytes are on the links before this one's */
        memcpy(lb, bg, t->nlinks * sizeof *lb);
    s->hop_bytes = 0;
    int rc = rx_place_link_bytes(t, m, map, algo, lb, &s->hop_bytes);
    if (rc) {
        free(lb);
        return rc;
    }
    s->max_link_bytes = s->max_link_time = 0;
    for (uint32_t l = 0; l < t->nlinks; l++) {
        if (t->l[l].cls == RX_LC_HOST)
            continue;
        if (lb[l] / t->l[l].bw > s->max_link_time) {
            s->max_link_time = lb[l] / t->l[l].bw;
            s->max_link_bytes = lb[l];
        }
    }
    free(lb);
    return RX_OK;
}

int rx_place_score(rx_topo_t *t, const rx_commat_t *m, const uint32_t *map, int algo, rx_place_score_t *s)
{
    return rx_place_score_bg(t, m, map, algo, NULL, s);
}

int rx_place_write_hostfile(const rx_topo_t *t, const uint32_t *map, uint32_t n, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        rx_log_error("%s: %s", path, strerror(errno));
        return RX_ERR_IO;
    }
    char buf[64];
    for (uint32_t r = 0; r < n; r++)
        fprintf(f, "%s\n", rx_node_name(t, map[r], buf, sizeof buf));
    int bad = ferror(f);
    if (fclose(f) || bad) {
        rx_log_error("%s: write failed", path);
        return RX_ERR_IO;
    }
    return RX_OK;
}

int rx_place_run(rx_topo_t *t, const rx_commat_t *m, const rx_workload_t *w, const rx_place_opts_t *o, FILE *out)
{
    int methods[RX_PLACE_NMETHODS], nm = 0, rc = RX_OK;
    if (!strcmp(o->method, "all")) {
        for (int i = 0; i < RX_PLACE_NMETHODS; i++)
            methods[nm++] = i;
    } else if ((rc = rx_place_method_parse(o->method, &methods[0]))) {
        return rc;
    } else {
        nm = 1;
    }
    uint32_t *fr = NULL, nfree = 0;
    if (o->free_nodes) {
        if (!(fr = malloc((o->nfree + 1) * sizeof *fr)))
            return RX_ERR_NOMEM;
        memcpy(fr, o->free_nodes, o->nfree * sizeof *fr);
        nfree = o->nfree;
    } else if (o->free_list && (rc = rx_place_parse_free(t, o->free_list, &fr, &nfree)))
        return rc;
    uint32_t *maps = malloc((size_t)nm * m->n * sizeof *maps);
    rx_place_score_t sc[RX_PLACE_NMETHODS] = {0};
    if (!maps) {
        free(fr);
        return RX_ERR_NOMEM;
    }
    fprintf(out, "fabric      %s\nranks       %u on %u free nodes, %u matrix entries\n", t->desc, m->n,
            fr ? nfree : t->nnodes, m->nnz);
    fprintf(out, "%-16s %14s %16s %14s %14s %10s\n", "method", "hop-bytes", "max-link-bytes", "max-link-time",
            o->simulate ? "sim-time" : "", "map-time");
    int best = -1;
    for (int i = 0; i < nm && !rc; i++) {
        uint32_t *map = maps + (size_t)i * m->n;
        double t0 = rx_time_now();
        int chosen = -1;
        if (methods[i] == RX_PLACE_AUTO)
            rc = rx_place_best(t, m, o->simulate ? w : NULL, &o->sim, fr, nfree, o->seed, map, &chosen);
        else
            rc = rx_place_map(t, m, methods[i], fr, nfree, o->seed, map);
        sc[i].map_seconds = rx_time_now() - t0;
        if (!rc)
            rc = rx_place_score_bg(t, m, map, o->sim.algo, o->background, &sc[i]);
        if (!rc && o->simulate && w) {
            rx_sim_opts_t so = o->sim;
            so.rank_node = map;
            rx_sim_result_t res;
            rc = rx_sim_run(t, w, &so, &res);
            if (!rc) {
                sc[i].sim_time = res.time;
                rx_sim_result_free(&res);
            }
        }
        if (rc)
            break;
        char simcol[32] = "";
        if (o->simulate)
            snprintf(simcol, sizeof simcol, "%.6g", sc[i].sim_time);
        char nm[40];
        snprintf(nm, sizeof nm, "%s%s%s%s", rx_place_method_name(methods[i]), chosen >= 0 ? "(" : "",
                 chosen >= 0 ? rx_place_method_name(chosen) : "", chosen >= 0 ? ")" : "");
        fprintf(out, "%-16s %14.6g %16.6g %14.6g %14s %10.3f\n", nm, sc[i].hop_bytes,
                sc[i].max_link_bytes, sc[i].max_link_time, simcol, sc[i].map_seconds);
        /* best: simulated time when simulated, else busiest-link time, then hop-bytes */
        if (best < 0)
            best = i;
        else {
            double a = o->simulate ? sc[i].sim_time : sc[i].max_link_time;
            double b = o->simulate ? sc[best].sim_time : sc[best].max_link_time;
            if (a < b * (1 - 1e-9) || (a <= b * (1 + 1e-9) && sc[i].hop_bytes < sc[best].hop_bytes))
                best = i;
        }
    }
    if (!rc && o->hostfile && best >= 0) {
        rc = rx_place_write_hostfile(t, maps + (size_t)best * m->n, m->n, o->hostfile);
        if (!rc)
            fprintf(out, "hostfile    %s (%s)\n", o->hostfile, rx_place_method_name(methods[best]));
    }
    free(maps);
    free(fr);
    return rc;
}

int rx_place_from_option(rx_topo_t *t, const rx_workload_t *w, const char *spec, const char *free_list, uint64_t seed,
                         const rx_sim_opts_t *so, uint32_t **mapp)
{
    uint32_t *map = malloc(w->nranks * sizeof *map);
    if (!map)
        return RX_ERR_NOMEM;
    int rc = RX_OK;
    if (!strncmp(spec, "hostfile:", 9)) {
        const char *path = spec + 9;
        FILE *f = fopen(path, "r");
        if (!f) {
            rx_log_error("%s: %s", path, strerror(errno));
            free(map);
            return RX_ERR_IO;
        }
        rx_names_t names = {0};
        char nb[64], *buf = NULL;
        size_t bcap = 0;
        for (uint32_t i = 0; i < t->nnodes && !rc; i++)
            rc = rx_names_put(&names, rx_node_name(t, i, nb, sizeof nb), i);
        uint32_t r = 0;
        int line = 0;
        while (!rc && r < w->nranks && getline(&buf, &bcap, f) >= 0) {
            line++;
            buf[strcspn(buf, " \t\r\n:#")] = 0; /* "host", "host:slots" */
            if (!*buf)
                continue;
            uint32_t id = rx_names_get(&names, buf);
            if (id == UINT32_MAX) {
                rx_log_error("%s:%d: host \"%s\" is not in the fabric", path, line, buf);
                rc = RX_ERR_NOTFOUND;
            } else {
                map[r++] = id;
            }
        }
        if (!rc && r < w->nranks) {
            rx_log_error("%s: %u hosts for %u ranks", path, r, w->nranks);
            rc = RX_ERR_INVAL;
        }
        free(buf);
        fclose(f);
        rx_names_free(&names);
    } else {
        int method;
        rx_commat_t m = {0};
        uint32_t *fr = NULL, nfree = 0;
        rc = rx_place_method_parse(spec, &method);
        if (!rc && free_list)
            rc = rx_place_parse_free(t, free_list, &fr, &nfree);
        if (!rc)
            rc = method == RX_PLACE_SCOTCH || method == RX_PLACE_AUTO ? rx_commat_from_workload(w, &m) : RX_OK;
        m.n = w->nranks;
        int chosen = -1;
        if (!rc && method == RX_PLACE_AUTO && so) {
            rc = rx_place_best(t, &m, w, so, fr, nfree, seed, map, &chosen);
            if (!rc)
                fprintf(stderr, "rdmx-topo: placement auto chose %s (simulated)\n", rx_place_method_name(chosen));
        } else if (!rc)
            rc = rx_place_map(t, &m, method, fr, nfree, seed, map);
        rx_commat_free(&m);
        free(fr);
    }
    if (rc) {
        free(map);
        return rc;
    }
    *mapp = map;
    return RX_OK;
}
