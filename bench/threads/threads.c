/* SPDX-License-Identifier: MIT
 * Multi-threaded point-to-point between two ranks: T threads per rank, each
 * on its own duplicate of MPI_COMM_WORLD, paired with the same-numbered
 * thread of the other rank. Modes latency-tT and rate-tT, T = 1, 2, 4 (any T
 * from 1 to 64 is accepted). --level=single|funneled|serialized asks
 * MPI_Init_thread for less than MULTIPLE (then only T = 1 runs). */
#include "../common/bench_util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_DATA 100
#define TAG_ACK 101
#define MAX_DEFAULT (64L << 10) /* message rate and latency are small-message figures */
#define MAX_THREADS 64

enum mode { LATENCY, RATE };
enum job { JOB_RUN, JOB_VERIFY, JOB_STOP };

struct worker {
    struct bench *b;
    int index;
    MPI_Comm comm;  /* this thread's own communicator */
    char *sbuf;     /* one send buffer */
    char *rbuf;     /* `window` receive buffers of `size`, packed */
    MPI_Request *reqs;
    MPI_Status *stats;
    pthread_t thread;
};

struct bench {
    enum mode mode;
    int rank, peer, window, nthreads;
    size_t size;
    const struct rx_bench_opts *o;
    /* The job the workers run next; written by thread 0 before the start
     * barrier, read by the others after it (the barrier orders the accesses). */
    enum job job;
    long iters;
    pthread_barrier_t start, done;
    struct worker w[MAX_THREADS];
};

static void latency_loop(struct bench *b, struct worker *w, long n)
{
    int cnt = (int)b->size;

    for (long i = 0; i < n; i++) {
        if (b->rank == 0) {
            MPI_Send(w->sbuf, cnt, MPI_CHAR, b->peer, TAG_DATA, w->comm);
            MPI_Recv(w->rbuf, cnt, MPI_CHAR, b->peer, TAG_DATA, w->comm, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(w->rbuf, cnt, MPI_CHAR, b->peer, TAG_DATA, w->comm, MPI_STATUS_IGNORE);
            MPI_Send(w->sbuf, cnt, MPI_CHAR, b->peer, TAG_DATA, w->comm);
        }
    }
}

/* One window: rank 0 sends `window` messages, rank 1 receives them into
 * distinct buffers and acknowledges once all have arrived. */
static void rate_window(struct bench *b, struct worker *w)
{
    int ack = 0, cnt = (int)b->size;

    if (b->rank == 0) {
        for (int k = 0; k < b->window; k++)
            MPI_Isend(w->sbuf, cnt, MPI_CHAR, b->peer, TAG_DATA, w->comm, &w->reqs[k]);
        MPI_Waitall(b->window, w->reqs, w->stats);
        MPI_Recv(&ack, 1, MPI_INT, b->peer, TAG_ACK, w->comm, MPI_STATUS_IGNORE);
    } else {
        for (int k = 0; k < b->window; k++)
            MPI_Irecv(w->rbuf + (size_t)k * b->size, cnt, MPI_CHAR, b->peer, TAG_DATA, w->comm,
                      &w->reqs[k]);
        MPI_Waitall(b->window, w->reqs, w->stats);
        MPI_Send(&ack, 1, MPI_INT, b->peer, TAG_ACK, w->comm);
    }
}

/* The seed names rank, thread and size, so that a message delivered on the
 * wrong communicator (another thread's) fails the check. */
static unsigned seed_of(const struct bench *b, int rank, int thread)
{
    return (unsigned)(b->size * 131u + (size_t)rank * 17u + (size_t)thread * 7919u);
}

/* Untimed round with fresh data on this thread's communicator. */
static void verify(struct bench *b, struct worker *w)
{
    long size = (long)b->size, bad;
    unsigned mine = seed_of(b, b->rank, w->index), theirs = seed_of(b, b->peer, w->index);
    int cnt = -1;
    MPI_Status st;

    rx_bench_fill(w->sbuf, b->size, mine);
    memset(w->rbuf, 0, b->size * (size_t)(b->mode == RATE ? b->window : 1));
    if (b->mode == LATENCY) {
        if (b->rank == 0) {
            MPI_Send(w->sbuf, (int)size, MPI_CHAR, b->peer, TAG_DATA, w->comm);
            MPI_Recv(w->rbuf, (int)size, MPI_CHAR, b->peer, TAG_DATA, w->comm, &st);
        } else {
            MPI_Recv(w->rbuf, (int)size, MPI_CHAR, b->peer, TAG_DATA, w->comm, &st);
            MPI_Send(w->sbuf, (int)size, MPI_CHAR, b->peer, TAG_DATA, w->comm);
        }
        MPI_Get_count(&st, MPI_CHAR, &cnt);
        if (cnt != (int)size)
            rx_bench_fail("ping-pong count", size, cnt);
        if ((bad = rx_bench_check(w->rbuf, b->size, theirs)) >= 0)
            rx_bench_fail("ping-pong data", size, bad);
        return;
    }
    rate_window(b, w);
    if (b->rank != 1)
        return;
    for (int k = 0; k < b->window; k++) {
        MPI_Get_count(&w->stats[k], MPI_CHAR, &cnt);
        if (cnt != (int)size)
            rx_bench_fail("window count", size, cnt);
        bad = rx_bench_check(w->rbuf + (size_t)k * b->size, b->size, theirs);
        if (bad >= 0)
            rx_bench_fail("window data", size, (long)k * size + bad);
    }
}

static void run_job(struct bench *b, struct worker *w)
{
    if (b->job == JOB_VERIFY) {
        verify(b, w);
    } else if (b->mode == LATENCY) {
        latency_loop(b, w, b->iters);
    } else {
        for (long i = 0; i < b->iters; i++)
            rate_window(b, w);
    }
}

/* Threads 1..T-1 wait for a job, run it on their communicator, report done. */
static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct bench *b = w->b;

    for (;;) {
        pthread_barrier_wait(&b->start);
        if (b->job == JOB_STOP)
            return NULL;
        run_job(b, w);
        pthread_barrier_wait(&b->done);
    }
}

/* Thread 0 (the main thread) hands out the job and runs its own share; with
 * T = 1 no other thread exists and no barrier is used, so the T = 1 case is
 * valid at every thread level. */
static void dispatch(struct bench *b, enum job job, long n)
{
    b->job = job;
    b->iters = n;
    if (b->nthreads > 1)
        pthread_barrier_wait(&b->start);
    if (job == JOB_STOP)
        return;
    run_job(b, &b->w[0]);
    if (b->nthreads > 1)
        pthread_barrier_wait(&b->done);
}

/* Time from the release of all threads to the end of the slowest one. */
static double loop_fn(void *ctx, long n, double *per_iter)
{
    struct bench *b = ctx;
    double t0 = rx_bench_now();

    (void)per_iter;
    dispatch(b, JOB_RUN, n);
    return rx_bench_now() - t0;
}

static const char *level_name(int level)
{
    switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
    default: return "unknown";
    }
}

/* --level=LEVEL (single, funneled, serialized, multiple; default multiple):
 * the level to ask MPI_Init_thread for, so that latency-t1 measures what
 * MPI_THREAD_MULTIPLE costs a program that runs one thread. Taken out of
 * argv before MPI sees it, since it must be known before MPI_Init_thread. */
static int take_level(int *argc, char **argv)
{
    static const char *names[] = {"single", "funneled", "serialized", "multiple"};
    static const int levels[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED,
                                 MPI_THREAD_MULTIPLE};
    int level = MPI_THREAD_MULTIPLE;
    for (int i = 1; i < *argc; i++) {
        if (strncmp(argv[i], "--level=", 8) != 0)
            continue;
        int k = 0;
        while (k < 4 && strcmp(argv[i] + 8, names[k]) != 0)
            k++;
        if (k == 4) {
            fprintf(stderr, "threads: --level takes single, funneled, serialized or multiple\n");
            exit(2);
        }
        level = levels[k];
        for (int j = i; j < *argc; j++)
            argv[j] = argv[j + 1];
        --*argc;
        i--;
    }
    return level;
}

/* "latency-t2" -> LATENCY, 2; returns 0 when the mode is not of that form. */
static int parse_mode(const char *s, enum mode *mode, int *nthreads)
{
    const char *rest;
    char *end;
    long t;

    if (strncmp(s, "latency-t", 9) == 0) {
        *mode = LATENCY;
        rest = s + 9;
    } else if (strncmp(s, "rate-t", 6) == 0) {
        *mode = RATE;
        rest = s + 6;
    } else {
        return 0;
    }
    t = strtol(rest, &end, 10);
    if (end == rest || *end != '\0' || t < 1 || t > MAX_THREADS)
        return 0;
    *nthreads = (int)t;
    return 1;
}

static void setup_workers(struct bench *b, long max)
{
    size_t nrbuf = b->mode == RATE ? (size_t)b->window : 1;

    /* Communicator creation is collective over the ranks and done here, by
     * one thread, in the same order on both ranks. */
    for (int i = 0; i < b->nthreads; i++) {
        struct worker *w = &b->w[i];

        w->b = b;
        w->index = i;
        MPI_Comm_dup(MPI_COMM_WORLD, &w->comm);
        w->sbuf = rx_bench_buffer(b->o, (size_t)max);
        w->rbuf = rx_bench_buffer(b->o, (size_t)max * nrbuf);
        w->reqs = calloc((size_t)b->window, sizeof(MPI_Request));
        w->stats = calloc((size_t)b->window, sizeof(MPI_Status));
        if (w->reqs == NULL || w->stats == NULL)
            MPI_Abort(MPI_COMM_WORLD, 3);
    }
    if (b->nthreads == 1)
        return;
    if (pthread_barrier_init(&b->start, NULL, (unsigned)b->nthreads) != 0 ||
        pthread_barrier_init(&b->done, NULL, (unsigned)b->nthreads) != 0)
        MPI_Abort(MPI_COMM_WORLD, 3);
    for (int i = 1; i < b->nthreads; i++)
        if (pthread_create(&b->w[i].thread, NULL, worker_main, &b->w[i]) != 0)
            MPI_Abort(MPI_COMM_WORLD, 3);
}

static void teardown_workers(struct bench *b)
{
    if (b->nthreads > 1) {
        dispatch(b, JOB_STOP, 0);
        for (int i = 1; i < b->nthreads; i++)
            pthread_join(b->w[i].thread, NULL);
        pthread_barrier_destroy(&b->start);
        pthread_barrier_destroy(&b->done);
    }
    for (int i = 0; i < b->nthreads; i++) {
        struct worker *w = &b->w[i];

        MPI_Comm_free(&w->comm);
        free(w->stats);
        free(w->reqs);
        rx_bench_buffer_free(b->o, w->rbuf);
        rx_bench_buffer_free(b->o, w->sbuf);
    }
}

int main(int argc, char **argv)
{
    static const struct rx_bench_counts lat_counts = {10000, 1000, 1000, 100};
    static const struct rx_bench_counts win_counts = {100, 10, 20, 2};
    static struct bench b; /* large (the worker array): not on the stack */
    struct rx_bench_opts o;
    char bench_id[160];
    int np, provided = MPI_THREAD_SINGLE, requested_threads;
    long min, max;

    int level = take_level(&argc, argv);
    MPI_Init_thread(&argc, &argv, level, &provided);
    rx_bench_parse(argc, argv, &o, "threads", "latency-tT | rate-tT (T threads per rank: 1, 2, 4)");
    MPI_Comm_rank(MPI_COMM_WORLD, &b.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (np != 2) {
        if (b.rank == 0)
            fprintf(stderr, "threads: needs exactly 2 ranks, got %d\n", np);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (!parse_mode(o.mode, &b.mode, &b.nthreads)) {
        if (b.rank == 0)
            fprintf(stderr, "threads: unknown mode '%s' (latency-tT or rate-tT, 1 <= T <= %d)\n",
                    o.mode, MAX_THREADS);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    b.o = &o;
    b.peer = 1 - b.rank;
    b.window = b.mode == LATENCY ? 1 : o.window;
    requested_threads = b.nthreads;
    min = o.min_size >= 0 ? o.min_size : 0;
    max = o.max_size >= 0 ? o.max_size : MAX_DEFAULT;

    /* The level goes into the metadata line as key=value pairs after bench=,
     * where bench/stats.py reads them like the header's own keys. */
    snprintf(bench_id, sizeof(bench_id), "%s threads=%d provided=%s", o.mode, requested_threads,
             level_name(provided));
    if (b.rank == 0)
        rx_bench_header(&o, "threads", bench_id, np,
                        b.mode == LATENCY ? "us" : "msg/s", b.mode == LATENCY ? "lower" : "higher",
                        b.mode == LATENCY ? "latency_us" : "messages_per_s");
    if (b.nthreads > 1 && provided < MPI_THREAD_MULTIPLE) {
        /* Only the T = 1 case is valid below MULTIPLE; it is its own mode. */
        if (b.rank == 0) {
            printf("# skipped: %d threads per rank need MPI_THREAD_MULTIPLE, provided %s\n",
                   b.nthreads, level_name(provided));
            fprintf(stderr, "threads: %s provided, so only the 1-thread case runs; %s skipped\n",
                    level_name(provided), o.mode);
        }
        MPI_Finalize();
        return 0;
    }

    setup_workers(&b, max);
    for (long s = min; s <= max; s = rx_bench_next_size(s)) {
        const struct rx_bench_counts *c = b.mode == LATENCY ? &lat_counts : &win_counts;
        long iters;
        double t;

        b.size = (size_t)s;
        for (int i = 0; i < b.nthreads; i++)
            rx_bench_fill(b.w[i].sbuf, b.size, 0);
        iters = rx_bench_plan(&o, MPI_COMM_WORLD, b.size, c, loop_fn, &b);
        MPI_Barrier(MPI_COMM_WORLD);
        t = loop_fn(&b, iters, NULL);
        dispatch(&b, JOB_VERIFY, 0);
        if (b.rank != 0)
            continue;
        if (b.mode == LATENCY)
            printf("%ld %.3f\n", s, t * 1e6 / (2.0 * (double)iters));
        else
            printf("%ld %.0f\n", s, (double)iters * b.window * b.nthreads / t);
        fflush(stdout);
    }
    teardown_workers(&b);
    MPI_Finalize();
    return 0;
}
