/* SPDX-License-Identifier: MIT
 * Graph topologies (MPI_Graph_create, Graphdims_get, Graph_get,
 * Graph_neighbors_count, Graph_neighbors, Topo_test), neighbourhood
 * collectives on them, MPI_Graph_map and MPI_Cart_map, a duplicate keeping
 * the graph, and the errors: a graph query on a communicator without one,
 * Cartesian queries on a graph, a rank outside the graph. A ring over all
 * ranks, then one that leaves the last rank out.
 * Two peers' defects are stepped around so the test stays a check of itself
 * under run-with.sh: MPICH 4.0 crashes in MPI_Cart_get on a graph
 * communicator, and Open MPI 4.1 maps ranks outside the graph or grid and
 * takes ranks and grids that do not fit. */
#include "rxtest.h"

#if defined(OPEN_MPI)
#define RXT_PEER_MAPS_OUTSIDE 1
#endif
#if defined(MPICH_VERSION)
#define RXT_PEER_CART_ON_GRAPH_CRASHES 1
#endif

static void check_ring(int n)
{
    int me = rxt_rank, *index = malloc(sizeof(int) * (size_t)n),
        *edges = malloc(sizeof(int) * 2 * (size_t)n);
    for (int r = 0; r < n; r++) { /* node r: r + 1 then r - 1 */
        index[r] = 2 * (r + 1);
        edges[2 * r] = (r + 1) % n;
        edges[2 * r + 1] = (r + n - 1) % n;
    }
    MPI_Comm g;
    RXT_MPI(MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &g));
    int newrank = -1;
    RXT_MPI(MPI_Graph_map(MPI_COMM_WORLD, n, index, edges, &newrank));
    if (me >= n) {
        RXT_CHECK(g == MPI_COMM_NULL, "rank %d outside a %d-node graph got a communicator", me, n);
#ifndef RXT_PEER_MAPS_OUTSIDE
        RXT_CHECK(newrank == MPI_UNDEFINED, "Graph_map gave %d to a rank outside", newrank);
#endif
        goto out;
    }
#ifndef RXT_PEER_MAPS_OUTSIDE
    RXT_CHECK(newrank == me, "Graph_map gave %d, want %d", newrank, me);
#endif
    int st, nn, ne, gr;
    RXT_MPI(MPI_Comm_rank(g, &gr));
    RXT_CHECK(gr == me, "graph rank %d, want %d", gr, me);
    RXT_MPI(MPI_Topo_test(g, &st));
    RXT_CHECK(st == MPI_GRAPH, "Topo_test %d, want MPI_GRAPH", st);
    RXT_MPI(MPI_Graphdims_get(g, &nn, &ne));
    RXT_CHECK(nn == n && ne == 2 * n, "Graphdims_get %d nodes %d edges", nn, ne);
    int *gi = malloc(sizeof(int) * (size_t)n), *ge = malloc(sizeof(int) * 2 * (size_t)n);
    RXT_MPI(MPI_Graph_get(g, n, 2 * n, gi, ge));
    for (int r = 0; r < n; r++)
        RXT_CHECK(gi[r] == index[r], "Graph_get index[%d] = %d, want %d", r, gi[r], index[r]);
    for (int e = 0; e < 2 * n; e++)
        RXT_CHECK(ge[e] == edges[e], "Graph_get edges[%d] = %d, want %d", e, ge[e], edges[e]);
    for (int r = 0; r < n; r++) { /* any rank's neighbours, asked anywhere */
        int cnt, nb[2] = {-1, -1};
        RXT_MPI(MPI_Graph_neighbors_count(g, r, &cnt));
        RXT_CHECK(cnt == 2, "node %d: %d neighbours", r, cnt);
        RXT_MPI(MPI_Graph_neighbors(g, r, 2, nb));
        RXT_CHECK(nb[0] == edges[2 * r] && nb[1] == edges[2 * r + 1],
                  "node %d neighbours %d %d", r, nb[0], nb[1]);
    }
    int got[2] = {-1, -1};
    RXT_MPI(MPI_Neighbor_allgather(&me, 1, MPI_INT, got, 1, MPI_INT, g));
    RXT_CHECK(got[0] == edges[2 * me] && got[1] == edges[2 * me + 1],
              "Neighbor_allgather got %d %d from neighbours %d %d", got[0], got[1],
              edges[2 * me], edges[2 * me + 1]);
    if (n >= 3) { /* distinct neighbours: node r sends block k to its k-th neighbour */
        int out2[2] = {100 * me, 100 * me + 1}, in2[2] = {-1, -1};
        RXT_MPI(MPI_Neighbor_alltoall(out2, 1, MPI_INT, in2, 1, MPI_INT, g));
        int from_next = 100 * ((me + 1) % n) + 1, from_prev = 100 * ((me + n - 1) % n);
        RXT_CHECK(in2[0] == from_next && in2[1] == from_prev, "Neighbor_alltoall got %d %d, "
                  "want %d %d", in2[0], in2[1], from_next, from_prev);
    }
    MPI_Comm d;
    RXT_MPI(MPI_Comm_dup(g, &d));
    RXT_MPI(MPI_Topo_test(d, &st));
    RXT_MPI(MPI_Graphdims_get(d, &nn, &ne));
    RXT_CHECK(st == MPI_GRAPH && nn == n && ne == 2 * n, "duplicate: kind %d, %d nodes %d edges",
              st, nn, ne);
    MPI_Comm_set_errhandler(g, MPI_ERRORS_RETURN);
    int nb1, dims1[1], per1[1], co1[1];
    (void)nb1, (void)dims1, (void)per1, (void)co1;
#ifndef RXT_PEER_MAPS_OUTSIDE
    RXT_EXPECT_CLASS(MPI_ERR_RANK, MPI_Graph_neighbors_count(g, n, &nb1));
#endif
#ifndef RXT_PEER_CART_ON_GRAPH_CRASHES
    RXT_EXPECT_CLASS(MPI_ERR_TOPOLOGY, MPI_Cart_get(g, 1, dims1, per1, co1));
#endif
    MPI_Comm_free(&d);
    MPI_Comm_free(&g);
    free(gi);
    free(ge);
out:
    free(index);
    free(edges);
}

static void check_maps(void)
{
    int p = rxt_size, me = rxt_rank, nr = -1;
    int dims[2] = {1, p}, periods[2] = {0, 1};
    RXT_MPI(MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &nr));
    RXT_CHECK(nr == me, "Cart_map over all ranks gave %d, want %d", nr, me);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int nn, ne;
#ifndef RXT_PEER_MAPS_OUTSIDE
    int d1[1] = {1}, big[1] = {p + 1};
    RXT_MPI(MPI_Cart_map(MPI_COMM_WORLD, 1, d1, periods, &nr));
    RXT_CHECK(nr == (me == 0 ? 0 : MPI_UNDEFINED), "Cart_map of one rank gave %d", nr);
    RXT_EXPECT_CLASS(MPI_ERR_DIMS, MPI_Cart_map(MPI_COMM_WORLD, 1, big, periods, &nr));
#endif
    RXT_EXPECT_CLASS(MPI_ERR_TOPOLOGY, MPI_Graphdims_get(MPI_COMM_WORLD, &nn, &ne));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "topo_graph");
    check_ring(rxt_size);
    if (rxt_size >= 3)
        check_ring(rxt_size - 1);
    check_maps();
    return rxt_finish();
}
