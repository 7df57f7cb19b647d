/* SPDX-License-Identifier: MIT
 * MPI_Type_create_darray: the part of a block / cyclic distributed global
 * array that one process owns, as a type over the whole array (lb 0, extent
 * the whole array, the owned elements in array order).
 *
 * Built from the fastest dimension outwards out of the general
 * constructors: the type T of the faster dimensions is resized to the
 * stride of this dimension, then placed at the indices this process owns in
 * it (one run for a block distribution; for a cyclic one a vector of full
 * blocks plus a shorter last block), and the result is resized to span the
 * dimension. The process grid is row-major whatever the array order
 * (MPI-4.1 §5.1.4). */
#include "mpi_impl.h"

#include <string.h>

#define RX_DARRAY_MAXDIMS 32

/* What this process owns of one dimension: runs of len elements starting
 * at first, first + step, ... (nfull of length len), then one of length
 * last (0: none). */
typedef struct rx_darray_dim {
    intptr_t first, step;
    int nfull, len, last;
} rx_darray_dim_t;

static int rx_darray_dim(int g, int distrib, int darg, int p, int coord, rx_darray_dim_t *d,
                         const char *fn, int k)
{
    memset(d, 0, sizeof *d);
    if (distrib == MPI_DISTRIBUTE_NONE) {
        if (p != 1)
            return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "dimension %d is not distributed but "
                              "psizes[%d] = %d (must be 1)", k, k, p);
        d->nfull = 1;
        d->len = g;
        return MPI_SUCCESS;
    }
    if (darg != MPI_DISTRIBUTE_DFLT_DARG && darg < 1)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "dargs[%d] = %d is neither positive nor "
                          "MPI_DISTRIBUTE_DFLT_DARG", k, darg);
    if (distrib == MPI_DISTRIBUTE_BLOCK) {
        long long b = darg == MPI_DISTRIBUTE_DFLT_DARG ? ((long long)g + p - 1) / p : darg;
        if (b * p < g)
            return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "dimension %d: blocks of %lld on %d "
                              "processes do not cover %d elements", k, b, p, g);
        long long start = b * coord, n = g - start < b ? g - start : b;
        if (n > 0) {
            d->first = (intptr_t)start;
            d->nfull = 1;
            d->len = (int)n;
        }
        return MPI_SUCCESS;
    }
    if (distrib != MPI_DISTRIBUTE_CYCLIC)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "distribs[%d] = %d is not a distribution",
                          k, distrib);
    long long b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg, start = b * coord;
    if (start >= g)
        return MPI_SUCCESS;
    long long cycle = b * p, runs = (g - start + cycle - 1) / cycle;
    long long tail = g - (start + (runs - 1) * cycle); /* elements of the last run */
    d->first = (intptr_t)start;
    d->step = (intptr_t)cycle;
    d->len = (int)b;
    if (tail >= b) {
        d->nfull = (int)runs;
    } else {
        d->nfull = (int)(runs - 1);
        d->last = (int)tail;
    }
    return MPI_SUCCESS;
}

/* T placed at one dimension's owned runs, in bytes of stride per index;
 * takes over t (unreferenced on return). */
static int rx_darray_place(rx_dtype_t *t, const rx_darray_dim_t *d, intptr_t stride,
                           intptr_t span, rx_dtype_t **out)
{
    rx_dtype_t *parts[2] = {NULL, NULL}, *placed = NULL;
    size_t blens[2] = {1, (size_t)d->last};
    intptr_t disps[2] = {0, 0};
    int n = 0, rc = RX_OK;
    intptr_t first, step;
    if (__builtin_mul_overflow(d->first, stride, &first) ||
        __builtin_mul_overflow(d->step, stride, &step)) {
        rx_dtype_unref(t);
        return RX_ERR_OVERFLOW;
    }
    if (d->nfull) {
        rc = rx_dtype_create_hvector(d->nfull, d->len, step, t, &parts[n]);
        disps[n++] = first;
    }
    if (rc == RX_OK && d->last) {
        parts[n] = t;
        disps[n] = first + (intptr_t)d->nfull * step;
        blens[n++] = (size_t)d->last;
    }
    if (rc == RX_OK)
        rc = rx_dtype_create_struct((size_t)n, blens, disps, parts, &placed);
    if (d->nfull && parts[0])
        rx_dtype_unref(parts[0]);
    if (rc == RX_OK)
        rc = rx_dtype_create_resized(placed, 0, span, out);
    if (placed)
        rx_dtype_unref(placed);
    rx_dtype_unref(t);
    return rc;
}

static int rx_darray_build(int ndims, const int *gsizes, const rx_darray_dim_t *dims,
                           int order_c, rx_dtype_t *old, rx_dtype_t **out)
{
    rx_dtype_t *t = old;
    rx_dtype_ref(old); /* t is always one reference of ours */
    intptr_t stride = old->extent;
    for (int i = 0; i < ndims; i++) {
        int k = order_c ? ndims - 1 - i : i; /* fastest first */
        intptr_t span;
        if (__builtin_mul_overflow(stride, (intptr_t)gsizes[k], &span)) {
            rx_dtype_unref(t);
            return RX_ERR_OVERFLOW;
        }
        rx_dtype_t *unit = NULL, *next = NULL;
        int rc = rx_dtype_create_resized(t, 0, stride, &unit);
        rx_dtype_unref(t);
        if (rc == RX_OK)
            rc = rx_darray_place(unit, &dims[k], stride, span, &next);
        if (rc != RX_OK)
            return rc;
        t = next;
        stride = span;
    }
    *out = t;
    return RX_OK;
}

/* large: MPI_Type_create_darray_c, whose global sizes (int here: the layout
 * code takes int extents) are the envelope's large counts. */
static int rx_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                     const int array_of_distribs[], const int array_of_dargs[],
                     const int array_of_psizes[], int order, MPI_Datatype oldtype,
                     MPI_Datatype *newtype, int large, const char *fn)
{
    rx_dtype_t *old = rx_dtype_get(oldtype);
    if (!old)
        return rx_mpi_err(NULL, MPI_ERR_TYPE, fn, "%s", oldtype == MPI_DATATYPE_NULL
                          ? "datatype is MPI_DATATYPE_NULL" : "invalid datatype");
    if (!newtype)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "newtype is NULL");
    if (size < 1 || rank < 0 || rank >= size)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "rank %d of %d processes", rank, size);
    if (ndims < 1 || ndims > RX_DARRAY_MAXDIMS)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "ndims %d outside 1..%d", ndims,
                          RX_DARRAY_MAXDIMS);
    if (!array_of_gsizes || !array_of_distribs || !array_of_dargs || !array_of_psizes)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "NULL array argument");
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "order %d is neither MPI_ORDER_C nor "
                          "MPI_ORDER_FORTRAN", order);
    long long procs = 1;
    for (int k = 0; k < ndims; k++) {
        if (array_of_gsizes[k] < 1 || array_of_psizes[k] < 1)
            return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "dimension %d: gsize %d, psize %d (both "
                              "must be positive)", k, array_of_gsizes[k], array_of_psizes[k]);
        procs *= array_of_psizes[k];
        if (procs > size)
            break;
    }
    if (procs != size)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "the process grid does not have %d processes",
                          size);
    rx_darray_dim_t dims[RX_DARRAY_MAXDIMS];
    for (int k = ndims - 1, r = rank; k >= 0; k--) { /* row-major coordinates */
        int coord = r % array_of_psizes[k];
        r /= array_of_psizes[k];
        int rc = rx_darray_dim(array_of_gsizes[k], array_of_distribs[k], array_of_dargs[k],
                               array_of_psizes[k], coord, &dims[k], fn, k);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    rx_dtype_t *d = NULL;
    int rc = rx_darray_build(ndims, array_of_gsizes, dims, order == MPI_ORDER_C, old, &d);
    int ints[4 * RX_DARRAY_MAXDIMS + 4];
    ints[0] = size;
    ints[1] = rank;
    ints[2] = ndims;
    for (int k = 0; k < ndims; k++) {
        ints[3 + k] = array_of_gsizes[k];
        ints[3 + ndims + k] = array_of_distribs[k];
        ints[3 + 2 * ndims + k] = array_of_dargs[k];
        ints[3 + 3 * ndims + k] = array_of_psizes[k];
    }
    ints[3 + 4 * ndims] = order;
    if (large) {
        int64_t g[RX_DARRAY_MAXDIMS];
        for (int k = 0; k < ndims; k++)
            g[k] = array_of_gsizes[k];
        /* the integers without the global sizes */
        memmove(ints + 3, ints + 3 + ndims, sizeof(int) * (size_t)(3 * ndims + 1));
        if (rc == RX_OK)
            rc = rx_dtype_set_large_counts(d, ndims, g);
    }
    if (rc == RX_OK)
        rc = rx_dtype_set_envelope(d, MPI_COMBINER_DARRAY, (large ? 3 : 4) * ndims + 4, ints, 0,
                                   NULL, 1, &oldtype);
    if (rc != RX_OK) {
        if (d)
            rx_dtype_unref(d);
        return rx_mpi_err(NULL, rx_mpi_class_of(rc), fn, "%s", rc == RX_ERR_OVERFLOW
                          ? "the array's extent does not fit 64 bits" : rx_status_string(rc));
    }
    *newtype = RX_HANDLE(RX_KIND_DATATYPE, d->index);
    return MPI_SUCCESS;
}

int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                            const int array_of_distribs[], const int array_of_dargs[],
                            const int array_of_psizes[], int order, MPI_Datatype oldtype,
                            MPI_Datatype *newtype)
{
    const char *fn = "MPI_Type_create_darray";
    RX_CHECK_INIT(fn);
    return rx_darray(size, rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs,
                     array_of_psizes, order, oldtype, newtype, 0, fn);
}
RX_ALIAS(Type_create_darray)

int PMPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                              const int array_of_distribs[], const int array_of_dargs[],
                              const int array_of_psizes[], int order, MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    const char *fn = "MPI_Type_create_darray_c";
    RX_CHECK_INIT(fn);
    int g[RX_DARRAY_MAXDIMS];
    for (int k = 0; array_of_gsizes && k < ndims && k < RX_DARRAY_MAXDIMS; k++) {
        if (array_of_gsizes[k] > INT32_MAX)
            return rx_mpi_err(NULL, MPI_ERR_COUNT, fn, "dimension %d: global size %lld beyond "
                              "INT_MAX is not supported", k, (long long)array_of_gsizes[k]);
        g[k] = array_of_gsizes[k] < 0 ? 0 : (int)array_of_gsizes[k]; /* < 1: refused below */
    }
    return rx_darray(size, rank, ndims, array_of_gsizes ? g : NULL, array_of_distribs,
                     array_of_dargs, array_of_psizes, order, oldtype, newtype, 1, fn);
}
RX_ALIAS(Type_create_darray_c)
