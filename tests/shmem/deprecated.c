/* SPDX-License-Identifier: MIT
 * The deprecated routines 1.5 still specifies, other than the active-set
 * collectives (aset.c), through <mpp/shmem.h>: the atomics' names before
 * 1.4 on every type, checked against the values they must produce, and
 * their C11 generic names; shmem_wait, shmem_TYPENAME_wait and the
 * long-typed shmem_wait_until; the cache routines; shmalloc, shrealloc,
 * shmemalign, shfree; shmem_pcontrol; the _SHMEM_* constants; shmem_sync
 * with a team. Also built as C99 (deprecated_c99.c), where shmem_sync and
 * shmem_wait_until are not C11's. Argument "sma": the heap is sized by the
 * deprecated SMA_SYMMETRIC_SIZE (4M, set by the test). */
#include <mpp/shmem.h>

#include "shtest.h"

#include <stdint.h>

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define SHT_C11 1
#else
#define SHT_C11 0
#endif

_Static_assert(_SHMEM_SYNC_VALUE == SHMEM_SYNC_VALUE, "_SHMEM_SYNC_VALUE");
_Static_assert(_SHMEM_BCAST_SYNC_SIZE >= 1 && _SHMEM_BARRIER_SYNC_SIZE >= 1 &&
                   _SHMEM_COLLECT_SYNC_SIZE >= 1 && _SHMEM_REDUCE_SYNC_SIZE >= 1 &&
                   _SHMEM_REDUCE_MIN_WRKDATA_SIZE >= 1,
               "_SHMEM_*_SIZE");

/* the standard AMO types, and the extended ones (fetch, set, swap) */
#define AMO_TYPES(X)                                                                           \
    X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint)                     \
    X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int32_t, int32)                 \
    X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size)                  \
    X(ptrdiff_t, ptrdiff)
#define EXT_TYPES(X) AMO_TYPES(X) X(float, float) X(double, double)
#define WAIT_TYPES(X) X(short, short) X(int, int) X(long, long) X(long long, longlong)

/* Each PE works on its right neighbour's copy, which only its left one
 * touches, so every value is known. */
#define OLD_AMO(T, N)                                                                          \
    static T amo_##N;                                                                          \
    static void old_amo_##N(int right)                                                         \
    {                                                                                          \
        amo_##N = 0;                                                                           \
        shmem_barrier_all();                                                                   \
        SHT_CHECK(shmem_##N##_finc(&amo_##N, right) == 0, #N "_finc");                         \
        shmem_##N##_inc(&amo_##N, right);                                                      \
        SHT_CHECK(shmem_##N##_fadd(&amo_##N, 3, right) == 2, #N "_fadd");                      \
        shmem_##N##_add(&amo_##N, 4, right);                                                   \
        SHT_CHECK(shmem_##N##_cswap(&amo_##N, 9, 20, right) == 9, #N "_cswap hit");            \
        SHT_CHECK(shmem_##N##_cswap(&amo_##N, 1, 30, right) == 20, #N "_cswap miss");          \
        shmem_barrier_all();                                                                   \
        SHT_CHECK(amo_##N == 20, #N ": %lld", (long long)amo_##N);                             \
    }
AMO_TYPES(OLD_AMO)
#define OLD_EXT(T, N)                                                                          \
    static T ext_##N;                                                                          \
    static void old_ext_##N(int right)                                                         \
    {                                                                                          \
        ext_##N = 0;                                                                           \
        shmem_barrier_all();                                                                   \
        shmem_##N##_set(&ext_##N, (T)7, right);                                                \
        SHT_CHECK(shmem_##N##_fetch(&ext_##N, right) == (T)7, #N "_fetch");                    \
        SHT_CHECK(shmem_##N##_swap(&ext_##N, (T)8, right) == (T)7, #N "_swap");                \
        SHT_CHECK(shmem_##N##_fetch(&ext_##N, right) == (T)8, #N "_fetch after swap");         \
        shmem_barrier_all();                                                                   \
        SHT_CHECK(ext_##N == (T)8, #N ": %g", (double)ext_##N);                                \
    }
EXT_TYPES(OLD_EXT)

#define OLD_WAIT(T, N)                                                                         \
    static T wait_##N;                                                                         \
    static void old_wait_##N(int right)                                                        \
    {                                                                                          \
        wait_##N = 0;                                                                          \
        shmem_barrier_all();                                                                   \
        shmem_##N##_p(&wait_##N, (T)(sht_me + 1), right);                                      \
        shmem_quiet();                                                                         \
        shmem_##N##_wait(&wait_##N, 0);                                                        \
        int left = (sht_me + sht_npes - 1) % sht_npes;                                         \
        SHT_CHECK(wait_##N == (T)(left + 1), #N "_wait: %lld", (long long)wait_##N);           \
        shmem_barrier_all();                                                                   \
    }
WAIT_TYPES(OLD_WAIT)

static long lwait;
#if SHT_C11
static int gi;
static long gl;
static double gd;
#endif

int main(int argc, char **argv)
{
    shmem_pcontrol(1); /* before init too: a profiling hook */
    sht_init();
    int me = sht_me, n = sht_npes, right = (me + 1) % n, left = (me + n - 1) % n;

    if (argc > 1 && !strcmp(argv[1], "sma")) {
        /* SMA_SYMMETRIC_SIZE=4M: 3 MiB fit, 8 MiB do not */
        void *a = shmem_malloc(3u << 20);
        SHT_CHECK(a != NULL, "3 MiB from a 4 MiB heap");
        void *b = shmem_malloc(8u << 20);
        SHT_CHECK(b == NULL, "8 MiB from a 4 MiB heap");
        shmem_free(a);
        return sht_finish();
    }

#define OLD_AMO_CALL(T, N) old_amo_##N(right);
#define OLD_EXT_CALL(T, N) old_ext_##N(right);
#define OLD_WAIT_CALL(T, N) old_wait_##N(right);
    AMO_TYPES(OLD_AMO_CALL)
    EXT_TYPES(OLD_EXT_CALL)
    WAIT_TYPES(OLD_WAIT_CALL)

    /* shmem_wait (long) and the long-typed shmem_wait_until, by its name in
     * parentheses where C11 makes shmem_wait_until generic */
    lwait = 0;
    shmem_barrier_all();
    shmem_long_atomic_set(&lwait, 1, right);
    shmem_wait(&lwait, 0);
    shmem_long_atomic_add(&lwait, 1, right);
    (shmem_wait_until)(&lwait, SHMEM_CMP_EQ, 2);
    SHT_CHECK(lwait == 2, "shmem_wait_until (long): %ld", lwait);
    shmem_barrier_all();

#if SHT_C11
    /* the deprecated generic names */
    gi = 0;
    gl = 0;
    gd = 0;
    shmem_barrier_all();
    SHT_CHECK(shmem_finc(&gi, right) == 0, "shmem_finc");
    shmem_inc(&gi, right);
    SHT_CHECK(shmem_fadd(&gl, 5L, right) == 0, "shmem_fadd");
    shmem_add(&gl, 6L, right);
    SHT_CHECK(shmem_cswap(&gl, 11L, 12L, right) == 11, "shmem_cswap");
    shmem_set(&gd, 1.5, right);
    SHT_CHECK(shmem_fetch(&gd, right) == 1.5, "shmem_fetch");
    SHT_CHECK(shmem_swap(&gd, 2.5, right) == 1.5, "shmem_swap");
    shmem_barrier_all();
    SHT_CHECK(gi == 2 && gl == 12 && gd == 2.5, "generic: %d %ld %g", gi, gl, gd);
#endif

    /* cache management: accepted, nothing to do */
    shmem_clear_cache_inv();
    shmem_set_cache_inv();
    shmem_clear_cache_line_inv(&lwait);
    shmem_set_cache_line_inv(&lwait);
    shmem_udcflush();
    shmem_udcflush_line(&lwait);

    /* the heap's old names */
    long *p = shmalloc(4 * sizeof(long));
    SHT_CHECK(p != NULL, "shmalloc");
    p = shrealloc(p, 64 * sizeof(long));
    SHT_CHECK(p != NULL, "shrealloc");
    long *q = shmemalign(256, 8 * sizeof(long));
    SHT_CHECK(q && (uintptr_t)q % 256 == 0, "shmemalign: %p", (void *)q);
    for (int i = 0; i < 64; i++)
        p[i] = -1;
    shmem_barrier_all();
    shmem_long_p(&p[63], me, right);
    shmem_long_p(&q[7], me, right);
    shmem_barrier_all();
    SHT_CHECK(p[63] == left && q[7] == left, "shrealloc'd and shmemalign'd blocks: %ld %ld",
              p[63], q[7]);
    shfree(q);
    shfree(p);

    shmem_pcontrol(0);
    shmem_pcontrol(2, "any", 3);
    SHT_CHECK(shmem_sync(SHMEM_TEAM_WORLD) == 0, "shmem_sync(team)");
    return sht_finish();
}
