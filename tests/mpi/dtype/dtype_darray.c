/* SPDX-License-Identifier: MIT
 * MPI_Type_create_darray against a serial model of the distribution: for
 * block, cyclic, block-cyclic and undistributed dimensions, C and Fortran
 * order, 1-3 dimensions, every process of the grid (the type is local, so
 * one process checks them all): lb 0, extent of the whole array, size, and
 * the owned elements in array order (packing an array of its own indices);
 * envelope and contents. Then a real exchange: every rank sends its part
 * as a contiguous buffer and rank 0 receives each part straight into the
 * global array through that rank's darray type. Bad arguments: blocks that
 * do not cover a dimension, a grid of the wrong size. */
#include "rxtest.h"

typedef struct {
    int ndims, gs[3], dist[3], darg[3], ps[3], order;
} cfg_t;

static int owner_coord(const cfg_t *c, int k, int idx)
{
    int g = c->gs[k], p = c->ps[k], d = c->darg[k];
    if (c->dist[k] == MPI_DISTRIBUTE_NONE)
        return 0;
    if (c->dist[k] == MPI_DISTRIBUTE_BLOCK) {
        int b = d == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : d;
        return idx / b;
    }
    int b = d == MPI_DISTRIBUTE_DFLT_DARG ? 1 : d;
    return (idx / b) % p;
}

/* The linear indices (in array order) that rank owns, in array order. */
static int expected(const cfg_t *c, int rank, int *out)
{
    int n = 1, cnt = 0, idx[3];
    for (int k = 0; k < c->ndims; k++)
        n *= c->gs[k];
    for (int lin = 0; lin < n; lin++) {
        int rem = lin; /* multi-index of the lin-th element in array order */
        for (int i = 0; i < c->ndims; i++) {
            int k = c->order == MPI_ORDER_C ? c->ndims - 1 - i : i;
            idx[k] = rem % c->gs[k];
            rem /= c->gs[k];
        }
        int r = 0;
        for (int k = 0; k < c->ndims; k++)
            r = r * c->ps[k] + owner_coord(c, k, idx[k]);
        if (r == rank)
            out[cnt++] = lin;
    }
    return cnt;
}

static MPI_Datatype make(const cfg_t *c, int rank)
{
    int size = 1;
    for (int k = 0; k < c->ndims; k++)
        size *= c->ps[k];
    MPI_Datatype t;
    RXT_MPI(MPI_Type_create_darray(size, rank, c->ndims, c->gs, c->dist, c->darg, c->ps,
                                   c->order, MPI_INT, &t));
    RXT_MPI(MPI_Type_commit(&t));
    return t;
}

static void check_cfg(const cfg_t *c, int ci)
{
    int n = 1, size = 1;
    for (int k = 0; k < c->ndims; k++) {
        n *= c->gs[k];
        size *= c->ps[k];
    }
    int *global = malloc(sizeof(int) * (size_t)n), *want = malloc(sizeof(int) * (size_t)n);
    int *got = malloc(sizeof(int) * (size_t)n + 1);
    for (int i = 0; i < n; i++)
        global[i] = i;
    int covered = 0;
    for (int r = 0; r < size; r++) {
        MPI_Datatype t = make(c, r);
        MPI_Aint lb, ext;
        int sz;
        RXT_MPI(MPI_Type_get_extent(t, &lb, &ext));
        RXT_MPI(MPI_Type_size(t, &sz));
        int cnt = expected(c, r, want);
        covered += cnt;
        RXT_CHECK(lb == 0 && ext == (MPI_Aint)n * (MPI_Aint)sizeof(int),
                  "config %d rank %d: lb %ld extent %ld, want 0 and %ld", ci, r, (long)lb,
                  (long)ext, (long)n * (long)sizeof(int));
        RXT_CHECK(sz == cnt * (int)sizeof(int), "config %d rank %d: size %d, want %d", ci, r, sz,
                  cnt * (int)sizeof(int));
        int pos = 0;
        RXT_MPI(MPI_Pack(global, 1, t, got, (int)sizeof(int) * n + 4, &pos, MPI_COMM_SELF));
        for (int i = 0; i < cnt && i < pos / (int)sizeof(int); i++)
            if (got[i] != want[i]) {
                RXT_CHECK(0, "config %d rank %d: element %d is global index %d, want %d", ci, r,
                          i, got[i], want[i]);
                break;
            }
        int ni, na, nt, comb;
        RXT_MPI(MPI_Type_get_envelope(t, &ni, &na, &nt, &comb));
        RXT_CHECK(comb == MPI_COMBINER_DARRAY && ni == 4 * c->ndims + 4 && na == 0 && nt == 1,
                  "config %d: envelope combiner %d, %d ints %d addresses %d types", ci, comb, ni,
                  na, nt);
        int ints[16];
        MPI_Aint aints[1];
        MPI_Datatype types[1];
        RXT_MPI(MPI_Type_get_contents(t, 16, 0, 1, ints, aints, types));
        RXT_CHECK(ints[0] == size && ints[1] == r && ints[2] == c->ndims &&
                  ints[3 + 4 * c->ndims] == c->order && types[0] == MPI_INT,
                  "config %d rank %d: contents do not give the arguments back", ci, r);
        MPI_Type_free(&t);
    }
    RXT_CHECK(covered == n, "config %d: the processes own %d elements of %d", ci, covered, n);
    free(global), free(want), free(got);
}

/* rank 0 assembles the global array from every rank's part */
static void exchange(const cfg_t *c)
{
    int me = rxt_rank, n = 1;
    for (int k = 0; k < c->ndims; k++)
        n *= c->gs[k];
    int *mine = malloc(sizeof(int) * (size_t)n), cnt = expected(c, me, mine);
    int *global = me == 0 ? malloc(sizeof(int) * (size_t)n) : NULL;
    for (int i = 0; me == 0 && i < n; i++)
        global[i] = -1;
    MPI_Request *rq = malloc(sizeof(MPI_Request) * (size_t)rxt_size);
    MPI_Datatype *ts = malloc(sizeof(MPI_Datatype) * (size_t)rxt_size);
    if (me == 0)
        for (int r = 0; r < rxt_size; r++) {
            ts[r] = make(c, r);
            RXT_MPI(MPI_Irecv(global, 1, ts[r], r, 5, MPI_COMM_WORLD, &rq[r]));
        }
    RXT_MPI(MPI_Send(mine, cnt, MPI_INT, 0, 5, MPI_COMM_WORLD)); /* values: global indices */
    if (me == 0) {
        RXT_MPI(MPI_Waitall(rxt_size, rq, MPI_STATUSES_IGNORE));
        for (int i = 0; i < n; i++)
            RXT_CHECK(global[i] == i, "assembled array: [%d] = %d", i, global[i]);
        for (int r = 0; r < rxt_size; r++)
            MPI_Type_free(&ts[r]);
    }
    free(mine), free(global), free(rq), free(ts);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "dtype_darray");
    const int B = MPI_DISTRIBUTE_BLOCK, C = MPI_DISTRIBUTE_CYCLIC, N = MPI_DISTRIBUTE_NONE;
    const int D = MPI_DISTRIBUTE_DFLT_DARG, OC = MPI_ORDER_C, OF = MPI_ORDER_FORTRAN;
    cfg_t cfgs[] = {
        {1, {10}, {B}, {D}, {3}, OC},
        {1, {10}, {C}, {D}, {3}, OC},
        {1, {11}, {C}, {2}, {3}, OF},
        {1, {7}, {B}, {4}, {2}, OC},
        {2, {6, 5}, {B, C}, {D, D}, {2, 2}, OC},
        {2, {6, 5}, {B, C}, {D, 2}, {2, 3}, OF},
        {2, {4, 9}, {N, C}, {D, 2}, {1, 3}, OC},
        {3, {4, 3, 5}, {C, B, C}, {1, D, 2}, {2, 1, 2}, OF},
        {3, {5, 4, 6}, {B, C, B}, {D, 3, 4}, {2, 2, 2}, OC},
    };
    int ncfg = (int)(sizeof cfgs / sizeof cfgs[0]);
    if (rxt_rank == 0)
        for (int i = 0; i < ncfg; i++)
            check_cfg(&cfgs[i], i);
    /* the exchange on a grid of this job's size */
    cfg_t x1 = {1, {13}, {C}, {2}, {rxt_size}, OC};
    exchange(&x1);
    int d2[2] = {0, 0};
    MPI_Dims_create(rxt_size, 2, d2);
    cfg_t x2 = {2, {7, 6}, {B, C}, {D, D}, {d2[0], d2[1]}, OF};
    exchange(&x2);
#ifndef MPICH_VERSION /* MPICH 4.0 divides by zero on these instead of failing */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Datatype bad;
    int g[1] = {10}, ds[1] = {B}, da[1] = {3}, ps[1] = {3};
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Type_create_darray(3, 0, 1, g, ds, da, ps, OC, MPI_INT, &bad));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Type_create_darray(2, 0, 1, g, ds, da, ps, OC, MPI_INT, &bad));
#endif
    return rxt_finish();
}
