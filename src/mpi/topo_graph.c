/* SPDX-License-Identifier: MIT
 * Graph topologies (MPI-1's MPI_Graph_create and its queries) and the two
 * mapping queries, MPI_Graph_map and MPI_Cart_map. Every rank of a graph
 * communicator keeps the whole graph (index and edges as given), as the
 * queries may ask about any rank; its own edges are also its neighbour
 * lists, so the neighbourhood collectives run on graphs unchanged.
 * Mapping and reorder = 1: topo.c, topo_map.h. */
#include "mpi_impl.h"
#include "coll/neighbor.h"
#include "topo_map.h"

#include <string.h>

static rx_topo_t *rx_graph_of(rx_comm_t *c)
{
    return c->topo_kind == MPI_GRAPH ? c->topo : NULL;
}

#define RX_GET_GRAPH(t, c, fn)                                                          \
    rx_topo_t *t = rx_graph_of(c);                                                      \
    if (!t)                                                                             \
        return rx_mpi_err(c, MPI_ERR_TOPOLOGY, fn, "communicator has no graph topology")

/* index must be non-decreasing from 0, edges name nodes of the graph. */
static int rx_graph_check(rx_comm_t *c, int nnodes, const int index[], const int edges[],
                          const char *fn)
{
    if (nnodes < 0 || nnodes > c->size)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "nnodes %d outside 0..%d", nnodes, c->size);
    if (nnodes == 0)
        return MPI_SUCCESS;
    if (!index)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "index is NULL");
    for (int i = 0; i < nnodes; i++)
        if (index[i] < (i ? index[i - 1] : 0))
            return rx_mpi_err(c, MPI_ERR_ARG, fn, "index[%d] = %d is below the entry before it",
                              i, index[i]);
    if (index[nnodes - 1] > 0 && !edges)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "edges is NULL");
    for (int e = 0; e < index[nnodes - 1]; e++)
        if (edges[e] < 0 || edges[e] >= nnodes)
            return rx_mpi_err(c, MPI_ERR_RANK, fn, "edges[%d] = %d is not a node of the graph",
                              e, edges[e]);
    return MPI_SUCCESS;
}

int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
                      int reorder, MPI_Comm *comm_graph)
{
    const char *fn = "MPI_Graph_create";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm_old, fn);
    if (c->remote)
        return rx_mpi_err(c, MPI_ERR_COMM, fn, "not valid on an intercommunicator");
    if (!comm_graph)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "comm_graph is NULL");
    int rc = rx_graph_check(c, nnodes, index, edges, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    int key = c->rank;
    if (reorder && rx_topo_map_rank(c, nnodes, 0, NULL, NULL, index, edges, &key) < 0)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    rc = PMPI_Comm_split(comm_old, c->rank < nnodes ? 0 : MPI_UNDEFINED, key, comm_graph);
    if (rc != MPI_SUCCESS || *comm_graph == MPI_COMM_NULL)
        return rc;
    rx_comm_t *nc = rx_comm_get(*comm_graph);
    int me = nc->rank, first = me ? index[me - 1] : 0, deg = index[me] - first;
    int nedges = index[nnodes - 1];
    rx_topo_t *t = rx_topo_new_graph(MPI_GRAPH, nnodes, nedges, deg);
    if (!t) {
        PMPI_Comm_free(comm_graph);
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    memcpy(t->index, index, sizeof(int) * (size_t)nnodes);
    if (nedges)
        memcpy(t->edges, edges, sizeof(int) * (size_t)nedges);
    for (int k = 0; k < deg; k++) {
        t->in[k] = t->out[k] = edges[first + k];
        t->inw[k] = t->outw[k] = 1;
    }
    nc->topo = t;
    nc->topo_kind = MPI_GRAPH;
    return MPI_SUCCESS;
}
RX_ALIAS(Graph_create)

int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    const char *fn = "MPI_Graphdims_get";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    RX_GET_GRAPH(t, c, fn);
    if (!nnodes || !nedges)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "nnodes or nedges is NULL");
    *nnodes = t->nnodes;
    *nedges = t->nedges;
    return MPI_SUCCESS;
}
RX_ALIAS(Graphdims_get)

int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
    const char *fn = "MPI_Graph_get";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    RX_GET_GRAPH(t, c, fn);
    if (maxindex < 0 || maxedges < 0)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "maxindex %d or maxedges %d is negative",
                          maxindex, maxedges);
    int ni = maxindex < t->nnodes ? maxindex : t->nnodes;
    int ne = maxedges < t->nedges ? maxedges : t->nedges;
    if ((ni && !index) || (ne && !edges))
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "index or edges is NULL");
    if (ni)
        memcpy(index, t->index, sizeof(int) * (size_t)ni);
    if (ne)
        memcpy(edges, t->edges, sizeof(int) * (size_t)ne);
    return MPI_SUCCESS;
}
RX_ALIAS(Graph_get)

static int rx_graph_rank(rx_comm_t *c, const rx_topo_t *t, int rank, const char *fn)
{
    if (rank < 0 || rank >= t->nnodes)
        return rx_mpi_err(c, MPI_ERR_RANK, fn, "rank %d is not a node of the graph (0..%d)",
                          rank, t->nnodes - 1);
    return MPI_SUCCESS;
}

int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    const char *fn = "MPI_Graph_neighbors_count";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    RX_GET_GRAPH(t, c, fn);
    int rc = rx_graph_rank(c, t, rank, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!nneighbors)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "nneighbors is NULL");
    *nneighbors = t->index[rank] - (rank ? t->index[rank - 1] : 0);
    return MPI_SUCCESS;
}
RX_ALIAS(Graph_neighbors_count)

int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    const char *fn = "MPI_Graph_neighbors";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    RX_GET_GRAPH(t, c, fn);
    int rc = rx_graph_rank(c, t, rank, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (maxneighbors < 0)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "maxneighbors %d is negative", maxneighbors);
    int first = rank ? t->index[rank - 1] : 0, deg = t->index[rank] - first;
    int n = maxneighbors < deg ? maxneighbors : deg;
    if (n && !neighbors)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "neighbors is NULL");
    if (n)
        memcpy(neighbors, t->edges + first, sizeof(int) * (size_t)n);
    return MPI_SUCCESS;
}
RX_ALIAS(Graph_neighbors)

int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                   int *newrank)
{
    const char *fn = "MPI_Graph_map";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    if (nnodes < 1)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "nnodes %d is not positive", nnodes);
    int rc = rx_graph_check(c, nnodes, index, edges, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!newrank)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "newrank is NULL");
    if (rx_topo_map_rank(c, nnodes, 0, NULL, NULL, index, edges, newrank) < 0)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    if (*newrank < 0)
        *newrank = MPI_UNDEFINED;
    return MPI_SUCCESS;
}
RX_ALIAS(Graph_map)

int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[],
                  int *newrank)
{
    const char *fn = "MPI_Cart_map";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    if (ndims < 0)
        return rx_mpi_err(c, MPI_ERR_DIMS, fn, "ndims %d is negative", ndims);
    if (ndims > 0 && (!dims || !periods))
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "dims or periods is NULL");
    if (!newrank)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "newrank is NULL");
    long long n = 1;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] <= 0)
            return rx_mpi_err(c, MPI_ERR_DIMS, fn, "dims[%d] = %d is not positive", i, dims[i]);
        n *= dims[i];
        if (n > c->size)
            return rx_mpi_err(c, MPI_ERR_DIMS, fn, "the grid has more than the %d ranks of "
                              "the communicator", c->size);
    }
    if (rx_topo_map_rank(c, (int)n, ndims, dims, periods, NULL, NULL, newrank) < 0)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    if (*newrank < 0)
        *newrank = MPI_UNDEFINED;
    return MPI_SUCCESS;
}
RX_ALIAS(Cart_map)
