/* SPDX-License-Identifier: MIT
 * Shared by the MPI_THREAD_MULTIPLE tests: start the job at MULTIPLE, run a
 * function in T threads at once (the main thread is thread 0), count
 * failures from any thread. Standard MPI and POSIX threads only, so the
 * tests also run under MPICH and Open MPI (tests/mpi/run-with.sh). */
#ifndef THRTEST_H
#define THRTEST_H

#include "../rxtest.h"

#include <pthread.h>
#include <stdatomic.h>

#define THR_MAX 16

static atomic_int thr_errs;
static int thr_n = 4; /* threads per rank: the first program argument */

#define THR_CHECK(cond, ...)                                                                      \
    do {                                                                                          \
        if (!(cond) && atomic_fetch_add(&thr_errs, 1) < RXT_MAX_REPORTS) {                        \
            fprintf(stderr, "[%s rank %d] FAIL %s:%d: check `%s`: ", rxt_name, rxt_rank,          \
                    __FILE__, __LINE__, #cond);                                                   \
            fprintf(stderr, __VA_ARGS__);                                                         \
            fputc('\n', stderr);                                                                  \
        }                                                                                         \
    } while (0)

RXT_FN void thr_init(int *argc, char ***argv, const char *name)
{
    rxt_arm_watchdog();
    int provided = -1;
    RXT_MPI(MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided));
    rxt_after_init(name);
    if (*argc > 1)
        thr_n = atoi((*argv)[1]);
    if (thr_n < 1 || thr_n > THR_MAX)
        thr_n = 4;
    if (provided != MPI_THREAD_MULTIPLE)
        RXT_FATAL("MPI_Init_thread provided %d, not MPI_THREAD_MULTIPLE", provided);
}

typedef struct thr_arg {
    int id;
    void (*fn)(int id);
} thr_arg_t;

static void *thr_main(void *p)
{
    thr_arg_t *a = p;
    a->fn(a->id);
    return NULL;
}

/* fn(0) .. fn(thr_n - 1) at once; returns when all are done. */
RXT_FN void thr_run(void (*fn)(int id))
{
    pthread_t t[THR_MAX];
    thr_arg_t a[THR_MAX];
    for (int i = 0; i < thr_n; i++)
        a[i] = (thr_arg_t){i, fn};
    for (int i = 1; i < thr_n; i++)
        if (pthread_create(&t[i], NULL, thr_main, &a[i]) != 0)
            RXT_FATAL("pthread_create failed");
    fn(0);
    for (int i = 1; i < thr_n; i++)
        pthread_join(t[i], NULL);
}

RXT_FN int thr_finish(void)
{
    rxt_errs += atomic_load(&thr_errs);
    return rxt_finish();
}

#endif
