/* SPDX-License-Identifier: MIT */
#include "request.h"
#include "comm.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

/* Chunks of requests never move, so pointers stay valid while indices are
 * handed to the application. */
#define RX_REQ_CHUNK 1024
#define RX_REQ_MAX_CHUNKS 4096

static rx_req_t *rx_req_chunks[RX_REQ_MAX_CHUNKS];
static int rx_req_nchunks;
static int *rx_req_free_list;
static int rx_req_nfree, rx_req_free_cap;
static int rx_req_live;

static int rx_req_grow(void)
{
    if (rx_req_nchunks == RX_REQ_MAX_CHUNKS)
        return RX_ERR_NOMEM;
    rx_req_t *c = calloc(RX_REQ_CHUNK, sizeof *c);
    if (!c)
        return RX_ERR_NOMEM;
    int need = rx_req_nfree + RX_REQ_CHUNK;
    if (need > rx_req_free_cap) {
        int *nf = realloc(rx_req_free_list, sizeof(int) * (size_t)need * 2);
        if (!nf) {
            free(c);
            return RX_ERR_NOMEM;
        }
        rx_req_free_list = nf;
        rx_req_free_cap = need * 2;
    }
    int base = rx_req_nchunks * RX_REQ_CHUNK;
    rx_req_chunks[rx_req_nchunks++] = c;
    /* index 0 is never handed out: handle index 0 means MPI_REQUEST_NULL */
    for (int i = RX_REQ_CHUNK - 1; i >= 0; i--) {
        if (base + i == 0)
            continue;
        c[i].index = -1;
        rx_req_free_list[rx_req_nfree++] = base + i;
    }
    return RX_OK;
}

rx_req_t *rx_req_alloc(int kind)
{
    if (!rx_req_nfree && rx_req_grow() != RX_OK)
        return NULL;
    int idx = rx_req_free_list[--rx_req_nfree];
    rx_req_t *r = &rx_req_chunks[idx / RX_REQ_CHUNK][idx % RX_REQ_CHUNK];
    memset(r, 0, sizeof *r);
    r->index = idx;
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
    int idx = req->index;
    free(req->staging);
    req->staging = NULL;
    req->index = -1;
    req->kind = 0;
    rx_req_free_list[rx_req_nfree++] = idx;
    rx_req_live--;
}

rx_req_t *rx_req_lookup(int index)
{
    if (index <= 0 || index >= rx_req_nchunks * RX_REQ_CHUNK)
        return NULL;
    rx_req_t *r = &rx_req_chunks[index / RX_REQ_CHUNK][index % RX_REQ_CHUNK];
    return r->index == index ? r : NULL;
}

void rx_req_complete(rx_req_t *req)
{
    req->complete = 1;
    if (req->kind != RX_REQ_PSEND && req->kind != RX_REQ_PRECV)
        rx_req_unhold_comm(req);
    if (req->user_freed && req->kind != RX_REQ_PSEND && req->kind != RX_REQ_PRECV)
        rx_req_release(req);
}

int rx_req_live_count(void) { return rx_req_live; }

void rx_req_pool_fini(void)
{
    for (int i = 0; i < rx_req_nchunks; i++)
        free(rx_req_chunks[i]);
    rx_req_nchunks = 0;
    free(rx_req_free_list);
    rx_req_free_list = NULL;
    rx_req_nfree = rx_req_free_cap = 0;
    rx_req_live = 0;
}
