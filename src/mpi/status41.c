/* SPDX-License-Identifier: MIT
 * MPI-4.1 accessors of a status (MPI_Status_get/set_source/tag/error, for
 * bindings that cannot reach the fields) and MPI_Type_get_value_index (the
 * predefined pair type of a value and an index type). */
#include "mpi_impl.h"

#define RX_STATUS_FIELD(Field, FIELD)                                                     \
    int PMPI_Status_get_##Field(const MPI_Status *status, int *Field)                      \
    {                                                                                      \
        if (!status || status == MPI_STATUS_IGNORE || !Field)                              \
            return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Status_get_" #Field,                 \
                              "NULL or ignored status, or NULL " #Field);                  \
        *Field = status->FIELD;                                                            \
        return MPI_SUCCESS;                                                                \
    }                                                                                      \
    RX_ALIAS(Status_get_##Field)                                                           \
    int PMPI_Status_set_##Field(MPI_Status *status, int Field)                             \
    {                                                                                      \
        if (!status || status == MPI_STATUS_IGNORE)                                        \
            return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Status_set_" #Field,                 \
                              "NULL or ignored status");                                   \
        status->FIELD = Field;                                                             \
        return MPI_SUCCESS;                                                                \
    }                                                                                      \
    RX_ALIAS(Status_set_##Field)

RX_STATUS_FIELD(source, MPI_SOURCE)
RX_STATUS_FIELD(tag, MPI_TAG)
RX_STATUS_FIELD(error, MPI_ERROR)

/* The pair types of MPI_MINLOC / MPI_MAXLOC (MPI-4.1 §6.9.4). */
int PMPI_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type,
                              MPI_Datatype *pair_type)
{
    const char *fn = "MPI_Type_get_value_index";
    RX_CHECK_INIT(fn);
    if (!pair_type)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "pair_type is NULL");
    RX_GET_DTYPE(v, NULL, value_type, fn);
    RX_GET_DTYPE(ix, NULL, index_type, fn);
    (void)v;
    (void)ix;
    static const MPI_Datatype pairs[][3] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},     {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
        {MPI_LONG, MPI_INT, MPI_LONG_INT},       {MPI_INT, MPI_INT, MPI_2INT},
        {MPI_SHORT, MPI_INT, MPI_SHORT_INT},     {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
        {MPI_REAL, MPI_REAL, MPI_2REAL},         {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
        {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
    };
    *pair_type = MPI_DATATYPE_NULL; /* no predefined pair of these types */
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (pairs[i][0] == value_type && pairs[i][1] == index_type)
            *pair_type = pairs[i][2];
    return MPI_SUCCESS;
}
RX_ALIAS(Type_get_value_index)
