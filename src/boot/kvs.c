/* SPDX-License-Identifier: MIT */
#include "kvs.h"
#include "util/status.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct rx_kvs_entry {
    struct rx_kvs_entry *next;
    char *value;
    char key[RX_KVS_KEY_MAX];
} rx_kvs_entry_t;

struct rx_kvs {
    rx_kvs_entry_t **buckets; /* committed entries, chained */
    size_t nbuckets, count;
    rx_kvs_entry_t *pending;  /* staged puts, newest first */
};

static uint64_t rx_kvs_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

int rx_kvs_create(rx_kvs_t **out)
{
    rx_kvs_t *kvs = calloc(1, sizeof *kvs);
    if (!kvs)
        return RX_ERR_NOMEM;
    kvs->nbuckets = 64;
    kvs->buckets = calloc(kvs->nbuckets, sizeof *kvs->buckets);
    if (!kvs->buckets) {
        free(kvs);
        return RX_ERR_NOMEM;
    }
    *out = kvs;
    return RX_OK;
}

static void rx_kvs_free_list(rx_kvs_entry_t *e)
{
    while (e) {
        rx_kvs_entry_t *next = e->next;
        free(e->value);
        free(e);
        e = next;
    }
}

void rx_kvs_destroy(rx_kvs_t *kvs)
{
    if (!kvs)
        return;
    for (size_t i = 0; i < kvs->nbuckets; i++)
        rx_kvs_free_list(kvs->buckets[i]);
    rx_kvs_free_list(kvs->pending);
    free(kvs->buckets);
    free(kvs);
}

int rx_kvs_put(rx_kvs_t *kvs, const char *key, const char *value)
{
    size_t klen = strlen(key), vlen = strlen(value);
    if (klen == 0 || klen >= RX_KVS_KEY_MAX || vlen >= RX_KVS_VAL_MAX)
        return RX_ERR_INVAL;
    rx_kvs_entry_t *e = malloc(sizeof *e);
    if (!e)
        return RX_ERR_NOMEM;
    e->value = malloc(vlen + 1);
    if (!e->value) {
        free(e);
        return RX_ERR_NOMEM;
    }
    memcpy(e->key, key, klen + 1);
    memcpy(e->value, value, vlen + 1);
    e->next = kvs->pending;
    kvs->pending = e;
    return RX_OK;
}

static rx_kvs_entry_t **rx_kvs_slot(const rx_kvs_t *kvs, const char *key)
{
    rx_kvs_entry_t **p = &kvs->buckets[rx_kvs_hash(key) & (kvs->nbuckets - 1)];
    while (*p && strcmp((*p)->key, key))
        p = &(*p)->next;
    return p;
}

/* Doubling keeps chains short for jobs that publish many keys per rank. */
static int rx_kvs_grow(rx_kvs_t *kvs)
{
    size_t n = kvs->nbuckets * 2;
    rx_kvs_entry_t **b = calloc(n, sizeof *b);
    if (!b)
        return RX_ERR_NOMEM;
    for (size_t i = 0; i < kvs->nbuckets; i++) {
        rx_kvs_entry_t *e = kvs->buckets[i];
        while (e) {
            rx_kvs_entry_t *next = e->next;
            size_t h = rx_kvs_hash(e->key) & (n - 1);
            e->next = b[h];
            b[h] = e;
            e = next;
        }
    }
    free(kvs->buckets);
    kvs->buckets = b;
    kvs->nbuckets = n;
    return RX_OK;
}

int rx_kvs_commit(rx_kvs_t *kvs)
{
    /* Reverse the pending list first so that, of two puts of one key, the
     * later wins. */
    rx_kvs_entry_t *e = kvs->pending, *ordered = NULL;
    kvs->pending = NULL;
    while (e) {
        rx_kvs_entry_t *next = e->next;
        e->next = ordered;
        ordered = e;
        e = next;
    }
    while ((e = ordered)) {
        ordered = e->next;
        rx_kvs_entry_t **slot = rx_kvs_slot(kvs, e->key);
        if (*slot) {
            free((*slot)->value);
            (*slot)->value = e->value;
            free(e);
            continue;
        }
        if (kvs->count >= kvs->nbuckets && rx_kvs_grow(kvs) == RX_OK)
            slot = rx_kvs_slot(kvs, e->key);
        e->next = NULL;
        *slot = e;
        kvs->count++;
    }
    return RX_OK;
}

const char *rx_kvs_get(const rx_kvs_t *kvs, const char *key)
{
    rx_kvs_entry_t *e = *rx_kvs_slot(kvs, key);
    return e ? e->value : NULL;
}

size_t rx_kvs_count(const rx_kvs_t *kvs)
{
    return kvs->count;
}
