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
    int is_switch, line;
    uint32_t vid;
} rx_ib_ent_t;

typedef struct rx_ib_port {
    uint32_t ent; /* index in ents */
    int port, peer_port, line;
    char peer[40];
    double bw; /* bytes/s, 0 when the line gives no rate */
} rx_ib_port_t;

static double rx_ib_lane_gbps(const char *s)
{
    static const struct { const char *n; double g; } sp[] = {
        {"FDR10", 10.0}, {"SDR", 2.0}, {"DDR", 4.0}, {"QDR", 8.0}, {"FDR", 13.64},
        {"EDR", 25.0},   {"HDR", 50.0}, {"NDR", 100.0}, {"XDR", 200.0}};
    for (size_t i = 0; i < sizeof sp / sizeof sp[0]; i++)
        if (!strncmp(s, sp[i].n, strlen(sp[i].n)))
            return sp[i].g;
    return 0;
}

/* Finds "NxSPEED" among the words after '#'. */
static double rx_ib_rate(const char *comment)
{
    for (const char *p = comment; p && *p; p++) {
        if (isdigit((unsigned char)*p) && (p == comment || isspace((unsigned char)p[-1]))) {
            char *end;
            long w = strtol(p, &end, 10);
            if (*end == 'x' && w > 0 && w <= 32) {
                double g = rx_ib_lane_gbps(end + 1);
                if (g > 0)
                    return (double)w * g * 1e9 / 8.0;
            }
        }
    }
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
    char buf[4096];
    int line = 0;
    rx_ib_ent_t *ents = NULL;
    rx_ib_port_t *ports = NULL;
    uint32_t ne = 0, np = 0, ecap = 0, pcap = 0;
    int cur = -1;
    while (fgets(buf, sizeof buf, f)) {
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
            rx_ib_ent_t e = {.is_switch = sw, .line = line};
            char desc[256] = "";
            if (end == s + (sw ? 6 : 2) || nports <= 0 || rx_ib_quoted(&p, e.guid, sizeof e.guid)) {
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
            pt.port = (int)strtol(s + 1, &end, 10);
            const char *p = end;
            if (end == s + 1 || *p != ']') {
                rx_log_error("%s:%d: expected [PORT]", path, line);
                goto fail;
            }
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
            pt.peer_port = (int)strtol(p + 1, &end, 10);
            if (end == p + 1 || *end != ']') {
                rx_log_error("%s:%d: bad peer port", path, line);
                goto fail;
            }
            const char *hash = strchr(end, '#');
            pt.bw = hash ? rx_ib_rate(hash + 1) : 0;
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
    *pe = ents;
    *pne = ne;
    *pp = ports;
    *pnp = np;
    return RX_OK;
nomem:
    free(ents);
    free(ports);
    return RX_ERR_NOMEM;
fail:
    free(ents);
    free(ports);
    return RX_ERR_INVAL;
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
    double minbw = 0;
    for (uint32_t i = 0; i < np && !rc; i++) {
        rx_ib_port_t *pt = &ports[i];
        uint32_t peer = rx_names_get(&guids, pt->peer);
        if (peer == UINT32_MAX) {
            rx_log_error("%s:%d: peer %s is not described in the file", path, pt->line, pt->peer);
            rc = RX_ERR_INVAL;
            break;
        }
        /* the first end seen adds the cable; the other end finds its own key in `seen` */
        char key[96];
        snprintf(key, sizeof key, "%s/%d", ents[pt->ent].guid, pt->port);
        if (rx_names_get(&seen, key) != UINT32_MAX)
            continue;
        snprintf(key, sizeof key, "%s/%d", pt->peer, pt->peer_port);
        if ((rc = rx_names_put(&seen, key, i)))
            break;
        const rx_ib_ent_t *a = &ents[pt->ent], *b = &ents[peer];
        if (!a->is_switch && !b->is_switch) {
            rx_log_error("%s:%d: host-to-host cables are not supported", path, pt->line);
            rc = RX_ERR_UNSUPPORTED;
            break;
        }
        int cls = a->is_switch && b->is_switch ? RX_LC_L1 : RX_LC_HOST;
        rc = rx_topo_add_cable(t, a->vid, b->vid, cls, 1, pt->bw, 0);
        if (pt->bw > 0 && (minbw == 0 || pt->bw < minbw))
            minbw = pt->bw;
    }
    if (!rc)
        rc = rx_topo_finalize(t);
    if (!rc) {
        t->family = RX_TOPO_GENERIC;
        snprintf(t->desc, sizeof t->desc, "ibnet:%s", path);
        /* the class values describe links without a rate on their line */
        if (minbw > 0)
            for (int c = 0; c < RX_TOPO_NCLASS; c++)
                t->cls_bw[c] = minbw;
    }
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
