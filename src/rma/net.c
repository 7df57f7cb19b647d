/* SPDX-License-Identifier: MIT
 * Targets on other nodes reached by the network's own RMA: which atomics are
 * native, the passive-target lock word taken remotely, flush.
 *
 * The lock word is the same reader-writer word local origins take with
 * atomic instructions (rx_rma_lock_try), taken the same way (rma.h). The
 * target's
 * memory is registered with the window, and the provider applies atomics
 * with CPU instructions at the target, so both kinds of origins contend on
 * one word and no request waits for the target's MPI calls. */
#include "rma.h"
#include "op/op.h"
#include "core/rt.h"
#include "util/status.h"
#include "util/timer.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

rx_tl_t *rx_rma_net_tl(void)
{
    for (int i = 0; i < rx_rt.ntl; i++) {
        rx_tl_t *tl = rx_rt.tls[i];
        if ((tl->caps & (RX_TL_CAP_NET_RMA | RX_TL_CAP_GET | RX_TL_CAP_PUT)) ==
            (RX_TL_CAP_NET_RMA | RX_TL_CAP_GET | RX_TL_CAP_PUT))
            return tl;
    }
    return NULL;
}

/* Element type of a basic type for network atomics, or -1. */
static int rx_net_amt(int basic)
{
    size_t ext = (size_t)rx_dtype_get(RX_HANDLE(RX_KIND_DATATYPE, basic))->extent;
    switch (rx_basic_class(basic)) {
    case RX_CLASS_FLOAT:
        return ext == 4 ? RX_TL_AMT_FLOAT : ext == 8 ? RX_TL_AMT_DOUBLE : -1;
    case RX_CLASS_CPLX:
    case RX_CLASS_PAIR:
        return -1;
    default: break;
    }
    /* integers, logicals, bytes, characters: unsigned ones compare unsigned */
    static const unsigned char is_unsigned[] = {
        [RX_ID_MPI_UNSIGNED_CHAR] = 1, [RX_ID_MPI_BYTE] = 1, [RX_ID_MPI_UNSIGNED_SHORT] = 1,
        [RX_ID_MPI_UNSIGNED] = 1, [RX_ID_MPI_UNSIGNED_LONG] = 1,
        [RX_ID_MPI_UNSIGNED_LONG_LONG] = 1, [RX_ID_MPI_C_BOOL] = 1, [RX_ID_MPI_UINT8_T] = 1,
        [RX_ID_MPI_UINT16_T] = 1, [RX_ID_MPI_UINT32_T] = 1, [RX_ID_MPI_UINT64_T] = 1,
        [RX_ID_MPI_PACKED] = 1, [RX_ID_MPI_CXX_BOOL] = 1};
    int u = basic > 0 && (size_t)basic < sizeof is_unsigned && is_unsigned[basic];
    switch (ext) {
    case 1: return u ? RX_TL_AMT_U8 : RX_TL_AMT_I8;
    case 2: return u ? RX_TL_AMT_U16 : RX_TL_AMT_I16;
    case 4: return u ? RX_TL_AMT_U32 : RX_TL_AMT_I32;
    case 8: return u ? RX_TL_AMT_U64 : RX_TL_AMT_I64;
    default: return -1;
    }
}

int rx_rma_net_amo(const rx_win_tgt_t *t, int op_id, int basic, int *amo, int *amt)
{
    static const signed char map[RX_OP_PREDEFINED_COUNT] = {
        [RX_OP_NULL] = -1,          [RX_OP_MAX] = RX_TL_AMO_MAX,   [RX_OP_MIN] = RX_TL_AMO_MIN,
        [RX_OP_SUM] = RX_TL_AMO_SUM, [RX_OP_PROD] = RX_TL_AMO_PROD, [RX_OP_LAND] = RX_TL_AMO_LAND,
        [RX_OP_BAND] = RX_TL_AMO_BAND, [RX_OP_LOR] = RX_TL_AMO_LOR, [RX_OP_BOR] = RX_TL_AMO_BOR,
        [RX_OP_LXOR] = RX_TL_AMO_LXOR, [RX_OP_BXOR] = RX_TL_AMO_BXOR,
        [RX_OP_MINLOC] = -1,        [RX_OP_MAXLOC] = -1,
        [RX_OP_REPLACE] = RX_TL_AMO_WRITE, [RX_OP_NO_OP] = RX_TL_AMO_READ,
    };
    if (!t->netamo || !(t->tl->caps & RX_TL_CAP_ATOMIC))
        return 0;
    int a = op_id < 0 ? RX_TL_AMO_CSWAP
            : op_id < RX_OP_PREDEFINED_COUNT ? map[op_id] : -1;
    int ty = rx_net_amt(basic);
    if (a < 0 || ty < 0 || !(t->tl->amo_types[a] & (1u << ty)))
        return 0;
    *amo = a;
    *amt = ty;
    return 1;
}

/* One try. Readers as rx_rma_lock_try: add 1, take it back when EXCL was
 * set. Writers add EXCL and keep it only when the word was 0 (rma.h says why
 * not compare-and-swap over the network). */
static int rx_net_lock_try(rx_win_tgt_t *t, int exclusive, int *rc)
{
    rx_tl_t *tl = t->tl;
    uint64_t unit = exclusive ? RX_WIN_LOCK_EXCL : 1, back = (uint64_t)0 - unit, old = 0;
    *rc = tl->ops->atomic(tl, t->world, RX_TL_AMO_SUM, RX_TL_AMT_U64, 1, &unit, NULL, &old,
                     &t->ctl_rkey, 0);
    if (*rc != RX_OK || (exclusive ? old == 0 : !(old & RX_WIN_LOCK_EXCL)))
        return 1;
    /* fetching, so that it is done before the next try */
    *rc = tl->ops->atomic(tl, t->world, RX_TL_AMO_SUM, RX_TL_AMT_U64, 1, &back, NULL, &old,
                     &t->ctl_rkey, 0);
    return *rc != RX_OK;
}

/* Between remote lock tries a random, growing pause (answering others
 * meanwhile: they may hold what we wait for), so that tries from several
 * nodes do not keep the target's provider busy with nothing but tries. The
 * generator is our own: rand() would shift the application's sequence. */
static void rx_net_backoff(unsigned *cap_us)
{
    static uint64_t x;
    if (!x)
        x = 0x9e3779b97f4a7c15ull ^ (uint64_t)(rx_rt.rank + 1);
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    double until = rx_time_now() + 1e-6 * (double)(1 + x % *cap_us);
    RX_WAIT_UNTIL(rx_time_now() >= until);
    if (*cap_us < 2048)
        *cap_us *= 2;
}

int rx_rma_net_lock(rx_win_tgt_t *t, int exclusive)
{
    int rc = RX_OK;
    unsigned cap_us = 4;
    while (!rx_net_lock_try(t, exclusive, &rc))
        rx_net_backoff(&cap_us);
    return rc;
}

int rx_rma_net_unlock(rx_win_tgt_t *t, int exclusive)
{
    rx_tl_t *tl = t->tl;
    uint64_t d = (uint64_t)0 - (exclusive ? RX_WIN_LOCK_EXCL : 1), old;
    return tl->ops->atomic(tl, t->world, RX_TL_AMO_SUM, RX_TL_AMT_U64, 1, &d, NULL, &old,
                      &t->ctl_rkey, 0);
}

/* The accumulate lock is a 32-bit word local origins take by
 * compare-and-swap 0 -> 1 and release by subtracting 1; a remote try adds 1
 * and keeps it only when the word was 0, so either kind excludes the other. */
int rx_rma_net_acc_lock(rx_win_tgt_t *t)
{
    rx_tl_t *tl = t->tl;
    uint32_t one = 1, back = (uint32_t)-1, old = 0;
    uint64_t at = offsetof(rx_win_ctl_t, acc_lock);
    unsigned cap_us = 4;
    for (;;) {
        int rc = tl->ops->atomic(tl, t->world, RX_TL_AMO_SUM, RX_TL_AMT_U32, 1, &one, NULL, &old,
                            &t->ctl_rkey, at);
        if (rc != RX_OK || old == 0)
            return rc;
        if ((rc = tl->ops->atomic(tl, t->world, RX_TL_AMO_SUM, RX_TL_AMT_U32, 1, &back, NULL, &old,
                             &t->ctl_rkey, at)) != RX_OK)
            return rc;
        rx_net_backoff(&cap_us);
    }
}

int rx_rma_net_acc_unlock(rx_win_tgt_t *t)
{
    rx_tl_t *tl = t->tl;
    uint32_t back = (uint32_t)-1, old;
    return tl->ops->atomic(tl, t->world, RX_TL_AMO_SUM, RX_TL_AMT_U32, 1, &back, NULL, &old,
                      &t->ctl_rkey, offsetof(rx_win_ctl_t, acc_lock));
}

int rx_rma_net_flush(rx_win_t *w, int target)
{
    int rc = RX_OK;
    int lo = target < 0 ? 0 : target, hi = target < 0 ? w->size : target + 1;
    for (int i = lo; i < hi; i++) {
        rx_win_tgt_t *t = &w->tgt[i];
        if (!t->net || !t->nb_pending)
            continue;
        t->nb_pending = 0;
        int frc = t->tl->ops->flush(t->tl, t->world);
        if (rc == RX_OK)
            rc = frc;
    }
    return rc;
}
