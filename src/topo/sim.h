/* SPDX-License-Identifier: MIT
 * Flow-level fabric simulator.
 *
 * A workload is, per rank, a sequence of rounds; a round holds communication steps (send/recv to a
 * peer, with a size) and local steps (reduce/copy, with a size). A rank enters a round by posting
 * its sends and receives; a transfer becomes a flow once both its send and the matching receive are
 * posted (k-th send from i to j matches the k-th receive at j from i). The flow first waits the
 * latency of its path, then shares link bandwidth with the other flows by max-min fairness. When all
 * transfers of a rank's round are done the rank runs its local steps (bytes / compute bandwidth) and
 * moves to its next round. With barrier synchronisation no rank starts round k+1 before every rank
 * finished round k (the "phases" of the traffic patterns).
 *
 * Rates are re-solved when flows start or finish, only on the connected part of the fabric the
 * event touches (links joined through shared flows); events at the same instant are batched.
 * Memory is linear in the live flows: the workload hands out steps round by round. */
#ifndef RX_TOPO_SIM_H
#define RX_TOPO_SIM_H

#include "route.h"
#include "topo.h"

#include <stdint.h>

enum rx_step_op { RX_STEP_SEND = 0, RX_STEP_RECV, RX_STEP_REDUCE, RX_STEP_COPY };

typedef struct rx_step {
    uint8_t op;
    uint32_t peer;
    uint64_t bytes;
} rx_step_t;

typedef struct rx_workload {
    uint32_t nranks;
    uint32_t nrounds; /* the most rounds any rank has */
    /* Steps of a rank's round: *n of them at *steps (owned by the workload, valid until the next
     * call for the same rank); *n = 0 and RX_OK for an empty round; RX_ERR_NOTFOUND past the last. */
    int (*round)(void *ctx, uint32_t rank, uint32_t round, const rx_step_t **steps, uint32_t *n);
    void (*destroy)(void *ctx);
    void *ctx;
    /* round() may run in several threads at once; each result is then valid until the calling
     * thread's next call (the simulator's phase threads use it only when set) */
    int concurrent;
    char desc[160];
} rx_workload_t;

typedef struct rx_sim_opts {
    int algo;             /* RX_ROUTE_* */
    uint64_t seed;
    int barrier;          /* 1: rounds are global phases */
    double compute_bw;    /* B/s of reduce/copy steps */
    double intra_bw;      /* B/s of a transfer between two ranks on one node (no fabric) */
    const uint32_t *rank_node; /* rank -> node; NULL: rank i on node i */
    int full_solve;       /* re-solve every flow at every event (reference for the incremental solver) */
    int threads;          /* barrier-synchronised workloads: phases simulated at once (0: one per CPU) */
    int progress;         /* a line on stderr every 10 s of a long simulation */
    int no_memo;          /* simulate identical phases again instead of reusing the first */
    /* several jobs on one fabric: job j owns ranks job_first[j] .. job_first[j + 1] - 1 and
     * synchronises by phases among its own ranks when job_barrier[j] (then `barrier` is unused) */
    uint32_t njobs;
    const uint32_t *job_first;
    const uint8_t *job_barrier;
} rx_sim_opts_t;

typedef struct rx_sim_result {
    double time;             /* simulated completion time, s */
    double net_bytes;        /* bytes that crossed the fabric */
    uint64_t flows;          /* fabric flows simulated */
    uint64_t solves, events; /* re-solves of the rates, batches of events */
    double throughput;       /* net_bytes / time / (sending nodes x their injection bandwidth) */
    double peak_throughput;  /* the highest instantaneous aggregate rate, same normalisation */
    double sat_throughput;   /* aggregate rate when the most flows were live at once (saturation) */
    uint32_t senders;        /* nodes that injected traffic */
    uint32_t max_link_flows; /* most flows sharing one link at any instant (fabric links) */
    uint32_t max_link_flows_all; /* same, host links included */
    uint32_t peak_live;      /* most live flows at once */
    double cpu_seconds;      /* wall-clock seconds the simulation took */
    uint64_t phases_reused;  /* phases identical to an earlier one, not simulated again */
    double *job_time;        /* with njobs: when each job's last rank finished, s */
    /* per link (nlinks entries, owned by the caller through rx_sim_result_free) */
    double *link_bytes;
    uint32_t *link_maxflows;
    uint32_t nlinks;
} rx_sim_result_t;

void rx_sim_opts_default(rx_sim_opts_t *o);
int rx_sim_run(rx_topo_t *t, const rx_workload_t *w, const rx_sim_opts_t *o, rx_sim_result_t *res);

/* Several workloads as one (jobs.c): job j's ranks follow those of job j-1, its peers shifted
 * alike; *first (njobs + 1 entries) receives the first rank of each job. The jobs stay owned by
 * the caller and must outlive w. */
int rx_workload_jobs(const rx_workload_t *const *jobs, uint32_t njobs, rx_workload_t *w, uint32_t **first);
void rx_sim_result_free(rx_sim_result_t *r);

/* Workloads (workload.c, schedule.c). */
enum rx_pattern {
    RX_PAT_ALLTOALL = 0, /* N-1 phases, phase k: rank i sends to i+k+1 (mod N) ("shift" pairing) */
    RX_PAT_ALLTOALL_XOR, /* phase k: rank i exchanges with i xor (k+1); N a power of two */
    RX_PAT_SHIFT,        /* one phase: i sends to i+s */
    RX_PAT_PERMUTATION,  /* one phase: a seeded random permutation without fixed points */
    RX_PAT_UNIFORM,      /* one phase: each rank sends k flows to uniformly random other ranks */
    RX_PAT_HALO3D,       /* one phase: 3D periodic grid, six neighbours */
    RX_PAT_ADVERSARIAL,  /* dragonfly: shift by the nodes of one group (group i -> group i+1) */
};
typedef struct rx_pattern_opts {
    int pattern;
    uint32_t nranks;
    uint64_t bytes;
    long shift;          /* shift: s */
    uint32_t k;          /* uniform: flows per rank */
    uint32_t dims[3];    /* halo3d: grid (0: chosen near a cube) */
    uint32_t iterations; /* repeat the pattern's phases this many times */
    uint64_t seed;
} rx_pattern_opts_t;

int rx_pattern_parse(const char *name, int *pattern);
const char *rx_pattern_name(int pattern);
int rx_workload_pattern(const rx_topo_t *t, const rx_pattern_opts_t *po, rx_workload_t *w);
/* Schedule files (docs/topo.md, "Schedule format"); nranks selects the block for that process
 * count (0: the file must hold exactly one). */
int rx_workload_schedule(const char *path, uint32_t nranks, rx_workload_t *w);
void rx_workload_free(rx_workload_t *w);
/* Writes a generated collective schedule (schedule_gen.c): algo names as in docs/topo.md. */
int rx_schedule_generate(FILE *f, const char *algo, uint32_t nranks, uint64_t bytes);
/* The KIND-ALGORITHM names rx_schedule_generate takes, space-separated. */
void rx_schedule_names(FILE *f);
/* The same schedule as a workload, built in memory (compact: runs of rounds whose peers advance
 * by a constant stride), without the text. */
int rx_workload_collective(const char *algo, uint32_t nranks, uint64_t bytes, rx_workload_t *w);

/* In-network allreduce (innet.c, docs/topo.md "In-network reduction"): SHARP-style aggregation in
 * the switches of one tree rooted at the switch nearest to the job's leaf switches. */
typedef struct rx_innet_opts {
    double agg_bw;   /* B/s of results one switch's aggregation unit produces for the tree (0: host link rate) */
    double agg_lat;  /* s a switch takes per operation besides the bytes */
    uint64_t chunk;  /* most bytes one aggregation operation carries */
    uint32_t window; /* operations in flight per tree */
} rx_innet_opts_t;
typedef struct rx_innet_info {
    uint32_t root, depth, switches; /* root vertex, switch levels below it, switches in the tree */
    uint64_t ops;                   /* aggregation operations */
    double op_bytes;                /* bytes per operation */
    double t_op, stage;             /* one operation's round trip; the slowest step of one (s) */
    double rate_cap;                /* B/s the tree sustains: min(op / stage, window x op / t_op) */
    double local;                   /* s spent combining and handing out among ranks of one node */
} rx_innet_info_t;
void rx_innet_opts_default(rx_innet_opts_t *o);
/* Completion time and link loads of an allreduce of `bytes` over nranks ranks (rank_node as in
 * rx_sim_opts_t; so gives compute_bw and intra_bw); res is released with rx_sim_result_free. */
int rx_innet_allreduce(const rx_topo_t *t, uint32_t nranks, uint64_t bytes, const uint32_t *rank_node,
                       const rx_innet_opts_t *o, const rx_sim_opts_t *so, rx_sim_result_t *res, rx_innet_info_t *info);

#endif
