/* SPDX-License-Identifier: MIT
 * MPI_Type_create_f90_integer / _real / _complex (MPI-4.1 §19.1.9): the type
 * of a Fortran SELECTED_INT_KIND(r) or SELECTED_REAL_KIND(p, r) kind. Each is
 * a copy of the sized type of that kind (MPI_INTEGER1..16, MPI_REAL4..16,
 * MPI_COMPLEX8..32: the kinds gfortran has) whose envelope is the
 * MPI_COMBINER_F90_* combiner with its arguments. They are predefined types:
 * made once per (combiner, p, r), the same handle after that, never freed. */
#include "mpi_impl.h"

#include <limits.h>

/* Decimal precision and exponent range of the real kinds (gfortran's
 * PRECISION() and RANGE() of REAL(4), REAL(8), REAL(16)). */
static const struct { int p, r; MPI_Datatype real, cplx; } rx_reals[] = {
    {6, 37, MPI_REAL4, MPI_COMPLEX8},
    {15, 307, MPI_REAL8, MPI_COMPLEX16},
    {33, 4931, MPI_REAL16, MPI_COMPLEX32},
};
/* RANGE() of INTEGER(1), (2), (4), (8), (16). */
static const struct { int r; MPI_Datatype t; } rx_ints[] = {
    {2, MPI_INTEGER1}, {4, MPI_INTEGER2}, {9, MPI_INTEGER4}, {18, MPI_INTEGER8},
    {38, MPI_INTEGER16},
};

#define RX_F90_CACHE 64
static struct { int combiner, p, r; MPI_Datatype handle; } rx_f90_cache[RX_F90_CACHE];
static int rx_f90_n;

/* The cached type for (combiner, p, r), made from base when first asked. */
static int rx_f90_type(int combiner, int p, int r, MPI_Datatype base, MPI_Datatype *newtype,
                       const char *fn)
{
    for (int i = 0; i < rx_f90_n; i++)
        if (rx_f90_cache[i].combiner == combiner && rx_f90_cache[i].p == p &&
            rx_f90_cache[i].r == r) {
            *newtype = rx_f90_cache[i].handle;
            return MPI_SUCCESS;
        }
    if (rx_f90_n == RX_F90_CACHE)
        return rx_mpi_err(NULL, MPI_ERR_INTERN, fn, "more than %d distinct Fortran 90 types",
                          RX_F90_CACHE);
    rx_dtype_t *old = rx_dtype_get(base), *d = NULL;
    int rc = rx_dtype_dup(old, &d);
    if (rc == RX_OK) {
        int ints[2] = {p, r};
        int ni = combiner == MPI_COMBINER_F90_INTEGER ? 1 : 2;
        rc = rx_dtype_set_envelope(d, combiner, ni, ni == 1 ? ints + 1 : ints, 0, NULL, 0, NULL);
    }
    if (rc != RX_OK) {
        if (d)
            rx_dtype_unref(d);
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    rx_dtype_commit(d);
    d->predefined = 1; /* MPI_Type_free refuses it, references are not counted */
    d->name = old->name;
    rx_f90_cache[rx_f90_n].combiner = combiner;
    rx_f90_cache[rx_f90_n].p = p;
    rx_f90_cache[rx_f90_n].r = r;
    rx_f90_cache[rx_f90_n++].handle = *newtype = RX_HANDLE(RX_KIND_DATATYPE, d->index);
    return MPI_SUCCESS;
}

int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newtype)
{
    const char *fn = "MPI_Type_create_f90_integer";
    RX_CHECK_INIT(fn);
    if (!newtype)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "newtype is NULL");
    for (size_t i = 0; i < sizeof rx_ints / sizeof rx_ints[0]; i++)
        if (r <= rx_ints[i].r)
            return rx_f90_type(MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, r, rx_ints[i].t,
                               newtype, fn);
    return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "no integer kind has a range of 10^%d", r);
}
RX_ALIAS(Type_create_f90_integer)

/* The smallest real kind with precision >= p and range >= r (either may be
 * MPI_UNDEFINED, not both); MPI_ERR_ARG when none has them. */
static int rx_f90_real(int combiner, int p, int r, MPI_Datatype *newtype, const char *fn)
{
    RX_CHECK_INIT(fn);
    if (!newtype)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "newtype is NULL");
    if (p == MPI_UNDEFINED && r == MPI_UNDEFINED)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "p and r are both MPI_UNDEFINED");
    int pp = p == MPI_UNDEFINED ? INT_MIN : p, rr = r == MPI_UNDEFINED ? INT_MIN : r;
    for (size_t i = 0; i < sizeof rx_reals / sizeof rx_reals[0]; i++)
        if (pp <= rx_reals[i].p && rr <= rx_reals[i].r)
            return rx_f90_type(combiner, p, r,
                               combiner == MPI_COMBINER_F90_REAL ? rx_reals[i].real
                                                                 : rx_reals[i].cplx,
                               newtype, fn);
    return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "no real kind has precision %d and range %d", p, r);
}

int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
    return rx_f90_real(MPI_COMBINER_F90_REAL, p, r, newtype, "MPI_Type_create_f90_real");
}
RX_ALIAS(Type_create_f90_real)

int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
    return rx_f90_real(MPI_COMBINER_F90_COMPLEX, p, r, newtype, "MPI_Type_create_f90_complex");
}
RX_ALIAS(Type_create_f90_complex)
