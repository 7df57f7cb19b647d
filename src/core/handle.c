/* SPDX-License-Identifier: MIT */
#include "handle.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

#define RX_HTAB_GEN_MASK ((1u << (RX_HANDLE_ID_BITS - RX_HTAB_INDEX_BITS)) - 1)

static unsigned rx_htab_make(const rx_htab_t *t, unsigned gen, unsigned index)
{
    return ((unsigned)t->kind << 24) | ((gen & RX_HTAB_GEN_MASK) << RX_HTAB_INDEX_BITS) | index;
}

static int rx_htab_grow(rx_htab_t *t, int index)
{
    if (index < t->cap)
        return RX_OK;
    if (index > RX_HTAB_MAX_INDEX)
        return RX_ERR_NOMEM;
    int cap = t->cap ? t->cap : 64;
    while (cap <= index)
        cap *= 2;
    void **s = realloc(t->slot, sizeof *s * (size_t)cap);
    if (!s)
        return RX_ERR_NOMEM;
    t->slot = s;
    unsigned *h = realloc(t->handle, sizeof *h * (size_t)cap);
    if (!h)
        return RX_ERR_NOMEM;
    t->handle = h;
    int *nx = realloc(t->next, sizeof *nx * (size_t)cap);
    if (!nx)
        return RX_ERR_NOMEM;
    t->next = nx;
    for (int i = t->cap; i < cap; i++) {
        s[i] = NULL;
        h[i] = rx_htab_make(t, 0, (unsigned)i);
        nx[i] = -1;
    }
    h[0] = 0; /* no handle of any kind is 0: slot 0 never matches */
    t->cap = cap;
    return RX_OK;
}

int rx_htab_set(rx_htab_t *t, int index, void *obj)
{
    if (index <= 0 || rx_htab_grow(t, index) != RX_OK)
        return RX_ERR_NOMEM;
    t->slot[index] = obj;
    t->handle[index] = rx_htab_make(t, 0, (unsigned)index);
    if (index >= t->n)
        t->n = index + 1;
    return RX_OK;
}

static int rx_htab_pop_free(rx_htab_t *t)
{
    int i = t->free_head;
    t->free_head = t->next[i];
    t->next[i] = -1;
    t->nfree--;
    return i;
}

int rx_htab_add(rx_htab_t *t, void *obj, int first)
{
    int i;
    int fresh = t->n > first ? t->n : (first < 1 ? 1 : first);
    /* a fresh slot while few freed ones wait, so no slot comes back soon */
    if (t->nfree >= RX_HTAB_REUSE_MIN || (t->nfree && fresh > RX_HTAB_MAX_INDEX))
        i = rx_htab_pop_free(t);
    else if (rx_htab_grow(t, fresh) == RX_OK)
        i = fresh;
    else if (t->nfree)
        i = rx_htab_pop_free(t);
    else
        return -1; /* full: an error, never a handle that is already live */
    t->slot[i] = obj;
    if (i >= t->n)
        t->n = i + 1;
    return (int)(t->handle[i] & RX_HANDLE_ID_MASK);
}

/* The slot a live or retired id names, or -1. */
static int rx_htab_find(const rx_htab_t *t, int id)
{
    unsigned i = (unsigned)id & RX_HTAB_INDEX_MASK;
    if (i == 0 || i >= (unsigned)t->n || !t->slot[i] ||
        (t->handle[i] & RX_HANDLE_ID_MASK) != ((unsigned)id & RX_HANDLE_ID_MASK))
        return -1;
    return (int)i;
}

void rx_htab_retire(rx_htab_t *t, int id)
{
    int i = rx_htab_find(t, id);
    if (i > 0)
        t->handle[i] |= RX_HTAB_RETIRED;
}

void rx_htab_revive(rx_htab_t *t, int id)
{
    int i = rx_htab_find(t, id);
    if (i > 0)
        t->handle[i] &= ~RX_HTAB_RETIRED;
}

void rx_htab_del(rx_htab_t *t, int id)
{
    int i = rx_htab_find(t, id);
    if (i < 0)
        return;
    unsigned gen = (t->handle[i] & RX_HANDLE_ID_MASK) >> RX_HTAB_INDEX_BITS;
    t->slot[i] = NULL;
    t->handle[i] = rx_htab_make(t, gen + 1, (unsigned)i);
    t->next[i] = -1;
    if (t->nfree)
        t->next[t->free_tail] = i;
    else
        t->free_head = i;
    t->free_tail = i;
    t->nfree++;
}

void rx_htab_free(rx_htab_t *t)
{
    free(t->slot);
    free(t->handle);
    free(t->next);
    t->slot = NULL;
    t->handle = NULL;
    t->next = NULL;
    t->n = t->cap = 0;
    t->nfree = t->free_head = t->free_tail = 0;
}
