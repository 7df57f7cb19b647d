/* SPDX-License-Identifier: MIT
 * Process topologies as the collectives see them, and neighbourhood
 * collectives over them.
 *
 * A communicator with a topology (c->topo_kind RX_TOPO_CART, RX_TOPO_GRAPH or
 * RX_TOPO_DIST_GRAPH) points c->topo at one rx_topo_t allocation (freed with the
 * communicator). Its in- and out-neighbour lists follow MPI: for a Cartesian
 * topology both are, per dimension d, the neighbour at -1 then the one at +1
 * (MPI_PROC_NULL past a non-periodic border); for a graph both are this
 * rank's edges in order (and every rank keeps the whole graph, index and
 * edges, for MPI_Graph_get); for a distributed graph the lists as given.
 *
 * A neighbourhood collective is a list of transfers (one per neighbour and
 * direction) run over the p2p layer on the collective context. Blocking
 * calls wait for it; nonblocking ones hand back a request of kind
 * RX_REQ_COLL that a progress hook completes once every transfer is done. */
#ifndef RX_COLL_NEIGHBOR_H
#define RX_COLL_NEIGHBOR_H

#include "core/comm.h"
#include "core/request.h"
#include "dtype/dtype.h"

#include <stddef.h>

typedef struct rx_topo {
    int kind;                 /* rx_topo_kind */
    int ndims;                /* Cartesian */
    int *dims, *periods, *coords;
    int indeg, outdeg;
    int weighted;             /* distributed graph created with weights */
    int *in, *inw, *out, *outw;
    int nnodes, nedges;       /* graph: the whole graph as MPI_Graph_create took it */
    int *index, *edges;
    int data[];               /* the arrays above point into this */
} rx_topo_t;

/* One allocation holding a topology with room for its arrays. */
rx_topo_t *rx_topo_new(int kind, int ndims, int indeg, int outdeg);
/* A graph topology (kind: RX_TOPO_GRAPH) with room for the whole
 * graph and this rank's deg neighbours (in and out lists alike). */
rx_topo_t *rx_topo_new_graph(int kind, int nnodes, int nedges, int deg);
/* A copy (MPI_Comm_dup keeps the topology). */
rx_topo_t *rx_topo_copy(const rx_topo_t *t);
/* Cartesian helpers: rank of coordinates (wrapping periodic dimensions;
 * -1 if outside a non-periodic one) and coordinates of a rank. */
int rx_cart_rank(const rx_topo_t *t, const int *coords);
void rx_cart_coords(const rx_topo_t *t, int rank, int *coords);
/* Fill the neighbour lists of a Cartesian topology for this rank. */
void rx_cart_neighbors(rx_topo_t *t, int rank);

/* One transfer: count elements of dt at buf to or from peer (comm rank or
 * MPI_PROC_NULL = -2, skipped). */
typedef struct rx_nbr_xfer {
    int send;
    int peer;
    int tag;
    void *buf;
    size_t count;
    const rx_dtype_t *dt;
} rx_nbr_xfer_t;

/* Tags for one neighbourhood collective: Cartesian ones take two (what a
 * rank sends towards -1 carries the first, towards +1 the second), so a
 * peer that is both neighbours of a dimension still matches each block. */
void rx_nbr_tags(rx_comm_t *c, int *tag_minus, int *tag_plus);

/* Run n transfers. top NULL: blocking, returns when done. Otherwise top is a
 * request of kind RX_REQ_COLL that completes when all are done (rx_req_fail
 * if one failed). Returns RX_OK or an error before anything was posted. */
int rx_nbr_run(rx_comm_t *c, const rx_nbr_xfer_t *x, int n, rx_req_t *top);

#endif
