/* SPDX-License-Identifier: MIT */
#include "trace.h"
#include "util/status.h"

#include <stdlib.h>

rx_trace_cell_t *rx_trace_row;

int rx_trace_begin(int size)
{
    rx_trace_row = calloc((size_t)size, sizeof *rx_trace_row);
    return rx_trace_row ? RX_OK : RX_ERR_NOMEM;
}

rx_trace_cell_t *rx_trace_end(void)
{
    rx_trace_cell_t *row = rx_trace_row;
    rx_trace_row = NULL;
    return row;
}
