/* SPDX-License-Identifier: MIT
 * Writing the traffic matrix of RDMX_TRACE. Counting is the p2p layer's
 * (src/p2p/trace.h); here the rows meet at rank 0 and become the file. */
#include "trace.h"
#include "mpi_impl.h"
#include "p2p/trace.h"
#include "util/config.h"
#include "util/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rx_trace_wanted;

void rx_mpi_trace_start(void)
{
    const char *path = rx_config()->TRACE;
    if (!path || !*path)
        return;
    rx_trace_wanted = 1;
    if (rx_trace_begin(rx_rt.size) != RX_OK)
        rx_log_error("RDMX_TRACE: out of memory; the matrix will show no traffic from this rank");
}

static void rx_trace_write(const char *path, const uint64_t *all, int p)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        rx_log_error("RDMX_TRACE: cannot write %s: %s", path, strerror(errno));
        return;
    }
    fprintf(f, "# rdmx traffic matrix v1\n"
               "# %d ranks; point-to-point messages and bytes sent, collectives included as the\n"
               "# messages of their algorithms\n", p);
    for (int s = 0; s < p; s++)
        for (int d = 0; d < p; d++) {
            const uint64_t *c = all + ((size_t)s * (size_t)p + (size_t)d) * 2;
            if (c[0])
                fprintf(f, "%d %d %llu %llu\n", s, d, (unsigned long long)c[0],
                        (unsigned long long)c[1]);
        }
    if (fclose(f) != 0)
        rx_log_error("RDMX_TRACE: writing %s failed: %s", path, strerror(errno));
}

void rx_mpi_trace_finish(void)
{
    if (!rx_trace_wanted)
        return;
    rx_trace_wanted = 0;
    rx_trace_cell_t *row = rx_trace_end(); /* the gather below is not counted */
    int p = rx_rt.size;
    uint64_t *mine = calloc((size_t)p * 2, sizeof *mine);
    uint64_t *all = rx_rt.rank == 0 ? calloc((size_t)p * (size_t)p * 2, sizeof *all) : NULL;
    if (!mine || (rx_rt.rank == 0 && !all)) {
        rx_log_error("RDMX_TRACE: out of memory for the matrix of %d ranks", p);
    }
    if (mine && row)
        for (int d = 0; d < p; d++) {
            mine[2 * d] = row[d].msgs;
            mine[2 * d + 1] = row[d].bytes;
        }
    /* every rank takes part even when short of memory, so nobody waits */
    uint64_t zero[2] = {0, 0};
    if (mine)
        PMPI_Gather(mine, 2 * p, MPI_UINT64_T, all, 2 * p, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    else
        PMPI_Gather(zero, 0, MPI_UINT64_T, all, 2 * p, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    if (rx_rt.rank == 0 && all)
        rx_trace_write(rx_config()->TRACE, all, p);
    free(row);
    free(mine);
    free(all);
}
