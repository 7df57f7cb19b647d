/* SPDX-License-Identifier: MIT
 * Node-aware composition for several nodes: a phase inside each node, one
 * among the node leaders, one inside each node again. Each phase is an
 * ordinary schedule built for the sub-group and spliced in with its ranks,
 * buffers and scratch offsets mapped, so the composition runs over any
 * transport and the simulator sees exactly what the runtime does. The
 * leader of a node is its lowest rank (the root, on the root's node).
 * One builder for the four collectives it composes, one descriptor each. */
#include "parts.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

typedef struct rx_bufmap {
    int buf;
    uint64_t off;
} rx_bufmap_t;

/* Append sub's rounds to s: sub rank i is ranks[i]; sub buffer b is
 * map[b]. Copies that map onto themselves disappear. */
static void rx_sched_splice(rx_sched_t *s, const rx_sched_t *sub, const int *ranks,
                            const rx_bufmap_t map[RX_SB_COUNT])
{
    for (uint32_t i = 0; i < sub->nround; i++) {
        uint32_t end = i + 1 < sub->nround ? sub->round[i + 1] : sub->nstep;
        rx_sched_round(s);
        for (uint32_t j = sub->round[i]; j < end; j++) {
            const rx_sched_step_t *st = &sub->step[j];
            int b = map[st->buf].buf, b2 = map[st->buf2].buf;
            uint64_t o = map[st->buf].off + st->off, o2 = map[st->buf2].off + st->off2;
            switch (st->op) {
            case RX_SOP_SEND: rx_sched_send(s, ranks[st->peer], b, o, st->bytes); break;
            case RX_SOP_RECV: rx_sched_recv(s, ranks[st->peer], b, o, st->bytes); break;
            case RX_SOP_COPY: rx_sched_copy(s, b, o, b2, o2, st->bytes); break;
            case RX_SOP_REDUCE: rx_sched_reduce(s, b, o, b2, o2, st->bytes); break;
            }
        }
    }
    rx_sched_tmp(s, map[RX_SB_TMP].off + sub->tmp_bytes);
}

/* Build the sub-group schedule described by sa and splice it. */
static int rx_phase(rx_sched_t *s, rx_sched_args_t sa, const int *ranks,
                    const rx_bufmap_t map[RX_SB_COUNT])
{
    if (sa.p <= 1 && sa.kind != RX_COLL_REDUCE && sa.kind != RX_COLL_ALLREDUCE)
        return RX_OK;
    rx_sched_t sub;
    rx_sched_init(&sub);
    sa.node_of = NULL;
    int rc = rx_sched_build(&sub, &sa);
    if (rc == RX_OK)
        rx_sched_splice(s, &sub, ranks, map);
    rx_sched_free(&sub);
    return rc;
}

static int rx_build(rx_sched_t *s, const rx_sched_args_t *a)
{
    int p = a->p, r = a->rank, rc = RX_OK;
    int root = a->kind == RX_COLL_BCAST || a->kind == RX_COLL_REDUCE ? a->root : 0;
    int *local = malloc(sizeof(int) * 2 * (size_t)p), *leaders = local + p;
    if (!local)
        return RX_ERR_NOMEM;
    int nloc = 0, me_local = 0, nlead = 0, me_lead = -1, root_lead = 0, my_leader;
    /* members of my node, my node's leader (root on root's node) */
    my_leader = a->node_of[r] == a->node_of[root] ? root : -1;
    for (int i = 0; i < p; i++) {
        if (a->node_of[i] != a->node_of[r])
            continue;
        if (i == r)
            me_local = nloc;
        local[nloc++] = i;
        if (my_leader < 0)
            my_leader = i;
    }
    /* leaders in rank order: the first rank of each node, root for its node */
    for (int i = 0; i < p; i++) {
        int first = 1;
        for (int j = 0; j < i && first; j++)
            first = a->node_of[j] != a->node_of[i];
        int lead = a->node_of[i] == a->node_of[root] ? (i == root) : first;
        if (!lead)
            continue;
        if (i == r)
            me_lead = nlead;
        if (i == root)
            root_lead = nlead;
        leaders[nlead++] = i;
    }
    int leader_local = 0;
    for (int i = 0; i < nloc; i++)
        if (local[i] == my_leader)
            leader_local = i;
    uint64_t B = a->count * a->unit;
    rx_sched_args_t in = *a, out = *a;
    in.p = nloc;
    in.rank = me_local;
    in.root = leader_local;
    out.p = nlead;
    out.rank = me_lead;
    out.root = root_lead;
    rx_bufmap_t id[RX_SB_COUNT] = {{RX_SB_IN, 0}, {RX_SB_OUT, 0}, {RX_SB_TMP, 0}};
    switch (a->kind) {
    case RX_COLL_BARRIER:
        in.kind = RX_COLL_REDUCE; /* zero-byte fan-in to the leader */
        in.algo = &rx_algo_reduce_binomial;
        in.count = 0;
        rc = rx_phase(s, in, local, id);
        if (rc == RX_OK && me_lead >= 0) {
            out.algo = &rx_algo_barrier_dissemination;
            rc = rx_phase(s, out, leaders, id);
        }
        in.kind = RX_COLL_BCAST;
        in.algo = &rx_algo_bcast_binomial;
        in.bytes = 0;
        if (rc == RX_OK)
            rc = rx_phase(s, in, local, id);
        break;
    case RX_COLL_BCAST:
        if (me_lead >= 0) {
            out.algo = a->bytes >= 65536 && nlead > 2 ? &rx_algo_bcast_scatter_allgather
                                                      : &rx_algo_bcast_binomial;
            rc = rx_phase(s, out, leaders, id);
        }
        in.algo = &rx_algo_bcast_binomial;
        if (rc == RX_OK)
            rc = rx_phase(s, in, local, id);
        break;
    case RX_COLL_ALLREDUCE:
    case RX_COLL_REDUCE: {
        /* intra-node reduce into the leader's accumulator: OUT for
         * allreduce and the root, TMP[0, B) at other leaders; the
         * sub-schedules' scratch follows it */
        int acc_out = a->kind == RX_COLL_ALLREDUCE || r == a->root;
        rx_bufmap_t m1[RX_SB_COUNT] = {{RX_SB_IN, 0}, {acc_out ? RX_SB_OUT : RX_SB_TMP, 0},
                                       {RX_SB_TMP, B}};
        in.kind = RX_COLL_REDUCE;
        in.algo = &rx_algo_reduce_binomial;
        rc = rx_phase(s, in, local, m1);
        if (rc == RX_OK && me_lead >= 0) {
            rx_bufmap_t m2[RX_SB_COUNT] = {m1[1], m1[1], {RX_SB_TMP, B}};
            if (a->kind == RX_COLL_ALLREDUCE) {
                out.algo = B >= 65536 ? &rx_algo_allreduce_rabenseifner
                                      : &rx_algo_allreduce_recursive_doubling;
                if (!rx_sched_algo_fits(&out))
                    out.algo = &rx_algo_allreduce_recursive_doubling;
            } else {
                out.algo = &rx_algo_reduce_binomial;
            }
            rc = rx_phase(s, out, leaders, m2);
        }
        if (rc == RX_OK && a->kind == RX_COLL_ALLREDUCE) {
            in.kind = RX_COLL_BCAST;
            in.algo = &rx_algo_bcast_binomial;
            in.bytes = B;
            rc = rx_phase(s, in, local, id);
        }
        break;
    }
    default:
        rc = RX_ERR_INVAL;
    }
    free(local);
    return rc;
}

/* Needs the node of every rank; reductions only for commutative ops (the
 * phases combine ranks out of order). */
static int rx_fits(const rx_sched_args_t *a)
{
    return a->node_of != NULL &&
           (a->commute || a->kind == RX_COLL_BCAST || a->kind == RX_COLL_BARRIER);
}

/* No preference: the runtime chooses these for communicators that span
 * nodes (or when RDMX_COLL_<KIND>=hier), never the automatic choice. */
const rx_sched_algo_t rx_algo_barrier_hier = {
    .kind = RX_COLL_BARRIER, .name = "hier",
    .help = "fan-in to node leaders, dissemination among them, fan-out (automatic across nodes)",
    .fits = rx_fits, .build = rx_build,
};

const rx_sched_algo_t rx_algo_bcast_hier = {
    .kind = RX_COLL_BCAST, .name = "hier",
    .help = "among node leaders, then binomial inside each node (automatic across nodes)",
    .fits = rx_fits, .build = rx_build,
};

const rx_sched_algo_t rx_algo_reduce_hier = {
    .kind = RX_COLL_REDUCE, .name = "hier",
    .help = "reduce inside each node, then among node leaders; commutative ops (automatic across "
            "nodes)",
    .fits = rx_fits, .build = rx_build,
};

const rx_sched_algo_t rx_algo_allreduce_hier = {
    .kind = RX_COLL_ALLREDUCE, .name = "hier",
    .help = "reduce inside each node, allreduce among node leaders, bcast inside each node; "
            "commutative ops (automatic across nodes)",
    .fits = rx_fits, .build = rx_build,
};
