/* SPDX-License-Identifier: MIT
 * Simulation output: summary text, CSV of per-link load, SVG picture of the fabric's link load.
 *
 * Layouts: fat-trees and loaded fabrics are drawn in rows by level (nodes at the bottom); a
 * dragonfly's groups sit on a circle, routers of a group on a small arc, so that global links are
 * chords. Colour runs from pale (idle) through yellow to dark red (busiest); idle cables are grey. */
#include "output.h"
#include "util/log.h"
#include "util/status.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *rx_vname(const rx_topo_t *t, uint32_t v, char *buf, size_t len)
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
    snprintf(buf, len, "%s->%s", rx_vname(t, t->l[link].src, a, sizeof a), rx_vname(t, t->l[link].dst, b, sizeof b));
    return buf;
}

static double rx_util(const rx_topo_t *t, const rx_sim_result_t *r, uint32_t l)
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
        double u = rx_util(t, r, i);
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
        v[2 * i] = rx_util(t, r, i);
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
        fprintf(f, "%u,%s,%s,%s,%.6g,%.6g,%.6f,%u\n", i, rx_vname(t, t->l[i].src, a, sizeof a),
                rx_vname(t, t->l[i].dst, b, sizeof b), rx_topo_class_name(t, t->l[i].cls), t->l[i].bw,
                r->link_bytes[i], rx_util(t, r, i), r->link_maxflows[i]);
    }
    int bad = ferror(f);
    if (fclose(f) || bad) {
        rx_log_error("%s: write failed", path);
        return RX_ERR_IO;
    }
    return RX_OK;
}

/* 0 -> pale yellow, 0.5 -> orange, 1 -> dark red */
static void rx_color(double u, char *buf, size_t len)
{
    if (u <= 0) {
        snprintf(buf, len, "#d0d0d0");
        return;
    }
    if (u > 1)
        u = 1;
    int r = (int)(255 - 120 * u), g = (int)(230 * (1 - u)), b = (int)(120 * (1 - u) * (1 - u));
    snprintf(buf, len, "#%02x%02x%02x", r, g, b);
}

int rx_sim_write_svg(const rx_topo_t *t, const rx_sim_result_t *r, const char *title, const char *path)
{
    uint32_t V = t->nverts;
    double *x = malloc(V * sizeof *x), *y = malloc(V * sizeof *y);
    if (!x || !y) {
        free(x);
        free(y);
        return RX_ERR_NOMEM;
    }
    double W = 1200, H = 900;
    if (t->family == RX_TOPO_DRAGONFLY) {
        const rx_dragonfly_params_t *df = &t->df;
        double cx = W / 2, cy = H / 2 + 20, R = 330, Rn = 395;
        for (uint32_t v = 0; v < V; v++) {
            uint32_t rr = v < t->nnodes ? v / (uint32_t)df->p : v - t->nnodes;
            uint32_t g = rr / (uint32_t)df->a, i = rr % (uint32_t)df->a;
            double span = 2 * M_PI / df->g * 0.7;
            double ang = 2 * M_PI * g / df->g - span / 2 + span * (i + 0.5) / df->a;
            if (v < t->nnodes) {
                uint32_t j = v % (uint32_t)df->p;
                ang += span / df->a * ((j + 0.5) / df->p - 0.5) * 0.8;
                x[v] = cx + Rn * cos(ang);
                y[v] = cy + Rn * sin(ang);
            } else {
                x[v] = cx + R * cos(ang);
                y[v] = cy + R * sin(ang);
            }
        }
    } else {
        int maxlev = 0;
        for (uint32_t v = 0; v < V; v++)
            if (t->v[v].level > maxlev)
                maxlev = t->v[v].level;
        uint32_t *cnt = calloc((size_t)maxlev + 1, sizeof *cnt), *idx = calloc((size_t)maxlev + 1, sizeof *idx);
        if (!cnt || !idx) {
            free(cnt);
            free(idx);
            free(x);
            free(y);
            return RX_ERR_NOMEM;
        }
        for (uint32_t v = 0; v < V; v++)
            cnt[t->v[v].level]++;
        for (uint32_t v = 0; v < V; v++) {
            int l = t->v[v].level;
            x[v] = 40 + (W - 80) * (idx[l]++ + 0.5) / cnt[l];
            y[v] = H - 60 - (H - 160) * (maxlev ? (double)l / maxlev : 0);
        }
        free(cnt);
        free(idx);
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        rx_log_error("%s: %s", path, strerror(errno));
        free(x);
        free(y);
        return RX_ERR_IO;
    }
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n",
            W, H, W, H);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(f, "<text x=\"20\" y=\"28\" font-family=\"sans-serif\" font-size=\"18\">");
    for (const char *p = title; *p; p++) /* escape for XML */
        fputs(*p == '<' ? "&lt;" : *p == '>' ? "&gt;" : *p == '&' ? "&amp;" : (char[]){*p, 0}, f);
    fprintf(f, "</text>\n");
    fprintf(f, "<text x=\"20\" y=\"50\" font-family=\"sans-serif\" font-size=\"13\">%s; completion %.4g s; "
               "throughput %.3f of injection</text>\n", t->desc, r->time, r->throughput);
    /* legend */
    for (int i = 0; i <= 10; i++) {
        char c[16];
        rx_color(i / 10.0 + (i == 0 ? 1e-9 : 0), c, sizeof c);
        fprintf(f, "<rect x=\"%d\" y=\"62\" width=\"20\" height=\"10\" fill=\"%s\"/>\n", 20 + 20 * i, c);
    }
    fprintf(f, "<text x=\"250\" y=\"72\" font-family=\"sans-serif\" font-size=\"11\">link utilisation 0 .. 1 "
               "(grey: unused)</text>\n");
    double thin = t->nlinks > 4000 ? 0.4 : t->nlinks > 1000 ? 0.8 : 1.5;
    /* idle cables first, busiest last (on top) */
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < t->nlinks; i++) {
            uint32_t j = t->l[i].rev;
            if (j < i)
                continue;
            double u = fmax(rx_util(t, r, i), rx_util(t, r, j));
            int busy = r->link_bytes[i] + r->link_bytes[j] > 0;
            if (busy != pass)
                continue;
            char c[16];
            rx_color(busy ? fmax(u, 1e-6) : 0, c, sizeof c);
            uint32_t a = t->l[i].src, b = t->l[i].dst;
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.2f\"/>\n",
                    x[a], y[a], x[b], y[b], c, busy ? thin * (1 + 2 * u) : thin * 0.6);
        }
    }
    double rad = V > 2000 ? 1.5 : V > 300 ? 2.5 : 4;
    for (uint32_t v = 0; v < V; v++)
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>\n", x[v], y[v],
                v < t->nnodes ? rad * 0.7 : rad, v < t->nnodes ? "#3060c0" : "#303030");
    fprintf(f, "</svg>\n");
    int bad = ferror(f);
    free(x);
    free(y);
    if (fclose(f) || bad) {
        rx_log_error("%s: write failed", path);
        return RX_ERR_IO;
    }
    return RX_OK;
}
