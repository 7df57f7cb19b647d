/* SPDX-License-Identifier: MIT
 * The fabric as a Scotch graph without duplicate arcs (see scotch_graph.h). */
#include "scotch_graph.h"
#include "util/status.h"

#include <math.h>
#include <stdlib.h>

int rx_scotch_graph_build(const rx_topo_t *t, rx_scotch_graph_t *g)
{
    g->nverts = t->nverts;
    g->vert = malloc((t->nverts + 1) * sizeof *g->vert);
    g->edge = malloc((t->nlinks + 1) * sizeof *g->edge);
    g->edlo = malloc((t->nlinks + 1) * sizeof *g->edlo);
    double *bw = malloc((t->nlinks + 1) * sizeof *bw);
    SCOTCH_Num *at = malloc((t->nverts + 1) * sizeof *at); /* where neighbour w sits in v's arcs */
    if (!g->vert || !g->edge || !g->edlo || !bw || !at) {
        free(bw);
        free(at);
        rx_scotch_graph_free(g);
        return RX_ERR_NOMEM;
    }
    double minbw = INFINITY;
    for (uint32_t i = 0; i < t->nlinks; i++)
        if (t->l[i].bw < minbw)
            minbw = t->l[i].bw;
    for (uint32_t v = 0; v < t->nverts; v++)
        at[v] = -1;
    SCOTCH_Num k = 0;
    for (uint32_t v = 0; v < t->nverts; v++) {
        g->vert[v] = k;
        for (uint32_t i = 0; i < t->v[v].nports; i++) {
            const rx_topo_link_t *l = &t->l[t->out[t->v[v].port0 + i]];
            if (at[l->dst] >= g->vert[v]) {
                bw[at[l->dst]] += l->bw;
                continue;
            }
            at[l->dst] = k;
            g->edge[k] = l->dst;
            bw[k++] = l->bw;
        }
    }
    g->vert[t->nverts] = k;
    g->narcs = k;
    for (SCOTCH_Num i = 0; i < k; i++)
        g->edlo[i] = (SCOTCH_Num)llround(bw[i] / minbw * 16);
    free(bw);
    free(at);
    return RX_OK;
}

void rx_scotch_graph_free(rx_scotch_graph_t *g)
{
    free(g->vert);
    free(g->edge);
    free(g->edlo);
    g->vert = g->edge = g->edlo = NULL;
}
