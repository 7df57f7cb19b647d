/* SPDX-License-Identifier: MIT
 * Team collectives. Broadcast, fcollect and the reductions are the core's
 * collectives (rx_coll_*: schedules, node-shared fast paths) on the team's
 * communicator; collect with differing counts and the all-to-alls write
 * straight into the members' symmetric dest arrays with puts, between two
 * team barriers (the first so that no member's dest is still in use by
 * what it did before the call, the second so that every put has landed).
 * Each holds the critical section in MULTIPLE (shmem_impl.h). */
#include "team_impl.h"
#include "coll/coll.h"
#include "op/op.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

static int rx_sh_coll_ok(int rc, const char *fn)
{
    if (rc != RX_OK)
        rx_sh_fatal(fn, "%s", rx_status_string(rc));
    return 0;
}

/* Team valid (else -1, what the standard asks), count * esize fits. */
static int rx_sh_coll_args(shmem_team_t team, size_t nelems, size_t esize, size_t *bytes,
                           const char *fn)
{
    rx_sh_check_init(fn);
    if (!team || team->magic != RX_SH_TEAM_MAGIC)
        return -1;
    if (nelems > SIZE_MAX / esize / (size_t)team->n_pes)
        rx_sh_fatal(fn, "%zu elements of %zu bytes overflow", nelems, esize);
    *bytes = nelems * esize;
    return 0;
}

static void rx_sh_need(const void *p, size_t len, const char *what, const char *fn)
{
    if (len && !p)
        rx_sh_fatal(fn, "%s is NULL", what);
}

int rx_sh_broadcast(shmem_team_t team, void *dest, const void *source, size_t nelems,
                    size_t esize, int root, int root_dest, const char *fn)
{
    RX_SH_CS_SCOPE;
    size_t bytes;
    if (rx_sh_coll_args(team, nelems, esize, &bytes, fn) || root < 0 || root >= team->n_pes)
        return -1;
    rx_sh_need(dest, bytes, "dest", fn);
    rx_sh_need(source, bytes, "source", fn);
    if (team->my_pe == root && !root_dest) /* active sets: the root's dest stays */
        return rx_sh_coll_ok(rx_coll_bcast((void *)source, bytes, root, team->comm), fn);
    /* 1.5 teams: the root's dest receives the data too */
    if (team->my_pe == root && bytes)
        memmove(dest, source, bytes);
    return rx_sh_coll_ok(rx_coll_bcast(dest, bytes, root, team->comm), fn);
}

int rx_sh_fcollect(shmem_team_t team, void *dest, const void *source, size_t nelems,
                   size_t esize, const char *fn)
{
    RX_SH_CS_SCOPE;
    size_t bytes;
    if (rx_sh_coll_args(team, nelems, esize, &bytes, fn))
        return -1;
    rx_sh_need(dest, bytes, "dest", fn);
    rx_sh_need(source, bytes, "source", fn);
    return rx_sh_coll_ok(rx_coll_allgather(source, bytes, dest, team->comm), fn);
}

/* Puts into every member's dest, then the closing barrier. */
static int rx_sh_team_barrier(shmem_team_t team, const char *fn)
{
    RX_SH_CS_SCOPE;
    rx_sh_quiet_pe(-1);
    return rx_sh_coll_ok(rx_coll_barrier(team->comm), fn);
}

int rx_sh_collect(shmem_team_t team, void *dest, const void *source, size_t nelems,
                  size_t esize, const char *fn)
{
    RX_SH_CS_SCOPE;
    size_t bytes;
    if (rx_sh_coll_args(team, 1, esize, &bytes, fn))
        return -1;
    if (nelems > SIZE_MAX / esize)
        rx_sh_fatal(fn, "%zu elements of %zu bytes overflow", nelems, esize);
    bytes = nelems * esize;
    rx_sh_need(source, bytes, "source", fn);
    int n = team->n_pes;
    uint64_t *cnt = malloc(sizeof *cnt * (size_t)n), mine = bytes;
    if (!cnt)
        rx_sh_fatal(fn, "out of memory");
    rx_sh_coll_ok(rx_coll_allgather(&mine, sizeof mine, cnt, team->comm), fn);
    uint64_t off = 0, total = 0;
    int same = 1;
    for (int i = 0; i < n; i++) {
        if (i < team->my_pe)
            off += cnt[i];
        total += cnt[i];
        same &= cnt[i] == cnt[0];
    }
    free(cnt);
    if (total)
        rx_sh_need(dest, total, "dest", fn);
    if (same) /* every member sends as much: the core's allgather */
        return rx_sh_coll_ok(rx_coll_allgather(source, bytes, dest, team->comm), fn);
    for (int k = 0; k < n && bytes; k++) {
        int j = (team->my_pe + k) % n;
        rx_sh_put((char *)dest + off, source, bytes, team->world[j], 1, fn);
    }
    return rx_sh_team_barrier(team, fn);
}

int rx_sh_alltoalls(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                    ptrdiff_t sst, size_t nelems, size_t esize, const char *fn)
{
    RX_SH_CS_SCOPE;
    size_t bytes;
    if (rx_sh_coll_args(team, nelems, esize, &bytes, fn))
        return -1;
    if (dst < 1 || sst < 1)
        rx_sh_fatal(fn, "strides must be positive (dst %td, sst %td)", dst, sst);
    int n = team->n_pes, me = team->my_pe;
    rx_sh_need(dest, bytes, "dest", fn);
    rx_sh_need(source, bytes, "source", fn);
    rx_sh_coll_ok(rx_coll_barrier(team->comm), fn);
    for (int k = 0; k < n && nelems; k++) {
        int j = (me + k) % n;
        if (dst == 1 && sst == 1) {
            rx_sh_put((char *)dest + (size_t)me * bytes, (const char *)source + (size_t)j * bytes,
                      bytes, team->world[j], 1, fn);
            continue;
        }
        for (size_t e = 0; e < nelems; e++)
            rx_sh_put((char *)dest + ((size_t)me * nelems + e) * (size_t)dst * esize,
                      (const char *)source + ((size_t)j * nelems + e) * (size_t)sst * esize,
                      esize, team->world[j], 1, fn);
    }
    return rx_sh_team_barrier(team, fn);
}

int rx_sh_reduce(shmem_team_t team, void *dest, const void *source, size_t n, int basic,
                 size_t esize, int op, const char *fn)
{
    RX_SH_CS_SCOPE;
    size_t bytes;
    if (rx_sh_coll_args(team, n, esize, &bytes, fn))
        return -1;
    rx_sh_need(dest, bytes, "dest", fn);
    rx_sh_need(source, bytes, "source", fn);
    if (!n)
        return 0;
    const char *s = source, *d = dest;
    if (s != d && s < d + bytes && d < s + bytes)
        rx_sh_fatal(fn, "source and dest overlap without being the same array");
    return rx_sh_coll_ok(rx_coll_allreduce(source, dest, n,
                                           rx_dtype_get(RX_HANDLE(RX_KIND_DATATYPE, basic)),
                                           rx_opobj_get(RX_HANDLE(RX_KIND_OP, op)), team->comm),
                         fn);
}

/* byte forms */
int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems,
                       int root)
{
    return rx_sh_broadcast(team, dest, source, nelems, 1, root, 1, "shmem_broadcastmem");
}
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    return rx_sh_collect(team, dest, source, nelems, 1, "shmem_collectmem");
}
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    return rx_sh_fcollect(team, dest, source, nelems, 1, "shmem_fcollectmem");
}
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    return rx_sh_alltoalls(team, dest, source, 1, 1, nelems, 1, "shmem_alltoallmem");
}
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems)
{
    return rx_sh_alltoalls(team, dest, source, dst, sst, nelems, 1, "shmem_alltoallsmem");
}

#define RX_SH_COLL(T, N)                                                                     \
    int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems,    \
                              int root)                                                      \
    {                                                                                        \
        return rx_sh_broadcast(team, dest, source, nelems, sizeof(T), root, 1,               \
                               "shmem_" #N "_broadcast");                                    \
    }                                                                                        \
    int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems)      \
    {                                                                                        \
        return rx_sh_collect(team, dest, source, nelems, sizeof(T), "shmem_" #N "_collect"); \
    }                                                                                        \
    int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems)     \
    {                                                                                        \
        return rx_sh_fcollect(team, dest, source, nelems, sizeof(T), "shmem_" #N "_fcollect"); \
    }                                                                                        \
    int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems)     \
    {                                                                                        \
        return rx_sh_alltoalls(team, dest, source, 1, 1, nelems, sizeof(T),                  \
                               "shmem_" #N "_alltoall");                                     \
    }                                                                                        \
    int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst,    \
                              ptrdiff_t sst, size_t nelems)                                  \
    {                                                                                        \
        return rx_sh_alltoalls(team, dest, source, dst, sst, nelems, sizeof(T),              \
                               "shmem_" #N "_alltoalls");                                    \
    }
RDMX_SHMEM_RMA_TYPES(RX_SH_COLL)

#define RX_SH_RED(T, N, OPNAME, OP)                                                          \
    int shmem_##N##_##OPNAME##_reduce(shmem_team_t team, T *dest, const T *source, size_t n) \
    {                                                                                        \
        return rx_sh_reduce(team, dest, source, n, RX_SH_R_##N, sizeof(T), OP,               \
                            "shmem_" #N "_" #OPNAME "_reduce");                              \
    }
#define RX_SH_BITRED(T, N)                                                                   \
    RX_SH_RED(T, N, and, RX_OP_BAND) RX_SH_RED(T, N, or, RX_OP_BOR) RX_SH_RED(T, N, xor, RX_OP_BXOR)
#define RX_SH_CMPRED(T, N) RX_SH_RED(T, N, max, RX_OP_MAX) RX_SH_RED(T, N, min, RX_OP_MIN)
#define RX_SH_ARITHRED(T, N) RX_SH_RED(T, N, sum, RX_OP_SUM) RX_SH_RED(T, N, prod, RX_OP_PROD)
RDMX_SHMEM_BITRED_TYPES(RX_SH_BITRED)
RDMX_SHMEM_CMPRED_TYPES(RX_SH_CMPRED)
RDMX_SHMEM_ARITHRED_TYPES(RX_SH_ARITHRED)
