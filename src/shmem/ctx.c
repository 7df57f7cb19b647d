/* SPDX-License-Identifier: MIT
 * Communication contexts. Every context issues through the same windows,
 * so a context's quiet or fence completes (orders) the operations of every
 * context: more than the standard asks of one context, never less. A
 * context records its team (SHMEM_TEAM_WORLD for shmem_ctx_create): PE
 * numbers passed with a team's context are ranks in that team. */
#include "shmem_impl.h"
#include "team_impl.h"

#include <stdlib.h>

static struct rdmx_shmem_ctx rx_sh_default_ctx = {RX_SH_CTX_MAGIC, 0, NULL};
shmem_ctx_t SHMEM_CTX_DEFAULT = &rx_sh_default_ctx;

void rx_sh_ctx_ok(shmem_ctx_t ctx, const char *fn)
{
    if (__builtin_expect(!ctx || ctx->magic != RX_SH_CTX_MAGIC, 0)) {
        rx_sh_check_init(fn);
        rx_sh_fatal(fn, "%s is not a context", ctx ? "the argument" : "SHMEM_CTX_INVALID");
    }
}

int rx_sh_ctx_pe(shmem_ctx_t ctx, int pe, const char *fn)
{
    rx_sh_ctx_ok(ctx, fn);
    shmem_team_t t = ctx->team;
    if (!t || t == SHMEM_TEAM_WORLD)
        return pe;
    if (t->magic != RX_SH_TEAM_MAGIC) {
        rx_sh_check_init(fn);
        rx_sh_fatal(fn, "the context's team was destroyed");
    }
    if (pe < 0 || pe >= t->n_pes) {
        rx_sh_check_init(fn);
        rx_sh_fatal(fn, "PE %d is outside the context's team (0..%d)", pe, t->n_pes - 1);
    }
    return t->world[pe];
}

int rx_sh_ctx_new(shmem_team_t team, long options, shmem_ctx_t *ctx)
{
    long known = SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE;
    if (!ctx)
        return -1;
    *ctx = SHMEM_CTX_INVALID;
    if (options & ~known)
        return -1;
    struct rdmx_shmem_ctx *c = malloc(sizeof *c);
    if (!c)
        return -1;
    c->magic = RX_SH_CTX_MAGIC;
    c->options = options;
    c->team = team;
    *ctx = c;
    return 0;
}

int shmem_ctx_create(long options, shmem_ctx_t *ctx)
{
    rx_sh_check_init("shmem_ctx_create");
    return rx_sh_ctx_new(SHMEM_TEAM_WORLD, options, ctx);
}

void shmem_ctx_destroy(shmem_ctx_t ctx)
{
    rx_sh_check_init("shmem_ctx_destroy");
    if (ctx == SHMEM_CTX_INVALID)
        return;
    rx_sh_ctx_ok(ctx, "shmem_ctx_destroy");
    if (ctx == SHMEM_CTX_DEFAULT)
        rx_sh_fatal("shmem_ctx_destroy", "SHMEM_CTX_DEFAULT cannot be destroyed");
    shmem_ctx_quiet(ctx);
    ctx->magic = 0;
    if (ctx->team != SHMEM_TEAM_WORLD)
        rx_sh_team_ctx_gone(ctx->team);
    free(ctx);
}

int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team)
{
    rx_sh_check_init("shmem_ctx_get_team");
    if (!team)
        return -1;
    if (!ctx || ctx->magic != RX_SH_CTX_MAGIC) {
        *team = SHMEM_TEAM_INVALID;
        return -1;
    }
    *team = ctx->team ? ctx->team : SHMEM_TEAM_WORLD;
    return 0;
}

void shmem_ctx_quiet(shmem_ctx_t ctx)
{
    rx_sh_check_init("shmem_ctx_quiet");
    if (ctx == SHMEM_CTX_INVALID)
        return; /* 1.5: no effect */
    rx_sh_ctx_ok(ctx, "shmem_ctx_quiet");
    rx_sh_quiet_pe(-1);
}

void shmem_ctx_fence(shmem_ctx_t ctx)
{
    /* completion orders as well as a fence does */
    shmem_ctx_quiet(ctx);
}

void shmem_quiet(void) { shmem_ctx_quiet(SHMEM_CTX_DEFAULT); }
void shmem_fence(void) { shmem_ctx_fence(SHMEM_CTX_DEFAULT); }
