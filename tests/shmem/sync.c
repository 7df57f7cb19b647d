/* SPDX-License-Identifier: MIT
 * Point-to-point synchronization of every type: wait_until and test with
 * each comparison, the _all / _any / _some forms with and without status
 * masks, their vector forms; locks (a counter changed non-atomically inside
 * the critical section reaches the exact count); fence ordering; contexts. */
#include "shtest.h"

#include <stdint.h>

#define NV 5
static long lock_word;
static long crit_count; /* on PE 0, changed only under the lock */

#define TEST_SYNC(T, NAME)                                                                     \
    {                                                                                          \
        T *v = shmem_calloc(NV, sizeof(T));                                                    \
        int to = (me + 1) % n;                                                                 \
        shmem_barrier_all();                                                                   \
        SHT_CHECK(shmem_##NAME##_test(&v[0], SHMEM_CMP_EQ, 0), #NAME " test eq");              \
        SHT_CHECK(!shmem_##NAME##_test(&v[0], SHMEM_CMP_NE, 0), #NAME " test ne");             \
        SHT_CHECK(shmem_##NAME##_test(&v[0], SHMEM_CMP_LT, 1), #NAME " test lt");              \
        SHT_CHECK(shmem_##NAME##_test(&v[0], SHMEM_CMP_LE, 0), #NAME " test le");              \
        SHT_CHECK(!shmem_##NAME##_test(&v[0], SHMEM_CMP_GT, 0), #NAME " test gt");             \
        SHT_CHECK(shmem_##NAME##_test(&v[0], SHMEM_CMP_GE, 0), #NAME " test ge");              \
        shmem_barrier_all();                                                                   \
        /* element 2 first, then the others: any sees 2, some sees 2 */                        \
        shmem_##NAME##_p(&v[2], (T)7, to);                                                     \
        size_t idx = shmem_##NAME##_wait_until_any(v, NV, NULL, SHMEM_CMP_EQ, (T)7);           \
        SHT_CHECK(idx == 2, #NAME " wait_until_any index %zu", idx);                           \
        size_t ids[NV];                                                                        \
        size_t cnt = shmem_##NAME##_test_some(v, NV, ids, NULL, SHMEM_CMP_EQ, (T)7);           \
        SHT_CHECK(cnt == 1 && ids[0] == 2, #NAME " test_some %zu", cnt);                       \
        SHT_CHECK(shmem_##NAME##_test_any(v, NV, NULL, SHMEM_CMP_GT, (T)7) == SIZE_MAX,        \
                  #NAME " test_any none");                                                     \
        int st[NV] = {0, 0, 1, 0, 0};                                                          \
        SHT_CHECK(shmem_##NAME##_wait_until_any(v, NV, (int[NV]){1, 1, 1, 1, 1},             \
                                                SHMEM_CMP_EQ, (T)7) == SIZE_MAX,               \
                  #NAME " any all masked");                                                    \
        shmem_barrier_all();                                                                   \
        for (int i = 0; i < NV; i++)                                                           \
            if (i != 2)                                                                        \
                shmem_##NAME##_p(&v[i], (T)(i + 1), to);                                       \
        shmem_##NAME##_wait_until_all(v, NV, st, SHMEM_CMP_GT, (T)0);                          \
        SHT_CHECK(shmem_##NAME##_test_all(v, NV, NULL, SHMEM_CMP_NE, (T)0), #NAME " test_all"); \
        T want[NV] = {1, 2, 7, 4, 5};                                                          \
        shmem_##NAME##_wait_until_all_vector(v, NV, NULL, SHMEM_CMP_EQ, want);                 \
        SHT_CHECK(shmem_##NAME##_test_all_vector(v, NV, NULL, SHMEM_CMP_EQ, want),             \
                  #NAME " test_all_vector");                                                   \
        T want2[NV] = {9, 9, 7, 9, 5};                                                         \
        cnt = shmem_##NAME##_wait_until_some_vector(v, NV, ids, NULL, SHMEM_CMP_EQ, want2);    \
        SHT_CHECK(cnt == 2 && ids[0] == 2 && ids[1] == 4, #NAME " some_vector %zu", cnt);      \
        cnt = shmem_##NAME##_test_some_vector(v, NV, ids, st, SHMEM_CMP_EQ, want2);            \
        SHT_CHECK(cnt == 1 && ids[0] == 4, #NAME " test_some_vector masked %zu", cnt);         \
        idx = shmem_##NAME##_wait_until_any_vector(v, NV, st, SHMEM_CMP_EQ, want2);            \
        SHT_CHECK(idx == 4, #NAME " any_vector %zu", idx);                                     \
        idx = shmem_##NAME##_test_any_vector(v, NV, NULL, SHMEM_CMP_LT, want);                 \
        SHT_CHECK(idx == SIZE_MAX, #NAME " test_any_vector none");                             \
        cnt = shmem_##NAME##_wait_until_some(v, NV, ids, NULL, SHMEM_CMP_GE, (T)4);            \
        SHT_CHECK(cnt == 3, #NAME " wait_until_some %zu", cnt);                                \
        shmem_##NAME##_wait_until(&v[4], SHMEM_CMP_EQ, (T)5);                                  \
        shmem_barrier_all();                                                                   \
        shmem_free(v);                                                                         \
    }

int main(void)
{
    sht_init();
    int me = sht_me, n = sht_npes;

    RDMX_SHMEM_SYNC_TYPES(TEST_SYNC)

    /* fence orders puts to one PE: data, fence, flag */
    long *data = shmem_calloc(64, sizeof(long));
    long *flag = shmem_calloc(1, sizeof(long));
    shmem_barrier_all();
    long src[64];
    for (int i = 0; i < 64; i++)
        src[i] = me * 100 + i;
    int to = (me + 1) % n, from = (me + n - 1) % n;
    shmem_long_put_nbi(data, src, 64, to);
    shmem_fence();
    shmem_long_p(flag, 1, to);
    shmem_long_wait_until(flag, SHMEM_CMP_EQ, 1);
    for (int i = 0; i < 64; i++)
        SHT_CHECK(data[i] == from * 100 + i, "data before flag, elem %d", i);
    shmem_barrier_all();

    /* locks: increments under the lock are never lost */
    for (int i = 0; i < 50; i++) {
        shmem_set_lock(&lock_word);
        long c = shmem_long_g(&crit_count, 0);
        shmem_long_p(&crit_count, c + 1, 0);
        shmem_clear_lock(&lock_word);
    }
    int tries = 0;
    while (shmem_test_lock(&lock_word) != 0)
        tries++;
    long c = shmem_long_g(&crit_count, 0);
    shmem_long_p(&crit_count, c + 1, 0);
    shmem_clear_lock(&lock_word);
    shmem_barrier_all();
    if (me == 0)
        SHT_CHECK(crit_count == 51L * n, "lock counter %ld, want %ld", crit_count, 51L * n);

    /* contexts: created, used, quieted, destroyed; a team context's PEs are team ranks */
    shmem_ctx_t ctx;
    SHT_CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) == 0, "ctx_create");
    shmem_ctx_long_p(ctx, &data[0], 4242, to);
    shmem_ctx_quiet(ctx);
    shmem_team_t team;
    SHT_CHECK(shmem_ctx_get_team(ctx, &team) == 0 && team == SHMEM_TEAM_WORLD, "ctx team");
    shmem_ctx_destroy(ctx);
    SHT_CHECK(shmem_ctx_create(1L << 20, &ctx) != 0 && ctx == SHMEM_CTX_INVALID,
              "unknown option refused");
    shmem_barrier_all();
    SHT_CHECK(data[0] == 4242, "context put");
    shmem_free(data);
    shmem_free(flag);
    return sht_finish();
}
