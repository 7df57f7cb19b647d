/* SPDX-License-Identifier: MIT
 * Teams and contexts as the SHMEM library sees them. A team is a
 * communicator of the core (a private one per team, so its collectives never
 * meet the application's MPI traffic); its members are listed by world PE. */
#ifndef RX_SHMEM_TEAM_IMPL_H
#define RX_SHMEM_TEAM_IMPL_H

#include "shmem_impl.h"

#define RX_SH_CTX_MAGIC 0x53434f4eu  /* live context */
#define RX_SH_TEAM_MAGIC 0x5354454du /* live team */

struct rdmx_shmem_ctx {
    uint32_t magic;
    long options;
    shmem_team_t team;         /* NULL: the world */
};

struct rdmx_shmem_team {
    uint32_t magic;
    rx_comm_t *comm;           /* the team's own (src/mpi/comm_internal.h) */
    int my_pe, n_pes;
    const int *world;          /* world PE of each member (comm->world) */
    shmem_team_config_t config;
    int predefined;            /* SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED: never destroyed */
    int nctx;                  /* contexts created from it and not yet destroyed */
};

int rx_sh_ctx_new(shmem_team_t team, long options, shmem_ctx_t *ctx);
/* The world PE of pe given with ctx; ends the job for a bad ctx or pe. */
int rx_sh_ctx_pe(shmem_ctx_t ctx, int pe, const char *fn);
/* A context of team was destroyed: frees a destroyed team with its last one. */
void rx_sh_team_ctx_gone(shmem_team_t team);
/* End the job unless team is a live team. */
void rx_sh_team_ok(shmem_team_t team, const char *fn);

/* A team of the world PEs pes[0..n-1] (in that order, the caller among
 * them), made by those PEs only (the others take no part); tag as for
 * rx_comm_derive_members. RX_OK or an RX status. */
int rx_sh_team_of_members(const int *pes, int n, int tag, shmem_team_t *out);
/* Give back a team from rx_sh_team_of_members (no context of it left). */
void rx_sh_team_free(shmem_team_t team);

/* rdmx basic datatype ids of the reduction types (src/dtype/basic.h) */
#define RX_SH_R_char 1
#define RX_SH_R_schar 2
#define RX_SH_R_uchar 3
#define RX_SH_R_short 5
#define RX_SH_R_ushort 6
#define RX_SH_R_int 7
#define RX_SH_R_uint 8
#define RX_SH_R_long 9
#define RX_SH_R_ulong 10
#define RX_SH_R_longlong 11
#define RX_SH_R_ulonglong 12
#define RX_SH_R_float 13
#define RX_SH_R_double 14
#define RX_SH_R_longdouble 15
#define RX_SH_R_int8 18
#define RX_SH_R_int16 19
#define RX_SH_R_int32 20
#define RX_SH_R_int64 21
#define RX_SH_R_uint8 22
#define RX_SH_R_uint16 23
#define RX_SH_R_uint32 24
#define RX_SH_R_uint64 25
#define RX_SH_R_size 25
#define RX_SH_R_ptrdiff 21
#define RX_SH_R_complexf 26
#define RX_SH_R_complexd 27
_Static_assert(sizeof(size_t) == 8 && sizeof(ptrdiff_t) == 8, "reduction types mapped for LP64");

/* coll.c: the team collectives, for the deprecated active-set forms too
 * (active_set.c); fn names the routine in messages. root_dest: the root's
 * dest receives the broadcast (1.5 teams; not for active sets). */
int rx_sh_broadcast(shmem_team_t team, void *dest, const void *source, size_t nelems,
                    size_t esize, int root, int root_dest, const char *fn);
int rx_sh_collect(shmem_team_t team, void *dest, const void *source, size_t nelems,
                  size_t esize, const char *fn);
int rx_sh_fcollect(shmem_team_t team, void *dest, const void *source, size_t nelems,
                   size_t esize, const char *fn);
int rx_sh_alltoalls(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                    ptrdiff_t sst, size_t nelems, size_t esize, const char *fn);
/* basic: the rdmx basic datatype id (RX_SH_R_*, coll.c); op: RX_OP_* */
int rx_sh_reduce(shmem_team_t team, void *dest, const void *source, size_t n, int basic,
                 size_t esize, int op, const char *fn);

/* active_set.c: gives back the teams of the active sets used */
void rx_sh_aset_fini(void);

#endif
