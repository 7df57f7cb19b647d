/* SPDX-License-Identifier: MIT
 * Results of a simulation as people read them: summary, hottest links, CSV, SVG picture of link load. */
#ifndef RX_TOPO_OUTPUT_H
#define RX_TOPO_OUTPUT_H

#include "sim.h"
#include "topo.h"

#include <stdio.h>

/* Link name "SRC->DST" into buf (vertex names, or n12 / s3 for unnamed vertices). */
const char *rx_topo_link_name(const rx_topo_t *t, uint32_t link, char *buf, size_t len);
/* Summary lines and the `top` most utilised links. */
void rx_sim_print(const rx_topo_t *t, const rx_sim_result_t *r, int top, FILE *f);
/* One row per directed link: link,src,dst,class,bandwidth_Bps,bytes,utilisation,max_flows. */
int rx_sim_write_csv(const rx_topo_t *t, const rx_sim_result_t *r, const char *path);
/* Vertex name into buf (its own, or n12 / s3 for unnamed vertices). */
const char *rx_topo_vertex_name(const rx_topo_t *t, uint32_t v, char *buf, size_t len);
/* Bytes over (bandwidth x completion time). */
double rx_sim_link_util(const rx_topo_t *t, const rx_sim_result_t *r, uint32_t l);
/* Picture of the fabric's link load (output_svg.c). RX_SVG_LINKS: every directed link, both
 * directions of a cable side by side, switches labelled; RX_SVG_AGGREGATE: per group pair
 * (dragonflies) or per level and direction (trees, loaded fabrics); RX_SVG_AUTO: links up to
 * RX_SVG_MAXLINKS directed links, aggregated above. */
enum { RX_SVG_AUTO = 0, RX_SVG_LINKS, RX_SVG_AGGREGATE };
#define RX_SVG_MAXLINKS 4000
int rx_sim_write_svg(const rx_topo_t *t, const rx_sim_result_t *r, const char *title, const char *path, int view);

#endif
