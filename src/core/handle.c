/* SPDX-License-Identifier: MIT */
#include "handle.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

int rx_htab_set(rx_htab_t *t, int index, void *obj)
{
    if (index >= t->cap) {
        int cap = t->cap ? t->cap : 64;
        while (cap <= index)
            cap *= 2;
        void **s = realloc(t->slot, sizeof(void *) * (size_t)cap);
        if (!s)
            return RX_ERR_NOMEM;
        memset(s + t->cap, 0, sizeof(void *) * (size_t)(cap - t->cap));
        t->slot = s;
        t->cap = cap;
    }
    t->slot[index] = obj;
    if (index >= t->n)
        t->n = index + 1;
    return RX_OK;
}

int rx_htab_add(rx_htab_t *t, void *obj, int first)
{
    int i = first < 1 ? 1 : first;
    while (i < t->n && t->slot[i])
        i++;
    if (i > 0xffffff || rx_htab_set(t, i, obj) != RX_OK)
        return -1;
    return i;
}

void rx_htab_del(rx_htab_t *t, int index)
{
    if (index > 0 && index < t->n)
        t->slot[index] = NULL;
}

void rx_htab_free(rx_htab_t *t)
{
    free(t->slot);
    t->slot = NULL;
    t->n = t->cap = 0;
}
