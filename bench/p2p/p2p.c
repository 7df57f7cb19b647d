/* SPDX-License-Identifier: MIT
 * Point-to-point benchmarks between two ranks: latency, bw, bibw, rate. */
#include "../common/bench_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_DATA 100
#define TAG_ACK 101
#define MAX_DEFAULT (4L << 20)

enum mode { LATENCY, BW, BIBW, RATE };

struct p2p {
    enum mode mode;
    int rank, peer, window;
    size_t size;
    char *sbuf;    /* one send buffer: the same data may be sent many times */
    char *rbuf;    /* `window` receive buffers of `size`, packed */
    MPI_Request *reqs;
    MPI_Status *stats; /* a real array, as in OSU (and MPICH's MPI_STATUSES_IGNORE trips GCC 12) */
};

/* Ping-pong: rank 0 sends, rank 1 answers with a message of the same size. */
static double loop_latency(void *ctx, long n, double *per_iter)
{
    struct p2p *p = ctx;
    int cnt = (int)p->size;
    double t0 = rx_bench_now();

    (void)per_iter;
    for (long i = 0; i < n; i++) {
        if (p->rank == 0) {
            MPI_Send(p->sbuf, cnt, MPI_CHAR, p->peer, TAG_DATA, MPI_COMM_WORLD);
            MPI_Recv(p->rbuf, cnt, MPI_CHAR, p->peer, TAG_DATA, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(p->rbuf, cnt, MPI_CHAR, p->peer, TAG_DATA, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MPI_Send(p->sbuf, cnt, MPI_CHAR, p->peer, TAG_DATA, MPI_COMM_WORLD);
        }
    }
    return rx_bench_now() - t0;
}

static void post_recvs(struct p2p *p)
{
    for (int w = 0; w < p->window; w++)
        MPI_Irecv(p->rbuf + (size_t)w * p->size, (int)p->size, MPI_CHAR, p->peer, TAG_DATA,
                  MPI_COMM_WORLD, &p->reqs[w]);
}

static void post_sends(struct p2p *p, MPI_Request *reqs)
{
    for (int w = 0; w < p->window; w++)
        MPI_Isend(p->sbuf, (int)p->size, MPI_CHAR, p->peer, TAG_DATA, MPI_COMM_WORLD, &reqs[w]);
}

/* One window: rank 0 sends `window` messages, rank 1 receives them and
 * acknowledges with a short message once all have arrived. */
static void window_uni(struct p2p *p)
{
    int ack = 0;

    if (p->rank == 0) {
        post_sends(p, p->reqs);
        MPI_Waitall(p->window, p->reqs, p->stats);
        MPI_Recv(&ack, 1, MPI_INT, p->peer, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        post_recvs(p);
        MPI_Waitall(p->window, p->reqs, p->stats);
        MPI_Send(&ack, 1, MPI_INT, p->peer, TAG_ACK, MPI_COMM_WORLD);
    }
}

/* Both ranks receive a window and send a window at the same time. */
static void window_bi(struct p2p *p)
{
    post_recvs(p);
    post_sends(p, p->reqs + p->window);
    MPI_Waitall(2 * p->window, p->reqs, p->stats);
}

static double loop_window(void *ctx, long n, double *per_iter)
{
    struct p2p *p = ctx;
    double t0 = rx_bench_now();

    (void)per_iter;
    for (long i = 0; i < n; i++) {
        if (p->mode == BIBW)
            window_bi(p);
        else
            window_uni(p);
    }
    return rx_bench_now() - t0;
}

/* Untimed round with fresh data: every receive buffer must hold exactly what
 * was sent, with the matching count. */
static void verify(struct p2p *p)
{
    long size = (long)p->size;
    long bad;
    int cnt = -1;
    MPI_Status st;

    if (p->mode == LATENCY) {
        rx_bench_fill(p->sbuf, p->size, (unsigned)(size + p->rank));
        memset(p->rbuf, 0, p->size);
        if (p->rank == 0) {
            MPI_Send(p->sbuf, (int)size, MPI_CHAR, p->peer, TAG_DATA, MPI_COMM_WORLD);
            MPI_Recv(p->rbuf, (int)size, MPI_CHAR, p->peer, TAG_DATA, MPI_COMM_WORLD, &st);
        } else {
            MPI_Recv(p->rbuf, (int)size, MPI_CHAR, p->peer, TAG_DATA, MPI_COMM_WORLD, &st);
            MPI_Send(p->sbuf, (int)size, MPI_CHAR, p->peer, TAG_DATA, MPI_COMM_WORLD);
        }
        MPI_Get_count(&st, MPI_CHAR, &cnt);
        if (cnt != (int)size)
            rx_bench_fail("ping-pong count", size, cnt);
        if ((bad = rx_bench_check(p->rbuf, p->size, (unsigned)(size + p->peer))) >= 0)
            rx_bench_fail("ping-pong data", size, bad);
        return;
    }

    rx_bench_fill(p->sbuf, p->size, (unsigned)(size + p->rank));
    memset(p->rbuf, 0, p->size * (size_t)p->window);
    MPI_Barrier(MPI_COMM_WORLD);
    if (p->mode == BIBW)
        window_bi(p);
    else
        window_uni(p);
    if (p->mode == BIBW || p->rank == 1) {
        for (int w = 0; w < p->window; w++) {
            bad = rx_bench_check(p->rbuf + (size_t)w * p->size, p->size,
                                 (unsigned)(size + p->peer));
            if (bad >= 0)
                rx_bench_fail("window data", size, (long)w * size + bad);
        }
    }
}

int main(int argc, char **argv)
{
    static const struct rx_bench_counts lat_counts = {10000, 1000, 1000, 100};
    static const struct rx_bench_counts win_counts = {100, 10, 20, 2};
    struct rx_bench_opts o;
    struct p2p p;
    int np;
    long min, max;
    const char *unit = "us", *better = "lower", *column = "latency_us";

    MPI_Init(&argc, &argv);
    rx_bench_parse(argc, argv, &o, "p2p", "latency | bw | bibw | rate");
    memset(&p, 0, sizeof(p));
    MPI_Comm_rank(MPI_COMM_WORLD, &p.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (np != 2) {
        if (p.rank == 0)
            fprintf(stderr, "p2p: needs exactly 2 ranks, got %d\n", np);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    p.peer = 1 - p.rank;
    if (strcmp(o.mode, "latency") == 0) {
        p.mode = LATENCY;
    } else if (strcmp(o.mode, "bw") == 0) {
        p.mode = BW;
        unit = "MB/s", better = "higher", column = "bandwidth_MB/s";
    } else if (strcmp(o.mode, "bibw") == 0) {
        p.mode = BIBW;
        unit = "MB/s", better = "higher", column = "bandwidth_MB/s";
    } else if (strcmp(o.mode, "rate") == 0) {
        p.mode = RATE;
        unit = "msg/s", better = "higher", column = "messages_per_s";
    } else {
        if (p.rank == 0)
            fprintf(stderr, "p2p: unknown mode '%s'\n", o.mode);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    p.window = p.mode == LATENCY ? 1 : o.window;
    min = o.min_size >= 0 ? o.min_size : (p.mode == BW || p.mode == BIBW) ? 1 : 0;
    max = o.max_size >= 0 ? o.max_size : MAX_DEFAULT;

    p.sbuf = rx_bench_buffer(&o, (size_t)max);
    p.rbuf = rx_bench_buffer(&o, (size_t)max * (size_t)p.window);
    p.reqs = calloc(2 * (size_t)p.window, sizeof(MPI_Request));
    p.stats = calloc(2 * (size_t)p.window, sizeof(MPI_Status));
    if (p.reqs == NULL || p.stats == NULL)
        MPI_Abort(MPI_COMM_WORLD, 3);

    if (p.rank == 0)
        rx_bench_header(&o, "p2p", o.mode, np, unit, better, column);
    for (long s = min; s <= max; s = rx_bench_next_size(s)) {
        const struct rx_bench_counts *c = p.mode == LATENCY ? &lat_counts : &win_counts;
        rx_bench_loop_fn fn = p.mode == LATENCY ? loop_latency : loop_window;
        long iters;
        double t, msgs;

        p.size = (size_t)s;
        rx_bench_fill(p.sbuf, p.size, 0);
        iters = rx_bench_plan(&o, MPI_COMM_WORLD, p.size, c, fn, &p);
        MPI_Barrier(MPI_COMM_WORLD);
        t = fn(&p, iters, NULL);
        verify(&p);
        if (p.rank != 0)
            continue;
        msgs = (double)iters * (double)p.window * (p.mode == BIBW ? 2.0 : 1.0);
        if (p.mode == LATENCY)
            printf("%ld %.3f\n", s, t * 1e6 / (2.0 * (double)iters));
        else if (p.mode == RATE)
            printf("%ld %.0f\n", s, msgs / t);
        else
            printf("%ld %.2f\n", s, msgs * (double)s / t / 1e6);
        fflush(stdout);
    }
    free(p.stats);
    free(p.reqs);
    rx_bench_buffer_free(&o, p.rbuf);
    rx_bench_buffer_free(&o, p.sbuf);
    MPI_Finalize();
    return 0;
}
