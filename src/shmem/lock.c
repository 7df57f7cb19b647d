/* SPDX-License-Identifier: MIT
 * Distributed locks on a symmetric long: the copy on PE 0 holds 0 (free) or
 * 1 + the holder's PE, changed by compare-and-swap and swap only. Waiters
 * back off between tries (growing pauses, driving progress), so that PEs
 * spinning on the word do not starve the holder's release. */
#include "shmem_impl.h"
#include "core/rt.h"

#include <sched.h>

static int rx_sh_lock_try(long *lock, const char *fn)
{
    long want = rx_sh.me + 1, zero = 0, old;
    rx_sh_amo(RX_SH_CSWAP, RX_ID_MPI_LONG, sizeof(long), lock, &want, &zero, &old, 0, fn);
    if (old == want)
        rx_sh_fatal(fn, "PE %d already holds this lock", rx_sh.me);
    return old == 0;
}

void shmem_set_lock(long *lock)
{
    rx_sh_check_init("shmem_set_lock");
    unsigned pause = 1;
    while (!rx_sh_lock_try(lock, "shmem_set_lock")) {
        for (unsigned i = 0; i < pause; i++)
            rx_sh_progress();
        if (pause < 64)
            pause *= 2;
        else
            sched_yield();
    }
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
}

int shmem_test_lock(long *lock)
{
    rx_sh_check_init("shmem_test_lock");
    int got = rx_sh_lock_try(lock, "shmem_test_lock");
    if (got)
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return got ? 0 : 1;
}

void shmem_clear_lock(long *lock)
{
    rx_sh_check_init("shmem_clear_lock");
    /* what the critical section wrote is complete before the lock is free */
    shmem_quiet();
    long mine = rx_sh.me + 1, zero = 0, old;
    rx_sh_amo(RX_SH_CSWAP, 9, sizeof(long), lock, &zero, &mine, &old, 0, "shmem_clear_lock");
    if (old != mine)
        rx_sh_fatal("shmem_clear_lock", "PE %d does not hold this lock", rx_sh.me);
}
