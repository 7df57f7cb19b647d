/* SPDX-License-Identifier: MIT
 * Datatype queries with MPI_Count results (the _x forms, whose values need
 * not fit an int, and their MPI-4 twins, the _c forms, which mean the same)
 * and MPI_Type_match_size. */
#include "mpi_impl.h"

/* PMPI_name_x and PMPI_name_c with MPI_ aliases, one body (fn: the name). */
#define RX_X_AND_C(name, params, ...)                     \
    int PMPI_##name##_x params                            \
    {                                                     \
        const char *fn = "MPI_" #name "_x";               \
        __VA_ARGS__                                       \
    }                                                     \
    RX_ALIAS(name##_x)                                    \
    int PMPI_##name##_c params                            \
    {                                                     \
        const char *fn = "MPI_" #name "_c";               \
        __VA_ARGS__                                       \
    }                                                     \
    RX_ALIAS(name##_c)

/* Uncommitted types may be asked about (MPI-4.1 §5.1.5). */
#define RX_QUERY_TYPE(d, handle, fn)                                                    \
    rx_dtype_t *d = rx_dtype_get(handle);                                               \
    if (!d)                                                                             \
        return rx_mpi_err(NULL, MPI_ERR_TYPE, fn, "%s", (handle) == MPI_DATATYPE_NULL    \
                          ? "datatype is MPI_DATATYPE_NULL" : "invalid datatype")

RX_X_AND_C(Type_size, (MPI_Datatype datatype, MPI_Count *size), {
    RX_CHECK_INIT(fn);
    RX_QUERY_TYPE(dt, datatype, fn);
    if (!size)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "size is NULL");
    *size = (MPI_Count)dt->size;
    return MPI_SUCCESS;
})

RX_X_AND_C(Type_get_extent, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent), {
    RX_CHECK_INIT(fn);
    RX_QUERY_TYPE(dt, datatype, fn);
    if (!lb || !extent)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "lb or extent is NULL");
    *lb = dt->lb;
    *extent = dt->extent;
    return MPI_SUCCESS;
})

RX_X_AND_C(Type_get_true_extent,
           (MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent), {
    RX_CHECK_INIT(fn);
    RX_QUERY_TYPE(dt, datatype, fn);
    if (!true_lb || !true_extent)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "true_lb or true_extent is NULL");
    *true_lb = dt->true_lb;
    *true_extent = dt->true_extent;
    return MPI_SUCCESS;
})

RX_X_AND_C(Get_elements, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count), {
    RX_CHECK_INIT(fn);
    if (!status || status == MPI_STATUS_IGNORE || !count)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "NULL or ignored status or count");
    RX_GET_DTYPE(dt, NULL, datatype, fn);
    long long n = rx_dtype_elements(dt, (size_t)status->rx_bytes);
    *count = n < 0 ? MPI_UNDEFINED : (MPI_Count)n;
    return MPI_SUCCESS;
})

/* The Fortran type of a class and size (MPI-4.1 §19.1.9): the sized types,
 * which are the Fortran kinds gfortran has. */
int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    const char *fn = "MPI_Type_match_size";
    RX_CHECK_INIT(fn);
    if (!datatype)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "datatype is NULL");
    MPI_Datatype t = MPI_DATATYPE_NULL;
    switch (typeclass) {
    case MPI_TYPECLASS_INTEGER:
        t = size == 1 ? MPI_INTEGER1 : size == 2 ? MPI_INTEGER2 : size == 4 ? MPI_INTEGER4
          : size == 8 ? MPI_INTEGER8 : size == 16 ? MPI_INTEGER16 : MPI_DATATYPE_NULL;
        break;
    case MPI_TYPECLASS_REAL:
        t = size == 4 ? MPI_REAL4 : size == 8 ? MPI_REAL8 : size == 16 ? MPI_REAL16
                                                                      : MPI_DATATYPE_NULL;
        break;
    case MPI_TYPECLASS_COMPLEX:
        t = size == 8 ? MPI_COMPLEX8 : size == 16 ? MPI_COMPLEX16 : size == 32 ? MPI_COMPLEX32
                                                                               : MPI_DATATYPE_NULL;
        break;
    default:
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "typeclass %d is not MPI_TYPECLASS_INTEGER, "
                          "_REAL or _COMPLEX", typeclass);
    }
    if (t == MPI_DATATYPE_NULL)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "no type of class %d has %d bytes", typeclass,
                          size);
    *datatype = t;
    return MPI_SUCCESS;
}
RX_ALIAS(Type_match_size)
