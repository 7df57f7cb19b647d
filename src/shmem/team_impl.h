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

#endif
