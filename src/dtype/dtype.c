/* SPDX-License-Identifier: MIT */
#include "dtype.h"
#include "basic.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

rx_htab_t rx_dtype_table = {.kind = RX_KIND_DATATYPE};
static rx_dtype_t rx_basic_types[RX_BASIC_COUNT];
static struct rx_dtype_block rx_basic_blocks[RX_BASIC_COUNT][2];

static const struct {
    size_t size;
    const char *name;
    int cls;
} rx_basic_info[RX_BASIC_COUNT] = {
#define RX_BASIC(id, ctype, mpiname, cls) [id] = {sizeof(ctype), #mpiname, RX_CLASS_##cls},
    RX_BASIC_LIST(RX_BASIC)
#undef RX_BASIC
};

const char *rx_basic_name(int basic)
{
    return basic > 0 && basic < RX_BASIC_COUNT ? rx_basic_info[basic].name : "derived";
}

int rx_basic_class(int basic)
{
    return basic > 0 && basic < RX_BASIC_COUNT ? rx_basic_info[basic].cls : RX_CLASS_NONE;
}

static size_t rx_pair_value_size(int id)
{
    switch (id) {
    case 33: return sizeof(float);
    case 34: return sizeof(double);
    case 35: return sizeof(long);
    case 37: return sizeof(short);
    case 38: return sizeof(long double);
    default: return sizeof(int); /* MPI_2INT, MPI_2INTEGER */
    }
}

int rx_dtype_init(void)
{
    for (int i = 1; i < RX_BASIC_COUNT; i++) {
        rx_dtype_t *d = &rx_basic_types[i];
        d->index = i;
        d->refcount = 1;
        d->predefined = 1;
        d->committed = 1;
        d->size = rx_basic_info[i].size;
        d->lb = d->true_lb = 0;
        d->extent = d->true_extent = (intptr_t)d->size;
        d->basic = i;
        d->basic_count = 1;
        rx_basic_blocks[i][0].off = 0;
        rx_basic_blocks[i][0].len = d->size;
        d->blocks = rx_basic_blocks[i];
        d->nblocks = 1;
        d->contig = 1;
        d->name = rx_basic_info[i].name;
        if (rx_basic_info[i].cls == RX_CLASS_PAIR) { /* MPI counts the members only */
            size_t v = rx_pair_value_size(i);
            d->size = v + sizeof(int);
            rx_basic_blocks[i][0].len = v;
            /* the index follows the value at int alignment */
            rx_basic_blocks[i][1].off = (intptr_t)((v + sizeof(int) - 1) & ~(sizeof(int) - 1));
            rx_basic_blocks[i][1].len = sizeof(int);
            d->nblocks = 2;
        }
        d->wire = d->size;
        if (rx_htab_set(&rx_dtype_table, i, d) != RX_OK)
            return RX_ERR_NOMEM;
    }
    return RX_OK;
}

void rx_dtype_fini(void)
{
    rx_htab_free(&rx_dtype_table);
}

void rx_dtype_pack(const rx_dtype_t *d, const void *src, size_t count, void *dst)
{
    const char *s = src;
    char *o = dst;
    for (size_t e = 0; e < count; e++, s += d->extent)
        for (int b = 0; b < d->nblocks; b++) {
            memcpy(o, s + d->blocks[b].off, d->blocks[b].len);
            o += d->blocks[b].len;
        }
}

void rx_dtype_unpack(const rx_dtype_t *d, const void *src, size_t bytes, void *dst)
{
    const char *in = src;
    char *t = dst;
    for (; bytes; t += d->extent)
        for (int b = 0; b < d->nblocks && bytes; b++) {
            size_t n = d->blocks[b].len < bytes ? d->blocks[b].len : bytes;
            memcpy(t + d->blocks[b].off, in, n);
            in += n;
            bytes -= n;
        }
}
