/* SPDX-License-Identifier: MIT
 * Puts and gets of every standard type and size, contiguous, strided,
 * single elements and non-blocking, into the symmetric heap and into static
 * data (global variables), checked against the values each PE wrote; put
 * with signal; shmem_ptr and shmem_addr_accessible. */
#include "shtest.h"

#include <stdint.h>

#define N 37
static long static_arr[N * 8];   /* .bss */
static int static_init[4] = {1, 2, 3, 4}; /* .data */
static uint64_t static_sig;

/* value of element i written by PE p (fits every type) */
#define VAL(T, p, i) ((T)(((p) * 7 + (i) * 3 + 1) % 100))

#define TEST_TYPE(T, NAME)                                                                     \
    {                                                                                          \
        T *dst = shmem_calloc(4 * N, sizeof(T));                                               \
        T src[4 * N], got[4 * N];                                                              \
        for (int i = 0; i < 4 * N; i++)                                                        \
            src[i] = VAL(T, me, i);                                                            \
        shmem_##NAME##_put(dst, src, N, right);                                                \
        shmem_##NAME##_put_nbi(dst + N, src + N, N, right);                                    \
        shmem_##NAME##_p(dst + 2 * N, src[2 * N], right);                                      \
        shmem_##NAME##_iput(dst + 2 * N + 1, src + 2 * N + 1, 2, 3, N / 3, right);             \
        shmem_barrier_all();                                                                   \
        for (int i = 0; i < 2 * N; i++)                                                        \
            SHT_CHECK(dst[i] == VAL(T, left, i), #NAME " put elem %d", i);                     \
        SHT_CHECK(dst[2 * N] == VAL(T, left, 2 * N), #NAME " p");                              \
        for (int k = 0; k < N / 3; k++)                                                        \
            SHT_CHECK(dst[2 * N + 1 + 2 * k] == VAL(T, left, 2 * N + 1 + 3 * k),             \
                      #NAME " iput elem %d", k);                                               \
        memset(got, 0, sizeof got);                                                            \
        shmem_##NAME##_get(got, dst, N, right);                                                \
        shmem_##NAME##_get_nbi(got + N, dst + N, N, right);                                    \
        shmem_quiet();                                                                         \
        for (int i = 0; i < 2 * N; i++)                                                        \
            SHT_CHECK(got[i] == VAL(T, me, i), #NAME " get elem %d", i);                       \
        SHT_CHECK(shmem_##NAME##_g(dst + 2 * N, right) == VAL(T, me, 2 * N), #NAME " g");      \
        memset(got, 0, sizeof got);                                                            \
        shmem_##NAME##_iget(got, dst, 3, 2, N / 3, right);                                     \
        for (int k = 0; k < N / 3; k++)                                                        \
            SHT_CHECK(got[3 * k] == VAL(T, me, 2 * k), #NAME " iget elem %d", k);              \
        shmem_barrier_all();                                                                   \
        shmem_free(dst);                                                                       \
    }

#define TEST_SIZED(B)                                                                          \
    {                                                                                          \
        unsigned char *dst = shmem_calloc(4 * N, (B) / 8);                                     \
        unsigned char src[4 * N * ((B) / 8)], got[4 * N * ((B) / 8)];                          \
        for (size_t i = 0; i < sizeof src; i++)                                                \
            src[i] = (unsigned char)(me * 31 + i);                                             \
        shmem_put##B(dst, src, N, right);                                                      \
        shmem_put##B##_nbi(dst + N * (B) / 8, src + N * (B) / 8, N, right);                    \
        shmem_iput##B(dst + 2 * N * (B) / 8, src, 2, 1, N, right);                             \
        shmem_barrier_all();                                                                   \
        for (size_t i = 0; i < 2 * N * (B) / 8; i++)                                           \
            SHT_CHECK(dst[i] == (unsigned char)(left * 31 + i), "put%d byte %zu", B, i);       \
        for (size_t k = 0; k < N; k++)                                                         \
            for (size_t b = 0; b < (B) / 8; b++)                                               \
                SHT_CHECK(dst[2 * N * (B) / 8 + 2 * k * (B) / 8 + b] ==                        \
                              (unsigned char)(left * 31 + k * (B) / 8 + b),                    \
                          "iput%d elem %zu", B, k);                                            \
        shmem_get##B(got, dst, N, right);                                                      \
        shmem_get##B##_nbi(got + N * (B) / 8, dst + N * (B) / 8, N, right);                    \
        shmem_quiet();                                                                         \
        for (size_t i = 0; i < 2 * N * (B) / 8; i++)                                           \
            SHT_CHECK(got[i] == (unsigned char)(me * 31 + i), "get%d byte %zu", B, i);         \
        shmem_iget##B(got, dst + 2 * N * (B) / 8, 1, 2, N, right);                             \
        for (size_t k = 0; k < N; k++)                                                         \
            SHT_CHECK(got[k * (B) / 8] == (unsigned char)(me * 31 + k * (B) / 8),              \
                      "iget%d elem %zu", B, k);                                                \
        shmem_barrier_all();                                                                   \
        shmem_free(dst);                                                                       \
    }

int main(void)
{
    sht_init();
    int me = sht_me, n = sht_npes;
    int right = (me + 1) % n, left = (me + n - 1) % n;

    RDMX_SHMEM_RMA_TYPES(TEST_TYPE)
    RDMX_SHMEM_RMA_SIZES(TEST_SIZED)

    /* putmem / getmem, large and unaligned, on the heap */
    size_t big = (3u << 20) + 13;
    char *h = shmem_malloc(big), *loc = malloc(big);
    for (size_t i = 0; i < big; i++)
        loc[i] = (char)(me + i * 7);
    shmem_putmem(h, loc, big, right);
    shmem_barrier_all();
    size_t bad = 0;
    for (size_t i = 0; i < big; i++)
        bad += h[i] != (char)(left + i * 7);
    SHT_CHECK(bad == 0, "putmem 3 MiB: %zu bytes wrong", bad);
    memset(loc, 0, big);
    shmem_getmem(loc + 1, h + 5, big - 5, right);
    bad = 0;
    for (size_t i = 0; i < big - 5; i++)
        bad += loc[i + 1] != (char)(me + (i + 5) * 7);
    SHT_CHECK(bad == 0, "getmem unaligned: %zu bytes wrong", bad);
    shmem_barrier_all();

    /* the sizes and alignments of the mapped copy's inline small copy (up
     * to 16 bytes), of its vector loop (2 KiB to 64 KiB) and either side of
     * them: exact bytes, neighbours untouched */
    static const size_t vsz[] = {1,    2,    3,    4,    5,     7,     8,     9,    15,
                                 16,   17,   2047, 2048, 2049,  4096,  4127,  16384, 65535,
                                 65536, 65537};
    static const size_t voff[] = {0, 1, 16, 31, 33, 63};
    size_t vmax = 65537 + 128;
    char *vh = shmem_malloc(vmax), *vl = malloc(vmax);
    for (size_t z = 0; z < sizeof vsz / sizeof *vsz; z++)
        for (size_t a = 0; a < sizeof voff / sizeof *voff; a++) {
            size_t sz = vsz[z], ro = voff[a], lo = voff[(a + 2) % 6];
            /* put: right's vh[ro ..] from vl[lo ..] */
            memset(vh, 0x5a, vmax);
            for (size_t i = 0; i < vmax; i++)
                vl[i] = (char)(me * 13 + i * 3 + z);
            shmem_barrier_all();
            shmem_putmem(vh + ro, vl + lo, sz, right);
            shmem_barrier_all();
            bad = 0;
            for (size_t i = 0; i < vmax; i++) {
                char want = i >= ro && i < ro + sz ? (char)(left * 13 + (i - ro + lo) * 3 + z) : 0x5a;
                bad += vh[i] != want;
            }
            SHT_CHECK(bad == 0, "putmem %zu at offsets %zu/%zu: %zu bytes wrong", sz, ro, lo, bad);
            /* get: vl[lo ..] from right's vh[ro ..] */
            memset(vl, 0x33, vmax);
            shmem_getmem(vl + lo, vh + ro, sz, right);
            bad = 0;
            for (size_t i = 0; i < vmax; i++) {
                char want = i >= lo && i < lo + sz ? (char)(me * 13 + i * 3 + z) : 0x33;
                bad += vl[i] != want;
            }
            SHT_CHECK(bad == 0, "getmem %zu at offsets %zu/%zu: %zu bytes wrong", sz, ro, lo, bad);
            shmem_barrier_all();
        }
    free(vl);
    shmem_free(vh);

    /* static data: .bss and .data, by putmem, typed put, p / g */
    long lsrc[N];
    for (int i = 0; i < N; i++)
        lsrc[i] = me * 1000 + i;
    shmem_long_put(static_arr + N, lsrc, N, right);
    shmem_int_p(&static_init[2], 100 + me, right);
    shmem_barrier_all();
    for (int i = 0; i < N; i++)
        SHT_CHECK(static_arr[N + i] == left * 1000 + i, "static put elem %d: %ld", i,
                  static_arr[N + i]);
    SHT_CHECK(static_init[2] == 100 + left, "static .data p: %d", static_init[2]);
    SHT_CHECK(static_init[3] == 4, ".data neighbour changed: %d", static_init[3]);
    SHT_CHECK(shmem_int_g(&static_init[2], right) == 100 + me, "static g");
    long lgot[N];
    shmem_long_get(lgot, static_arr + N, N, right);
    for (int i = 0; i < N; i++)
        SHT_CHECK(lgot[i] == me * 1000 + i, "static get elem %d", i);

    /* put with signal: data then signal; the receiver waits for the signal */
    long *data = shmem_malloc(N * sizeof(long));
    uint64_t *sig = shmem_calloc(1, sizeof *sig);
    shmem_barrier_all();
    shmem_long_put_signal(data, lsrc, N, sig, 1 + me, SHMEM_SIGNAL_SET, right);
    uint64_t sv = shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 1 + left);
    SHT_CHECK(sv == (uint64_t)(1 + left), "signal value %llu", (unsigned long long)sv);
    for (int i = 0; i < N; i++)
        SHT_CHECK(data[i] == left * 1000 + i, "put_signal data elem %d", i);
    shmem_barrier_all();
    /* signal add into static data from every PE */
    shmem_putmem_signal_nbi(data, lsrc, 8, &static_sig, 1, SHMEM_SIGNAL_ADD, 0);
    shmem_quiet();
    if (me == 0) {
        shmem_signal_wait_until(&static_sig, SHMEM_CMP_EQ, (uint64_t)n);
        SHT_CHECK(shmem_signal_fetch(&static_sig) == (uint64_t)n, "signal add count");
    }
    shmem_barrier_all();

    /* shmem_ptr / shmem_addr_accessible */
    SHT_CHECK(shmem_ptr(data, me) == data, "shmem_ptr to self");
    long *rp = shmem_ptr(data, right);
    /* RDMX_RMA_EMULATE=1 reaches every other PE by messages: nothing mapped */
    const char *emu = getenv("RDMX_RMA_EMULATE");
    int local = shmem_team_translate_pe(SHMEM_TEAM_WORLD, right, SHMEM_TEAM_SHARED) >= 0;
    if ((emu && !strcmp(emu, "1") && right != me) || !local)
        SHT_CHECK(rp == NULL, "shmem_ptr of a PE emulated or on another node");
    else
        SHT_CHECK(rp != NULL, "shmem_ptr of the heap within the node");
    if (rp)
        SHT_CHECK(rp[3] == me * 1000 + 3, "through shmem_ptr: %ld", rp[3]);
    SHT_CHECK(shmem_addr_accessible(data, right), "heap accessible");
    SHT_CHECK(shmem_addr_accessible(&static_arr[1], right), "static data accessible");
    SHT_CHECK(!shmem_addr_accessible(lsrc, right), "stack not accessible");
    SHT_CHECK(!shmem_addr_accessible(data, n), "PE n not accessible");
    SHT_CHECK(shmem_ptr(lsrc, right) == NULL, "shmem_ptr of the stack");
    SHT_CHECK(shmem_pe_accessible(right) && !shmem_pe_accessible(-1), "pe_accessible");
    free(loc);
    shmem_barrier_all();
    shmem_free(data);
    shmem_free(sig);
    shmem_free(h);
    return sht_finish();
}
