/* SPDX-License-Identifier: MIT
 * Mapping a process topology onto the nodes of a job: what reorder = 1 of
 * MPI_Cart_create, MPI_Graph_create and MPI_Dist_graph_create(_adjacent),
 * and MPI_Cart_map / MPI_Graph_map, compute. Pure functions on arrays, the same result at every rank.
 *
 * node[r] is the node of old rank r for the n ranks that take part
 * (r = 0..n-1, any non-negative ids). A mapping writes newrank[r], the grid
 * position (row-major Cartesian rank) or graph vertex old rank r takes. The
 * ranks are dealt node by node (nodes by id, ranks ascending within a node)
 * onto a sequence of the positions in which neighbours come close:
 *  - a grid: its cells ordered by recursive bisection (the box is split in
 *    two across its longest dimension, each half ordered in turn), so a
 *    node's run of consecutive cells is a compact block;
 *  - a graph: recursive bisection too, the nodes split in two halves and
 *    the vertices with them: from a vertex on the part's rim, a region
 *    grows to the first half's ranks, each step taking the vertex with the
 *    most edges into the region less those out of it; ties to the lowest
 *    vertex, or first to the fewest hops from the start (rounder regions
 *    on large meshes): both orders are made, the one cutting fewer kept.
 * The result is kept only when it cuts fewer edges between nodes than the
 * identity; otherwise newrank is the identity (one node, or a layout as
 * good already, stay as they are). */
#ifndef RX_MPI_TOPO_MAP_H
#define RX_MPI_TOPO_MAP_H

/* Grid of ndims (0..64) dimensions, product n. Returns 1 (newrank
 * reordered), 0 (newrank the identity) or RX_ERR_NOMEM. */
int rx_map_cart(int n, const int *node, int ndims, const int *dims, const int *periods,
                int *newrank);
/* Graph of n vertices in MPI_Graph_create's form (index, edges). Returns
 * as rx_map_cart. */
int rx_map_graph(int n, const int *node, const int *index, const int *edges, int *newrank);

/* Edges between different nodes when position i sits on node at[i]: each
 * grid cell's +1 neighbour per dimension (wrapping where periodic), each
 * edge of the graph's lists. */
long long rx_map_cart_cut(int ndims, const int *dims, const int *periods, const int *at);
long long rx_map_graph_cut(int n, const int *index, const int *edges, const int *at);

/* The binding's use (topo.c): the position the caller takes when the first n
 * ranks of intracommunicator c are mapped onto their nodes, a grid when
 * index is NULL, else a graph: c->rank where they all sit on one node (or
 * the mapping keeps the identity), -1 for a rank beyond n. Returns 1 when
 * the ranks were reordered, 0 when not, or RX_ERR_NOMEM. */
struct rx_comm;
int rx_topo_map_rank(const struct rx_comm *c, int n, int ndims, const int *dims,
                     const int *periods, const int *index, const int *edges, int *rank);

#endif
