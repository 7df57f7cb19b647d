/* SPDX-License-Identifier: MIT
 * Shared helpers of the benchmarks: options, iteration plans, buffers, patterns, output. */
#ifndef RX_BENCH_UTIL_H
#define RX_BENCH_UTIL_H

/* The benchmarks are built unchanged with any MPI implementation's compiler
 * wrapper, so this code depends on the standard MPI interface and libc only.
 * Errors are fatal: a benchmark that cannot trust its numbers stops with
 * MPI_Abort, which makes the launcher exit non-zero. */

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#define RX_BENCH_LARGE 8192 /* sizes from here on use the "large" iteration counts */

struct rx_bench_opts {
    const char *mode;   /* first positional argument: what to measure */
    int quick;          /* -q: iteration counts / 10, for smoke runs */
    long min_size;      /* -m, -1 = the benchmark's default */
    long max_size;      /* -M, -1 = the benchmark's default */
    long iters;         /* -i, -1 = by size (see rx_bench_counts) */
    long warmup;        /* -w, -1 = by size */
    int window;         /* -W, outstanding operations in bandwidth modes */
    double time_cap;    /* -t, seconds a size may take before iterations are reduced */
    const char *sync;   /* -s, RMA synchronisation: lock | fence | pscw */
    const char *alloc;  /* -A, message buffers: page | malloc | mpi (see rx_bench_buffer) */
};

/* OSU-style iteration counts: small sizes below RX_BENCH_LARGE, large sizes from it. */
struct rx_bench_counts {
    long small_iters, small_warmup;
    long large_iters, large_warmup;
};

/* Runs n iterations of the measured operation; per_iter (may be NULL) gets
 * each iteration's duration in seconds. Returns the elapsed seconds. */
typedef double (*rx_bench_loop_fn)(void *ctx, long n, double *per_iter);

/* Parses the common options; prints usage and exits on error or -h.
 * `modes` is the list of accepted modes for the usage text. */
void rx_bench_parse(int argc, char **argv, struct rx_bench_opts *o, const char *prog,
                    const char *modes);

double rx_bench_now(void);

/* Runs warm-up iterations and decides how many timed iterations to run. Every
 * rank of comm must call it with the same arguments; the plan is the same on
 * all of them. When the counts would make one size take longer than the time
 * cap (e.g. an oversubscribed busy-polling run) the count is reduced, never
 * below a minimum that keeps the average meaningful. */
long rx_bench_plan(const struct rx_bench_opts *o, MPI_Comm comm, size_t size,
                   const struct rx_bench_counts *c, rx_bench_loop_fn fn, void *ctx);

/* Average over iterations of the maximum over ranks of per_iter[0..n); valid on rank 0. */
double rx_bench_avg_of_max(MPI_Comm comm, const double *per_iter, long n);

/* Page-aligned, zero-touched allocation; aborts on failure. For the
 * benchmark's own arrays (timings); message buffers use rx_bench_buffer. */
void *rx_bench_alloc(size_t bytes);

/* A message buffer of the kind -A names, as programs allocate them: "page"
 * (posix_memalign to 4096, the default), "malloc" (glibc's malloc: large
 * blocks start 16 bytes into a page) or "mpi" (MPI_Alloc_mem, which an
 * implementation may place in registered or node-shared memory). Pages are
 * touched before use; aborts on failure. Free with rx_bench_buffer_free. */
void *rx_bench_buffer(const struct rx_bench_opts *o, size_t bytes);
void rx_bench_buffer_free(const struct rx_bench_opts *o, void *p);

/* A byte pattern that differs between seeds and between offsets, so that a
 * misplaced, stale or truncated transfer does not pass the check. */
void rx_bench_fill(void *buf, size_t n, unsigned seed);
/* Returns the first offset that does not match, or -1 when all match. */
long rx_bench_check(const void *buf, size_t n, unsigned seed);

/* Reports a verification failure and aborts the job. */
void rx_bench_fail(const char *what, long size, long offset) __attribute__((noreturn));

/* Header: a metadata line and a column line, both starting with '#'. */
void rx_bench_header(const struct rx_bench_opts *o, const char *suite, const char *bench,
                     int np, const char *unit, const char *better, const char *column);

/* Next size in the power-of-two series: 0 → 1 → 2 → 4 … */
static inline long rx_bench_next_size(long s) { return s == 0 ? 1 : s * 2; }

#endif
