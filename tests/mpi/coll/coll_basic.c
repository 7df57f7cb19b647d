/* SPDX-License-Identifier: MIT
 * MPI_Barrier, MPI_Bcast, MPI_Gather and MPI_Allgather for every root and counts
 * 0, 1, 13 (prime) and 100003 (large, prime), ints and doubles, every element
 * checked. The barrier is checked for what it promises: no rank leaves before every
 * rank has entered (entry and exit times from CLOCK_MONOTONIC, which all processes
 * of one machine share; the time check is skipped when ranks are on several hosts). */
#include "rxtest.h"

#include <time.h>

static const int counts[] = { 0, 1, 13, 100003 };
#define NC ((int)(sizeof counts / sizeof counts[0]))

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int same_host(void)
{
    char name[MPI_MAX_PROCESSOR_NAME], *all;
    int len;
    memset(name, 0, sizeof name);
    RXT_MPI(MPI_Get_processor_name(name, &len));
    all = malloc((size_t)rxt_size * MPI_MAX_PROCESSOR_NAME);
    RXT_MPI(MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME,
                          MPI_CHAR, MPI_COMM_WORLD));
    int same = 1;
    for (int r = 0; r < rxt_size; r++)
        same &= strcmp(all + (size_t)r * MPI_MAX_PROCESSOR_NAME, name) == 0;
    free(all);
    return same;
}

static void check_barrier(void)
{
    int local = same_host(), all = 0;
    RXT_MPI(MPI_Allreduce(&local, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD));
    for (int late = 0; late < rxt_size; late++) {
        /* rank `late` arrives 30 ms after the others */
        if (rxt_rank == late)
            rxt_sleep_ms(30);
        double t[2];
        t[0] = now();
        RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
        t[1] = now();
        double *tt = malloc(sizeof(double) * 2 * (size_t)rxt_size);
        RXT_MPI(MPI_Allgather(t, 2, MPI_DOUBLE, tt, 2, MPI_DOUBLE, MPI_COMM_WORLD));
        double last_in = 0;
        for (int r = 0; r < rxt_size; r++)
            if (tt[2 * r] > last_in)
                last_in = tt[2 * r];
        if (all)
            RXT_CHECK(t[1] >= last_in, "barrier %d: left at %.6f before the last rank entered "
                      "at %.6f", late, t[1], last_in);
        free(tt);
    }
    for (int i = 0; i < 200; i++)
        RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

static int ival(int root_or_src, int i, int salt) { return root_or_src * 1000003 + i * 7 + salt; }

static void check_bcast(int n)
{
    int *b = malloc(sizeof(int) * (size_t)(n + 1));
    double *d = malloc(sizeof(double) * (size_t)(n + 1));
    for (int root = 0; root < rxt_size; root++) {
        for (int i = 0; i <= n; i++) {
            b[i] = rxt_rank == root || i == n ? ival(root, i, 1) : -1;
            d[i] = rxt_rank == root ? ival(root, i, 2) + 0.5 : -1.0;
        }
        RXT_MPI(MPI_Bcast(b, n, MPI_INT, root, MPI_COMM_WORLD));
        RXT_MPI(MPI_Bcast(d, n, MPI_DOUBLE, root, MPI_COMM_WORLD));
        for (int i = 0; i < n; i++)
            if (b[i] != ival(root, i, 1) || d[i] != ival(root, i, 2) + 0.5) {
                RXT_CHECK(0, "Bcast count %d root %d: element %d is %d / %g", n, root, i, b[i],
                          d[i]);
                break;
            }
        RXT_CHECK(b[n] == ival(root, n, 1), "Bcast count %d root %d wrote past the count", n,
                  root);
    }
    free(b);
    free(d);
}

static void check_gather(int n)
{
    size_t tot = (size_t)n * (size_t)rxt_size;
    int *s = malloc(sizeof(int) * (size_t)(n + 1)), *g = malloc(sizeof(int) * (tot + 1));
    for (int i = 0; i < n; i++)
        s[i] = ival(rxt_rank, i, 3);
    for (int root = 0; root < rxt_size; root++) {
        for (size_t i = 0; i <= tot; i++)
            g[i] = -9;
        RXT_MPI(MPI_Gather(s, n, MPI_INT, g, n, MPI_INT, root, MPI_COMM_WORLD));
        if (rxt_rank == root) {
            for (size_t k = 0; k < tot; k++)
                if (g[k] != ival((int)(k / (size_t)n), (int)(k % (size_t)n), 3)) {
                    RXT_CHECK(0, "Gather count %d root %d: element %zu is %d", n, root, k, g[k]);
                    break;
                }
            RXT_CHECK(g[tot] == -9, "Gather count %d root %d wrote past the buffer", n, root);
        }
    }
    for (size_t i = 0; i <= tot; i++)
        g[i] = -9;
    RXT_MPI(MPI_Allgather(s, n, MPI_INT, g, n, MPI_INT, MPI_COMM_WORLD));
    for (size_t k = 0; k < tot; k++)
        if (g[k] != ival((int)(k / (size_t)n), (int)(k % (size_t)n), 3)) {
            RXT_CHECK(0, "Allgather count %d: element %zu is %d", n, k, g[k]);
            break;
        }
    RXT_CHECK(g[tot] == -9, "Allgather count %d wrote past the buffer", n);
    /* Allgather of doubles, one each: the typical "everyone's value" call */
    double mine = rxt_rank * 0.25 + n, *all = malloc(sizeof(double) * (size_t)rxt_size);
    RXT_MPI(MPI_Allgather(&mine, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, MPI_COMM_WORLD));
    for (int r = 0; r < rxt_size; r++)
        RXT_CHECK(all[r] == r * 0.25 + n, "Allgather of doubles: slot %d is %g", r, all[r]);
    free(all);
    free(s);
    free(g);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "coll_basic");
    check_barrier();
    for (int c = 0; c < NC; c++) {
        check_bcast(counts[c]);
        check_gather(counts[c]);
    }
    return rxt_finish();
}
