/* SPDX-License-Identifier: MIT
 * Datatype calls: constructors, commit / free, bounds and sizes, envelope and
 * contents, names, pack / unpack, element counts, addresses. Layout work is
 * src/dtype's; this file checks arguments and records how each type was made. */
#include "mpi_impl.h"
#include "attr_obj.h"

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

static int rx_count_check(int count, const char *fn)
{
    return count >= 0 ? MPI_SUCCESS
                      : rx_mpi_err(NULL, MPI_ERR_COUNT, fn, "negative count %d", count);
}

static int rx_blens_check(int count, const int *blens, const char *fn)
{
    if (count > 0 && !blens)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "array of block lengths is NULL");
    for (int i = 0; i < count; i++)
        if (blens[i] < 0)
            return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "negative block length %d at index %d",
                              blens[i], i);
    return MPI_SUCCESS;
}

/* Record the envelope, hand out the handle; on failure free the new type. */
static int rx_newtype_done(int rc, rx_dtype_t *d, int combiner, int ni, const int *ints, int na,
                           const intptr_t *aints, int nt, const int *types,
                           MPI_Datatype *newtype, const char *fn)
{
    if (rc == RX_OK)
        rc = rx_dtype_set_envelope(d, combiner, ni, ints, na, aints, nt, types);
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

int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    const char *fn = "MPI_Type_contiguous";
    RX_CHECK_INIT(fn);
    RX_GET_OLDTYPE(old, oldtype, fn);
    int rc = rx_count_check(count, fn);
    if (rc == MPI_SUCCESS)
        rc = rx_newtype_check(newtype, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rx_dtype_t *d = NULL;
    rc = rx_dtype_create_hvector(1, count, 0, old, &d);
    return rx_newtype_done(rc, d, MPI_COMBINER_CONTIGUOUS, 1, &count, 0, NULL, 1, &oldtype,
                           newtype, fn);
}
RX_ALIAS(Type_contiguous)

static int rx_vector_common(int count, int blen, intptr_t stride, int stride_in_bytes,
                            MPI_Datatype oldtype, MPI_Datatype *newtype, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_OLDTYPE(old, oldtype, fn);
    int rc = rx_count_check(count, fn);
    if (rc == MPI_SUCCESS)
        rc = rx_blens_check(1, &blen, fn);
    if (rc == MPI_SUCCESS)
        rc = rx_newtype_check(newtype, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rx_dtype_t *d = NULL;
    intptr_t bstride = stride;
    if (!stride_in_bytes && __builtin_mul_overflow(stride, old->extent, &bstride))
        rc = RX_ERR_OVERFLOW; /* the stride in bytes is not an address difference */
    else
        rc = rx_dtype_create_hvector(count, blen, bstride, old, &d);
    if (stride_in_bytes)
        return rx_newtype_done(rc, d, MPI_COMBINER_HVECTOR, 2, (int[]){count, blen}, 1, &stride,
                               1, &oldtype, newtype, fn);
    return rx_newtype_done(rc, d, MPI_COMBINER_VECTOR, 3, (int[]){count, blen, (int)stride}, 0,
                           NULL, 1, &oldtype, newtype, fn);
}

int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                     MPI_Datatype *newtype)
{
    return rx_vector_common(count, blocklength, stride, 0, oldtype, newtype, "MPI_Type_vector");
}
RX_ALIAS(Type_vector)

int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype *newtype)
{
    return rx_vector_common(count, blocklength, stride, 1, oldtype, newtype,
                            "MPI_Type_create_hvector");
}
RX_ALIAS(Type_create_hvector)

/* The indexed family: blens NULL means every block has length blen;
 * idisps (in old extents) or adisps (bytes). */
static int rx_indexed_common(int count, const int *blens, int blen, const int *idisps,
                             const MPI_Aint *adisps, MPI_Datatype oldtype, MPI_Datatype *newtype,
                             int combiner, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_OLDTYPE(old, oldtype, fn);
    int rc = rx_count_check(count, fn);
    if (rc == MPI_SUCCESS)
        rc = blens ? rx_blens_check(count, blens, fn) : rx_blens_check(1, &blen, fn);
    if (rc == MPI_SUCCESS)
        rc = rx_newtype_check(newtype, fn);
    if (rc == MPI_SUCCESS && count > 0 && !idisps && !adisps)
        rc = rx_mpi_err(NULL, MPI_ERR_ARG, fn, "array of displacements is NULL");
    if (rc != MPI_SUCCESS)
        return rc;
    size_t n = count > 0 ? (size_t)count : 1;
    int *bl = malloc(n * sizeof *bl);
    intptr_t *disp = malloc(n * sizeof *disp);
    int *ints = malloc((2 * n + 2) * sizeof *ints);
    if (!bl || !disp || !ints) {
        free(bl);
        free(disp);
        free(ints);
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    int ni = 0;
    ints[ni++] = count;
    if (!blens)
        ints[ni++] = blen;
    rc = RX_OK;
    for (int i = 0; i < count; i++) {
        bl[i] = blens ? blens[i] : blen;
        if (!idisps)
            disp[i] = adisps[i];
        else if (__builtin_mul_overflow((intptr_t)idisps[i], old->extent, &disp[i]))
            rc = RX_ERR_OVERFLOW;
        if (blens)
            ints[ni++] = blens[i];
    }
    if (idisps)
        for (int i = 0; i < count; i++)
            ints[ni++] = idisps[i];
    rx_dtype_t *d = NULL;
    if (rc == RX_OK)
        rc = rx_dtype_create_hindexed(count, bl, disp, old, &d);
    rc = rx_newtype_done(rc, d, combiner, ni, ints, idisps ? 0 : count, idisps ? NULL : adisps,
                         1, &oldtype, newtype, fn);
    free(bl);
    free(disp);
    free(ints);
    return rc;
}

int PMPI_Type_indexed(int count, const int array_of_blocklengths[],
                      const int array_of_displacements[], MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
    return rx_indexed_common(count, array_of_blocklengths, 0, array_of_displacements, NULL,
                             oldtype, newtype, MPI_COMBINER_INDEXED, "MPI_Type_indexed");
}
RX_ALIAS(Type_indexed)

int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                              const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    return rx_indexed_common(count, array_of_blocklengths, 0, NULL, array_of_displacements,
                             oldtype, newtype, MPI_COMBINER_HINDEXED, "MPI_Type_create_hindexed");
}
RX_ALIAS(Type_create_hindexed)

int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return rx_indexed_common(count, NULL, blocklength, array_of_displacements, NULL, oldtype,
                             newtype, MPI_COMBINER_INDEXED_BLOCK, "MPI_Type_create_indexed_block");
}
RX_ALIAS(Type_create_indexed_block)

int PMPI_Type_create_hindexed_block(int count, int blocklength,
                                    const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                    MPI_Datatype *newtype)
{
    return rx_indexed_common(count, NULL, blocklength, NULL, array_of_displacements, oldtype,
                             newtype, MPI_COMBINER_HINDEXED_BLOCK,
                             "MPI_Type_create_hindexed_block");
}
RX_ALIAS(Type_create_hindexed_block)

int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
                            const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    const char *fn = "MPI_Type_create_struct";
    RX_CHECK_INIT(fn);
    int rc = rx_count_check(count, fn);
    if (rc == MPI_SUCCESS)
        rc = rx_blens_check(count, array_of_blocklengths, fn);
    if (rc == MPI_SUCCESS)
        rc = rx_newtype_check(newtype, fn);
    if (rc == MPI_SUCCESS && count > 0 && (!array_of_displacements || !array_of_types))
        rc = rx_mpi_err(NULL, MPI_ERR_ARG, fn, "NULL array of displacements or types");
    if (rc != MPI_SUCCESS)
        return rc;
    size_t n = count > 0 ? (size_t)count : 1;
    rx_dtype_t **olds = malloc(n * sizeof *olds);
    int *ints = malloc((n + 1) * sizeof *ints);
    if (!olds || !ints) {
        free(olds);
        free(ints);
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    ints[0] = count;
    for (int i = 0; i < count; i++) {
        ints[i + 1] = array_of_blocklengths[i];
        if (!(olds[i] = rx_dtype_get(array_of_types[i]))) {
            free(olds);
            free(ints);
            return rx_mpi_err(NULL, MPI_ERR_TYPE, fn, "invalid datatype at index %d", i);
        }
    }
    rx_dtype_t *d = NULL;
    rc = rx_dtype_create_struct(count, array_of_blocklengths, array_of_displacements, olds, &d);
    rc = rx_newtype_done(rc, d, MPI_COMBINER_STRUCT, count + 1, ints, count,
                         array_of_displacements, count, array_of_types, newtype, fn);
    free(olds);
    free(ints);
    return rc;
}
RX_ALIAS(Type_create_struct)

int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                              const int array_of_starts[], int order, MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    const char *fn = "MPI_Type_create_subarray";
    RX_CHECK_INIT(fn);
    RX_GET_OLDTYPE(old, oldtype, fn);
    int rc = rx_newtype_check(newtype, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (ndims < 1 || ndims > 32)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "ndims %d outside 1..32", ndims);
    if (!array_of_sizes || !array_of_subsizes || !array_of_starts)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "NULL array argument");
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "order %d is neither MPI_ORDER_C nor "
                          "MPI_ORDER_FORTRAN", order);
    for (int k = 0; k < ndims; k++) {
        int sz = array_of_sizes[k], sub = array_of_subsizes[k], st = array_of_starts[k];
        if (sz < 1 || sub < 1 || sub > sz || st < 0 || st > sz - sub)
            return rx_mpi_err(NULL, MPI_ERR_ARG, fn,
                              "dimension %d: size %d, subsize %d, start %d (need 1 <= subsize <= "
                              "size and 0 <= start <= size - subsize)", k, sz, sub, st);
    }
    int ints[3 * 32 + 2];
    ints[0] = ndims;
    for (int k = 0; k < ndims; k++) {
        ints[1 + k] = array_of_sizes[k];
        ints[1 + ndims + k] = array_of_subsizes[k];
        ints[1 + 2 * ndims + k] = array_of_starts[k];
    }
    ints[1 + 3 * ndims] = order;
    rx_dtype_t *d = NULL;
    rc = rx_dtype_create_subarray(ndims, array_of_sizes, array_of_subsizes, array_of_starts,
                                  order == MPI_ORDER_C, old, &d);
    return rx_newtype_done(rc, d, MPI_COMBINER_SUBARRAY, 3 * ndims + 2, ints, 0, NULL, 1,
                           &oldtype, newtype, fn);
}
RX_ALIAS(Type_create_subarray)

int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                             MPI_Datatype *newtype)
{
    const char *fn = "MPI_Type_create_resized";
    RX_CHECK_INIT(fn);
    RX_GET_OLDTYPE(old, oldtype, fn);
    int rc = rx_newtype_check(newtype, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rx_dtype_t *d = NULL;
    rc = rx_dtype_create_resized(old, lb, extent, &d);
    return rx_newtype_done(rc, d, MPI_COMBINER_RESIZED, 0, NULL, 2, (intptr_t[]){lb, extent}, 1,
                           &oldtype, newtype, fn);
}
RX_ALIAS(Type_create_resized)

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
    rc = rx_newtype_done(rc, d, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, &oldtype, newtype, fn);
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

int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                           int *num_datatypes, int *combiner)
{
    const char *fn = "MPI_Type_get_envelope";
    RX_CHECK_INIT(fn);
    RX_GET_OLDTYPE(dt, datatype, fn);
    if (!num_integers || !num_addresses || !num_datatypes || !combiner)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "NULL argument");
    *num_integers = dt->ni;
    *num_addresses = dt->na;
    *num_datatypes = dt->nt;
    *combiner = dt->combiner;
    return MPI_SUCCESS;
}
RX_ALIAS(Type_get_envelope)

int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                           int max_datatypes, int array_of_integers[],
                           MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
    const char *fn = "MPI_Type_get_contents";
    RX_CHECK_INIT(fn);
    RX_GET_OLDTYPE(dt, datatype, fn);
    if (dt->predefined)
        return rx_mpi_err(NULL, MPI_ERR_TYPE, fn, "%s is predefined (MPI_COMBINER_NAMED)",
                          dt->name);
    if (max_integers < dt->ni || max_addresses < dt->na || max_datatypes < dt->nt)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "arrays too small: need %d integers, %d "
                          "addresses, %d datatypes", dt->ni, dt->na, dt->nt);
    if ((dt->ni && !array_of_integers) || (dt->na && !array_of_addresses) ||
        (dt->nt && !array_of_datatypes))
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "NULL array argument");
    if (dt->ni)
        memcpy(array_of_integers, dt->ints, sizeof(int) * (size_t)dt->ni);
    for (int i = 0; i < dt->na; i++)
        array_of_addresses[i] = dt->aints[i];
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
RX_ALIAS(Type_get_contents)

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

static int rx_pack_args(int count, MPI_Datatype datatype, MPI_Comm comm, int size, int *position,
                        rx_dtype_t **dtp, size_t *bytes, const char *fn)
{
    RX_GET_COMM(c, comm, fn);
    RX_CHECK_COUNT(c, count, fn);
    RX_GET_DTYPE(dt, c, datatype, fn);
    if (!position)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "position is NULL");
    if (size < 0 || *position < 0 || *position > size)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "position %d outside the buffer of %d bytes",
                          *position, size);
    if (rx_mpi_data_class(position, (uint64_t)count, dt) == MPI_ERR_COUNT) /* buffers: below */
        return rx_mpi_data_err(c, MPI_ERR_COUNT, (uint64_t)count, dt, fn);
    *bytes = (size_t)count * dt->wire;
    if (*bytes > (size_t)(size - *position))
        return rx_mpi_err(c, MPI_ERR_TRUNCATE, fn, "%zu bytes do not fit at position %d of a "
                          "%d-byte buffer", *bytes, *position, size);
    *dtp = dt;
    return MPI_SUCCESS;
}

int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
              int *position, MPI_Comm comm)
{
    const char *fn = "MPI_Pack";
    RX_CHECK_INIT(fn);
    rx_dtype_t *dt;
    size_t bytes;
    int rc = rx_pack_args(incount, datatype, comm, outsize, position, &dt, &bytes, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (bytes && (!inbuf || !outbuf))
        return rx_mpi_err(rx_comm_get(comm), MPI_ERR_BUFFER, fn, "NULL buffer");
    rx_dtype_pack(dt, inbuf, (size_t)incount, (char *)outbuf + *position);
    *position += (int)bytes;
    return MPI_SUCCESS;
}
RX_ALIAS(Pack)

int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                MPI_Datatype datatype, MPI_Comm comm)
{
    const char *fn = "MPI_Unpack";
    RX_CHECK_INIT(fn);
    rx_dtype_t *dt;
    size_t bytes;
    int rc = rx_pack_args(outcount, datatype, comm, insize, position, &dt, &bytes, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (bytes && (!inbuf || !outbuf))
        return rx_mpi_err(rx_comm_get(comm), MPI_ERR_BUFFER, fn, "NULL buffer");
    rx_dtype_unpack(dt, (const char *)inbuf + *position, bytes, outbuf);
    *position += (int)bytes;
    return MPI_SUCCESS;
}
RX_ALIAS(Unpack)

int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    const char *fn = "MPI_Pack_size";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    RX_CHECK_COUNT(c, incount, fn);
    RX_GET_DTYPE(dt, c, datatype, fn);
    if (!size)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "size is NULL");
    size_t bytes = (size_t)incount * dt->wire;
    if (bytes > (size_t)INT32_MAX)
        return rx_mpi_err(c, MPI_ERR_COUNT, fn, "%zu bytes do not fit an int", bytes);
    *size = (int)bytes;
    return MPI_SUCCESS;
}
RX_ALIAS(Pack_size)

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
