/* SPDX-License-Identifier: MIT
 * Atomic memory operations. A target whose heap is mapped here and whose
 * memory the rma layer changes with atomic instructions gets the CPU's
 * atomic instruction on the mapping; every other target goes through the
 * rma layer's accumulate path (rx_rma_do), which follows one rule per
 * target memory (rma.h) so that both kinds of origin stay atomic with
 * respect to each other: the network's atomics and the active-message
 * handler use atomic instructions on mapped memory as well, and memory only
 * reachable by cross-memory attach (static data of other PEs) is changed
 * under its accumulate lock by everyone, this PE included. */
#include "shmem_impl.h"
#include "op/op.h"
#include "team_impl.h"
#include "util/status.h"

#include <string.h>

/* The CPU's atomic on 4 or 8 bytes; the operation on bits is the same for
 * every type of that size (two's complement sums; floats are only read,
 * written and swapped). */
#define RX_SH_CPU_AMO(UT)                                                                    \
    static void rx_sh_cpu_##UT(int op, UT *p, const void *val, const void *cmp, void *fetched) \
    {                                                                                        \
        UT v = 0, old;                                                                       \
        if (val)                                                                             \
            memcpy(&v, val, sizeof v);                                                       \
        switch (op) {                                                                        \
        case RX_OP_SUM: old = __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); break;             \
        case RX_OP_BAND: old = __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); break;            \
        case RX_OP_BOR: old = __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); break;              \
        case RX_OP_BXOR: old = __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST); break;            \
        case RX_OP_REPLACE: old = __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); break;        \
        case RX_OP_NO_OP: old = __atomic_load_n(p, __ATOMIC_SEQ_CST); break;                 \
        default: {                                                                           \
            UT c;                                                                            \
            memcpy(&c, cmp, sizeof c);                                                       \
            old = c;                                                                         \
            __atomic_compare_exchange_n(p, &old, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);  \
        }                                                                                    \
        }                                                                                    \
        if (fetched)                                                                         \
            memcpy(fetched, &old, sizeof old);                                               \
    }
RX_SH_CPU_AMO(uint32_t)
RX_SH_CPU_AMO(uint64_t)

void rx_sh_amo(int op, int basic, size_t esize, void *dest, const void *val, const void *cmp,
               void *fetched, int pe, const char *fn)
{
    rx_sh_check_init(fn);
    rx_sh_check_pe(pe, fn);
    uint64_t off;
    rx_sh_seg_t *s = rx_sh_find(dest, esize, fn, &off);
    if (off % esize)
        rx_sh_fatal(fn, "%p is not aligned to its %zu-byte type", dest, esize);
    rx_win_tgt_t *t = &s->win->tgt[pe];
    if (t->kind == RX_RMA_DIRECT && !t->acclock && off + esize <= t->size) {
        /* mapped: a CPU atomic, no lock (shmem_impl.h) */
        void *p = t->base + off;
        if (esize == 4)
            rx_sh_cpu_uint32_t(op, p, val, cmp, fetched);
        else
            rx_sh_cpu_uint64_t(op, p, val, cmp, fetched);
        return;
    }
    RX_SH_CS_SCOPE;
    const rx_dtype_t *dt = rx_dtype_get(RX_HANDLE(RX_KIND_DATATYPE, basic));
    rx_rma_op_t o = {.target = pe, .disp = off, .tcount = 1, .tdt = dt, .obuf = val,
                     .ocount = val ? 1 : 0, .odt = dt};
    char junk[8];
    if (op == RX_SH_CSWAP) {
        o.kind = RX_RMA_OP_CAS;
        o.cbuf = cmp;
    } else {
        o.kind = fetched || op == RX_OP_NO_OP ? RX_RMA_OP_GACC : RX_RMA_OP_ACC;
        o.op = rx_opobj_get(RX_HANDLE(RX_KIND_OP, op));
    }
    if (o.kind != RX_RMA_OP_ACC) {
        o.rbuf = fetched ? fetched : junk;
        o.rcount = 1;
        o.rdt = dt;
    }
    if (op == RX_OP_NO_OP) {
        o.obuf = NULL;
        o.ocount = 0;
    }
    int rc = rx_rma_do(s->win, &o, NULL);
    if (rc == RX_OK)
        rc = rx_win_flush(s->win, pe);
    if (rc != RX_OK)
        rx_sh_fatal(fn, "atomic on PE %d: %s", pe,
                    rc == RX_ERR_INVAL ? "outside its symmetric memory" : rx_status_string(rc));
}

/* rdmx basic datatype ids of the atomic types (src/dtype/basic.h) */
_Static_assert(sizeof(size_t) == 8 && sizeof(ptrdiff_t) == 8 && sizeof(long) == 8,
               "the atomic types are mapped for LP64");
#define RX_SH_B_int 7
#define RX_SH_B_long 9
#define RX_SH_B_longlong 11
#define RX_SH_B_uint 8
#define RX_SH_B_ulong 10
#define RX_SH_B_ulonglong 12
#define RX_SH_B_int32 20
#define RX_SH_B_int64 21
#define RX_SH_B_uint32 24
#define RX_SH_B_uint64 25
#define RX_SH_B_size 25
#define RX_SH_B_ptrdiff 21
#define RX_SH_B_float 13
#define RX_SH_B_double 14

#define RX_SH_AMO_CALL(N, OP, D, V, C, F, PE, NAME)                                          \
    rx_sh_amo(OP, RX_SH_B_##N, sizeof *(D), D, V, C, F, rx_sh_ctx_pe(ctx, PE, NAME), NAME)

/* fetching operation OPNAME (with value argument when HASV) and its _nbi */
#define RX_SH_FETCH_OP(T, N, OPNAME, OP)                                                     \
    T shmem_ctx_##N##_atomic_fetch_##OPNAME(shmem_ctx_t ctx, T *d, T v, int pe)              \
    {                                                                                        \
        T r;                                                                                 \
        RX_SH_AMO_CALL(N, OP, d, &v, NULL, &r, pe, "shmem_" #N "_atomic_fetch_" #OPNAME);    \
        return r;                                                                            \
    }                                                                                        \
    T shmem_##N##_atomic_fetch_##OPNAME(T *d, T v, int pe)                                   \
    {                                                                                        \
        return shmem_ctx_##N##_atomic_fetch_##OPNAME(SHMEM_CTX_DEFAULT, d, v, pe);           \
    }                                                                                        \
    void shmem_ctx_##N##_atomic_fetch_##OPNAME##_nbi(shmem_ctx_t ctx, T *f, T *d, T v, int pe) \
    {                                                                                        \
        if (!f)                                                                              \
            rx_sh_fatal("shmem_" #N "_atomic_fetch_" #OPNAME "_nbi", "fetch is NULL");       \
        RX_SH_AMO_CALL(N, OP, d, &v, NULL, f, pe, "shmem_" #N "_atomic_fetch_" #OPNAME "_nbi"); \
    }                                                                                        \
    void shmem_##N##_atomic_fetch_##OPNAME##_nbi(T *f, T *d, T v, int pe)                    \
    {                                                                                        \
        shmem_ctx_##N##_atomic_fetch_##OPNAME##_nbi(SHMEM_CTX_DEFAULT, f, d, v, pe);         \
    }                                                                                        \
    void shmem_ctx_##N##_atomic_##OPNAME(shmem_ctx_t ctx, T *d, T v, int pe)                 \
    {                                                                                        \
        RX_SH_AMO_CALL(N, OP, d, &v, NULL, NULL, pe, "shmem_" #N "_atomic_" #OPNAME);        \
    }                                                                                        \
    void shmem_##N##_atomic_##OPNAME(T *d, T v, int pe)                                      \
    {                                                                                        \
        shmem_ctx_##N##_atomic_##OPNAME(SHMEM_CTX_DEFAULT, d, v, pe);                        \
    }

#define RX_SH_STD_AMO(T, N)                                                                  \
    RX_SH_FETCH_OP(T, N, add, RX_OP_SUM)                                                     \
    T shmem_ctx_##N##_atomic_fetch_inc(shmem_ctx_t ctx, T *d, int pe)                        \
    {                                                                                        \
        return shmem_ctx_##N##_atomic_fetch_add(ctx, d, (T)1, pe);                           \
    }                                                                                        \
    T shmem_##N##_atomic_fetch_inc(T *d, int pe)                                             \
    {                                                                                        \
        return shmem_ctx_##N##_atomic_fetch_add(SHMEM_CTX_DEFAULT, d, (T)1, pe);             \
    }                                                                                        \
    void shmem_ctx_##N##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, T *f, T *d, int pe)           \
    {                                                                                        \
        shmem_ctx_##N##_atomic_fetch_add_nbi(ctx, f, d, (T)1, pe);                           \
    }                                                                                        \
    void shmem_##N##_atomic_fetch_inc_nbi(T *f, T *d, int pe)                                \
    {                                                                                        \
        shmem_ctx_##N##_atomic_fetch_add_nbi(SHMEM_CTX_DEFAULT, f, d, (T)1, pe);             \
    }                                                                                        \
    void shmem_ctx_##N##_atomic_inc(shmem_ctx_t ctx, T *d, int pe)                           \
    {                                                                                        \
        shmem_ctx_##N##_atomic_add(ctx, d, (T)1, pe);                                        \
    }                                                                                        \
    void shmem_##N##_atomic_inc(T *d, int pe)                                                \
    {                                                                                        \
        shmem_ctx_##N##_atomic_add(SHMEM_CTX_DEFAULT, d, (T)1, pe);                          \
    }                                                                                        \
    T shmem_ctx_##N##_atomic_compare_swap(shmem_ctx_t ctx, T *d, T c, T v, int pe)           \
    {                                                                                        \
        T r;                                                                                 \
        RX_SH_AMO_CALL(N, RX_SH_CSWAP, d, &v, &c, &r, pe, "shmem_" #N "_atomic_compare_swap"); \
        return r;                                                                            \
    }                                                                                        \
    T shmem_##N##_atomic_compare_swap(T *d, T c, T v, int pe)                                \
    {                                                                                        \
        return shmem_ctx_##N##_atomic_compare_swap(SHMEM_CTX_DEFAULT, d, c, v, pe);          \
    }                                                                                        \
    void shmem_ctx_##N##_atomic_compare_swap_nbi(shmem_ctx_t ctx, T *f, T *d, T c, T v, int pe) \
    {                                                                                        \
        if (!f)                                                                              \
            rx_sh_fatal("shmem_" #N "_atomic_compare_swap_nbi", "fetch is NULL");            \
        RX_SH_AMO_CALL(N, RX_SH_CSWAP, d, &v, &c, f, pe, "shmem_" #N "_atomic_compare_swap_nbi"); \
    }                                                                                        \
    void shmem_##N##_atomic_compare_swap_nbi(T *f, T *d, T c, T v, int pe)                   \
    {                                                                                        \
        shmem_ctx_##N##_atomic_compare_swap_nbi(SHMEM_CTX_DEFAULT, f, d, c, v, pe);          \
    }
RDMX_SHMEM_AMO_TYPES(RX_SH_STD_AMO)

#define RX_SH_EXT_AMO(T, N)                                                                  \
    T shmem_ctx_##N##_atomic_fetch(shmem_ctx_t ctx, const T *s, int pe)                      \
    {                                                                                        \
        T r;                                                                                 \
        RX_SH_AMO_CALL(N, RX_OP_NO_OP, (T *)s, NULL, NULL, &r, pe, "shmem_" #N "_atomic_fetch"); \
        return r;                                                                            \
    }                                                                                        \
    T shmem_##N##_atomic_fetch(const T *s, int pe)                                           \
    {                                                                                        \
        return shmem_ctx_##N##_atomic_fetch(SHMEM_CTX_DEFAULT, s, pe);                       \
    }                                                                                        \
    void shmem_ctx_##N##_atomic_fetch_nbi(shmem_ctx_t ctx, T *f, const T *s, int pe)         \
    {                                                                                        \
        if (!f)                                                                              \
            rx_sh_fatal("shmem_" #N "_atomic_fetch_nbi", "fetch is NULL");                   \
        RX_SH_AMO_CALL(N, RX_OP_NO_OP, (T *)s, NULL, NULL, f, pe, "shmem_" #N "_atomic_fetch_nbi"); \
    }                                                                                        \
    void shmem_##N##_atomic_fetch_nbi(T *f, const T *s, int pe)                              \
    {                                                                                        \
        shmem_ctx_##N##_atomic_fetch_nbi(SHMEM_CTX_DEFAULT, f, s, pe);                       \
    }                                                                                        \
    void shmem_ctx_##N##_atomic_set(shmem_ctx_t ctx, T *d, T v, int pe)                      \
    {                                                                                        \
        RX_SH_AMO_CALL(N, RX_OP_REPLACE, d, &v, NULL, NULL, pe, "shmem_" #N "_atomic_set");  \
    }                                                                                        \
    void shmem_##N##_atomic_set(T *d, T v, int pe)                                           \
    {                                                                                        \
        shmem_ctx_##N##_atomic_set(SHMEM_CTX_DEFAULT, d, v, pe);                             \
    }                                                                                        \
    T shmem_ctx_##N##_atomic_swap(shmem_ctx_t ctx, T *d, T v, int pe)                        \
    {                                                                                        \
        T r;                                                                                 \
        RX_SH_AMO_CALL(N, RX_OP_REPLACE, d, &v, NULL, &r, pe, "shmem_" #N "_atomic_swap");   \
        return r;                                                                            \
    }                                                                                        \
    T shmem_##N##_atomic_swap(T *d, T v, int pe)                                             \
    {                                                                                        \
        return shmem_ctx_##N##_atomic_swap(SHMEM_CTX_DEFAULT, d, v, pe);                     \
    }                                                                                        \
    void shmem_ctx_##N##_atomic_swap_nbi(shmem_ctx_t ctx, T *f, T *d, T v, int pe)           \
    {                                                                                        \
        if (!f)                                                                              \
            rx_sh_fatal("shmem_" #N "_atomic_swap_nbi", "fetch is NULL");                    \
        RX_SH_AMO_CALL(N, RX_OP_REPLACE, d, &v, NULL, f, pe, "shmem_" #N "_atomic_swap_nbi"); \
    }                                                                                        \
    void shmem_##N##_atomic_swap_nbi(T *f, T *d, T v, int pe)                                \
    {                                                                                        \
        shmem_ctx_##N##_atomic_swap_nbi(SHMEM_CTX_DEFAULT, f, d, v, pe);                     \
    }
RDMX_SHMEM_EXT_AMO_TYPES(RX_SH_EXT_AMO)

#define RX_SH_BIT_AMO(T, N)                                                                  \
    RX_SH_FETCH_OP(T, N, and, RX_OP_BAND)                                                    \
    RX_SH_FETCH_OP(T, N, or, RX_OP_BOR) RX_SH_FETCH_OP(T, N, xor, RX_OP_BXOR)
RDMX_SHMEM_BIT_AMO_TYPES(RX_SH_BIT_AMO)
