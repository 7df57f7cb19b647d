/* SPDX-License-Identifier: MIT
 * Checks shared by the multi-rank MPI tests. Written against the standard MPI API only,
 * so each test also runs under MPICH and Open MPI (tests/mpi/run-with.sh) and a failure
 * under rdmx points at rdmx, not at the test.
 *
 * Conventions (MPICH test-suite style):
 *   - RXT_CHECK(cond, fmt, ...) records a mismatch, prints the check and continues;
 *   - RXT_MPI(call) aborts the job when an MPI call that must succeed does not;
 *   - rxt_finish() reduces the error count: rank 0 prints "No Errors" when every rank
 *     passed, and every rank returns non-zero from main otherwise;
 *   - a watchdog (SIGALRM) ends a rank that hangs, so no test outlives its time. */
#ifndef RXTEST_H
#define RXTEST_H

#include <mpi.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifndef RXT_WATCHDOG_S
#define RXT_WATCHDOG_S 240
#endif
/* Helpers are static (one copy per test program); not every test uses each one. */
#define RXT_FN static inline __attribute__((unused))
#define RXT_MAX_REPORTS 20 /* per rank: a broken transfer must not flood the log */

static int rxt_rank = -1, rxt_size = 0, rxt_errs = 0;
static const char *rxt_name = "test";

static void rxt_vfail(const char *file, int line, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void rxt_vfail(const char *file, int line, const char *what, const char *fmt, ...)
{
    if (++rxt_errs > RXT_MAX_REPORTS)
        return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "[%s rank %d] FAIL %s:%d: check `%s`: %s\n", rxt_name, rxt_rank, file, line,
            what, msg);
    fflush(stderr);
}

#define RXT_CHECK(cond, ...)                                                                      \
    do {                                                                                          \
        if (!(cond))                                                                              \
            rxt_vfail(__FILE__, __LINE__, #cond, __VA_ARGS__);                                    \
    } while (0)

/* Fatal: the rest of the test would only report consequences. */
#define RXT_FATAL(...)                                                                            \
    do {                                                                                          \
        rxt_vfail(__FILE__, __LINE__, "fatal", __VA_ARGS__);                                      \
        MPI_Abort(MPI_COMM_WORLD, 1);                                                             \
        exit(1);                                                                                  \
    } while (0)

RXT_FN const char *rxt_errstr(int rc)
{
    static char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, s, &len) != MPI_SUCCESS)
        snprintf(s, sizeof s, "(MPI_Error_string failed for code %d)", rc);
    return s;
}

#define RXT_MPI(call)                                                                             \
    do {                                                                                          \
        int rxt_rc_ = (call);                                                                     \
        if (rxt_rc_ != MPI_SUCCESS)                                                               \
            RXT_FATAL("%s returned %d: %s", #call, rxt_rc_, rxt_errstr(rxt_rc_));                 \
    } while (0)

RXT_FN const char *rxt_class_name(int cls)
{
    switch (cls) {
#define RXT_C(x) case x: return #x;
        RXT_C(MPI_SUCCESS) RXT_C(MPI_ERR_BUFFER) RXT_C(MPI_ERR_COUNT) RXT_C(MPI_ERR_TYPE)
        RXT_C(MPI_ERR_TAG) RXT_C(MPI_ERR_COMM) RXT_C(MPI_ERR_RANK) RXT_C(MPI_ERR_REQUEST)
        RXT_C(MPI_ERR_ROOT) RXT_C(MPI_ERR_GROUP) RXT_C(MPI_ERR_OP) RXT_C(MPI_ERR_TOPOLOGY)
        RXT_C(MPI_ERR_DIMS) RXT_C(MPI_ERR_ARG) RXT_C(MPI_ERR_UNKNOWN) RXT_C(MPI_ERR_TRUNCATE)
        RXT_C(MPI_ERR_OTHER) RXT_C(MPI_ERR_INTERN) RXT_C(MPI_ERR_IN_STATUS)
        RXT_C(MPI_ERR_PENDING) RXT_C(MPI_ERR_KEYVAL) RXT_C(MPI_ERR_NO_MEM)
#undef RXT_C
    default: return "(other class)";
    }
}

/* The call must fail with error class `cls` (under MPI_ERRORS_RETURN). */
#define RXT_EXPECT_CLASS(cls, call)                                                               \
    do {                                                                                          \
        int rxt_rc_ = (call), rxt_cls_ = -1;                                                      \
        if (rxt_rc_ == MPI_SUCCESS) {                                                             \
            rxt_vfail(__FILE__, __LINE__, #call, "succeeded, expected %s", #cls);                 \
        } else if (MPI_Error_class(rxt_rc_, &rxt_cls_) != MPI_SUCCESS) {                          \
            rxt_vfail(__FILE__, __LINE__, #call, "MPI_Error_class failed on code %d", rxt_rc_);   \
        } else if (rxt_cls_ != (cls)) {                                                           \
            rxt_vfail(__FILE__, __LINE__, #call, "error class %s (%d), expected %s: %s",          \
                      rxt_class_name(rxt_cls_), rxt_cls_, #cls, rxt_errstr(rxt_rc_));             \
        }                                                                                         \
    } while (0)

/* The call must fail with one of two classes (where implementations differ). */
#define RXT_EXPECT_EITHER(c1, c2, call)                                                           \
    do {                                                                                          \
        int rxt_rc_ = (call), rxt_cls_ = -1;                                                      \
        MPI_Error_class(rxt_rc_, &rxt_cls_);                                                      \
        if (rxt_rc_ == MPI_SUCCESS || (rxt_cls_ != (c1) && rxt_cls_ != (c2)))                     \
            rxt_vfail(__FILE__, __LINE__, #call, "class %s (%d), expected %s or %s",              \
                      rxt_class_name(rxt_cls_), rxt_cls_, #c1, #c2);                              \
    } while (0)

RXT_FN void rxt_watchdog(int sig)
{
    (void)sig;
    static const char m[] = "rxtest: watchdog expired, the test hangs\n";
    ssize_t w = write(2, m, sizeof m - 1);
    (void)w;
    _exit(3);
}

RXT_FN void rxt_arm_watchdog(void)
{
    signal(SIGALRM, rxt_watchdog);
    alarm(RXT_WATCHDOG_S);
}

RXT_FN void rxt_after_init(const char *name)
{
    rxt_name = name;
    MPI_Comm_rank(MPI_COMM_WORLD, &rxt_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &rxt_size);
}

RXT_FN void rxt_init(int *argc, char ***argv, const char *name)
{
    rxt_arm_watchdog();
    RXT_MPI(MPI_Init(argc, argv));
    rxt_after_init(name);
}

/* For a program that spawns itself: MPI_Init, and the parent intercommunicator
 * (MPI_COMM_NULL in the processes the launcher started); the children's name
 * is NAME child. */
RXT_FN MPI_Comm rxt_init_spawned(int *argc, char ***argv, const char *name)
{
    static char child_name[128];
    MPI_Comm parent;
    rxt_arm_watchdog();
    RXT_MPI(MPI_Init(argc, argv));
    RXT_MPI(MPI_Comm_get_parent(&parent));
    snprintf(child_name, sizeof child_name, "%s child", name);
    rxt_after_init(parent == MPI_COMM_NULL ? name : child_name);
    return parent;
}

/* Sum the error counts, report, finalize; the value for main() to return. */
RXT_FN int rxt_finish(void)
{
    int total = 0;
    RXT_MPI(MPI_Allreduce(&rxt_errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    if (rxt_rank == 0) {
        if (total == 0)
            printf(" No Errors\n");
        else
            printf(" Found %d errors\n", total);
        fflush(stdout);
    }
    MPI_Finalize();
    return total == 0 ? 0 : 1;
}

/* A test that needs more ranks than it got passes trivially (and says so). */
RXT_FN void rxt_need_ranks(int n)
{
    if (rxt_size >= n)
        return;
    if (rxt_rank == 0)
        printf("%s: needs %d ranks, skipped\n No Errors\n", rxt_name, n);
    MPI_Finalize();
    exit(0);
}

RXT_FN void rxt_sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* Deterministic generator (splitmix64): same seed, same sequence on every rank. */
RXT_FN uint64_t rxt_mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A buffer of gigabytes (the large-count tests), freed with free(). Aligned to 2 MiB and
 * offered transparent huge pages (kernels in "madvise" mode give them only on request):
 * filling 2 GiB then takes 1,024 page faults instead of 524,288, which on a virtual
 * machine is most of such a test's time. NULL when there is no memory. */
RXT_FN void *rxt_big_alloc(size_t n)
{
    const size_t huge = (size_t)2 << 20;
    void *p = NULL;
    if (posix_memalign(&p, huge, n) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    if (n >= huge)
        (void)madvise(p, n & ~(huge - 1), MADV_HUGEPAGE); /* advice: ignored where refused */
#endif
    return p;
}

/* A byte pattern that depends on the seed and on the position of each byte. */
RXT_FN void rxt_fill(void *buf, size_t n, uint64_t seed)
{
    unsigned char *b = buf;
    uint64_t s = seed * 0xD1B54A32D192ED03ull + 1;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w = rxt_mix(&s);
        memcpy(b + i, &w, 8);
    }
    if (i < n) {
        uint64_t w = rxt_mix(&s);
        memcpy(b + i, &w, n - i);
    }
}

/* Index of the first byte that differs from rxt_fill(seed), or -1. */
RXT_FN long rxt_verify(const void *buf, size_t n, uint64_t seed)
{
    const unsigned char *b = buf;
    uint64_t s = seed * 0xD1B54A32D192ED03ull + 1;
    for (size_t i = 0; i < n; i += 8) {
        uint64_t w = rxt_mix(&s);
        size_t k = n - i < 8 ? n - i : 8;
        if (memcmp(b + i, &w, k) != 0) {
            unsigned char e[8];
            memcpy(e, &w, 8);
            for (size_t j = 0; j < k; j++)
                if (b[i + j] != e[j])
                    return (long)(i + j);
        }
    }
    return -1;
}

#endif
