/* SPDX-License-Identifier: MIT
 * The less common paths of the Fortran bindings: array sections described by
 * derived datatypes, strings, status arrays, attribute values; and the common
 * blocks of mpif.h and module mpi whose addresses are the sentinels. */
#include "fort_support.h"

#include "mpi/mpi_impl.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Common blocks: a Fortran program's COMMON /rdmx_f_bottom/ is this object
 * (aligned as gfortran aligns common blocks). */
#define RX_F_COMMON __attribute__((aligned(16)))
MPI_Fint rdmx_f_bottom_ RX_F_COMMON, rdmx_f_in_place_ RX_F_COMMON;
MPI_Fint rdmx_f_unweighted_ RX_F_COMMON, rdmx_f_weights_empty_ RX_F_COMMON;
MPI_Fint rdmx_f_buffer_automatic_ RX_F_COMMON;
MPI_Fint rdmx_f_status_ignore_[MPI_F_STATUS_SIZE] RX_F_COMMON;
MPI_Fint rdmx_f_statuses_ignore_[MPI_F_STATUS_SIZE] RX_F_COMMON;

/* A non-contiguous section (a(1:n:2), a(i,:)) of elements of one datatype
 * each: the call gets one element of a datatype that walks the section, so
 * nonblocking calls need no copy to bring back. count may be below the
 * section's size (the first count elements in array element order). */
int rx_f_buf_section(const CFI_cdesc_t *d, MPI_Count count, MPI_Datatype dt, int mode,
                     const char *fn, rx_f_buf_t *b)
{
    b->addr = d->base_addr;
    if (mode != RX_F_DESCRIBED) /* (the call passes no count then) */
        return rx_mpi_err(NULL, MPI_ERR_BUFFER, fn,
                          "a non-contiguous array section is only supported for a buffer with "
                          "its own count and datatype; pass a contiguous array");
    if (count == 0)
        return MPI_SUCCESS;
    MPI_Aint lb, extent;
    int rc = PMPI_Type_get_extent(dt, &lb, &extent);
    if (rc != MPI_SUCCESS)
        return rc;
    if (extent != (MPI_Aint)d->elem_len)
        return rx_mpi_err(NULL, MPI_ERR_BUFFER, fn,
                          "a non-contiguous array section needs a datatype of one element "
                          "(extent %ld, element %zu bytes)", (long)extent, d->elem_len);
    MPI_Count n = 1;
    for (int i = 0; i < d->rank; i++)
        n *= d->dim[i].extent;
    if (count > n)
        return rx_mpi_err(NULL, MPI_ERR_BUFFER, fn, "count %lld exceeds the section's %lld elements",
                          (long long)count, (long long)n);
    if (count > INT_MAX) /* the datatype constructors take int counts */
        return rx_mpi_err(NULL, MPI_ERR_COUNT, fn, "a non-contiguous section of %lld elements "
                          "(at most INT_MAX)", (long long)count);
    MPI_Datatype t = dt;
    if (count == n) { /* the whole section: a vector of strides per dimension */
        for (int i = 0; i < d->rank && rc == MPI_SUCCESS; i++) {
            MPI_Datatype next;
            rc = PMPI_Type_create_hvector((int)d->dim[i].extent, 1, (MPI_Aint)d->dim[i].sm, t,
                                          &next);
            if (t != dt)
                PMPI_Type_free(&t);
            t = next;
        }
    } else { /* its first count elements: one displacement each */
        MPI_Aint *disp = malloc((size_t)count * sizeof *disp);
        if (!disp)
            return rx_mpi_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
        CFI_index_t idx[CFI_MAX_RANK] = {0};
        for (MPI_Count k = 0; k < count; k++) {
            MPI_Aint off = 0;
            for (int i = 0; i < d->rank; i++)
                off += (MPI_Aint)(idx[i] * d->dim[i].sm);
            disp[k] = off;
            for (int i = 0; i < d->rank && ++idx[i] == d->dim[i].extent; i++)
                idx[i] = 0;
        }
        rc = PMPI_Type_create_hindexed_block((int)count, 1, disp, dt, &t);
        free(disp);
    }
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_commit(&t);
    if (rc != MPI_SUCCESS) {
        if (t != dt)
            PMPI_Type_free(&t);
        return rc;
    }
    b->count = 1;
    b->type = t;
    b->own_type = 1;
    return MPI_SUCCESS;
}

char *rx_f_str_in(const char *s, size_t len, char *stack)
{
    while (len > 0 && s[len - 1] == ' ')
        len--;
    char *c = len < RX_F_STR_STACK ? stack : malloc(len + 1);
    if (c) {
        memcpy(c, s, len);
        c[len] = '\0';
    }
    return c;
}

char *rx_f_str_out_buf(size_t len, char *stack)
{
    char *c = len < RX_F_STR_STACK ? stack : malloc(len + 1);
    if (c)
        c[0] = '\0';
    return c;
}

void rx_f_str_out(const char *c, char *f, size_t len)
{
    size_t n = strnlen(c, len);
    memcpy(f, c, n);
    memset(f + n, ' ', len - n);
}

void rx_f_str_free(char *c, char *stack)
{
    if (c != stack)
        free(c);
}

/* An array of statuses: the Fortran array itself when aligned (the same
 * bytes, fort_support.h), else a copy in stack or on the heap. */
MPI_Status *rx_f_statuses(MPI_Fint *f, MPI_Fint n, MPI_Status *stack)
{
    if (rx_f_status_ignored(f))
        return MPI_STATUSES_IGNORE;
    if (rx_f_status_aligned(f))
        return (MPI_Status *)(void *)f;
    if (n <= RX_F_STATUS_STACK)
        return stack;
    return calloc((size_t)n, sizeof(MPI_Status));
}

void rx_f_statuses_done(MPI_Status *c, MPI_Fint *f, MPI_Fint n, MPI_Status *stack)
{
    (void)stack;
    if (c == MPI_STATUSES_IGNORE || c == (MPI_Status *)(void *)f || n <= 0)
        return; /* n is MPI_UNDEFINED when nothing completed */
    memcpy(f, c, (size_t)n * sizeof *c);
}

void rx_f_statuses_free(MPI_Status *c, MPI_Fint *f, MPI_Status *stack)
{
    if (c != stack && c != MPI_STATUSES_IGNORE && c != (MPI_Status *)(void *)f)
        free(c);
}

MPI_Aint rx_f_attr_value(int keyval, void *val)
{
    switch (keyval) {
    case MPI_TAG_UB: case MPI_HOST: case MPI_IO: case MPI_WTIME_IS_GLOBAL:
    case MPI_UNIVERSE_SIZE: case MPI_LASTUSEDCODE: case MPI_APPNUM:
    case MPI_WIN_DISP_UNIT: case MPI_WIN_CREATE_FLAVOR: case MPI_WIN_MODEL:
        return *(const int *)val;
    case MPI_WIN_SIZE:
        return *(const MPI_Aint *)val;
    default: /* MPI_WIN_BASE is the address itself, as are a program's values */
        return (MPI_Aint)(intptr_t)val;
    }
}
