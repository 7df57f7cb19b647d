/* SPDX-License-Identifier: MIT
 * Traffic tracing (RDMX_TRACE): messages and bytes this rank sends to each
 * world rank, counted where every send enters the p2p layer, so collectives
 * are counted as the point-to-point messages of the algorithm they ran.
 * Off (the usual case) costs one predicted branch per send. */
#ifndef RX_P2P_TRACE_H
#define RX_P2P_TRACE_H

#include <stddef.h>
#include <stdint.h>

typedef struct rx_trace_cell {
    uint64_t msgs, bytes;
} rx_trace_cell_t;

/* NULL unless tracing: one cell per world rank. */
extern rx_trace_cell_t *rx_trace_row;

static inline void rx_trace_count(int world, size_t bytes)
{
    if (__builtin_expect(rx_trace_row != NULL, 0)) {
        rx_trace_row[world].msgs++;
        rx_trace_row[world].bytes += bytes;
    }
}

/* Start counting for a job of size ranks (RX_OK or RX_ERR_NOMEM). */
int rx_trace_begin(int size);
/* Stop counting; returns the row (the caller frees it), NULL if off. */
rx_trace_cell_t *rx_trace_end(void);

#endif
