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
/* Picture of the fabric, each cable coloured by the higher utilisation of its two directions. */
int rx_sim_write_svg(const rx_topo_t *t, const rx_sim_result_t *r, const char *title, const char *path);

#endif
