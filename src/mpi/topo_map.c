/* SPDX-License-Identifier: MIT
 * Mapping a process topology onto the nodes of a job (topo_map.h). */
#include "topo_map.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

#define RX_MAP_MAXDIMS 64

long long rx_map_cart_cut(int ndims, const int *dims, const int *periods, const int *at)
{
    long long n = 1, cut = 0, stride = 1;
    for (int d = 0; d < ndims; d++)
        n *= dims[d];
    for (int d = ndims - 1; d >= 0; stride *= dims[d--])
        for (long long i = 0; i < n; i++) {
            long long x = i / stride % dims[d], j;
            if (x + 1 < dims[d])
                j = i + stride;
            else if (periods[d] && dims[d] > 1)
                j = i - x * stride;
            else
                continue;
            cut += at[i] != at[j];
        }
    return cut;
}

long long rx_map_graph_cut(int n, const int *index, const int *edges, const int *at)
{
    long long cut = 0;
    for (int u = 0, e = 0; u < n; u++)
        for (; e < index[u]; e++)
            cut += at[u] != at[edges[e]];
    return cut;
}

static int rx_map_cmp(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* The old ranks grouped by node (nodes by id), ascending within a node. */
static int *rx_map_ranks_by_node(int n, const int *node)
{
    int *list = malloc(sizeof(int) * (size_t)(n ? n : 1));
    long long *key = malloc(sizeof(long long) * (size_t)(n ? n : 1));
    if (list && key) {
        for (int r = 0; r < n; r++)
            key[r] = (long long)node[r] << 32 | r;
        qsort(key, (size_t)n, sizeof *key, rx_map_cmp);
        for (int k = 0; k < n; k++)
            list[k] = (int)(key[k] & 0xffffffff);
    } else {
        free(list);
        list = NULL;
    }
    free(key);
    return list;
}

/* Deal the ranks of list onto seq (newrank[list[k]] = seq[k]) and keep the
 * result only when it cuts fewer edges than the identity: 1 or 0. */
typedef long long (*rx_map_cut_fn)(const void *shape, const int *at);

static int rx_map_keep(int n, const int *node, const int *list, const int *seq, int *at,
                       rx_map_cut_fn cut, const void *shape, int *newrank)
{
    for (int k = 0; k < n; k++) {
        newrank[list[k]] = seq[k];
        at[seq[k]] = node[list[k]];
    }
    long long mapped = cut(shape, at), ident = cut(shape, node);
    if (mapped < ident)
        return 1;
    for (int r = 0; r < n; r++)
        newrank[r] = r;
    return 0;
}

/* ---- grids ---------------------------------------------------------------- */

typedef struct rx_map_grid {
    int ndims;
    const int *dims, *periods;
} rx_map_grid_t;

static long long rx_map_grid_cut(const void *shape, const int *at)
{
    const rx_map_grid_t *g = shape;
    return rx_map_cart_cut(g->ndims, g->dims, g->periods, at);
}

/* Append the cells of box [lo, hi) to seq in bisection order. */
static void rx_map_bisect(const rx_map_grid_t *g, const int *lo, const int *hi, int *seq,
                          int *len)
{
    int d = -1, ext = 1;
    for (int i = 0; i < g->ndims; i++)
        if (hi[i] - lo[i] > ext) {
            ext = hi[i] - lo[i];
            d = i;
        }
    if (d < 0) { /* one cell */
        int r = 0;
        for (int i = 0; i < g->ndims; i++)
            r = r * g->dims[i] + lo[i];
        seq[(*len)++] = r;
        return;
    }
    int mid[RX_MAP_MAXDIMS];
    memcpy(mid, hi, sizeof(int) * (size_t)g->ndims);
    mid[d] = lo[d] + ext / 2;
    rx_map_bisect(g, lo, mid, seq, len);
    memcpy(mid, lo, sizeof(int) * (size_t)g->ndims);
    mid[d] = lo[d] + ext / 2;
    rx_map_bisect(g, mid, hi, seq, len);
}

int rx_map_cart(int n, const int *node, int ndims, const int *dims, const int *periods,
                int *newrank)
{
    rx_map_grid_t g = {ndims, dims, periods};
    int lo[RX_MAP_MAXDIMS] = {0}, len = 0;
    int *list = rx_map_ranks_by_node(n, node);
    int *seq = calloc(2 * (size_t)(n ? n : 1), sizeof(int));
    if (!list || !seq) {
        free(list);
        free(seq);
        return RX_ERR_NOMEM;
    }
    rx_map_bisect(&g, lo, dims, seq, &len);
    int rc = rx_map_keep(n, node, list, seq, seq + n, rx_map_grid_cut, &g, newrank);
    free(list);
    free(seq);
    return rc;
}

/* ---- graphs --------------------------------------------------------------- */

typedef struct rx_map_graph {
    int n;
    const int *index, *edges;
} rx_map_graph_t;

static long long rx_map_graph_cut_of(const void *shape, const int *at)
{
    const rx_map_graph_t *g = shape;
    return rx_map_graph_cut(g->n, g->index, g->edges, at);
}

/* Both directions of every edge, as adjacency lists (off[u]..off[u+1]). */
static int *rx_map_adjacency(const rx_map_graph_t *g, int **off_out)
{
    int m = g->n ? g->index[g->n - 1] : 0;
    int *off = calloc((size_t)g->n + 1, sizeof(int)), *adj = malloc(sizeof(int) * (2 * (size_t)m + 1));
    if (!off || !adj) {
        free(off);
        free(adj);
        return NULL;
    }
    for (int u = 0, e = 0; u < g->n; u++)
        for (; e < g->index[u]; e++) {
            off[u + 1]++;
            off[g->edges[e] + 1]++;
        }
    for (int u = 0; u < g->n; u++)
        off[u + 1] += off[u];
    int *fill = calloc((size_t)g->n + 1, sizeof(int));
    if (!fill) {
        free(off);
        free(adj);
        return NULL;
    }
    for (int u = 0, e = 0; u < g->n; u++)
        for (; e < g->index[u]; e++) {
            int v = g->edges[e];
            adj[off[u] + fill[u]++] = v;
            adj[off[v] + fill[v]++] = u;
        }
    free(fill);
    *off_out = off;
    return adj;
}

/* Working state of the graph's bisection: label[v] names the part vertex v
 * is in (parts are numbered as they are made); gain[v], while v waits in
 * the part being split, is its edges into the region grown so far minus
 * those to the rest; the frontier holds the waiting vertices with an edge
 * into the region (fpos[v] their place, -1 for none). */
typedef struct rx_map_split {
    const int *off, *adj;
    int *label, *gain, *front, *fpos, nfront, nlabel;
    int *dist, *queue; /* hops from the region's start, and the search's queue */
    int hops;          /* whether ties go to fewer hops before the lower vertex */
} rx_map_split_t;

/* dist[] of the waiting vertices of part reachable from v, by breadth. */
static void rx_map_hops(rx_map_split_t *b, int v, int part)
{
    int head = 0, tail = 0;
    b->dist[v] = 0;
    b->queue[tail++] = v;
    while (head < tail) {
        int u = b->queue[head++];
        for (int k = b->off[u]; k < b->off[u + 1]; k++) {
            int w = b->adj[k];
            if (b->label[w] == part && b->dist[w] < 0) {
                b->dist[w] = b->dist[u] + 1;
                b->queue[tail++] = w;
            }
        }
    }
}

/* v before best: higher gain, then (with hops) fewer hops from the start,
 * then lower. */
static int rx_map_better(const rx_map_split_t *b, int v, int best)
{
    if (best < 0 || b->gain[v] != b->gain[best])
        return best < 0 || b->gain[v] > b->gain[best];
    if (b->hops && b->dist[v] != b->dist[best])
        return b->dist[v] < b->dist[best];
    return v < best;
}

static void rx_map_front_drop(rx_map_split_t *b, int v)
{
    int i = b->fpos[v], last = b->front[--b->nfront];
    b->front[i] = last;
    b->fpos[last] = i;
    b->fpos[v] = -1;
}

/* The waiting vertex to take next: the frontier's best (rx_map_better), or
 * with none (a fresh start), part S's of highest gain, i.e. fewest edges in
 * S: a vertex on its rim, from which the hops are then counted. */
static int rx_map_pick(rx_map_split_t *b, const int *vs, int lo, int hi, int part)
{
    int best = -1;
    if (b->nfront) {
        for (int i = 0; i < b->nfront; i++)
            if (rx_map_better(b, b->front[i], best))
                best = b->front[i];
        return best;
    }
    for (int i = lo; i < hi; i++)
        if (b->label[vs[i]] == part &&
            (best < 0 || b->gain[vs[i]] > b->gain[best] ||
             (b->gain[vs[i]] == b->gain[best] && vs[i] < best)))
            best = vs[i];
    if (b->hops) {
        for (int i = lo; i < hi; i++)
            b->dist[vs[i]] = -1;
        rx_map_hops(b, best, part);
    }
    return best;
}

/* Grow a region of cap vertices inside part S (vs[lo..hi), label part),
 * each step taking the waiting vertex of highest gain; the region gets a
 * new label, and vs[lo..hi) is rearranged region first. */
static void rx_map_grow(rx_map_split_t *b, int *vs, int lo, int hi, int cap, int part)
{
    int region = ++b->nlabel;
    for (int i = lo; i < hi; i++) {
        int v = vs[i], d = 0;
        for (int k = b->off[v]; k < b->off[v + 1]; k++)
            d += b->label[b->adj[k]] == part;
        b->gain[v] = -d;
    }
    b->nfront = 0;
    for (int taken = 0; taken < cap; taken++) {
        int v = rx_map_pick(b, vs, lo, hi, part);
        if (b->fpos[v] >= 0)
            rx_map_front_drop(b, v);
        b->label[v] = region;
        for (int k = b->off[v]; k < b->off[v + 1]; k++) {
            int w = b->adj[k];
            if (b->label[w] != part)
                continue;
            b->gain[w] += 2;
            if (b->fpos[w] < 0) {
                b->fpos[w] = b->nfront;
                b->front[b->nfront++] = w;
            }
        }
    }
    while (b->nfront)
        rx_map_front_drop(b, b->front[b->nfront - 1]);
    int j = lo; /* region first, each side in its old order */
    for (int i = lo; i < hi; i++)
        if (b->label[vs[i]] == region)
            b->front[j++ - lo] = vs[i];
    for (int i = lo; i < hi; i++)
        if (b->label[vs[i]] != region)
            b->front[j++ - lo] = vs[i];
    memcpy(vs + lo, b->front, sizeof(int) * (size_t)(hi - lo));
}

/* Deal part S (vs[lo..hi), label part) to nodes a..b-1 of cnt ranks each:
 * the first half of the nodes takes a region grown to their ranks, the
 * other half the rest, each split again in turn. */
static void rx_map_bisect_graph(rx_map_split_t *b, int *vs, int lo, int hi, int part,
                                const int *cnt, int a, int z)
{
    if (z - a < 2)
        return;
    int m = a + (z - a) / 2, cap = 0;
    for (int i = a; i < m; i++)
        cap += cnt[i];
    rx_map_grow(b, vs, lo, hi, cap, part);
    int region = b->nlabel;
    rx_map_bisect_graph(b, vs, lo, lo + cap, region, cnt, a, m);
    rx_map_bisect_graph(b, vs, lo + cap, hi, part, cnt, m, z);
}

/* seq: the vertices by recursive bisection, node by node as list deals
 * them (cnt: the ranks of each node of list in turn). */
static int rx_map_graph_seq(int n, const int *off, const int *adj, const int *node,
                            const int *list, int hops, int *seq)
{
    int *w = calloc(7 * (size_t)n + 1, sizeof(int)), nn = 0;
    if (!w)
        return RX_ERR_NOMEM;
    rx_map_split_t b = {off,   adj, w, w + n, w + 2 * (size_t)n, w + 3 * (size_t)n, 0, 0,
                        w + 5 * (size_t)n, w + 6 * (size_t)n, hops};
    int *cnt = w + 4 * (size_t)n;
    for (int k = 0; k < n; k++) {
        if (!k || node[list[k]] != node[list[k - 1]])
            cnt[nn++] = 0;
        cnt[nn - 1]++;
    }
    for (int v = 0; v < n; v++) {
        seq[v] = v;
        b.fpos[v] = -1;
    }
    rx_map_bisect_graph(&b, seq, 0, n, 0, cnt, 0, nn);
    free(w);
    return RX_OK;
}

/* Two orders, ties in the growth to the lower vertex or to fewer hops
 * from the start (rounder regions on large meshes); the one cutting fewer
 * edges is dealt. */
int rx_map_graph(int n, const int *node, const int *index, const int *edges, int *newrank)
{
    rx_map_graph_t g = {n, index, edges};
    int *off = NULL, *adj = rx_map_adjacency(&g, &off);
    int *list = rx_map_ranks_by_node(n, node);
    int *seq = calloc(3 * (size_t)(n ? n : 1), sizeof(int)), *alt = seq ? seq + 2 * n : NULL;
    int rc = adj && list && seq ? rx_map_graph_seq(n, off, adj, node, list, 0, seq)
                                : RX_ERR_NOMEM;
    if (rc == RX_OK)
        rc = rx_map_graph_seq(n, off, adj, node, list, 1, alt);
    if (rc == RX_OK) {
        int *at = seq + n;
        for (int k = 0; k < n; k++)
            at[seq[k]] = node[list[k]];
        long long c0 = rx_map_graph_cut(n, index, edges, at);
        for (int k = 0; k < n; k++)
            at[alt[k]] = node[list[k]];
        if (rx_map_graph_cut(n, index, edges, at) < c0)
            memcpy(seq, alt, sizeof(int) * (size_t)n);
        rc = rx_map_keep(n, node, list, seq, seq + n, rx_map_graph_cut_of, &g, newrank);
    }
    free(off);
    free(adj);
    free(list);
    free(seq);
    return rc;
}
