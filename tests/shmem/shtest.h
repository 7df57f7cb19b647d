/* SPDX-License-Identifier: MIT
 * Checks shared by the OpenSHMEM tests (standard OpenSHMEM API only):
 *   SHT_CHECK(cond, fmt, ...) records a mismatch, prints it and continues;
 *   sht_finish() sums the errors of every PE onto PE 0, which prints
 *   "No Errors" when there were none; every PE exits non-zero otherwise;
 *   a watchdog (SIGALRM) ends a PE that hangs. */
#ifndef SHTEST_H
#define SHTEST_H

#include <shmem.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int sht_errs, sht_me = -1, sht_npes;
static long sht_total; /* symmetric: errors of every PE, summed on PE 0 */

#define SHT_CHECK(cond, ...)                                                                   \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            if (++sht_errs <= 20) {                                                            \
                fprintf(stderr, "[PE %d] FAIL %s:%d: `%s`: ", sht_me, __FILE__, __LINE__,       \
                        #cond);                                                                \
                fprintf(stderr, __VA_ARGS__);                                                  \
                fputc('\n', stderr);                                                           \
            }                                                                                  \
        }                                                                                      \
    } while (0)

static void sht_alarm(int sig)
{
    (void)sig;
    static const char m[] = "shtest: watchdog: the test hangs\n";
    ssize_t r = write(2, m, sizeof m - 1);
    (void)r;
    _exit(3);
}

static inline void sht_init(void)
{
    signal(SIGALRM, sht_alarm);
    alarm(120);
    shmem_init();
    sht_me = shmem_my_pe();
    sht_npes = shmem_n_pes();
}

static inline int sht_finish(void)
{
    shmem_barrier_all();
    if (sht_errs)
        shmem_long_atomic_add(&sht_total, sht_errs, 0);
    shmem_barrier_all();
    long total = shmem_long_atomic_fetch(&sht_total, 0);
    if (sht_me == 0) {
        if (total)
            printf("Found %ld errors\n", total);
        else
            printf("No Errors\n");
        fflush(stdout);
    }
    shmem_finalize();
    return total ? 1 : 0;
}

#endif
