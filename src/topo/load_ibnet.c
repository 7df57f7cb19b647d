/* SPDX-License-Identifier: MIT
 * ibnetdiscover output loader.
 *
 * Sections start with "Switch NPORTS "S-GUID" # "DESCRIPTION" ..." or "Ca NPORTS "H-GUID" # "DESC"";
 * their port lines read "[P](PORTGUID) "PEER-GUID"[Q](PEERPORTGUID) # ... WIDTHxSPEED" (the GUIDs in
 * parentheses are optional). Every cable appears from both ends; it becomes one cable. A CA is
 * a node named by the first word of its description (the host name, as "node01 HCA-1"); a second
 * CA of the same host gets "-GUID" appended. Bandwidth is the data rate of width x lane speed
 * (SDR 2, DDR 4, QDR 8, FDR10 10, FDR 13.64, EDR 25, HDR 50, NDR 100 Gb/s per lane). */
#include "names.h"
#include "topo.h"
#include "util/log.h"
#include "util/status.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct rx_ib_ent {
    char guid[40];
    char name[128];
    int is_switch, line, nports;
    uint32_t vid;
} rx_ib_ent_t;

typedef struct rx_ib_port {
    uint32_t ent; /* index in ents */
    int port, peer_port, line;
    char peer[40];
    double bw; /* bytes/s, 0 when the line gives no rate */
} rx_ib_port_t;

static const struct { const char *n; double g; } rx_ib_speeds[] = {
    {"SDR", 2.0}, {"DDR", 4.0}, {"QDR", 8.0}, {"FDR10", 10.0}, {"FDR", 13.64},
    {"EDR", 25.0}, {"HDR", 50.0}, {"NDR", 100.0}, {"XDR", 200.0}};

static double rx_ib_lane_gbps(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof rx_ib_speeds / sizeof rx_ib_speeds[0]; i++)
        if (strlen(rx_ib_speeds[i].n) == n && !strncmp(s, rx_ib_speeds[i].n, n))
            return rx_ib_speeds[i].g;
    return 0;
}

/* Finds a "WIDTHxSPEED" word among the words after '#', outside quoted descriptions.
 * Returns 0 with *bw = 0 when the line gives no rate, -1 for a rate that is not known
 * (a guess would silently change every result on that link). */
static int rx_ib_rate(const char *comment, double *bw, char *bad, size_t blen)
{
    *bw = 0;
    int quoted = 0;
    for (const char *p = comment; p && *p; p++) {
        if (*p == '"')
            quoted = !quoted;
        if (quoted || !isdigit((unsigned char)*p) || (p != comment && !isspace((unsigned char)p[-1])))
            continue;
        char *end;
        long w = strtol(p, &end, 10);
        if (*end != 'x' || w == 0 || !isalpha((unsigned char)end[1])) /* "0xabc" is a number, not a rate */
            continue;
        size_t n = 0;
        while (isalnum((unsigned char)end[1 + n]))
            n++;
        double g = rx_ib_lane_gbps(end + 1, n);
        if (g <= 0 || w <= 0 || w > 32) {
            snprintf(bad, blen, "%.*s", (int)(end + 1 + n - p), p);
            return -1;
        }
        *bw = (double)w * g * 1e9 / 8.0;
        return 0;
    }
    return 0;
}

/* A port number in brackets: 1..255 (InfiniBand ports are 8-bit; port 0 is a switch's management port). */
static int rx_ib_portnum(const char *s, char **end, int *port)
{
    errno = 0;
    long v = strtol(s, end, 10);
    if (*end == s || errno || v < 0 || v > 255)
        return -1;
    *port = (int)v;
    return 0;
}

/* Reads "QUOTED" at *p into out; advances *p. */
static int rx_ib_quoted(const char **p, char *out, size_t len)
{
    const char *s = *p;
    while (isspace((unsigned char)*s))
        s++;
    if (*s != '"')
        return -1;
    const char *e = strchr(s + 1, '"');
    if (!e || (size_t)(e - s - 1) >= len)
        return -1;
    memcpy(out, s + 1, (size_t)(e - s - 1));
    out[e - s - 1] = 0;
    *p = e + 1;
    return 0;
}

static int rx_ib_parse(const char *path, FILE *f, rx_ib_ent_t **pe, uint32_t *pne, rx_ib_port_t **pp, uint32_t *pnp)
{
    char *buf = NULL; /* lines of any length */
    size_t bcap = 0;
    int line = 0;
    rx_ib_ent_t *ents = NULL;
    rx_ib_port_t *ports = NULL;
    uint32_t ne = 0, np = 0, ecap = 0, pcap = 0;
    int cur = -1;
    while (getline(&buf, &bcap, f) >= 0) {
        line++;
        const char *s = buf;
        while (isspace((unsigned char)*s))
            s++;
        if (!*s || *s == '#')
            continue;
        if (!strncmp(s, "Switch", 6) || !strncmp(s, "Ca", 2) || !strncmp(s, "Rt", 2)) {
            int sw = s[0] == 'S';
            const char *p = s + (sw ? 6 : 2);
            char *end;
            long nports = strtol(p, &end, 10);
            p = end;
            rx_ib_ent_t e = {.is_switch = sw, .line = line, .nports = (int)nports};
            char desc[256] = "";
            if (end == s + (sw ? 6 : 2) || nports <= 0 || nports > 255 || rx_ib_quoted(&p, e.guid, sizeof e.guid)) {
                rx_log_error("%s:%d: expected %s NPORTS \"GUID\"", path, line, sw ? "Switch" : "Ca");
                goto fail;
            }
            const char *hash = strchr(p, '#');
            if (hash) {
                const char *q = hash + 1;
                rx_ib_quoted(&q, desc, sizeof desc);
            }
            if (sw) {
                snprintf(e.name, sizeof e.name, "%s", *desc ? desc : e.guid);
            } else {
                size_t n = strcspn(desc, " \t");
                if (!n)
                    snprintf(e.name, sizeof e.name, "%s", e.guid);
                else
                    snprintf(e.name, sizeof e.name, "%.*s", (int)n, desc);
            }
            if (ne == ecap) {
                ecap = ecap ? ecap * 2 : 64;
                rx_ib_ent_t *x = realloc(ents, ecap * sizeof *x);
                if (!x)
                    goto nomem;
                ents = x;
            }
            ents[ne] = e;
            cur = (int)ne++;
            continue;
        }
        if (*s == '[') {
            if (cur < 0) {
                rx_log_error("%s:%d: port line before any Switch or Ca", path, line);
                goto fail;
            }
            rx_ib_port_t pt = {.ent = (uint32_t)cur, .line = line};
            char *end;
            const char *p;
            if (rx_ib_portnum(s + 1, &end, &pt.port) || *end != ']') {
                rx_log_error("%s:%d: expected [PORT] with PORT 0..255", path, line);
                goto fail;
            }
            if (pt.port > ents[cur].nports) {
                rx_log_error("%s:%d: port %d, but %s has %d ports (line %d)", path, line, pt.port, ents[cur].guid,
                             ents[cur].nports, ents[cur].line);
                goto fail;
            }
            p = end;
            p++;
            if (*p == '(') {
                p = strchr(p, ')');
                if (!p) {
                    rx_log_error("%s:%d: unclosed port GUID", path, line);
                    goto fail;
                }
                p++;
            }
            if (rx_ib_quoted(&p, pt.peer, sizeof pt.peer) || *p != '[') {
                rx_log_error("%s:%d: expected \"PEER-GUID\"[PORT] after the port number", path, line);
                goto fail;
            }
            if (rx_ib_portnum(p + 1, &end, &pt.peer_port) || *end != ']') {
                rx_log_error("%s:%d: bad peer port (expected [PORT] with PORT 0..255)", path, line);
                goto fail;
            }
            const char *hash = strchr(end, '#');
            char bad[64];
            if (hash && rx_ib_rate(hash + 1, &pt.bw, bad, sizeof bad)) {
                rx_log_error("%s:%d: unknown link rate \"%s\" (WIDTHxSPEED, SPEED one of SDR DDR QDR FDR10 FDR EDR "
                             "HDR NDR XDR)", path, line, bad);
                goto fail;
            }
            if (np == pcap) {
                pcap = pcap ? pcap * 2 : 256;
                rx_ib_port_t *x = realloc(ports, pcap * sizeof *x);
                if (!x)
                    goto nomem;
                ports = x;
            }
            ports[np++] = pt;
            continue;
        }
        if (strchr(s, '=')) /* vendid=, devid=, sysimgguid=, switchguid=, caguid= */
            continue;
        rx_log_error("%s:%d: unrecognised line", path, line);
        goto fail;
    }
    int rerr = ferror(f);
    free(buf);
    if (rerr) {
        rx_log_error("%s:%d: %s", path, line + 1, strerror(errno));
        free(ents);
        free(ports);
        return RX_ERR_IO;
    }
    *pe = ents;
    *pne = ne;
    *pp = ports;
    *pnp = np;
    return RX_OK;
nomem:
    free(buf);
    free(ents);
    free(ports);
    return RX_ERR_NOMEM;
fail:
    free(buf);
    free(ents);
    free(ports);
    return RX_ERR_INVAL;
}

/* A class's rate is the slowest rate its cables give (all cables, when none of the class has one);
 * cables listed without a rate at either end take the rate of their class. */
static void rx_ib_class_rates(rx_topo_t *t, const rx_ib_port_t *ports, uint32_t np, const uint32_t *cable)
{
    double cmin[RX_TOPO_NCLASS] = {0}, amin = 0;
    for (uint32_t i = 0; i < np; i++) {
        if (cable[i] == UINT32_MAX || ports[i].bw <= 0)
            continue;
        const rx_topo_link_t *l = &t->l[cable[i]];
        if (cmin[l->cls] == 0 || l->bw < cmin[l->cls])
            cmin[l->cls] = l->bw;
        if (amin == 0 || l->bw < amin)
            amin = l->bw;
    }
    for (int c = 0; c < RX_TOPO_NCLASS; c++)
        if (cmin[c] > 0 || amin > 0)
            t->cls_bw[c] = cmin[c] > 0 ? cmin[c] : amin;
    for (uint32_t i = 0; i < np; i++) {
        if (cable[i] == UINT32_MAX || ports[i].bw > 0)
            continue;
        rx_topo_link_t *l = &t->l[cable[i]];
        l->bw = t->l[l->rev].bw = t->cls_bw[l->cls];
    }
}

int rx_topo_load_ibnet(const char *path, rx_topo_t **out)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        rx_log_error("%s: %s", path, strerror(errno));
        return RX_ERR_IO;
    }
    rx_ib_ent_t *ents;
    rx_ib_port_t *ports;
    uint32_t ne, np;
    int rc = rx_ib_parse(path, f, &ents, &ne, &ports, &np);
    fclose(f);
    if (rc)
        return rc;
    rx_names_t guids = {0}, hosts = {0}, seen = {0};
    rx_topo_t *t = NULL;
    rc = rx_topo_new(&t);
    /* CAs are the nodes and must come first */
    for (int pass = 0; pass < 2 && !rc; pass++) {
        for (uint32_t i = 0; i < ne && !rc; i++) {
            rx_ib_ent_t *e = &ents[i];
            if (e->is_switch != pass)
                continue;
            if (rx_names_put(&guids, e->guid, i)) {
                rx_log_error("%s:%d: %s described twice", path, e->line, e->guid);
                rc = RX_ERR_INVAL;
                break;
            }
            if (!pass && rx_names_put(&hosts, e->name, i)) {
                size_t n = strlen(e->name);
                snprintf(e->name + n, sizeof e->name - n, "-%s", e->guid + 2);
            }
            rc = rx_topo_add_vertex(t, pass ? RX_TOPO_SWITCH : RX_TOPO_NODE, pass, 0, e->name, &e->vid);
        }
    }
    if (!rc && t->nnodes == 0) {
        rx_log_error("%s: no Ca (host) sections", path);
        rc = RX_ERR_INVAL;
    }
    /* every cable is listed from both ends: the first end adds it and marks both ends in `seen`
     * with its line; the other end must name the same pair of ports */
    uint32_t *cable = malloc((np + 1) * sizeof *cable); /* port line -> first link of its cable */
    if (!rc && !cable)
        rc = RX_ERR_NOMEM;
    for (uint32_t i = 0; i < np && !rc; i++) {
        rx_ib_port_t *pt = &ports[i];
        cable[i] = UINT32_MAX;
        uint32_t peer = rx_names_get(&guids, pt->peer);
        if (peer == UINT32_MAX) {
            rx_log_error("%s:%d: peer %s is not described in the file", path, pt->line, pt->peer);
            rc = RX_ERR_INVAL;
            break;
        }
        if (pt->peer_port > ents[peer].nports) {
            rx_log_error("%s:%d: peer port %d, but %s has %d ports (line %d)", path, pt->line, pt->peer_port,
                         pt->peer, ents[peer].nports, ents[peer].line);
            rc = RX_ERR_INVAL;
            break;
        }
        char me[96], far[96];
        snprintf(me, sizeof me, "%s/%d", ents[pt->ent].guid, pt->port);
        snprintf(far, sizeof far, "%s/%d", pt->peer, pt->peer_port);
        uint32_t j = rx_names_get(&seen, me);
        if (j != UINT32_MAX) {
            const rx_ib_port_t *q = &ports[j];
            if (q->ent != peer || q->port != pt->peer_port) {
                rx_log_error("%s:%d: port %d of %s goes to %s[%d] here but to %s[%d] on line %d", path, pt->line,
                             pt->port, ents[pt->ent].name, ents[peer].name, pt->peer_port, ents[q->ent].name, q->port,
                             q->line);
                rc = RX_ERR_INVAL;
                break;
            }
            /* the far end may be the one that gives the rate */
            uint32_t lk = cable[j];
            if (lk != UINT32_MAX && ports[j].bw <= 0 && pt->bw > 0) {
                t->l[lk].bw = t->l[lk + 1].bw = pt->bw;
                ports[j].bw = pt->bw;
            }
            continue;
        }
        j = rx_names_get(&seen, far);
        if (j != UINT32_MAX) {
            const rx_ib_port_t *q = &ports[j];
            rx_log_error("%s:%d: port %d of %s is already cabled to port %d of %s (line %d)", path, pt->line,
                         pt->peer_port, ents[peer].name, q->port, ents[q->ent].name, q->line);
            rc = RX_ERR_INVAL;
            break;
        }
        if ((rc = rx_names_put(&seen, me, i)) || (rc = rx_names_put(&seen, far, i)))
            break;
        const rx_ib_ent_t *a = &ents[pt->ent], *b = &ents[peer];
        if (!a->is_switch && !b->is_switch) {
            rx_log_error("%s:%d: host-to-host cables are not supported", path, pt->line);
            rc = RX_ERR_UNSUPPORTED;
            break;
        }
        int cls = a->is_switch && b->is_switch ? RX_LC_L1 : RX_LC_HOST;
        cable[i] = t->nlinks;
        rc = rx_topo_add_cable(t, a->vid, b->vid, cls, 1, pt->bw, 0);
    }
    if (!rc)
        rc = rx_topo_finalize(t);
    if (!rc) {
        t->family = RX_TOPO_GENERIC;
        snprintf(t->desc, sizeof t->desc, "ibnet:%s", path);
        rx_ib_class_rates(t, ports, np, cable);
    }
    free(cable);
    rx_names_free(&guids);
    rx_names_free(&hosts);
    rx_names_free(&seen);
    free(ents);
    free(ports);
    if (rc) {
        rx_topo_free(t);
        return rc;
    }
    *out = t;
    return RX_OK;
}
