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
 *
 * Every algorithm is one file of this directory exporting a descriptor
 * (rx_sched_algo_t: kind, name, whether it applies, the automatic choice's
 * preference, the builder, a line of help) and one line in the list of
 * algos.c. Everything that names or chooses algorithms reads that list:
 * the automatic choice, RDMX_COLL_<KIND>, rdmx-run --info and
 * rdmx-topo schedule. The module depends on nothing of the runtime (only
 * util): the runtime executes the schedules (coll/exec.c) and rdmx-topo
 * writes them as text for its simulator (rx_sched_write, the format of
 * docs/topo.md). */
#ifndef RX_SCHED_SCHED_H
#define RX_SCHED_SCHED_H

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

/* Collectives. */
enum rx_coll_kind {
    RX_COLL_BARRIER, RX_COLL_BCAST, RX_COLL_REDUCE, RX_COLL_ALLREDUCE, RX_COLL_GATHER,
    RX_COLL_SCATTER, RX_COLL_ALLGATHER, RX_COLL_ALLTOALL, RX_COLL_REDUCE_SCATTER,
    RX_COLL_SCAN, RX_COLL_EXSCAN, RX_COLL_KINDS
};

struct rx_sched_algo;

/* What one rank of a collective needs to build its schedule. Sizes are in
 * bytes except count (elements, reductions) and unit (bytes per element). */
typedef struct rx_sched_args {
    int kind;
    const struct rx_sched_algo *algo; /* NULL until chosen */
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

/* One algorithm of one collective. */
typedef struct rx_sched_algo {
    int kind;                 /* enum rx_coll_kind */
    const char *name;         /* "ring": RDMX_COLL_<KIND>=ring, rdmx-topo allreduce-ring */
    const char *help;         /* one line for rdmx-run --info */
    /* Whether it can run these arguments (e.g. ring allreduce needs a
     * commutative op and at least p elements); NULL: every call of kind. */
    int (*fits)(const rx_sched_args_t *a);
    /* The automatic choice takes the fitting algorithm of the kind with the
     * highest preference (the first in the list on a tie); the crossovers
     * live here. NULL: chosen only when asked for (RDMX_COLL_<KIND>, or the
     * runtime's node-aware choice). Only arguments all ranks agree on. */
    int (*prefer)(const rx_sched_args_t *a);
    /* Append rank a->rank's schedule to s; called only when fits. */
    int (*build)(rx_sched_t *s, const rx_sched_args_t *a);
} rx_sched_algo_t;

/* The list (algos.c), in the order --info prints and ties are broken. */
extern const rx_sched_algo_t *const rx_sched_algos[];
extern const int rx_sched_nalgos;

/* Values of RDMX_COLL_<KIND> that are not a schedule of the list: choose
 * automatically, or the node-shared-memory path. A choice is one of these
 * or 1 + the index of an algorithm in rx_sched_algos. */
#define RX_ALGO_AUTO 0
#define RX_ALGO_SHM (-1)

/* The algorithm of kind named name ('-' and '_' alike), or NULL. */
const rx_sched_algo_t *rx_sched_algo_find(int kind, const char *name);
/* A choice value as above; the descriptor it names (NULL for AUTO, SHM). */
int rx_sched_algo_id(const rx_sched_algo_t *al);
const rx_sched_algo_t *rx_sched_algo_of(int id);
/* Parse an RDMX_COLL_<KIND> value: "auto" or "" AUTO, "shm" SHM, else an
 * algorithm of kind; -2 if unknown. */
int rx_sched_choice_parse(int kind, const char *s);
/* Whether a->algo can run a (a->algo non-NULL). */
int rx_sched_algo_fits(const rx_sched_args_t *a);
/* The automatic choice for a (never NULL for a valid kind). */
const rx_sched_algo_t *rx_sched_auto(const rx_sched_args_t *a);
/* forced (a choice value) if it names a fitting schedule, else automatic. */
const rx_sched_algo_t *rx_sched_choose(const rx_sched_args_t *a, int forced);
/* "auto, shm, binomial, scatter_allgather, hier" style list of the names
 * for kind into buf; and every algorithm with its help, for --info. */
void rx_sched_algo_names(int kind, char *buf, size_t len);
void rx_sched_algos_print(FILE *out);

/* Build rank a->rank's schedule into s (rx_sched_init'ed) with a->algo;
 * RX_OK, RX_ERR_INVAL when the algorithm does not fit the arguments (or is
 * NULL), RX_ERR_NOMEM. */
int rx_sched_build(rx_sched_t *s, const rx_sched_args_t *a);

void rx_sched_init(rx_sched_t *s);
void rx_sched_free(rx_sched_t *s);
void rx_sched_reset(rx_sched_t *s);

/* Names ("allreduce") for variables, tools and messages. */
const char *rx_coll_kind_name(int kind);
int rx_coll_kind_parse(const char *s);
/* '-' and '_' are the same in names: "recursive-doubling" reads as well. */
int rx_sched_name_eq(const char *a, const char *b);

/* Write the schedules of all p ranks as one "nranks" block of the text
 * format (docs/topo.md), built from a (a.rank is ignored); name goes on the
 * "algorithm" line. */
int rx_sched_write(FILE *f, const char *name, rx_sched_args_t a);
/* "allreduce-ring", "reduce_scatter-ring", "bcast-scatter-allgather": the
 * kind, then the algorithm. The descriptor, or NULL if unknown. */
const rx_sched_algo_t *rx_sched_parse_name(const char *name);

/* Builder primitives (sched.c). */
void rx_sched_round(rx_sched_t *s);
void rx_sched_send(rx_sched_t *s, int peer, int buf, uint64_t off, uint64_t bytes);
void rx_sched_recv(rx_sched_t *s, int peer, int buf, uint64_t off, uint64_t bytes);
void rx_sched_copy(rx_sched_t *s, int buf, uint64_t off, int buf2, uint64_t off2, uint64_t bytes);
void rx_sched_reduce(rx_sched_t *s, int in, uint64_t off, int inout, uint64_t off2, uint64_t bytes);
void rx_sched_tmp(rx_sched_t *s, uint64_t bytes);

#endif
