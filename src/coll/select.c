/* SPDX-License-Identifier: MIT
 * Which algorithm runs: RDMX_COLL_<KIND> when set (and applicable to the
 * call: e.g. ring allreduce needs a commutative op), otherwise the
 * crossovers measured on the reference machine (docs/collectives.md).
 * The choice depends only on arguments every rank agrees on (sizes, rank
 * count, op commutativity), so all ranks pick the same schedule. */
#include "coll.h"
#include "core/rt.h"
#include "util/config.h"
#include "util/log.h"
#include "util/status.h"

#include <stdlib.h>

/* Crossovers (bytes of the whole vector / message / block). */
#define RX_XO_ALLREDUCE_LARGE 16384    /* recursive doubling below */
#define RX_XO_ALLREDUCE_P2_RS 524288   /* p = 2: recursive doubling below, then Rabenseifner */
#define RX_XO_REDUCE_LARGE 65536       /* binomial below */
#define RX_XO_BCAST_LARGE 131072       /* binomial below (p > 2) */
#define RX_XO_ALLGATHER_LARGE 32768    /* total bytes; ring from here */
#define RX_XO_ALLTOALL_BRUCK 256       /* block bytes; Bruck up to here (p > 2) */

static int rx_forced[RX_COLL_KINDS];
static int rx_forced_loaded;

static void rx_forced_load(void)
{
    const rx_config_t *cf = rx_config();
    const char *v[RX_COLL_KINDS] = {0};
    v[RX_COLL_BARRIER] = cf->COLL_BARRIER;
    v[RX_COLL_BCAST] = cf->COLL_BCAST;
    v[RX_COLL_REDUCE] = cf->COLL_REDUCE;
    v[RX_COLL_ALLREDUCE] = cf->COLL_ALLREDUCE;
    v[RX_COLL_ALLGATHER] = cf->COLL_ALLGATHER;
    v[RX_COLL_ALLTOALL] = cf->COLL_ALLTOALL;
    v[RX_COLL_REDUCE_SCATTER] = cf->COLL_REDUCE_SCATTER;
    for (int k = 0; k < RX_COLL_KINDS; k++) {
        rx_forced[k] = RX_ALGO_AUTO;
        if (!v[k] || !v[k][0])
            continue;
        int a = rx_coll_algo_parse(v[k]);
        if (a < 0)
            rx_log_warn("RDMX_COLL_%s=%s: unknown algorithm, choosing automatically",
                        rx_coll_kind_name(k), v[k]);
        else
            rx_forced[k] = a;
    }
    rx_forced_loaded = 1;
}

int rx_coll_forced(int kind)
{
    if (!rx_forced_loaded)
        rx_forced_load();
    return rx_forced[kind];
}

int rx_coll_multinode(const rx_comm_t *c)
{
    long long ns = rx_config()->COLL_NODE_SIZE;
    if (ns > 0)
        return ns < c->size;
    return c->local_size != c->size;
}

static int *rx_node_map(const rx_comm_t *c)
{
    int *m = malloc(sizeof(int) * (size_t)c->size);
    if (!m)
        return NULL;
    long long ns = rx_config()->COLL_NODE_SIZE;
    for (int i = 0; i < c->size; i++)
        m[i] = ns > 0 ? (int)(i / ns) : rx_rt.node_of[c->world[i]];
    return m;
}

static int rx_pof2(int p)
{
    return (p & (p - 1)) == 0;
}

static int rx_auto(const rx_sched_args_t *a)
{
    int p = a->p;
    uint64_t B = a->count * a->unit;
    switch (a->kind) {
    case RX_COLL_BARRIER:
        return RX_ALGO_DISSEMINATION;
    case RX_COLL_BCAST:
        return a->bytes >= RX_XO_BCAST_LARGE && p > 2 ? RX_ALGO_SCATTER_ALLGATHER : RX_ALGO_BINOMIAL;
    case RX_COLL_REDUCE:
        return B >= RX_XO_REDUCE_LARGE && p > 2 ? RX_ALGO_RS_GATHER : RX_ALGO_BINOMIAL;
    case RX_COLL_ALLREDUCE:
        /* at p = 2 both exchange the same bytes; from here halving the
         * reduction work per rank outweighs the extra round */
        if (B < RX_XO_ALLREDUCE_LARGE || (p == 2 && B < RX_XO_ALLREDUCE_P2_RS))
            return RX_ALGO_RECURSIVE_DOUBLING;
        return rx_pof2(p) ? RX_ALGO_RABENSEIFNER : RX_ALGO_RING;
    case RX_COLL_ALLGATHER:
        if (a->rcounts || a->bytes * (uint64_t)p >= RX_XO_ALLGATHER_LARGE)
            return RX_ALGO_RING;
        return rx_pof2(p) ? RX_ALGO_RECURSIVE_DOUBLING : RX_ALGO_BRUCK;
    case RX_COLL_ALLTOALL:
        return !a->scounts && a->bytes <= RX_XO_ALLTOALL_BRUCK && p > 2 ? RX_ALGO_BRUCK
                                                                       : RX_ALGO_PAIRWISE;
    case RX_COLL_REDUCE_SCATTER:
        return a->commute ? RX_ALGO_RING : RX_ALGO_REDUCE_SCATTERV;
    case RX_COLL_SCAN:
    case RX_COLL_EXSCAN:
        return RX_ALGO_RECURSIVE_DOUBLING;
    default:
        return RX_ALGO_LINEAR;
    }
}

int rx_coll_select(rx_coll_exec_t *e)
{
    rx_sched_args_t *a = &e->args;
    int want = rx_coll_forced(a->kind);
    if (want == RX_ALGO_SHM) /* the blocking shm path declined: use a schedule */
        want = RX_ALGO_AUTO;
    if (want == RX_ALGO_AUTO && rx_coll_multinode(e->c) &&
        (a->kind == RX_COLL_ALLREDUCE || a->kind == RX_COLL_BCAST ||
         a->kind == RX_COLL_BARRIER || a->kind == RX_COLL_REDUCE))
        want = RX_ALGO_HIER;
    if (want == RX_ALGO_HIER) {
        if (!e->nodemap && !(e->nodemap = rx_node_map(e->c)))
            return RX_ERR_NOMEM;
        a->node_of = e->nodemap;
    }
    if (want != RX_ALGO_AUTO) {
        a->algo = want;
        if (rx_sched_algo_fits(a))
            return RX_OK;
    }
    a->algo = rx_auto(a);
    return RX_OK;
}
