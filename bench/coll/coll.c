/* SPDX-License-Identifier: MIT
 * Collective benchmarks: allreduce, reduce, bcast, barrier, allgather, alltoall. */
#include "../common/bench_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIN_DEFAULT 4L
#define MAX_DEFAULT (4L << 20)

enum mode { ALLREDUCE, REDUCE, BCAST, BARRIER, ALLGATHER, ALLTOALL };

static const char *const mode_names[] = {"allreduce", "reduce",    "bcast",
                                         "barrier",   "allgather", "alltoall"};

/* Sizes are bytes per rank: the reduced vector (MPI_INT elements), the
 * broadcast message, or one rank's block in allgather and alltoall. */
struct coll {
    enum mode mode;
    int rank, np;
    size_t size;
    int count; /* MPI_INT elements of a reduction */
    char *sbuf, *rbuf;
};

static void run_once(struct coll *c)
{
    MPI_Comm w = MPI_COMM_WORLD;
    int n = (int)c->size;

    switch (c->mode) {
    case ALLREDUCE: MPI_Allreduce(c->sbuf, c->rbuf, c->count, MPI_INT, MPI_SUM, w); break;
    case REDUCE: MPI_Reduce(c->sbuf, c->rbuf, c->count, MPI_INT, MPI_SUM, 0, w); break;
    case BCAST: MPI_Bcast(c->rbuf, n, MPI_CHAR, 0, w); break;
    case BARRIER: MPI_Barrier(w); break;
    case ALLGATHER: MPI_Allgather(c->sbuf, n, MPI_CHAR, c->rbuf, n, MPI_CHAR, w); break;
    case ALLTOALL: MPI_Alltoall(c->sbuf, n, MPI_CHAR, c->rbuf, n, MPI_CHAR, w); break;
    }
}

/* Back to back, as an application calls them; one clock read per iteration. */
static double loop(void *ctx, long n, double *per_iter)
{
    struct coll *c = ctx;
    double t0 = rx_bench_now(), t = t0;

    for (long i = 0; i < n; i++) {
        run_once(c);
        if (per_iter != NULL) {
            double t1 = rx_bench_now();
            per_iter[i] = t1 - t;
            t = t1;
        }
    }
    return rx_bench_now() - t0;
}

static void fill_inputs(struct coll *c)
{
    int *v = (int *)c->sbuf;

    switch (c->mode) {
    case ALLREDUCE:
    case REDUCE:
        for (int i = 0; i < c->count; i++)
            v[i] = c->rank + i;
        break;
    case BCAST:
        if (c->rank == 0)
            rx_bench_fill(c->rbuf, c->size, (unsigned)c->size);
        break;
    case ALLGATHER: rx_bench_fill(c->sbuf, c->size, (unsigned)(c->rank + 7)); break;
    case ALLTOALL:
        for (int d = 0; d < c->np; d++)
            rx_bench_fill(c->sbuf + (size_t)d * c->size, c->size,
                          (unsigned)(c->rank * c->np + d));
        break;
    case BARRIER: break;
    }
}

/* One more call with fresh inputs and cleared outputs, checked against the
 * result the operation must produce. */
static void verify(struct coll *c)
{
    long size = (long)c->size, bad;
    const int *v = (const int *)c->rbuf;

    if (c->mode == BARRIER)
        return;
    if (c->mode != BCAST || c->rank != 0)
        memset(c->rbuf, 0, c->size * (size_t)c->np);
    fill_inputs(c);
    run_once(c);
    switch (c->mode) {
    case ALLREDUCE:
    case REDUCE:
        if (c->mode == REDUCE && c->rank != 0)
            break;
        for (int i = 0; i < c->count; i++)
            if (v[i] != c->np * i + c->np * (c->np - 1) / 2)
                rx_bench_fail(mode_names[c->mode], size, (long)i * 4);
        break;
    case BCAST:
        if ((bad = rx_bench_check(c->rbuf, c->size, (unsigned)c->size)) >= 0)
            rx_bench_fail("bcast", size, bad);
        break;
    case ALLGATHER:
        for (int r = 0; r < c->np; r++)
            if ((bad = rx_bench_check(c->rbuf + (size_t)r * c->size, c->size,
                                      (unsigned)(r + 7))) >= 0)
                rx_bench_fail("allgather", size, (long)r * size + bad);
        break;
    case ALLTOALL:
        for (int r = 0; r < c->np; r++)
            if ((bad = rx_bench_check(c->rbuf + (size_t)r * c->size, c->size,
                                      (unsigned)(r * c->np + c->rank))) >= 0)
                rx_bench_fail("alltoall", size, (long)r * size + bad);
        break;
    case BARRIER: break;
    }
}

int main(int argc, char **argv)
{
    static const struct rx_bench_counts counts = {1000, 200, 100, 10};
    struct rx_bench_opts o;
    struct coll c;
    long min, max;
    int found = 0;

    MPI_Init(&argc, &argv);
    rx_bench_parse(argc, argv, &o, "coll",
                   "allreduce | reduce | bcast | barrier | allgather | alltoall");
    memset(&c, 0, sizeof(c));
    MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &c.np);
    for (int m = 0; m < (int)(sizeof(mode_names) / sizeof(mode_names[0])); m++)
        if (strcmp(o.mode, mode_names[m]) == 0)
            c.mode = (enum mode)m, found = 1;
    if (!found) {
        if (c.rank == 0)
            fprintf(stderr, "coll: unknown mode '%s'\n", o.mode);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    min = o.min_size >= 0 ? o.min_size : MIN_DEFAULT;
    max = o.max_size >= 0 ? o.max_size : MAX_DEFAULT;
    if (c.mode == BARRIER) {
        min = max = 0;
    } else if ((c.mode == ALLREDUCE || c.mode == REDUCE) && min < 4) {
        min = 4; /* a reduction needs at least one MPI_INT */
    }
    c.sbuf = rx_bench_buffer(&o, (size_t)max * (size_t)c.np);
    c.rbuf = rx_bench_buffer(&o, (size_t)max * (size_t)c.np);

    if (c.rank == 0)
        rx_bench_header(&o, "coll", o.mode, c.np, "us", "lower", "avg_of_max_us");
    for (long s = min; s <= max; s = rx_bench_next_size(s)) {
        long iters;
        double *per, t;

        c.size = (size_t)s;
        c.count = (int)(s / 4);
        fill_inputs(&c);
        iters = rx_bench_plan(&o, MPI_COMM_WORLD, c.size, &counts, loop, &c);
        per = rx_bench_alloc((size_t)iters * sizeof(double));
        MPI_Barrier(MPI_COMM_WORLD);
        loop(&c, iters, per);
        t = rx_bench_avg_of_max(MPI_COMM_WORLD, per, iters);
        free(per);
        verify(&c);
        if (c.rank == 0) {
            printf("%ld %.3f\n", s, t * 1e6);
            fflush(stdout);
        }
        if (c.mode == BARRIER)
            break;
    }
    rx_bench_buffer_free(&o, c.sbuf);
    rx_bench_buffer_free(&o, c.rbuf);
    MPI_Finalize();
    return 0;
}
