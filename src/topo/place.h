/* SPDX-License-Identifier: MIT
 * Rank placement: map the ranks of a job onto free nodes of a fabric, given how much they talk.
 *
 * Methods: linear (ranks in node order), random (seeded shuffle), bestfit (Slurm's tree policy:
 * the lowest switch whose subtree holds enough free nodes, best fit among those, then the leaf
 * switches with the most free nodes first), scotch (Scotch maps the communication graph onto the
 * fabric as a target architecture — a tree of levels for fat-trees and dragonflies, the fabric
 * graph itself for loaded fabrics — restricted to the nodes bestfit chose).
 * Scores: hop-bytes, the bytes on the busiest link (static routes), optionally simulated time. */
#ifndef RX_TOPO_PLACE_H
#define RX_TOPO_PLACE_H

#include "sim.h"
#include "topo.h"

#include <stdio.h>

/* A communication matrix as a list of (src, dst) entries; duplicates are summed on load. */
typedef struct rx_commat {
    uint32_t n;        /* ranks */
    uint32_t nnz, cap;
    uint32_t *src, *dst;
    double *msgs, *bytes;
} rx_commat_t;

/* "# rdmx traffic matrix v1" then "SRC DST MESSAGES BYTES" lines; nranks 0: 1 + the largest rank seen. */
int rx_commat_load(const char *path, uint32_t nranks, rx_commat_t *m);
/* Sums every send of every round of a workload. */
int rx_commat_from_workload(const rx_workload_t *w, rx_commat_t *m);
/* A one-phase workload sending each entry's bytes (to simulate a matrix). */
int rx_commat_workload(const rx_commat_t *m, rx_workload_t *w);
void rx_commat_free(rx_commat_t *m);
/* Appends an entry; rx_commat_sort orders entries by (src, dst) and sums duplicates. */
int rx_commat_push(rx_commat_t *m, uint32_t src, uint32_t dst, double msgs, double bytes);
int rx_commat_sort(rx_commat_t *m);

/* Parses a free-node list: "0-63,100" (node ids) or a hostlist of node names ("cn[001-064]"). */
int rx_place_parse_free(const rx_topo_t *t, const char *list, uint32_t **nodes, uint32_t *n);

/* spread: ranks dealt round-robin over the top-level domains (dragonfly groups, top subtrees of a
 * fat-tree, leaf switches of a loaded fabric); auto: the best of the other methods, by simulated
 * time where the workload is at hand (rx_place_best), else by the busiest link's time */
enum rx_place_method { RX_PLACE_LINEAR = 0, RX_PLACE_RANDOM, RX_PLACE_BESTFIT, RX_PLACE_SCOTCH, RX_PLACE_SPREAD,
                       RX_PLACE_AUTO, RX_PLACE_NMETHODS };
int rx_place_method_parse(const char *name, int *method);
const char *rx_place_method_name(int method);
/* Computes map[rank] = node for m->n ranks on the free nodes (all nodes when free == NULL). */
int rx_place_map(rx_topo_t *t, const rx_commat_t *m, int method, const uint32_t *free, uint32_t nfree,
                 uint64_t seed, uint32_t *map);

typedef struct rx_place_score {
    double hop_bytes;
    double max_link_bytes; /* bytes on the busiest fabric link under static routing */
    double max_link_time;  /* the same divided by that link's bandwidth, s */
    double sim_time;       /* simulated completion time, s (when simulated) */
    double map_seconds;    /* time to compute the mapping */
} rx_place_score_t;
int rx_place_score(rx_topo_t *t, const rx_commat_t *m, const uint32_t *map, int algo, rx_place_score_t *s);
/* Adds the bytes of m under map to lb[link] (static routing), and their hop-bytes to *hop_bytes (may be NULL). */
int rx_place_link_bytes(rx_topo_t *t, const rx_commat_t *m, const uint32_t *map, int algo, double *lb,
                        double *hop_bytes);

typedef struct rx_place_opts {
    const char *method;    /* a method name or "all" */
    const char *free_list;
    const char *hostfile;  /* write the chosen (or best-scoring) mapping here */
    int simulate;
    uint64_t seed;
    rx_sim_opts_t sim;
    /* jobs already running: the nodes left to this job (instead of free_list) and the bytes the
     * others put on each link, which the busiest-link score adds (NULL: an empty fabric) */
    const uint32_t *free_nodes;
    uint32_t nfree;
    const double *background;
} rx_place_opts_t;
/* Runs the methods, prints a score table, writes the hostfile. w (may be NULL) is simulated. */
int rx_place_run(rx_topo_t *t, const rx_commat_t *m, const rx_workload_t *w, const rx_place_opts_t *o, FILE *out);
/* Hostfile in rank order, one host name per line (the MPICH hostfile format). */
int rx_place_write_hostfile(const rx_topo_t *t, const uint32_t *map, uint32_t n, const char *path);
/* The candidate methods mapped and judged: simulated time of w under so when w is given, else the
 * busiest link's time, ties by hop-bytes; *chosen names the winner. */
int rx_place_best(rx_topo_t *t, const rx_commat_t *m, const rx_workload_t *w, const rx_sim_opts_t *so,
                  const uint32_t *free, uint32_t nfree, uint64_t seed, uint32_t *map, int *chosen);
/* For `sim --placement`: a method name or "hostfile:FILE"; *map is malloc'ed; so: the simulation
 * the auto method judges by (may be NULL). */
int rx_place_from_option(rx_topo_t *t, const rx_workload_t *w, const char *spec, const char *free_list, uint64_t seed,
                         const rx_sim_opts_t *so, uint32_t **map);

#endif
