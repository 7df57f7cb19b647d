/* SPDX-License-Identifier: MIT
 * Shared helpers of the benchmark programs (see bench_util.h). */
#define _GNU_SOURCE
#include "bench_util.h"

#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void usage(FILE *f, const char *prog, const char *modes)
{
    fprintf(f,
            "usage: %s [options] MODE\n"
            "  MODE: %s\n"
            "  -q, --quick      iteration counts / 10 (smoke runs)\n"
            "  -m SIZE          smallest size in bytes (K/M suffixes accepted)\n"
            "  -M SIZE          largest size in bytes\n"
            "  -i N             timed iterations per size (default: by size, OSU-style)\n"
            "  -w N             warm-up iterations per size\n"
            "  -W N             window: operations in flight in bandwidth modes (default 64)\n"
            "  -t SECONDS       time one size may take before its iterations are reduced\n"
            "                   (default 2, quick 0.3; not applied when -i is given)\n"
            "  -s SYNC          RMA synchronisation: lock (lock/flush), fence, pscw\n"
            "  -A KIND          message buffers: page (posix_memalign 4096, default),\n"
            "                   malloc, mpi (MPI_Alloc_mem)\n",
            prog, modes);
}

static long parse_size(const char *s, const char *prog, const char *modes)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || v < 0)
        goto bad;
    switch (toupper((unsigned char)*end)) {
    case 'K': v <<= 10; end++; break;
    case 'M': v <<= 20; end++; break;
    case 'G': v <<= 30; end++; break;
    default: break;
    }
    if (*end == 'i' || *end == 'B')
        end++;
    if (*end == 'B')
        end++;
    if (*end != '\0')
        goto bad;
    return v;
bad:
    fprintf(stderr, "%s: bad number '%s'\n", prog, s);
    usage(stderr, prog, modes);
    exit(2);
}

void rx_bench_parse(int argc, char **argv, struct rx_bench_opts *o, const char *prog,
                    const char *modes)
{
    static const struct option longopts[] = {
        {"quick", no_argument, NULL, 'q'},
        {"alloc", required_argument, NULL, 'A'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;

    memset(o, 0, sizeof(*o));
    o->min_size = o->max_size = o->iters = o->warmup = -1;
    o->window = 64;
    o->time_cap = -1.0;
    o->sync = "lock";
    o->alloc = "page";
    while ((c = getopt_long(argc, argv, "qhm:M:i:w:W:t:s:A:", longopts, NULL)) != -1) {
        switch (c) {
        case 'q': o->quick = 1; break;
        case 'm': o->min_size = parse_size(optarg, prog, modes); break;
        case 'M': o->max_size = parse_size(optarg, prog, modes); break;
        case 'i': o->iters = parse_size(optarg, prog, modes); break;
        case 'w': o->warmup = parse_size(optarg, prog, modes); break;
        case 'W': o->window = (int)parse_size(optarg, prog, modes); break;
        case 't': o->time_cap = atof(optarg); break;
        case 's': o->sync = optarg; break;
        case 'A': o->alloc = optarg; break;
        case 'h': usage(stdout, prog, modes); exit(0);
        default: usage(stderr, prog, modes); exit(2);
        }
    }
    if (optind != argc - 1) {
        usage(stderr, prog, modes);
        exit(2);
    }
    o->mode = argv[optind];
    if (o->window < 1) {
        fprintf(stderr, "%s: window must be at least 1\n", prog);
        exit(2);
    }
    if (o->iters == 0) {
        fprintf(stderr, "%s: at least one timed iteration is needed\n", prog);
        exit(2);
    }
    if (strcmp(o->alloc, "page") != 0 && strcmp(o->alloc, "malloc") != 0 &&
        strcmp(o->alloc, "mpi") != 0) {
        fprintf(stderr, "%s: -A takes page, malloc or mpi, not '%s'\n", prog, o->alloc);
        exit(2);
    }
    if (o->time_cap <= 0.0)
        o->time_cap = o->quick ? 0.3 : 2.0;
}

/* The benchmark's own clock rather than MPI_Wtime, so that the cost of
 * reading the time is the same whichever implementation is measured. */
double rx_bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double max_over(MPI_Comm comm, double v)
{
    double m;
    MPI_Allreduce(&v, &m, 1, MPI_DOUBLE, MPI_MAX, comm);
    return m;
}

long rx_bench_plan(const struct rx_bench_opts *o, MPI_Comm comm, size_t size,
                   const struct rx_bench_counts *c, rx_bench_loop_fn fn, void *ctx)
{
    int small = size < RX_BENCH_LARGE;
    long iters = small ? c->small_iters : c->large_iters;
    long warm = small ? c->small_warmup : c->large_warmup;
    /* Few when one iteration is long: its average is then precise anyway. */
    long min_iters = o->quick ? 1 : 2;
    long rest;
    double per = 0.0; /* seconds per iteration, max over ranks */

    if (o->quick) {
        iters = (iters + 9) / 10;
        warm = (warm + 9) / 10;
    }
    if (o->iters > 0)
        iters = o->iters;
    if (o->warmup >= 0)
        warm = o->warmup;

    /* One warm-up iteration first, to estimate the cost of one, so that a
     * very slow operation is not warmed up for minutes. */
    if (warm > 0)
        per = max_over(comm, fn(ctx, 1, NULL));
    rest = warm > 0 ? warm - 1 : 0;
    if (per > 0.0 && (double)rest * per > 0.25 * o->time_cap)
        rest = (long)(0.25 * o->time_cap / per);
    if (rest > 0)
        per = max_over(comm, fn(ctx, rest, NULL) / (double)rest);

    if (o->iters <= 0 && per > 0.0 && (double)iters * per > o->time_cap) {
        iters = (long)(o->time_cap / per);
        if (iters < min_iters)
            iters = min_iters;
    }
    return iters;
}

double rx_bench_avg_of_max(MPI_Comm comm, const double *per_iter, long n)
{
    int rank;
    double *mx = NULL, sum = 0.0;

    MPI_Comm_rank(comm, &rank);
    if (rank == 0)
        mx = rx_bench_alloc((size_t)n * sizeof(double));
    MPI_Reduce(per_iter, mx, (int)n, MPI_DOUBLE, MPI_MAX, 0, comm);
    if (rank != 0)
        return 0.0;
    for (long i = 0; i < n; i++)
        sum += mx[i];
    free(mx);
    return sum / (double)n;
}

void *rx_bench_alloc(size_t bytes)
{
    size_t len = (bytes + 4095) & ~(size_t)4095;
    void *p;

    if (len == 0)
        len = 4096;
    p = aligned_alloc(4096, len);
    if (p == NULL) {
        fprintf(stderr, "bench: cannot allocate %zu bytes\n", len);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    /* Fault the pages in now, not inside a timed loop. */
    memset(p, 0, len);
    return p;
}

void *rx_bench_buffer(const struct rx_bench_opts *o, size_t bytes)
{
    void *p = NULL;

    if (bytes == 0)
        bytes = 1;
    if (strcmp(o->alloc, "mpi") == 0) {
        if (MPI_Alloc_mem((MPI_Aint)bytes, MPI_INFO_NULL, &p) != MPI_SUCCESS)
            p = NULL;
    } else if (strcmp(o->alloc, "malloc") == 0) {
        p = malloc(bytes);
    } else if (posix_memalign(&p, 4096, bytes) != 0) {
        p = NULL;
    }
    if (p == NULL) {
        fprintf(stderr, "bench: cannot allocate %zu bytes (%s)\n", bytes, o->alloc);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    memset(p, 0, bytes);
    return p;
}

void rx_bench_buffer_free(const struct rx_bench_opts *o, void *p)
{
    if (strcmp(o->alloc, "mpi") == 0)
        MPI_Free_mem(p);
    else
        free(p);
}

static inline uint8_t pattern_byte(size_t i, unsigned seed)
{
    size_t x = i ^ (i >> 8) ^ (i >> 16) ^ (i >> 24);
    return (uint8_t)(x * 31u + seed * 17u + 1u);
}

void rx_bench_fill(void *buf, size_t n, unsigned seed)
{
    uint8_t *b = buf;
    for (size_t i = 0; i < n; i++)
        b[i] = pattern_byte(i, seed);
}

long rx_bench_check(const void *buf, size_t n, unsigned seed)
{
    const uint8_t *b = buf;
    for (size_t i = 0; i < n; i++)
        if (b[i] != pattern_byte(i, seed))
            return (long)i;
    return -1;
}

void rx_bench_fail(const char *what, long size, long offset)
{
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "bench: rank %d: verification failed: %s, size %ld, offset %ld\n", rank,
            what, size, offset);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 4);
    abort(); /* MPI_Abort should not return */
}

/* First line of MPI_Get_library_version with runs of blanks collapsed, so that
 * the header stays one machine-readable line. */
static void library_line(char *out, size_t cap)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    size_t j = 0;
    int blank = 0;

    MPI_Get_library_version(lib, &len);
    for (int i = 0; i < len && lib[i] != '\0' && lib[i] != '\n' && j + 1 < cap; i++) {
        if (isspace((unsigned char)lib[i])) {
            blank = 1;
            continue;
        }
        if (blank && j > 0 && j + 2 < cap)
            out[j++] = ' ';
        blank = 0;
        out[j++] = lib[i];
    }
    out[j] = '\0';
}

void rx_bench_header(const struct rx_bench_opts *o, const char *suite, const char *bench,
                     int np, const char *unit, const char *better, const char *column)
{
    char lib[256];

    library_line(lib, sizeof(lib));
    printf("# rdmx-bench suite=%s bench=%s np=%d unit=%s better=%s quick=%d alloc=%s lib=%s\n",
           suite, bench, np, unit, better, o->quick, o->alloc, lib);
    printf("# size %s\n", column);
    fflush(stdout);
}
