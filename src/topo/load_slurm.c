/* SPDX-License-Identifier: MIT
 * Slurm topology.conf loader.
 *
 * Tree plugin: "SwitchName=S [Nodes=HOSTLIST] [Switches=HOSTLIST] [LinkSpeed=N]" lines; a switch
 * with Nodes is a leaf. Block plugin: "BlockName=B Nodes=HOSTLIST" lines and "BlockSizes=..."; Slurm
 * says nothing of how blocks are wired to each other, so each block becomes one switch holding its
 * nodes and the block switches hang off one top switch. Slurm's LinkSpeed is a relative weight, not
 * a bandwidth: it is read and ignored; link speeds come from the class options (--link). */
#include "names.h"
#include "topo.h"
#include "util/log.h"
#include "util/status.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct rx_sl_rec {
    char *name, *nodes, *switches;
    int line, block;
} rx_sl_rec_t;

typedef struct rx_sl_ctx {
    rx_names_t nodes;
    char **order;
    uint32_t n, cap;
    uint32_t *owner; /* record index that attached each node */
    uint32_t cur;    /* record being expanded */
    const char *path;
    rx_sl_rec_t *recs;
    int rc; /* an error was already reported */
} rx_sl_ctx_t;

static int rx_sl_add_node(const char *name, void *arg)
{
    rx_sl_ctx_t *c = arg;
    uint32_t id = rx_names_get(&c->nodes, name);
    if (id != UINT32_MAX) {
        rx_log_error("%s:%d: node %s is already attached to %s (line %d)", c->path, c->recs[c->cur].line, name,
                     c->recs[c->owner[id]].name, c->recs[c->owner[id]].line);
        c->rc = 1; /* reported here */
        return RX_ERR_INVAL;
    }
    if (c->n == c->cap) {
        uint32_t cap = c->cap ? c->cap * 2 : 256;
        char **o = realloc(c->order, cap * sizeof *o);
        uint32_t *w = realloc(c->owner, cap * sizeof *w);
        if (o) c->order = o;
        if (w) c->owner = w;
        if (!o || !w)
            return RX_ERR_NOMEM;
        c->cap = cap;
    }
    if (!(c->order[c->n] = strdup(name)))
        return RX_ERR_NOMEM;
    c->owner[c->n] = c->cur;
    return rx_names_put(&c->nodes, name, c->n++);
}

typedef struct rx_sl_link_ctx {
    rx_topo_t *t;
    rx_names_t *sw;
    uint32_t parent, first_sw; /* parent vertex; vertex of the first switch record */
    const char *path;
    int line;
    uint32_t *edges; /* parent and child record indexes, two per Switches= entry */
    uint32_t nedges, ecap, parent_first; /* the current parent's first entry */
    int reported; /* an error was logged where it was found */
} rx_sl_link_ctx_t;

static int rx_sl_link_child(const char *name, void *arg)
{
    rx_sl_link_ctx_t *c = arg;
    uint32_t id = rx_names_get(c->sw, name);
    if (id == UINT32_MAX) {
        rx_log_error("%s:%d: switch %s is not defined", c->path, c->line, name);
        return RX_ERR_NOTFOUND;
    }
    if (id == c->parent) {
        rx_log_error("%s:%d: switch %s lists itself", c->path, c->line, name);
        c->reported = 1;
        return RX_ERR_INVAL;
    }
    uint32_t pr = c->parent - c->first_sw, cr = id - c->first_sw;
    for (uint32_t i = c->parent_first; i < c->nedges; i++)
        if (c->edges[2 * i + 1] == cr) {
            rx_log_error("%s:%d: switch %s is listed twice", c->path, c->line, name);
            c->reported = 1;
            return RX_ERR_INVAL;
        }
    if (c->nedges == c->ecap) {
        uint32_t cap = c->ecap ? c->ecap * 2 : 64;
        uint32_t *x = realloc(c->edges, 2 * (size_t)cap * sizeof *x);
        if (!x)
            return RX_ERR_NOMEM;
        c->edges = x;
        c->ecap = cap;
    }
    c->edges[2 * c->nedges] = pr;
    c->edges[2 * c->nedges++ + 1] = cr;
    return rx_topo_add_cable(c->t, c->parent, id, RX_LC_L1, 1, 0, 0);
}

/* A tree has no switch that is its own ancestor; a cycle would join switches twice and leave
 * routing and graph tools with a fabric that is not the one described. Depth-first search over
 * the Switches= lists, iterative so that long chains cannot exhaust the stack. */
static int rx_sl_check_cycles(const rx_sl_link_ctx_t *c, const rx_sl_rec_t *recs, uint32_t nrec)
{
    uint32_t *start = calloc(nrec + 1, sizeof *start), *child = malloc((c->nedges + 1) * sizeof *child);
    uint32_t *stack = malloc((nrec + 1) * sizeof *stack), *next = calloc(nrec, sizeof *next);
    uint8_t *color = calloc(nrec, 1);
    int rc = RX_ERR_NOMEM;
    if (!start || !child || !stack || !next || !color)
        goto out;
    for (uint32_t i = 0; i < c->nedges; i++)
        start[c->edges[2 * i] + 1]++;
    for (uint32_t r = 0; r < nrec; r++)
        start[r + 1] += start[r];
    for (uint32_t i = 0; i < c->nedges; i++)
        child[start[c->edges[2 * i]] + next[c->edges[2 * i]]++] = c->edges[2 * i + 1];
    rc = RX_OK;
    for (uint32_t root = 0; root < nrec && !rc; root++) {
        if (color[root])
            continue;
        uint32_t depth = 0;
        stack[depth++] = root;
        color[root] = 1;
        next[root] = start[root];
        while (depth && !rc) {
            uint32_t v = stack[depth - 1];
            if (next[v] == start[v + 1]) {
                color[v] = 2;
                depth--;
                continue;
            }
            uint32_t w = child[next[v]++];
            if (color[w] == 1) {
                char path[512];
                int n = 0;
                uint32_t k = depth;
                while (stack[k - 1] != w)
                    k--;
                for (uint32_t j = k - 1; j < depth && n < 400; j++)
                    n += snprintf(path + n, sizeof path - n, "%s -> ", recs[stack[j]].name);
                snprintf(path + n, sizeof path - n, "%s", recs[w].name);
                rx_log_error("%s:%d: switch cycle %s (a tree plugin topology has none)", c->path, recs[v].line, path);
                rc = RX_ERR_INVAL;
            } else if (!color[w]) {
                color[w] = 1;
                next[w] = start[w];
                stack[depth++] = w;
            }
        }
    }
out:
    free(start);
    free(child);
    free(stack);
    free(next);
    free(color);
    return rc;
}

int rx_topo_load_slurm(const char *path, rx_topo_t **out)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        rx_log_error("%s: %s", path, strerror(errno));
        return RX_ERR_IO;
    }
    rx_sl_rec_t *recs = NULL;
    uint32_t nrec = 0, rcap = 0;
    int line = 0, rc = RX_OK, nblocks = 0, ntree = 0;
    char *buf = NULL; /* lines of any length: a Nodes= list of thousands of names is one line */
    size_t bcap = 0;
    while (!rc && getline(&buf, &bcap, f) >= 0) {
        line++;
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = 0;
        rx_sl_rec_t r = {.line = line};
        int any = 0;
        for (char *tok = strtok(buf, " \t\r\n"); tok && !rc; tok = strtok(NULL, " \t\r\n")) {
            any = 1;
            char *eq = strchr(tok, '=');
            if (!eq || eq == tok || !eq[1]) {
                rx_log_error("%s:%d: expected KEY=VALUE, got \"%s\"", path, line, tok);
                rc = RX_ERR_INVAL;
                break;
            }
            *eq = 0;
            char *val = eq + 1, **slot = NULL;
            if (!strcasecmp(tok, "SwitchName")) {
                slot = &r.name;
                ntree++;
            } else if (!strcasecmp(tok, "BlockName")) {
                slot = &r.name;
                r.block = 1;
                nblocks++;
            } else if (!strcasecmp(tok, "Nodes")) {
                slot = &r.nodes;
            } else if (!strcasecmp(tok, "Switches")) {
                slot = &r.switches;
            } else if (!strcasecmp(tok, "LinkSpeed") || !strcasecmp(tok, "BlockSizes")) {
                continue;
            } else {
                rx_log_error("%s:%d: unknown key \"%s\" (SwitchName, Switches, Nodes, LinkSpeed, BlockName, BlockSizes)",
                             path, line, tok);
                rc = RX_ERR_INVAL;
                break;
            }
            if (*slot) {
                rx_log_error("%s:%d: %s given twice", path, line, tok);
                rc = RX_ERR_INVAL;
                break;
            }
            if (!(*slot = strdup(val)))
                rc = RX_ERR_NOMEM;
        }
        if (!rc && any && !r.name) {
            /* a BlockSizes-only line is fine */
            if (r.nodes || r.switches) {
                rx_log_error("%s:%d: Nodes/Switches without SwitchName or BlockName", path, line);
                rc = RX_ERR_INVAL;
            }
        } else if (!rc && any) {
            if (!r.nodes && !r.switches) {
                rx_log_error("%s:%d: %s has neither Nodes nor Switches", path, line, r.name);
                rc = RX_ERR_INVAL;
            } else if (r.block && r.switches) {
                rx_log_error("%s:%d: a block lists nodes only", path, line);
                rc = RX_ERR_INVAL;
            }
        }
        if (!rc && r.name) {
            if (nrec == rcap) {
                rcap = rcap ? rcap * 2 : 64;
                rx_sl_rec_t *x = realloc(recs, rcap * sizeof *x);
                if (!x)
                    rc = RX_ERR_NOMEM;
                else
                    recs = x;
            }
            if (!rc) {
                recs[nrec++] = r;
                continue;
            }
        }
        free(r.name);
        free(r.nodes);
        free(r.switches);
    }
    if (!rc && ferror(f)) {
        rx_log_error("%s:%d: %s", path, line + 1, strerror(errno));
        rc = RX_ERR_IO;
    }
    free(buf);
    fclose(f);
    if (!rc && nblocks && ntree) {
        rx_log_error("%s: mixes SwitchName (tree) and BlockName (block) lines", path);
        rc = RX_ERR_INVAL;
    }
    if (!rc && !nrec) {
        rx_log_error("%s:%d: no SwitchName or BlockName line", path, line);
        rc = RX_ERR_INVAL;
    }
    rx_sl_ctx_t c = {.path = path, .recs = recs};
    for (uint32_t i = 0; !rc && i < nrec; i++) {
        if (!recs[i].nodes)
            continue;
        c.cur = i;
        rc = rx_hostlist_expand(recs[i].nodes, rx_sl_add_node, &c);
        if (rc == RX_ERR_INVAL && !c.rc)
            rx_log_error("%s:%d: bad hostlist \"%s\"", path, recs[i].line, recs[i].nodes);
    }
    rx_topo_t *t = NULL;
    rx_names_t sw = {0};
    if (!rc && !c.n) {
        rx_log_error("%s: no nodes", path);
        rc = RX_ERR_INVAL;
    }
    if (!rc)
        rc = rx_topo_new(&t);
    for (uint32_t i = 0; !rc && i < c.n; i++)
        rc = rx_topo_add_vertex(t, RX_TOPO_NODE, 0, 0, c.order[i], NULL);
    for (uint32_t i = 0; !rc && i < nrec; i++) {
        uint32_t id;
        rc = rx_topo_add_vertex(t, RX_TOPO_SWITCH, 1, 0, recs[i].name, &id);
        if (!rc && rx_names_put(&sw, recs[i].name, id)) {
            rx_log_error("%s:%d: %s defined twice", path, recs[i].line, recs[i].name);
            rc = RX_ERR_INVAL;
        }
    }
    uint32_t top = UINT32_MAX;
    if (!rc && nblocks)
        rc = rx_topo_add_vertex(t, RX_TOPO_SWITCH, 2, 0, "block-top", &top);
    for (uint32_t i = 0; !rc && i < c.n; i++)
        rc = rx_topo_add_cable(t, i, rx_names_get(&sw, recs[c.owner[i]].name), RX_LC_HOST, 1, 0, 0);
    rx_sl_link_ctx_t lc = {.t = t, .sw = &sw, .first_sw = c.n, .path = path};
    for (uint32_t i = 0; !rc && i < nrec; i++) {
        uint32_t me = rx_names_get(&sw, recs[i].name);
        if (recs[i].block) {
            rc = rx_topo_add_cable(t, top, me, RX_LC_L1, 1, 0, 0);
        } else if (recs[i].switches) {
            lc.parent = me;
            lc.line = recs[i].line;
            lc.parent_first = lc.nedges;
            rc = rx_hostlist_expand(recs[i].switches, rx_sl_link_child, &lc);
            if (rc == RX_ERR_INVAL && !lc.reported)
                rx_log_error("%s:%d: bad switch list \"%s\"", path, recs[i].line, recs[i].switches);
        }
    }
    if (!rc && lc.nedges)
        rc = rx_sl_check_cycles(&lc, recs, nrec);
    free(lc.edges);
    if (!rc)
        rc = rx_topo_finalize(t);
    if (!rc) {
        t->family = RX_TOPO_GENERIC;
        snprintf(t->desc, sizeof t->desc, "slurm:%s (%s plugin)", path, nblocks ? "block" : "tree");
    }
    for (uint32_t i = 0; i < nrec; i++) {
        free(recs[i].name);
        free(recs[i].nodes);
        free(recs[i].switches);
    }
    free(recs);
    for (uint32_t i = 0; i < c.n; i++)
        free(c.order[i]);
    free(c.order);
    free(c.owner);
    rx_names_free(&c.nodes);
    rx_names_free(&sw);
    if (rc) {
        rx_topo_free(t);
        return rc;
    }
    *out = t;
    return RX_OK;
}
