/* SPDX-License-Identifier: MIT
 * The deprecated active-set collectives of 1.5: every active set of the
 * job with logPE_stride 0, 1 and 2 and every size (sets that leave PEs out
 * included) runs shmem_barrier, the active-set shmem_sync,
 * shmem_broadcast/collect/fcollect/alltoall/alltoalls{32,64} and an
 * int sum_to_all, twice, alternating two pSync arrays as 1.4 programs do;
 * every result is checked, the root's dest of a broadcast stays untouched,
 * and pSync is SHMEM_SYNC_VALUE after every call. Every to_all of 1.5's
 * table (types and operations) runs on the world, on a strided set and on
 * a set without PE 0, in place too. Argument "mt": the same under
 * SHMEM_THREAD_MULTIPLE. Arguments "outside" and "beyond":
 * misuse that must end the job (CMakeLists.txt). */
#include "shtest.h"

#include <complex.h>
#include <stdint.h>

#define SYNCN                                                                                  \
    (SHMEM_BCAST_SYNC_SIZE + SHMEM_COLLECT_SYNC_SIZE + SHMEM_REDUCE_SYNC_SIZE +                \
     SHMEM_BARRIER_SYNC_SIZE + SHMEM_ALLTOALL_SYNC_SIZE + SHMEM_ALLTOALLS_SYNC_SIZE)
#define NR 11
#define MAXSETS 256

static long psync[2][SYNCN];
static int psync_turn;
static long double _Complex wrk[NR / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static uint32_t s32[256], d32[256];
static uint64_t s64[256], d64[256];
static int bar_slot[MAXSETS];
static int red_src[NR], red_dst[NR];

static long *next_psync(void)
{
    return psync[psync_turn++ & 1];
}

static void check_psync(const char *what)
{
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < SYNCN; i++)
            SHT_CHECK(psync[k][i] == SHMEM_SYNC_VALUE, "%s: pSync[%d][%d] = %ld", what, k, i,
                      psync[k][i]);
}

/* element e that member j of the set sends (to member t) in call seq */
static uint64_t val(int seq, int j, int t, int e)
{
    return (uint64_t)seq * 1000003u + (uint64_t)j * 1009u + (uint64_t)t * 101u + (uint64_t)e;
}

#define SENT 0xdeadbeefu

static void fill(void)
{
    for (int i = 0; i < 256; i++) {
        d32[i] = SENT;
        d64[i] = SENT;
    }
}

/* The collectives of one set; me_i is the caller's index in the set. */
static void run_set(int seq, int start, int log, int size, int me_i)
{
    int stride = 1 << log;
    char what[96];
    snprintf(what, sizeof what, "set (%d, %d, %d) call %d", start, log, size, seq);

    /* barrier: a put to the next member is there once the barrier returns */
    int next = start + ((me_i + 1) % size) * stride;
    shmem_int_p(&bar_slot[seq % MAXSETS], seq * 16 + me_i, next);
    shmem_barrier(start, log, size, next_psync());
    int prev = (me_i + size - 1) % size;
    SHT_CHECK(bar_slot[seq % MAXSETS] == seq * 16 + prev, "%s: barrier: slot %d", what,
              bar_slot[seq % MAXSETS]);
    shmem_sync(start, log, size, next_psync());
    check_psync(what);

    /* broadcast: the root's dest is left alone */
    int root = seq % size;
    size_t nb = (size_t)(seq % 7);
    fill();
    for (size_t e = 0; e < 16; e++) {
        s32[e] = (uint32_t)val(seq, me_i, 0, (int)e);
        s64[e] = val(seq, me_i, 1, (int)e);
    }
    shmem_broadcast32(d32, s32, nb, root, start, log, size, next_psync());
    shmem_broadcast64(d64, s64, nb + 1, root, start, log, size, next_psync());
    for (size_t e = 0; e < 16; e++) {
        int root_keeps = me_i == root;
        uint32_t w32 = root_keeps || e >= nb ? SENT : (uint32_t)val(seq, root, 0, (int)e);
        uint64_t w64 = root_keeps || e >= nb + 1 ? SENT : val(seq, root, 1, (int)e);
        SHT_CHECK(d32[e] == w32, "%s: broadcast32 elem %zu: %u", what, e, d32[e]);
        SHT_CHECK(d64[e] == w64, "%s: broadcast64 elem %zu", what, e);
    }
    check_psync(what);

    /* collect: member j gives (j + seq) % 3 elements; fcollect: 3 each */
    fill();
    size_t mine = (size_t)((me_i + seq) % 3);
    for (size_t e = 0; e < 3; e++) {
        s32[e] = (uint32_t)val(seq, me_i, 2, (int)e);
        s64[e] = val(seq, me_i, 3, (int)e);
    }
    shmem_collect32(d32, s32, mine, start, log, size, next_psync());
    shmem_collect64(d64, s64, mine, start, log, size, next_psync());
    size_t off = 0;
    for (int j = 0; j < size; j++)
        for (size_t e = 0; e < (size_t)((j + seq) % 3); e++, off++) {
            SHT_CHECK(d32[off] == (uint32_t)val(seq, j, 2, (int)e), "%s: collect32 %zu", what,
                      off);
            SHT_CHECK(d64[off] == val(seq, j, 3, (int)e), "%s: collect64 %zu", what, off);
        }
    SHT_CHECK(d32[off] == SENT && d64[off] == SENT, "%s: collect wrote past its end", what);
    fill();
    shmem_fcollect32(d32, s32, 3, start, log, size, next_psync());
    shmem_fcollect64(d64, s64, 3, start, log, size, next_psync());
    for (int j = 0; j < size; j++)
        for (int e = 0; e < 3; e++) {
            SHT_CHECK(d32[j * 3 + e] == (uint32_t)val(seq, j, 2, e), "%s: fcollect32", what);
            SHT_CHECK(d64[j * 3 + e] == val(seq, j, 3, e), "%s: fcollect64", what);
        }
    SHT_CHECK(d32[size * 3] == SENT, "%s: fcollect32 wrote past its end", what);
    check_psync(what);

    /* alltoall: 2 elements to each member; alltoalls: dst 2, sst 3 */
    fill();
    for (int t = 0; t < size; t++)
        for (int e = 0; e < 2; e++) {
            s32[t * 2 + e] = (uint32_t)val(seq, me_i, t, e);
            s64[t * 2 + e] = val(seq, me_i, t, e + 5);
        }
    shmem_alltoall32(d32, s32, 2, start, log, size, next_psync());
    shmem_alltoall64(d64, s64, 2, start, log, size, next_psync());
    for (int j = 0; j < size; j++)
        for (int e = 0; e < 2; e++) {
            SHT_CHECK(d32[j * 2 + e] == (uint32_t)val(seq, j, me_i, e), "%s: alltoall32", what);
            SHT_CHECK(d64[j * 2 + e] == val(seq, j, me_i, e + 5), "%s: alltoall64", what);
        }
    fill();
    for (int t = 0; t < size; t++)
        for (int e = 0; e < 2; e++) {
            s32[(t * 2 + e) * 3] = (uint32_t)val(seq, me_i, t, e + 7);
            s64[(t * 2 + e) * 3] = val(seq, me_i, t, e + 9);
        }
    shmem_alltoalls32(d32, s32, 2, 3, 2, start, log, size, next_psync());
    shmem_alltoalls64(d64, s64, 2, 3, 2, start, log, size, next_psync());
    for (int j = 0; j < size; j++)
        for (int e = 0; e < 2; e++) {
            int at = (j * 2 + e) * 2;
            SHT_CHECK(d32[at] == (uint32_t)val(seq, j, me_i, e + 7), "%s: alltoalls32", what);
            SHT_CHECK(d64[at] == val(seq, j, me_i, e + 9), "%s: alltoalls64", what);
            SHT_CHECK(d32[at + 1] == SENT && d64[at + 1] == SENT,
                      "%s: alltoalls wrote between strides", what);
        }
    check_psync(what);

    /* a reduction on every set */
    for (int i = 0; i < NR; i++) {
        red_src[i] = seq + me_i * 3 + i;
        red_dst[i] = -1;
    }
    shmem_int_sum_to_all(red_dst, red_src, NR, start, log, size, (int *)wrk, next_psync());
    for (int i = 0; i < NR; i++)
        SHT_CHECK(red_dst[i] == size * (seq + i) + 3 * size * (size - 1) / 2,
                  "%s: int_sum_to_all elem %d: %d", what, i, red_dst[i]);
    check_psync(what);
}

/* element i of set member p: small, so products and sums stay exact */
#define RV(p, i) (((p) + (i)) % 3 + 1)
#define REF_and(a, b) ((a) & (b))
#define REF_or(a, b) ((a) | (b))
#define REF_xor(a, b) ((a) ^ (b))
#define REF_max(a, b) ((a) > (b) ? (a) : (b))
#define REF_min(a, b) ((a) < (b) ? (a) : (b))
#define REF_sum(a, b) ((a) + (b))
#define REF_prod(a, b) ((a) * (b))

/* 1.5's to_all table, spelled out here so that the test checks the header */
#define BIT_TYPES(X) X(short, short) X(int, int) X(long, long) X(long long, longlong)
#define CMP_TYPES(X) BIT_TYPES(X) X(float, float) X(double, double) X(long double, longdouble)
#define ARITH_TYPES(X) CMP_TYPES(X) X(double _Complex, complexd) X(float _Complex, complexf)

#define TOALL(T, N, OP)                                                                        \
    static void toall_##N##_##OP(int start, int log, int size, int me_i, int inplace)          \
    {                                                                                          \
        static T src[NR], dst[NR];                                                             \
        for (int i = 0; i < NR; i++) {                                                         \
            src[i] = (T)RV(me_i, i);                                                           \
            dst[i] = (T)-7;                                                                    \
        }                                                                                      \
        T *out = inplace ? src : dst;                                                          \
        shmem_##N##_##OP##_to_all(out, src, NR, start, log, size, (T *)(void *)wrk,           \
                                  next_psync());                                               \
        for (int i = 0; i < NR; i++) {                                                         \
            T want = (T)RV(0, i);                                                              \
            for (int p = 1; p < size; p++)                                                     \
                want = (T)REF_##OP(want, (T)RV(p, i));                                         \
            SHT_CHECK(out[i] == want, "shmem_" #N "_" #OP "_to_all (%d, %d, %d)%s elem %d",    \
                      start, log, size, inplace ? " in place" : "", i);                        \
        }                                                                                      \
    }
#define TOALL_BIT(T, N) TOALL(T, N, and) TOALL(T, N, or) TOALL(T, N, xor)
#define TOALL_CMP(T, N) TOALL(T, N, max) TOALL(T, N, min)
#define TOALL_ARITH(T, N) TOALL(T, N, sum) TOALL(T, N, prod)
BIT_TYPES(TOALL_BIT)
CMP_TYPES(TOALL_CMP)
ARITH_TYPES(TOALL_ARITH)

#define CALL1(N, OP) toall_##N##_##OP(start, log, size, me_i, inplace);
#define CALL_BIT(T, N) CALL1(N, and) CALL1(N, or) CALL1(N, xor)
#define CALL_CMP(T, N) CALL1(N, max) CALL1(N, min)
#define CALL_ARITH(T, N) CALL1(N, sum) CALL1(N, prod)

static void every_to_all(int start, int log, int size)
{
    int d = sht_me - start;
    if (d < 0 || d % (1 << log) || d / (1 << log) >= size)
        return;
    int me_i = d / (1 << log);
    for (int inplace = 0; inplace < 2; inplace++) {
        BIT_TYPES(CALL_BIT)
        CMP_TYPES(CALL_CMP)
        ARITH_TYPES(CALL_ARITH)
    }
    check_psync("to_all");
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "mt")) { /* the library's critical section taken */
        int provided;
        shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
        if (provided != SHMEM_THREAD_MULTIPLE)
            fprintf(stderr, "FAIL: provided %d\n", provided), exit(1);
    }
    sht_init(); /* a second init does nothing */
    int me = sht_me, n = sht_npes;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < SYNCN; i++)
            psync[k][i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    /* misuse ends the job with the routine's name: a caller outside its
     * set ("outside"), a set past the last PE ("beyond") */
    if (argc > 1 && !strcmp(argv[1], "outside")) {
        if (me == n - 1)
            shmem_broadcast32(d32, s32, 1, 0, 0, 0, n - 1, psync[0]);
        shmem_barrier_all();
    }
    if (argc > 1 && !strcmp(argv[1], "beyond"))
        shmem_barrier(0, 1, n, psync[0]);

    int seq = 0, sets = 0;
    for (int log = 0; log <= 2; log++)
        for (int start = 0; start < n; start++)
            for (int size = 1; start + (size - 1) * (1 << log) < n; size++, sets++)
                for (int rep = 0; rep < 2; rep++, seq++) { /* the second: the cached team */
                    int d = me - start;
                    if (d >= 0 && d % (1 << log) == 0 && d / (1 << log) < size)
                        run_set(seq, start, log, size, d / (1 << log));
                }
    SHT_CHECK(sets < MAXSETS / 2, "%d sets", sets);

    every_to_all(0, 0, n);                   /* the world */
    every_to_all(0, 1, (n + 1) / 2);         /* the even PEs */
    if (n > 1)
        every_to_all(1, 0, n - 1);           /* all but PE 0 */
    if (n > 4)
        every_to_all(1, 2, (n - 2) / 4 + 1); /* 1, 5, ... */

    /* the world in order and shmem_barrier_all still agree with the sets */
    shmem_barrier(0, 0, n, next_psync());
    shmem_barrier_all();
    check_psync("end");
    return sht_finish();
}
