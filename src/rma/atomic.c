/* SPDX-License-Identifier: MIT
 * Element-wise atomic accumulate on memory mapped in this process, and the
 * two locks of the window metadata (accumulate spin lock, passive-target
 * reader-writer lock). Elements of 1, 2, 4 or 8 bytes are combined with
 * compare-and-swap loops (fetch-add / exchange where the op allows), so
 * concurrent origins on one node never lose an update and never wait for the
 * target. Wider elements go under the target's accumulate lock. */
#define _GNU_SOURCE
#include "rma.h"
#include "op/op.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

static size_t rx_basic_extent(int basic)
{
    return (size_t)rx_dtype_get(RX_HANDLE(RX_KIND_DATATYPE, basic))->extent;
}

int rx_rma_native_type(int basic)
{
    size_t e = rx_basic_extent(basic);
    return e == 1 || e == 2 || e == 4 || e == 8;
}

/* Integer types whose MPI_SUM is plain two's-complement addition. */
static int rx_is_int(int basic)
{
    int c = rx_basic_class(basic);
    return c == RX_CLASS_CINT || c == RX_CLASS_FINT || c == RX_CLASS_BYTE;
}

#define RX_CAS_LOOP(T)                                                                    \
    do {                                                                                  \
        T *p = (T *)tp, old = __atomic_load_n(p, __ATOMIC_RELAXED), nv;                    \
        do {                                                                              \
            nv = old;                                                                     \
            rx_op_apply(opid, basic, ip, &nv, 1);                                         \
        } while (!__atomic_compare_exchange_n(p, &old, nv, 1, __ATOMIC_ACQ_REL,           \
                                              __ATOMIC_RELAXED));                         \
        if (fp)                                                                           \
            memcpy(fp, &old, sizeof(T));                                                  \
    } while (0)

#define RX_FAST(T)                                                                        \
    do {                                                                                  \
        T *p = (T *)tp, v, old;                                                           \
        memcpy(&v, ip, sizeof(T));                                                        \
        if (opid == RX_OP_SUM && isint)                                                   \
            old = __atomic_fetch_add(p, v, __ATOMIC_ACQ_REL);                             \
        else /* REPLACE */                                                                \
            old = __atomic_exchange_n(p, v, __ATOMIC_ACQ_REL);                            \
        if (fp)                                                                           \
            memcpy(fp, &old, sizeof(T));                                                  \
    } while (0)

void rx_rma_acc_local(const rx_opobj_t *op, int basic, const void *in, void *target,
                      size_t count, void *fetched, int atomic_ok)
{
    size_t ext = rx_basic_extent(basic);
    int opid = op->predefined;
    if (!atomic_ok || !rx_rma_native_type(basic)) {
        /* the caller holds the target's accumulate lock */
        if (fetched)
            memcpy(fetched, target, count * ext);
        if (opid != RX_OP_NO_OP) {
            /* operands that arrived inside a message may sit at any offset;
             * the kernels read typed values (long double needs 16 bytes) */
            void *tmp = NULL;
            size_t align = ext & (~ext + 1); /* what the kernels may assume */
            if (in && ((uintptr_t)in & ((align < 16 ? align : 16) - 1))) {
                tmp = aligned_alloc(16, (count * ext + 15) & ~(size_t)15);
                if (tmp) {
                    memcpy(tmp, in, count * ext);
                    in = tmp;
                }
            }
            rx_op_apply(opid, basic, in, target, count);
            free(tmp);
        }
        return;
    }
    if (opid == RX_OP_NO_OP) { /* a pure atomic read: in may be NULL */
        for (size_t i = 0; fetched && i < count; i++) {
            char *tp = (char *)target + i * ext, *fp = (char *)fetched + i * ext;
            switch (ext) {
            case 1: { uint8_t v = __atomic_load_n((uint8_t *)tp, __ATOMIC_ACQUIRE); memcpy(fp, &v, 1); break; }
            case 2: { uint16_t v = __atomic_load_n((uint16_t *)tp, __ATOMIC_ACQUIRE); memcpy(fp, &v, 2); break; }
            case 4: { uint32_t v = __atomic_load_n((uint32_t *)tp, __ATOMIC_ACQUIRE); memcpy(fp, &v, 4); break; }
            default: { uint64_t v = __atomic_load_n((uint64_t *)tp, __ATOMIC_ACQUIRE); memcpy(fp, &v, 8); break; }
            }
        }
        return;
    }
    int isint = rx_is_int(basic);
    int fast = (opid == RX_OP_SUM && isint) || opid == RX_OP_REPLACE;
    for (size_t i = 0; i < count; i++) {
        const char *ip = (const char *)in + i * ext;
        char *tp = (char *)target + i * ext;
        char *fp = fetched ? (char *)fetched + i * ext : NULL;
        if (fast) {
            switch (ext) {
            case 1: RX_FAST(uint8_t); break;
            case 2: RX_FAST(uint16_t); break;
            case 4: RX_FAST(uint32_t); break;
            default: RX_FAST(uint64_t); break;
            }
            continue;
        }
        switch (ext) {
        case 1: RX_CAS_LOOP(uint8_t); break;
        case 2: RX_CAS_LOOP(uint16_t); break;
        case 4: RX_CAS_LOOP(uint32_t); break;
        default: RX_CAS_LOOP(uint64_t); break;
        }
    }
}

int rx_rma_cas_local(int basic, const void *cmp, const void *in, void *target, void *fetched,
                     int atomic_ok)
{
    size_t ext = rx_basic_extent(basic);
    if (!atomic_ok || !rx_rma_native_type(basic)) {
        memcpy(fetched, target, ext);
        if (!memcmp(target, cmp, ext))
            memcpy(target, in, ext);
        return RX_OK;
    }
#define RX_CAS(T)                                                                         \
    do {                                                                                  \
        T c, v;                                                                           \
        memcpy(&c, cmp, sizeof c);                                                        \
        memcpy(&v, in, sizeof v);                                                         \
        __atomic_compare_exchange_n((T *)target, &c, v, 0, __ATOMIC_ACQ_REL,              \
                                    __ATOMIC_ACQUIRE);                                    \
        memcpy(fetched, &c, sizeof c);                                                    \
    } while (0)
    switch (ext) {
    case 1: RX_CAS(uint8_t); break;
    case 2: RX_CAS(uint16_t); break;
    case 4: RX_CAS(uint32_t); break;
    default: RX_CAS(uint64_t); break;
    }
#undef RX_CAS
    return RX_OK;
}

void rx_rma_fop_direct(const rx_win_tgt_t *t, const rx_opobj_t *op, int basic, const void *in,
                       void *target, void *fetched)
{
    if (!t->acclock) {
        rx_rma_acc_local(op, basic, in, target, 1, fetched, 1);
        return;
    }
    rx_rma_spin_lock(&t->ctl->acc_lock);
    rx_rma_acc_local(op, basic, in, target, 1, fetched, 0);
    rx_rma_acc_unlock(t);
}

void rx_rma_cas_direct(const rx_win_tgt_t *t, int basic, const void *cmp, const void *in,
                       void *target, void *fetched)
{
    if (!t->acclock) {
        rx_rma_cas_local(basic, cmp, in, target, fetched, 1);
        return;
    }
    rx_rma_spin_lock(&t->ctl->acc_lock);
    rx_rma_cas_local(basic, cmp, in, target, fetched, 0);
    rx_rma_acc_unlock(t);
}

/* Spin, then yield: on an oversubscribed node the holder may need our CPU. */
static inline void rx_rma_backoff(unsigned *n)
{
    if (++*n < 64) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    } else {
        sched_yield();
    }
}

void rx_rma_spin_lock(_Atomic uint32_t *l)
{
    unsigned n = 0;
    for (;;) {
        uint32_t z = 0;
        if (atomic_compare_exchange_weak_explicit(l, &z, 1, memory_order_acquire,
                                                  memory_order_relaxed))
            return;
        while (atomic_load_explicit(l, memory_order_relaxed))
            rx_rma_backoff(&n);
    }
}

void rx_rma_spin_unlock(_Atomic uint32_t *l)
{
    /* a subtraction, not a store of 0: an origin on another node may have
     * added its try to the word just now and will take it back itself */
    atomic_fetch_sub_explicit(l, 1, memory_order_release);
}

int rx_rma_lock_try(_Atomic uint64_t *l, int exclusive)
{
    if (exclusive) {
        uint64_t z = 0;
        return atomic_compare_exchange_strong_explicit(l, &z, RX_WIN_LOCK_EXCL,
                                                       memory_order_acquire,
                                                       memory_order_relaxed);
    }
    uint64_t v = atomic_fetch_add_explicit(l, 1, memory_order_acquire);
    if (!(v & RX_WIN_LOCK_EXCL))
        return 1;
    atomic_fetch_sub_explicit(l, 1, memory_order_relaxed);
    return 0;
}

void rx_rma_lock_release(_Atomic uint64_t *l, int exclusive)
{
    /* a subtraction keeps the units of readers backing off right now */
    atomic_fetch_sub_explicit(l, exclusive ? RX_WIN_LOCK_EXCL : 1, memory_order_release);
}
