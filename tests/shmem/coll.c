/* SPDX-License-Identifier: MIT
 * Teams and collectives: split_strided / split_2d / translate / config /
 * team contexts; broadcast, collect (equal and differing counts), fcollect,
 * alltoall, alltoalls on the world and on split teams; every reduction of
 * every type against a serial reference; the C11 generic interfaces. */
#include "shtest.h"

#include <complex.h>
#include <stdint.h>

#define NR 19

/* element i of PE p's contribution: small, so products and sums stay exact */
#define RV(p, i) (((p) + (i)) % 3 + 1)

#define REF_AND(a, b) ((a) & (b))
#define REF_OR(a, b) ((a) | (b))
#define REF_XOR(a, b) ((a) ^ (b))
#define REF_MAX(a, b) ((a) > (b) ? (a) : (b))
#define REF_MIN(a, b) ((a) < (b) ? (a) : (b))
#define REF_SUM(a, b) ((a) + (b))
#define REF_PROD(a, b) ((a) * (b))

/* OP-reduce of NR elements over team into buffers src and dst (symmetric) */
#define TEST_RED_IN(T, N, OP, REF, team, src, dst)                                             \
    {                                                                                          \
        int tn = shmem_team_n_pes(team), tme = shmem_team_my_pe(team);                         \
        for (int i = 0; i < NR; i++)                                                           \
            (src)[i] = (T)RV(tme, i);                                                          \
        SHT_CHECK(shmem_##N##_##OP##_reduce(team, dst, src, NR) == 0, #N " " #OP " rc");        \
        for (int i = 0; i < NR; i++) {                                                         \
            T want = (T)RV(0, i);                                                              \
            for (int p = 1; p < tn; p++)                                                       \
                want = (T)REF(want, (T)RV(p, i));                                              \
            SHT_CHECK((dst)[i] == want, #N " " #OP "_reduce elem %d", i);                      \
        }                                                                                      \
        /* in place */                                                                         \
        SHT_CHECK(shmem_##N##_##OP##_reduce(team, src, src, NR) == 0, #N " in place rc");      \
        SHT_CHECK(!memcmp(src, dst, NR * sizeof(T)), #N " " #OP " in place");                  \
    }
#define TEST_RED1(T, N, OP, REF, team)                                                         \
    {                                                                                          \
        T *src_ = shmem_malloc(NR * sizeof(T)), *dst_ = shmem_malloc(NR * sizeof(T));           \
        TEST_RED_IN(T, N, OP, REF, team, src_, dst_)                                           \
        shmem_free(dst_);                                                                      \
        shmem_free(src_);                                                                      \
    }
#define TEST_BITRED(T, N)                                                                      \
    TEST_RED1(T, N, and, REF_AND, SHMEM_TEAM_WORLD) TEST_RED1(T, N, or, REF_OR, SHMEM_TEAM_WORLD) \
    TEST_RED1(T, N, xor, REF_XOR, SHMEM_TEAM_WORLD)
#define TEST_CMPRED(T, N)                                                                      \
    TEST_RED1(T, N, max, REF_MAX, SHMEM_TEAM_WORLD) TEST_RED1(T, N, min, REF_MIN, SHMEM_TEAM_WORLD)
#define TEST_ARITHRED(T, N)                                                                    \
    TEST_RED1(T, N, sum, REF_SUM, SHMEM_TEAM_WORLD) TEST_RED1(T, N, prod, REF_PROD, SHMEM_TEAM_WORLD)

int main(void)
{
    sht_init();
    int me = sht_me, n = sht_npes;

    RDMX_SHMEM_BITRED_TYPES(TEST_BITRED)
    RDMX_SHMEM_CMPRED_TYPES(TEST_CMPRED)
    RDMX_SHMEM_ARITHRED_TYPES(TEST_ARITHRED)

    /* collect with differing counts: PE p gives p + 1 elements */
    long *csrc = shmem_malloc((size_t)n * sizeof(long));
    long *cdst = shmem_calloc((size_t)n * (n + 1) / 2 + 1, sizeof(long));
    for (int i = 0; i <= me; i++)
        csrc[i] = me * 100 + i;
    SHT_CHECK(shmem_long_collect(SHMEM_TEAM_WORLD, cdst, csrc, (size_t)me + 1) == 0, "collect");
    for (int p = 0, k = 0; p < n; p++)
        for (int i = 0; i <= p; i++, k++)
            SHT_CHECK(cdst[k] == p * 100 + i, "collect elem %d of PE %d: %ld", i, p, cdst[k]);
    /* equal counts go by the core's allgather */
    SHT_CHECK(shmem_long_collect(SHMEM_TEAM_WORLD, cdst, csrc, 1) == 0, "collect equal");
    for (int p = 0; p < n; p++)
        SHT_CHECK(cdst[p] == p * 100, "collect equal %d", p);

    /* alltoall and alltoalls */
    int *asrc = shmem_malloc(3 * (size_t)n * 2 * sizeof(int));
    int *adst = shmem_calloc(3 * (size_t)n * 2, sizeof(int));
    for (int j = 0; j < n; j++)
        for (int e = 0; e < 3; e++)
            asrc[j * 3 + e] = me * 1000 + j * 10 + e;
    SHT_CHECK(shmem_int_alltoall(SHMEM_TEAM_WORLD, adst, asrc, 3) == 0, "alltoall rc");
    for (int j = 0; j < n; j++)
        for (int e = 0; e < 3; e++)
            SHT_CHECK(adst[j * 3 + e] == j * 1000 + me * 10 + e, "alltoall from %d elem %d", j, e);
    for (int j = 0; j < n; j++)
        for (int e = 0; e < 3; e++)
            asrc[(j * 3 + e) * 2] = me * 1000 + j * 10 + e;
    memset(adst, 0, 3 * (size_t)n * 2 * sizeof(int));
    shmem_barrier_all();
    SHT_CHECK(shmem_int_alltoalls(SHMEM_TEAM_WORLD, adst, asrc, 2, 2, 3) == 0, "alltoalls rc");
    for (int j = 0; j < n; j++)
        for (int e = 0; e < 3; e++)
            SHT_CHECK(adst[(j * 3 + e) * 2] == j * 1000 + me * 10 + e, "alltoalls %d %d", j, e);

    /* typed broadcast / fcollect of every RMA type */
#define TEST_BF(T, N)                                                                          \
    {                                                                                          \
        T *s = shmem_malloc(2 * sizeof(T)), *d = shmem_calloc(2 * (size_t)n, sizeof(T));       \
        s[0] = (T)(me + 1);                                                                    \
        s[1] = (T)(me + 2);                                                                    \
        SHT_CHECK(shmem_##N##_broadcast(SHMEM_TEAM_WORLD, d, s, 2, 0) == 0, "rc");             \
        SHT_CHECK(d[0] == (T)1 && d[1] == (T)2, #N " broadcast");                              \
        SHT_CHECK(shmem_##N##_fcollect(SHMEM_TEAM_WORLD, d, s, 2) == 0, "rc");                 \
        for (int p = 0; p < n; p++)                                                            \
            SHT_CHECK(d[2 * p] == (T)(p + 1) && d[2 * p + 1] == (T)(p + 2), #N " fcollect");   \
        shmem_free(d);                                                                         \
        shmem_free(s);                                                                         \
    }
    RDMX_SHMEM_RMA_TYPES(TEST_BF)

    /* teams: even PEs by split_strided, a 2-d grid */
    shmem_team_t even;
    int ne = (n + 1) / 2;
    /* heap routines are collective over the world: allocate before the branch */
    int *rs = shmem_malloc(NR * sizeof(int)), *rd = shmem_malloc(NR * sizeof(int));
    long *b = shmem_malloc(sizeof(long)), *bs = shmem_malloc(sizeof(long));
    SHT_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, ne, NULL, 0, &even) == 0,
              "split_strided");
    if (me % 2 == 0) {
        SHT_CHECK(even != SHMEM_TEAM_INVALID, "member of the even team");
        SHT_CHECK(shmem_team_my_pe(even) == me / 2 && shmem_team_n_pes(even) == ne, "even ranks");
        SHT_CHECK(shmem_team_translate_pe(even, shmem_team_my_pe(even), SHMEM_TEAM_WORLD) == me,
                  "translate to world");
        TEST_RED_IN(int, int, sum, REF_SUM, even, rs, rd)
        *bs = me;
        SHT_CHECK(shmem_long_broadcast(even, b, bs, 1, ne - 1) == 0, "team broadcast");
        SHT_CHECK(*b == 2 * (ne - 1), "team broadcast value %ld", *b);
        shmem_team_sync(even); /* everyone read its broadcast value */
        shmem_ctx_t tctx;
        SHT_CHECK(shmem_team_create_ctx(even, 0, &tctx) == 0, "team ctx");
        /* PE numbers of a team context are team ranks */
        shmem_ctx_long_p(tctx, b, 77 + me, (shmem_team_my_pe(even) + 1) % ne);
        shmem_ctx_quiet(tctx);
        shmem_team_sync(even);
        int from = (shmem_team_my_pe(even) + ne - 1) % ne;
        SHT_CHECK(*b == 77 + 2 * from, "team context put: %ld", *b);
        shmem_team_sync(even);
        shmem_ctx_destroy(tctx);
        shmem_team_destroy(even);
    } else {
        SHT_CHECK(even == SHMEM_TEAM_INVALID, "odd PE not in the even team");
    }
    shmem_free(bs);
    shmem_free(b);
    SHT_CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, me, SHMEM_TEAM_INVALID) == -1,
              "translate to invalid");
    SHT_CHECK(shmem_team_my_pe(SHMEM_TEAM_INVALID) == -1, "invalid team my_pe");
    shmem_team_t bad;
    SHT_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n + 1, NULL, 0, &bad) != 0 &&
                  bad == SHMEM_TEAM_INVALID,
              "split beyond the parent refused");
    shmem_team_t xt, yt;
    int xr = n >= 4 ? 2 : 1;
    SHT_CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, xr, NULL, 0, &xt, NULL, 0, &yt) == 0, "2d");
    SHT_CHECK(shmem_team_my_pe(xt) == me % xr && shmem_team_my_pe(yt) == me / xr, "2d ranks");
    SHT_CHECK(shmem_team_n_pes(yt) == (n - me % xr + xr - 1) / xr, "2d y size");
    shmem_team_config_t cfg;
    SHT_CHECK(shmem_team_get_config(xt, SHMEM_TEAM_NUM_CONTEXTS, &cfg) == 0, "get_config");
    TEST_RED1(long, long, max, REF_MAX, yt)
    TEST_RED1(unsigned, uint, xor, REF_XOR, xt)
    shmem_team_destroy(xt);
    shmem_team_destroy(yt);
    /* SHMEM_TEAM_SHARED: exactly the PEs whose heap shmem_ptr reaches */
    int shn = shmem_team_n_pes(SHMEM_TEAM_SHARED), reach = 0;
    for (int p = 0; p < n; p++) {
        int in = shmem_team_translate_pe(SHMEM_TEAM_WORLD, p, SHMEM_TEAM_SHARED) >= 0;
        int mapped = shmem_ptr(rs, p) != NULL;
        reach += mapped;
        SHT_CHECK(in == mapped, "PE %d: in SHMEM_TEAM_SHARED %d, shmem_ptr %d", p, in, mapped);
    }
    SHT_CHECK(shn == reach && shn >= 1, "SHMEM_TEAM_SHARED size %d", shn);

    /* C11 generic interfaces */
    static long gx, gy[4];
    long gv = me + 1;
    shmem_barrier_all();
    shmem_atomic_add(&gx, gv, 0);
    shmem_barrier_all();
    if (me == 0)
        SHT_CHECK(gx == (long)n * (n + 1) / 2, "generic atomic_add: %ld", gx);
    shmem_put(gy, &gv, 1, (me + 1) % n);
    shmem_p(&gy[1], gv, (me + 1) % n);
    shmem_barrier_all();
    SHT_CHECK(gy[0] == (me + n - 1) % n + 1 && shmem_g(&gy[1], me) == gy[0], "generic put/p/g");
    shmem_put(SHMEM_CTX_DEFAULT, &gy[2], &gv, 1, me);
    SHT_CHECK(gy[2] == gv, "generic put with a context");
    shmem_wait_until(&gy[2], SHMEM_CMP_EQ, gv);
    static double dsrc[3] = {1.5, 2.5, 3.5}, ddst[3];
    shmem_sum_reduce(SHMEM_TEAM_WORLD, ddst, dsrc, 3);
    SHT_CHECK(ddst[1] == 2.5 * n, "generic sum_reduce on static data");
    shmem_sync(SHMEM_TEAM_WORLD);
    shmem_free(rd);
    shmem_free(rs);
    shmem_free(asrc);
    shmem_free(adst);
    shmem_free(csrc);
    shmem_free(cdst);
    return sht_finish();
}
