/* SPDX-License-Identifier: MIT */
#include "comm.h"
#include "rt.h"

#include <stdlib.h>
#include <string.h>

rx_group_t *rx_group_new(int size)
{
    rx_group_t *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->world = malloc(sizeof(int) * (size_t)(size > 0 ? size : 1));
    if (!g->world) {
        free(g);
        return NULL;
    }
    g->size = size;
    g->refcount = 1;
    g->rank = -32766;
    return g;
}

void rx_group_ref(rx_group_t *g) { g->refcount++; }

void rx_group_unref(rx_group_t *g)
{
    if (g && --g->refcount == 0) {
        free(g->world);
        free(g);
    }
}

int rx_group_rank_of(const rx_group_t *g, int w)
{
    for (int i = 0; i < g->size; i++)
        if (g->world[i] == w)
            return i;
    return -32766;
}

static uint32_t rx_ctx_free[RX_CTX_WORDS];
static int rx_ctx_init_done;

uint32_t *rx_ctx_mask(void)
{
    if (!rx_ctx_init_done) {
        memset(rx_ctx_free, 0xff, sizeof rx_ctx_free);
        rx_ctx_init_done = 1;
    }
    return rx_ctx_free;
}

static int rx_ctx_pick_in(const uint32_t *common, int first_word, int end_word)
{
    for (int w = first_word; w < end_word; w++)
        if (common[w])
            return w * 32 + __builtin_ctz(common[w]);
    return -1;
}

int rx_ctx_pick(const uint32_t *common) { return rx_ctx_pick_in(common, 0, RX_CTX_NB_FIRST / 32); }

int rx_ctx_pick_nb(const uint32_t *common)
{
    return rx_ctx_pick_in(common, RX_CTX_NB_FIRST / 32, RX_CTX_WORDS);
}

void rx_ctx_take(int id) { rx_ctx_mask()[id / 32] &= ~(1u << (id % 32)); }
void rx_ctx_release(int id) { rx_ctx_mask()[id / 32] |= 1u << (id % 32); }

rx_comm_t *rx_comm_new(rx_group_t *group, uint32_t ctx)
{
    rx_comm_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->group = group;
    rx_group_ref(group);
    c->world = group->world;
    c->size = group->size;
    c->rank = group->rank;
    c->ctx = ctx;
    c->local_rank = -1;
    for (int i = 0; i < group->size; i++) {
        if (rx_rt.node_of && rx_rt.node_of[group->world[i]] == rx_rt.node_of[rx_rt.rank]) {
            if (i == c->rank)
                c->local_rank = c->local_size;
            c->local_size++;
        }
    }
    return c;
}

void (*rx_comm_reclaim)(rx_comm_t *c);

int rx_comm_unhold(rx_comm_t *c)
{
    if (--c->busy > 0 || !c->freed || !rx_comm_reclaim)
        return 0;
    rx_comm_reclaim(c);
    return 1;
}

void rx_comm_destroy(rx_comm_t *c)
{
    if (!c)
        return;
    while (c->attrs) {
        rx_attr_t *a = c->attrs->next;
        free(c->attrs);
        c->attrs = a;
    }
    rx_group_unref(c->group);
    rx_group_unref(c->remote);
    free(c->topo);
    free(c);
}
