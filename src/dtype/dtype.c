/* SPDX-License-Identifier: MIT */
#include "dtype.h"
#include "basic.h"
#include "util/status.h"

#include <stdlib.h>

rx_htab_t rx_dtype_table = {.kind = RX_KIND_DATATYPE};
static rx_dtype_t rx_basic_types[RX_BASIC_COUNT];

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
        d->wire = d->size;
        d->contig = 1;
        d->name = rx_basic_info[i].name;
        if (rx_basic_info[i].cls == RX_CLASS_PAIR) /* MPI counts the members only */
            d->size = rx_pair_value_size(i) + sizeof(int);
        if (rx_htab_set(&rx_dtype_table, i, d) != RX_OK)
            return RX_ERR_NOMEM;
    }
    return RX_OK;
}

void rx_dtype_fini(void)
{
    rx_htab_free(&rx_dtype_table);
}
