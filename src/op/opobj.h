/* SPDX-License-Identifier: MIT
 * Op objects: the predefined ops (handle indices 1..14, src/op/op.h) and
 * user ops from MPI_Op_create. */
#ifndef RX_OP_OPOBJ_H
#define RX_OP_OPOBJ_H

#include "core/handle.h"
#include "dtype/dtype.h"

#include <stddef.h>

typedef void rx_user_fn_t(void *in, void *inout, int *len, int *dtype);
/* MPI_User_function_c (MPI_Op_create_c): the count is an MPI_Count */
typedef void rx_user_fn_c_t(void *in, void *inout, long long *len, int *dtype);

typedef struct rx_opobj {
    int index;
    int predefined;          /* rx_op_id for predefined ops, 0 for user ops */
    int commute;
    rx_user_fn_t *fn;
    rx_user_fn_c_t *fn_c;    /* set instead of fn by MPI_Op_create_c */
    int holds;               /* nonblocking collectives in flight using it */
    int freed;               /* MPI_Op_free came while held: freed by the last release */
} rx_opobj_t;

extern rx_htab_t rx_op_table;
int rx_opobj_init(void);
void rx_opobj_fini(void);
static inline rx_opobj_t *rx_opobj_get(int handle)
{
    return (rx_opobj_t *)rx_htab_get(&rx_op_table, handle);
}
/* Operations in flight hold a user op, so MPI_Op_free may come first. */
static inline void rx_opobj_hold(rx_opobj_t *op)
{
    if (!op->predefined)
        op->holds++;
}
void rx_opobj_unhold(rx_opobj_t *op);
/* 1 if op may be applied to elements of dtype. */
int rx_opobj_valid(const rx_opobj_t *op, const rx_dtype_t *dt);
/* inout = in (op) inout over count elements of dtype (contiguous layout). */
void rx_opobj_apply(const rx_opobj_t *op, const rx_dtype_t *dt, const void *in, void *inout,
                    size_t count);

#endif
