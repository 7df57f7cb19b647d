/* SPDX-License-Identifier: MIT
 * The active-set collectives, deprecated by 1.5 and still specified:
 * shmem_barrier, the active-set shmem_sync, shmem_broadcast/collect/
 * fcollect/alltoall/alltoalls{32,64} and shmem_TYPENAME_OP_to_all.
 *
 * An active set (PE_start, logPE_stride, PE_size) is a team: made on its
 * first use by the set's members alone (the other PEs take no part,
 * rx_sh_team_of_members), kept by triplet until shmem_finalize, and then
 * given to the team collectives of coll.c. The whole world in order is
 * SHMEM_TEAM_WORLD. pSync and pWrk are the caller's, as the standard lets an
 * implementation choose: nothing here reads or writes them, so pSync is
 * still SHMEM_SYNC_VALUE on return and two calls may alternate two arrays
 * or reuse one. */
#include "team_impl.h"
#include "op/op.h"
#include "util/status.h"

#include <stdlib.h>

typedef struct rx_sh_aset {
    int start, log, size;
    shmem_team_t team;
    struct rx_sh_aset *next;
} rx_sh_aset_t;

static rx_sh_aset_t *rx_sh_asets;

/* A tag for the set's creation, the same on every member, so that
 * creations of different sets in flight at once do not meet. */
static int rx_sh_aset_tag(int start, int log, int size)
{
    uint32_t h = (uint32_t)start * 2654435761u ^ (uint32_t)log * 40503u ^
                 (uint32_t)size * 2246822519u;
    return (int)(h & 0x0fffffffu);
}

static shmem_team_t rx_sh_aset_make(int start, int log, int size, const char *fn)
{
    int *pes = malloc(sizeof *pes * (size_t)size);
    if (!pes)
        rx_sh_fatal(fn, "out of memory");
    for (int i = 0; i < size; i++)
        pes[i] = start + (i << log);
    shmem_team_t t;
    int rc = rx_sh_team_of_members(pes, size, rx_sh_aset_tag(start, log, size), &t);
    free(pes);
    if (rc != RX_OK)
        rx_sh_fatal(fn, "cannot make the team of the active set: %s", rx_status_string(rc));
    return t;
}

/* The team of the active set; ends the job for a set that is not one (or
 * does not hold the caller). Collective over the set on its first use. */
static shmem_team_t rx_sh_aset(int start, int log, int size, const char *fn)
{
    rx_sh_check_init(fn);
    int n = rx_sh.npes;
    if (start < 0 || log < 0 || size < 1 || (size > 1 && log > 30) ||
        (size > 1 && (long long)start + ((long long)(size - 1) << log) >= n) || start >= n)
        rx_sh_fatal(fn, "active set (PE_start %d, logPE_stride %d, PE_size %d) is not within "
                    "0..%d", start, log, size, n - 1);
    if (size == 1)
        log = 0; /* one PE: any stride is the same set */
    int d = rx_sh.me - start;
    if (d < 0 || (d & ((1 << log) - 1)) || (d >> log) >= size)
        rx_sh_fatal(fn, "PE %d is not in the active set (PE_start %d, logPE_stride %d, "
                    "PE_size %d)", rx_sh.me, start, log, size);
    if (start == 0 && size == n && (log == 0 || n == 1))
        return SHMEM_TEAM_WORLD;
    RX_SH_CS_SCOPE;
    for (rx_sh_aset_t *a = rx_sh_asets; a; a = a->next)
        if (a->start == start && a->log == log && a->size == size)
            return a->team;
    rx_sh_aset_t *a = malloc(sizeof *a);
    if (!a)
        rx_sh_fatal(fn, "out of memory");
    *a = (rx_sh_aset_t){start, log, size, rx_sh_aset_make(start, log, size, fn), rx_sh_asets};
    rx_sh_asets = a;
    return a->team;
}

void rx_sh_aset_fini(void)
{
    RX_SH_CS_SCOPE;
    while (rx_sh_asets) {
        rx_sh_aset_t *a = rx_sh_asets;
        rx_sh_asets = a->next;
        rx_sh_team_free(a->team);
        free(a);
    }
}

/* The team of a call's active set, its pSync checked (never touched). */
static shmem_team_t rx_sh_aset_call(int start, int log, int size, const long *pSync,
                                    const char *fn)
{
    shmem_team_t t = rx_sh_aset(start, log, size, fn);
    if (!pSync)
        rx_sh_fatal(fn, "pSync is NULL");
    return t;
}

void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    const char *fn = "shmem_barrier";
    shmem_team_t t = rx_sh_aset_call(PE_start, logPE_stride, PE_size, pSync, fn);
    shmem_quiet();
    if (shmem_team_sync(t) != 0)
        rx_sh_fatal(fn, "the barrier failed");
}

void rdmx_shmem_sync_active_set(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    const char *fn = "shmem_sync";
    shmem_team_t t = rx_sh_aset_call(PE_start, logPE_stride, PE_size, pSync, fn);
    if (shmem_team_sync(t) != 0)
        rx_sh_fatal(fn, "the synchronization failed");
}

/* the team of the call's active set (arguments named as the standard names them) */
#define RX_SH_SET(fn) rx_sh_aset_call(PE_start, logPE_stride, PE_size, pSync, fn)
#define RX_SH_ASET(B)                                                                        \
    void shmem_broadcast##B(void *dest, const void *source, size_t nelems, int PE_root,      \
                            int PE_start, int logPE_stride, int PE_size, long *pSync)        \
    {                                                                                        \
        shmem_team_t t = RX_SH_SET("shmem_broadcast" #B);                                    \
        if (PE_root < 0 || PE_root >= PE_size)                                               \
            rx_sh_fatal("shmem_broadcast" #B, "PE_root %d is not within 0..%d", PE_root,     \
                        PE_size - 1);                                                        \
        rx_sh_broadcast(t, dest, source, nelems, B / 8, PE_root, 0, "shmem_broadcast" #B);   \
    }                                                                                        \
    void shmem_collect##B(void *dest, const void *source, size_t nelems, int PE_start,       \
                          int logPE_stride, int PE_size, long *pSync)                        \
    {                                                                                        \
        rx_sh_collect(RX_SH_SET("shmem_collect" #B), dest, source, nelems, B / 8,            \
                      "shmem_collect" #B);                                                   \
    }                                                                                        \
    void shmem_fcollect##B(void *dest, const void *source, size_t nelems, int PE_start,      \
                           int logPE_stride, int PE_size, long *pSync)                       \
    {                                                                                        \
        rx_sh_fcollect(RX_SH_SET("shmem_fcollect" #B), dest, source, nelems, B / 8,          \
                       "shmem_fcollect" #B);                                                 \
    }                                                                                        \
    void shmem_alltoall##B(void *dest, const void *source, size_t nelems, int PE_start,      \
                           int logPE_stride, int PE_size, long *pSync)                       \
    {                                                                                        \
        rx_sh_alltoalls(RX_SH_SET("shmem_alltoall" #B), dest, source, 1, 1, nelems, B / 8,   \
                        "shmem_alltoall" #B);                                                \
    }                                                                                        \
    void shmem_alltoalls##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,    \
                            size_t nelems, int PE_start, int logPE_stride, int PE_size,      \
                            long *pSync)                                                     \
    {                                                                                        \
        rx_sh_alltoalls(RX_SH_SET("shmem_alltoalls" #B), dest, source, dst, sst, nelems,     \
                        B / 8, "shmem_alltoalls" #B);                                        \
    }
RX_SH_ASET(32)
RX_SH_ASET(64)

#define RX_SH_TOALL(T, N, OPNAME, OP)                                                        \
    void shmem_##N##_##OPNAME##_to_all(T *dest, const T *source, int nreduce, int PE_start,  \
                                       int logPE_stride, int PE_size, T *pWrk, long *pSync)  \
    {                                                                                        \
        const char *fn = "shmem_" #N "_" #OPNAME "_to_all";                                  \
        shmem_team_t t = RX_SH_SET(fn);                                                      \
        (void)pWrk;                                                                          \
        if (nreduce < 0)                                                                     \
            rx_sh_fatal(fn, "nreduce %d is negative", nreduce);                              \
        rx_sh_reduce(t, dest, source, (size_t)nreduce, RX_SH_R_##N, sizeof(T), OP, fn);      \
    }
#define RX_SH_BITTOALL(T, N)                                                                 \
    RX_SH_TOALL(T, N, and, RX_OP_BAND) RX_SH_TOALL(T, N, or, RX_OP_BOR)                      \
    RX_SH_TOALL(T, N, xor, RX_OP_BXOR)
#define RX_SH_CMPTOALL(T, N) RX_SH_TOALL(T, N, max, RX_OP_MAX) RX_SH_TOALL(T, N, min, RX_OP_MIN)
#define RX_SH_ARITHTOALL(T, N)                                                               \
    RX_SH_TOALL(T, N, sum, RX_OP_SUM) RX_SH_TOALL(T, N, prod, RX_OP_PROD)
RDMX_SHMEM_TOALL_BIT_TYPES(RX_SH_BITTOALL)
RDMX_SHMEM_TOALL_CMP_TYPES(RX_SH_CMPTOALL)
RDMX_SHMEM_TOALL_ARITH_TYPES(RX_SH_ARITHTOALL)
