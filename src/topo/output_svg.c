/* SPDX-License-Identifier: MIT
 * SVG pictures of link load.
 *
 * Link view: fat-trees and loaded fabrics in rows by level (nodes at the bottom); a dragonfly's
 * groups on a circle, the routers of a group on a small arc, so that global links are chords. Each
 * cable is two lines side by side, one per direction (the one to the right of the way it carries
 * traffic), so that a link loaded one way shows as such; switches carry their names while they fit.
 * Colour runs from pale (idle) through yellow to dark red (busiest); idle links are grey.
 *
 * Aggregate view, for fabrics too large to draw link by link: dragonflies as a group-by-group
 * matrix of their global links (the busiest link from group s to group d, and the local links of
 * each group on the diagonal); other fabrics as bars per link class and direction (up: towards
 * higher levels) with the mean and the busiest link's utilisation. */
#include "output.h"
#include "util/log.h"
#include "util/status.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

static void rx_xml(FILE *f, const char *s)
{
    for (const char *p = s; *p; p++)
        fputs(*p == '<' ? "&lt;" : *p == '>' ? "&gt;" : *p == '&' ? "&amp;" : *p == '"' ? "&quot;" : (char[]){*p, 0},
              f);
}

static void rx_svg_head(FILE *f, const rx_topo_t *t, const rx_sim_result_t *r, const char *title, double W, double H,
                        const char *what)
{
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n",
            W, H, W, H);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(f, "<text x=\"20\" y=\"28\" font-family=\"sans-serif\" font-size=\"18\">");
    rx_xml(f, title);
    fprintf(f, "</text>\n<text x=\"20\" y=\"50\" font-family=\"sans-serif\" font-size=\"13\">");
    rx_xml(f, t->desc);
    fprintf(f, "; completion %.4g s; throughput %.3f of injection; %s</text>\n", r->time, r->throughput, what);
    for (int i = 0; i <= 10; i++) {
        char c[16];
        rx_color(i / 10.0 + (i == 0 ? 1e-9 : 0), c, sizeof c);
        fprintf(f, "<rect x=\"%d\" y=\"62\" width=\"20\" height=\"10\" fill=\"%s\"/>\n", 20 + 20 * i, c);
    }
    fprintf(f, "<text x=\"250\" y=\"72\" font-family=\"sans-serif\" font-size=\"11\">link utilisation 0 .. 1 "
               "(grey: unused)</text>\n");
}

static int rx_svg_layout(const rx_topo_t *t, double W, double H, double *x, double *y)
{
    uint32_t V = t->nverts;
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
        return RX_OK;
    }
    int maxlev = 0;
    for (uint32_t v = 0; v < V; v++)
        if (t->v[v].level > maxlev)
            maxlev = t->v[v].level;
    uint32_t *cnt = calloc((size_t)maxlev + 1, sizeof *cnt), *idx = calloc((size_t)maxlev + 1, sizeof *idx);
    if (!cnt || !idx) {
        free(cnt);
        free(idx);
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
    return RX_OK;
}

static void rx_svg_links(FILE *f, const rx_topo_t *t, const rx_sim_result_t *r, const double *x, const double *y)
{
    uint32_t V = t->nverts;
    double thin = t->nlinks > 1000 ? 0.6 : 1.2;
    /* idle links first, busiest last (on top) */
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < t->nlinks; i++) {
            int busy = r->link_bytes[i] > 0;
            if (busy != pass)
                continue;
            double u = rx_sim_link_util(t, r, i);
            char c[16], nm[160];
            rx_color(busy ? fmax(u, 1e-6) : 0, c, sizeof c);
            uint32_t a = t->l[i].src, b = t->l[i].dst;
            double dx = x[b] - x[a], dy = y[b] - y[a], len = hypot(dx, dy);
            double off = len > 0 ? thin * 1.2 / len : 0; /* to the right of a -> b */
            double ox = -dy * off, oy = dx * off;
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.2f\">"
                       "<title>",
                    x[a] + ox, y[a] + oy, x[b] + ox, y[b] + oy, c, busy ? thin * (1 + 1.5 * u) : thin * 0.6);
            rx_xml(f, rx_topo_link_name(t, i, nm, sizeof nm));
            fprintf(f, " %.3f</title></line>\n", u);
        }
    }
    double rad = V > 2000 ? 1.5 : V > 300 ? 2.5 : 4;
    uint32_t nsw = V - t->nnodes;
    for (uint32_t v = 0; v < V; v++) {
        char nm[64];
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"><title>", x[v], y[v],
                v < t->nnodes ? rad * 0.7 : rad, v < t->nnodes ? "#3060c0" : "#303030");
        rx_xml(f, rx_topo_vertex_name(t, v, nm, sizeof nm));
        fprintf(f, "</title></circle>\n");
        if (v >= t->nnodes && nsw <= 200) {
            fprintf(f, "<text class=\"switch\" x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"%d\" "
                       "text-anchor=\"middle\">",
                    x[v], y[v] - rad - 2, nsw <= 60 ? 10 : 7);
            rx_xml(f, nm);
            fprintf(f, "</text>\n");
        }
    }
}

/* Dragonfly: cell (s, d) is the busiest global link from group s to group d; the diagonal holds
 * the busiest local link of each group. */
static int rx_svg_groups(FILE *f, const rx_topo_t *t, const rx_sim_result_t *r, double W)
{
    uint32_t g = (uint32_t)t->df.g, a = (uint32_t)t->df.a;
    double *m = calloc((size_t)g * g, sizeof *m);
    unsigned char *has = calloc((size_t)g * g, 1);
    if (!m || !has) {
        free(m);
        free(has);
        return RX_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < t->nlinks; i++) {
        const rx_topo_link_t *l = &t->l[i];
        if (l->src < t->nnodes || l->dst < t->nnodes)
            continue;
        uint32_t gs = (l->src - t->nnodes) / a, gd = (l->dst - t->nnodes) / a;
        size_t k = (size_t)gs * g + gd;
        m[k] = fmax(m[k], rx_sim_link_util(t, r, i));
        has[k] = 1;
    }
    double cell = fmin(20, (W - 120) / g), x0 = 80, y0 = 110;
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">group pair: busiest global "
               "link from row group to column group; diagonal: busiest local link</text>\n", x0, y0 - 12);
    for (uint32_t s = 0; s < g; s++) {
        if (g <= 64 || s % 8 == 0)
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"8\" text-anchor=\"end\">g%u"
                       "</text>\n", x0 - 3, y0 + cell * (s + 0.7), s);
        for (uint32_t d = 0; d < g; d++) {
            size_t k = (size_t)s * g + d;
            if (!has[k])
                continue;
            char c[16];
            rx_color(m[k], c, sizeof c);
            fprintf(f, "<rect class=\"gp\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
                       "<title>g%u-&gt;g%u %.3f</title></rect>\n",
                    x0 + cell * d, y0 + cell * s, cell * 0.95, cell * 0.95, c, s, d, m[k]);
        }
    }
    free(m);
    free(has);
    return RX_OK;
}

/* Trees and loaded fabrics: per link class and direction, mean and busiest utilisation. */
static void rx_svg_levels(FILE *f, const rx_topo_t *t, const rx_sim_result_t *r)
{
    double sum[RX_TOPO_NCLASS][2] = {{0}}, mx[RX_TOPO_NCLASS][2] = {{0}};
    uint32_t n[RX_TOPO_NCLASS][2] = {{0}};
    for (uint32_t i = 0; i < t->nlinks; i++) {
        const rx_topo_link_t *l = &t->l[i];
        int up = t->v[l->dst].level > t->v[l->src].level || (t->v[l->dst].level == t->v[l->src].level && l->src < l->dst);
        double u = rx_sim_link_util(t, r, i);
        sum[l->cls][up] += u;
        mx[l->cls][up] = fmax(mx[l->cls][up], u);
        n[l->cls][up]++;
    }
    double y = 110, x0 = 180, bw = 700;
    fprintf(f, "<text x=\"20\" y=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">per link class and direction: "
               "bar = mean utilisation, tick = busiest link</text>\n", y - 12);
    for (int c = 0; c < RX_TOPO_NCLASS; c++)
        for (int up = 1; up >= 0; up--) {
            if (!n[c][up])
                continue;
            double mean = sum[c][up] / n[c][up];
            char col[16];
            rx_color(mean > 0 ? fmax(mean, 1e-6) : 0, col, sizeof col);
            fprintf(f, "<text class=\"level\" x=\"20\" y=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">%s %s "
                       "(%u links)</text>\n", y + 12, rx_topo_class_name(t, c), up ? "up" : "down", n[c][up]);
            fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.1f\" height=\"14\" fill=\"%s\"/>\n", x0, y,
                    fmax(1, bw * fmin(mean, 1)), col);
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"black\" stroke-width=\"2\"/>\n",
                    x0 + bw * fmin(mx[c][up], 1), y - 2, x0 + bw * fmin(mx[c][up], 1), y + 16);
            fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-family=\"sans-serif\" font-size=\"11\">mean %.3f, max %.3f"
                       "</text>\n", x0 + bw + 15, y + 12, mean, mx[c][up]);
            y += 26;
        }
}

int rx_sim_write_svg(const rx_topo_t *t, const rx_sim_result_t *r, const char *title, const char *path, int view)
{
    if (view == RX_SVG_AUTO)
        view = t->nlinks > RX_SVG_MAXLINKS ? RX_SVG_AGGREGATE : RX_SVG_LINKS;
    double W = 1200, H = 900;
    double *x = NULL, *y = NULL;
    if (view == RX_SVG_LINKS) {
        x = malloc(t->nverts * sizeof *x);
        y = malloc(t->nverts * sizeof *y);
        if (!x || !y || rx_svg_layout(t, W, H, x, y)) {
            free(x);
            free(y);
            return RX_ERR_NOMEM;
        }
    } else if (t->family == RX_TOPO_DRAGONFLY) {
        H = 140 + fmin(20, (W - 120) / t->df.g) * t->df.g;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        rx_log_error("%s: %s", path, strerror(errno));
        free(x);
        free(y);
        return RX_ERR_IO;
    }
    int rc = RX_OK;
    rx_svg_head(f, t, r, title, W, H,
                view == RX_SVG_LINKS ? "each cable drawn as its two directions"
                : t->family == RX_TOPO_DRAGONFLY ? "aggregated per group pair" : "aggregated per level");
    if (view == RX_SVG_LINKS)
        rx_svg_links(f, t, r, x, y);
    else if (t->family == RX_TOPO_DRAGONFLY)
        rc = rx_svg_groups(f, t, r, W);
    else
        rx_svg_levels(f, t, r);
    fprintf(f, "</svg>\n");
    int bad = ferror(f);
    free(x);
    free(y);
    if (fclose(f) || bad) {
        rx_log_error("%s: write failed", path);
        return RX_ERR_IO;
    }
    return rc;
}
