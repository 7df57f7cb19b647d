/* SPDX-License-Identifier: MIT
 * hyperion-mini: a 3D Poisson solver by conjugate gradients, the example the
 * README runs. Usage:
 *   hyperion-mini [-n N] [-i ITERS] [-t TOL] [-m p2p|neighbor|persistent] [-p EVERY]
 * (hyperion-mini-shmem, built with -DHY_WITH_SHMEM, also takes -m shmem).
 * Prints a progress line every EVERY iterations, then the residual, the error
 * against the exact solution and where the time went (maximum over ranks).
 * Exits 0 when the solution is within the stated tolerance, 1 otherwise. */
#include "solver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HY_WITH_SHMEM
#include <shmem.h>
#define HY_NMODES 4
#else
#define HY_NMODES 3
#endif

static void usage(void)
{
    printf("usage: hyperion-mini [-n N] [-i ITERS] [-t TOL] [-m p2p|neighbor|persistent] [-p EVERY]\n"
           "  -n N      interior grid points per dimension (default 64: N^3 unknowns)\n"
           "  -i ITERS  iteration limit (default 1000)\n"
           "  -t TOL    stop when |r|/|b| < TOL (default 1e-8)\n"
           "  -m MODE   face exchange: p2p (Isend/Irecv, default), persistent (Send_init/\n"
           "            Recv_init + Startall) or neighbor (MPI_Neighbor_alltoallw)\n"
#ifdef HY_WITH_SHMEM
           "            or shmem (OpenSHMEM puts and a signal per face)\n"
#endif
           "  -p EVERY  progress line every EVERY iterations (default 25, 0: none)\n");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
#ifdef HY_WITH_SHMEM
    shmem_init();
#endif
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    hy_opts_t o = {.n = 64, .max_iter = 1000, .tol = 1e-8, .halo = HY_HALO_P2P, .print_every = 25};
    const char *modes[] = {"p2p", "neighbor", "persistent", "shmem"};
    int c;
    while ((c = getopt(argc, argv, "n:i:t:m:p:h")) != -1) {
        switch (c) {
        case 'n': o.n = atoi(optarg); break;
        case 'i': o.max_iter = atoi(optarg); break;
        case 't': o.tol = atof(optarg); break;
        case 'p': o.print_every = atoi(optarg); break;
        case 'm':
            o.halo = -1;
            for (int k = 0; k < HY_NMODES; k++)
                if (!strcmp(optarg, modes[k]))
                    o.halo = k;
            if (o.halo >= 0)
                break;
            /* fall through */
        default:
            if (rank == 0)
                usage();
            MPI_Finalize();
            return c == 'h' ? 0 : 2;
        }
    }
    if (o.n < 1 || o.max_iter < 1 || !(o.tol > 0)) {
        if (rank == 0)
            usage();
        MPI_Finalize();
        return 2;
    }
    if (rank == 0)
        printf("hyperion-mini: %d^3 unknowns on %d ranks, faces by %s, tolerance %.1e\n", o.n, size,
               modes[o.halo], o.tol);
    hy_result_t r;
    if (hy_solve(MPI_COMM_WORLD, &o, &r)) {
        if (rank == 0)
            fprintf(stderr, "hyperion-mini: a %d^3 grid cannot be split over %d ranks\n", o.n, size);
        MPI_Finalize();
        return 2;
    }
    /* the 7-point stencil is exact for the chosen solution, so what is left
     * is the solver's error: bounded by the condition number (about
     * 0.4 (N+1)^2) times the residual tolerance */
    double cond = 0.41 * (o.n + 1.0) * (o.n + 1.0), rel_err = r.max_error / r.max_u;
    double bound = 2 * cond * o.tol;
    int ok = r.rel_residual < o.tol && rel_err <= bound;
    if (rank == 0) {
        double per = r.iters ? r.t_total / r.iters : 0;
        printf("grid %d x %d x %d ranks; %d iterations, relative residual %.3e\n", r.dims[0],
               r.dims[1], r.dims[2], r.iters, r.rel_residual);
        printf("error against the exact solution: %.3e relative (bound %.1e)\n", rel_err, bound);
        printf("time %.3f s, %.1f us per iteration (max over ranks):\n", r.t_total, per * 1e6);
        printf("  compute   %8.3f s  %5.1f %%\n", r.t_compute, 100 * r.t_compute / r.t_total);
        printf("  halo      %8.3f s  %5.1f %%\n", r.t_halo, 100 * r.t_halo / r.t_total);
        printf("  allreduce %8.3f s  %5.1f %%\n", r.t_allreduce, 100 * r.t_allreduce / r.t_total);
        printf("checksum %.12e\n", r.checksum);
        printf("check: %s\n", ok ? "PASSED" : r.rel_residual >= o.tol
                                                  ? "FAILED (no convergence within the iteration limit)"
                                                  : "FAILED (solution outside the bound)");
    }
#ifdef HY_WITH_SHMEM
    shmem_finalize();
#endif
    MPI_Finalize();
    return ok ? 0 : 1;
}
