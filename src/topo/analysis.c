/* SPDX-License-Identifier: MIT
 * Fabric analysis for `rdmx-topo info`: sizes, radix, distances, bisection bandwidth.
 *
 * Generated families use closed forms (exact). Loaded fabrics get all-pairs distances from the
 * shortest-path tables (sampled above 4,096 nodes) and a bisection computed by Scotch: a
 * balanced two-way partition of the nodes minimising the cut capacity; Scotch's partition is a
 * heuristic, so the figure is an upper bound on the true minimum bisection. */
#include "route.h"
#include "scotch_graph.h"
#include "topo.h"
#include "util/log.h"
#include "util/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double rx_node_injection(const rx_topo_t *t, uint32_t n)
{
    double bw = 0;
    const rx_topo_vertex_t *v = &t->v[n];
    for (uint32_t i = 0; i < v->nports; i++)
        bw += t->l[t->out[v->port0 + i]].bw;
    return bw;
}

static void rx_info_fattree(const rx_topo_t *t, rx_topo_info_t *in)
{
    const rx_fattree_params_t *p = &t->ft;
    double N = (double)t->nnodes, sum = 0;
    in->diameter = 0;
    for (int L = 1; L <= p->levels; L++) {
        double pairs = N * (double)(p->M[L] - p->M[L - 1]);
        sum += pairs * 2 * L;
        if (pairs > 0)
            in->diameter = 2 * L;
    }
    in->avg_distance = N > 1 ? sum / (N * (N - 1)) : 0;
    /* all traffic between two halves made of whole top-level subtrees climbs every level: the
     * smallest aggregate up-capacity of one half, over the switch levels, is the bisection */
    double best = INFINITY;
    for (int l = 2; l <= p->levels; l++) {
        double elems = N / 2 / (double)p->M[l - 1] * (double)p->W[l - 1];
        double cap = elems * p->up[l - 1] * p->par[l - 1] * t->cls_bw[l - 1];
        if (cap < best)
            best = cap;
    }
    if (p->levels == 1 || !isfinite(best))
        best = N / 2 * in->injection_bw;
    in->bisection_bw = best;
    in->bisection_exact = p->down[p->levels - 1] % 2 == 0;
}

static void rx_info_dragonfly(rx_topo_t *t, rx_topo_info_t *in)
{
    const rx_dragonfly_params_t *df = &t->df;
    uint32_t a = (uint32_t)df->a, p = (uint32_t)df->p, R = (uint32_t)(df->g * df->a);
    double sum = 0;
    int diam = 0;
    for (uint32_t x = 0; x < R; x++) {
        for (uint32_t y = 0; y < R; y++) {
            int d = rx_route_distance(t, x * p, y * p);
            double pairs = x == y ? (double)p * (p - 1) : (double)p * p;
            sum += pairs * d;
            if (pairs > 0 && d > diam)
                diam = d;
        }
    }
    double N = t->nnodes;
    in->diameter = diam;
    in->avg_distance = N > 1 ? sum / (N * (N - 1)) : 0;
    /* halves of whole groups: count the global capacity between them */
    uint32_t g = (uint32_t)df->g, half = g / 2;
    double cut = 0;
    for (uint32_t s = 0; s < half; s++)
        for (uint32_t d = half; d < g; d++)
            for (uint32_t i = df->gidx[s * g + d]; i < df->gidx[s * g + d + 1]; i++)
                cut += t->l[df->glinks[i]].bw;
    if (g == 1) { /* one group: halves of routers, local links */
        for (uint32_t x = 0; x < a / 2; x++)
            for (uint32_t y = a / 2; y < a; y++)
                cut += t->cls_bw[RX_LC_LOCAL];
    }
    in->bisection_bw = cut;
    in->bisection_exact = g % 2 == 0 || g == 1;
}

/* Shortest-path distances between all node pairs (or from a sample of sources). */
static int rx_info_distances(rx_topo_t *t, rx_topo_info_t *in)
{
    uint32_t N = t->nnodes, step = N > 4096 ? N / 256 : 1;
    double sum = 0, cnt = 0;
    int diam = 0;
    for (uint32_t s = 0; s < N; s += step) {
        for (uint32_t d = 0; d < N; d++) {
            if (s == d)
                continue;
            int h = rx_route_distance(t, s, d);
            if (h < 0) {
                rx_log_error("rdmx-topo: nodes %u and %u are not connected", s, d);
                return RX_ERR_INVAL;
            }
            sum += h;
            cnt++;
            if (h > diam)
                diam = h;
        }
    }
    in->sampled = step > 1;
    in->diameter = diam;
    in->avg_distance = cnt ? sum / cnt : 0;
    return RX_OK;
}

/* Balanced bipartition of the nodes with Scotch; switches weigh nothing, edges weigh their bandwidth. */
static int rx_info_bisection_scotch(const rx_topo_t *t, rx_topo_info_t *in)
{
    SCOTCH_Num V = t->nverts;
    rx_scotch_graph_t sg;
    int rc = rx_scotch_graph_build(t, &sg);
    if (rc)
        return rc;
    SCOTCH_Num *velo = malloc(V * sizeof *velo), *part = malloc(V * sizeof *part);
    SCOTCH_Graph g;
    SCOTCH_Strat st;
    rc = RX_ERR_NOMEM;
    if (!velo || !part)
        goto out;
    for (uint32_t v = 0; v < t->nverts; v++)
        velo[v] = v < t->nnodes ? 1 : 0;
    rc = RX_ERR_INTERN;
    if (SCOTCH_graphInit(&g))
        goto out;
    SCOTCH_stratInit(&st);
    if (SCOTCH_graphBuild(&g, 0, V, sg.vert, sg.vert + 1, velo, NULL, sg.narcs, sg.edge, sg.edlo) ||
        SCOTCH_graphCheck(&g) ||
        SCOTCH_stratGraphMapBuild(&st, SCOTCH_STRATQUALITY, 2, 0.0) || SCOTCH_graphPart(&g, 2, &st, part)) {
        rx_log_error("rdmx-topo: Scotch could not bipartition the fabric");
    } else {
        double cut = 0;
        uint32_t side0 = 0;
        for (uint32_t v = 0; v < t->nnodes; v++)
            side0 += part[v] == 0;
        for (uint32_t i = 0; i < t->nlinks; i++)
            if (part[t->l[i].src] == 0 && part[t->l[i].dst] == 1)
                cut += t->l[i].bw;
        /* scale an unequal split to the cut a balanced one would need, so ratios stay comparable */
        double small = side0 < t->nnodes - side0 ? side0 : t->nnodes - side0;
        in->bisection_bw = small > 0 ? cut * (t->nnodes / 2.0) / small : cut;
        rc = RX_OK;
    }
    SCOTCH_stratExit(&st);
    SCOTCH_graphExit(&g);
out:
    rx_scotch_graph_free(&sg);
    free(velo);
    free(part);
    return rc;
}

int rx_topo_analyze(rx_topo_t *t, rx_topo_info_t *in)
{
    memset(in, 0, sizeof *in);
    in->nodes = t->nnodes;
    in->switches = t->nverts - t->nnodes;
    in->cables = t->nlinks / 2;
    in->radix_min = 1 << 30;
    for (uint32_t v = t->nnodes; v < t->nverts; v++) {
        int r = (int)t->v[v].nports;
        if (t->family == RX_TOPO_FATTREE) { /* parallel cables are folded into one link: count them */
            int l = t->v[v].level;
            r = t->ft.down[l - 1] * t->ft.par[l - 1] + (l < t->ft.levels ? t->ft.up[l] * t->ft.par[l] : 0);
        } else if (t->family == RX_TOPO_DRAGONFLY) {
            r = t->df.p + t->df.a - 1 + t->df.h; /* ports, wired or not */
        }
        if (r < in->radix_min)
            in->radix_min = r;
        if (r > in->radix_max)
            in->radix_max = r;
    }
    if (in->switches == 0)
        in->radix_min = 0;
    in->injection_bw = t->nnodes ? rx_node_injection(t, 0) : 0;
    int rc = RX_OK;
    if (t->family == RX_TOPO_FATTREE) {
        rx_info_fattree(t, in);
    } else if (t->family == RX_TOPO_DRAGONFLY) {
        rx_info_dragonfly(t, in);
    } else {
        rc = rx_info_distances(t, in);
        if (!rc)
            rc = rx_info_bisection_scotch(t, in);
    }
    double half = t->nnodes / 2.0 * in->injection_bw;
    in->bisection_ratio = half > 0 ? in->bisection_bw / half : 0;
    return rc;
}

void rx_topo_info_print(const rx_topo_t *t, const rx_topo_info_t *in, FILE *f)
{
    fprintf(f, "fabric            %s\n", t->desc);
    fprintf(f, "nodes             %u\n", in->nodes);
    fprintf(f, "switches          %u\n", in->switches);
    fprintf(f, "cables            %u\n", in->cables);
    fprintf(f, "radix             %d", in->radix_max);
    if (in->radix_min != in->radix_max)
        fprintf(f, " (min %d)", in->radix_min);
    fprintf(f, "\n");
    fprintf(f, "diameter          %d hops%s\n", in->diameter, in->sampled ? " (sampled sources)" : "");
    fprintf(f, "average distance  %.4f hops%s\n", in->avg_distance, in->sampled ? " (sampled sources)" : "");
    fprintf(f, "injection         %.4g GB/s per node\n", in->injection_bw / 1e9);
    fprintf(f, "bisection         %.6g GB/s (%s)\n", in->bisection_bw / 1e9,
            in->bisection_exact ? "exact" : t->family == RX_TOPO_GENERIC ? "computed, Scotch bipartition: upper bound"
                                                                          : "computed, halves of whole groups/subtrees");
    fprintf(f, "bisection ratio   %.4f of nodes/2 x injection\n", in->bisection_ratio);
    /* the links themselves, not the class defaults: a loaded fabric gives each cable its own rate */
    double lo[RX_TOPO_NCLASS], hi[RX_TOPO_NCLASS], llo[RX_TOPO_NCLASS], lhi[RX_TOPO_NCLASS];
    for (int c = 0; c < RX_TOPO_NCLASS; c++) {
        lo[c] = llo[c] = INFINITY;
        hi[c] = lhi[c] = 0;
    }
    for (uint32_t i = 0; i < t->nlinks; i++) {
        const rx_topo_link_t *l = &t->l[i];
        lo[l->cls] = fmin(lo[l->cls], l->bw);
        hi[l->cls] = fmax(hi[l->cls], l->bw);
        llo[l->cls] = fmin(llo[l->cls], l->lat);
        lhi[l->cls] = fmax(lhi[l->cls], l->lat);
    }
    for (int c = 0; c < RX_TOPO_NCLASS; c++) {
        if (!t->cls_used[c] || hi[c] == 0)
            continue;
        fprintf(f, "link class %-6s %.4g", rx_topo_class_name(t, c), lo[c] / 1e9);
        if (hi[c] > lo[c])
            fprintf(f, "-%.4g", hi[c] / 1e9);
        fprintf(f, " GB/s, %.4g", llo[c] * 1e9);
        if (lhi[c] > llo[c])
            fprintf(f, "-%.4g", lhi[c] * 1e9);
        fprintf(f, " ns\n");
    }
}
