/* SPDX-License-Identifier: MIT
 * hyperion-mini: conjugate gradients on the 7-point Laplacian of the unit
 * cube, -lap(u) = f with u = 0 on the boundary, the N^3 interior points
 * decomposed over a Cartesian communicator. The right-hand side comes from
 * u(x,y,z) = x(1-x) y(1-y) z(1-z), for which the 7-point stencil is exact:
 * the discrete solution equals u at the grid points, so the error against u
 * measures the solver alone. Plain MPI; builds with any MPI library. */
#ifndef HYPERION_SOLVER_H
#define HYPERION_SOLVER_H

#include <mpi.h>

/* HY_HALO_SHMEM: OpenSHMEM puts and a signal per face (built with
 * -DHY_WITH_SHMEM, the hyperion-mini-shmem program) */
enum hy_halo { HY_HALO_P2P, HY_HALO_NEIGHBOR, HY_HALO_PERSIST, HY_HALO_SHMEM };

typedef struct hy_opts {
    int n;             /* interior points per dimension of the global grid */
    int max_iter;
    double tol;        /* on the relative residual |r| / |b| */
    int halo;          /* enum hy_halo */
    int print_every;   /* progress line every so many iterations (0: none) */
    int quiet;         /* no output at all (tests) */
} hy_opts_t;

typedef struct hy_result {
    int iters;
    double rel_residual;
    double max_error;  /* max |u_h - u| over the grid */
    double max_u;      /* max |u| (for a relative error) */
    double t_total, t_compute, t_halo, t_allreduce; /* max over ranks, seconds */
    int dims[3];
    double checksum;   /* sum of the solution (identical on every rank) */
} hy_result_t;

/* Collective over comm. Returns 0, or nonzero if the grid cannot be split
 * (fewer points than ranks along a dimension). */
int hy_solve(MPI_Comm comm, const hy_opts_t *o, hy_result_t *res);

#endif
