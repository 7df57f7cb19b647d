/* SPDX-License-Identifier: MIT
 * Reusable staging buffers for data that must be packed or unpacked. A large
 * malloc is a fresh mapping whose pages fault in on first touch, on every
 * message; buffers kept here stay mapped and warm. Buffers are plain malloc
 * blocks, so one that is never given back (a request released elsewhere) is
 * simply freed like any other. */
#define _GNU_SOURCE
#include "p2p.h"

#include <malloc.h>
#include <stdlib.h>

enum { RX_STAGE_KEEP = 8 };
#define RX_STAGE_MAX_BYTES ((size_t)64 << 20) /* more than this is not worth keeping */

static struct {
    void *buf;
    size_t cap;
} rx_stage_pool[RX_STAGE_KEEP];
static int rx_stage_n;
static size_t rx_stage_bytes;

void *rx_stage_get(size_t bytes)
{
    int best = -1;
    for (int i = 0; i < rx_stage_n; i++)
        if (rx_stage_pool[i].cap >= bytes &&
            (best < 0 || rx_stage_pool[i].cap < rx_stage_pool[best].cap))
            best = i;
    if (best < 0)
        return malloc(bytes ? bytes : 1);
    void *b = rx_stage_pool[best].buf;
    rx_stage_bytes -= rx_stage_pool[best].cap;
    rx_stage_pool[best] = rx_stage_pool[--rx_stage_n];
    return b;
}

void rx_stage_put(void *buf)
{
    if (!buf)
        return;
    size_t cap = malloc_usable_size(buf);
    if (cap > RX_STAGE_MAX_BYTES) {
        free(buf);
        return;
    }
    /* full: the smallest buffer makes room (large ones are the costly ones) */
    while (rx_stage_n == RX_STAGE_KEEP || rx_stage_bytes + cap > RX_STAGE_MAX_BYTES) {
        int small = 0;
        for (int i = 1; i < rx_stage_n; i++)
            if (rx_stage_pool[i].cap < rx_stage_pool[small].cap)
                small = i;
        if (!rx_stage_n || rx_stage_pool[small].cap > cap) {
            free(buf);
            return;
        }
        free(rx_stage_pool[small].buf);
        rx_stage_bytes -= rx_stage_pool[small].cap;
        rx_stage_pool[small] = rx_stage_pool[--rx_stage_n];
    }
    rx_stage_pool[rx_stage_n].buf = buf;
    rx_stage_pool[rx_stage_n++].cap = cap;
    rx_stage_bytes += cap;
}

void rx_stage_fini(void)
{
    while (rx_stage_n)
        free(rx_stage_pool[--rx_stage_n].buf);
    rx_stage_bytes = 0;
}
