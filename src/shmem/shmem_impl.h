/* SPDX-License-Identifier: MIT
 * OpenSHMEM on the rdmx core: the library's internal interface.
 *
 * The library sits on the core as the MPI binding does, never on MPI calls:
 * its world and teams are communicators of src/mpi/comm_internal.h (no MPI
 * handle, no error handler) and symmetric memory is two windows of the rma
 * layer (rx_win_setup) over private duplicates of the world:
 *   heap  every PE's symmetric heap, SHMEM_SYMMETRIC_SIZE bytes in an
 *         anonymous memory file that the other PEs of the node map (the
 *         allocate flavour): a put is a copy into the mapping, an atomic a
 *         CPU atomic instruction; other nodes reach it by the network's RMA
 *         and atomics.
 *   data  the program's writable static data (.data and .bss of the
 *         executable, found from its program headers), the same layout in
 *         every PE: a window of the create flavour over user memory, reached
 *         by cross-memory attach within the node, by the network across
 *         nodes.
 * A symmetric address is translated to (window, offset); the rma layer
 * (rx_rma_do) moves the bytes and applies atomics for every target that is
 * not mapped here. The windows stay in a passive epoch (lock_all, no check)
 * from shmem_init to shmem_finalize. */
#ifndef RX_SHMEM_IMPL_H
#define RX_SHMEM_IMPL_H

#include "rma/rma.h"
#include "util/cs.h"

#include <shmem.h>
#include <stddef.h>
#include <stdint.h>

typedef struct rx_sh_seg {
    char *base;        /* this PE's copy */
    size_t size;
    rx_win_t *win;     /* on a private duplicate of the world */
} rx_sh_seg_t;

enum { RX_SH_HEAP, RX_SH_DATA, RX_SH_NSEG };

typedef struct rx_sh_state {
    int initialized, finalized;
    int me, npes;
    rx_comm_t *world;           /* private duplicate of the world */
    rx_sh_seg_t seg[RX_SH_NSEG];
    int thread_level;
} rx_sh_state_t;

extern rx_sh_state_t rx_sh;

/* Threads. Under MPI_THREAD_MULTIPLE (rx_mt, src/util/cs.h) a SHMEM routine
 * that touches the runtime's shared state - progress, the rma layer's
 * windows and pending operations, collectives, teams' communicators, the
 * heap's block list - holds the library's critical section, the one every
 * MPI call holds, for that part of the call; its waits give it up between
 * polls and while sleeping, as MPI's do (RX_WAIT_UNTIL). Below MULTIPLE it
 * costs one predicted branch. RX_SH_CS_SCOPE takes it until the enclosing
 * block ends (every return included); it is recursive, so a routine may call
 * another that takes it.
 *
 * Puts, gets and atomics on a target mapped here take no lock: they read
 * only what is fixed from shmem_init to shmem_finalize (the segments' bases
 * and sizes, the windows' per-target kind, base, size and lockacc) and
 * write the user's symmetric memory itself, by plain copies or CPU atomic
 * instructions, which is what the standard leaves to the program. */
static inline int rx_sh_cs_take(void)
{
    if (__builtin_expect(!rx_mt, 1))
        return 0;
    rx_cs_enter();
    return 1;
}
static inline void rx_sh_cs_leave(int *taken)
{
    if (*taken)
        rx_cs_exit();
}
#define RX_SH_CS_SCOPE                                                                       \
    int rx_sh_cs_taken_ __attribute__((cleanup(rx_sh_cs_leave), unused)) = rx_sh_cs_take()

/* Report a misuse (bad PE, address not symmetric, call before init) and end
 * the job: SHMEM routines have no error returns. */
_Noreturn void rx_sh_fatal(const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void rx_sh_check_init(const char *fn);
void rx_sh_check_pe(int pe, const char *fn);

/* heap.c: windows over the heap and the static data */
int rx_sh_heap_init(void);
void rx_sh_heap_fini(void);
/* The segment holding [addr, addr+len), with the offset; NULL if none. */
rx_sh_seg_t *rx_sh_locate(const void *addr, size_t len, uint64_t *off);
/* The same, ending the job with a message when addr is not symmetric. */
rx_sh_seg_t *rx_sh_find(const void *addr, size_t len, const char *fn, uint64_t *off);

/* rma.c: bytes between local memory and symmetric memory of pe. nbi: the
 * call may return before completion (quiet completes it). */
void rx_sh_put(void *dest, const void *src, size_t bytes, int pe, int nbi, const char *fn);
void rx_sh_get(void *dest, const void *src, size_t bytes, int pe, int nbi, const char *fn);
/* Complete every operation this PE issued (to pe, or every PE if pe < 0). */
void rx_sh_quiet_pe(int pe);
/* One poll of the progress engine (under the critical section in MULTIPLE). */
void rx_sh_progress(void);

/* atomic.c: one atomic on a symmetric element of size esize (basic: the
 * rdmx basic datatype id). op: RX_OP_SUM/BAND/BOR/BXOR/REPLACE/NO_OP, or
 * RX_SH_CSWAP. fetched NULL: no result wanted. */
#define RX_SH_CSWAP (-1)
void rx_sh_amo(int op, int basic, size_t esize, void *dest, const void *val, const void *cmp,
               void *fetched, int pe, const char *fn);

/* ctx.c: end the job unless ctx is the default or a live created context. */
void rx_sh_ctx_ok(shmem_ctx_t ctx, const char *fn);

/* team.c */
int rx_sh_team_init(void);
/* What SHMEM_VERSION, SHMEM_INFO and SHMEM_DEBUG ask shmem_init to print. */
void rx_sh_env_report(void);
void rx_sh_team_fini(void);

/* sync.c: comparisons of point-to-point synchronization */
int rx_sh_cmp_ok(int cmp);

#endif
