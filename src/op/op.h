/* SPDX-License-Identifier: MIT
 * Reduction operations on the basic datatypes (src/dtype/basic.h).
 * Predefined op IDs are ABI: include/mpi.h repeats them as handle indices. */
#ifndef RX_OP_OP_H
#define RX_OP_OP_H

#include <stddef.h>

enum rx_op_id {
    RX_OP_NULL = 0,
    RX_OP_MAX = 1, RX_OP_MIN = 2, RX_OP_SUM = 3, RX_OP_PROD = 4,
    RX_OP_LAND = 5, RX_OP_BAND = 6, RX_OP_LOR = 7, RX_OP_BOR = 8,
    RX_OP_LXOR = 9, RX_OP_BXOR = 10, RX_OP_MINLOC = 11, RX_OP_MAXLOC = 12,
    RX_OP_REPLACE = 13, RX_OP_NO_OP = 14,
    RX_OP_PREDEFINED_COUNT = 15
};

/* 1 if the predefined op is defined on the basic type (MPI-4.0 6.9.2), else 0.
 * REPLACE and NO_OP are valid on every basic type. */
int rx_op_valid(int op, int basic);

/* inout[i] = in[i] (op) inout[i] for count elements of the basic type.
 * REPLACE: inout[i] = in[i]; NO_OP: inout unchanged. MINLOC/MAXLOC follow the
 * standard's tie rule (smaller index wins). Precondition: rx_op_valid(). */
void rx_op_apply(int op, int basic, const void *in, void *inout, size_t count);

/* Name for messages, e.g. "MPI_SUM". */
const char *rx_op_name(int op);

#endif
