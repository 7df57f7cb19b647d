/* SPDX-License-Identifier: MIT
 * Simulation output: summary text and CSV of per-link load (the SVG picture: output_svg.c). */
#include "output.h"
#include "util/log.h"
#include "util/status.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *rx_topo_vertex_name(const rx_topo_t *t, uint32_t v, char *buf, size_t len)
{
    if (t->v[v].name)
        return t->v[v].name;
    if (v < t->nnodes)
        snprintf(buf, len, "n%u", v);
    else
        snprintf(buf, len, "s%u", v - t->nnodes);
    return buf;
}

const char *rx_topo_link_name(const rx_topo_t *t, uint32_t link, char *buf, size_t len)
{
    char a[64], b[64];
    snprintf(buf, len, "%s->%s", rx_topo_vertex_name(t, t->l[link].src, a, sizeof a), rx_topo_vertex_name(t, t->l[link].dst, b, sizeof b));
    return buf;
}

double rx_sim_link_util(const rx_topo_t *t, const rx_sim_result_t *r, uint32_t l)
{
    return r->time > 0 ? r->link_bytes[l] / (t->l[l].bw * r->time) : 0;
}

static int rx_cmp_desc(const void *a, const void *b)
{
    double x = ((const double *)a)[0], y = ((const double *)b)[0];
    return x < y ? 1 : x > y ? -1 : 0;
}

void rx_sim_print(const rx_topo_t *t, const rx_sim_result_t *r, int top, FILE *f)
{
    fprintf(f, "completion time   %.6g s\n", r->time);
    fprintf(f, "fabric bytes      %.6g\n", r->net_bytes);
    fprintf(f, "flows             %llu\n", (unsigned long long)r->flows);
    fprintf(f, "throughput        %.4f of injection bandwidth (%u sending nodes)\n", r->throughput, r->senders);
    fprintf(f, "saturation        %.4f of injection bandwidth (aggregate rate with the most flows live)\n",
            r->sat_throughput);
    fprintf(f, "peak throughput   %.4f of injection bandwidth\n", r->peak_throughput);
    fprintf(f, "max link load     %u flows on one switch link (%u with host links)\n", r->max_link_flows,
            r->max_link_flows_all);
    double sum = 0, mx = 0;
    uint32_t used = 0;
    for (uint32_t i = 0; i < t->nlinks; i++) {
        double u = rx_sim_link_util(t, r, i);
        if (r->link_bytes[i] > 0) {
            sum += u;
            used++;
        }
        if (u > mx)
            mx = u;
    }
    fprintf(f, "link utilisation  max %.4f, mean %.4f over %u used links of %u\n", mx, used ? sum / used : 0, used,
            t->nlinks);
    fprintf(f, "simulator         %llu events, %llu solves, peak %u live flows, %.3f s\n",
            (unsigned long long)r->events, (unsigned long long)r->solves, r->peak_live, r->cpu_seconds);
    if (r->phases_reused)
        fprintf(f, "reused phases     %llu (identical to an earlier phase: figures taken from it)\n",
                (unsigned long long)r->phases_reused);
    if (top <= 0)
        return;
    double *v = malloc((size_t)t->nlinks * 2 * sizeof *v);
    if (!v)
        return;
    for (uint32_t i = 0; i < t->nlinks; i++) {
        v[2 * i] = rx_sim_link_util(t, r, i);
        v[2 * i + 1] = i;
    }
    qsort(v, t->nlinks, 2 * sizeof *v, rx_cmp_desc);
    fprintf(f, "hottest links:\n");
    for (int i = 0; i < top && (uint32_t)i < t->nlinks && v[2 * i] > 0; i++) {
        uint32_t l = (uint32_t)v[2 * i + 1];
        char nm[160];
        fprintf(f, "  %-32s %-6s utilisation %.4f  max %u flows\n", rx_topo_link_name(t, l, nm, sizeof nm),
                rx_topo_class_name(t, t->l[l].cls), v[2 * i], r->link_maxflows[l]);
    }
    free(v);
}

int rx_sim_write_csv(const rx_topo_t *t, const rx_sim_result_t *r, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        rx_log_error("%s: %s", path, strerror(errno));
        return RX_ERR_IO;
    }
    fprintf(f, "link,src,dst,class,bandwidth_Bps,bytes,utilisation,max_flows\n");
    for (uint32_t i = 0; i < t->nlinks; i++) {
        char a[64], b[64];
        fprintf(f, "%u,%s,%s,%s,%.6g,%.6g,%.6f,%u\n", i, rx_topo_vertex_name(t, t->l[i].src, a, sizeof a),
                rx_topo_vertex_name(t, t->l[i].dst, b, sizeof b), rx_topo_class_name(t, t->l[i].cls), t->l[i].bw,
                r->link_bytes[i], rx_sim_link_util(t, r, i), r->link_maxflows[i]);
    }
    int bad = ferror(f);
    if (fclose(f) || bad) {
        rx_log_error("%s: write failed", path);
        return RX_ERR_IO;
    }
    return RX_OK;
}
