/* SPDX-License-Identifier: MIT
 * The fabric graph: vertices, cables as pairs of directed links, per-class bandwidth and latency,
 * and the parsing of fabric specifications. */
#include "topo.h"
#include "util/log.h"
#include "util/status.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int rx_topo_new(rx_topo_t **out)
{
    rx_topo_t *t = calloc(1, sizeof *t);
    if (!t)
        return RX_ERR_NOMEM;
    for (int c = 0; c < RX_TOPO_NCLASS; c++) {
        t->cls_bw[c] = RX_TOPO_DEFAULT_BW;
        t->cls_lat[c] = RX_TOPO_DEFAULT_LAT;
    }
    *out = t;
    return RX_OK;
}

void rx_topo_free(rx_topo_t *t)
{
    if (!t)
        return;
    for (uint32_t i = 0; i < t->nverts; i++)
        free(t->v[i].name);
    free(t->v);
    free(t->l);
    free(t->out);
    free(t->df.gidx);
    free(t->df.glinks);
    free(t->df.local);
    free(t->dist);
    free(t->node_sw);
    free(t);
}

int rx_topo_add_vertex(rx_topo_t *t, int kind, int level, uint32_t group, const char *name, uint32_t *id)
{
    if (kind == RX_TOPO_NODE && t->nverts != t->nnodes) {
        rx_log_error("rdmx-topo: nodes must be added before switches");
        return RX_ERR_INTERN;
    }
    if (t->nverts == t->vcap) {
        uint32_t cap = t->vcap ? t->vcap * 2 : 256;
        rx_topo_vertex_t *v = realloc(t->v, cap * sizeof *v);
        if (!v)
            return RX_ERR_NOMEM;
        t->v = v;
        t->vcap = cap;
    }
    rx_topo_vertex_t *v = &t->v[t->nverts];
    memset(v, 0, sizeof *v);
    v->kind = (uint8_t)kind;
    v->level = (uint8_t)level;
    v->group = group;
    if (name && !(v->name = strdup(name)))
        return RX_ERR_NOMEM;
    if (id)
        *id = t->nverts;
    t->nverts++;
    if (kind == RX_TOPO_NODE)
        t->nnodes++;
    return RX_OK;
}

int rx_topo_add_cable(rx_topo_t *t, uint32_t a, uint32_t b, int cls, double mult, double bw, double lat)
{
    if (a >= t->nverts || b >= t->nverts || a == b || cls < 0 || cls >= RX_TOPO_NCLASS)
        return RX_ERR_INVAL;
    if (t->nlinks + 2 > t->lcap) {
        uint32_t cap = t->lcap ? t->lcap * 2 : 1024;
        rx_topo_link_t *l = realloc(t->l, cap * sizeof *l);
        if (!l)
            return RX_ERR_NOMEM;
        t->l = l;
        t->lcap = cap;
    }
    double b0 = bw > 0 ? bw : t->cls_bw[cls] * (mult > 0 ? mult : 1.0);
    double l0 = lat > 0 ? lat : t->cls_lat[cls];
    rx_topo_link_t *x = &t->l[t->nlinks], *y = x + 1;
    *x = (rx_topo_link_t){.src = a, .dst = b, .rev = t->nlinks + 1, .cls = (uint8_t)cls, .bw = b0, .lat = l0};
    *y = (rx_topo_link_t){.src = b, .dst = a, .rev = t->nlinks, .cls = (uint8_t)cls, .bw = b0, .lat = l0};
    t->nlinks += 2;
    t->cls_used[cls] = 1;
    return RX_OK;
}

int rx_topo_node_lookup(const rx_topo_t *t, const char *s, uint32_t *id)
{
    for (uint32_t i = 0; i < t->nnodes; i++)
        if (t->v[i].name && !strcmp(t->v[i].name, s)) {
            *id = i;
            return RX_OK;
        }
    const char *d = s[0] == 'n' ? s + 1 : s;
    char *end;
    errno = 0;
    unsigned long v = isdigit((unsigned char)*d) ? strtoul(d, &end, 10) : ULONG_MAX;
    if (v == ULONG_MAX || errno || *end || v >= t->nnodes || (d != s && t->v[v].name))
        return RX_ERR_NOTFOUND;
    *id = (uint32_t)v;
    return RX_OK;
}

int rx_topo_finalize(rx_topo_t *t)
{
    free(t->out);
    t->out = malloc((size_t)(t->nlinks ? t->nlinks : 1) * sizeof *t->out);
    if (!t->out)
        return RX_ERR_NOMEM;
    for (uint32_t i = 0; i < t->nverts; i++)
        t->v[i].nports = 0;
    for (uint32_t i = 0; i < t->nlinks; i++)
        t->v[t->l[i].src].nports++;
    uint32_t acc = 0;
    for (uint32_t i = 0; i < t->nverts; i++) {
        t->v[i].port0 = acc;
        acc += t->v[i].nports;
        t->v[i].nports = 0;
    }
    /* a stable pass keeps ports in the order cables were added: routing relies on it */
    for (uint32_t i = 0; i < t->nlinks; i++) {
        rx_topo_vertex_t *v = &t->v[t->l[i].src];
        t->out[v->port0 + v->nports++] = i;
    }
    for (uint32_t i = 0; i < t->nnodes; i++) {
        if (t->v[i].nports == 0) {
            rx_log_error("rdmx-topo: node %u (%s) has no link", i, t->v[i].name ? t->v[i].name : "?");
            return RX_ERR_INVAL;
        }
    }
    return RX_OK;
}

void rx_topo_set_class(rx_topo_t *t, int cls, double bw, double lat)
{
    double oldbw = t->cls_bw[cls];
    if (bw > 0)
        t->cls_bw[cls] = bw;
    if (lat > 0)
        t->cls_lat[cls] = lat;
    for (uint32_t i = 0; i < t->nlinks; i++) {
        if (t->l[i].cls != cls)
            continue;
        if (bw > 0)
            t->l[i].bw = t->l[i].bw / oldbw * bw; /* keeps parallel-cable multipliers */
        if (lat > 0)
            t->l[i].lat = lat;
    }
}

const char *rx_topo_class_name(const rx_topo_t *t, int cls)
{
    static const char *ft[] = {"host", "l1", "l2", "l3", "l4", "l5", "l6", "l7"};
    if (cls == RX_LC_HOST)
        return "host";
    if (t->family == RX_TOPO_DRAGONFLY)
        return cls == RX_LC_LOCAL ? "local" : cls == RX_LC_GLOBAL ? "global" : "?";
    if (t->family == RX_TOPO_GENERIC)
        return "switch";
    return cls < RX_TOPO_NCLASS ? ft[cls] : "?";
}

static int rx_topo_class_by_name(const rx_topo_t *t, const char *name, int *cls)
{
    for (int c = 0; c < RX_TOPO_NCLASS; c++) {
        if (!strcasecmp(name, rx_topo_class_name(t, c)) && (t->cls_used[c] || c == 0)) {
            *cls = c;
            return RX_OK;
        }
    }
    if (!strcasecmp(name, "all")) {
        *cls = -1;
        return RX_OK;
    }
    return RX_ERR_NOTFOUND;
}

uint32_t rx_topo_link_between(const rx_topo_t *t, uint32_t v, uint32_t w)
{
    const rx_topo_vertex_t *x = &t->v[v];
    for (uint32_t i = 0; i < x->nports; i++)
        if (t->l[t->out[x->port0 + i]].dst == w)
            return t->out[x->port0 + i];
    return UINT32_MAX;
}

int rx_topo_parse_bw(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || v <= 0)
        return -1;
    double mul = 1;
    switch (toupper((unsigned char)*end)) {
    case 'K': mul = 1e3; end++; break;
    case 'M': mul = 1e6; end++; break;
    case 'G': mul = 1e9; end++; break;
    case 'T': mul = 1e12; end++; break;
    default: break;
    }
    /* bits unless a capital B says bytes: link speeds are quoted in bits ("100G", "100Gb", "100Gbps") */
    int bytes = 0;
    if (*end == 'B') {
        bytes = 1;
        end++;
        if (*end == 'p' && end[1] == 's')
            end += 2;
        else if (*end == '/' && end[1] == 's')
            end += 2;
    } else if (*end == 'b') {
        end++;
        if (*end == 'p' && end[1] == 's')
            end += 2;
    } else if (*end == 'b' || !strncmp(end, "bps", 3)) {
        end += 3;
    }
    if (*end)
        return -1;
    *out = bytes ? v * mul : v * mul / 8.0;
    return 0;
}

int rx_topo_parse_time(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || v < 0)
        return -1;
    if (!strcmp(end, "s") || !*end)
        *out = v;
    else if (!strcmp(end, "ms"))
        *out = v * 1e-3;
    else if (!strcmp(end, "us"))
        *out = v * 1e-6;
    else if (!strcmp(end, "ns"))
        *out = v * 1e-9;
    else
        return -1;
    return 0;
}

int rx_topo_apply_link_opt(rx_topo_t *t, const char *opt)
{
    /* CLASS:VALUE sets bandwidth; lat:CLASS:VALUE sets latency */
    char buf[128];
    snprintf(buf, sizeof buf, "%s", opt);
    int is_lat = 0;
    char *p = buf;
    if (!strncmp(p, "lat:", 4)) {
        is_lat = 1;
        p += 4;
    }
    char *colon = strchr(p, ':');
    if (!colon) {
        rx_log_error("rdmx-topo: link option \"%s\": expected CLASS:VALUE or lat:CLASS:VALUE", opt);
        return RX_ERR_INVAL;
    }
    *colon = 0;
    int cls;
    if (rx_topo_class_by_name(t, p, &cls) != RX_OK) {
        rx_log_error("rdmx-topo: link option \"%s\": no link class \"%s\" in this fabric", opt, p);
        return RX_ERR_INVAL;
    }
    double val;
    if (is_lat ? rx_topo_parse_time(colon + 1, &val) : rx_topo_parse_bw(colon + 1, &val)) {
        rx_log_error("rdmx-topo: link option \"%s\": bad %s \"%s\"", opt, is_lat ? "latency" : "bandwidth", colon + 1);
        return RX_ERR_INVAL;
    }
    for (int c = 0; c < RX_TOPO_NCLASS; c++) {
        if (cls >= 0 && c != cls)
            continue;
        if (is_lat)
            rx_topo_set_class(t, c, -1, val);
        else
            rx_topo_set_class(t, c, val, -1);
    }
    return RX_OK;
}

static int rx_parse_intlist(const char *s, int *v, int max, int *n)
{
    *n = 0;
    while (*s) {
        char *end;
        long x = strtol(s, &end, 10);
        if (end == s || x <= 0 || x > 1000000 || *n >= max)
            return -1;
        v[(*n)++] = (int)x;
        s = end;
        if (*s == ',')
            s++;
        else if (*s)
            return -1;
    }
    return *n ? 0 : -1;
}

static int rx_topo_spec_xgft(const char *s, rx_topo_t **out)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    char *parts[4] = {0};
    int np = 0;
    for (char *tok = strtok(buf, ";"); tok && np < 4; tok = strtok(NULL, ";"))
        parts[np++] = tok;
    rx_fattree_params_t p = {0};
    int n1, n2, n3 = 0;
    if (np < 3 || rx_parse_intlist(parts[0], &p.levels, 1, &n1) || p.levels > RX_FT_MAXLEVEL ||
        rx_parse_intlist(parts[1], p.down, RX_FT_MAXLEVEL, &n1) ||
        rx_parse_intlist(parts[2], p.up, RX_FT_MAXLEVEL, &n2) ||
        (np == 4 && rx_parse_intlist(parts[3], p.par, RX_FT_MAXLEVEL, &n3)) || n1 != p.levels ||
        n2 != p.levels || (np == 4 && n3 != p.levels)) {
        rx_log_error("rdmx-topo: xgft:%s: expected LEVELS;DOWN1,..;UP1,..[;PAR1,..] with LEVELS entries each", s);
        return RX_ERR_INVAL;
    }
    if (np < 4)
        for (int i = 0; i < p.levels; i++)
            p.par[i] = 1;
    return rx_topo_gen_xgft(&p, out);
}

static int rx_topo_spec_dragonfly(const char *s, rx_topo_t **out)
{
    int a = 0, p = 0, h = 0, g = 0, arr = RX_DF_ABSOLUTE;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        char *eq = strchr(tok, '=');
        if (!eq)
            goto bad;
        *eq = 0;
        const char *val = eq + 1;
        if (!strcmp(tok, "arrangement") || !strcmp(tok, "arr")) {
            if (!strcmp(val, "absolute") || !strcmp(val, "consecutive"))
                arr = RX_DF_ABSOLUTE;
            else if (!strcmp(val, "relative") || !strcmp(val, "palmtree") || !strcmp(val, "palm-tree"))
                arr = RX_DF_RELATIVE;
            else
                goto bad;
            continue;
        }
        char *end;
        long x = strtol(val, &end, 10);
        if (*end || x <= 0)
            goto bad;
        if (!strcmp(tok, "a")) a = (int)x;
        else if (!strcmp(tok, "p")) p = (int)x;
        else if (!strcmp(tok, "h")) h = (int)x;
        else if (!strcmp(tok, "g")) g = (int)x;
        else goto bad;
    }
    if (!a || !p || !h)
        goto bad;
    if (!g)
        g = a * h + 1;
    return rx_topo_gen_dragonfly(a, p, h, g, arr, out);
bad:
    rx_log_error("rdmx-topo: dragonfly:%s: expected a=A,p=P,h=H[,g=G][,arrangement=absolute|relative]", s);
    return RX_ERR_INVAL;
}

int rx_topo_from_spec(const char *spec, rx_topo_t **out)
{
    const char *colon = strchr(spec, ':');
    if (!colon) {
        rx_log_error("rdmx-topo: fabric \"%s\": expected FAMILY:PARAMETERS (kary, radix, xgft, dragonfly, slurm, ibnet)", spec);
        return RX_ERR_INVAL;
    }
    size_t fl = (size_t)(colon - spec);
    const char *arg = colon + 1;
    int k, n;
    if (fl == 4 && !strncmp(spec, "kary", 4)) {
        if (sscanf(arg, "%d,%d", &k, &n) != 2) {
            rx_log_error("rdmx-topo: kary:%s: expected K,N", arg);
            return RX_ERR_INVAL;
        }
        return rx_topo_gen_kary(k, n, out);
    }
    if (fl == 5 && !strncmp(spec, "radix", 5)) {
        if (sscanf(arg, "%d,%d", &k, &n) != 2) {
            rx_log_error("rdmx-topo: radix:%s: expected PORTS,LEVELS", arg);
            return RX_ERR_INVAL;
        }
        return rx_topo_gen_radix(k, n, out);
    }
    if (fl == 4 && !strncmp(spec, "xgft", 4))
        return rx_topo_spec_xgft(arg, out);
    if (fl == 9 && !strncmp(spec, "dragonfly", 9))
        return rx_topo_spec_dragonfly(arg, out);
    if (fl == 5 && !strncmp(spec, "slurm", 5))
        return rx_topo_load_slurm(arg, out);
    if (fl == 5 && !strncmp(spec, "ibnet", 5))
        return rx_topo_load_ibnet(arg, out);
    rx_log_error("rdmx-topo: unknown fabric family in \"%s\" (kary, radix, xgft, dragonfly, slurm, ibnet)", spec);
    return RX_ERR_INVAL;
}
