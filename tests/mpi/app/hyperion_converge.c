/* SPDX-License-Identifier: MIT
 * hyperion-mini converges to the same solution on any number of ranks: the
 * solver (examples/hyperion-mini/solver.c) runs on a 24^3 grid with each
 * face-exchange method; the result must meet the tolerance, lie within the
 * stated bound of the exact solution (2 * 0.41 (N+1)^2 * tol, relative), and
 * match a one-rank solve on rank 0 (MPI_COMM_SELF): same iteration count and
 * solution checksum within 1e-9 relative. The three exchange methods move the
 * same values, so their residual histories and checksums agree exactly. */
#include "rxtest.h"
#include "../../../examples/hyperion-mini/solver.h"

#include <math.h>

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "hyperion_converge");
    hy_opts_t o = {.n = 24, .max_iter = 500, .tol = 1e-9, .quiet = 1};
    hy_result_t ref = {0}, r[3];
    if (rxt_rank == 0)
        RXT_CHECK(hy_solve(MPI_COMM_SELF, &o, &ref) == 0, "serial solve failed");
    RXT_MPI(MPI_Bcast(&ref.iters, 1, MPI_INT, 0, MPI_COMM_WORLD));
    RXT_MPI(MPI_Bcast(&ref.checksum, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD));
    double bound = 2 * 0.41 * (o.n + 1.0) * (o.n + 1.0) * o.tol;
    const char *names[3] = {"p2p", "neighbor", "persistent"};
    for (int m = 0; m < 3; m++) {
        o.halo = m;
        RXT_CHECK(hy_solve(MPI_COMM_WORLD, &o, &r[m]) == 0, "%s: solve failed", names[m]);
        RXT_CHECK(r[m].rel_residual < o.tol, "%s: residual %g after %d iterations", names[m],
                  r[m].rel_residual, r[m].iters);
        RXT_CHECK(r[m].max_error / r[m].max_u <= bound, "%s: error %g above %g", names[m],
                  r[m].max_error / r[m].max_u, bound);
        RXT_CHECK(r[m].iters == ref.iters, "%s: %d iterations, serial %d", names[m], r[m].iters,
                  ref.iters);
        RXT_CHECK(fabs(r[m].checksum - ref.checksum) <= 1e-9 * fabs(ref.checksum),
                  "%s: checksum %.15e, serial %.15e", names[m], r[m].checksum, ref.checksum);
    }
    RXT_CHECK(r[1].checksum == r[0].checksum && r[2].checksum == r[0].checksum,
              "exchange methods differ: %.17g %.17g %.17g", r[0].checksum, r[1].checksum,
              r[2].checksum);
    return rxt_finish();
}
