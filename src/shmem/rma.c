/* SPDX-License-Identifier: MIT
 * Puts and gets: contiguous, strided, single elements, non-blocking, with a
 * signal. A target whose symmetric memory is mapped here is one copy; any
 * other goes through the rma layer (cross-memory attach, the network's RMA,
 * or active messages), and the blocking forms complete before returning. */
#include "shmem_impl.h"
#include "core/rt.h"
#include "dtype/basic.h"
#include "op/op.h"
#include "team_impl.h"
#include "util/status.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#define RX_SH_BYTE RX_ID_MPI_BYTE

/* Copies into and out of a mapped peer's memory.
 *
 * From 2 KiB on, glibc's memcpy is `rep movsb` where the CPU has FSRM, and
 * on some CPUs (Intel Xeon with AVX-512 under KVM) `rep movsb` of a few KiB
 * out of a freshly mapped peer page is several times slower than a loop of
 * 32-byte vector loads and stores; from 64 KiB the two are equal. So
 * between RX_SH_VEC_MIN and RX_SH_VEC_MAX bytes the copy is the vector loop
 * where the CPU has AVX2, memcpy elsewhere (docs/performance.md has the
 * measurements). */
#define RX_SH_VEC_MIN 2048
#define RX_SH_VEC_MAX (64 * 1024)

#if defined(__x86_64__)
/* Non-overlapping, n >= 64: the first and last 64 bytes unaligned, the
 * middle in aligned 32-byte stores. */
__attribute__((target("avx2"))) static void rx_sh_copy_avx2(char *d, const char *s, size_t n)
{
    __m256i h0 = _mm256_loadu_si256((const __m256i *)s);
    __m256i h1 = _mm256_loadu_si256((const __m256i *)(s + 32));
    __m256i t0 = _mm256_loadu_si256((const __m256i *)(s + n - 64));
    __m256i t1 = _mm256_loadu_si256((const __m256i *)(s + n - 32));
    size_t skip = 32 - ((uintptr_t)d & 31);
    char *dd = d + skip, *end = d + n - 64;
    const char *ss = s + skip;
    for (; dd + 128 <= end; dd += 128, ss += 128) {
        __m256i a = _mm256_loadu_si256((const __m256i *)ss);
        __m256i b = _mm256_loadu_si256((const __m256i *)(ss + 32));
        __m256i c = _mm256_loadu_si256((const __m256i *)(ss + 64));
        __m256i e = _mm256_loadu_si256((const __m256i *)(ss + 96));
        _mm256_store_si256((__m256i *)dd, a);
        _mm256_store_si256((__m256i *)(dd + 32), b);
        _mm256_store_si256((__m256i *)(dd + 64), c);
        _mm256_store_si256((__m256i *)(dd + 96), e);
    }
    for (; dd < end; dd += 32, ss += 32)
        _mm256_store_si256((__m256i *)dd, _mm256_loadu_si256((const __m256i *)ss));
    _mm256_storeu_si256((__m256i *)d, h0);
    _mm256_storeu_si256((__m256i *)(d + 32), h1);
    _mm256_storeu_si256((__m256i *)(d + n - 64), t0);
    _mm256_storeu_si256((__m256i *)(d + n - 32), t1);
}
#endif

/* Copy n bytes; the ranges may overlap (a PE's own memory). Up to 16
 * bytes inline, every load before any store (so overlap is fine): a call
 * into libc's memcpy costs more than such a copy. */
static inline __attribute__((always_inline)) void rx_sh_copy(void *to, const void *from, size_t n)
{
    char *d = to;
    const char *s = from;
    if (n <= 16) {
        if (n >= 8) {
            uint64_t a, b;
            memcpy(&a, s, 8);
            memcpy(&b, s + n - 8, 8);
            memcpy(d, &a, 8);
            memcpy(d + n - 8, &b, 8);
        } else if (n >= 4) {
            uint32_t a, b;
            memcpy(&a, s, 4);
            memcpy(&b, s + n - 4, 4);
            memcpy(d, &a, 4);
            memcpy(d + n - 4, &b, 4);
        } else if (n) {
            char a = s[0], b = s[n / 2], c = s[n - 1];
            d[0] = a;
            d[n / 2] = b;
            d[n - 1] = c;
        }
        return;
    }
    if (d < s + n && s < d + n) {
        memmove(d, s, n);
        return;
    }
#if defined(__x86_64__)
    if (n >= RX_SH_VEC_MIN && n <= RX_SH_VEC_MAX && __builtin_cpu_supports("avx2")) {
        rx_sh_copy_avx2(d, s, n);
        return;
    }
#endif
    memcpy(d, s, n);
}

static void rx_sh_xfer_rma(int kind, rx_sh_seg_t *s, uint64_t off, void *local, size_t bytes,
                           int pe, int nbi, const char *fn);

/* Every check, any target: what rx_sh_xfer does not finish inline. */
__attribute__((noinline)) static void rx_sh_xfer_slow(int kind, void *sym, void *local,
                                                      size_t bytes, int pe, int nbi,
                                                      const char *fn)
{
    rx_sh_check_init(fn);
    rx_sh_check_pe(pe, fn);
    uint64_t off;
    rx_sh_seg_t *s = rx_sh_find(sym, bytes, fn, &off);
    if (!bytes)
        return;
    if (!local)
        rx_sh_fatal(fn, "NULL local buffer for %zu bytes", bytes);
    rx_win_tgt_t *t = &s->win->tgt[pe];
    if (t->kind == RX_RMA_DIRECT && off + bytes <= t->size) {
        /* mapped: no shared state of the runtime, no lock (shmem_impl.h) */
        char *tp = t->base + off, *to = kind == RX_RMA_OP_PUT ? tp : local;
        const char *from = kind == RX_RMA_OP_PUT ? local : tp;
        rx_sh_copy(to, from, bytes);
        return;
    }
    rx_sh_xfer_rma(kind, s, off, local, bytes, pe, nbi, fn);
}

/* A put or get. The common case - a nonempty range of the heap of a PE
 * whose heap is mapped here - is inline, down to the copy, with no call:
 * every routine of the family used to pass through five calls (the
 * context's PE, the put, the init and PE checks, the segment lookup) and
 * libc's memcpy, several times the instructions of this path for a small
 * put. The heap's size is 0 before shmem_init and after
 * shmem_finalize (heap.c), so the range test also stands for the init
 * check; anything else, errors included, goes to rx_sh_xfer_slow. */
static inline __attribute__((always_inline)) void rx_sh_xfer(int kind, void *sym, void *local,
                                                             size_t bytes, int pe, int nbi,
                                                             const char *fn)
{
    const rx_sh_seg_t *h = &rx_sh.seg[RX_SH_HEAP];
    uintptr_t off = (uintptr_t)sym - (uintptr_t)h->base;
    if (__builtin_expect((unsigned)pe < (unsigned)rx_sh.npes && local && bytes &&
                             off < h->size && bytes <= h->size - off,
                         1)) {
        const rx_win_tgt_t *t = &h->win->tgt[pe];
        if (t->kind == RX_RMA_DIRECT && off + bytes <= t->size) {
            /* mapped: no shared state of the runtime, no lock (shmem_impl.h) */
            char *tp = t->base + off, *to = kind == RX_RMA_OP_PUT ? tp : local;
            const char *from = kind == RX_RMA_OP_PUT ? local : tp;
            rx_sh_copy(to, from, bytes);
            return;
        }
    }
    rx_sh_xfer_slow(kind, sym, local, bytes, pe, nbi, fn);
}

/* Through the rma layer: cross-memory attach, the network, active messages. */
static void rx_sh_xfer_rma(int kind, rx_sh_seg_t *s, uint64_t off, void *local, size_t bytes,
                           int pe, int nbi, const char *fn)
{
    RX_SH_CS_SCOPE;
    const rx_dtype_t *byte = rx_dtype_get(RX_HANDLE(RX_KIND_DATATYPE, RX_SH_BYTE));
    rx_rma_op_t op = {.kind = kind, .target = pe, .disp = off, .tcount = bytes, .tdt = byte};
    if (kind == RX_RMA_OP_PUT) {
        op.obuf = local;
        op.ocount = bytes;
        op.odt = byte;
    } else {
        op.rbuf = local;
        op.rcount = bytes;
        op.rdt = byte;
    }
    int rc = rx_rma_do(s->win, &op, NULL);
    if (rc == RX_OK && !nbi)
        rc = rx_win_flush(s->win, pe);
    if (rc != RX_OK)
        rx_sh_fatal(fn, "%zu bytes %s PE %d: %s", bytes, kind == RX_RMA_OP_PUT ? "to" : "from",
                    pe, rc == RX_ERR_INVAL ? "outside its symmetric memory" : rx_status_string(rc));
}

#define RX_SH_PUT(dest, src, bytes, pe, nbi, fn)                                             \
    rx_sh_xfer(RX_RMA_OP_PUT, dest, (void *)(src), bytes, pe, nbi, fn)
#define RX_SH_GET(dest, src, bytes, pe, nbi, fn)                                             \
    rx_sh_xfer(RX_RMA_OP_GET, (void *)(src), dest, bytes, pe, nbi, fn)

void rx_sh_put(void *dest, const void *src, size_t bytes, int pe, int nbi, const char *fn)
{
    RX_SH_PUT(dest, src, bytes, pe, nbi, fn);
}

void rx_sh_get(void *dest, const void *src, size_t bytes, int pe, int nbi, const char *fn)
{
    RX_SH_GET(dest, src, bytes, pe, nbi, fn);
}

/* Whether rx_win_flush has anything to wait for or report: operations over
 * the network, active messages not yet answered, an error an answer
 * brought. Mapped and cross-memory operations are complete on return. */
static int rx_sh_win_pending(const rx_win_t *w, int pe)
{
    return w->net_tl || w->am_pending_total || (pe >= 0 && w->tgt[pe].am_err);
}

void rx_sh_quiet_pe(int pe)
{
    /* stores into mappings become visible before whatever follows; one
     * fence here instead of one per window flush (put + quiet latency) */
    atomic_thread_fence(memory_order_seq_cst);
    RX_SH_CS_SCOPE;
    for (int i = 0; i < RX_SH_NSEG; i++) {
        rx_sh_seg_t *s = &rx_sh.seg[i];
        if (!s->win || !rx_sh_win_pending(s->win, pe))
            continue;
        int rc = rx_win_flush(s->win, pe);
        if (rc != RX_OK)
            rx_sh_fatal("shmem_quiet", "%s", rx_status_string(rc));
    }
}

static size_t rx_sh_bytes(size_t nelems, size_t esize, const char *fn)
{
    if (nelems > SIZE_MAX / esize)
        rx_sh_fatal(fn, "%zu elements of %zu bytes overflow", nelems, esize);
    return nelems * esize;
}

/* Strided: element i moves between dest + i * dst and source + i * sst. */
static void rx_sh_strided(int put, char *dest, const char *src, ptrdiff_t dst, ptrdiff_t sst,
                          size_t nelems, size_t esize, int pe, const char *fn)
{
    rx_sh_check_init(fn);
    rx_sh_check_pe(pe, fn);
    for (size_t i = 0; i < nelems; i++) {
        char *d = dest + (ptrdiff_t)i * dst * (ptrdiff_t)esize;
        const char *s = src + (ptrdiff_t)i * sst * (ptrdiff_t)esize;
        if (put)
            RX_SH_PUT(d, s, esize, pe, 1, fn);
        else
            RX_SH_GET(d, s, esize, pe, 1, fn);
    }
    if (nelems)
        rx_sh_quiet_pe(pe);
}

static void rx_sh_signal(uint64_t *sig_addr, uint64_t signal, int sig_op, int pe, const char *fn)
{
    if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
        rx_sh_fatal(fn, "sig_op %d is neither SHMEM_SIGNAL_SET nor SHMEM_SIGNAL_ADD", sig_op);
    /* the data is complete at the target before the signal is written */
    rx_sh_quiet_pe(pe);
    rx_sh_amo(sig_op == SHMEM_SIGNAL_SET ? RX_OP_REPLACE : RX_OP_SUM, RX_ID_MPI_UINT64_T,
              sizeof(uint64_t), sig_addr, &signal, NULL, NULL, pe, fn);
}

static void rx_sh_put_signal(shmem_ctx_t ctx, void *dest, const void *src, size_t bytes,
                             uint64_t *sig_addr, uint64_t signal, int sig_op, int pe,
                             const char *fn)
{
    pe = rx_sh_ctx_pe(ctx, pe, fn);
    rx_sh_put(dest, src, bytes, pe, 1, fn);
    rx_sh_signal(sig_addr, signal, sig_op, pe, fn);
}

/* One routine in its context form CF and its default-context form F. */
/* The default-context forms call no other routine (rx_sh_xfer). */
#define RX_SH_CONTIG(CF, F, T, ESIZE, NAME, XFER, NBI)                                       \
    void CF(shmem_ctx_t ctx, T *d, const T *s, size_t n, int pe)                             \
    {                                                                                        \
        pe = rx_sh_ctx_pe(ctx, pe, NAME);                                                    \
        XFER(d, s, rx_sh_bytes(n, ESIZE, NAME), pe, NBI, NAME);                              \
    }                                                                                        \
    void F(T *d, const T *s, size_t n, int pe) { XFER(d, s, rx_sh_bytes(n, ESIZE, NAME), pe, NBI, NAME); }
#define RX_SH_STRIDED(CF, F, T, ESIZE, NAME, PUT)                                            \
    void CF(shmem_ctx_t ctx, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) \
    {                                                                                        \
        pe = rx_sh_ctx_pe(ctx, pe, NAME);                                                    \
        rx_sh_strided(PUT, (char *)d, (const char *)s, dst, sst, n, ESIZE, pe, NAME);        \
    }                                                                                        \
    void F(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe)                 \
    {                                                                                        \
        CF(SHMEM_CTX_DEFAULT, d, s, dst, sst, n, pe);                                        \
    }
#define RX_SH_SIGNAL(CF, F, T, ESIZE, NAME)                                                  \
    void CF(shmem_ctx_t ctx, T *d, const T *s, size_t n, uint64_t *sig, uint64_t sv, int op, \
            int pe)                                                                          \
    {                                                                                        \
        rx_sh_put_signal(ctx, d, s, rx_sh_bytes(n, ESIZE, NAME), sig, sv, op, pe, NAME);     \
    }                                                                                        \
    void F(T *d, const T *s, size_t n, uint64_t *sig, uint64_t sv, int op, int pe)           \
    {                                                                                        \
        CF(SHMEM_CTX_DEFAULT, d, s, n, sig, sv, op, pe);                                     \
    }
/* the contiguous and signal forms of one type or size, given the stems of
 * their names (int_put, put8, ...) */
#define RX_SH_FORMS(T, ESIZE, PUT, PUTNBI, GET, GETNBI, PSIG, PSIGNBI)                       \
    RX_SH_CONTIG(shmem_ctx_##PUT, shmem_##PUT, T, ESIZE, "shmem_" #PUT, RX_SH_PUT, 0)        \
    RX_SH_CONTIG(shmem_ctx_##PUTNBI, shmem_##PUTNBI, T, ESIZE, "shmem_" #PUTNBI, RX_SH_PUT, 1) \
    RX_SH_CONTIG(shmem_ctx_##GET, shmem_##GET, T, ESIZE, "shmem_" #GET, RX_SH_GET, 0)        \
    RX_SH_CONTIG(shmem_ctx_##GETNBI, shmem_##GETNBI, T, ESIZE, "shmem_" #GETNBI, RX_SH_GET, 1) \
    RX_SH_SIGNAL(shmem_ctx_##PSIG, shmem_##PSIG, T, ESIZE, "shmem_" #PSIG)                   \
    RX_SH_SIGNAL(shmem_ctx_##PSIGNBI, shmem_##PSIGNBI, T, ESIZE, "shmem_" #PSIGNBI)

/* typed forms: shmem_[ctx_]TYPENAME_OP */
#define RX_SH_RMA(T, N)                                                                      \
    RX_SH_FORMS(T, sizeof(T), N##_put, N##_put_nbi, N##_get, N##_get_nbi, N##_put_signal,    \
                N##_put_signal_nbi)                                                          \
    RX_SH_STRIDED(shmem_ctx_##N##_iput, shmem_##N##_iput, T, sizeof(T), "shmem_" #N "_iput", 1) \
    RX_SH_STRIDED(shmem_ctx_##N##_iget, shmem_##N##_iget, T, sizeof(T), "shmem_" #N "_iget", 0) \
    void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *d, T v, int pe)                               \
    {                                                                                        \
        pe = rx_sh_ctx_pe(ctx, pe, "shmem_" #N "_p");                                        \
        RX_SH_PUT(d, &v, sizeof(T), pe, 0, "shmem_" #N "_p");                                \
    }                                                                                        \
    void shmem_##N##_p(T *d, T v, int pe) { shmem_ctx_##N##_p(SHMEM_CTX_DEFAULT, d, v, pe); } \
    T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *s, int pe)                                 \
    {                                                                                        \
        T v;                                                                                 \
        pe = rx_sh_ctx_pe(ctx, pe, "shmem_" #N "_g");                                        \
        RX_SH_GET(&v, s, sizeof(T), pe, 0, "shmem_" #N "_g");                                \
        return v;                                                                            \
    }                                                                                        \
    T shmem_##N##_g(const T *s, int pe) { return shmem_ctx_##N##_g(SHMEM_CTX_DEFAULT, s, pe); }
RDMX_SHMEM_RMA_TYPES(RX_SH_RMA)

/* sized forms: B bits per element, and putmem / getmem in bytes */
#define RX_SH_SIZED(B, ESIZE)                                                                \
    RX_SH_FORMS(void, ESIZE, put##B, put##B##_nbi, get##B, get##B##_nbi, put##B##_signal,    \
                put##B##_signal_nbi)
RX_SH_SIZED(8, 1)
RX_SH_SIZED(16, 2)
RX_SH_SIZED(32, 4)
RX_SH_SIZED(64, 8)
RX_SH_SIZED(128, 16)
RX_SH_SIZED(mem, 1)
#define RX_SH_ISIZED(B)                                                                      \
    RX_SH_STRIDED(shmem_ctx_iput##B, shmem_iput##B, void, (B) / 8, "shmem_iput" #B, 1)       \
    RX_SH_STRIDED(shmem_ctx_iget##B, shmem_iget##B, void, (B) / 8, "shmem_iget" #B, 0)
RDMX_SHMEM_RMA_SIZES(RX_SH_ISIZED)
