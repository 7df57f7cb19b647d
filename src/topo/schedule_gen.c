/* SPDX-License-Identifier: MIT
 * Writes collective schedules in the schedule format, so that the simulator can replay
 * collectives for any process count (docs/topo.md). The schedules are those the runtime
 * executes: the builders of src/coll/sched*.c are the one description of each algorithm.
 * BYTES is the message size of the collective: the vector of an allreduce/reduce/bcast, one
 * rank's block of a gather/allgather/scatter, one pair's block of an all-to-all. */
#include "sim.h"
#include "coll/sched.h"
#include "util/log.h"
#include "util/status.h"

#include <string.h>

int rx_schedule_generate(FILE *f, const char *algo, uint32_t n, uint64_t bytes)
{
    int kind, al;
    if (rx_sched_parse_name(algo, &kind, &al) != 0) {
        rx_log_error("rdmx-topo: unknown schedule algorithm \"%s\" (KIND-ALGORITHM as in "
                     "docs/collectives.md, e.g. allreduce-recursive-doubling, allreduce-ring, "
                     "allgather-ring, alltoall-pairwise, bcast-binomial, barrier-dissemination)", algo);
        return RX_ERR_INVAL;
    }
    if (n < 1) {
        rx_log_error("rdmx-topo: a schedule needs at least one rank");
        return RX_ERR_INVAL;
    }
    rx_sched_args_t a = {.kind = kind, .algo = al, .p = (int)n, .commute = 1, .unit = 1};
    int red = kind == RX_COLL_REDUCE || kind == RX_COLL_ALLREDUCE || kind == RX_COLL_REDUCE_SCATTER ||
              kind == RX_COLL_SCAN || kind == RX_COLL_EXSCAN;
    if (red)
        a.count = bytes;
    else
        a.bytes = bytes;
    if (!rx_sched_algo_fits(&a)) {
        rx_log_error("rdmx-topo: %s does not apply to %u ranks and %llu bytes", algo, n,
                     (unsigned long long)bytes);
        return RX_ERR_INVAL;
    }
    if (kind == RX_COLL_REDUCE_SCATTER) {
        rx_log_error("rdmx-topo: reduce_scatter schedules are not generated (per-rank counts)");
        return RX_ERR_INVAL;
    }
    int rc = rx_sched_write(f, algo, a);
    return rc == RX_OK && ferror(f) ? RX_ERR_IO : rc;
}
