/* SPDX-License-Identifier: MIT
 * Pieces several algorithms of this directory are made of, and the
 * descriptors of the list (algo_list.h), for builders that compose
 * others (hier.c). Not for use outside src/sched. */
#ifndef RX_SCHED_PARTS_H
#define RX_SCHED_PARTS_H

#include "sched.h"

#define RX_SCHED_ALGO(d) extern const rx_sched_algo_t d;
#include "algo_list.h"
#undef RX_SCHED_ALGO

int rx_sched_pof2_floor(int n);
int rx_sched_is_pof2(int n);

/* Element blocks of a vector of count elements (unit bytes) split over n
 * ranks as evenly as possible, in bytes. */
void rx_sched_split(uint64_t count, uint64_t unit, int n, uint64_t *off, uint64_t *len);

/* Block i of a (v-)variant: its offset from displs (bytes), or i blocks of
 * a->bytes; its length from counts, or a->bytes. */
uint64_t rx_sched_blk_off(const rx_sched_args_t *a, const uint64_t *displs, int i);
uint64_t rx_sched_blk_len(const rx_sched_args_t *a, const uint64_t *counts, int i);

/* Reduce_scatter: byte offsets and lengths of the a->rcounts[i] element
 * blocks of the vector; returns the longest. */
uint64_t rx_sched_count_blocks(const rx_sched_args_t *a, uint64_t *off, uint64_t *len);

/* The automatic choice's preference of an algorithm that is the one
 * choice of its kind, or the choice unless a crossover says otherwise. */
int rx_sched_prefer_default(const rx_sched_args_t *a);

/* Binomial bcast of OUT[off, off + len) from root. */
void rx_sched_bcast_binomial(rx_sched_t *s, int p, int rank, int root, uint64_t off, uint64_t len);
/* Ring allgather of blocks (off[i], len[i]) of buf, block r present at rank
 * r: in round k a rank passes on the block it got in round k - 1. */
void rx_sched_allgather_ring(rx_sched_t *s, int p, int r, int buf, const uint64_t *off,
                             const uint64_t *len);
/* Ring reduce-scatter (commutative ops) over blocks (off[i], len[i]) of the
 * accumulator (abuf, aoff); the incoming block lands at TMP rtmp. After
 * p - 1 rounds block r is complete at rank r. */
void rx_sched_rs_ring(rx_sched_t *s, int p, int r, int abuf, uint64_t aoff, const uint64_t *off,
                      const uint64_t *len, uint64_t rtmp);
/* Binomial reduce (any op) of IN (B bytes) into a TMP area, rooted at
 * troot; partial results cover contiguous rank ranges and combine lower
 * range first. Returns the TMP offset that holds the result at troot. */
uint64_t rx_sched_reduce_binomial(rx_sched_t *s, int p, int r, int troot, uint64_t B);

/* The fold of recursive doubling / Rabenseifner for p not a power of two:
 * rank 2i (i < rem) hands its vector (OUT) to 2i + 1. Returns the rank
 * inside the power-of-two group, -1 for a rank that sits out; unfold gives
 * those ranks the result back. real_rank maps a group rank back. */
int rx_sched_fold(rx_sched_t *s, int p, int r, uint64_t B);
void rx_sched_unfold(rx_sched_t *s, int p, int r, uint64_t B);
int rx_sched_real_rank(int nr, int rem);

#endif
