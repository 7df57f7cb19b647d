/* SPDX-License-Identifier: MIT
 * Routines deprecated by the standard and still specified by 1.5, each the
 * current routine under its old name (the active-set collectives are in
 * active_set.c): the atomics before 1.4's shmem_TYPENAME_atomic_* names,
 * shmem_wait and the long-typed shmem_wait_until, the cache-management
 * routines (no-ops: the caches are coherent), the heap routines before 1.2;
 * and shmem_pcontrol of the profiling interface, which has no profiling to
 * control here. */
#include "shmem_impl.h"

#define RX_SH_OLD_AMO(T, N)                                                                  \
    T shmem_##N##_finc(T *dest, int pe) { return shmem_##N##_atomic_fetch_inc(dest, pe); }   \
    void shmem_##N##_inc(T *dest, int pe) { shmem_##N##_atomic_inc(dest, pe); }              \
    T shmem_##N##_fadd(T *dest, T value, int pe)                                             \
    {                                                                                        \
        return shmem_##N##_atomic_fetch_add(dest, value, pe);                                \
    }                                                                                        \
    void shmem_##N##_add(T *dest, T value, int pe)                                           \
    {                                                                                        \
        shmem_##N##_atomic_add(dest, value, pe);                                             \
    }                                                                                        \
    T shmem_##N##_cswap(T *dest, T cond, T value, int pe)                                    \
    {                                                                                        \
        return shmem_##N##_atomic_compare_swap(dest, cond, value, pe);                       \
    }
RDMX_SHMEM_AMO_TYPES(RX_SH_OLD_AMO)

#define RX_SH_OLD_EXT(T, N)                                                                  \
    T shmem_##N##_fetch(const T *source, int pe)                                             \
    {                                                                                        \
        return shmem_##N##_atomic_fetch(source, pe);                                         \
    }                                                                                        \
    void shmem_##N##_set(T *dest, T value, int pe)                                           \
    {                                                                                        \
        shmem_##N##_atomic_set(dest, value, pe);                                             \
    }                                                                                        \
    T shmem_##N##_swap(T *dest, T value, int pe)                                             \
    {                                                                                        \
        return shmem_##N##_atomic_swap(dest, value, pe);                                     \
    }
RDMX_SHMEM_EXT_AMO_TYPES(RX_SH_OLD_EXT)

void shmem_wait(long *ivar, long cmp_value)
{
    shmem_long_wait_until(ivar, SHMEM_CMP_NE, cmp_value);
}

/* the name in parentheses: C11 makes shmem_wait_until the generic macro */
void(shmem_wait_until)(long *ivar, int cmp, long cmp_value)
{
    shmem_long_wait_until(ivar, cmp, cmp_value);
}

#define RX_SH_OLD_WAIT(T, N)                                                                 \
    void shmem_##N##_wait(T *ivar, T cmp_value)                                              \
    {                                                                                        \
        shmem_##N##_wait_until(ivar, SHMEM_CMP_NE, cmp_value);                               \
    }
RDMX_SHMEM_SYNC_TYPES(RX_SH_OLD_WAIT)

void shmem_clear_cache_inv(void) { rx_sh_check_init("shmem_clear_cache_inv"); }
void shmem_set_cache_inv(void) { rx_sh_check_init("shmem_set_cache_inv"); }
void shmem_clear_cache_line_inv(void *dest)
{
    (void)dest;
    rx_sh_check_init("shmem_clear_cache_line_inv");
}
void shmem_set_cache_line_inv(void *dest)
{
    (void)dest;
    rx_sh_check_init("shmem_set_cache_line_inv");
}
void shmem_udcflush(void) { rx_sh_check_init("shmem_udcflush"); }
void shmem_udcflush_line(void *dest)
{
    (void)dest;
    rx_sh_check_init("shmem_udcflush_line");
}

void *shmalloc(size_t size) { return shmem_malloc(size); }
void shfree(void *ptr) { shmem_free(ptr); }
void *shrealloc(void *ptr, size_t size) { return shmem_realloc(ptr, size); }
void *shmemalign(size_t alignment, size_t size) { return shmem_align(alignment, size); }

/* The profiling interface's control (0 off, 1 on, the default, higher
 * levels the profiler's own): with no profiler inside the library every
 * level is accepted and none changes anything. Callable before shmem_init,
 * as a profiling hook. */
void shmem_pcontrol(const int level, ...)
{
    (void)level;
}
