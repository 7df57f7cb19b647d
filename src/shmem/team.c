/* SPDX-License-Identifier: MIT
 * Teams: SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED (the PEs of this node, whose
 * heaps shmem_ptr reaches) and the teams split from them. Each team owns a
 * private communicator of the core for its collectives (rx_comm_derive:
 * split as MPI_Comm_split splits, without an MPI handle); contexts hold their
 * team, which lives on (unusable) after shmem_team_destroy until its last
 * context is destroyed. */
#include "team_impl.h"
#include "coll/coll.h"
#include "core/rt.h"
#include "mpi/comm_internal.h"
#include "util/status.h"

#include <stdio.h>
#include <stdlib.h>

static struct rdmx_shmem_team rx_sh_world_team, rx_sh_shared_team;
shmem_team_t SHMEM_TEAM_WORLD = &rx_sh_world_team;
shmem_team_t SHMEM_TEAM_SHARED = &rx_sh_shared_team;

static void rx_sh_team_fill(shmem_team_t t, rx_comm_t *c)
{
    t->magic = RX_SH_TEAM_MAGIC;
    t->comm = c;
    t->my_pe = t->comm->rank;
    t->n_pes = t->comm->size;
    t->world = t->comm->world;
    t->config.num_contexts = 0;
}

int rx_sh_team_init(void)
{
    rx_sh_team_fill(&rx_sh_world_team, rx_sh.world);
    rx_sh_world_team.predefined = 1;
    /* the node index: one colour per node, as MPI_COMM_TYPE_SHARED splits */
    rx_comm_t *sh;
    int rc = rx_comm_derive(rx_sh.world, rx_rt.node_of[rx_rt.rank], rx_sh.me, &sh);
    if (rc != RX_OK)
        return rc;
    snprintf(sh->name, sizeof sh->name, "SHMEM_TEAM_SHARED");
    rx_sh_team_fill(&rx_sh_shared_team, sh);
    rx_sh_shared_team.predefined = 1;
    return RX_OK;
}

void rx_sh_team_fini(void)
{
    rx_sh_aset_fini();
    rx_comm_release_internal(rx_sh_shared_team.comm);
    rx_sh_shared_team.comm = NULL;
    rx_sh_shared_team.magic = 0;
    rx_sh_world_team.magic = 0;
}

void rx_sh_team_ok(shmem_team_t team, const char *fn)
{
    rx_sh_check_init(fn);
    if (__builtin_expect(!team || team->magic != RX_SH_TEAM_MAGIC, 0))
        rx_sh_fatal(fn, "%s is not a team", team ? "the argument" : "SHMEM_TEAM_INVALID");
}

static int rx_sh_team_live(shmem_team_t t) { return t && t->magic == RX_SH_TEAM_MAGIC; }

int shmem_team_my_pe(shmem_team_t team)
{
    rx_sh_check_init("shmem_team_my_pe");
    return rx_sh_team_live(team) ? team->my_pe : -1;
}

int shmem_team_n_pes(shmem_team_t team)
{
    rx_sh_check_init("shmem_team_n_pes");
    return rx_sh_team_live(team) ? team->n_pes : -1;
}

int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config)
{
    rx_sh_check_init("shmem_team_get_config");
    if (!rx_sh_team_live(team) || !config || (config_mask & ~SHMEM_TEAM_NUM_CONTEXTS))
        return -1;
    if (config_mask & SHMEM_TEAM_NUM_CONTEXTS)
        config->num_contexts = team->config.num_contexts;
    return 0;
}

int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team)
{
    rx_sh_check_init("shmem_team_translate_pe");
    if (!rx_sh_team_live(src_team) || !rx_sh_team_live(dest_team) || src_pe < 0 ||
        src_pe >= src_team->n_pes)
        return -1;
    int r = rx_group_rank_of(dest_team->comm->group, src_team->world[src_pe]);
    return r < 0 ? -1 : r;
}

/* A new team from parent members with the given color (negative: not a
 * member), ordered by key. Collective over parent. */
static int rx_sh_team_split(shmem_team_t parent, int color, int key,
                            const shmem_team_config_t *config, long mask, shmem_team_t *out)
{
    RX_SH_CS_SCOPE;
    rx_comm_t *c;
    *out = SHMEM_TEAM_INVALID;
    if (rx_comm_derive(parent->comm, color, key, &c) != RX_OK)
        return -1;
    if (!c)
        return 0;
    shmem_team_t t = calloc(1, sizeof *t);
    if (!t) {
        rx_comm_release_internal(c);
        return -1;
    }
    snprintf(c->name, sizeof c->name, "SHMEM team");
    rx_sh_team_fill(t, c);
    if (config && (mask & SHMEM_TEAM_NUM_CONTEXTS))
        t->config.num_contexts = config->num_contexts;
    *out = t;
    return 0;
}

int rx_sh_team_of_members(const int *pes, int n, int tag, shmem_team_t *out)
{
    RX_SH_CS_SCOPE;
    rx_comm_t *c;
    *out = SHMEM_TEAM_INVALID;
    int rc = rx_comm_derive_members(rx_sh.world, pes, n, tag, &c);
    if (rc != RX_OK)
        return rc;
    shmem_team_t t = calloc(1, sizeof *t);
    if (!t) {
        rx_comm_release_internal(c);
        return RX_ERR_NOMEM;
    }
    snprintf(c->name, sizeof c->name, "SHMEM active set");
    rx_sh_team_fill(t, c);
    *out = t;
    return RX_OK;
}

void rx_sh_team_free(shmem_team_t team)
{
    RX_SH_CS_SCOPE;
    rx_comm_release_internal(team->comm);
    free(team);
}

int shmem_team_split_strided(shmem_team_t parent, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask,
                             shmem_team_t *new_team)
{
    rx_sh_check_init("shmem_team_split_strided");
    if (!new_team)
        return -1;
    *new_team = SHMEM_TEAM_INVALID;
    if (!rx_sh_team_live(parent))
        return -1;
    /* every PE evaluates the same arguments: all return -1 together */
    long long last = (long long)start + (long long)stride * (size - 1);
    if (size < 1 || start < 0 || start >= parent->n_pes || last < 0 ||
        last >= parent->n_pes || (stride == 0 && size > 1) ||
        (config_mask & ~SHMEM_TEAM_NUM_CONTEXTS) || (config_mask && !config))
        return -1;
    int me = parent->my_pe, color = -1, key = 0;
    long long d = (long long)me - start;
    if (stride == 0 ? d == 0 : d % stride == 0 && d / stride >= 0 && d / stride < size) {
        color = 0;
        key = stride ? (int)(d / stride) : 0;
    }
    return rx_sh_team_split(parent, color, key, config, config_mask, new_team);
}

int shmem_team_split_2d(shmem_team_t parent, int xrange, const shmem_team_config_t *xaxis_config,
                        long xaxis_mask, shmem_team_t *xaxis_team,
                        const shmem_team_config_t *yaxis_config, long yaxis_mask,
                        shmem_team_t *yaxis_team)
{
    rx_sh_check_init("shmem_team_split_2d");
    if (!xaxis_team || !yaxis_team)
        return -1;
    *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
    if (!rx_sh_team_live(parent) || xrange < 1 ||
        ((xaxis_mask | yaxis_mask) & ~SHMEM_TEAM_NUM_CONTEXTS) ||
        (xaxis_mask && !xaxis_config) || (yaxis_mask && !yaxis_config))
        return -1;
    if (xrange > parent->n_pes)
        xrange = parent->n_pes;
    int me = parent->my_pe, x = me % xrange, y = me / xrange;
    if (rx_sh_team_split(parent, y, x, xaxis_config, xaxis_mask, xaxis_team) != 0)
        return -1;
    return rx_sh_team_split(parent, x, y, yaxis_config, yaxis_mask, yaxis_team);
}

void shmem_team_destroy(shmem_team_t team)
{
    rx_sh_team_ok(team, "shmem_team_destroy");
    if (team->predefined)
        rx_sh_fatal("shmem_team_destroy", "a predefined team cannot be destroyed");
    RX_SH_CS_SCOPE;
    shmem_quiet();
    rx_comm_release_internal(team->comm);
    team->magic = 0;
    team->comm = NULL;
    if (!team->nctx)
        free(team);
}

void rx_sh_team_ctx_gone(shmem_team_t team)
{
    RX_SH_CS_SCOPE;
    if (team && --team->nctx == 0 && team->magic != RX_SH_TEAM_MAGIC && !team->predefined)
        free(team);
}

int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx)
{
    rx_sh_check_init("shmem_team_create_ctx");
    if (!ctx)
        return -1;
    *ctx = SHMEM_CTX_INVALID;
    RX_SH_CS_SCOPE;
    if (!rx_sh_team_live(team))
        return -1;
    if (rx_sh_ctx_new(team, options, ctx) != 0)
        return -1;
    team->nctx++;
    return 0;
}

int shmem_team_sync(shmem_team_t team)
{
    rx_sh_team_ok(team, "shmem_team_sync");
    RX_SH_CS_SCOPE;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return rx_coll_barrier(team->comm) == RX_OK ? 0 : -1;
}
