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

/* seq: per node of list in turn, vertices by breadth-first growth from the
 * lowest one not yet taken, until the node holds as many as it has ranks. */
static void rx_map_grow(const rx_map_graph_t *g, const int *off, const int *adj, const int *node,
                        const int *list, int *seq, char *taken)
{
    int len = 0, next = 0;
    for (int k = 0; k < g->n;) {
        int cap = 1;
        while (k + cap < g->n && node[list[k + cap]] == node[list[k]])
            cap++;
        int head = len, end = len + cap;
        while (len < end) {
            if (head == len) { /* the growth ran out: a fresh start */
                while (taken[next])
                    next++;
                taken[next] = 1;
                seq[len++] = next;
            }
            int u = seq[head++];
            for (int i = off[u]; i < off[u + 1] && len < end; i++)
                if (!taken[adj[i]]) {
                    taken[adj[i]] = 1;
                    seq[len++] = adj[i];
                }
        }
        k += cap;
    }
}

int rx_map_graph(int n, const int *node, const int *index, const int *edges, int *newrank)
{
    rx_map_graph_t g = {n, index, edges};
    int *off = NULL, *adj = rx_map_adjacency(&g, &off);
    int *list = rx_map_ranks_by_node(n, node);
    int *seq = calloc(2 * (size_t)(n ? n : 1), sizeof(int));
    char *taken = calloc((size_t)n + 1, 1);
    int rc = RX_ERR_NOMEM;
    if (adj && list && seq && taken) {
        rx_map_grow(&g, off, adj, node, list, seq, taken);
        rc = rx_map_keep(n, node, list, seq, seq + n, rx_map_graph_cut_of, &g, newrank);
    }
    free(off);
    free(adj);
    free(list);
    free(seq);
    free(taken);
    return rc;
}
