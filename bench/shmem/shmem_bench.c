/* SPDX-License-Identifier: MIT
 * OpenSHMEM micro-benchmarks, standard API only (built with rdmx-oshcc and
 * with Open MPI's oshcc): between PE 0 and PE 1,
 *   put_lat  shmem_putmem + shmem_quiet (remote completion), per op
 *   get_lat  blocking shmem_getmem, per op
 *   put_bw   64 shmem_putmem_nbi then one shmem_quiet, MB/s (10^6)
 *   get_bw   64 shmem_getmem_nbi then one shmem_quiet, MB/s
 *   amo_lat  shmem_long_atomic_fetch_add, per op
 * and over every PE: barrier_all and a one-element long sum reduction
 * (1.5's team form; shmem_long_sum_to_all on 1.4 libraries, or wherever
 * built with -DBENCH_SHMEM_API14=1).
 * Prints "metric size value" lines; times in microseconds. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

#define MAXSZ (1 << 20)
#define WIN 64

#ifndef BENCH_SHMEM_API14
#define BENCH_SHMEM_API14 (SHMEM_MAJOR_VERSION == 1 && SHMEM_MINOR_VERSION < 5)
#endif

#if BENCH_SHMEM_API14
static long psync[2][SHMEM_REDUCE_SYNC_SIZE]; /* alternated, as 1.4 allows */
static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 8];
#endif
static long rsrc, rdst;

static int iters_for(size_t sz) { return sz <= 8192 ? 5000 : sz <= 65536 ? 1000 : 200; }

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    char *buf = shmem_malloc(MAXSZ * (size_t)WIN / 16 + MAXSZ);
    char *loc = malloc(MAXSZ);
    long *ctr = shmem_malloc(sizeof(long));
    memset(loc, 1, MAXSZ);
#if BENCH_SHMEM_API14
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[0][i] = psync[1][i] = SHMEM_SYNC_VALUE;
#endif
    shmem_barrier_all();
    static const size_t sizes[] = {8, 4096, 65536, 1 << 20};
    if (n >= 2) {
        for (int s = 0; s < 4; s++) {
            size_t sz = sizes[s];
            int it = iters_for(sz), warm = it / 10;
            shmem_barrier_all();
            if (me == 0) {
                double t0 = 0;
                for (int i = 0; i < it + warm; i++) {
                    if (i == warm)
                        t0 = now();
                    shmem_putmem(buf, loc, sz, 1);
                    shmem_quiet();
                }
                printf("put_lat %zu %.3f\n", sz, (now() - t0) / it);
                for (int i = 0; i < it + warm; i++) {
                    if (i == warm)
                        t0 = now();
                    shmem_getmem(loc, buf, sz, 1);
                }
                printf("get_lat %zu %.3f\n", sz, (now() - t0) / it);
                int bit = it / 10 > 4 ? it / 10 : 4;
                size_t span = sz * WIN <= (size_t)MAXSZ * WIN / 16 ? sz : 0;
                for (int i = 0; i < bit + 2; i++) {
                    if (i == 2)
                        t0 = now();
                    for (int w = 0; w < WIN; w++)
                        shmem_putmem_nbi(buf + w * span, loc, sz, 1);
                    shmem_quiet();
                }
                printf("put_bw %zu %.1f\n", sz, (double)sz * WIN * bit / (now() - t0));
                for (int i = 0; i < bit + 2; i++) {
                    if (i == 2)
                        t0 = now();
                    for (int w = 0; w < WIN; w++)
                        shmem_getmem_nbi(loc, buf + w * span, sz, 1);
                    shmem_quiet();
                }
                printf("get_bw %zu %.1f\n", sz, (double)sz * WIN * bit / (now() - t0));
            }
            shmem_barrier_all();
        }
        if (me == 0) {
            double t0 = 0;
            for (int i = 0; i < 11000; i++) {
                if (i == 1000)
                    t0 = now();
                (void)shmem_long_atomic_fetch_add(ctr, 1, 1);
            }
            printf("amo_lat 8 %.3f\n", (now() - t0) / 10000);
        }
    }
    shmem_barrier_all();
    double t0 = 0;
    for (int i = 0; i < 2200; i++) {
        if (i == 200)
            t0 = now();
        shmem_barrier_all();
    }
    double tb = (now() - t0) / 2000;
    for (int i = 0; i < 2200; i++) {
        if (i == 200)
            t0 = now();
        rsrc = me + i;
#if !BENCH_SHMEM_API14
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &rdst, &rsrc, 1);
#else
        shmem_long_sum_to_all(&rdst, &rsrc, 1, 0, 0, n, pwrk, psync[i & 1]);
#endif
    }
    double tr = (now() - t0) / 2000;
    long want = (long)n * (n - 1) / 2 + (long)n * 2199;
    if (me == 0) {
        printf("barrier %d %.3f\n", n, tb);
        printf("reduce %d %.3f\n", n, tr);
        if (rdst != want)
            printf("ERROR reduce result %ld, want %ld\n", rdst, want);
        fflush(stdout);
    }
    shmem_barrier_all();
    shmem_free(ctr);
    shmem_free(buf);
    free(loc);
    shmem_finalize();
    return 0;
}
