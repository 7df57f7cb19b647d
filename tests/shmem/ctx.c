/* SPDX-License-Identifier: MIT
 * Communication contexts: the shmem_ctx_* form of every RMA routine and
 * atomic on every type and size (blocking, _nbi, strided, single element,
 * with signal), C11 generic calls with a context first, ctx_fence ordering,
 * ctx_quiet completing, contexts of a team whose PE numbers are team ranks,
 * and refused options. Results checked against what each PE wrote. */
#include "shtest.h"

#include <stdint.h>

#define N 16

static long sdata[N]; /* static data through a context */

/* the context form of every RMA routine of one type: values element i of PE p */
#define CV(T, p, i) ((T)(((p) * 5 + (i) * 3 + 2) % 90))
#define CTX_RMA(T, NAME)                                                                       \
    {                                                                                          \
        T *d = shmem_calloc(4 * N, sizeof(T));                                                 \
        uint64_t *sg = shmem_calloc(2, sizeof(uint64_t));                                      \
        T s_[N], g_[N];                                                                        \
        for (int i = 0; i < N; i++)                                                            \
            s_[i] = CV(T, me, i);                                                              \
        shmem_barrier_all();                                                                   \
        shmem_ctx_##NAME##_put(ctx, d, s_, N, right);                                          \
        shmem_ctx_##NAME##_put_nbi(ctx, d + N, s_, N, right);                                  \
        shmem_ctx_##NAME##_iput(ctx, d + 2 * N, s_, 2, 1, N / 2, right);                       \
        shmem_ctx_##NAME##_p(ctx, d + 3 * N, s_[1], right);                                    \
        shmem_ctx_##NAME##_put_signal(ctx, d + 3 * N + 1, s_, 2, &sg[0], 1, SHMEM_SIGNAL_ADD,  \
                                      right);                                                  \
        shmem_ctx_##NAME##_put_signal_nbi(ctx, d + 3 * N + 3, s_ + 2, 2, &sg[1], 1,            \
                                          SHMEM_SIGNAL_SET, right);                            \
        shmem_ctx_quiet(ctx);                                                                  \
        shmem_barrier_all();                                                                   \
        int bad_ = 0;                                                                          \
        for (int i = 0; i < N; i++)                                                            \
            bad_ += d[i] != CV(T, left, i) || d[N + i] != CV(T, left, i);                      \
        for (int k = 0; k < N / 2; k++)                                                        \
            bad_ += d[2 * N + 2 * k] != CV(T, left, k);                                        \
        bad_ += d[3 * N] != CV(T, left, 1);                                                    \
        for (int i = 0; i < 4; i++)                                                            \
            bad_ += d[3 * N + 1 + i] != CV(T, left, i);                                        \
        bad_ += sg[0] != 1 || sg[1] != 1;                                                      \
        SHT_CHECK(bad_ == 0, "ctx " #NAME " puts: %d wrong", bad_);                            \
        memset(g_, 0, sizeof g_);                                                              \
        shmem_ctx_##NAME##_get(ctx, g_, d, N / 2, right);                                      \
        shmem_ctx_##NAME##_get_nbi(ctx, g_ + N / 2, d + N / 2, N / 2, right);                  \
        shmem_ctx_quiet(ctx);                                                                  \
        bad_ = 0;                                                                              \
        for (int i = 0; i < N; i++)                                                            \
            bad_ += g_[i] != CV(T, me, i);                                                     \
        memset(g_, 0, sizeof g_);                                                              \
        shmem_ctx_##NAME##_iget(ctx, g_, d + 2 * N, 1, 2, N / 2, right);                       \
        for (int k = 0; k < N / 2; k++)                                                        \
            bad_ += g_[k] != CV(T, me, k);                                                     \
        bad_ += shmem_ctx_##NAME##_g(ctx, d + 3 * N, right) != CV(T, me, 1);                   \
        SHT_CHECK(bad_ == 0, "ctx " #NAME " gets: %d wrong", bad_);                            \
        shmem_barrier_all();                                                                   \
        shmem_free(sg);                                                                        \
        shmem_free(d);                                                                         \
    }

/* the context form of every sized routine */
#define CTX_SIZED(B)                                                                           \
    {                                                                                          \
        unsigned char *d = shmem_calloc(3 * N, (B) / 8), s_[N * (B) / 8], g_[N * (B) / 8];     \
        uint64_t *sg = shmem_calloc(1, sizeof(uint64_t));                                      \
        for (size_t i = 0; i < sizeof s_; i++)                                                 \
            s_[i] = (unsigned char)(me * 17 + i);                                              \
        shmem_barrier_all();                                                                   \
        shmem_ctx_put##B(ctx, d, s_, N, right);                                                \
        shmem_ctx_put##B##_nbi(ctx, d + N * (B) / 8, s_, N, right);                            \
        shmem_ctx_iput##B(ctx, d + 2 * N * (B) / 8, s_, 2, 1, N / 2, right);                   \
        shmem_ctx_put##B##_signal(ctx, d + 2 * N * (B) / 8 + (B) / 8, s_, 1, sg, 4,            \
                                  SHMEM_SIGNAL_ADD, right);                                    \
        shmem_ctx_put##B##_signal_nbi(ctx, d + 2 * N * (B) / 8 + 3 * (B) / 8, s_, 1, sg, 3,    \
                                      SHMEM_SIGNAL_ADD, right);                                \
        shmem_ctx_quiet(ctx);                                                                  \
        shmem_barrier_all();                                                                   \
        int bad_ = memcmp(d, d + N * (B) / 8, N * (B) / 8) != 0;                               \
        for (size_t i = 0; i < N * (B) / 8; i++)                                               \
            bad_ += d[i] != (unsigned char)(left * 17 + i);                                    \
        bad_ += *sg != 7;                                                                      \
        shmem_ctx_get##B(ctx, g_, d, N / 2, right);                                            \
        shmem_ctx_get##B##_nbi(ctx, g_ + N / 2 * (B) / 8, d + N / 2 * (B) / 8, N / 2, right);  \
        shmem_ctx_quiet(ctx);                                                                  \
        bad_ += memcmp(g_, s_, sizeof s_) != 0;                                                \
        shmem_ctx_iget##B(ctx, g_, d + 2 * N * (B) / 8, 1, 2, N / 2, right);                   \
        for (size_t i = 0; i < (N / 2) * (B) / 8; i++)                                         \
            bad_ += g_[i] != s_[i];                                                            \
        SHT_CHECK(bad_ == 0, "ctx sized %d: %d wrong", B, bad_);                               \
        shmem_barrier_all();                                                                   \
        shmem_free(sg);                                                                        \
        shmem_free(d);                                                                         \
    }

/* the context form of every atomic of one type: sums onto PE 0 */
#define CTX_AMO(T, NAME)                                                                       \
    {                                                                                          \
        T *x = shmem_calloc(4, sizeof(T));                                                     \
        T f_;                                                                                  \
        shmem_barrier_all();                                                                   \
        (void)shmem_ctx_##NAME##_atomic_fetch_inc(ctx, &x[0], 0);                              \
        shmem_ctx_##NAME##_atomic_inc(ctx, &x[0], 0);                                          \
        (void)shmem_ctx_##NAME##_atomic_fetch_add(ctx, &x[0], (T)2, 0);                        \
        shmem_ctx_##NAME##_atomic_add(ctx, &x[0], (T)3, 0);                                    \
        shmem_ctx_##NAME##_atomic_fetch_inc_nbi(ctx, &f_, &x[1], 0);                           \
        shmem_ctx_##NAME##_atomic_fetch_add_nbi(ctx, &f_, &x[1], (T)2, 0);                     \
        shmem_ctx_quiet(ctx);                                                                  \
        while (shmem_ctx_##NAME##_atomic_compare_swap(ctx, &x[2], (T)me, (T)(me + 1), 0) !=    \
               (T)me)                                                                          \
            ;                                                                                  \
        shmem_barrier_all();                                                                   \
        if (me == 0)                                                                           \
            x[3] = (T)n;                                                                       \
        shmem_barrier_all();                                                                   \
        shmem_ctx_##NAME##_atomic_compare_swap_nbi(ctx, &f_, &x[3], (T)0, (T)1, 0);            \
        shmem_ctx_quiet(ctx);                                                                  \
        SHT_CHECK(f_ == (T)n, "ctx " #NAME " compare_swap_nbi fetched");                       \
        SHT_CHECK(shmem_ctx_##NAME##_atomic_fetch(ctx, &x[0], 0) == (T)(7 * n) &&              \
                      shmem_ctx_##NAME##_atomic_fetch(ctx, &x[1], 0) == (T)(3 * n) &&          \
                      shmem_ctx_##NAME##_atomic_fetch(ctx, &x[2], 0) == (T)n,                  \
                  "ctx " #NAME " atomic sums");                                                \
        shmem_barrier_all();                                                                   \
        shmem_free(x);                                                                         \
    }

/* fetch / set / swap of every extended type */
#define CTX_EXT(T, NAME)                                                                       \
    {                                                                                          \
        T *x = shmem_calloc(1, sizeof(T));                                                     \
        T f_;                                                                                  \
        shmem_barrier_all();                                                                   \
        shmem_ctx_##NAME##_atomic_set(ctx, x, (T)(me + 1), right);                             \
        shmem_ctx_quiet(ctx);                                                                  \
        shmem_barrier_all();                                                                   \
        SHT_CHECK(*x == (T)(left + 1), "ctx " #NAME " set");                                   \
        shmem_barrier_all(); /* checked before the swaps below change it */                   \
        SHT_CHECK(shmem_ctx_##NAME##_atomic_swap(ctx, x, (T)(me + 2), right) == (T)(me + 1),   \
                  "ctx " #NAME " swap");                                                       \
        shmem_ctx_##NAME##_atomic_swap_nbi(ctx, &f_, x, (T)(me + 3), right);                   \
        shmem_ctx_quiet(ctx);                                                                  \
        SHT_CHECK(f_ == (T)(me + 2), "ctx " #NAME " swap_nbi");                                \
        shmem_ctx_##NAME##_atomic_fetch_nbi(ctx, &f_, x, right);                               \
        shmem_ctx_quiet(ctx);                                                                  \
        SHT_CHECK(f_ == (T)(me + 3), "ctx " #NAME " fetch_nbi");                               \
        shmem_barrier_all();                                                                   \
        shmem_free(x);                                                                         \
    }

/* every bitwise atomic of one type */
#define CTX_BIT(T, NAME)                                                                       \
    {                                                                                          \
        T *x = shmem_calloc(3, sizeof(T));                                                     \
        T f_, bit = (T)((T)1 << (me % 32));                                                    \
        if (me == 0)                                                                           \
            x[1] = (T)~(T)0;                                                                   \
        shmem_barrier_all();                                                                   \
        shmem_ctx_##NAME##_atomic_or(ctx, &x[0], bit, 0);                                      \
        (void)shmem_ctx_##NAME##_atomic_fetch_or(ctx, &x[0], 0, 0);                            \
        shmem_ctx_##NAME##_atomic_fetch_or_nbi(ctx, &f_, &x[0], 0, 0);                         \
        shmem_ctx_##NAME##_atomic_and(ctx, &x[1], (T)~bit, 0);                                 \
        (void)shmem_ctx_##NAME##_atomic_fetch_and(ctx, &x[1], (T)~(T)0, 0);                    \
        shmem_ctx_##NAME##_atomic_fetch_and_nbi(ctx, &f_, &x[1], (T)~(T)0, 0);                 \
        shmem_ctx_##NAME##_atomic_xor(ctx, &x[2], bit, 0);                                     \
        (void)shmem_ctx_##NAME##_atomic_fetch_xor(ctx, &x[2], bit, 0);                         \
        shmem_ctx_##NAME##_atomic_fetch_xor_nbi(ctx, &f_, &x[2], 0, 0);                        \
        shmem_ctx_quiet(ctx);                                                                  \
        shmem_barrier_all();                                                                   \
        if (me == 0) {                                                                         \
            T all = 0;                                                                         \
            for (int p = 0; p < n; p++)                                                        \
                all |= (T)((T)1 << (p % 32));                                                  \
            SHT_CHECK(x[0] == all && x[1] == (T)~all && x[2] == 0, "ctx " #NAME " bitwise");   \
        }                                                                                      \
        shmem_barrier_all();                                                                   \
        shmem_free(x);                                                                         \
    }

int main(void)
{
    sht_init();
    int me = sht_me, n = sht_npes;
    int right = (me + 1) % n, left = (me + n - 1) % n;
    shmem_ctx_t ctx;
    SHT_CHECK(shmem_ctx_create(SHMEM_CTX_SERIALIZED | SHMEM_CTX_NOSTORE, &ctx) == 0,
              "ctx_create with options");
    long *a = shmem_calloc(8 * N, sizeof(long));
    uint64_t *sig = shmem_calloc(2, sizeof(uint64_t));
    long *amo = shmem_calloc(8, sizeof(long));
    long src[N], got[N];
    for (int i = 0; i < N; i++)
        src[i] = me * 100 + i;
    shmem_barrier_all();

    /* RMA through the context: blocks 0..4 of a on the right neighbour */
    shmem_ctx_long_put(ctx, a, src, N, right);
    shmem_ctx_long_put_nbi(ctx, a + N, src, N, right);
    shmem_ctx_putmem_nbi(ctx, a + 2 * N, src, N * sizeof(long), right);
    shmem_ctx_put64_nbi(ctx, a + 3 * N, src, N, right);
    shmem_ctx_long_iput(ctx, a + 4 * N, src, 2, 1, N / 2, right);
    shmem_ctx_long_p(ctx, a + 5 * N, 77 + me, right);
    shmem_ctx_putmem(ctx, sdata, src, N * sizeof(long), right);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    for (int b = 0; b < 4; b++)
        for (int i = 0; i < N; i++)
            SHT_CHECK(a[b * N + i] == left * 100 + i, "ctx put block %d elem %d: %ld", b, i,
                      a[b * N + i]);
    for (int k = 0; k < N / 2; k++)
        SHT_CHECK(a[4 * N + 2 * k] == left * 100 + k, "ctx iput elem %d", k);
    SHT_CHECK(a[5 * N] == 77 + left, "ctx p");
    for (int i = 0; i < N; i++)
        SHT_CHECK(sdata[i] == left * 100 + i, "ctx put static elem %d", i);
    memset(got, 0, sizeof got);
    shmem_ctx_long_get(ctx, got, a, N, right);
    for (int i = 0; i < N; i++)
        SHT_CHECK(got[i] == me * 100 + i, "ctx get elem %d", i);
    memset(got, 0, sizeof got);
    shmem_ctx_getmem_nbi(ctx, got, a + N, N * sizeof(long), right);
    shmem_ctx_quiet(ctx);
    for (int i = 0; i < N; i++)
        SHT_CHECK(got[i] == me * 100 + i, "ctx getmem_nbi elem %d", i);
    memset(got, 0, sizeof got);
    shmem_ctx_getmem(ctx, got, sdata, N / 2 * sizeof(long), right);
    shmem_ctx_long_iget(ctx, got + N / 2, a + 4 * N, 1, 2, N / 2, right);
    for (int i = 0; i < N / 2; i++)
        SHT_CHECK(got[i] == me * 100 + i && got[N / 2 + i] == me * 100 + i,
                  "ctx getmem / iget elem %d", i);
    SHT_CHECK(shmem_ctx_long_g(ctx, a + 5 * N, right) == 77 + me, "ctx g");
    shmem_barrier_all();

    /* fence on the context orders data before flag */
    shmem_ctx_long_put_nbi(ctx, a + 6 * N, src, N, right);
    shmem_ctx_fence(ctx);
    shmem_ctx_long_p(ctx, a + 7 * N, 1, right);
    shmem_long_wait_until(a + 7 * N, SHMEM_CMP_EQ, 1);
    for (int i = 0; i < N; i++)
        SHT_CHECK(a[6 * N + i] == left * 100 + i, "data before the fenced flag, elem %d", i);
    shmem_barrier_all();

    /* put with signal through the context, blocking and nbi */
    shmem_ctx_putmem_signal(ctx, a, src, N * sizeof(long), &sig[0], 5 + me, SHMEM_SIGNAL_SET,
                            right);
    shmem_ctx_putmem_signal_nbi(ctx, a + N, src, N * sizeof(long), &sig[1], 2, SHMEM_SIGNAL_ADD,
                                right);
    shmem_ctx_quiet(ctx);
    SHT_CHECK(shmem_signal_wait_until(&sig[0], SHMEM_CMP_EQ, 5 + left) == (uint64_t)(5 + left),
              "ctx put_signal set");
    SHT_CHECK(shmem_signal_wait_until(&sig[1], SHMEM_CMP_EQ, 2) == 2, "ctx put_signal_nbi add");
    shmem_barrier_all();

    /* atomics through the context, all onto PE 0 */
    (void)shmem_ctx_long_atomic_fetch_add(ctx, &amo[0], me + 1, 0);
    shmem_ctx_long_atomic_add(ctx, &amo[0], 1, 0);
    shmem_ctx_long_atomic_inc(ctx, &amo[1], 0);
    (void)shmem_ctx_long_atomic_fetch_inc(ctx, &amo[1], 0);
    long fv;
    shmem_ctx_long_atomic_fetch_add_nbi(ctx, &fv, &amo[2], 10, 0);
    shmem_ctx_ulong_atomic_or(ctx, (unsigned long *)&amo[3], 1ul << (me % 60), 0);
    shmem_ctx_long_atomic_set(ctx, &amo[4 + me % 4], 0, 0);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    if (me == 0) {
        SHT_CHECK(amo[0] == (long)n * (n + 1) / 2 + n, "ctx fetch_add+add %ld", amo[0]);
        SHT_CHECK(amo[1] == 2L * n, "ctx inc+fetch_inc %ld", amo[1]);
        SHT_CHECK(amo[2] == 10L * n, "ctx fetch_add_nbi %ld", amo[2]);
        unsigned long all = 0;
        for (int p = 0; p < n; p++)
            all |= 1ul << (p % 60);
        SHT_CHECK((unsigned long)amo[3] == all, "ctx or");
    }
    shmem_barrier_all();
    if (me == 0)
        amo[4] = 0;
    shmem_barrier_all();
    /* a chain of compare_swaps: each PE waits for its turn */
    while (shmem_ctx_long_atomic_compare_swap(ctx, &amo[4], me, me + 1, 0) != me)
        ;
    long sw = shmem_ctx_long_atomic_swap(ctx, &amo[5], me, 0);
    SHT_CHECK(sw == -1 || (sw >= 0 && sw < n), "ctx swap fetched %ld", sw);
    shmem_barrier_all();
    SHT_CHECK(shmem_ctx_long_atomic_fetch(ctx, &amo[4], 0) == n, "ctx compare_swap chain");

    RDMX_SHMEM_RMA_TYPES(CTX_RMA)
    RDMX_SHMEM_RMA_SIZES(CTX_SIZED)
    RDMX_SHMEM_AMO_TYPES(CTX_AMO)
    RDMX_SHMEM_EXT_AMO_TYPES(CTX_EXT)
    RDMX_SHMEM_BIT_AMO_TYPES(CTX_BIT)

    /* C11 generic calls with a context first */
    long gv = 1000 + me, gg = 0;
    shmem_put(ctx, &a[0], &gv, 1, right);
    shmem_p(ctx, &a[1], gv, right);
    shmem_atomic_add(ctx, &amo[6], 2L, 0);
    shmem_quiet();
    shmem_barrier_all();
    shmem_get(ctx, &gg, &a[0], 1, right);
    SHT_CHECK(gg == gv && shmem_g(ctx, &a[1], right) == gv, "generic ctx put/get/p/g");
    SHT_CHECK(shmem_atomic_fetch(ctx, &amo[6], 0) == 2L * n, "generic ctx add");
    shmem_team_t t;
    SHT_CHECK(shmem_ctx_get_team(ctx, &t) == 0 && t == SHMEM_TEAM_WORLD, "ctx team is world");
    shmem_ctx_destroy(ctx);
    shmem_ctx_destroy(SHMEM_CTX_INVALID); /* no effect */
    SHT_CHECK(shmem_ctx_create(-1L, &ctx) != 0 && ctx == SHMEM_CTX_INVALID, "bad options");

    /* a team's context: PE numbers are ranks in the team (the odd PEs) */
    shmem_team_t odd;
    int nodd = n / 2;
    shmem_barrier_all();
    if (nodd > 0) {
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, nodd, NULL, 0, &odd);
    } else {
        odd = SHMEM_TEAM_INVALID;
    }
    if (odd != SHMEM_TEAM_INVALID) {
        shmem_ctx_t tc;
        SHT_CHECK(shmem_team_create_ctx(odd, 0, &tc) == 0, "team_create_ctx");
        int tme = shmem_team_my_pe(odd), tright = (tme + 1) % nodd;
        long v = 5000 + me;
        shmem_ctx_long_put(tc, &a[2], &v, 1, tright); /* team rank tright: world PE 2*tright+1 */
        shmem_ctx_long_atomic_inc(tc, &amo[7], 0);    /* team rank 0 is world PE 1 */
        shmem_ctx_quiet(tc);
        shmem_team_sync(odd);
        int tleft = (tme + nodd - 1) % nodd;
        SHT_CHECK(a[2] == 5000 + 2 * tleft + 1, "team ctx put landed on team rank: %ld", a[2]);
        shmem_team_t back;
        SHT_CHECK(shmem_ctx_get_team(tc, &back) == 0 && back == odd, "team ctx's team");
        shmem_ctx_destroy(tc);
        shmem_team_destroy(odd);
    }
    shmem_barrier_all();
    if (me == 1)
        SHT_CHECK(amo[7] == nodd, "team ctx atomic on team rank 0: %ld", amo[7]);
    shmem_free(amo);
    shmem_free(sig);
    shmem_free(a);
    return sht_finish();
}
