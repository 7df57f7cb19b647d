/* SPDX-License-Identifier: MIT
 * Point-to-point synchronization (wait_until / test and their _all, _any,
 * _some and vector forms, signals) and the world barriers. Waits read the
 * variable with acquire loads and drive progress meanwhile, so that
 * operations that need this PE (active messages) move on while it waits. */
#include "shmem_impl.h"
#include "coll/coll.h"
#include "core/rt.h"
#include "util/status.h"

/* Wait until cond holds, under the critical section in MULTIPLE (shmem_impl.h),
 * which RX_WAIT_UNTIL gives up between polls; a condition already true
 * takes no lock. */
#define RX_SH_WAIT(cond)                                                                     \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            RX_SH_CS_SCOPE;                                                                  \
            RX_WAIT_UNTIL(cond);                                                             \
        }                                                                                    \
    } while (0)

void rx_sh_progress(void)
{
    RX_SH_CS_SCOPE;
    rx_progress();
}

/* the test forms: a poll that found nothing yields when PEs outnumber cores */
static void rx_sh_progress_test(void)
{
    RX_SH_CS_SCOPE;
    rx_progress_test();
}

int rx_sh_cmp_ok(int cmp) { return cmp >= SHMEM_CMP_EQ && cmp <= SHMEM_CMP_LE; }

static void rx_sh_cmp_check(int cmp, const char *fn)
{
    rx_sh_check_init(fn);
    if (!rx_sh_cmp_ok(cmp))
        rx_sh_fatal(fn, "%d is not a comparison (SHMEM_CMP_EQ ... SHMEM_CMP_LE)", cmp);
}

#define RX_SH_CMP(a, cmp, b)                                                                 \
    ((cmp) == SHMEM_CMP_EQ   ? (a) == (b)                                                     \
     : (cmp) == SHMEM_CMP_NE ? (a) != (b)                                                     \
     : (cmp) == SHMEM_CMP_GT ? (a) > (b)                                                      \
     : (cmp) == SHMEM_CMP_GE ? (a) >= (b)                                                     \
     : (cmp) == SHMEM_CMP_LT ? (a) < (b)                                                      \
                             : (a) <= (b))

/* One scan over the active elements: how many satisfy, the first that
 * does in *first (SIZE_MAX if none), all of them in idx when not NULL;
 * *active = how many elements status leaves in play. */
#define RX_SH_SCAN(T, ivars, n, status, cmp, VAL, idx, first, active)                        \
    ({                                                                                       \
        size_t ok_ = 0;                                                                      \
        *(first) = SIZE_MAX;                                                                 \
        *(active) = 0;                                                                       \
        for (size_t i_ = 0; i_ < (n); i_++) {                                                \
            if ((status) && (status)[i_])                                                    \
                continue;                                                                    \
            (*(active))++;                                                                   \
            T v_ = __atomic_load_n(&(ivars)[i_], __ATOMIC_ACQUIRE);                          \
            if (RX_SH_CMP(v_, cmp, VAL)) {                                                   \
                if ((idx))                                                                   \
                    ((size_t *)(idx))[ok_] = i_;                                             \
                if (*(first) == SIZE_MAX)                                                    \
                    *(first) = i_;                                                           \
                ok_++;                                                                       \
            }                                                                                \
        }                                                                                    \
        ok_;                                                                                 \
    })

#define RX_SH_NULLCHK(p, n, what, fn)                                                        \
    do {                                                                                     \
        if ((n) && !(p))                                                                     \
            rx_sh_fatal(fn, "%s is NULL", what);                                             \
    } while (0)

/* Checks every form of the family starts with. */
#define RX_SH_FAMILY_ARGS(FN, IDX, VALCHK)                                                   \
    const char *fn_ = FN;                                                                    \
    rx_sh_cmp_check(cmp, fn_);                                                               \
    RX_SH_NULLCHK(ivars, n, "ivars", fn_);                                                   \
    RX_SH_NULLCHK(IDX, n, "indices", fn_);                                                   \
    VALCHK;                                                                                  \
    size_t first, active

/* The forms with one comparison value (VAL = cmp_value) and the vector
 * forms (VAL = cmp_values[i_]) share their bodies. */
#define RX_SH_SYNC_FAMILY(T, N, SUFFIX, VALDECL, VAL, VALCHK)                                \
    void shmem_##N##_wait_until_all##SUFFIX(T *ivars, size_t n, const int *status, int cmp,  \
                                            VALDECL)                                         \
    {                                                                                        \
        RX_SH_FAMILY_ARGS("shmem_" #N "_wait_until_all" #SUFFIX, (void *)1, VALCHK);         \
        RX_SH_WAIT(RX_SH_SCAN(T, ivars, n, status, cmp, VAL, NULL, &first, &active) ==    \
                      active);                                                               \
    }                                                                                        \
    size_t shmem_##N##_wait_until_any##SUFFIX(T *ivars, size_t n, const int *status,         \
                                              int cmp, VALDECL)                              \
    {                                                                                        \
        RX_SH_FAMILY_ARGS("shmem_" #N "_wait_until_any" #SUFFIX, (void *)1, VALCHK);         \
        RX_SH_SCAN(T, ivars, n, status, cmp, VAL, NULL, &first, &active);                    \
        if (!active)                                                                         \
            return SIZE_MAX;                                                                 \
        RX_SH_WAIT(RX_SH_SCAN(T, ivars, n, status, cmp, VAL, NULL, &first, &active) > 0); \
        return first;                                                                        \
    }                                                                                        \
    size_t shmem_##N##_wait_until_some##SUFFIX(T *ivars, size_t n, size_t *idx,              \
                                               const int *status, int cmp, VALDECL)          \
    {                                                                                        \
        RX_SH_FAMILY_ARGS("shmem_" #N "_wait_until_some" #SUFFIX, idx, VALCHK);              \
        size_t got = 0;                                                                      \
        RX_SH_SCAN(T, ivars, n, status, cmp, VAL, NULL, &first, &active);                    \
        if (!active)                                                                         \
            return 0;                                                                        \
        RX_SH_WAIT((got = RX_SH_SCAN(T, ivars, n, status, cmp, VAL, idx, &first, &active)) > 0); \
        return got;                                                                          \
    }                                                                                        \
    int shmem_##N##_test_all##SUFFIX(T *ivars, size_t n, const int *status, int cmp, VALDECL) \
    {                                                                                        \
        RX_SH_FAMILY_ARGS("shmem_" #N "_test_all" #SUFFIX, (void *)1, VALCHK);               \
        rx_sh_progress_test();                                                               \
        return RX_SH_SCAN(T, ivars, n, status, cmp, VAL, NULL, &first, &active) == active;   \
    }                                                                                        \
    size_t shmem_##N##_test_any##SUFFIX(T *ivars, size_t n, const int *status, int cmp,      \
                                        VALDECL)                                             \
    {                                                                                        \
        RX_SH_FAMILY_ARGS("shmem_" #N "_test_any" #SUFFIX, (void *)1, VALCHK);               \
        rx_sh_progress_test();                                                               \
        RX_SH_SCAN(T, ivars, n, status, cmp, VAL, NULL, &first, &active);                    \
        return first;                                                                        \
    }                                                                                        \
    size_t shmem_##N##_test_some##SUFFIX(T *ivars, size_t n, size_t *idx, const int *status, \
                                         int cmp, VALDECL)                                   \
    {                                                                                        \
        RX_SH_FAMILY_ARGS("shmem_" #N "_test_some" #SUFFIX, idx, VALCHK);                    \
        rx_sh_progress_test();                                                               \
        return RX_SH_SCAN(T, ivars, n, status, cmp, VAL, idx, &first, &active);              \
    }

#define RX_SH_SYNC(T, N)                                                                     \
    void shmem_##N##_wait_until(T *ivar, int cmp, T value)                                   \
    {                                                                                        \
        rx_sh_cmp_check(cmp, "shmem_" #N "_wait_until");                                     \
        RX_SH_NULLCHK(ivar, 1, "ivar", "shmem_" #N "_wait_until");                           \
        RX_SH_WAIT(RX_SH_CMP(__atomic_load_n(ivar, __ATOMIC_ACQUIRE), cmp, value));       \
    }                                                                                        \
    int shmem_##N##_test(T *ivar, int cmp, T value)                                          \
    {                                                                                        \
        rx_sh_cmp_check(cmp, "shmem_" #N "_test");                                           \
        RX_SH_NULLCHK(ivar, 1, "ivar", "shmem_" #N "_test");                                 \
        rx_sh_progress_test();                                                               \
        return RX_SH_CMP(__atomic_load_n(ivar, __ATOMIC_ACQUIRE), cmp, value);               \
    }                                                                                        \
    RX_SH_SYNC_FAMILY(T, N, , T value, value, (void)0)                                       \
    RX_SH_SYNC_FAMILY(T, N, _vector, const T *values, values[i_],                            \
                      RX_SH_NULLCHK(values, n, "cmp_values", fn_))
RDMX_SHMEM_SYNC_TYPES(RX_SH_SYNC)

uint64_t shmem_signal_fetch(const uint64_t *sig_addr)
{
    rx_sh_check_init("shmem_signal_fetch");
    RX_SH_NULLCHK(sig_addr, 1, "sig_addr", "shmem_signal_fetch");
    return __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
}

uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t value)
{
    rx_sh_cmp_check(cmp, "shmem_signal_wait_until");
    RX_SH_NULLCHK(sig_addr, 1, "sig_addr", "shmem_signal_wait_until");
    uint64_t v;
    RX_SH_WAIT(RX_SH_CMP((v = __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE)), cmp, value));
    return v;
}

void shmem_barrier_all(void)
{
    rx_sh_check_init("shmem_barrier_all");
    RX_SH_CS_SCOPE;
    rx_sh_quiet_pe(-1);
    int rc = rx_coll_barrier(rx_sh.world);
    if (rc != RX_OK)
        rx_sh_fatal("shmem_barrier_all", "%s", rx_status_string(rc));
}

void shmem_sync_all(void)
{
    rx_sh_check_init("shmem_sync_all");
    RX_SH_CS_SCOPE;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    int rc = rx_coll_barrier(rx_sh.world);
    if (rc != RX_OK)
        rx_sh_fatal("shmem_sync_all", "%s", rx_status_string(rc));
}
