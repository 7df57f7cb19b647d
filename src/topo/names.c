/* SPDX-License-Identifier: MIT */
#include "names.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

static uint64_t rx_names_hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
    return h;
}

uint32_t rx_names_get(const rx_names_t *m, const char *name)
{
    if (!m->cap)
        return UINT32_MAX;
    for (uint64_t i = rx_names_hash(name) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->key[i])
            return UINT32_MAX;
        if (!strcmp(m->key[i], name))
            return m->val[i];
    }
}

static int rx_names_grow(rx_names_t *m)
{
    uint32_t cap = m->cap ? m->cap * 2 : 64;
    char **k = calloc(cap, sizeof *k);
    uint32_t *v = calloc(cap, sizeof *v);
    if (!k || !v) {
        free(k);
        free(v);
        return RX_ERR_NOMEM;
    }
    for (uint32_t j = 0; j < m->cap; j++) {
        if (!m->key[j])
            continue;
        uint64_t i = rx_names_hash(m->key[j]) & (cap - 1);
        while (k[i])
            i = (i + 1) & (cap - 1);
        k[i] = m->key[j];
        v[i] = m->val[j];
    }
    free(m->key);
    free(m->val);
    m->key = k;
    m->val = v;
    m->cap = cap;
    return RX_OK;
}

int rx_names_put(rx_names_t *m, const char *name, uint32_t val)
{
    if ((m->n + 1) * 2 > m->cap) {
        int rc = rx_names_grow(m);
        if (rc)
            return rc;
    }
    uint64_t i = rx_names_hash(name) & (m->cap - 1);
    for (; m->key[i]; i = (i + 1) & (m->cap - 1))
        if (!strcmp(m->key[i], name))
            return RX_ERR_INVAL;
    if (!(m->key[i] = strdup(name)))
        return RX_ERR_NOMEM;
    m->val[i] = val;
    m->n++;
    return RX_OK;
}

void rx_names_free(rx_names_t *m)
{
    for (uint32_t i = 0; i < m->cap; i++)
        free(m->key[i]);
    free(m->key);
    free(m->val);
    memset(m, 0, sizeof *m);
}
