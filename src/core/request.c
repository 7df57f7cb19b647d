/* SPDX-License-Identifier: MIT */
#include "request.h"
#include "comm.h"
#include "handle.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

/* Chunks of requests never move, so pointers stay valid while ids are handed
 * to the application. An id is the slot index with a generation above it:
 * releasing a request moves its slot to the next generation, so a stale
 * MPI_Request fails lookup instead of naming a newer operation, and free slots
 * are reused oldest first (a ring), so one slot's generations cycle slowly. */
#define RX_REQ_GEN_MASK ((1u << (RX_HANDLE_ID_BITS - RX_REQ_INDEX_BITS)) - 1)

rx_req_t *rx_req_chunks[RX_REQ_MAX_CHUNKS];
int rx_req_nchunks;
rx_req_t rx_req_done_send = {.kind = RX_REQ_SEND, .complete = 1, .index = -1, .peer = -1,
                             .world_peer = -1};
static int *rx_req_free_ring;    /* the next id of each free slot, oldest first */
static unsigned rx_req_free_head, rx_req_nfree, rx_req_free_cap; /* cap: a power of two */
static int rx_req_live;

static void rx_req_push_free(int id)
{
    rx_req_free_ring[(rx_req_free_head + rx_req_nfree++) & (rx_req_free_cap - 1)] = id;
}

/* Room in the ring for every slot after one more chunk, order kept. */
static int rx_req_ring_room(void)
{
    unsigned need = (unsigned)(rx_req_nchunks + 1) * RX_REQ_CHUNK, cap = rx_req_free_cap;
    if (need <= cap)
        return RX_OK;
    while (cap < need)
        cap = cap ? cap * 2 : RX_REQ_CHUNK;
    int *ring = malloc(sizeof *ring * cap);
    if (!ring)
        return RX_ERR_NOMEM;
    for (unsigned i = 0; i < rx_req_nfree; i++)
        ring[i] = rx_req_free_ring[(rx_req_free_head + i) & (rx_req_free_cap - 1)];
    free(rx_req_free_ring);
    rx_req_free_ring = ring;
    rx_req_free_cap = cap;
    rx_req_free_head = 0;
    return RX_OK;
}

static int rx_req_grow(void)
{
    if (rx_req_nchunks == RX_REQ_MAX_CHUNKS) /* every index live: refuse, never wrap */
        return RX_ERR_NOMEM;
    if (rx_req_ring_room() != RX_OK)
        return RX_ERR_NOMEM;
    rx_req_t *c = calloc(RX_REQ_CHUNK, sizeof *c);
    if (!c)
        return RX_ERR_NOMEM;
    int base = rx_req_nchunks * RX_REQ_CHUNK;
    rx_req_chunks[rx_req_nchunks++] = c;
    /* index 0 is never handed out: handle index 0 means MPI_REQUEST_NULL */
    for (int i = 0; i < RX_REQ_CHUNK; i++) {
        c[i].index = -1;
        if (base + i != 0)
            rx_req_push_free(base + i);
    }
    return RX_OK;
}

static rx_req_t *rx_req_slot(unsigned index)
{
    return &rx_req_chunks[index / RX_REQ_CHUNK][index % RX_REQ_CHUNK];
}

rx_req_t *rx_req_alloc(int kind)
{
    if (!rx_req_nfree && rx_req_grow() != RX_OK)
        return NULL;
    int id = rx_req_free_ring[rx_req_free_head];
    rx_req_free_head = (rx_req_free_head + 1) & (rx_req_free_cap - 1);
    rx_req_nfree--;
    rx_req_t *r = rx_req_slot((unsigned)id & RX_REQ_INDEX_MASK);
    memset(r, 0, sizeof *r);
    r->index = id;
    r->kind = kind;
    r->world_peer = -1;
    rx_req_live++;
    return r;
}

static void rx_req_unhold_comm(rx_req_t *req)
{
    if (!req->comm_held)
        return;
    req->comm_held = 0;
    if (rx_comm_unhold(req->comm))
        req->comm = NULL; /* freed by the application meanwhile: now reclaimed */
}

void rx_req_hold_comm(rx_req_t *req, struct rx_comm *c)
{
    req->comm = c;
    if (!req->comm_held) {
        rx_comm_hold(c);
        req->comm_held = 1;
    }
}

void rx_req_release(rx_req_t *req)
{
    if (!req || req->index <= 0)
        return;
    rx_req_unhold_comm(req);
    unsigned id = (unsigned)req->index, gen = id >> RX_REQ_INDEX_BITS;
    if (req->staging) {
        free(req->staging);
        req->staging = NULL;
    }
    req->index = -1;
    req->kind = 0;
    rx_req_push_free((int)(((gen + 1) & RX_REQ_GEN_MASK) << RX_REQ_INDEX_BITS |
                           (id & RX_REQ_INDEX_MASK)));
    rx_req_live--;
}

void (*rx_req_freed_persistent_done)(rx_req_t *req);

void rx_req_complete(rx_req_t *req)
{
    req->complete = 1;
    if (req->kind != RX_REQ_PSEND && req->kind != RX_REQ_PRECV)
        rx_req_unhold_comm(req);
    if (req->user_freed) {
        if (req->kind != RX_REQ_PSEND && req->kind != RX_REQ_PRECV)
            rx_req_release(req);
        else if (rx_req_freed_persistent_done)
            rx_req_freed_persistent_done(req);
    }
}

int rx_req_live_count(void) { return rx_req_live; }

void rx_req_pool_fini(void)
{
    for (int i = 0; i < rx_req_nchunks; i++)
        free(rx_req_chunks[i]);
    rx_req_nchunks = 0;
    free(rx_req_free_ring);
    rx_req_free_ring = NULL;
    rx_req_nfree = rx_req_free_cap = rx_req_free_head = 0;
    rx_req_live = 0;
}
