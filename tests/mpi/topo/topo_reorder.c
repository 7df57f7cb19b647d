/* SPDX-License-Identifier: MIT
 * reorder = 1 of MPI_Cart_create, MPI_Graph_create and
 * MPI_Dist_graph_create(_adjacent) against the node
 * layout: the node of each process (MPI_Comm_split_type SHARED), the edges
 * of a grid (MPI_Dims_create over every rank, not periodic) and of a
 * periodic ring whose ends lie on different nodes, before (old ranks in
 * their positions) and after reordering. The new order never cuts more
 * edges between nodes than the old one; with the argument "fewer" it must
 * cut fewer wherever the old one cut any. MPI_Cart_map and MPI_Graph_map give each
 * process the rank it got. A halo exchange on the reordered grid (blocks of
 * B x B values of a global function, a ghost layer from every neighbour)
 * checks the communicator works as a grid. Rank 0 prints the cuts:
 * "cart AxB: cut X -> Y" and "ring N: cut X -> Y" and "graph AxB: ...",
 * "dist adjacent AxB: ...", "dist AxB: ...". The distributed graphs are
 * the grid graph, weighted, each rank giving the lists of its old rank's
 * vertex; after reordering each rank must hold its new rank's lists. */
#include "rxtest.h"

#define B 4

static int *node_of; /* node id (lowest world rank of the node) of each world rank */
static int fewer;

static void find_nodes(void)
{
    MPI_Comm shm;
    RXT_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm));
    int id = rxt_rank;
    RXT_MPI(MPI_Allreduce(MPI_IN_PLACE, &id, 1, MPI_INT, MPI_MIN, shm));
    node_of = malloc(sizeof(int) * (size_t)rxt_size);
    RXT_MPI(MPI_Allgather(&id, 1, MPI_INT, node_of, 1, MPI_INT, MPI_COMM_WORLD));
    RXT_MPI(MPI_Comm_free(&shm));
}

/* The world rank of every rank of comm. */
static int *world_of(MPI_Comm comm, int n)
{
    int *w = malloc(sizeof(int) * (size_t)n);
    RXT_MPI(MPI_Allgather(&rxt_rank, 1, MPI_INT, w, 1, MPI_INT, comm));
    return w;
}

/* Edges of a grid (each cell to its +1 neighbour per dimension, wrapping
 * where periodic) between different nodes, when cell r holds world rank w[r]. */
static int grid_cut(int nd, const int *dims, const int *periods, const int *w)
{
    int n = 1, cut = 0;
    for (int d = 0; d < nd; d++)
        n *= dims[d];
    for (int r = 0; r < n; r++) {
        int x[3], s = 1;
        for (int d = nd - 1, q = r; d >= 0; q /= dims[d--])
            x[d] = q % dims[d];
        for (int d = nd - 1; d >= 0; s *= dims[d--]) {
            int j = x[d] + 1 < dims[d] ? r + s : periods[d] && dims[d] > 1 ? r - x[d] * s : -1;
            if (j >= 0)
                cut += node_of[w[r]] != node_of[w[j]];
        }
    }
    return cut;
}

static double f(int i, int j) { return i * 1000.0 + j * 0.5 + 1.0; }

/* Blocks of B x B around the grid; ghosts from the four neighbours. */
static void halo(MPI_Comm cart, const int *dims)
{
    int me, c[2];
    MPI_Comm_rank(cart, &me);
    RXT_MPI(MPI_Cart_coords(cart, me, 2, c));
    double a[B + 2][B + 2];
    for (int i = 0; i < B + 2; i++)
        for (int j = 0; j < B + 2; j++)
            a[i][j] = i && j && i <= B && j <= B ? f(c[0] * B + i - 1, c[1] * B + j - 1) : -1.0;
    int up, down, left, right;
    RXT_MPI(MPI_Cart_shift(cart, 0, 1, &up, &down));
    RXT_MPI(MPI_Cart_shift(cart, 1, 1, &left, &right));
    MPI_Datatype col;
    MPI_Type_vector(B, 1, B + 2, MPI_DOUBLE, &col);
    MPI_Type_commit(&col);
    RXT_MPI(MPI_Sendrecv(&a[B][1], B, MPI_DOUBLE, down, 1, &a[0][1], B, MPI_DOUBLE, up, 1, cart,
                         MPI_STATUS_IGNORE));
    RXT_MPI(MPI_Sendrecv(&a[1][1], B, MPI_DOUBLE, up, 2, &a[B + 1][1], B, MPI_DOUBLE, down, 2,
                         cart, MPI_STATUS_IGNORE));
    RXT_MPI(MPI_Sendrecv(&a[1][B], 1, col, right, 3, &a[1][0], 1, col, left, 3, cart,
                         MPI_STATUS_IGNORE));
    RXT_MPI(MPI_Sendrecv(&a[1][1], 1, col, left, 4, &a[1][B + 1], 1, col, right, 4, cart,
                         MPI_STATUS_IGNORE));
    MPI_Type_free(&col);
    for (int k = 1; k <= B; k++) {
        int gi = c[0] * B, gj = c[1] * B;
        if (c[0] > 0)
            RXT_CHECK(a[0][k] == f(gi - 1, gj + k - 1), "ghost above %d: %g", k, a[0][k]);
        if (c[0] + 1 < dims[0])
            RXT_CHECK(a[B + 1][k] == f(gi + B, gj + k - 1), "ghost below %d: %g", k,
                      a[B + 1][k]);
        if (c[1] > 0)
            RXT_CHECK(a[k][0] == f(gi + k - 1, gj - 1), "ghost left %d: %g", k, a[k][0]);
        if (c[1] + 1 < dims[1])
            RXT_CHECK(a[k][B + 1] == f(gi + k - 1, gj + B), "ghost right %d: %g", k,
                      a[k][B + 1]);
    }
}

static void check_cut(const char *what, int before, int after)
{
    if (rxt_rank == 0)
        printf("%s: cut %d -> %d\n", what, before, after);
    RXT_CHECK(after <= before, "%s: the new order cuts %d edges, the old %d", what, after, before);
    RXT_CHECK(!fewer || !before || after < before, "%s: still %d edges cut (the old order %d)",
              what, after, before);
}

static void cart(int nd, const int *dims, const int *periods, const char *what)
{
    int n = 1, ident[64];
    for (int d = 0; d < nd; d++)
        n *= dims[d];
    for (int r = 0; r < n; r++)
        ident[r] = r;
    MPI_Comm c;
    RXT_MPI(MPI_Cart_create(MPI_COMM_WORLD, nd, dims, periods, 1, &c));
    int mapped = -5;
    RXT_MPI(MPI_Cart_map(MPI_COMM_WORLD, nd, dims, periods, &mapped));
    if (c == MPI_COMM_NULL) {
        RXT_CHECK(mapped == MPI_UNDEFINED, "%s: Cart_map gave %d to a rank left out", what,
                  mapped);
        return;
    }
    int me;
    MPI_Comm_rank(c, &me);
    RXT_CHECK(mapped == me, "%s: Cart_map gave %d, Cart_create rank %d", what, mapped, me);
    int *w = world_of(c, n);
    check_cut(what, grid_cut(nd, dims, periods, ident), grid_cut(nd, dims, periods, w));
    if (nd == 2)
        halo(c, dims);
    free(w);
    RXT_MPI(MPI_Comm_free(&c));
}

/* The grid graph of dims[0] x dims[1] (each vertex to its side neighbours)
 * in MPI_Graph_create's form; returns the number of vertices. */
static int grid_graph(const int *dims, int *index, int *edges)
{
    int e = 0;
    for (int i = 0; i < dims[0]; i++)
        for (int j = 0; j < dims[1]; j++) {
            int u = i * dims[1] + j;
            if (j > 0)
                edges[e++] = u - 1;
            if (j + 1 < dims[1])
                edges[e++] = u + 1;
            if (i > 0)
                edges[e++] = u - dims[1];
            if (i + 1 < dims[0])
                edges[e++] = u + dims[1];
            index[u] = e;
        }
    return dims[0] * dims[1];
}

/* Cuts before (vertex u at world rank u) and after (at w[u]); then each
 * rank sends its world rank to its out-neighbours: what comes from in-list
 * entry k must be w[in[k]]. */
static void graph_check(MPI_Comm g, const char *what, int n, const int *index,
                        const int *edges, int indeg, const int *in)
{
    int *w = world_of(g, n), cut[2] = {0, 0}, got[4];
    for (int u = 0, k = 0; u < n; u++)
        for (; k < index[u]; k++) {
            cut[0] += node_of[u] != node_of[edges[k]];
            cut[1] += node_of[w[u]] != node_of[w[edges[k]]];
        }
    check_cut(what, cut[0], cut[1]);
    RXT_MPI(MPI_Neighbor_allgather(&rxt_rank, 1, MPI_INT, got, 1, MPI_INT, g));
    for (int k = 0; k < indeg; k++)
        RXT_CHECK(got[k] == w[in[k]], "%s: neighbour %d sent %d, expected %d", what, k, got[k],
                  w[in[k]]);
    free(w);
}

/* The grid graph by MPI_Graph_create. */
static void graph(const int *dims, const char *what)
{
    int index[64], edges[256], n = grid_graph(dims, index, edges);
    MPI_Comm g;
    RXT_MPI(MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 1, &g));
    int mapped = -5, me, deg, nb[4];
    RXT_MPI(MPI_Graph_map(MPI_COMM_WORLD, n, index, edges, &mapped));
    MPI_Comm_rank(g, &me);
    RXT_CHECK(mapped == me, "%s: Graph_map gave %d, Graph_create rank %d", what, mapped, me);
    RXT_MPI(MPI_Graph_neighbors_count(g, me, &deg));
    RXT_MPI(MPI_Graph_neighbors(g, me, 4, nb));
    graph_check(g, what, n, index, edges, deg, nb);
    RXT_MPI(MPI_Comm_free(&g));
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* The grid graph as a distributed graph, weighted (u -> v weighs 100 u + v),
 * each rank giving the lists of the vertex of its old rank: adjacent (in
 * and out lists) or general (its out-edges). After reordering the caller's
 * lists must be those of the vertex of its new rank. */
static void dist(const int *dims, int adjacent, const char *what)
{
    int index[64], edges[256], n = grid_graph(dims, index, edges), v = rxt_rank;
    if (n == 1) /* no edges (and MPICH crashes on its weighted graph's neighbours) */
        return;
    int first = v ? index[v - 1] : 0, deg = index[v] - first, inw[4], outw[4];
    const int *nb = edges + first;
    for (int k = 0; k < deg; k++) {
        inw[k] = 100 * nb[k] + v;
        outw[k] = 100 * v + nb[k];
    }
    MPI_Comm g;
    if (adjacent)
        RXT_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, deg, nb, inw, deg, nb, outw,
                                               MPI_INFO_NULL, 1, &g));
    else
        RXT_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &v, &deg, nb, outw, MPI_INFO_NULL, 1,
                                      &g));
    int me, ind, outd, wt, in[4], iw[4], out[4], ow[4];
    MPI_Comm_rank(g, &me);
    RXT_MPI(MPI_Dist_graph_neighbors_count(g, &ind, &outd, &wt));
    first = me ? index[me - 1] : 0;
    deg = index[me] - first;
    RXT_CHECK(ind == deg && outd == deg && wt, "%s: rank %d has %d in, %d out (weighted %d), "
              "vertex %d has %d", what, me, ind, outd, wt, me, deg);
    if (ind != deg || outd != deg) {
        RXT_MPI(MPI_Comm_free(&g));
        return;
    }
    RXT_MPI(MPI_Dist_graph_neighbors(g, 4, in, iw, 4, out, ow));
    /* general creation may order the lists any way: compare sorted
     * (neighbour, weight) pairs, x -> me weighing 100 x + me */
    int wi[4], wo[4], gi[4], go[4];
    for (int k = 0; k < deg; k++) {
        int x = edges[first + k];
        wi[k] = x * 10000 + 100 * x + me;
        wo[k] = x * 10000 + 100 * me + x;
        gi[k] = in[k] * 10000 + iw[k];
        go[k] = out[k] * 10000 + ow[k];
    }
    int *lists[4] = {wi, wo, gi, go};
    for (int l = 0; l < 4; l++)
        qsort(lists[l], (size_t)deg, sizeof(int), cmp_int);
    for (int k = 0; k < deg; k++)
        RXT_CHECK(gi[k] == wi[k] && go[k] == wo[k],
                  "%s: rank %d's lists are not those of vertex %d", what, me, me);
    graph_check(g, what, n, index, edges, ind, in);
    RXT_MPI(MPI_Comm_free(&g));
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "topo_reorder");
    fewer = argc > 1 && !strcmp(argv[1], "fewer");
    if (rxt_size > 64)
        RXT_FATAL("at most 64 ranks");
    find_nodes();
    int dims[2] = {0, 0}, np[2] = {0, 0}, ring = rxt_size, per = 1;
    RXT_MPI(MPI_Dims_create(rxt_size, 2, dims));
    char what[64];
    snprintf(what, sizeof what, "cart %dx%d", dims[0], dims[1]);
    cart(2, dims, np, what);
    snprintf(what, sizeof what, "ring %d", ring);
    cart(1, &ring, &per, what);
    snprintf(what, sizeof what, "graph %dx%d", dims[0], dims[1]);
    graph(dims, what);
    snprintf(what, sizeof what, "dist adjacent %dx%d", dims[0], dims[1]);
    dist(dims, 1, what);
    snprintf(what, sizeof what, "dist %dx%d", dims[0], dims[1]);
    dist(dims, 0, what);
    free(node_of);
    return rxt_finish();
}
