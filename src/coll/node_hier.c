/* SPDX-License-Identifier: MIT
 * Hierarchical barrier, bcast, reduce and allreduce of communicators across
 * nodes, with the phases inside each node on the node path and the phase
 * among the node leaders as a schedule. The nodes are those of the
 * hierarchical schedules (RDMX_COLL_NODE_SIZE, or the real ones); a node
 * group uses the node path only when its members really share a machine
 * (sub-node groups of one machine do, and so may use it), and a
 * communicator uses it only when every group could map its region (agreed
 * by all members when the first of these collectives makes the regions);
 * otherwise, and for what does not fit (non-contiguous data,
 * non-commutative ops, the node path off or an algorithm forced), the
 * calls are declined and the hierarchical schedules run them.
 *
 * The leader of a node is its lowest rank. The leaders' phase runs on a view
 * of the communicator that holds only the leaders, on the communicator's
 * collective context and with a tag every member takes from its sequence
 * (so members outside the phase stay in step); a message of the phase is
 * told apart from every other on that context by its tag. Between phases a
 * leader works in place: the node phase leaves the node's partial result
 * in its output, the leaders' phase reduces or broadcasts that. */
#include "coll_shm.h"
#include "util/config.h"
#include "util/log.h"
#include "util/status.h"

#include <stdlib.h>

typedef struct rx_node_hier {
    rx_comm_t *c;
    int failed;
    int *members; /* ranks of my node in c, in rank order; members[0] leads */
    int nloc, me_loc;
    int *leaders; /* the leader of each node in c, in rank order */
    int nlead, me_lead; /* me_lead -1: not a leader */
    int *node_of; /* node index of each rank of c */
    rx_comm_t node, lead; /* views: my node's members, the leaders */
    rx_shm_state_t *st; /* my node's region (NULL for a node of one) */
} rx_node_hier_t;

static rx_node_hier_t **rx_hier_tab; /* by communicator handle index */
static int rx_hier_ntab;

static rx_node_hier_t *rx_hier_lookup(rx_comm_t *c)
{
    if (c->handle < rx_hier_ntab && rx_hier_tab[c->handle] && rx_hier_tab[c->handle]->c == c)
        return rx_hier_tab[c->handle];
    return NULL;
}

static void rx_hier_free(rx_node_hier_t *h)
{
    rx_shm_state_free(h->st);
    free(h->members);
    free(h->leaders);
    free(h->node_of);
    free(h->node.world);
    free(h->lead.world);
    free(h);
}

void rx_node_hier_release(rx_comm_t *c)
{
    rx_node_hier_t *h = rx_hier_lookup(c);
    if (h) {
        rx_hier_tab[c->handle] = NULL;
        rx_hier_free(h);
    }
}

/* Nodes, members, leaders and the two views; 0 when out of memory. */
static int rx_hier_groups(rx_node_hier_t *h)
{
    rx_comm_t *c = h->c;
    int p = c->size, me = c->rank;
    long long ns = rx_config()->COLL_NODE_SIZE;
    h->node_of = malloc(sizeof(int) * (size_t)p);
    h->members = malloc(sizeof(int) * (size_t)p);
    h->leaders = malloc(sizeof(int) * (size_t)p);
    h->node.world = malloc(sizeof(int) * (size_t)p);
    h->lead.world = malloc(sizeof(int) * (size_t)p);
    if (!h->node_of || !h->members || !h->leaders || !h->node.world || !h->lead.world)
        return 0;
    for (int i = 0; i < p; i++)
        h->node_of[i] = ns > 0 ? (int)(i / ns) : rx_rt.node_of[c->world[i]];
    h->me_lead = -1;
    for (int i = 0; i < p; i++) {
        int first = 1;
        for (int j = 0; j < i && first; j++)
            first = h->node_of[j] != h->node_of[i];
        if (first) {
            if (i == me)
                h->me_lead = h->nlead;
            h->lead.world[h->nlead] = c->world[i];
            h->leaders[h->nlead++] = i;
        }
        if (h->node_of[i] == h->node_of[me]) {
            if (i == me)
                h->me_loc = h->nloc;
            h->node.world[h->nloc] = c->world[i];
            h->members[h->nloc++] = i;
        }
    }
    /* the views: what the leaves and the executor read of a communicator */
    h->node.rank = h->me_loc;
    h->node.size = h->node.local_size = h->nloc;
    h->lead.ctx = c->ctx;
    h->lead.rank = h->me_lead;
    h->lead.size = h->lead.local_size = h->nlead;
    h->lead.handle = -1;
    h->node.handle = -1;
    return 1;
}

/* Whether my node's members really share a machine. */
static int rx_hier_shared(const rx_node_hier_t *h)
{
    for (int i = 0; i < h->nloc; i++)
        if (rx_rt.node_of[h->node.world[i]] != rx_rt.node_of[h->c->world[h->c->rank]])
            return 0;
    return 1;
}

/* Make c's state: a step every member takes, the first time any of them
 * calls one of these collectives on c. */
static rx_node_hier_t *rx_hier_create(rx_comm_t *c)
{
    if (c->handle >= rx_hier_ntab) {
        int n = c->handle + 16;
        rx_node_hier_t **t = realloc(rx_hier_tab, sizeof *t * (size_t)n);
        if (!t)
            return NULL;
        memset(t + rx_hier_ntab, 0, sizeof *t * (size_t)(n - rx_hier_ntab));
        rx_hier_tab = t;
        rx_hier_ntab = n;
    }
    rx_node_hier_t *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->c = c;
    /* a node of one has no phase inside it and makes no region; one whose
     * members are on different machines (RDMX_COLL_NODE_SIZE across real
     * nodes) cannot share memory and votes no, as does a member out of
     * memory: every member still takes part, so that none waits in vain */
    int ok = rx_hier_groups(h), rc;
    if (ok && rx_hier_shared(h)) {
        rc = rx_shm_group_state(c, &h->node, h->nloc > 1 ? h->members[0] : -1, &h->st);
    } else {
        int no = 0;
        rx_coll_group_region(c, -1, 0, NULL, &no);
        rc = ok ? RX_ERR_UNSUPPORTED : RX_ERR_NOMEM;
    }
    rx_hier_tab[c->handle] = h;
    h->failed = rc != RX_OK;
    if (c->rank == 0) {
        if (h->failed)
            rx_log_info("hierarchical collectives of a %d-rank communicator: node phases by "
                        "schedules (%s)", c->size, rx_status_string(rc));
        else
            rx_log_info("hierarchical collectives of a %d-rank communicator: node phases on the "
                        "node path (%d nodes)", c->size, h->nlead);
    }
    return h;
}

/* c's state if its hierarchical collective of kind takes the node path:
 * members across nodes, the node path on, nothing forced. */
static rx_node_hier_t *rx_hier_get(rx_comm_t *c, int kind)
{
    if (c->remote || !rx_coll_multinode(c) || rx_config()->COLL_SHM_MAX <= 0 ||
        rx_coll_forced(kind) != RX_ALGO_AUTO)
        return NULL;
    rx_node_hier_t *h = rx_hier_lookup(c);
    if (!h)
        h = rx_hier_create(c);
    return h && !h->failed ? h : NULL;
}

/* Reductions it takes: contiguous, commutative (the leaders combine the
 * nodes' partial results in the order of the leaders' schedule), elements
 * within a slot, something to reduce. */
static int rx_hier_red_fits(const rx_dtype_t *dt, const rx_opobj_t *op, size_t count)
{
    size_t ext = (size_t)dt->extent;
    return dt->contig && op->commute && count > 0 && ext > 0 &&
           ext <= (size_t)rx_config()->COLL_SHM_MAX;
}

/* The leaders' phase runs on the view with the tag every member took. */
static rx_comm_t *rx_hier_leaders(rx_node_hier_t *h, int tag)
{
    h->lead.coll_seq = (uint32_t)tag;
    return &h->lead;
}

int rx_coll_hier_barrier(rx_comm_t *c)
{
    rx_node_hier_t *h = rx_hier_get(c, RX_COLL_BARRIER);
    if (!h)
        return RX_COLL_DECLINED;
    int tag = rx_coll_tag(c), rc = RX_OK;
    if (h->st)
        rx_shm_slot_barrier(h->st); /* the node has arrived */
    if (h->me_lead >= 0)
        rc = rx_coll_sched_barrier(rx_hier_leaders(h, tag));
    if (h->st)
        rx_shm_slot_barrier(h->st); /* and its leader knows every node has */
    return rc;
}

int rx_coll_hier_bcast(void *buf, size_t bytes, int root, rx_comm_t *c)
{
    rx_node_hier_t *h = bytes ? rx_hier_get(c, RX_COLL_BCAST) : NULL;
    if (!h)
        return RX_COLL_DECLINED;
    int tag = rx_coll_tag(c), rc = RX_OK, r;
    int root_node = h->node_of[root] == h->node_of[c->rank];
    /* the root's node first, from the root: its leader then has the data */
    if (root_node && h->st) {
        int lroot = 0;
        while (h->members[lroot] != root)
            lroot++;
        rc = rx_node_phase_bcast(h->st, buf, bytes, lroot);
    }
    if (h->me_lead >= 0) {
        int lead_root = 0;
        while (h->node_of[h->leaders[lead_root]] != h->node_of[root])
            lead_root++;
        r = rx_coll_sched_bcast(buf, bytes, lead_root, rx_hier_leaders(h, tag));
        rc = rc != RX_OK ? rc : r;
    }
    if (!root_node && h->st) {
        r = rx_node_phase_bcast(h->st, buf, bytes, 0);
        rc = rc != RX_OK ? rc : r;
    }
    return rc;
}

/* Node phase of a reduction into the leader's acc, then the leaders'. */
int rx_coll_hier_reduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                        const rx_opobj_t *op, int root, rx_comm_t *c)
{
    rx_node_hier_t *h = rx_hier_red_fits(dt, op, count) ? rx_hier_get(c, RX_COLL_REDUCE) : NULL;
    if (!h)
        return RX_COLL_DECLINED;
    int me = c->rank, lead = h->me_lead >= 0, lead_root = 0;
    size_t bytes = count * (size_t)dt->extent;
    while (h->node_of[h->leaders[lead_root]] != h->node_of[root])
        lead_root++;
    int root_leads = h->leaders[lead_root] == root;
    /* a leader accumulates its node's result in its output if it is the
     * root, else in scratch; a root that does not lead gets the result
     * from its node's leader */
    char *acc = lead && me == root ? rbuf : NULL, *tmp = NULL;
    if (lead && !acc && !(acc = tmp = malloc(bytes)))
        return RX_ERR_NOMEM;
    int tag = rx_coll_tag(c), rc = RX_OK, r;
    if (h->st) /* a non-leader's output is not written: its input stands in */
        rc = rx_node_phase_reduce(h->st, sbuf, lead ? acc : (void *)sbuf, count, dt, op, 0);
    else if (acc != sbuf) /* a node of one: its input is the node's result */
        memcpy(acc, sbuf, bytes);
    if (lead) {
        r = rx_coll_sched_reduce(acc, acc, count, dt, op, lead_root, rx_hier_leaders(h, tag));
        rc = rc != RX_OK ? rc : r;
    }
    if (!root_leads && h->leaders[lead_root] == me) {
        r = rx_coll_send(acc, bytes, root, tag, c);
        rc = rc != RX_OK ? rc : r;
    } else if (!root_leads && me == root) {
        r = rx_coll_recv(rbuf, bytes, h->leaders[lead_root], tag, c);
        rc = rc != RX_OK ? rc : r;
    }
    free(tmp);
    return rc;
}

int rx_coll_hier_allreduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                           const rx_opobj_t *op, rx_comm_t *c)
{
    rx_node_hier_t *h = rx_hier_red_fits(dt, op, count) ? rx_hier_get(c, RX_COLL_ALLREDUCE) : NULL;
    if (!h)
        return RX_COLL_DECLINED;
    int tag = rx_coll_tag(c), rc = RX_OK, r;
    size_t bytes = count * (size_t)dt->extent;
    if (h->st)
        rc = rx_node_phase_reduce(h->st, sbuf, rbuf, count, dt, op, 0);
    else if (sbuf != rbuf)
        memcpy(rbuf, sbuf, bytes);
    if (h->me_lead >= 0) {
        r = rx_coll_sched_allreduce(rbuf, rbuf, count, dt, op, rx_hier_leaders(h, tag));
        rc = rc != RX_OK ? rc : r;
    }
    if (h->st) {
        r = rx_node_phase_bcast(h->st, rbuf, bytes, 0);
        rc = rc != RX_OK ? rc : r;
    }
    return rc;
}
