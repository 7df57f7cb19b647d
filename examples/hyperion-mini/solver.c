/* SPDX-License-Identifier: MIT
 * The solver: domain decomposition (MPI_Dims_create, MPI_Cart_create), face
 * exchange with subarray datatypes (nonblocking point-to-point, persistent
 * requests or MPI_Neighbor_alltoallw), conjugate gradients with its two dot
 * products per iteration reduced by MPI_Allreduce. Built with -DHY_WITH_SHMEM
 * it also exchanges faces by OpenSHMEM: each face is put straight into the
 * neighbour's ghost layer (rows by putmem, x faces by a strided iput), then
 * a signal tells the neighbour it is there; the array is symmetric. Reusing
 * a ghost layer is safe without more synchronization since each CG
 * iteration's reductions separate the stencil that reads it from the next
 * exchange that writes it. */
#include "solver.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef HY_WITH_SHMEM
#include <shmem.h>
#endif

typedef struct hy_dom {
    MPI_Comm cart;
    int dims[3], coords[3];
    int n[3];                 /* local interior points: z, y, x */
    int off[3];               /* global index of the first local point */
    int nb[6];                /* neighbours: dim d at -1 (2d) and +1 (2d+1) */
    MPI_Datatype face_send[6], face_recv[6];
    MPI_Request preq[12];     /* persistent exchange of p */
    double h;
    size_t sy, sz;            /* strides of y and z in the ghosted array */
#ifdef HY_WITH_SHMEM
    int pe[6];                /* neighbours as PEs (world ranks), -1 if none */
    int nbn[6];               /* the neighbour's points along the face's dimension */
    uint64_t *sig;            /* [6] symmetric: faces received into ghost j */
    uint64_t epoch;
#endif
} hy_dom_t;

#define IDX(d, z, y, x) ((size_t)(z) * (d)->sz + (size_t)(y) * (d)->sy + (size_t)(x))

static double hy_u(double x, double y, double z)
{
    return x * (1 - x) * y * (1 - y) * z * (1 - z);
}

static double hy_f(double x, double y, double z)
{
    return 2 * (y * (1 - y) * z * (1 - z) + x * (1 - x) * z * (1 - z) + x * (1 - x) * y * (1 - y));
}

static int hy_split(hy_dom_t *d, MPI_Comm comm, int n)
{
    int size, periods[3] = {0, 0, 0};
    MPI_Comm_size(comm, &size);
    d->dims[0] = d->dims[1] = d->dims[2] = 0;
    MPI_Dims_create(size, 3, d->dims);
    MPI_Cart_create(comm, 3, d->dims, periods, 1, &d->cart);
    int rank;
    MPI_Comm_rank(d->cart, &rank);
    MPI_Cart_coords(d->cart, rank, 3, d->coords);
    int ok = 1;
    for (int k = 0; k < 3; k++) {
        int q = n / d->dims[k], r = n % d->dims[k], c = d->coords[k];
        d->n[k] = q + (c < r);
        d->off[k] = c * q + (c < r ? c : r);
        ok &= d->n[k] > 0;
        MPI_Cart_shift(d->cart, k, 1, &d->nb[2 * k], &d->nb[2 * k + 1]);
    }
    d->h = 1.0 / (n + 1);
    d->sy = (size_t)d->n[2] + 2;
    d->sz = d->sy * ((size_t)d->n[1] + 2);
    /* faces: the first / last interior layer is sent, the ghost layers
     * outside them are received */
    int sizes[3] = {d->n[0] + 2, d->n[1] + 2, d->n[2] + 2};
    for (int k = 0; ok && k < 3; k++)
        for (int s = 0; s < 2; s++) {
            int sub[3] = {d->n[0], d->n[1], d->n[2]}, st[3] = {1, 1, 1};
            sub[k] = 1;
            st[k] = s ? d->n[k] : 1;
            MPI_Type_create_subarray(3, sizes, sub, st, MPI_ORDER_C, MPI_DOUBLE,
                                     &d->face_send[2 * k + s]);
            st[k] = s ? d->n[k] + 1 : 0;
            MPI_Type_create_subarray(3, sizes, sub, st, MPI_ORDER_C, MPI_DOUBLE,
                                     &d->face_recv[2 * k + s]);
            MPI_Type_commit(&d->face_send[2 * k + s]);
            MPI_Type_commit(&d->face_recv[2 * k + s]);
        }
    int all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
#ifdef HY_WITH_SHMEM
    MPI_Group cg, wg;
    MPI_Comm_group(d->cart, &cg);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    for (int j = 0; j < 6; j++) {
        int k = j / 2, c = d->coords[k] + (j % 2 ? 1 : -1), q = n / d->dims[k], r = n % d->dims[k];
        d->pe[j] = -1;
        if (d->nb[j] != MPI_PROC_NULL)
            MPI_Group_translate_ranks(cg, 1, &d->nb[j], wg, &d->pe[j]);
        d->nbn[j] = q + (c < r);
    }
    MPI_Group_free(&cg);
    MPI_Group_free(&wg);
#endif
    return all ? 0 : 1;
}

#ifdef HY_WITH_SHMEM
/* Face j of p into the ghost layer of neighbour j, then its signal. */
static void hy_shmem_face(hy_dom_t *d, double *p, int j)
{
    int k = j / 2, s = j % 2, pe = d->pe[j];
    /* the neighbour's strides: its points differ from ours only along k */
    int m[3] = {d->n[0], d->n[1], d->n[2]};
    m[k] = d->nbn[j];
    size_t ty = (size_t)m[2] + 2, tz = ty * ((size_t)m[1] + 2);
    int src = s ? d->n[k] : 1, dst = s ? 0 : m[k] + 1; /* layers along k */
    int lo[3] = {1, 1, 1}, hi[3] = {d->n[0], d->n[1], d->n[2]};
    lo[k] = hi[k] = 0; /* the layer index is src / dst */
    double *last_d = NULL;
    const double *last_s = NULL;
    size_t last_n = 0;
    for (int a = lo[0]; a <= hi[0]; a++)
        for (int b = lo[1]; b <= hi[1]; b++) {
            int z = k == 0 ? src : a, y = k == 1 ? src : b;
            int tzi = k == 0 ? dst : a, tyi = k == 1 ? dst : b;
            if (k == 2) { /* a column in x: strided */
                if (b > lo[1])
                    break;
                shmem_double_iput(p + tzi * tz + ty + dst, p + IDX(d, z, 1, src), (ptrdiff_t)ty,
                                  (ptrdiff_t)d->sy, (size_t)d->n[1], pe);
                continue;
            }
            if (last_d)
                shmem_putmem_nbi(last_d, last_s, last_n * sizeof(double), pe);
            last_d = p + tzi * tz + tyi * ty + 1;
            last_s = p + IDX(d, z, y, 1);
            last_n = (size_t)d->n[2];
        }
    /* the signal goes with the last row; the fence orders the rows before it */
    shmem_fence();
    int ghost = 2 * k + !s; /* where the neighbour keeps what travelled this way */
    if (last_d)
        shmem_putmem_signal(last_d, last_s, last_n * sizeof(double), &d->sig[ghost], 1,
                            SHMEM_SIGNAL_ADD, pe);
    else
        shmem_uint64_atomic_add(&d->sig[ghost], 1, pe);
}

static void hy_shmem_halo(hy_dom_t *d, double *p)
{
    d->epoch++;
    for (int j = 0; j < 6; j++)
        if (d->pe[j] >= 0)
            hy_shmem_face(d, p, j);
    shmem_quiet(); /* the rows put without waiting leave p before it changes */
    for (int j = 0; j < 6; j++)
        if (d->pe[j] >= 0)
            shmem_signal_wait_until(&d->sig[j], SHMEM_CMP_GE, d->epoch);
}
#endif

/* Tags: a face travelling towards -1 in dimension k carries 2k, towards +1
 * carries 2k + 1; the ghost at -1 is filled by what travelled towards +1. */
static void hy_post(hy_dom_t *d, double *p, MPI_Request *rq, int persistent)
{
    for (int j = 0; j < 6; j++) {
        int k = j / 2, s = j % 2;
        int rtag = 2 * k + !s, stag = 2 * k + s;
        if (persistent) {
            MPI_Recv_init(p, 1, d->face_recv[j], d->nb[j], rtag, d->cart, &rq[j]);
            MPI_Send_init(p, 1, d->face_send[j], d->nb[j], stag, d->cart, &rq[6 + j]);
        } else {
            MPI_Irecv(p, 1, d->face_recv[j], d->nb[j], rtag, d->cart, &rq[j]);
            MPI_Isend(p, 1, d->face_send[j], d->nb[j], stag, d->cart, &rq[6 + j]);
        }
    }
}

static void hy_halo(hy_dom_t *d, double *p, int mode)
{
#ifdef HY_WITH_SHMEM
    if (mode == HY_HALO_SHMEM) {
        hy_shmem_halo(d, p);
        return;
    }
#endif
    if (mode == HY_HALO_NEIGHBOR) {
        static const int one[6] = {1, 1, 1, 1, 1, 1};
        static const MPI_Aint zero[6] = {0, 0, 0, 0, 0, 0};
        MPI_Neighbor_alltoallw(p, one, zero, d->face_send, p, one, zero, d->face_recv, d->cart);
    } else if (mode == HY_HALO_PERSIST) {
        MPI_Startall(12, d->preq);
        MPI_Waitall(12, d->preq, MPI_STATUSES_IGNORE);
    } else {
        MPI_Request rq[12];
        hy_post(d, p, rq, 0);
        MPI_Waitall(12, rq, MPI_STATUSES_IGNORE);
    }
}

static double hy_now(void) { return MPI_Wtime(); }

int hy_solve(MPI_Comm comm, const hy_opts_t *o, hy_result_t *res)
{
    hy_dom_t d;
    memset(&d, 0, sizeof d);
    memset(res, 0, sizeof *res);
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (hy_split(&d, comm, o->n)) {
        MPI_Comm_free(&d.cart);
        return 1;
    }
    memcpy(res->dims, d.dims, sizeof d.dims);
    size_t len = d.sz * ((size_t)d.n[0] + 2);
    double *x = calloc(len, sizeof *x), *r = calloc(len, sizeof *r), *p, *q = calloc(len, sizeof *q);
#ifdef HY_WITH_SHMEM
    unsigned long mine = len, most;
    if (o->halo == HY_HALO_SHMEM) {
        /* symmetric: the same size on every PE, the largest local array */
        MPI_Allreduce(&mine, &most, 1, MPI_UNSIGNED_LONG, MPI_MAX, comm);
        p = shmem_calloc(most, sizeof *p);
        d.sig = shmem_calloc(6, sizeof *d.sig);
    } else
#endif
        p = calloc(len, sizeof *p);
    if (!x || !r || !p || !q) {
        fprintf(stderr, "hyperion-mini: out of memory for %zu points\n", len);
        MPI_Abort(comm, 1);
    }
    double h = d.h, ih2 = 1.0 / (h * h), t_comp = 0, t_halo = 0, t_red = 0;
    if (o->halo == HY_HALO_PERSIST)
        hy_post(&d, p, d.preq, 1);
    /* x = 0, r = p = b */
    double rr_loc = 0;
    for (int z = 1; z <= d.n[0]; z++)
        for (int y = 1; y <= d.n[1]; y++)
            for (int xi = 1; xi <= d.n[2]; xi++) {
                double gz = (d.off[0] + z) * h, gy = (d.off[1] + y) * h, gx = (d.off[2] + xi) * h;
                double b = hy_f(gx, gy, gz);
                r[IDX(&d, z, y, xi)] = p[IDX(&d, z, y, xi)] = b;
                rr_loc += b * b;
            }
    double rr, t0 = hy_now(), t;
    MPI_Allreduce(&rr_loc, &rr, 1, MPI_DOUBLE, MPI_SUM, d.cart);
    double bnorm = sqrt(rr), rel = 1.0;
    int it = 0;
    while (it < o->max_iter) {
        t = hy_now();
        hy_halo(&d, p, o->halo);
        double t1 = hy_now();
        t_halo += t1 - t;
        double pq_loc = 0;
        for (int z = 1; z <= d.n[0]; z++)
            for (int y = 1; y <= d.n[1]; y++) {
                const double *pc = p + IDX(&d, z, y, 0);
                double *qc = q + IDX(&d, z, y, 0);
                for (int xi = 1; xi <= d.n[2]; xi++) {
                    double v = (6 * pc[xi] - pc[xi - 1] - pc[xi + 1] - pc[xi - d.sy] - pc[xi + d.sy] -
                                pc[xi - d.sz] - pc[xi + d.sz]) * ih2;
                    qc[xi] = v;
                    pq_loc += pc[xi] * v;
                }
            }
        double t2 = hy_now();
        t_comp += t2 - t1;
        double pq;
        MPI_Allreduce(&pq_loc, &pq, 1, MPI_DOUBLE, MPI_SUM, d.cart);
        double t3 = hy_now();
        t_red += t3 - t2;
        double alpha = rr / pq, rrn_loc = 0;
        for (int z = 1; z <= d.n[0]; z++)
            for (int y = 1; y <= d.n[1]; y++) {
                size_t b0 = IDX(&d, z, y, 0);
                for (int xi = 1; xi <= d.n[2]; xi++) {
                    x[b0 + xi] += alpha * p[b0 + xi];
                    double rv = r[b0 + xi] - alpha * q[b0 + xi];
                    r[b0 + xi] = rv;
                    rrn_loc += rv * rv;
                }
            }
        double t4 = hy_now();
        t_comp += t4 - t3;
        double rrn;
        MPI_Allreduce(&rrn_loc, &rrn, 1, MPI_DOUBLE, MPI_SUM, d.cart);
        double t5 = hy_now();
        t_red += t5 - t4;
        it++;
        rel = sqrt(rrn) / bnorm;
        if (!o->quiet && rank == 0 && o->print_every > 0 && it % o->print_every == 0)
            printf("  iter %5d  relative residual %.3e\n", it, rel);
        if (rel < o->tol)
            break;
        double beta = rrn / rr;
        rr = rrn;
        for (int z = 1; z <= d.n[0]; z++)
            for (int y = 1; y <= d.n[1]; y++) {
                size_t b0 = IDX(&d, z, y, 0);
                for (int xi = 1; xi <= d.n[2]; xi++)
                    p[b0 + xi] = r[b0 + xi] + beta * p[b0 + xi];
            }
        t_comp += hy_now() - t5;
    }
    double t_total = hy_now() - t0;
    /* error against the exact solution, and a checksum */
    double err = 0, umax = 0, sum = 0;
    for (int z = 1; z <= d.n[0]; z++)
        for (int y = 1; y <= d.n[1]; y++)
            for (int xi = 1; xi <= d.n[2]; xi++) {
                double u = hy_u((d.off[2] + xi) * h, (d.off[1] + y) * h, (d.off[0] + z) * h);
                double e = fabs(x[IDX(&d, z, y, xi)] - u);
                err = e > err ? e : err;
                umax = fabs(u) > umax ? fabs(u) : umax;
                sum += x[IDX(&d, z, y, xi)];
            }
    double loc[6] = {err, umax, t_total, t_comp, t_halo, t_red}, glob[6];
    MPI_Allreduce(loc, glob, 6, MPI_DOUBLE, MPI_MAX, d.cart);
    MPI_Allreduce(&sum, &res->checksum, 1, MPI_DOUBLE, MPI_SUM, d.cart);
    res->iters = it;
    res->rel_residual = rel;
    res->max_error = glob[0];
    res->max_u = glob[1];
    res->t_total = glob[2];
    res->t_compute = glob[3];
    res->t_halo = glob[4];
    res->t_allreduce = glob[5];
    if (o->halo == HY_HALO_PERSIST)
        for (int j = 0; j < 12; j++)
            MPI_Request_free(&d.preq[j]);
    for (int j = 0; j < 6; j++) {
        MPI_Type_free(&d.face_send[j]);
        MPI_Type_free(&d.face_recv[j]);
    }
    MPI_Comm_free(&d.cart);
    free(x);
    free(r);
#ifdef HY_WITH_SHMEM
    if (o->halo == HY_HALO_SHMEM) {
        shmem_free(d.sig);
        shmem_free(p);
    } else
#endif
        free(p);
    free(q);
    return 0;
}
