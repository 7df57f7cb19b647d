/* SPDX-License-Identifier: MIT
 * Datatype objects. Predefined types occupy handle indices 1..RX_BASIC_COUNT-1
 * (src/dtype/basic.h); derived types follow. */
#ifndef RX_DTYPE_H
#define RX_DTYPE_H

#include "core/handle.h"

#include <stddef.h>
#include <stdint.h>

typedef struct rx_dtype {
    int index;              /* handle index */
    int refcount;
    int predefined;
    int committed;
    size_t size;            /* bytes of data in one element (MPI_Type_size) */
    size_t wire;            /* bytes one element occupies when sent (packed form) */
    intptr_t lb, extent;
    intptr_t true_lb, true_extent;
    int basic;              /* the basic type every element is made of, 0 if mixed */
    size_t basic_count;     /* basic elements per element */
    int contig;             /* count elements lie in count * extent bytes that may be
                             * copied as they are (padding included): true for every
                             * basic type; collectives move such data raw */
    int nblocks;            /* the data of one element: blocks at offsets from its start */
    struct rx_dtype_block { intptr_t off; size_t len; } *blocks;
    const char *name;
} rx_dtype_t;

extern rx_htab_t rx_dtype_table;

int rx_dtype_init(void);
void rx_dtype_fini(void);
static inline rx_dtype_t *rx_dtype_get(int handle)
{
    return (rx_dtype_t *)rx_htab_get(&rx_dtype_table, handle);
}
const char *rx_basic_name(int basic);

/* Point-to-point data travels packed (count * wire bytes). 1 if the user
 * buffer already is that form, so no staging copy is needed. */
static inline int rx_dtype_wire_is_raw(const rx_dtype_t *d)
{
    return d->contig && d->wire == (size_t)d->extent;
}
/* Pack count elements from src into dst (count * wire bytes). */
void rx_dtype_pack(const rx_dtype_t *d, const void *src, size_t count, void *dst);
/* Unpack the first bytes of packed data into count elements at dst. */
void rx_dtype_unpack(const rx_dtype_t *d, const void *src, size_t bytes, void *dst);
int rx_basic_class(int basic);

#endif
