/* SPDX-License-Identifier: MIT
 * The schedule executor, shared by blocking and nonblocking collectives.
 * A round posts its receives, then its sends (the eager fast path needs no
 * request); when every transfer has completed the local steps run and the
 * next round starts. Blocking calls drive one executor (kept between calls,
 * so a small collective allocates nothing); nonblocking ones sit in a list
 * that a progress hook advances. */
#include "coll.h"
#include "core/rt.h"
#include "op/op.h"
#include "p2p/p2p.h"
#include "util/config.h"
#include "util/log.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

#define RX_EXEC_KEEP (16u << 20) /* bytes of blocking scratch kept between calls */

static rx_coll_exec_t rx_blocking_exec;
static int rx_blocking_busy;
static rx_coll_exec_t *rx_active;   /* running nonblocking collectives */
static int rx_in_hook;

void rx_coll_reduce_apply(const rx_opobj_t *op, const rx_dtype_t *dt, const void *in, void *inout,
                          size_t count)
{
    if (dt->contig || !op->predefined) {
        rx_opobj_apply(op, dt, in, inout, count);
        return;
    }
    /* non-contiguous layout: combine the data blocks of each element */
    const rx_dtype_t *b = rx_dtype_get(RX_HANDLE(RX_KIND_DATATYPE, dt->basic));
    for (size_t e = 0; e < count; e++)
        for (int k = 0; k < dt->nblocks; k++) {
            size_t o = e * (size_t)dt->extent + (size_t)dt->blocks[k].off;
            rx_op_apply(op->predefined, dt->basic, (const char *)in + o, (char *)inout + o,
                        dt->blocks[k].len / b->size);
        }
}

rx_coll_exec_t *rx_coll_exec_get(int blocking)
{
    rx_coll_exec_t *e;
    if (blocking && !rx_blocking_busy) {
        e = &rx_blocking_exec;
        rx_blocking_busy = 1;
        /* keep the arrays and scratch between calls */
        rx_sched_t s = e->s;
        rx_req_t **reqs = e->reqs;
        int reqcap = e->reqcap;
        void *tmp = e->tmp_alloc;
        size_t tcap = e->tmp_cap;
        memset(e, 0, sizeof *e);
        e->s = s;
        e->reqs = reqs;
        e->reqcap = reqcap;
        e->tmp_alloc = tmp;
        e->tmp_cap = tcap;
        return e;
    }
    e = calloc(1, sizeof *e);
    return e;
}

rx_coll_exec_t *rx_coll_exec_for(rx_comm_t *c, int kind, int blocking)
{
    rx_coll_exec_t *e = rx_coll_exec_get(blocking);
    if (!e)
        return NULL;
    e->c = c;
    e->args.kind = kind;
    e->args.p = c->size;
    e->args.rank = c->rank;
    e->args.unit = 1;
    e->args.commute = 1;
    return e;
}

void rx_coll_exec_put(rx_coll_exec_t *e)
{
    rx_coll_sched_put(e->cached);
    e->cached = NULL;
    for (int i = 0; i < 3; i++)
        free(e->stage[i]);
    free(e->unp);
    free(e->vec);
    free(e->nodemap);
    e->unp = NULL;
    e->vec = NULL;
    e->nodemap = NULL;
    memset(e->stage, 0, sizeof e->stage);
    if (e == &rx_blocking_exec) {
        /* scratch is kept up to RX_EXEC_KEEP: fresh memory for every large
         * call costs a page fault per page, more than the reduction itself */
        if (e->tmp_cap > RX_EXEC_KEEP) {
            free(e->tmp_alloc);
            e->tmp_alloc = NULL;
            e->tmp_cap = 0;
        }
        rx_blocking_busy = 0;
        return;
    }
    free(e->tmp_alloc);
    free(e->reqs);
    rx_sched_free(&e->s);
    free(e);
}

/* Copy the data blocks of count elements between two memory layouts. */
static void rx_copy_blocks(const rx_dtype_t *dt, const char *src, char *dst, size_t count)
{
    for (size_t e = 0; e < count; e++)
        for (int k = 0; k < dt->nblocks; k++) {
            size_t o = e * (size_t)dt->extent + (size_t)dt->blocks[k].off;
            memcpy(dst + o, src + o, dt->blocks[k].len);
        }
}

static void rx_exec_unpack(rx_coll_exec_t *e)
{
    for (int i = 0; i < e->nunp; i++) {
        rx_coll_unpack_t *u = &e->unp[i];
        if (u->span)
            rx_copy_blocks(u->dt, e->buf[RX_SB_OUT] + u->off - e->span_lb, u->dst, u->count);
        else
            rx_dtype_unpack(u->dt, e->buf[RX_SB_OUT] + u->off, u->count * u->dt->wire, u->dst);
    }
}

static int rx_exec_reqs(rx_coll_exec_t *e, int n)
{
    if (n <= e->reqcap)
        return RX_OK;
    int cap = n < 8 ? 8 : n;
    rx_req_t **r = realloc(e->reqs, sizeof *r * (size_t)cap);
    if (!r)
        return RX_ERR_NOMEM;
    e->reqs = r;
    e->reqcap = cap;
    return RX_OK;
}

/* ---- which algorithm runs ----
 * RDMX_COLL_<KIND> when set and applicable to the call (e.g. ring allreduce
 * needs a commutative op), the node-aware algorithm of the kind when the
 * members span nodes, otherwise the automatic choice of the list
 * (src/sched/algos.c; crossovers in docs/collectives.md). The choice
 * depends only on arguments every rank agrees on (sizes, rank count, op
 * commutativity), so all ranks pick the same schedule. */

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
        int a = rx_sched_choice_parse(k, v[k]);
        if (a == -2) {
            char names[256];
            rx_sched_algo_names(k, names, sizeof names);
            rx_log_warn("RDMX_COLL_%s=%s: unknown algorithm (auto, shm, %s), choosing "
                        "automatically", rx_coll_kind_name(k), v[k], names);
            a = RX_ALGO_AUTO;
        }
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

int rx_coll_select(rx_coll_exec_t *e)
{
    rx_sched_args_t *a = &e->args;
    int want = rx_coll_forced(a->kind);
    if (want == RX_ALGO_SHM) /* the blocking shm path declined: use a schedule */
        want = RX_ALGO_AUTO;
    /* the kinds with a node-aware composition take it across nodes; looked
     * up by name once per kind, not on every call (the list is constant) */
    static const rx_sched_algo_t *hier_of[RX_COLL_KINDS];
    static unsigned char hier_known[RX_COLL_KINDS];
    if (a->kind < 0 || a->kind >= RX_COLL_KINDS)
        return RX_ERR_INVAL;
    if (!hier_known[a->kind]) {
        hier_of[a->kind] = rx_sched_algo_find(a->kind, "hier");
        hier_known[a->kind] = 1;
    }
    const rx_sched_algo_t *hier = hier_of[a->kind];
    if (want == RX_ALGO_AUTO && hier && rx_coll_multinode(e->c))
        want = rx_sched_algo_id(hier);
    if (hier && want == rx_sched_algo_id(hier)) {
        if (!e->nodemap && !(e->nodemap = rx_node_map(e->c)))
            return RX_ERR_NOMEM;
        a->node_of = e->nodemap;
    }
    a->algo = rx_sched_choose(a, want);
    return a->algo ? RX_OK : RX_ERR_INVAL;
}

/* ---- schedules kept between calls ----
 * A communicator keeps the schedules it ran last (RX_CACHE_WAYS of them),
 * each under every argument that shapes its steps: kind, algorithm, p,
 * rank, root, count, unit, bytes, commutativity and, for the node-aware
 * algorithms, the node of every rank (compared in full). The v-variants
 * (per-rank counts and displacements) are built for each call. An entry a
 * running collective reads is held and never evicted; the communicator's
 * entries go with it (rx_coll_comm_release). */

#define RX_CACHE_WAYS 8
#define RX_CACHE_MAX_STEPS (1u << 16) /* larger schedules are built for each call */

typedef struct rx_sched_entry {
    rx_sched_args_t key;  /* v-arrays NULL; node_of points at nodes */
    int *nodes;
    rx_sched_t s;
    uint64_t used;        /* last use, for eviction */
    int holds;            /* running collectives reading s */
    int valid;
} rx_sched_entry_t;

typedef struct rx_sched_cache {
    struct rx_sched_cache *next; /* in its bucket */
    const rx_comm_t *c;
    rx_sched_entry_t way[RX_CACHE_WAYS];
} rx_sched_cache_t;

/* Buckets by communicator handle, chained by address: communicators that
 * share a handle (an intercommunicator's views) keep caches of their own. */
#define RX_CACHE_BUCKETS 64
static rx_sched_cache_t *rx_cache_tab[RX_CACHE_BUCKETS];
static uint64_t rx_cache_clock, rx_cache_hits, rx_cache_misses;

static int rx_cache_key_eq(const rx_sched_entry_t *en, const rx_sched_args_t *a)
{
    const rx_sched_args_t *k = &en->key;
    if (k->kind != a->kind || k->algo != a->algo || k->p != a->p || k->rank != a->rank ||
        k->root != a->root || k->count != a->count || k->unit != a->unit || k->bytes != a->bytes ||
        k->commute != a->commute || !k->node_of != !a->node_of)
        return 0;
    return !a->node_of || !memcmp(en->nodes, a->node_of, sizeof(int) * (size_t)a->p);
}

static void rx_cache_entry_clear(rx_sched_entry_t *en)
{
    rx_sched_free(&en->s);
    free(en->nodes);
    memset(en, 0, sizeof *en);
}

static rx_sched_cache_t **rx_cache_slot(const rx_comm_t *c)
{
    rx_sched_cache_t **pp = &rx_cache_tab[(unsigned)c->handle % RX_CACHE_BUCKETS];
    while (*pp && (*pp)->c != c)
        pp = &(*pp)->next;
    return pp;
}

const rx_sched_t *rx_coll_sched_get(rx_comm_t *c, const rx_sched_args_t *a,
                                    struct rx_sched_entry **held, int *rc)
{
    *held = NULL;
    *rc = RX_OK;
    if (a->rcounts || a->rdispls || a->scounts || a->sdispls)
        return NULL;
    rx_sched_cache_t **pp = rx_cache_slot(c), *ca = *pp;
    if (!ca) {
        if (!(ca = calloc(1, sizeof *ca)))
            return NULL;
        ca->c = c;
        *pp = ca;
    }
    rx_sched_entry_t *victim = NULL;
    for (int i = 0; i < RX_CACHE_WAYS; i++) {
        rx_sched_entry_t *en = &ca->way[i];
        if (en->valid && rx_cache_key_eq(en, a)) {
            en->used = ++rx_cache_clock;
            en->holds++;
            rx_cache_hits++;
            *held = en;
            return &en->s;
        }
        if (!en->holds && (!victim || !en->valid || (victim->valid && en->used < victim->used)))
            victim = en;
    }
    rx_cache_misses++;
    if (!victim) /* every entry is being read */
        return NULL;
    rx_cache_entry_clear(victim);
    rx_sched_init(&victim->s);
    if (a->node_of) {
        if (!(victim->nodes = malloc(sizeof(int) * (size_t)a->p)))
            return NULL;
        memcpy(victim->nodes, a->node_of, sizeof(int) * (size_t)a->p);
    }
    if ((*rc = rx_sched_build(&victim->s, a)) != RX_OK || victim->s.nstep > RX_CACHE_MAX_STEPS) {
        rx_cache_entry_clear(victim);
        return NULL; /* on an error *rc says it; a large one the caller builds itself */
    }
    victim->key = *a;
    victim->key.node_of = victim->nodes;
    victim->valid = 1;
    victim->used = ++rx_cache_clock;
    victim->holds = 1;
    *held = victim;
    return &victim->s;
}

void rx_coll_sched_put(struct rx_sched_entry *held)
{
    if (held)
        held->holds--;
}

void rx_coll_sched_cache_drop(rx_comm_t *c)
{
    rx_sched_cache_t **pp = rx_cache_slot(c), *ca = *pp;
    if (!ca)
        return;
    *pp = ca->next;
    for (int i = 0; i < RX_CACHE_WAYS; i++)
        rx_cache_entry_clear(&ca->way[i]);
    free(ca);
}

void rx_coll_sched_cache_stats(uint64_t *hits, uint64_t *misses)
{
    *hits = rx_cache_hits;
    *misses = rx_cache_misses;
}

static int rx_exec_prepare(rx_coll_exec_t *e)
{
    int rc = rx_coll_select(e);
    if (rc != RX_OK)
        return rc;
    e->sched = rx_coll_sched_get(e->c, &e->args, &e->cached, &rc);
    if (rc != RX_OK)
        return rc;
    if (!e->sched) { /* not cached: built for this call */
        if ((rc = rx_sched_build(&e->s, &e->args)) != RX_OK)
            return rc;
        e->sched = &e->s;
    }
    if (e->sched->tmp_bytes > e->tmp_cap) {
        free(e->tmp_alloc);
        e->tmp_alloc = malloc(e->sched->tmp_bytes);
        e->tmp_cap = e->tmp_alloc ? e->sched->tmp_bytes : 0;
        if (!e->tmp_alloc)
            return RX_ERR_NOMEM;
    }
    e->buf[RX_SB_TMP] = e->tmp_alloc;
    /* the most transfers of any round */
    int most = 0;
    for (uint32_t i = 0; i < e->sched->nround; i++) {
        uint32_t end = i + 1 < e->sched->nround ? e->sched->round[i + 1] : e->sched->nstep;
        if ((int)(end - e->sched->round[i]) > most)
            most = (int)(end - e->sched->round[i]);
    }
    if ((rc = rx_exec_reqs(e, most)) != RX_OK)
        return rc;
    e->tag = rx_coll_tag(e->c);
    e->round = 0;
    e->posted = 0;
    return RX_OK;
}

static uint32_t rx_round_end(const rx_coll_exec_t *e, uint32_t i)
{
    return i + 1 < e->sched->nround ? e->sched->round[i + 1] : e->sched->nstep;
}

static int rx_exec_post(rx_coll_exec_t *e)
{
    uint32_t beg = e->sched->round[e->round], end = rx_round_end(e, e->round);
    rx_comm_t *c = e->c;
    e->nreq = 0;
    for (int pass = 0; pass < 2; pass++) {
        int want = pass == 0 ? RX_SOP_RECV : RX_SOP_SEND;
        for (uint32_t j = beg; j < end; j++) {
            const rx_sched_step_t *st = &e->sched->step[j];
            if (st->op != want)
                continue;
            char *p = e->buf[st->buf] + st->off;
            if (want == RX_SOP_SEND) {
                int rc = rx_p2p_send_try(p, st->bytes, c, st->peer, e->tag, c->ctx + 1);
                if (rc == RX_OK)
                    continue;
                if (rc != RX_ERR_AGAIN)
                    return rc;
            }
            rx_req_t *r = rx_req_alloc(want == RX_SOP_SEND ? RX_REQ_SEND : RX_REQ_RECV);
            if (!r)
                return RX_ERR_NOMEM;
            r->buf = p;
            r->bytes = st->bytes;
            r->peer = st->peer;
            r->tag = e->tag;
            r->comm = c;
            r->ctx = c->ctx + 1;
            int rc = want == RX_SOP_SEND ? rx_p2p_isend(r) : rx_p2p_irecv(r);
            if (rc != RX_OK) {
                rx_req_release(r);
                return rc;
            }
            e->reqs[e->nreq++] = r;
        }
    }
    e->posted = 1;
    return RX_OK;
}

static void rx_exec_local(rx_coll_exec_t *e)
{
    uint32_t beg = e->sched->round[e->round], end = rx_round_end(e, e->round);
    for (uint32_t j = beg; j < end; j++) {
        const rx_sched_step_t *st = &e->sched->step[j];
        char *a = e->buf[st->buf] + st->off, *b = e->buf[st->buf2] + st->off2;
        if (st->op == RX_SOP_COPY) {
            if (a != b)
                memmove(b, a, st->bytes);
        } else if (st->op == RX_SOP_REDUCE) {
            size_t n = e->span_bytes && st->bytes == e->span_bytes ? e->span_count
                                                                    : st->bytes / e->args.unit;
            rx_coll_reduce_apply(e->op, e->dt, a - e->span_lb, b - e->span_lb, n);
        }
    }
}

/* Move e on as far as it goes without waiting: 1 when finished. */
static int rx_exec_advance(rx_coll_exec_t *e)
{
    while (e->round < e->sched->nround) {
        if (!e->posted) {
            int rc = rx_exec_post(e);
            if (rc != RX_OK) {
                e->err = rc;
                return 1;
            }
        }
        for (int i = 0; i < e->nreq; i++)
            if (!e->reqs[i]->complete)
                return 0;
        for (int i = 0; i < e->nreq; i++) {
            if (e->reqs[i]->st_rc && !e->err)
                e->err = e->reqs[i]->st_rc == RX_ERR_TRUNCATE ? RX_ERR_TRUNCATE : RX_ERR_IO;
            rx_req_release(e->reqs[i]);
        }
        e->nreq = 0;
        if (e->err)
            return 1;
        rx_exec_local(e);
        e->round++;
        e->posted = 0;
    }
    return 1;
}

static int rx_exec_reqs_done(const rx_coll_exec_t *e)
{
    for (int i = 0; i < e->nreq; i++)
        if (!e->reqs[i]->complete)
            return 0;
    return 1;
}

int rx_coll_run(rx_coll_exec_t *e)
{
    int rc = rx_exec_prepare(e);
    if (rc == RX_OK) {
        while (!rx_exec_advance(e))
            RX_WAIT_UNTIL(rx_exec_reqs_done(e));
        rc = e->err;
        if (rc == RX_OK)
            rx_exec_unpack(e);
    }
    rx_coll_exec_put(e);
    return rc;
}

/* A nonblocking collective holds its datatypes and op: the application may
 * free them once the call has returned (MPI 4.1 §5.12). */
static void rx_exec_hold(rx_coll_exec_t *e, int hold)
{
    void (*dt)(rx_dtype_t *) = hold ? rx_dtype_ref : rx_dtype_unref;
    if (e->dt)
        dt((rx_dtype_t *)e->dt);
    for (int i = 0; i < e->nunp; i++)
        dt((rx_dtype_t *)e->unp[i].dt);
    if (e->op)
        (hold ? rx_opobj_hold : rx_opobj_unhold)((rx_opobj_t *)e->op);
}

static void rx_exec_finish(rx_coll_exec_t *e)
{
    rx_req_t *r = e->req;
    if (e->err)
        rx_req_fail(r, e->err == RX_ERR_TRUNCATE ? RX_ERR_TRUNCATE : RX_ERR_INTERN);
    else
        rx_exec_unpack(e);
    rx_exec_hold(e, 0);
    r->coll = NULL;
    rx_coll_exec_put(e);
    rx_req_complete(r); /* lets go of the communicator */
}

static int rx_coll_hook(void)
{
    if (rx_in_hook || !rx_active)
        return 0;
    rx_in_hook = 1;
    int n = 0;
    rx_coll_exec_t **pp = &rx_active;
    while (*pp) {
        rx_coll_exec_t *e = *pp;
        uint32_t round = e->round;
        if (rx_exec_advance(e)) {
            *pp = e->next;
            rx_exec_finish(e);
            n++;
            continue;
        }
        n += e->round != round;
        pp = &e->next;
    }
    rx_in_hook = 0;
    return n;
}

int rx_coll_start(rx_coll_exec_t *e, rx_req_t **out)
{
    rx_req_t *r = rx_req_alloc(RX_REQ_COLL);
    if (!r) {
        rx_coll_exec_put(e);
        return RX_ERR_NOMEM;
    }
    int rc = rx_exec_prepare(e);
    if (rc == RX_OK && rx_progress_hook_add(rx_coll_hook) != 0) {
        rx_log_error("no progress hook slot for nonblocking collectives");
        rc = RX_ERR_INTERN;
    }
    if (rc != RX_OK) {
        rx_req_release(r);
        rx_coll_exec_put(e);
        return rc;
    }
    rx_req_hold_comm(r, e->c);
    rx_exec_hold(e, 1);
    r->coll = e;
    e->req = r;
    /* queue at the tail: collectives of one communicator start in call order */
    rx_coll_exec_t **pp = &rx_active;
    while (*pp)
        pp = &(*pp)->next;
    e->next = NULL;
    *pp = e;
    /* the first round goes out now, so peers can start */
    if (!rx_in_hook) {
        rx_in_hook = 1;
        if (rx_exec_advance(e)) {
            for (pp = &rx_active; *pp != e; pp = &(*pp)->next)
                ;
            *pp = e->next;
            rx_exec_finish(e);
        }
        rx_in_hook = 0;
    }
    *out = r;
    return RX_OK;
}
