/* SPDX-License-Identifier: MIT
 * In-network allreduce (docs/topo.md, "In-network reduction"): the reduction runs in the switches
 * of one aggregation tree, SHARP-style. The vector is cut into aggregation operations of at most
 * `chunk` bytes (a switch reduces one operation in a buffer of bounded size); a tree keeps at most
 * `window` operations in flight (the switches' buffers per tree are few). An operation goes up the
 * tree: a switch waits for the operation from every child, reduces it (agg_lat + c / agg_bw) and
 * forwards it; the root's result comes back down the same tree, replicated at every switch. Each
 * hop forwards an operation once it has all of it.
 *
 * One job owns the tree, so no two of its operations' streams share a directed link: the time is a
 * closed form (below), not a max-min solve. Operations are pipelined: after the first one (T_op),
 * one completes every stage time s (the slowest link or aggregation unit for one operation) unless
 * the window runs dry first, then W of them complete per T_op. */
#include "sim_impl.h"
#include "util/log.h"
#include "util/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void rx_innet_opts_default(rx_innet_opts_t *o)
{
    memset(o, 0, sizeof *o); /* agg_bw 0: the host link rate, aggregation at line rate */
    o->agg_lat = 200e-9;
    o->chunk = 256;
    o->window = 8;
}

typedef struct rx_innet_tree {
    uint32_t nsw;       /* switches of the fabric: vertices nnodes .. nverts - 1 */
    uint32_t *up;       /* per switch: link to its tree parent (UINT32_MAX: root or unreached) */
    uint32_t *order;    /* switches in BFS order from the root */
    uint8_t *used;      /* per switch: carries part of the reduction */
    uint32_t *dist;     /* BFS scratch */
} rx_innet_tree_t;

static void rx_innet_tree_free(rx_innet_tree_t *tr)
{
    free(tr->up);
    free(tr->order);
    free(tr->used);
    free(tr->dist);
}

/* BFS over switch-to-switch links from root; fills dist (hops, UINT32_MAX unreached), order, and
 * the first-discovered parent link of every reached switch when up != NULL. Returns the count reached. */
static uint32_t rx_innet_bfs(const rx_topo_t *t, uint32_t root, uint32_t *dist, uint32_t *order, uint32_t *up)
{
    uint32_t nsw = t->nverts - t->nnodes, head = 0, tail = 0;
    for (uint32_t i = 0; i < nsw; i++) {
        dist[i] = UINT32_MAX;
        if (up)
            up[i] = UINT32_MAX;
    }
    dist[root - t->nnodes] = 0;
    order[tail++] = root;
    while (head < tail) {
        uint32_t v = order[head++];
        const rx_topo_vertex_t *vx = &t->v[v];
        for (uint32_t p = 0; p < vx->nports; p++) {
            const rx_topo_link_t *l = &t->l[t->out[vx->port0 + p]];
            if (l->dst < t->nnodes || dist[l->dst - t->nnodes] != UINT32_MAX)
                continue;
            dist[l->dst - t->nnodes] = dist[v - t->nnodes] + 1;
            if (up)
                up[l->dst - t->nnodes] = l->rev; /* child -> parent */
            order[tail++] = l->dst;
        }
    }
    return tail;
}

/* The root: the switch nearest, in the worst case, to the leaf switches of the job's nodes (then
 * the smallest sum, then the lowest id): the shallowest tree. leaf[] marks the leaf switches. */
static int rx_innet_root(const rx_topo_t *t, const uint8_t *leaf, uint32_t *dist, uint32_t *order, uint32_t *root)
{
    uint32_t nsw = t->nverts - t->nnodes, nleaf = 0, best_max = UINT32_MAX;
    uint64_t best_sum = UINT64_MAX;
    for (uint32_t i = 0; i < nsw; i++)
        nleaf += leaf[i];
    *root = UINT32_MAX;
    for (uint32_t s = 0; s < nsw; s++) {
        if (rx_innet_bfs(t, t->nnodes + s, dist, order, NULL) == 0)
            continue;
        uint32_t mx = 0, reached = 0;
        uint64_t sum = 0;
        for (uint32_t i = 0; i < nsw; i++) {
            if (!leaf[i] || dist[i] == UINT32_MAX)
                continue;
            reached++;
            sum += dist[i];
            if (dist[i] > mx)
                mx = dist[i];
        }
        if (reached == nleaf && (mx < best_max || (mx == best_max && sum < best_sum))) {
            best_max = mx;
            best_sum = sum;
            *root = t->nnodes + s;
        }
    }
    if (*root == UINT32_MAX) {
        rx_log_error("rdmx-topo: in-network allreduce: the job's switches are not connected");
        return RX_ERR_INVAL;
    }
    return RX_OK;
}

/* Ranks per node (the node combines its ranks' vectors before the fabric sees one), the nodes of
 * the job and their leaf switches. */
static int rx_innet_nodes(const rx_topo_t *t, uint32_t nranks, const uint32_t *rank_node, uint32_t *cnt,
                          uint8_t *leaf, uint32_t *maxk, uint32_t *nnodes)
{
    *maxk = 0;
    *nnodes = 0;
    for (uint32_t r = 0; r < nranks; r++) {
        uint32_t n = rank_node ? rank_node[r] : r;
        if (n >= t->nnodes) {
            rx_log_error("rdmx-topo: in-network allreduce: rank %u on node %u, the fabric has %u nodes", r, n,
                         t->nnodes);
            return RX_ERR_INVAL;
        }
        if (cnt[n]++ == 0) {
            uint32_t sw = t->v[n].nports ? t->l[rx_topo_inject(t, n)].dst : 0;
            if (sw < t->nnodes) {
                rx_log_error("rdmx-topo: in-network allreduce: node %u is not attached to a switch", n);
                return RX_ERR_INVAL;
            }
            leaf[sw - t->nnodes] = 1;
            (*nnodes)++;
        }
        if (cnt[n] > *maxk)
            *maxk = cnt[n];
    }
    return RX_OK;
}

static double rx_hop(const rx_topo_link_t *l, double c) { return l->lat + c / l->bw; }

/* One operation of c bytes: up (every switch waits for its slowest child, then reduces), down
 * (the result is forwarded hop by hop). Also the stage time s: the slowest single step. */
static void rx_innet_op(const rx_topo_t *t, const rx_innet_tree_t *tr, const uint32_t *cnt, double c,
                        double agg_bw, double agg_lat, double *t_op, double *stage, double *up_t)
{
    uint32_t nsw = tr->nsw;
    double s = c / agg_bw;
    for (uint32_t i = 0; i < nsw; i++)
        up_t[i] = 0;
    for (uint32_t n = 0; n < t->nnodes; n++) {
        if (!cnt[n])
            continue;
        const rx_topo_link_t *l = &t->l[rx_topo_inject(t, n)];
        double a = rx_hop(l, c);
        if (a > up_t[l->dst - t->nnodes])
            up_t[l->dst - t->nnodes] = a;
        if (c / l->bw > s)
            s = c / l->bw;
        if (c / t->l[l->rev].bw > s)
            s = c / t->l[l->rev].bw;
    }
    /* children before parents: reverse BFS order; up_t becomes the switch's ready time */
    double root_ready = 0;
    for (uint32_t k = nsw; k-- > 0;) {
        uint32_t v = tr->order[k];
        if (v == UINT32_MAX || !tr->used[v - t->nnodes])
            continue;
        double ready = up_t[v - t->nnodes] + agg_lat + c / agg_bw;
        uint32_t pl = tr->up[v - t->nnodes];
        if (pl == UINT32_MAX) {
            root_ready = ready;
            continue;
        }
        const rx_topo_link_t *l = &t->l[pl];
        double a = ready + rx_hop(l, c);
        if (a > up_t[l->dst - t->nnodes])
            up_t[l->dst - t->nnodes] = a;
        double hs = fmax(c / l->bw, c / t->l[l->rev].bw);
        if (hs > s)
            s = hs;
    }
    /* down: up_t becomes the time the switch holds the result */
    for (uint32_t k = 0; k < nsw; k++) {
        uint32_t v = tr->order[k];
        if (v == UINT32_MAX || !tr->used[v - t->nnodes])
            continue;
        uint32_t pl = tr->up[v - t->nnodes];
        up_t[v - t->nnodes] = pl == UINT32_MAX ? root_ready : up_t[t->l[pl].dst - t->nnodes] + rx_hop(&t->l[t->l[pl].rev], c);
    }
    double done = 0;
    for (uint32_t n = 0; n < t->nnodes; n++) {
        if (!cnt[n])
            continue;
        const rx_topo_link_t *e = &t->l[rx_topo_eject(t, n)];
        double d = up_t[e->src - t->nnodes] + rx_hop(e, c);
        if (d > done)
            done = d;
    }
    *t_op = done;
    *stage = s;
}

/* The tree: BFS parents from the root; a switch is used when a leaf of the job hangs below it. */
static int rx_innet_build(const rx_topo_t *t, const uint8_t *leaf, rx_innet_tree_t *tr, rx_innet_info_t *info)
{
    uint32_t nsw = tr->nsw, root;
    int rc = rx_innet_root(t, leaf, tr->dist, tr->order, &root);
    if (rc)
        return rc;
    uint32_t reached = rx_innet_bfs(t, root, tr->dist, tr->order, tr->up);
    for (uint32_t k = reached; k < nsw; k++)
        tr->order[k] = UINT32_MAX;
    info->root = root;
    info->depth = 0;
    info->switches = 0;
    for (uint32_t i = 0; i < nsw; i++) {
        if (!leaf[i])
            continue;
        if (tr->dist[i] > info->depth)
            info->depth = tr->dist[i];
        for (uint32_t v = t->nnodes + i; !tr->used[v - t->nnodes];) {
            tr->used[v - t->nnodes] = 1;
            info->switches++;
            uint32_t pl = tr->up[v - t->nnodes];
            if (pl == UINT32_MAX)
                break;
            v = t->l[pl].dst;
        }
    }
    return RX_OK;
}

/* Completion time of N operations of t_op each, one per stage time s, at most w in flight. */
static double rx_innet_pipeline(uint64_t nops, double t_op, double s, uint32_t w)
{
    uint64_t rest = nops - 1;
    if ((double)w * s >= t_op)
        return t_op + (double)rest * s;
    return t_op + (double)(rest / w) * t_op + (double)(rest % w) * s;
}

static void rx_innet_loads(const rx_topo_t *t, const rx_innet_tree_t *tr, const uint32_t *cnt, uint64_t bytes,
                           rx_sim_result_t *res)
{
    for (uint32_t n = 0; n < t->nnodes; n++) {
        if (!cnt[n])
            continue;
        uint32_t in = rx_topo_inject(t, n), out = rx_topo_eject(t, n);
        res->link_bytes[in] = res->link_bytes[out] = (double)bytes;
        res->link_maxflows[in] = res->link_maxflows[out] = 1;
    }
    for (uint32_t i = 0; i < tr->nsw; i++) {
        uint32_t pl = tr->up[i];
        if (!tr->used[i] || pl == UINT32_MAX)
            continue;
        res->link_bytes[pl] = res->link_bytes[t->l[pl].rev] = (double)bytes;
        res->link_maxflows[pl] = res->link_maxflows[t->l[pl].rev] = 1;
    }
}

int rx_innet_allreduce(const rx_topo_t *t, uint32_t nranks, uint64_t bytes, const uint32_t *rank_node,
                       const rx_innet_opts_t *o, const rx_sim_opts_t *so, rx_sim_result_t *res, rx_innet_info_t *info)
{
    if (!t || !o || !so || !res || !info || nranks == 0 || bytes == 0 || o->chunk == 0 || o->window == 0 ||
        o->agg_bw < 0 || o->agg_lat < 0 || so->compute_bw <= 0 || so->intra_bw <= 0 || t->nverts <= t->nnodes) {
        rx_log_error("rdmx-topo: in-network allreduce: needs ranks, bytes, a chunk, a window and switches");
        return RX_ERR_INVAL;
    }
    memset(res, 0, sizeof *res);
    memset(info, 0, sizeof *info);
    rx_innet_tree_t tr = {.nsw = t->nverts - t->nnodes};
    uint32_t *cnt = calloc(t->nnodes, sizeof *cnt);
    uint8_t *leaf = calloc(tr.nsw, 1);
    double *scratch = malloc(tr.nsw * sizeof *scratch);
    tr.up = malloc(tr.nsw * sizeof *tr.up);
    tr.order = malloc(tr.nsw * sizeof *tr.order);
    tr.used = calloc(tr.nsw, 1);
    tr.dist = malloc(tr.nsw * sizeof *tr.dist);
    res->nlinks = t->nlinks;
    res->link_bytes = calloc(t->nlinks, sizeof *res->link_bytes);
    res->link_maxflows = calloc(t->nlinks, sizeof *res->link_maxflows);
    int rc = cnt && leaf && scratch && tr.up && tr.order && tr.used && tr.dist && res->link_bytes &&
                     res->link_maxflows ? RX_OK : RX_ERR_NOMEM;
    uint32_t maxk = 0, nodes = 0;
    if (!rc)
        rc = rx_innet_nodes(t, nranks, rank_node, cnt, leaf, &maxk, &nodes);
    if (!rc)
        rc = rx_innet_build(t, leaf, &tr, info);
    if (!rc) {
        double agg_bw = o->agg_bw > 0 ? o->agg_bw : t->l[rx_topo_inject(t, 0)].bw;
        uint64_t nops = (bytes + o->chunk - 1) / o->chunk;
        double c = (double)bytes / (double)nops, inj = 0;
        rx_innet_op(t, &tr, cnt, c, agg_bw, o->agg_lat, &info->t_op, &info->stage, scratch);
        /* ranks sharing a node combine before, and receive the result after, the fabric's part */
        info->local = (double)(maxk - 1) * (double)bytes * (1 / so->compute_bw + 1 / so->intra_bw);
        info->ops = nops;
        info->op_bytes = c;
        info->rate_cap = fmin(c / info->stage, (double)o->window * c / info->t_op);
        res->time = info->local + rx_innet_pipeline(nops, info->t_op, info->stage, o->window);
        res->flows = nops;
        res->events = nops;
        res->senders = nodes;
        res->net_bytes = (double)nodes * (double)bytes;
        res->peak_live = o->window < nops ? o->window : (uint32_t)nops;
        rx_innet_loads(t, &tr, cnt, bytes, res);
        for (uint32_t n = 0; n < t->nnodes; n++)
            if (cnt[n])
                inj += t->l[rx_topo_inject(t, n)].bw;
        /* every node injects at the tree's rate while the pipeline runs */
        rx_sim_finish(t, res, inj, nodes * info->rate_cap, nodes * info->rate_cap);
    }
    rx_innet_tree_free(&tr);
    free(cnt);
    free(leaf);
    free(scratch);
    if (rc)
        rx_sim_result_free(res);
    return rc;
}
