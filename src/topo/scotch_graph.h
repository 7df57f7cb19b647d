/* SPDX-License-Identifier: MIT
 * The fabric as a Scotch graph (internal to src/topo): one arc per pair of adjacent vertices.
 * Parallel cables (an InfiniBand trunk of several cables between two switches) are one arc whose
 * weight is their summed bandwidth, since Scotch refuses duplicate arcs. */
#ifndef RX_TOPO_SCOTCH_GRAPH_H
#define RX_TOPO_SCOTCH_GRAPH_H

#include "topo.h"

#include <scotch.h>

typedef struct rx_scotch_graph {
    SCOTCH_Num nverts, narcs;
    SCOTCH_Num *vert; /* nverts + 1 offsets into edge/edlo */
    SCOTCH_Num *edge; /* neighbour vertex ids */
    SCOTCH_Num *edlo; /* arc weights: bandwidth in units of 1/16 of the slowest link */
} rx_scotch_graph_t;

int rx_scotch_graph_build(const rx_topo_t *t, rx_scotch_graph_t *g);
void rx_scotch_graph_free(rx_scotch_graph_t *g);

#endif
