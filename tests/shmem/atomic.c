/* SPDX-License-Identifier: MIT
 * Atomics of every type and operation: results checked, and under
 * contention (every PE on one element of PE 0, on the heap and in static
 * data) with exact counts. The target PE 0 computes outside the library
 * while the others update it, since no operation needs its CPU. */
#include "shtest.h"

#include <stdint.h>
#include <time.h>

#define ITERS 2000
static long st_counter;          /* static data: cross-memory attach */
static unsigned int st_bits;
static double st_d;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* every operation of the standard AMO set on one type, on PE `tgt` */
#define TEST_STD(T, NAME)                                                                      \
    {                                                                                          \
        T *x = shmem_calloc(4, sizeof(T));                                                     \
        int tgt = (me + 1) % n;                                                                \
        shmem_barrier_all();                                                                   \
        /* x[0]: every PE adds me+1 with fetch_add, +1 with inc, fetch_inc */                  \
        T f = shmem_##NAME##_atomic_fetch_add(&x[0], (T)(me + 1), 0);                          \
        SHT_CHECK(f <= (T)(n * (n + 1) / 2 + 4 * n), #NAME " fetch_add result");               \
        shmem_##NAME##_atomic_inc(&x[0], 0);                                                   \
        shmem_##NAME##_atomic_add(&x[0], (T)2, 0);                                             \
        T fi;                                                                                  \
        shmem_##NAME##_atomic_fetch_inc_nbi(&fi, &x[0], 0);                                    \
        (void)shmem_##NAME##_atomic_fetch_inc(&x[1], 0);                                       \
        T fa;                                                                                  \
        shmem_##NAME##_atomic_fetch_add_nbi(&fa, &x[1], (T)3, 0);                              \
        shmem_quiet();                                                                         \
        shmem_barrier_all();                                                                   \
        if (me == 0) {                                                                         \
            SHT_CHECK(x[0] == (T)(n * (n + 1) / 2 + 4 * n), #NAME " sum %lld",                 \
                      (long long)x[0]);                                                        \
            SHT_CHECK(x[1] == (T)(4 * n), #NAME " inc+add %lld", (long long)x[1]);             \
        }                                                                                      \
        /* compare_swap: the PE whose turn it is moves x[2] from turn to turn+1 */             \
        for (int turn = 0; turn < n; turn++) {                                                 \
            T old = shmem_##NAME##_atomic_compare_swap(&x[2], (T)turn, (T)(turn + 1), tgt);    \
            (void)old;                                                                         \
        }                                                                                      \
        shmem_barrier_all();                                                                   \
        SHT_CHECK(x[2] == (T)n, #NAME " compare_swap chain %lld", (long long)x[2]);            \
        T cs;                                                                                  \
        shmem_##NAME##_atomic_compare_swap_nbi(&cs, &x[3], (T)0, (T)(me + 1), tgt);            \
        shmem_quiet();                                                                         \
        SHT_CHECK(cs == (T)0, #NAME " compare_swap_nbi fetched %lld", (long long)cs);          \
        shmem_barrier_all();                                                                   \
        SHT_CHECK(x[3] == (T)((me + n - 1) % n + 1), #NAME " compare_swap_nbi set");           \
        shmem_barrier_all();                                                                   \
        shmem_free(x);                                                                         \
    }

#define TEST_EXT(T, NAME)                                                                      \
    {                                                                                          \
        T *x = shmem_calloc(2, sizeof(T));                                                     \
        int tgt = (me + 1) % n;                                                                \
        shmem_##NAME##_atomic_set(&x[0], (T)(me + 10), tgt);                                   \
        shmem_barrier_all();                                                                   \
        int from = (me + n - 1) % n;                                                           \
        SHT_CHECK(x[0] == (T)(from + 10), #NAME " set");                                       \
        SHT_CHECK(shmem_##NAME##_atomic_fetch(&x[0], tgt) == (T)(me + 10), #NAME " fetch");    \
        T fv;                                                                                  \
        shmem_##NAME##_atomic_fetch_nbi(&fv, &x[0], tgt);                                      \
        shmem_quiet();                                                                         \
        SHT_CHECK(fv == (T)(me + 10), #NAME " fetch_nbi");                                     \
        shmem_barrier_all();                                                                   \
        T old = shmem_##NAME##_atomic_swap(&x[0], (T)(me + 20), tgt);                          \
        SHT_CHECK(old == (T)(me + 10), #NAME " swap old");                                     \
        shmem_##NAME##_atomic_swap_nbi(&fv, &x[0], (T)(me + 30), tgt);                         \
        shmem_quiet();                                                                         \
        SHT_CHECK(fv == (T)(me + 20), #NAME " swap_nbi old");                                  \
        shmem_barrier_all();                                                                   \
        SHT_CHECK(x[0] == (T)(from + 30), #NAME " after swaps");                               \
        /* contention: every PE swaps in its own value; the values seen form a chain */        \
        shmem_barrier_all();                                                                   \
        shmem_free(x);                                                                         \
    }

#define TEST_BIT(T, NAME)                                                                      \
    {                                                                                          \
        T *x = shmem_calloc(3, sizeof(T));                                                     \
        if (me == 0)                                                                           \
            x[1] = (T)~(T)0;                                                                   \
        shmem_barrier_all();                                                                   \
        T bit = (T)((T)1 << (me % 32));                                                        \
        shmem_##NAME##_atomic_or(&x[0], bit, 0);                                               \
        T f = shmem_##NAME##_atomic_fetch_and(&x[1], (T)~bit, 0);                              \
        SHT_CHECK((f & bit) == bit, #NAME " fetch_and saw own bit");                           \
        shmem_##NAME##_atomic_xor(&x[2], bit, 0);                                              \
        T g;                                                                                   \
        shmem_##NAME##_atomic_fetch_xor_nbi(&g, &x[2], bit, 0);                                \
        shmem_##NAME##_atomic_fetch_or_nbi(&g, &x[0], bit, 0);                                 \
        shmem_quiet();                                                                         \
        (void)shmem_##NAME##_atomic_fetch_or(&x[0], 0, 0);                                     \
        shmem_##NAME##_atomic_and(&x[1], (T)~(T)0, 0);                                         \
        shmem_##NAME##_atomic_fetch_and_nbi(&g, &x[1], (T)~(T)0, 0);                           \
        (void)shmem_##NAME##_atomic_fetch_xor(&x[2], 0, 0);                                    \
        shmem_quiet();                                                                         \
        shmem_barrier_all();                                                                   \
        if (me == 0) {                                                                         \
            T all = 0;                                                                         \
            for (int p = 0; p < n; p++)                                                        \
                all |= (T)((T)1 << (p % 32));                                                  \
            SHT_CHECK(x[0] == all, #NAME " or");                                               \
            SHT_CHECK(x[1] == (T)~all, #NAME " and");                                          \
            SHT_CHECK(x[2] == 0, #NAME " xor twice");                                          \
        }                                                                                      \
        shmem_barrier_all();                                                                   \
        shmem_free(x);                                                                         \
    }

int main(void)
{
    sht_init();
    int me = sht_me, n = sht_npes;

    RDMX_SHMEM_AMO_TYPES(TEST_STD)
    RDMX_SHMEM_EXT_AMO_TYPES(TEST_EXT)
    RDMX_SHMEM_BIT_AMO_TYPES(TEST_BIT)

    /* contention with exact counts: heap and static data on PE 0, while
     * PE 0 is busy computing outside the library for the first part */
    long *hc = shmem_calloc(1, sizeof(long));
    char *seen = calloc((size_t)ITERS * n, 1);
    long *mine = malloc(sizeof(long) * ITERS);
    shmem_barrier_all();
    if (me == 0 && n > 1) {
        double t0 = now();
        volatile double acc = 0;
        while (now() - t0 < 0.3)
            for (int i = 0; i < 1000; i++)
                acc += i * 0.5;
    }
    int k = 0;
    for (int i = 0; i < ITERS; i++) {
        mine[k++] = shmem_long_atomic_fetch_inc(hc, 0);
        shmem_long_atomic_add(&st_counter, 2, 0);
        shmem_uint_atomic_xor(&st_bits, 1u << (me % 32), 0);
    }
    shmem_double_atomic_set(&st_d, 1.5, 0);
    shmem_barrier_all();
    if (me == 0) {
        SHT_CHECK(*hc == (long)ITERS * n, "heap counter %ld, want %ld", *hc, (long)ITERS * n);
        SHT_CHECK(st_counter == 2L * ITERS * n, "static counter %ld, want %ld", st_counter,
                  2L * ITERS * n);
        SHT_CHECK(st_bits == 0, "xor an even number of times: %x", st_bits);
        SHT_CHECK(st_d == 1.5, "double set in static data");
    }
    /* the fetched values are distinct: collect them on PE 0 */
    long *all = shmem_malloc(sizeof(long) * ITERS * n);
    shmem_long_put(all + (size_t)me * ITERS, mine, ITERS, 0);
    shmem_barrier_all();
    if (me == 0) {
        long dup = 0;
        for (long i = 0; i < (long)ITERS * n; i++) {
            long v = all[i];
            if (v < 0 || v >= (long)ITERS * n || seen[v]++)
                dup++;
        }
        SHT_CHECK(dup == 0, "%ld fetch_inc results repeated or out of range", dup);
    }
    /* compare_swap under contention on static data: a counter advanced only
     * by successful swaps reaches exactly n * 200 */
    static long st_cas;
    int done = 0;
    while (done < 200) {
        long cur = shmem_long_atomic_fetch(&st_cas, 0);
        if (shmem_long_atomic_compare_swap(&st_cas, cur, cur + 1, 0) == cur)
            done++;
    }
    shmem_barrier_all();
    if (me == 0)
        SHT_CHECK(st_cas == 200L * n, "compare_swap counter %ld", st_cas);
    free(seen);
    free(mine);
    shmem_free(all);
    shmem_free(hc);
    return sht_finish();
}
