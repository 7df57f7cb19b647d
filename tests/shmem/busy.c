/* SPDX-License-Identifier: MIT
 * A target PE busy outside the library: PE 0 computes and makes no SHMEM
 * call while every other PE puts into, gets from and atomically updates its
 * symmetric heap and static data, then tells it so by an atomic increment
 * of a word PE 0 reads with plain loads. PE 0 leaves its loop only when that
 * word says every other PE is done (or after 60 s: a failure), so the test
 * passes only if no operation needed PE 0's CPU. The contents and counts are
 * then checked on PE 0. Not meant for RDMX_RMA_EMULATE=1, where every
 * operation needs the target. */
#include "shtest.h"

#include <stdint.h>
#include <time.h>

#define ROUNDS 200
#define BLK 64 /* longs per PE and round */

static long st_blk[8][BLK]; /* static data: cross-memory attach within a node */
static long st_count;
static long done;           /* PEs finished: read by PE 0 with plain loads */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static long val(int pe, int round, int i) { return (long)pe * 1000003L + round * 131L + i; }

/* Everything a PE != 0 does to PE 0 while it is busy; returns mismatches. */
static int hammer(int me, long *heap_blk, long *heap_count)
{
    int errs = 0;
    long src[BLK], got[BLK];
    int slot = me % 8;
    for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < BLK; i++)
            src[i] = val(me, r, i);
        shmem_long_put(heap_blk + (size_t)me * BLK, src, BLK, 0);
        shmem_long_get(got, heap_blk + (size_t)me * BLK, BLK, 0);
        errs += memcmp(got, src, sizeof src) != 0;
        /* static data: every PE its own row (rows shared beyond 8 PEs, so
         * only the PE's own values are checked, and only when alone in it) */
        shmem_long_put_nbi(st_blk[slot], src, BLK, 0);
        shmem_quiet();
        shmem_long_get_nbi(got, st_blk[slot], BLK, 0);
        shmem_quiet();
        if (shmem_n_pes() <= 8)
            errs += memcmp(got, src, sizeof src) != 0;
        (void)shmem_long_atomic_fetch_add(heap_count, 3, 0);
        shmem_long_atomic_inc(&st_count, 0);
        long old = shmem_long_atomic_fetch(heap_count, 0);
        while (shmem_long_atomic_compare_swap(heap_count, old, old + 1, 0) != old)
            old = shmem_long_atomic_fetch(heap_count, 0);
    }
    shmem_quiet();
    shmem_long_atomic_inc(&done, 0);
    return errs;
}

int main(void)
{
    sht_init();
    int me = sht_me, n = sht_npes;
    long *heap_blk = shmem_calloc((size_t)n * BLK, sizeof(long));
    long *heap_count = shmem_calloc(1, sizeof(long));
    shmem_barrier_all();
    if (me == 0) {
        double t0 = now();
        volatile double acc = 0;
        while (*(volatile long *)&done < n - 1 && now() - t0 < 60)
            for (int i = 0; i < 1000; i++)
                acc += i * 0.5;
        SHT_CHECK(*(volatile long *)&done == n - 1,
                  "the other PEs did not finish while PE 0 was busy (%ld of %d in %.0f s)",
                  *(volatile long *)&done, n - 1, now() - t0);
    } else {
        int errs = hammer(me, heap_blk, heap_count);
        SHT_CHECK(errs == 0, "%d blocks read back from busy PE 0 differ", errs);
    }
    shmem_barrier_all();
    if (me == 0) {
        SHT_CHECK(*heap_count == 4L * ROUNDS * (n - 1), "heap counter %ld, want %ld", *heap_count,
                  4L * ROUNDS * (n - 1));
        SHT_CHECK(st_count == (long)ROUNDS * (n - 1), "static counter %ld, want %ld", st_count,
                  (long)ROUNDS * (n - 1));
        for (int p = 1; p < n; p++)
            for (int i = 0; i < BLK; i++)
                SHT_CHECK(heap_blk[(size_t)p * BLK + i] == val(p, ROUNDS - 1, i),
                          "heap block of PE %d elem %d: %ld", p, i, heap_blk[(size_t)p * BLK + i]);
        for (int p = 1; p < n && n <= 8; p++)
            for (int i = 0; i < BLK; i++)
                SHT_CHECK(st_blk[p][i] == val(p, ROUNDS - 1, i), "static row of PE %d elem %d", p,
                          i);
    }
    shmem_barrier_all();
    shmem_free(heap_count);
    shmem_free(heap_blk);
    return sht_finish();
}
