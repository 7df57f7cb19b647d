/* SPDX-License-Identifier: MIT */
#include "dtype.h"
#include "basic.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

rx_htab_t rx_dtype_table = {.kind = RX_KIND_DATATYPE};
static rx_dtype_t rx_basic_types[RX_BASIC_COUNT];
static struct rx_dtype_block rx_basic_blocks[RX_BASIC_COUNT][2];
static struct rx_dtype_run rx_basic_runs[RX_BASIC_COUNT];

static const struct {
    size_t size, align;
    const char *name;
    int cls;
} rx_basic_info[RX_BASIC_COUNT] = {
#define RX_BASIC(id, ctype, mpiname, cls) \
    [id] = {sizeof(ctype), _Alignof(ctype), #mpiname, RX_CLASS_##cls},
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
    case 66: return sizeof(float);  /* MPI_2REAL */
    case 67: return sizeof(double); /* MPI_2DOUBLE_PRECISION */
    default: return sizeof(int); /* MPI_2INT, MPI_2INTEGER */
    }
}

/* The Fortran pairs index by a value of their own type, the others by int. */
static size_t rx_pair_index_size(int id)
{
    return id == 66 || id == 67 ? rx_pair_value_size(id) : sizeof(int);
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
        d->align = rx_basic_info[i].align;
        d->combiner = RX_COMB_NAMED;
        d->runs = &rx_basic_runs[i];
        d->runs->basic = i;
        d->runs->count = 1;
        d->nruns = 1;
        if (rx_basic_info[i].cls == RX_CLASS_PAIR) { /* MPI counts the members only */
            size_t v = rx_pair_value_size(i), x = rx_pair_index_size(i);
            d->size = v + x;
            rx_basic_blocks[i][0].len = v;
            /* the index follows the value at its own alignment */
            rx_basic_blocks[i][1].off = (intptr_t)((v + x - 1) & ~(x - 1));
            rx_basic_blocks[i][1].len = x;
            d->nblocks = 2;
        }
        d->wire = d->size;
        rx_dtype_commit(d);
        if (rx_htab_set(&rx_dtype_table, i, d) != RX_OK)
            return RX_ERR_NOMEM;
    }
    return RX_OK;
}

void rx_dtype_ref(rx_dtype_t *d)
{
    if (d && !d->predefined)
        d->refcount++;
}

static void rx_dtype_destroy(rx_dtype_t *d)
{
    free(d->blocks);
    free(d->runs);
    free(d->ints);
    free(d->aints);
    free(d->lcounts);
    free(d->types);
    free(d);
}

void rx_dtype_unref(rx_dtype_t *d)
{
    if (!d || d->predefined || --d->refcount > 0)
        return;
    for (int i = 0; i < d->nt; i++)
        rx_dtype_unref(rx_dtype_get_held(d->types[i]));
    rx_htab_del(&rx_dtype_table, d->index);
    rx_dtype_destroy(d);
}

/* Types the application never freed go with the runtime. */
void rx_dtype_fini(void)
{
    for (int i = RX_BASIC_COUNT; i < rx_dtype_table.n; i++)
        if (rx_dtype_table.slot[i])
            rx_dtype_destroy(rx_dtype_table.slot[i]);
    rx_htab_free(&rx_dtype_table);
}

long long rx_dtype_elements(const rx_dtype_t *d, size_t bytes)
{
    if (d->wire == 0)
        return 0;
    long long n = (long long)(bytes / d->wire) * (long long)d->basic_count;
    size_t rest = bytes % d->wire;
    for (int i = 0; rest && i < d->nruns; i++) {
        size_t sz = rx_basic_types[d->runs[i].basic].size;
        size_t k = rest / sz;
        if (k < d->runs[i].count)
            return rest % sz ? -1 : n + (long long)k;
        n += (long long)d->runs[i].count;
        rest -= d->runs[i].count * sz;
    }
    return rest ? -1 : n;
}
