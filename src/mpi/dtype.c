/* SPDX-License-Identifier: MIT
 * Datatype calls: constructors, commit / free, bounds and sizes, envelope and
 * contents, names, pack / unpack, element counts, addresses. Layout work is
 * src/dtype's; this file checks arguments and records how each type was made. */
#include "mpi_impl.h"
#include "attr_obj.h"
#include "bigcount.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An old type may be uncommitted (MPI allows building from those). */
#define RX_GET_OLDTYPE(d, handle, fn)                                                     \
    rx_dtype_t *d = rx_dtype_get(handle);                                                 \
    if (__builtin_expect(!d, 0))                                                          \
        return rx_mpi_err(NULL, MPI_ERR_TYPE, fn, "%s",                                   \
                          (handle) == MPI_DATATYPE_NULL ? "datatype is MPI_DATATYPE_NULL" \
                                                        : "invalid datatype")

static int rx_newtype_check(MPI_Datatype *newtype, const char *fn)
{
    return newtype ? MPI_SUCCESS : rx_mpi_err(NULL, MPI_ERR_ARG, fn, "newtype is NULL");
}

static int rx_count_check(MPI_Count count, const char *fn)
{
    return count >= 0 ? MPI_SUCCESS
                      : rx_mpi_err(NULL, MPI_ERR_COUNT, fn, "negative count %lld",
                                   (long long)count);
}

static int rx_blens_check(MPI_Count count, rx_ivec_t blens, const char *fn)
{
    if (count > 0 && !blens.p)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "array of block lengths is NULL");
    for (MPI_Count i = 0; i < count; i++)
        if (rx_ivec_at(blens, (int)i) < 0)
            return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "negative block length %lld at index %lld",
                              (long long)rx_ivec_at(blens, (int)i), (long long)i);
    return MPI_SUCCESS;
}

/* The counts of a constructor's envelope (MPI-4.1 §5.1.13): the int forms
 * record them as integers, the _c forms as large counts. */
typedef struct rx_env_counts {
    int large;              /* a _c constructor */
    int n;
    int64_t *v;
} rx_env_counts_t;

/* Record the envelope, hand out the handle; on failure free the new type.
 * ints (ni) are the integers that are not counts (subarray's ndims, order). */
static int rx_newtype_done(int rc, rx_dtype_t *d, int combiner, const rx_env_counts_t *cnt,
                           int ni, const int *ints, int na, const intptr_t *aints, int nt,
                           const int *types, MPI_Datatype *newtype, const char *fn)
{
    int *all = NULL, nall = ni;
    if (rc == RX_OK && cnt && !cnt->large && cnt->n) {
        /* the int form: counts first, then the other integers, all ints */
        if (!(all = malloc(sizeof(int) * (size_t)(cnt->n + ni))))
            rc = RX_ERR_NOMEM;
        for (int i = 0; rc == RX_OK && i < cnt->n; i++)
            all[i] = (int)cnt->v[i];
        if (rc == RX_OK && ni)
            memcpy(all + cnt->n, ints, sizeof(int) * (size_t)ni);
        nall += cnt->n;
        ints = all;
    }
    if (rc == RX_OK)
        rc = rx_dtype_set_envelope(d, combiner, nall, ints, na, aints, nt, types);
    if (rc == RX_OK && cnt && cnt->large)
        rc = rx_dtype_set_large_counts(d, cnt->n, cnt->v);
    free(all);
    if (rc != RX_OK) {
        if (d && rc != RX_ERR_INVAL)
            rx_dtype_unref(d);
        return rx_mpi_err(NULL, rx_mpi_class_of(rc), fn, "%s", rc == RX_ERR_NOMEM
                          ? "out of memory for the type's layout"
                          : rc == RX_ERR_OVERFLOW ? "the type's size or extent does not fit 64 bits"
                          : rx_status_string(rc));
    }
    *newtype = RX_HANDLE(RX_KIND_DATATYPE, d->index);
    return MPI_SUCCESS;
}

static int rx_contiguous(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype, int large,
                         const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_OLDTYPE(old, oldtype, fn);
    int rc = rx_count_check(count, fn);
    if (rc == MPI_SUCCESS)
        rc = rx_newtype_check(newtype, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rx_dtype_t *d = NULL;
    rc = rx_dtype_create_hvector(1, (size_t)count, 0, old, &d);
    rx_env_counts_t cnt = {large, 1, (int64_t[]){count}};
    return rx_newtype_done(rc, d, MPI_COMBINER_CONTIGUOUS, &cnt, 0, NULL, 0, NULL, 1, &oldtype,
                           newtype, fn);
}
#define RX_CONTIG_PARAMS(C, D, A) (C count, MPI_Datatype oldtype, MPI_Datatype *newtype)
RX_COUNT_FORMS(Type_contiguous, RX_CONTIG_PARAMS,
               return rx_contiguous(count, oldtype, newtype, sizeof count == 8, fn);)

static int rx_vector_common(MPI_Count count, MPI_Count blen, intptr_t stride,
                            int stride_in_bytes, MPI_Datatype oldtype, MPI_Datatype *newtype,
                            int large, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_OLDTYPE(old, oldtype, fn);
    int rc = rx_count_check(count, fn);
    if (rc == MPI_SUCCESS)
        rc = rx_blens_check(1, RX_IVEC(&blen), fn);
    if (rc == MPI_SUCCESS)
        rc = rx_newtype_check(newtype, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rx_dtype_t *d = NULL;
    intptr_t bstride = stride;
    if (!stride_in_bytes && __builtin_mul_overflow(stride, old->extent, &bstride))
        rc = RX_ERR_OVERFLOW; /* the stride in bytes is not an address difference */
    else
        rc = rx_dtype_create_hvector((size_t)count, (size_t)blen, bstride, old, &d);
    if (stride_in_bytes && !large) {
        rx_env_counts_t cnt = {0, 2, (int64_t[]){count, blen}};
        return rx_newtype_done(rc, d, MPI_COMBINER_HVECTOR, &cnt, 0, NULL, 1, &stride, 1,
                               &oldtype, newtype, fn);
    }
    /* MPI_Type_create_hvector_c: the byte stride is a large count too */
    rx_env_counts_t cnt = {large, 3, (int64_t[]){count, blen, stride}};
    return rx_newtype_done(rc, d, stride_in_bytes ? MPI_COMBINER_HVECTOR : MPI_COMBINER_VECTOR,
                           &cnt, 0, NULL, 0, NULL, 1, &oldtype, newtype, fn);
}

#define RX_VECTOR_PARAMS(C, D, A) \
    (C count, C blocklength, C stride, MPI_Datatype oldtype, MPI_Datatype *newtype)
RX_COUNT_FORMS(Type_vector, RX_VECTOR_PARAMS,
               return rx_vector_common(count, blocklength, stride, 0, oldtype, newtype,
                                       sizeof count == 8, fn);)
#define RX_HVECTOR_PARAMS(C, D, A) \
    (C count, C blocklength, A stride, MPI_Datatype oldtype, MPI_Datatype *newtype)
RX_COUNT_FORMS(Type_create_hvector, RX_HVECTOR_PARAMS,
               return rx_vector_common(count, blocklength, stride, 1, oldtype, newtype,
                                       sizeof count == 8, fn);)

/* The indexed family: blens absent means every block has length blen;
 * idisps (in old extents) or adisps (bytes). */
static int rx_indexed_common(MPI_Count count, rx_ivec_t blens, MPI_Count blen, rx_ivec_t idisps,
                             rx_ivec_t adisps, MPI_Datatype oldtype, MPI_Datatype *newtype,
                             int combiner, int large, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_OLDTYPE(old, oldtype, fn);
    int rc = rx_count_check(count, fn);
    if (rc == MPI_SUCCESS)
        rc = combiner == MPI_COMBINER_INDEXED || combiner == MPI_COMBINER_HINDEXED
                 ? rx_blens_check(count, blens, fn) : rx_blens_check(1, RX_IVEC(&blen), fn);
    if (rc == MPI_SUCCESS)
        rc = rx_newtype_check(newtype, fn);
    if (rc == MPI_SUCCESS && count > 0 && !idisps.p && !adisps.p)
        rc = rx_mpi_err(NULL, MPI_ERR_ARG, fn, "array of displacements is NULL");
    if (rc == MPI_SUCCESS && count > INT32_MAX)
        rc = rx_mpi_err(NULL, MPI_ERR_COUNT, fn, "%lld blocks: the arrays of one call hold at "
                        "most INT_MAX", (long long)count);
    if (rc != MPI_SUCCESS)
        return rc;
    size_t n = count > 0 ? (size_t)count : 1;
    size_t *bl = malloc(n * sizeof *bl);
    intptr_t *disp = malloc(n * sizeof *disp);
    int64_t *ints = malloc((2 * n + 2) * sizeof *ints);
    if (!bl || !disp || !ints) {
        free(bl);
        free(disp);
        free(ints);
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    int ni = 0;
    ints[ni++] = count;
    if (!blens.p)
        ints[ni++] = blen;
    rc = RX_OK;
    for (int i = 0; i < (int)count; i++) {
        bl[i] = (size_t)(blens.p ? rx_ivec_at(blens, i) : blen);
        if (!idisps.p)
            disp[i] = (intptr_t)rx_ivec_at(adisps, i);
        else if (__builtin_mul_overflow((intptr_t)rx_ivec_at(idisps, i), old->extent, &disp[i]))
            rc = RX_ERR_OVERFLOW;
        if (blens.p)
            ints[ni++] = rx_ivec_at(blens, i);
    }
    /* the _c forms' byte displacements are MPI_Count: large counts, not addresses */
    int addr = !idisps.p && !large;
    for (int i = 0; !addr && i < (int)count; i++)
        ints[ni++] = rx_ivec_at(idisps.p ? idisps : adisps, i);
    rx_dtype_t *d = NULL;
    if (rc == RX_OK)
        rc = rx_dtype_create_hindexed((size_t)count, bl, disp, old, &d);
    rx_env_counts_t cnt = {large, ni, ints};
    rc = rx_newtype_done(rc, d, combiner, &cnt, 0, NULL, addr ? (int)count : 0,
                         addr ? disp : NULL, 1, &oldtype, newtype, fn);
    free(bl);
    free(disp);
    free(ints);
    return rc;
}

#define RX_NO_IVEC ((rx_ivec_t){NULL, 0})
#define RX_INDEXED_PARAMS(C, D, A)                                                       \
    (C count, const C array_of_blocklengths[], const C array_of_displacements[],     \
     MPI_Datatype oldtype, MPI_Datatype *newtype)
RX_COUNT_FORMS(Type_indexed, RX_INDEXED_PARAMS,
               return rx_indexed_common(count, RX_IVEC(array_of_blocklengths), 0,
                                        RX_IVEC(array_of_displacements), RX_NO_IVEC, oldtype,
                                        newtype,
                                        MPI_COMBINER_INDEXED, sizeof count == 8, fn);)
#define RX_HINDEXED_PARAMS(C, D, A)                                                          \
    (C count, const C array_of_blocklengths[], const A array_of_displacements[],        \
     MPI_Datatype oldtype, MPI_Datatype *newtype)
RX_COUNT_FORMS(Type_create_hindexed, RX_HINDEXED_PARAMS,
               return rx_indexed_common(count, RX_IVEC(array_of_blocklengths), 0, RX_NO_IVEC,
                                        RX_IVEC(array_of_displacements), oldtype, newtype,
                                        MPI_COMBINER_HINDEXED, sizeof count == 8, fn);)
#define RX_INDEXED_BLOCK_PARAMS(C, D, A)                                                  \
    (C count, C blocklength, const C array_of_displacements[], MPI_Datatype oldtype, \
     MPI_Datatype *newtype)
RX_COUNT_FORMS(Type_create_indexed_block, RX_INDEXED_BLOCK_PARAMS,
               return rx_indexed_common(count, RX_NO_IVEC, blocklength,
                                        RX_IVEC(array_of_displacements), RX_NO_IVEC, oldtype,
                                        newtype,
                                        MPI_COMBINER_INDEXED_BLOCK, sizeof count == 8, fn);)
#define RX_HINDEXED_BLOCK_PARAMS(C, D, A)                                                       \
    (C count, C blocklength, const A array_of_displacements[], MPI_Datatype oldtype, \
     MPI_Datatype *newtype)
RX_COUNT_FORMS(Type_create_hindexed_block, RX_HINDEXED_BLOCK_PARAMS,
               return rx_indexed_common(count, RX_NO_IVEC, blocklength, RX_NO_IVEC,
                                        RX_IVEC(array_of_displacements), oldtype, newtype,
                                        MPI_COMBINER_HINDEXED_BLOCK, sizeof count == 8, fn);)

static int rx_struct(MPI_Count count, rx_ivec_t blens, rx_ivec_t adisps,
                     const MPI_Datatype *types, MPI_Datatype *newtype, int large, const char *fn)
{
    RX_CHECK_INIT(fn);
    int rc = rx_count_check(count, fn);
    if (rc == MPI_SUCCESS)
        rc = rx_blens_check(count, blens, fn);
    if (rc == MPI_SUCCESS)
        rc = rx_newtype_check(newtype, fn);
    if (rc == MPI_SUCCESS && count > 0 && (!adisps.p || !types))
        rc = rx_mpi_err(NULL, MPI_ERR_ARG, fn, "NULL array of displacements or types");
    if (rc == MPI_SUCCESS && count > INT32_MAX)
        rc = rx_mpi_err(NULL, MPI_ERR_COUNT, fn, "%lld blocks: the arrays of one call hold at "
                        "most INT_MAX", (long long)count);
    if (rc != MPI_SUCCESS)
        return rc;
    int nb = (int)count;
    size_t n = nb > 0 ? (size_t)nb : 1;
    rx_dtype_t **olds = malloc(n * sizeof *olds);
    size_t *bl = malloc(n * sizeof *bl);
    int64_t *ints = malloc((2 * n + 1) * sizeof *ints);
    intptr_t *disps = malloc(n * sizeof *disps);
    if (!olds || !bl || !ints || !disps) {
        free(olds);
        free(bl);
        free(ints);
        free(disps);
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    ints[0] = count;
    for (int i = 0; i < nb; i++) {
        ints[i + 1] = rx_ivec_at(blens, i);
        bl[i] = (size_t)ints[i + 1];
        disps[i] = (intptr_t)rx_ivec_at(adisps, i);
        if (!(olds[i] = rx_dtype_get(types[i]))) {
            free(olds);
            free(bl);
            free(ints);
            free(disps);
            return rx_mpi_err(NULL, MPI_ERR_TYPE, fn, "invalid datatype at index %d", i);
        }
    }
    rx_dtype_t *d = NULL;
    rc = rx_dtype_create_struct((size_t)nb, bl, disps, olds, &d);
    /* MPI_Type_create_struct_c: the displacements are large counts after the lengths */
    for (int i = 0; large && i < nb; i++)
        ints[nb + 1 + i] = disps[i];
    rx_env_counts_t cnt = {large, large ? 2 * nb + 1 : nb + 1, ints};
    rc = rx_newtype_done(rc, d, MPI_COMBINER_STRUCT, &cnt, 0, NULL, large ? 0 : nb, disps, nb,
                         types, newtype, fn);
    free(olds);
    free(bl);
    free(ints);
    free(disps);
    return rc;
}
#define RX_STRUCT_PARAMS(C, D, A)                                                            \
    (C count, const C array_of_blocklengths[], const A array_of_displacements[],        \
     const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
RX_COUNT_FORMS(Type_create_struct, RX_STRUCT_PARAMS,
               return rx_struct(count, RX_IVEC(array_of_blocklengths),
                                RX_IVEC(array_of_displacements), array_of_types, newtype,
                                sizeof count == 8, fn);)

/* Subarrays: the layout code takes int extents; a _c call's dimensions
 * beyond INT_MAX are refused with MPI_ERR_COUNT (docs/mpi-support.md). */
static int rx_subarray(int ndims, rx_ivec_t sizes, rx_ivec_t subsizes, rx_ivec_t starts,
                       int order, MPI_Datatype oldtype, MPI_Datatype *newtype, int large,
                       const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_OLDTYPE(old, oldtype, fn);
    int rc = rx_newtype_check(newtype, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (ndims < 1 || ndims > 32)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "ndims %d outside 1..32", ndims);
    if (!sizes.p || !subsizes.p || !starts.p)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "NULL array argument");
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "order %d is neither MPI_ORDER_C nor "
                          "MPI_ORDER_FORTRAN", order);
    int sz[32], sub[32], st[32];
    int64_t cnts[3 * 32];
    for (int k = 0; k < ndims; k++) {
        int64_t z = rx_ivec_at(sizes, k), b = rx_ivec_at(subsizes, k), t = rx_ivec_at(starts, k);
        if (z < 1 || b < 1 || b > z || t < 0 || t > z - b)
            return rx_mpi_err(NULL, MPI_ERR_ARG, fn,
                              "dimension %d: size %lld, subsize %lld, start %lld (need 1 <= "
                              "subsize <= size and 0 <= start <= size - subsize)", k,
                              (long long)z, (long long)b, (long long)t);
        if (z > INT32_MAX)
            return rx_mpi_err(NULL, MPI_ERR_COUNT, fn, "dimension %d: size %lld beyond INT_MAX "
                              "is not supported", k, (long long)z);
        sz[k] = (int)z;
        sub[k] = (int)b;
        st[k] = (int)t;
        cnts[k] = z;
        cnts[ndims + k] = b;
        cnts[2 * ndims + k] = t;
    }
    rx_dtype_t *d = NULL;
    rc = rx_dtype_create_subarray(ndims, sz, sub, st, order == MPI_ORDER_C, old, &d);
    /* int form: ndims, sizes, subsizes, starts, order; _c form: (ndims, order) and
     * the 3 * ndims large counts */
    if (!large) {
        int ints[3 * 32 + 2];
        ints[0] = ndims;
        for (int k = 0; k < 3 * ndims; k++)
            ints[1 + k] = (int)cnts[k];
        ints[1 + 3 * ndims] = order;
        return rx_newtype_done(rc, d, MPI_COMBINER_SUBARRAY, NULL, 3 * ndims + 2, ints, 0, NULL,
                               1, &oldtype, newtype, fn);
    }
    rx_env_counts_t cnt = {1, 3 * ndims, cnts};
    return rx_newtype_done(rc, d, MPI_COMBINER_SUBARRAY, &cnt, 2, (int[]){ndims, order}, 0,
                           NULL, 1, &oldtype, newtype, fn);
}
#define RX_SUBARRAY_PARAMS(C, D, A)                                                          \
    (int ndims, const C array_of_sizes[], const C array_of_subsizes[],                  \
     const C array_of_starts[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
RX_COUNT_FORMS(Type_create_subarray, RX_SUBARRAY_PARAMS,
               return rx_subarray(ndims, RX_IVEC(array_of_sizes), RX_IVEC(array_of_subsizes),
                                  RX_IVEC(array_of_starts), order, oldtype, newtype,
                                  sizeof *array_of_sizes == 8, fn);)

static int rx_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype,
                      int large, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_OLDTYPE(old, oldtype, fn);
    int rc = rx_newtype_check(newtype, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rx_dtype_t *d = NULL;
    rc = rx_dtype_create_resized(old, lb, extent, &d);
    if (large) { /* MPI_Type_create_resized_c: lb and extent are large counts */
        rx_env_counts_t cnt = {1, 2, (int64_t[]){lb, extent}};
        return rx_newtype_done(rc, d, MPI_COMBINER_RESIZED, &cnt, 0, NULL, 0, NULL, 1,
                               &oldtype, newtype, fn);
    }
    return rx_newtype_done(rc, d, MPI_COMBINER_RESIZED, NULL, 0, NULL, 2,
                           (intptr_t[]){lb, extent}, 1, &oldtype, newtype, fn);
}

int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                             MPI_Datatype *newtype)
{
    return rx_resized(oldtype, lb, extent, newtype, 0, "MPI_Type_create_resized");
}
RX_ALIAS(Type_create_resized)

int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
                               MPI_Datatype *newtype)
{
    return rx_resized(oldtype, (MPI_Aint)lb, (MPI_Aint)extent, newtype, 1,
                      "MPI_Type_create_resized_c");
}
RX_ALIAS(Type_create_resized_c)

int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    const char *fn = "MPI_Type_dup";
    RX_CHECK_INIT(fn);
    RX_GET_OLDTYPE(old, oldtype, fn);
    int rc = rx_newtype_check(newtype, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rx_dtype_t *d = NULL;
    rc = rx_dtype_dup(old, &d);
    if (rc == RX_OK && old->committed)
        rx_dtype_commit(d); /* a duplicate is committed if the original was */
    rc = rx_newtype_done(rc, d, MPI_COMBINER_DUP, NULL, 0, NULL, 0, NULL, 1, &oldtype, newtype,
                         fn);
    if (rc == MPI_SUCCESS && (rc = rx_type_attr_copy(oldtype, *newtype)) != MPI_SUCCESS) {
        PMPI_Type_free(newtype); /* the half-made duplicate goes */
        return rx_mpi_err(NULL, rc, fn, "an attribute copy callback failed");
    }
    return rc;
}
RX_ALIAS(Type_dup)

int PMPI_Type_commit(MPI_Datatype *datatype)
{
    RX_CHECK_INIT("MPI_Type_commit");
    if (!datatype)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Type_commit", "datatype is NULL");
    RX_GET_OLDTYPE(d, *datatype, "MPI_Type_commit");
    if (!d->committed)
        rx_dtype_commit(d);
    return MPI_SUCCESS;
}
RX_ALIAS(Type_commit)

int PMPI_Type_free(MPI_Datatype *datatype)
{
    RX_CHECK_INIT("MPI_Type_free");
    if (!datatype)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Type_free", "datatype is NULL");
    RX_GET_OLDTYPE(d, *datatype, "MPI_Type_free");
    if (d->predefined)
        return rx_mpi_err(NULL, MPI_ERR_TYPE, "MPI_Type_free", "%s is predefined and cannot be "
                          "freed", d->name);
    /* the delete callbacks run first; their error is returned, the type freed all the same */
    int arc = rx_obj_attr_delete_all(RX_OBJ_TYPE, *datatype);
    /* types built from it may keep it alive: its handle dies here all the same */
    if (--d->handles <= 0 && d->refcount > 1)
        rx_htab_retire(&rx_dtype_table, d->index);
    rx_dtype_unref(d);
    *datatype = MPI_DATATYPE_NULL;
    return arc == MPI_SUCCESS ? arc
                              : rx_mpi_err(NULL, arc, "MPI_Type_free", "a delete callback failed");
}
RX_ALIAS(Type_free)

int PMPI_Type_size(MPI_Datatype datatype, int *size)
{
    RX_CHECK_INIT("MPI_Type_size");
    RX_GET_OLDTYPE(dt, datatype, "MPI_Type_size");
    if (!size)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Type_size", "size is NULL");
    *size = dt->size > (size_t)INT32_MAX ? MPI_UNDEFINED : (int)dt->size;
    return MPI_SUCCESS;
}
RX_ALIAS(Type_size)

int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    RX_CHECK_INIT("MPI_Type_get_extent");
    RX_GET_OLDTYPE(dt, datatype, "MPI_Type_get_extent");
    if (!lb || !extent)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Type_get_extent", "NULL argument");
    *lb = dt->lb;
    *extent = dt->extent;
    return MPI_SUCCESS;
}
RX_ALIAS(Type_get_extent)

int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent)
{
    RX_CHECK_INIT("MPI_Type_get_true_extent");
    RX_GET_OLDTYPE(dt, datatype, "MPI_Type_get_true_extent");
    if (!true_lb || !true_extent)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Type_get_true_extent", "NULL argument");
    *true_lb = dt->true_lb;
    *true_extent = dt->true_extent;
    return MPI_SUCCESS;
}
RX_ALIAS(Type_get_true_extent)

/* Envelope of either form. A type made by a _c constructor has large counts,
 * which the int form cannot report: it refuses such a type (MPI_ERR_TYPE). */
static int rx_envelope(MPI_Datatype datatype, MPI_Count *ni, MPI_Count *na, MPI_Count *nc,
                       MPI_Count *nt, int *combiner, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_OLDTYPE(dt, datatype, fn);
    if (!ni || !na || !nt || !combiner)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "NULL argument");
    if (!nc && dt->nc)
        return rx_mpi_err(NULL, MPI_ERR_TYPE, fn, "the type was made by a large-count "
                          "constructor: its envelope needs MPI_Type_get_envelope_c");
    *ni = dt->ni;
    *na = dt->na;
    *nt = dt->nt;
    if (nc)
        *nc = dt->nc;
    *combiner = dt->combiner;
    return MPI_SUCCESS;
}

int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                           int *num_datatypes, int *combiner)
{
    MPI_Count ni, na, nt;
    int ok = num_integers && num_addresses && num_datatypes;
    int rc = rx_envelope(datatype, ok ? &ni : NULL, &na, NULL, &nt, combiner,
                         "MPI_Type_get_envelope");
    if (rc == MPI_SUCCESS) {
        *num_integers = (int)ni;
        *num_addresses = (int)na;
        *num_datatypes = (int)nt;
    }
    return rc;
}
RX_ALIAS(Type_get_envelope)

int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers,
                             MPI_Count *num_addresses, MPI_Count *num_large_counts,
                             MPI_Count *num_datatypes, int *combiner)
{
    const char *fn = "MPI_Type_get_envelope_c";
    if (!num_large_counts && rx_rt.initialized)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "NULL argument");
    return rx_envelope(datatype, num_integers, num_addresses, num_large_counts, num_datatypes,
                       combiner, fn);
}
RX_ALIAS(Type_get_envelope_c)

/* Contents of either form (c_form 0: the int form, for types without large
 * counts). */
static int rx_contents(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                       MPI_Count max_large, MPI_Count max_datatypes, int array_of_integers[],
                       MPI_Aint array_of_addresses[], MPI_Count *large, int c_form,
                       MPI_Datatype array_of_datatypes[], const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_OLDTYPE(dt, datatype, fn);
    if (dt->predefined && dt->combiner < MPI_COMBINER_F90_REAL) /* F90 types have contents */
        return rx_mpi_err(NULL, MPI_ERR_TYPE, fn, "%s is predefined (MPI_COMBINER_NAMED)",
                          dt->name);
    if (!c_form && dt->nc)
        return rx_mpi_err(NULL, MPI_ERR_TYPE, fn, "the type was made by a large-count "
                          "constructor: its contents need MPI_Type_get_contents_c");
    if (max_integers < dt->ni || max_addresses < dt->na || max_datatypes < dt->nt ||
        max_large < dt->nc)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "arrays too small: need %d integers, %d "
                          "addresses, %d large counts, %d datatypes", dt->ni, dt->na, dt->nc,
                          dt->nt);
    if ((dt->ni && !array_of_integers) || (dt->na && !array_of_addresses) ||
        (dt->nt && !array_of_datatypes) || (dt->nc && !large))
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "NULL array argument");
    if (dt->ni)
        memcpy(array_of_integers, dt->ints, sizeof(int) * (size_t)dt->ni);
    for (int i = 0; i < dt->na; i++)
        array_of_addresses[i] = dt->aints[i];
    for (int i = 0; i < dt->nc; i++)
        large[i] = dt->lcounts[i];
    for (int i = 0; i < dt->nt; i++) {
        /* derived types come back as handles the caller frees */
        array_of_datatypes[i] = dt->types[i];
        rx_dtype_t *t = rx_dtype_get_held(dt->types[i]);
        if (t && !t->predefined && t->handles++ == 0)
            rx_htab_revive(&rx_dtype_table, t->index);
        rx_dtype_ref(t);
    }
    return MPI_SUCCESS;
}

int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                           int max_datatypes, int array_of_integers[],
                           MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
    return rx_contents(datatype, max_integers, max_addresses, 0, max_datatypes,
                       array_of_integers, array_of_addresses, NULL, 0, array_of_datatypes,
                       "MPI_Type_get_contents");
}
RX_ALIAS(Type_get_contents)

int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers,
                             MPI_Count max_addresses, MPI_Count max_large_counts,
                             MPI_Count max_datatypes, int array_of_integers[],
                             MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                             MPI_Datatype array_of_datatypes[])
{
    return rx_contents(datatype, max_integers, max_addresses, max_large_counts, max_datatypes,
                       array_of_integers, array_of_addresses, array_of_large_counts, 1,
                       array_of_datatypes, "MPI_Type_get_contents_c");
}
RX_ALIAS(Type_get_contents_c)

int PMPI_Type_set_name(MPI_Datatype datatype, const char *type_name)
{
    RX_CHECK_INIT("MPI_Type_set_name");
    RX_GET_OLDTYPE(dt, datatype, "MPI_Type_set_name");
    if (!type_name)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Type_set_name", "name is NULL");
    snprintf(dt->namebuf, sizeof dt->namebuf, "%s", type_name);
    dt->name = dt->namebuf;
    return MPI_SUCCESS;
}
RX_ALIAS(Type_set_name)

int PMPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen)
{
    RX_CHECK_INIT("MPI_Type_get_name");
    RX_GET_OLDTYPE(dt, datatype, "MPI_Type_get_name");
    if (!type_name || !resultlen)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Type_get_name", "NULL argument");
    snprintf(type_name, MPI_MAX_OBJECT_NAME, "%s", dt->name ? dt->name : "");
    *resultlen = (int)strlen(type_name);
    return MPI_SUCCESS;
}
RX_ALIAS(Type_get_name)

static int rx_pack_args(MPI_Count count, MPI_Datatype datatype, MPI_Comm comm, MPI_Count size,
                        const MPI_Count *position, rx_dtype_t **dtp, size_t *bytes,
                        const char *fn)
{
    RX_GET_COMM(c, comm, fn);
    RX_CHECK_COUNT(c, count, fn);
    RX_GET_DTYPE(dt, c, datatype, fn);
    if (!position)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "position is NULL");
    if (size < 0 || *position < 0 || *position > size)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "position %lld outside the buffer of %lld bytes",
                          (long long)*position, (long long)size);
    if (rx_mpi_data_class(position, (uint64_t)count, dt) == MPI_ERR_COUNT) /* buffers: below */
        return rx_mpi_data_err(c, MPI_ERR_COUNT, (uint64_t)count, dt, fn);
    *bytes = (size_t)count * dt->wire;
    if (*bytes > (size_t)(size - *position))
        return rx_mpi_err(c, MPI_ERR_TRUNCATE, fn, "%zu bytes do not fit at position %lld of a "
                          "%lld-byte buffer", *bytes, (long long)*position, (long long)size);
    *dtp = dt;
    return MPI_SUCCESS;
}

/* Pack (pack = 1) or unpack count elements at position of the packed
 * buffer of size bytes. */
static int rx_pack_common(int pack, const void *inbuf, void *outbuf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Count size, MPI_Count *position,
                          MPI_Comm comm, const char *fn)
{
    RX_CHECK_INIT(fn);
    rx_dtype_t *dt = NULL;
    size_t bytes = 0;
    int rc = rx_pack_args(count, datatype, comm, size, position, &dt, &bytes, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (bytes && (!inbuf || !outbuf))
        return rx_mpi_err(rx_comm_get(comm), MPI_ERR_BUFFER, fn, "NULL buffer");
    if (pack)
        rx_dtype_pack(dt, inbuf, (size_t)count, (char *)outbuf + *position);
    else
        rx_dtype_unpack(dt, (const char *)inbuf + *position, bytes, outbuf);
    *position += (MPI_Count)bytes;
    return MPI_SUCCESS;
}

/* The int forms keep an int position: the call fails before it would pass
 * INT_MAX, as the buffer size is an int too. */
int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
              int *position, MPI_Comm comm)
{
    MPI_Count pos = position ? *position : 0;
    int rc = rx_pack_common(1, inbuf, outbuf, incount, datatype, outsize, position ? &pos : NULL,
                            comm, "MPI_Pack");
    if (rc == MPI_SUCCESS)
        *position = (int)pos;
    return rc;
}
RX_ALIAS(Pack)

int PMPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
    return rx_pack_common(1, inbuf, outbuf, incount, datatype, outsize, position, comm,
                          "MPI_Pack_c");
}
RX_ALIAS(Pack_c)

int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                MPI_Datatype datatype, MPI_Comm comm)
{
    MPI_Count pos = position ? *position : 0;
    int rc = rx_pack_common(0, inbuf, outbuf, outcount, datatype, insize, position ? &pos : NULL,
                            comm, "MPI_Unpack");
    if (rc == MPI_SUCCESS)
        *position = (int)pos;
    return rc;
}
RX_ALIAS(Unpack)

int PMPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                  MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm)
{
    return rx_pack_common(0, inbuf, outbuf, outcount, datatype, insize, position, comm,
                          "MPI_Unpack_c");
}
RX_ALIAS(Unpack_c)

/* Packed size of incount elements, refused above max (MPI_ERR_COUNT). */
static int rx_pack_size(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm,
                        MPI_Count *size, MPI_Count max, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    RX_CHECK_COUNT(c, incount, fn);
    RX_GET_DTYPE(dt, c, datatype, fn);
    if (!size)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "size is NULL");
    uint64_t bytes;
    if (__builtin_mul_overflow((uint64_t)incount, (uint64_t)dt->wire, &bytes) ||
        bytes > (uint64_t)max)
        return rx_mpi_err(c, MPI_ERR_COUNT, fn, "%lld elements of %zu packed bytes are more "
                          "than %lld bytes", (long long)incount, dt->wire, (long long)max);
    *size = (MPI_Count)bytes;
    return MPI_SUCCESS;
}

int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    MPI_Count n;
    int rc = rx_pack_size(incount, datatype, comm, size ? &n : NULL, INT32_MAX, "MPI_Pack_size");
    if (rc == MPI_SUCCESS)
        *size = (int)n;
    return rc;
}
RX_ALIAS(Pack_size)

int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size)
{
    return rx_pack_size(incount, datatype, comm, size, (MPI_Count)RX_MPI_MAX_BYTES,
                        "MPI_Pack_size_c");
}
RX_ALIAS(Pack_size_c)

int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    RX_CHECK_INIT("MPI_Get_elements");
    if (!status || status == MPI_STATUS_IGNORE || !count)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Get_elements", "NULL or ignored status or count");
    RX_GET_DTYPE(dt, NULL, datatype, "MPI_Get_elements");
    long long n = rx_dtype_elements(dt, (size_t)status->rx_bytes);
    *count = n < 0 || n > INT32_MAX ? MPI_UNDEFINED : (int)n;
    return MPI_SUCCESS;
}
RX_ALIAS(Get_elements)

int PMPI_Get_address(const void *location, MPI_Aint *address)
{
    if (!address)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Get_address", "address is NULL");
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}
RX_ALIAS(Get_address)

MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
    return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}
RX_ALIAS(Aint_add)

MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2);
}
RX_ALIAS(Aint_diff)
