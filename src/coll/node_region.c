/* SPDX-License-Identifier: MIT
 * The node path's per-communicator region (layout and protocol in
 * coll_shm.h): made by the first blocking node-path collective of a
 * communicator whose members share a node, kept until the communicator is
 * released. Making it is a step every member takes (the name and the
 * members' votes travel by schedules, see shared_region.c), so only
 * blocking calls make one. */
#include "coll_shm.h"
#include "util/config.h"
#include "util/log.h"
#include "util/status.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#ifdef MADV_POPULATE_WRITE
#define RX_MADV_POPULATE_WRITE MADV_POPULATE_WRITE
#else
#define RX_MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

static rx_shm_state_t **rx_shm_tab; /* by communicator handle index */
static int rx_shm_ntab;

static rx_shm_state_t *rx_shm_lookup(rx_comm_t *c)
{
    if (c->handle < rx_shm_ntab && rx_shm_tab[c->handle] && rx_shm_tab[c->handle]->c == c)
        return rx_shm_tab[c->handle];
    return NULL;
}

void rx_shm_drain(rx_shm_state_t *st)
{
    while (st->offload_pending) {
        if (!rx_progress())
            sched_yield();
    }
}

void rx_coll_comm_release(rx_comm_t *c)
{
    rx_coll_sched_cache_drop(c); /* its cached schedules (exec.c) */
    rx_node_hier_release(c);
    rx_shm_state_t *st = rx_shm_lookup(c);
    if (!st)
        return;
    rx_shm_drain(st);
    rx_shm_tab[c->handle] = NULL;
    rx_shm_state_free(st);
}

/* A state for view's ranks, its region not yet mapped. */
static rx_shm_state_t *rx_shm_new(rx_comm_t *view)
{
    rx_shm_state_t *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    st->c = view;
    st->cma = -1;
    size_t p = (size_t)view->size;
    st->slot = ((size_t)rx_config()->COLL_SHM_MAX + RX_LINE - 1) & ~(size_t)(RX_LINE - 1);
    st->size = (p * 5 + RX_BC_DEPTH) * RX_LINE + (2 * p + 2) * st->slot +
               (size_t)RX_BC_DEPTH * RX_BC_CHUNK;
    return st;
}

/* The layout of coll_shm.h over the mapped region at st->base. */
static void rx_shm_map(rx_shm_state_t *st)
{
    /* Map every page now: otherwise the first collectives that reach a new
     * slot or ring entry pay page faults in every rank (tens of
     * microseconds at 8 ranks), and a benchmark sees them as a slow size.
     * Kernels before 5.14 refuse the advice; the pages then fault later. */
    uintptr_t a = (uintptr_t)st->base & ~(uintptr_t)4095;
    madvise((void *)a, st->size + ((uintptr_t)st->base - a), RX_MADV_POPULATE_WRITE);
    /* the maker created the region zeroed; seq 0 means nothing arrived */
    size_t p = (size_t)st->c->size;
    st->ctrl = st->base;
    st->done = st->ctrl + 2 * p;
    st->fin = st->done + p;
    st->bc_ack = st->fin + p;
    st->bc_line = st->bc_ack + p;
    st->slots = (char *)(st->bc_line + RX_BC_DEPTH);
    st->res = st->slots + 2 * p * st->slot;
    st->bc_data = st->res + 2 * st->slot;
    st->bfree = RX_BC_DEPTH;
}

static rx_shm_state_t *rx_shm_create(rx_comm_t *c, int offload_vote)
{
    if (c->handle >= rx_shm_ntab) {
        int n = c->handle + 16;
        rx_shm_state_t **t = realloc(rx_shm_tab, sizeof *t * (size_t)n);
        if (!t)
            return NULL;
        memset(t + rx_shm_ntab, 0, sizeof *t * (size_t)(n - rx_shm_ntab));
        rx_shm_tab = t;
        rx_shm_ntab = n;
    }
    rx_shm_state_t *st = rx_shm_new(c);
    if (!st)
        return NULL;
    st->offload = offload_vote;
    int rc = rx_coll_shared_region_vote(c, st->size, &st->base, &st->offload);
    rx_shm_tab[c->handle] = st;
    if (rc == RX_OK && st->offload)
        rx_log_info("large nonblocking allreduces of a %d-rank communicator go to the offload thread",
                    c->size);
    if (rc != RX_OK) {
        rx_log_warn("node-shared collectives off for a communicator: %s", rx_status_string(rc));
        st->failed = 1;
        st->base = NULL;
        return st;
    }
    rx_shm_map(st);
    return st;
}

int rx_shm_group_state(rx_comm_t *parent, rx_comm_t *view, int maker, rx_shm_state_t **out)
{
    rx_shm_state_t *st = maker >= 0 ? rx_shm_new(view) : NULL;
    /* a member without memory for its state still takes part, and votes no */
    int ok = maker < 0 || st, rc;
    void *base = NULL;
    rc = rx_coll_group_region(parent, st ? maker : -1, st ? st->size : 0, &base, &ok);
    if (rc == RX_OK && !ok) {
        if (st)
            rx_region_detach(base, st->size);
        rc = RX_ERR_NOMEM;
    }
    *out = NULL;
    if (rc != RX_OK) {
        free(st);
        return rc;
    }
    if (st) {
        st->base = base;
        rx_shm_map(st);
    }
    *out = st;
    return RX_OK;
}

void rx_shm_state_free(rx_shm_state_t *st)
{
    if (!st)
        return;
    if (st->base)
        rx_region_detach(st->base, st->size);
    free(st);
}

rx_shm_state_t *rx_shm_state(rx_comm_t *c, int offload_vote)
{
    rx_shm_state_t *st = rx_shm_lookup(c);
    if (!st)
        st = rx_shm_create(c, offload_vote);
    return st && !st->failed ? st : NULL;
}

rx_shm_state_t *rx_shm_existing(rx_comm_t *c)
{
    rx_shm_state_t *st = rx_shm_lookup(c);
    return st && !st->failed ? st : NULL;
}
