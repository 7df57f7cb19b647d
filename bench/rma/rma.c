/* SPDX-License-Identifier: MIT
 * One-sided benchmarks between two ranks on MPI_Win_allocate windows:
 * put, get, accumulate, get_accumulate, fetch_and_op, compare_and_swap,
 * latency or bandwidth, synchronised by lock/flush, fence or PSCW. */
#include "../common/bench_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEFAULT (4L << 20)

enum op { PUT, GET, ACC, GACC, FOP, CAS };
enum sync { LOCK, FENCE, PSCW };

static const char *const op_names[] = {"put", "get", "acc", "gacc", "fop", "cas"};
static const char *const sync_names[] = {"lock", "fence", "pscw"};

struct rma {
    enum op op;
    enum sync sync;
    int bw;    /* bandwidth (a window of operations per synchronisation) or latency */
    int rank, peer;
    int slots; /* operations per synchronisation: the window in bw mode, else 1 */
    size_t size;
    MPI_Win win;
    MPI_Group peer_group;
    char *base;      /* this rank's window memory */
    char *lbuf;      /* origin buffer: source of put/acc, destination of get */
    char *res;       /* result buffer of gacc / fop / cas */
    int64_t cmp;     /* compare value of cas */
};

/* Element type of the atomic operations: 8-byte integers, whose sums and
 * comparisons are exact, so that results can be checked. */
static void issue(struct rma *r, int slot)
{
    size_t off = (size_t)slot * r->size;
    MPI_Aint disp = (MPI_Aint)off;
    int n = (int)r->size, elems = (int)(r->size / 8);

    switch (r->op) {
    case PUT:
        MPI_Put(r->lbuf + off, n, MPI_CHAR, r->peer, disp, n, MPI_CHAR, r->win);
        break;
    case GET:
        MPI_Get(r->lbuf + off, n, MPI_CHAR, r->peer, disp, n, MPI_CHAR, r->win);
        break;
    case ACC:
        MPI_Accumulate(r->lbuf + off, elems, MPI_INT64_T, r->peer, disp, elems, MPI_INT64_T,
                       MPI_SUM, r->win);
        break;
    case GACC:
        MPI_Get_accumulate(r->lbuf + off, elems, MPI_INT64_T, r->res + off, elems, MPI_INT64_T,
                           r->peer, disp, elems, MPI_INT64_T, MPI_SUM, r->win);
        break;
    case FOP:
        MPI_Fetch_and_op(r->lbuf + off, r->res + off, MPI_INT64_T, r->peer, disp, MPI_SUM,
                         r->win);
        break;
    case CAS:
        MPI_Compare_and_swap(r->lbuf + off, &r->cmp, r->res + off, MPI_INT64_T, r->peer, disp,
                             r->win);
        break;
    }
}

static void issue_slots(struct rma *r)
{
    for (int s = 0; s < r->slots; s++)
        issue(r, s);
}

/* Passive target: rank 0 holds a shared lock on rank 1 and completes each
 * operation (latency) or window of operations (bandwidth) with a flush;
 * rank 1 makes no RMA call. */
static void lock_flush(struct rma *r, long n)
{
    if (r->rank != 0)
        return;
    MPI_Win_lock(MPI_LOCK_SHARED, r->peer, 0, r->win);
    for (long i = 0; i < n; i++) {
        issue_slots(r);
        MPI_Win_flush(r->peer, r->win);
    }
    MPI_Win_unlock(r->peer, r->win);
}

/* fence. Latency: the ranks take turns as origin, a ping-pong of epochs
 * (OSU's method; the caller halves the time). Bandwidth: rank 0 issues a
 * window per epoch. The epoch before the first is opened by the caller. */
static void fence_epochs(struct rma *r, long n)
{
    for (long i = 0; i < n; i++) {
        if (r->rank == 0)
            issue_slots(r);
        if (!r->bw) {
            MPI_Win_fence(0, r->win);
            if (r->rank == 1)
                issue_slots(r);
        }
        MPI_Win_fence(0, r->win);
    }
}

/* PSCW, the same two patterns: rank 1 exposes its window, rank 0 accesses
 * it, and in latency mode the roles are then swapped. */
static void pscw_epochs(struct rma *r, long n)
{
    for (long i = 0; i < n; i++) {
        if (r->rank == 1) {
            MPI_Win_post(r->peer_group, 0, r->win);
            MPI_Win_wait(r->win);
        }
        if (r->rank == 0 || !r->bw) {
            MPI_Win_start(r->peer_group, 0, r->win);
            issue_slots(r);
            MPI_Win_complete(r->win);
        }
        if (r->rank == 0 && !r->bw) {
            MPI_Win_post(r->peer_group, 0, r->win);
            MPI_Win_wait(r->win);
        }
    }
}

static double loop(void *ctx, long n, double *per_iter)
{
    struct rma *r = ctx;
    double t0;

    (void)per_iter;
    if (r->sync == FENCE)
        MPI_Win_fence(0, r->win);
    t0 = rx_bench_now();
    switch (r->sync) {
    case LOCK: lock_flush(r, n); break;
    case FENCE: fence_epochs(r, n); break;
    case PSCW: pscw_epochs(r, n); break;
    }
    return rx_bench_now() - t0;
}

/* Values for the checked round: target memory before, origin operand, and
 * what the target and the result buffer must hold afterwards. */
static int64_t init_target(size_t i) { return (int64_t)(3 * i + 1); }
static int64_t operand(size_t i) { return (int64_t)(i + 5); }

static void check_i64(const char *what, const char *buf, size_t n_elems, long size,
                      int64_t (*expect)(size_t))
{
    const int64_t *v = (const int64_t *)buf;
    for (size_t i = 0; i < n_elems; i++)
        if (v[i] != expect(i)) {
            fprintf(stderr, "rma: %s: element %zu is %lld, expected %lld\n", what, i,
                    (long long)v[i], (long long)expect(i));
            rx_bench_fail(what, size, (long)(i * 8));
        }
}

static int64_t sum_expect(size_t i) { return init_target(i) + operand(i); }
static int64_t cas_new(size_t i) { return (int64_t)(1000 + i); }

/* A checked round, independent of the mode timed, in the way the standard
 * makes local stores and remote accesses of a window safe: rank 1 sets its
 * window under a lock on itself, rank 0 operates on all slots under an
 * exclusive lock, and rank 1 reads the result under a lock again. */
static void verify(struct rma *r)
{
    size_t bytes = r->size * (size_t)r->slots, elems = bytes / 8;
    int64_t *w = (int64_t *)r->base, *l = (int64_t *)r->lbuf;
    long size = (long)r->size, bad;
    const char *name = op_names[r->op];

    /* In lock mode rank 1 leaves the timed loop at once: it must not set
     * its window while rank 0's timed operations may still arrive. */
    MPI_Barrier(MPI_COMM_WORLD);
    if (r->rank == 1) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, r->win);
        if (r->op == PUT)
            memset(r->base, 0, bytes);
        else if (r->op == GET)
            rx_bench_fill(r->base, bytes, (unsigned)size);
        else
            for (size_t i = 0; i < elems; i++)
                w[i] = init_target(i);
        MPI_Win_unlock(1, r->win);
    } else {
        if (r->op == PUT)
            for (int s = 0; s < r->slots; s++)
                rx_bench_fill(r->lbuf + (size_t)s * r->size, r->size, (unsigned)(size + s));
        else if (r->op == GET)
            memset(r->lbuf, 0, bytes);
        else
            for (size_t i = 0; i < elems; i++)
                l[i] = r->op == CAS ? cas_new(i) : operand(i);
        if (r->res != NULL)
            memset(r->res, 0, bytes);
    }
    /* cas compares against the target's initial value: every slot is one
     * element, so slot s holds init_target(s); the swap matches in slot 0 only. */
    r->cmp = init_target(0);
    MPI_Barrier(MPI_COMM_WORLD);
    if (r->rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, r->win);
        issue_slots(r);
        MPI_Win_unlock(1, r->win);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    if (r->rank == 1) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, r->win);
        switch (r->op) {
        case PUT:
            for (int s = 0; s < r->slots; s++)
                if ((bad = rx_bench_check(r->base + (size_t)s * r->size, r->size,
                                          (unsigned)(size + s))) >= 0)
                    rx_bench_fail("put", size, (long)s * size + bad);
            break;
        case GET: break;
        case ACC:
        case GACC:
        case FOP: check_i64(name, r->base, elems, size, sum_expect); break;
        case CAS:
            for (int s = 0; s < r->slots; s++) {
                size_t i = (size_t)s;
                int64_t want = i == 0 ? cas_new(0) : init_target(i);
                if (w[i] != want)
                    rx_bench_fail("cas target", size, (long)i * 8);
            }
            break;
        }
        MPI_Win_unlock(1, r->win);
    } else {
        switch (r->op) {
        case GET:
            if ((bad = rx_bench_check(r->lbuf, bytes, (unsigned)size)) >= 0)
                rx_bench_fail("get", size, bad);
            break;
        case GACC:
        case FOP:
        case CAS: check_i64(name, r->res, elems, size, init_target); break;
        default: break;
        }
    }
    /* Rank 0's next operations (the next size's warm-up) must not reach the
     * window while rank 1 is still checking it. */
    MPI_Barrier(MPI_COMM_WORLD);
}

static void parse_mode(const char *mode, struct rma *r)
{
    char op[16];
    const char *us = strchr(mode, '_');
    size_t len = us != NULL ? (size_t)(us - mode) : 0;
    int found = 0;

    if (us == NULL || len >= sizeof(op) || (strcmp(us, "_lat") != 0 && strcmp(us, "_bw") != 0))
        goto bad;
    memcpy(op, mode, len);
    op[len] = '\0';
    for (int i = 0; i < (int)(sizeof(op_names) / sizeof(op_names[0])); i++)
        if (strcmp(op, op_names[i]) == 0)
            r->op = (enum op)i, found = 1;
    if (!found)
        goto bad;
    r->bw = strcmp(us, "_bw") == 0;
    return;
bad:
    if (r->rank == 0)
        fprintf(stderr, "rma: unknown mode '%s'\n", mode);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

static void parse_sync(const char *sync, struct rma *r)
{
    for (int i = 0; i < (int)(sizeof(sync_names) / sizeof(sync_names[0])); i++)
        if (strcmp(sync, sync_names[i]) == 0) {
            r->sync = (enum sync)i;
            return;
        }
    if (r->rank == 0)
        fprintf(stderr, "rma: unknown synchronisation '%s' (lock, fence, pscw)\n", sync);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

int main(int argc, char **argv)
{
    static const struct rx_bench_counts lat_counts = {10000, 1000, 1000, 100};
    static const struct rx_bench_counts bw_counts = {100, 10, 20, 2};
    struct rx_bench_opts o;
    struct rma r;
    MPI_Group world_group;
    char name[64];
    long min, max;
    MPI_Aint win_bytes;
    int np;

    MPI_Init(&argc, &argv);
    rx_bench_parse(argc, argv, &o, "rma",
                   "{put,get,acc,gacc,fop,cas}_{lat,bw}, e.g. put_lat (with -s lock|fence|pscw)");
    memset(&r, 0, sizeof(r));
    MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (np != 2) {
        if (r.rank == 0)
            fprintf(stderr, "rma: needs exactly 2 ranks, got %d\n", np);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    r.peer = 1 - r.rank;
    parse_mode(o.mode, &r);
    parse_sync(o.sync, &r);
    r.slots = r.bw ? o.window : 1;

    if (r.op == FOP || r.op == CAS) {
        min = max = 8; /* single-element operations */
    } else {
        min = o.min_size >= 0 ? o.min_size : (r.op == ACC || r.op == GACC) ? 8 : 1;
        max = o.max_size >= 0 ? o.max_size : MAX_DEFAULT;
        if ((r.op == ACC || r.op == GACC) && min < 8)
            min = 8; /* whole 8-byte elements */
    }
    /* Whole pages: MPICH 4.0.2 silently drops Fetch_and_op and
     * Compare_and_swap on a window of exactly one 8-byte element. */
    win_bytes = ((MPI_Aint)max * r.slots + 4095) & ~(MPI_Aint)4095;
    MPI_Win_allocate(win_bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &r.base, &r.win);
    r.lbuf = rx_bench_buffer(&o, (size_t)max * (size_t)r.slots);
    if (r.op == GACC || r.op == FOP || r.op == CAS)
        r.res = rx_bench_buffer(&o, (size_t)max * (size_t)r.slots);
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    MPI_Group_incl(world_group, 1, &r.peer, &r.peer_group);
    MPI_Group_free(&world_group);

    snprintf(name, sizeof(name), "%s-%s", o.mode, sync_names[r.sync]);
    if (r.rank == 0) {
        if (r.bw)
            rx_bench_header(&o, "rma", name, np, "MB/s", "higher", "bandwidth_MB/s");
        else
            rx_bench_header(&o, "rma", name, np, "us", "lower", "latency_us");
    }
    for (long s = min; s <= max; s = rx_bench_next_size(s)) {
        long iters;
        double t;

        r.size = (size_t)s;
        r.cmp = 0;
        iters = rx_bench_plan(&o, MPI_COMM_WORLD, r.size, r.bw ? &bw_counts : &lat_counts, loop,
                              &r);
        MPI_Barrier(MPI_COMM_WORLD);
        t = loop(&r, iters, NULL);
        verify(&r);
        if (r.rank != 0)
            continue;
        if (r.bw)
            printf("%ld %.2f\n", s, (double)iters * r.slots * (double)s / t / 1e6);
        else
            printf("%ld %.3f\n", s, t * 1e6 / (double)iters / (r.sync == LOCK ? 1.0 : 2.0));
        fflush(stdout);
    }
    MPI_Group_free(&r.peer_group);
    MPI_Win_free(&r.win);
    rx_bench_buffer_free(&o, r.lbuf);
    if (r.res)
        rx_bench_buffer_free(&o, r.res);
    MPI_Finalize();
    return 0;
}
