/* SPDX-License-Identifier: MIT
 * Private state of the flow simulator, shared by sim.c (events, ranks) and sim_solve.c (rates). */
#ifndef RX_TOPO_SIM_IMPL_H
#define RX_TOPO_SIM_IMPL_H

#include "sim.h"

#include <stddef.h>

enum { RX_FS_FREE = 0, RX_FS_LOCAL, RX_FS_LATENCY, RX_FS_ACTIVE, RX_FS_DONE };
enum { RX_EV_FLOW_DONE = 0, RX_EV_FLOW_ACTIVATE, RX_EV_LOCAL_DONE, RX_EV_COMPUTE_DONE };

typedef struct rx_flow {
    double rem;    /* bytes left at t_upd */
    double t_upd;
    double nrate;  /* solver: the new rate */
    uint64_t bytes;
    uint32_t src, dst; /* ranks */
    uint32_t next_free;
    uint32_t apos;     /* index in rx_sim_t.act while active */
    uint16_t nh;
    uint8_t state;
    /* not cleared on reuse: a completion event of an earlier flow in this slot must stay stale */
    uint32_t ver;
    /* the links of the path, each with the index of this flow in the link's flow list: side by
     * side, so that a short path's hops share the record's first cache lines */
    struct rx_flow_hop {
        uint32_t link, pos;
    } hop[RX_ROUTE_MAXHOPS];
} rx_flow_t;

/* Everything the simulator keeps per link, in one cache line: an event or a re-solve touches a
 * link once instead of once per array (link counts reach 10^5, far beyond the caches). */
typedef struct rx_link_state {
    _Alignas(64) uint32_t *fl; /* active flows on the link, unordered (swap-remove) */
    uint32_t n, cap;
    double bw;    /* of the fabric link */
    double rcap;  /* solver: capacity left to the flows not frozen yet */
    uint32_t unf; /* solver: those flows */
    uint32_t mark, ver; /* solver: epoch of the last visit; version of the link's heap entries */
    uint32_t newcnt;    /* solver: arrived flows on it */
    uint32_t load;      /* flows routed over it and not finished (UGAL reads it) */
    uint32_t maxflows;  /* most flows at once */
    double bytes;       /* that crossed it */
} rx_link_state_t;

/* 16 bytes: more of the event heap in cache */
typedef struct rx_event {
    double t;
    uint32_t id : 30; /* flow or rank (both below RX_SIM_MAXID) */
    uint32_t type : 2;
    uint32_t ver;
} rx_event_t;
#define RX_SIM_MAXID (1u << 30)

typedef struct rx_post {
    uint8_t op;
    uint32_t peer;
    uint64_t bytes;
    uint64_t salt; /* of a send: names the transfer for random routing choices */
} rx_post_t;

typedef struct rx_rank {
    uint32_t round;
    uint32_t pending; /* transfers of the round not finished */
    double compute;   /* local work of the round, seconds */
    int finished;
    rx_post_t *posts; /* sends and receives posted and not matched yet */
    uint32_t nposts, postcap;
} rx_rank_t;

/* A sender's last route (pair-determined routing only): its destination node, links, latency.
 * 128 bytes, cache-line aligned: a route of up to 8 hops is read in one line. */
typedef struct rx_route_memo {
    uint32_t nd;
    uint16_t nh;
    double lat;
    double bw;    /* contention-free runs: the route's smallest link capacity */
    double bytes; /* contention-free runs: bytes sent on the route and not yet added to its links */
    uint32_t path[RX_ROUTE_MAXHOPS];
} rx_route_memo_t;
_Static_assert(sizeof(rx_route_memo_t) % 64 == 0, "route memos fill whole cache lines");

typedef struct rx_solve_entry {
    double share;
    uint32_t link, ver;
} rx_solve_entry_t;

typedef struct rx_sim {
    rx_topo_t *t;
    const rx_workload_t *w;
    rx_sim_opts_t o;
    rx_sim_result_t *res;
    rx_router_t router;
    const uint32_t *rank_node;
    uint32_t *own_rank_node;
    double now;
    /* flows; what the solver reads of every flow on a link is kept apart from the records, in
     * arrays indexed by flow id, so that scanning a link's flows stays in cache */
    rx_flow_t *f;
    uint32_t *fmark;
    double *frate;    /* bytes per second */
    uint32_t *frozen; /* solver epoch in which the flow got its rate */
    uint32_t *fcur;   /* version of the flow's pending completion while active, else 0 */
    uint32_t nf, fcap, ffree, live;
    int track_load; /* adaptive routing reads the flows routed over each link (rx_link_state_t.load) */
    rx_route_memo_t *rmemo; /* per sending rank, without phases (NULL: routes depend on more than the pair) */
    uint32_t *act; /* the active flows */
    uint32_t nact, actcap;
    uint64_t flow_seq;
    rx_link_state_t *ls;
    /* latency and capacity per link as an index into a table of the fabric's distinct pairs (a
     * few link classes): routing a transfer reads both for every hop, and a byte per link stays
     * in cache where the 32-byte link records and the link states do not. NULL when the fabric
     * has more than 256 distinct pairs: the link records are read. */
    uint8_t *lkind;
    struct rx_link_kind {
        double lat, bw;
    } lkinds[256];
    /* Contention-free run (rank synchronisation, routing that does not read link loads): every
     * flow is alone on each link it crosses while it is active, so the max-min filling would give
     * it the smallest capacity of its path; flows then skip the link lists and the filling, and
     * the run gives up (contended) at the first flow that would share a link. lbusy per link: 0
     * never used, 1 used, 2 held by an active flow. */
    int alone, contended;
    uint8_t *lbusy;
    /* A contention-free run whose capacities are whole numbers (all its sums of rates and bytes
     * are then exact, whatever their order) takes events at one instant in any order: a radix
     * queue (sim_radix.c) instead of the binary heap. Bucket b holds events whose key (the bits
     * of the time, at least rq_last) first differs from rq_last in bit b - 1 (bucket 0: equal). */
    int radix;
    double maxbw;
    struct rx_ev_bucket {
        rx_event_t *e;
        uint32_t n, cap;
    } rq[65];
    uint64_t rq_last;
    uint64_t *dkey; /* radix runs: the instant's completions by sending rank (rank << 32 | flow) */
    uint32_t dkeycap;
    /* events */
    rx_event_t *ev;
    uint32_t nev, evcap;
    /* Activations apart from the heap: a flow activates at its start plus its route's latency,
     * and flows start in time order, so the activations of one route latency come in time order
     * too: a FIFO per distinct latency (a few per fabric, from the few link classes) takes them
     * without a heap entry each (a third of all events: one per flow). A latency beyond
     * RX_SIM_LATQ distinct ones goes to the heap. lqmin: the queue with the earliest head
     * (UINT32_MAX: all empty); nlev: activations queued. */
#define RX_SIM_LATQ 16
    struct rx_latq {
        double lat;
        rx_event_t *e; /* ring of cap (a power of two) entries from head */
        uint32_t head, n, cap;
    } lq[RX_SIM_LATQ];
    uint32_t nlq, lqmin, lqlast, nlev;
    uint32_t *done;
    uint32_t ndone, donecap;
    /* ranks */
    rx_rank_t *ranks;
    uint32_t nfinished, barrier_count;
    /* metrics */
    unsigned char *injecting;
    double inj_sum, agg_rate, peak_rate, sat_rate;
    uint32_t sat_live;
    /* solver */
    uint32_t *arrived, narrived, arrcap; /* flows that joined their links since the last solve */
    double departed_min;                 /* lowest rate of the flows that left since then */
    uint32_t *dlinks, ndl, dlcap;        /* links those flows crossed (repeats allowed) */
    int changed;
    double *rbuf;
    uint32_t rbufcap;
    uint32_t epoch;
    uint32_t *clinks, *cflows, ncflows_cap;
    rx_solve_entry_t *heap;
    size_t nheap, heapcap;
    /* several jobs: per rank its job; per job its barrier count and finished ranks */
    uint32_t *rjob, *jbar, *jfin;
    /* progress of a long run without phases: rounds the ranks finished, when the last line went out */
    uint64_t rounds_done;
    double t0, last_report; /* rx_time_now() at the start, at the last line */
    uint32_t report_tick;
    /* phase mode (sim_phase.c): the ranks run one round, then stop at the barrier */
    int one_phase;
    double phase_end;
} rx_sim_t;

int rx_solver_init(rx_sim_t *s);
/* sim_radix.c: the radix event queue of contention-free runs (s->nev counts its events) */
int rx_rq_push(rx_sim_t *s, const rx_event_t *e);
/* The earliest event (the first of an instant). */
int rx_rq_pop_first(rx_sim_t *s, rx_event_t *e);
/* An event not later than horizon (1), none (0), in no particular order; or an error. */
int rx_rq_pop_until(rx_sim_t *s, double horizon, rx_event_t *e);
void rx_rq_free(rx_sim_t *s);
void rx_solver_free(rx_sim_t *s);
int rx_solve(rx_sim_t *s);
/* rx_solve of a contention-free run: the arrived flows take the smallest capacity of their path. */
int rx_solve_alone(rx_sim_t *s);
int rx_solver_arrive(rx_sim_t *s, uint32_t fid);
int rx_solver_depart(rx_sim_t *s, uint32_t fid);
int rx_sim_schedule_done(rx_sim_t *s, uint32_t fid);
/* sim.c: allocation, the event loop, the deadlock report, the derived metrics, release */
int rx_sim_setup(rx_sim_t *s, rx_topo_t *t, const rx_workload_t *w, const rx_sim_opts_t *o, rx_sim_result_t *res);
int rx_rank_enter(rx_sim_t *s, uint32_t rank);
int rx_sim_loop(rx_sim_t *s);
/* Logs why ranks wait (phase_done: only ranks that did not complete the phase); RX_ERR_INVAL if any does. */
int rx_sim_stuck(rx_sim_t *s, int phase_done);
void rx_sim_finish(const rx_topo_t *t, rx_sim_result_t *res, double inj_sum, double peak_rate, double sat_rate);
/* Adds the per-link figures of s (bytes, most flows at once) into its result's arrays. */
void rx_sim_flush_links(rx_sim_t *s);
void rx_sim_cleanup(rx_sim_t *s);
/* sim_phase.c: barrier-synchronised workloads, phase by phase (independent: the fabric is empty
 * at every barrier), on several threads */
int rx_sim_run_phases(rx_topo_t *t, const rx_workload_t *w, const rx_sim_opts_t *o, rx_sim_result_t *res);
int rx_sim_defer_done(rx_sim_t *s, uint32_t fid);
/* Drops the pending activations (sim.c). */
void rx_act_clear(rx_sim_t *s);

#endif
