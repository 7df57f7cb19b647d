/* SPDX-License-Identifier: MIT */
#include "op/opobj.h"
#include "op/op.h"
#include "util/status.h"

#include <limits.h>
#include <stdlib.h>

rx_htab_t rx_op_table = {.kind = RX_KIND_OP};
static rx_opobj_t rx_predef_ops[RX_OP_PREDEFINED_COUNT];

int rx_opobj_init(void)
{
    for (int i = 1; i < RX_OP_PREDEFINED_COUNT; i++) {
        rx_predef_ops[i].index = i;
        rx_predef_ops[i].predefined = i;
        rx_predef_ops[i].commute = 1;
        if (rx_htab_set(&rx_op_table, i, &rx_predef_ops[i]) != RX_OK)
            return RX_ERR_NOMEM;
    }
    return RX_OK;
}

void rx_opobj_fini(void)
{
    rx_htab_free(&rx_op_table);
}

int rx_opobj_valid(const rx_opobj_t *op, const rx_dtype_t *dt)
{
    if (!op->predefined)
        return 1;
    return dt->basic && rx_op_valid(op->predefined, dt->basic);
}

void rx_opobj_apply(const rx_opobj_t *op, const rx_dtype_t *dt, const void *in, void *inout,
                    size_t count)
{
    if (op->predefined) {
        rx_op_apply(op->predefined, dt->basic, in, inout, count * dt->basic_count);
        return;
    }
    int handle = RX_HANDLE(RX_KIND_DATATYPE, dt->index);
    if (op->fn_c) { /* a large-count function takes the whole buffer at once */
        long long n = (long long)count;
        op->fn_c((void *)in, inout, &n, &handle);
        return;
    }
    /* user functions take an int count: hand over large buffers in slices */
    while (count) {
        int n = count > INT_MAX ? INT_MAX : (int)count;
        op->fn((void *)in, inout, &n, &handle);
        in = (const char *)in + (size_t)n * (size_t)dt->extent;
        inout = (char *)inout + (size_t)n * (size_t)dt->extent;
        count -= (size_t)n;
    }
}

void rx_opobj_unhold(rx_opobj_t *op)
{
    if (op->predefined)
        return;
    if (--op->holds == 0 && op->freed)
        free(op);
}
