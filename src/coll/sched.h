/* SPDX-License-Identifier: MIT
 * Collective schedules: the one description of every collective algorithm.
 *
 * A schedule is what one rank does, as rounds of steps. Within a round the
 * transfers (send / recv) run concurrently; once all have completed the
 * local steps (reduce / copy) run in order. Steps name a buffer (IN: the
 * caller's input, OUT: the caller's output, TMP: scratch the executor
 * allocates, tmp_bytes long) and a byte offset in it.
 *   send   (buf, off, bytes) to peer
 *   recv   (buf, off, bytes) from peer
 *   copy   (buf, off) -> (buf2, off2), bytes
 *   reduce inout = in (op) inout with in = (buf, off), inout = (buf2, off2);
 *          the algorithms keep `in` the lower range of ranks, so a
 *          non-commutative op gets the rank order MPI requires.
 * The builders depend on nothing of the runtime: the runtime executes their
 * schedules (exec.c) and rdmx-topo writes them as text for its simulator
 * (rx_sched_write, the format of docs/topo.md). */
#ifndef RX_COLL_SCHED_H
#define RX_COLL_SCHED_H

#include <stdint.h>
#include <stdio.h>

enum rx_sched_op { RX_SOP_SEND = 1, RX_SOP_RECV, RX_SOP_REDUCE, RX_SOP_COPY };
enum rx_sched_buf { RX_SB_IN = 0, RX_SB_OUT = 1, RX_SB_TMP = 2, RX_SB_COUNT };

typedef struct rx_sched_step {
    uint8_t op, buf, buf2, pad;
    int32_t peer;
    uint64_t off, bytes, off2;
} rx_sched_step_t;

typedef struct rx_sched {
    rx_sched_step_t *step;
    uint32_t nstep, cap;
    uint32_t *round; /* index of the first step of each round */
    uint32_t nround, rcap;
    uint64_t tmp_bytes;
    int err;         /* out of memory while building */
} rx_sched_t;

/* Collectives and algorithms. */
enum rx_coll_kind {
    RX_COLL_BARRIER, RX_COLL_BCAST, RX_COLL_REDUCE, RX_COLL_ALLREDUCE, RX_COLL_GATHER,
    RX_COLL_SCATTER, RX_COLL_ALLGATHER, RX_COLL_ALLTOALL, RX_COLL_REDUCE_SCATTER,
    RX_COLL_SCAN, RX_COLL_EXSCAN, RX_COLL_KINDS
};

enum rx_coll_algo {
    RX_ALGO_AUTO = 0,
    RX_ALGO_DISSEMINATION,      /* barrier */
    RX_ALGO_BINOMIAL,           /* bcast, reduce */
    RX_ALGO_SCATTER_ALLGATHER,  /* bcast: scatter, then ring allgather */
    RX_ALGO_RS_GATHER,          /* reduce: ring reduce-scatter, then gather to root */
    RX_ALGO_RECURSIVE_DOUBLING, /* allreduce, allgather, scan, exscan */
    RX_ALGO_RABENSEIFNER,       /* allreduce: recursive halving + doubling */
    RX_ALGO_RING,               /* allreduce, allgather, reduce_scatter */
    RX_ALGO_BRUCK,              /* allgather, alltoall */
    RX_ALGO_PAIRWISE,           /* alltoall */
    RX_ALGO_LINEAR,             /* gather, scatter, v-variants */
    RX_ALGO_HIER,               /* allreduce, bcast, barrier, reduce: node-aware */
    RX_ALGO_REDUCE_SCATTERV,    /* reduce_scatter: reduce to 0, then scatterv */
    RX_ALGO_SHM,                /* node-shared memory (not a schedule) */
    RX_ALGO_COUNT
};

/* What one rank of a collective needs to build its schedule. Sizes are in
 * bytes except count (elements, reductions) and unit (bytes per element). */
typedef struct rx_sched_args {
    int kind, algo;
    int p, rank, root;
    uint64_t count, unit;  /* reductions: vector of count elements of unit bytes */
    uint64_t bytes;        /* bcast: message; gather/scatter/allgather/alltoall: one block */
    int commute;
    /* v-variants: per-rank block sizes and offsets (bytes) in OUT (gather,
     * allgather, reduce_scatter: element counts), IN (scatter) or both
     * (alltoall: s* for IN, r* for OUT); NULL for the uniform forms */
    const uint64_t *rcounts, *rdispls, *scounts, *sdispls;
    /* hierarchical algorithms: node index of each rank (NULL: one node) */
    const int *node_of;
} rx_sched_args_t;

/* Build rank a->rank's schedule into s (rx_sched_init'ed); RX_OK, or
 * RX_ERR_INVAL for an algorithm that does not apply (names the reason),
 * RX_ERR_NOMEM. An AUTO algorithm must have been resolved by the caller. */
int rx_sched_build(rx_sched_t *s, const rx_sched_args_t *a);
/* Whether algo can run these arguments (e.g. ring allreduce needs a
 * commutative op and at least p elements). */
int rx_sched_algo_fits(const rx_sched_args_t *a);

void rx_sched_init(rx_sched_t *s);
void rx_sched_free(rx_sched_t *s);
void rx_sched_reset(rx_sched_t *s);

/* Names ("allreduce", "ring") for variables, tools and messages. */
const char *rx_coll_kind_name(int kind);
const char *rx_coll_algo_name(int algo);
int rx_coll_kind_parse(const char *s);
int rx_coll_algo_parse(const char *s);

/* Write the schedules of all p ranks as one "nranks" block of the text
 * format (docs/topo.md), built from a (a.rank is ignored); name goes on the
 * "algorithm" line. */
int rx_sched_write(FILE *f, const char *name, rx_sched_args_t a);
/* "allreduce-ring", "reduce_scatter-ring", "bcast-scatter-allgather": the
 * kind, then the algorithm. 0 on success, -1 if unknown. */
int rx_sched_parse_name(const char *name, int *kind, int *algo);

/* Builder internals (sched.c), used by the sched_*.c builders. */
void rx_sched_round(rx_sched_t *s);
void rx_sched_send(rx_sched_t *s, int peer, int buf, uint64_t off, uint64_t bytes);
void rx_sched_recv(rx_sched_t *s, int peer, int buf, uint64_t off, uint64_t bytes);
void rx_sched_copy(rx_sched_t *s, int buf, uint64_t off, int buf2, uint64_t off2, uint64_t bytes);
void rx_sched_reduce(rx_sched_t *s, int in, uint64_t off, int inout, uint64_t off2, uint64_t bytes);
void rx_sched_tmp(rx_sched_t *s, uint64_t bytes);

/* Shared pieces: binomial bcast of OUT[off, off + len) from root; ring
 * allgather of blocks (off[i], len[i]) of buf, block r present at rank r. */
void rx_sched_bcast_binomial(rx_sched_t *s, int p, int rank, int root, uint64_t off, uint64_t len);
void rx_sched_allgather_ring(rx_sched_t *s, int p, int r, int buf, const uint64_t *off,
                             const uint64_t *len);

int rx_sched_build_move(rx_sched_t *s, const rx_sched_args_t *a);   /* sched_move.c */
int rx_sched_build_reduce(rx_sched_t *s, const rx_sched_args_t *a); /* sched_reduce.c */
int rx_sched_build_hier(rx_sched_t *s, const rx_sched_args_t *a);   /* sched_hier.c */

#endif
