/* SPDX-License-Identifier: MIT
 * The node mapping of process topologies (src/mpi/topo_map.c): the edges
 * cut between nodes for grids and graphs on interleaved and block
 * placements, and on random shapes and placements that every result is a
 * permutation, never cuts more than the identity, and is the identity
 * whenever it is not strictly better. */
#include "mpi/topo_map.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int errs;
#define CHECK(cond, ...)                                                                          \
    do {                                                                                          \
        if (!(cond) && errs++ < 20) {                                                             \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                       \
            fprintf(stderr, __VA_ARGS__);                                                         \
            fputc('\n', stderr);                                                                  \
        }                                                                                         \
    } while (0)

#define NMAX 4096

/* newrank must be a permutation of 0..n-1; at[p] = node at position p. */
static int place(int n, const int *node, const int *newrank, int *at)
{
    static char seen[NMAX];
    memset(seen, 0, (size_t)n);
    for (int r = 0; r < n; r++) {
        if (newrank[r] < 0 || newrank[r] >= n || seen[newrank[r]])
            return 0;
        seen[newrank[r]] = 1;
        at[newrank[r]] = node[r];
    }
    return 1;
}

static int is_identity(int n, const int *newrank)
{
    for (int r = 0; r < n; r++)
        if (newrank[r] != r)
            return 0;
    return 1;
}

/* rc and newrank as a mapping must give them: 0 or 1, a permutation (at[p]
 * = node at position p); 0 when newrank is not placed. */
static int placed(const char *what, int n, const int *node, int rc, const int *newrank, int *at)
{
    CHECK(rc == 0 || rc == 1, "%s of %d: returned %d", what, n, rc);
    int ok = place(n, node, newrank, at);
    CHECK(ok, "%s of %d: not a permutation", what, n);
    return ok;
}

/* Kept only when strictly better, else the identity. */
static long long judged(const char *what, int n, int rc, const int *newrank, long long cut,
                        long long ident)
{
    CHECK(rc == 1 ? cut < ident : is_identity(n, newrank) && cut == ident,
          "%s of %d: returned %d, cut %lld, identity %lld", what, n, rc, cut, ident);
    return cut;
}

/* A grid: returns the mapped cut, *ident the identity's. */
static long long cart(int ndims, const int *dims, const int *periods, const int *node,
                      long long *ident)
{
    int n = 1, newrank[NMAX], at[NMAX];
    for (int d = 0; d < ndims; d++)
        n *= dims[d];
    int rc = rx_map_cart(n, node, ndims, dims, periods, newrank);
    if (!placed("grid", n, node, rc, newrank, at))
        return -1;
    *ident = rx_map_cart_cut(ndims, dims, periods, node);
    return judged("grid", n, rc, newrank, rx_map_cart_cut(ndims, dims, periods, at), *ident);
}

static long long graph(int n, const int *index, const int *edges, const int *node,
                       long long *ident)
{
    int newrank[NMAX], at[NMAX];
    int rc = rx_map_graph(n, node, index, edges, newrank);
    if (!placed("graph", n, node, rc, newrank, at))
        return -1;
    *ident = rx_map_graph_cut(n, index, edges, node);
    return judged("graph", n, rc, newrank, rx_map_graph_cut(n, index, edges, at), *ident);
}

static void t_grids(void)
{
    int node[NMAX], np[2] = {0, 0}, pp[2] = {1, 1};
    long long id, cut;
    /* 2 x 8 on 2 nodes of 8: interleaved, then in blocks (rdmx-run's) */
    int d28[2] = {2, 8};
    for (int r = 0; r < 16; r++)
        node[r] = r % 2;
    cut = cart(2, d28, np, node, &id);
    CHECK(id == 14 && cut == 2, "2x8 interleaved: cut %lld (identity %lld), expected 2 (14)", cut,
          id);
    for (int r = 0; r < 16; r++)
        node[r] = r / 8;
    cut = cart(2, d28, np, node, &id);
    CHECK(id == 8 && cut == 2, "2x8 blocks: cut %lld (identity %lld), expected 2 (8)", cut, id);
    /* 4 x 4 on 4 interleaved nodes: quadrants */
    int d44[2] = {4, 4};
    for (int r = 0; r < 16; r++)
        node[r] = r % 4;
    cut = cart(2, d44, np, node, &id);
    CHECK(id == 12 && cut == 8, "4x4 interleaved: cut %lld (identity %lld), expected 8 (12)", cut,
          id);
    /* periodic 4 x 4 interleaved: quadrants cut 16 as well, the identity stays */
    cut = cart(2, d44, pp, node, &id);
    CHECK(id == 16 && cut == 16, "4x4 periodic interleaved: cut %lld (identity %lld)", cut, id);
    /* one node, and a line already in blocks: the identity */
    for (int r = 0; r < 16; r++)
        node[r] = 0;
    cut = cart(2, d44, np, node, &id);
    CHECK(cut == 0 && id == 0, "one node: cut %lld", cut);
    int d16[1] = {16};
    for (int r = 0; r < 16; r++)
        node[r] = r / 4;
    cut = cart(1, d16, np, node, &id);
    CHECK(cut == 3 && id == 3, "line in blocks: cut %lld", cut);
    /* uneven nodes (5, 6, 5 ranks), interleaved, 4 x 4 */
    for (int r = 0; r < 16; r++)
        node[r] = r < 15 ? r % 3 : 1;
    cut = cart(2, d44, np, node, &id);
    CHECK(cut < id, "4x4 on 5+6+5 interleaved: cut %lld, identity %lld", cut, id);
    /* 3-d, 4 x 4 x 4 on 8 interleaved nodes: cubes of 2 x 2 x 2 */
    int d444[3] = {4, 4, 4}, p3[3] = {0, 0, 0};
    for (int r = 0; r < 64; r++)
        node[r] = r % 8;
    cut = cart(3, d444, p3, node, &id);
    CHECK(cut == 48 && id == 48 + 48, "4x4x4 on 8 interleaved: cut %lld (identity %lld)", cut, id);
}

/* The grid graph of a x b (each cell to its right and lower neighbour and
 * back), in MPI_Graph_create's form. */
static int grid_graph(int a, int b, int *index, int *edges)
{
    int e = 0;
    for (int i = 0; i < a; i++)
        for (int j = 0; j < b; j++) {
            int u = i * b + j;
            if (j > 0)
                edges[e++] = u - 1;
            if (j + 1 < b)
                edges[e++] = u + 1;
            if (i > 0)
                edges[e++] = u - b;
            if (i + 1 < a)
                edges[e++] = u + b;
            index[u] = e;
        }
    return a * b;
}

static void t_graphs(void)
{
    int node[NMAX], index[NMAX], edges[4 * NMAX];
    long long id, cut;
    /* a ring of 16 on 2 interleaved nodes: two arcs, 2 edges each way */
    for (int u = 0; u < 16; u++) {
        edges[2 * u] = (u + 15) % 16;
        edges[2 * u + 1] = (u + 1) % 16;
        index[u] = 2 * u + 2;
        node[u] = u % 2;
    }
    cut = graph(16, index, edges, node, &id);
    CHECK(id == 32 && cut == 4, "ring interleaved: cut %lld (identity %lld), expected 4 (32)", cut,
          id);
    /* grid graphs (cuts count both directions): 2 x 8 on 2 interleaved
     * nodes; 4 x 4 on 4 interleaved nodes (quadrants); 8 x 8 on 8 nodes in
     * rows, 7 x 8 edges cut each way (blocks of 2 x 4: 32); 64 x 64 on 64
     * interleaved nodes (growth ties to fewer hops: 2466, to the lower
     * vertex alone: 4096; blocks of 8 x 8 would cut 1792) */
    struct { int a, b, mod, div; long long id, cut; } gg[] = {
        {2, 8, 2, 0, 28, 4}, {4, 4, 4, 0, 24, 16}, {8, 8, 0, 8, 112, 64}, {64, 64, 64, 0, 8064, 2466}};
    int n = 0;
    for (size_t i = 0; i < sizeof gg / sizeof gg[0]; i++) {
        n = grid_graph(gg[i].a, gg[i].b, index, edges);
        for (int u = 0; u < n; u++)
            node[u] = gg[i].mod ? u % gg[i].mod : u / gg[i].div;
        cut = graph(n, index, edges, node, &id);
        CHECK(id == gg[i].id && cut == gg[i].cut, "%dx%d graph: cut %lld (identity %lld), "
              "expected %lld (%lld)", gg[i].a, gg[i].b, cut, id, gg[i].cut, gg[i].id);
    }
    /* in blocks of rows already: the identity */
    for (int u = 0; u < n; u++)
        node[u] = 0;
    cut = graph(n, index, edges, node, &id);
    CHECK(cut == 0, "one node: cut %lld", cut);
    /* no edges at all */
    for (int u = 0; u < 8; u++) {
        index[u] = 0;
        node[u] = u % 2;
    }
    cut = graph(8, index, edges, node, &id);
    CHECK(cut == 0 && id == 0, "no edges: cut %lld", cut);
}

static unsigned rnd(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

static void t_random(void)
{
    unsigned s = 7;
    int node[NMAX], dims[4], periods[4], index[NMAX], edges[4 * NMAX];
    long long id;
    for (int iter = 0; iter < 2000; iter++) {
        int ndims = 1 + rnd(&s) % 4, n = 1;
        for (int d = 0; d < ndims; d++) {
            dims[d] = 1 + rnd(&s) % (d < 2 ? 9 : 4);
            periods[d] = rnd(&s) % 2;
            n *= dims[d];
        }
        int nnodes = 1 + rnd(&s) % 6, block = rnd(&s) % 2;
        for (int r = 0; r < n; r++)
            node[r] = block ? r * nnodes / n : (int)(rnd(&s) % nnodes);
        cart(ndims, dims, periods, node, &id);
        /* a random graph on n vertices */
        int e = 0;
        for (int u = 0; u < n; u++) {
            int deg = rnd(&s) % 4;
            for (int k = 0; k < deg; k++)
                edges[e++] = rnd(&s) % n;
            index[u] = e;
        }
        graph(n, index, edges, node, &id);
    }
}

int main(void)
{
    t_grids();
    t_graphs();
    t_random();
    if (errs) {
        fprintf(stderr, "%d failures\n", errs);
        return 1;
    }
    printf("No Errors\n");
    return 0;
}
