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
    size_t wire;            /* bytes one element occupies when sent (packed form);
                             * pair types travel with their padding: wire = extent */
    intptr_t lb, extent;
    intptr_t true_lb, true_extent;
    int basic;              /* the basic type every element is made of, 0 if mixed */
    size_t basic_count;     /* basic elements per element */
    int contig;             /* count elements are count * extent contiguous bytes,
                             * already in wire form (sent without packing) */
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
int rx_basic_class(int basic);

#endif
