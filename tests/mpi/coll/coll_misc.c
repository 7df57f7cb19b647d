/* SPDX-License-Identifier: MIT
 * Collectives beyond the data checks of coll_all:
 *   - several nonblocking collectives in flight on several communicators (dup, split,
 *     split_type, create, create_group), completed in an order different from the start;
 *   - Gatherv / Scatterv with the count arrays NULL at non-roots;
 *   - invalid local arguments return the standard class (MPI_ERRORS_RETURN);
 *   - overlap: Iallreduce of 8 MiB, computation (with MPI_Test now and then), Wait; the
 *     time left in Wait must be small next to a blocking Allreduce, and the ratio of
 *     overlapped to sequential time is printed. */
#include "rxtest.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <math.h>

static int me, np;

static double now(void) { return MPI_Wtime(); }

static void t_many_comms(void)
{
    MPI_Comm dup, half, node, sub, grp;
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    RXT_MPI(MPI_Comm_split(MPI_COMM_WORLD, me % 2, -me, &half));
    RXT_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &node));
    int nn;
    MPI_Comm_size(node, &nn);
    RXT_CHECK(nn == np, "split_type(shared) on one machine has %d of %d ranks", nn, np);
    MPI_Group wg, eg;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int *ev = malloc(sizeof(int) * (size_t)np), ne = 0;
    for (int r = 0; r < np; r += 2)
        ev[ne++] = r;
    MPI_Group_incl(wg, ne, ev, &eg);
    RXT_MPI(MPI_Comm_create(MPI_COMM_WORLD, eg, &sub));
    RXT_CHECK((me % 2 == 0) == (sub != MPI_COMM_NULL), "Comm_create membership");
    grp = MPI_COMM_NULL;
    if (me % 2 == 0)
        RXT_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, eg, 7, &grp));
    int hs, hr;
    MPI_Comm_size(half, &hs);
    MPI_Comm_rank(half, &hr);

    enum { N = 5000 };
    int *a = malloc(sizeof(int) * N), *b = malloc(sizeof(int) * N), *c = malloc(sizeof(int) * N);
    int *d = malloc(sizeof(int) * (size_t)np), x = me + 1, y = 0, z = 0;
    for (int i = 0; i < N; i++) {
        a[i] = me + i;
        c[i] = hr == 0 ? i * 3 : -1;
    }
    MPI_Request rq[6];
    int nr = 0;
    RXT_MPI(MPI_Iallreduce(a, b, N, MPI_INT, MPI_SUM, dup, &rq[nr++]));
    RXT_MPI(MPI_Ibcast(c, N, MPI_INT, 0, half, &rq[nr++]));
    RXT_MPI(MPI_Iallgather(&me, 1, MPI_INT, d, 1, MPI_INT, node, &rq[nr++]));
    RXT_MPI(MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &rq[nr++]));
    if (sub != MPI_COMM_NULL)
        RXT_MPI(MPI_Iallreduce(&x, &z, 1, MPI_INT, MPI_SUM, sub, &rq[nr++]));
    int w = 0;
    if (grp != MPI_COMM_NULL)
        RXT_MPI(MPI_Iallreduce(&x, &w, 1, MPI_INT, MPI_SUM, grp, &rq[nr++]));
    /* complete back to front */
    for (int i = nr - 1; i >= 0; i--)
        RXT_MPI(MPI_Wait(&rq[i], MPI_STATUS_IGNORE));
    for (int i = 0; i < N; i++) {
        long want = (long)np * i + (long)np * (np - 1) / 2;
        RXT_CHECK(b[i] == want, "iallreduce on dup [%d]", i);
        RXT_CHECK(c[i] == i * 3, "ibcast on split [%d]", i);
    }
    for (int r = 0; r < np; r++)
        RXT_CHECK(d[r] == r, "iallgather on split_type [%d]=%d", r, d[r]);
    RXT_CHECK(y == np, "iallreduce max %d", y);
    int esum = 0;
    for (int r = 0; r < np; r += 2)
        esum += r + 1;
    if (sub != MPI_COMM_NULL)
        RXT_CHECK(z == esum, "iallreduce on Comm_create result %d want %d", z, esum);
    if (grp != MPI_COMM_NULL)
        RXT_CHECK(w == esum, "iallreduce on Comm_create_group result %d want %d", w, esum);
    free(a);
    free(b);
    free(c);
    free(d);
    free(ev);
    MPI_Group_free(&eg);
    MPI_Group_free(&wg);
    if (sub != MPI_COMM_NULL)
        MPI_Comm_free(&sub);
    if (grp != MPI_COMM_NULL)
        MPI_Comm_free(&grp);
    MPI_Comm_free(&node);
    MPI_Comm_free(&half);
    MPI_Comm_free(&dup);
}

static void t_errors(void)
{
    MPI_Comm c;
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    RXT_MPI(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
    int s = 1, r = 0, cls, buf[4] = {0};
    MPI_Request rq;
#define EXPECT(call, want)                                                                        \
    do {                                                                                          \
        int rc_ = (call);                                                                         \
        MPI_Error_class(rc_, &cls);                                                               \
        RXT_CHECK(cls == (want), "%s gave class %d, want %d", #call, cls, want);                  \
    } while (0)
    EXPECT(MPI_Allreduce(&s, &r, 1, MPI_INT, MPI_OP_NULL, c), MPI_ERR_OP);
    EXPECT(MPI_Allreduce(&s, &r, 1, MPI_DATATYPE_NULL, MPI_SUM, c), MPI_ERR_TYPE);
    EXPECT(MPI_Allreduce(&s, &r, -1, MPI_INT, MPI_SUM, c), MPI_ERR_COUNT);
    EXPECT(MPI_Allreduce(&s, &r, 1, MPI_FLOAT, MPI_BAND, c), MPI_ERR_OP);
    EXPECT(MPI_Reduce(&s, &r, 1, MPI_INT, MPI_SUM, np, c), MPI_ERR_ROOT);
    EXPECT(MPI_Bcast(buf, 1, MPI_INT, -1, c), MPI_ERR_ROOT);
    EXPECT(MPI_Gather(buf, 1, MPI_INT, buf, 1, MPI_INT, np + 3, c), MPI_ERR_ROOT);
    EXPECT(MPI_Scatter(buf, 1, MPI_INT, buf, -2, MPI_INT, 0, c), MPI_ERR_COUNT);
    EXPECT(MPI_Alltoall(buf, -1, MPI_INT, buf, 1, MPI_INT, c), MPI_ERR_COUNT);
    EXPECT(MPI_Iallreduce(&s, &r, 1, MPI_INT, MPI_OP_NULL, c, &rq), MPI_ERR_OP);
    EXPECT(MPI_Ibcast(buf, 1, MPI_INT, np, c, &rq), MPI_ERR_ROOT);
    EXPECT(MPI_Scan(&s, &r, 1, MPI_INT, MPI_REPLACE, c), MPI_ERR_OP);
    EXPECT(MPI_Comm_split_type(c, 12345, 0, MPI_INFO_NULL, &c), MPI_ERR_ARG);
    /* the communicator still works after the refusals */
    RXT_MPI(MPI_Allreduce(&s, &r, 1, MPI_INT, MPI_SUM, c));
    RXT_CHECK(r == np, "allreduce after errors %d", r);
    MPI_Comm_free(&c);
}

static double compute(double *v, int n, int reps, MPI_Request *rq)
{
    double acc = 0;
    for (int k = 0; k < reps; k++) {
        for (int i = 0; i < n; i++)
            acc += sqrt(v[i] + k);
        if (rq && *rq != MPI_REQUEST_NULL) {
            int flag;
            MPI_Test(rq, &flag, MPI_STATUS_IGNORE);
        }
    }
    return acc;
}

/* Gatherv / Scatterv with the arrays NULL at non-roots, where the standard
 * ignores them (blocking and nonblocking; every root). */
static void t_v_null_arrays(void)
{
    int *cnt = malloc(sizeof(int) * (size_t)np), *dsp = malloc(sizeof(int) * (size_t)np), total = 0;
    for (int r = 0; r < np; r++) {
        cnt[r] = 1 + r % 3;
        dsp[r] = total;
        total += cnt[r];
    }
    int *all = malloc(sizeof(int) * (size_t)total), mine[3];
    for (int root = 0; root < np; root++)
        for (int nb = 0; nb < 2; nb++) {
            int me_root = me == root;
            for (int i = 0; i < cnt[me]; i++)
                mine[i] = me * 10 + i;
            for (int i = 0; i < total; i++)
                all[i] = -1;
            MPI_Request rq = MPI_REQUEST_NULL;
            if (nb)
                RXT_MPI(MPI_Igatherv(mine, cnt[me], MPI_INT, all, me_root ? cnt : NULL,
                                     me_root ? dsp : NULL, MPI_INT, root, MPI_COMM_WORLD, &rq));
            else
                RXT_MPI(MPI_Gatherv(mine, cnt[me], MPI_INT, all, me_root ? cnt : NULL,
                                    me_root ? dsp : NULL, MPI_INT, root, MPI_COMM_WORLD));
            RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            for (int r = 0; me_root && r < np; r++)
                for (int i = 0; i < cnt[r]; i++)
                    RXT_CHECK(all[dsp[r] + i] == r * 10 + i, "gatherv root %d nb %d: [%d] = %d", root,
                              nb, dsp[r] + i, all[dsp[r] + i]);
            for (int i = 0; i < 3; i++)
                mine[i] = -1;
            if (nb)
                RXT_MPI(MPI_Iscatterv(all, me_root ? cnt : NULL, me_root ? dsp : NULL, MPI_INT,
                                      mine, cnt[me], MPI_INT, root, MPI_COMM_WORLD, &rq));
            else
                RXT_MPI(MPI_Scatterv(all, me_root ? cnt : NULL, me_root ? dsp : NULL, MPI_INT,
                                     mine, cnt[me], MPI_INT, root, MPI_COMM_WORLD));
            RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            for (int i = 0; i < cnt[me]; i++)
                RXT_CHECK(mine[i] == me * 10 + i, "scatterv root %d nb %d: [%d] = %d", root, nb, i,
                          mine[i]);
        }
    free(cnt);
    free(dsp);
    free(all);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* the slowest rank's time */
static double tmax(double t)
{
    RXT_MPI(MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
    return t;
}

/* Allreduce of 8 MiB then a computation of about twice its time, one after
 * the other, against Iallreduce + the computation (testing between slices)
 * + Wait; five runs of each, alternating, medians printed. */
static void t_overlap(void)
{
    enum { RUNS = 5 };
    const int n = (8 << 20) / (int)sizeof(double);
    double *a = malloc(sizeof(double) * (size_t)n), *b = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++)
        a[i] = me + i * 1e-3;
    double work[4096];
    for (int i = 0; i < 4096; i++)
        work[i] = i;
    RXT_MPI(MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD)); /* warm */
    double tc[RUNS];
    for (int r = 0; r < RUNS; r++) {
        RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
        double t0 = now();
        RXT_MPI(MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
        tc[r] = tmax(now() - t0);
    }
    double t_coll = median(tc, RUNS);
    /* cost of one slice, over at least 20 ms so a scheduler tick cannot skew it */
    volatile double sink = 0;
    int k = 16;
    double per;
    for (;;) {
        RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
        double t0 = now();
        sink += compute(work, 4096, k, NULL);
        double t = tmax(now() - t0);
        if (t >= 0.02) {
            per = t / k;
            break;
        }
        k *= 2;
    }
    int reps = (int)(2 * t_coll / per) + 1;
    double seq[RUNS], ovl[RUNS], wt[RUNS], ratio[RUNS];
    for (int r = 0; r < RUNS; r++) {
        RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
        double t0 = now();
        RXT_MPI(MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
        sink += compute(work, 4096, reps, NULL);
        seq[r] = tmax(now() - t0);

        RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
        t0 = now();
        MPI_Request rq;
        RXT_MPI(MPI_Iallreduce(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rq));
        sink += compute(work, 4096, reps, &rq);
        double tw = now();
        RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        double end = now();
        wt[r] = tmax(end - tw);
        ovl[r] = tmax(end - t0);
        ratio[r] = ovl[r] / seq[r];
    }
    (void)sink;
    for (int i = 0; i < n; i += 4099) {
        double want = 0;
        for (int r = 0; r < np; r++)
            want += r + i * 1e-3;
        RXT_CHECK(fabs(b[i] - want) < 1e-6 * fabs(want) + 1e-9, "iallreduce 8 MiB [%d]", i);
    }
    double lo = ratio[0], hi = ratio[0];
    for (int r = 1; r < RUNS; r++) {
        lo = ratio[r] < lo ? ratio[r] : lo;
        hi = ratio[r] > hi ? ratio[r] : hi;
    }
    const char *off = getenv("RDMX_COLL_OFFLOAD");
    int thread = off && strcmp(off, "off") != 0;
    double m_seq = median(seq, RUNS), m_ovl = median(ovl, RUNS), m_wait = median(wt, RUNS);
    if (me == 0)
        printf("overlap: allreduce %.2f ms; allreduce then compute %.2f ms; iallreduce + compute + "
               "wait %.2f ms (wait %.2f ms): ratio %.2f of sequential (runs %.2f-%.2f, medians of %d)\n",
               t_coll * 1e3, m_seq * 1e3, m_ovl * 1e3, m_wait * 1e3, median(ratio, RUNS), lo, hi, RUNS);
    /* the collective progressed during the computation: little is left for
     * Wait. Checked only when every rank has a CPU of its own (with more
     * ranks than CPUs a step of the schedule waits for a descheduled peer
     * whatever the library does) and without RDMX_COLL_OFFLOAD, whose thread
     * runs on CPUs the test does not control (coll_offload checks that it
     * progresses without MPI calls). */
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    const char *given = getenv("RDMX_NODE_CPUS"); /* rdmx-run: the CPUs the ranks share */
    if (given && atol(given) > 0 && atol(given) < cpus)
        cpus = atol(given);
    /* nor while other work keeps the CPUs busy (a parallel test run, a
     * loaded machine): the ranks are then descheduled just the same */
    double load = 0;
    FILE *lf = fopen("/proc/loadavg", "r");
    if (lf) {
        if (fscanf(lf, "%lf", &load) != 1)
            load = 0;
        fclose(lf);
    }
    if (np <= cpus && !thread && load < (double)cpus)
        RXT_CHECK(m_wait < 0.5 * t_coll, "Wait took %.2f ms of a %.2f ms allreduce", m_wait * 1e3,
                  t_coll * 1e3);
    else if (me == 0 && np <= cpus && !thread)
        printf("overlap not checked: load average %.2f on %ld CPUs\n", load, cpus);
    free(a);
    free(b);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "coll_misc");
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    t_many_comms();
    t_v_null_arrays();
    t_errors();
    if (np >= 2 && np <= 4)
        t_overlap();
    return rxt_finish();
}
