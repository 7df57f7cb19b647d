/* SPDX-License-Identifier: MIT
 * Handle and status conversion between C and Fortran (MPI-4.1 §19.3.4 and
 * §19.3.5). Handles are non-negative ints and MPI_Fint is int, so every
 * conversion is the identity: a valid handle converts to a valid handle, a
 * null handle to the null handle, and calls check what they get as usual.
 * A Fortran status is MPI_F_STATUS_SIZE integers: source, tag, error (at
 * MPI_F_SOURCE, MPI_F_TAG, MPI_F_ERROR), then the cancelled flag and the
 * byte count in two halves; the Fortran 2008 status holds the same. */
#include "mpi_impl.h"

#include <string.h>

#define RX_CONV(kind, type)                                                \
    MPI_Fint PMPI_##kind##_c2f(type h) { return (MPI_Fint)h; }             \
    RX_ALIAS(kind##_c2f)                                                   \
    type PMPI_##kind##_f2c(MPI_Fint h) { return (type)h; }                 \
    RX_ALIAS(kind##_f2c)

RX_CONV(Comm, MPI_Comm)
RX_CONV(Group, MPI_Group)
RX_CONV(Type, MPI_Datatype)
RX_CONV(Errhandler, MPI_Errhandler)
RX_CONV(Op, MPI_Op)
RX_CONV(Win, MPI_Win)
RX_CONV(Request, MPI_Request)
RX_CONV(Info, MPI_Info)
RX_CONV(Message, MPI_Message)
RX_CONV(Session, MPI_Session)

/* Objects whose addresses are the ignore markers (as MPICH has them). */
static MPI_Fint rx_f_status_ignore[MPI_F_STATUS_SIZE], rx_f_statuses_ignore[MPI_F_STATUS_SIZE];
static MPI_F08_status rx_f08_status_ignore, rx_f08_statuses_ignore[1];
MPI_Fint *MPI_F_STATUS_IGNORE = rx_f_status_ignore;
MPI_Fint *MPI_F_STATUSES_IGNORE = rx_f_statuses_ignore;
MPI_F08_status *MPI_F08_STATUS_IGNORE = &rx_f08_status_ignore;
MPI_F08_status *MPI_F08_STATUSES_IGNORE = rx_f08_statuses_ignore;

static void rx_status_to_f(const MPI_Status *c, MPI_Fint *f)
{
    unsigned long long bytes = (unsigned long long)c->rx_bytes;
    f[MPI_F_SOURCE] = c->MPI_SOURCE;
    f[MPI_F_TAG] = c->MPI_TAG;
    f[MPI_F_ERROR] = c->MPI_ERROR;
    f[3] = c->rx_cancelled;
    f[4] = (MPI_Fint)(unsigned)(bytes & 0xffffffffu);
    f[5] = (MPI_Fint)(unsigned)(bytes >> 32);
}

static void rx_status_from_f(const MPI_Fint *f, MPI_Status *c)
{
    memset(c, 0, sizeof *c);
    c->MPI_SOURCE = f[MPI_F_SOURCE];
    c->MPI_TAG = f[MPI_F_TAG];
    c->MPI_ERROR = f[MPI_F_ERROR];
    c->rx_cancelled = f[3];
    c->rx_bytes = (long long)(((unsigned long long)(unsigned)f[5] << 32) | (unsigned)f[4]);
}

static void rx_f08_to_f(const MPI_F08_status *s, MPI_Fint *f)
{
    f[MPI_F_SOURCE] = s->MPI_SOURCE;
    f[MPI_F_TAG] = s->MPI_TAG;
    f[MPI_F_ERROR] = s->MPI_ERROR;
    memcpy(f + 3, s->rx_internal, sizeof s->rx_internal);
}

static void rx_f_to_f08(const MPI_Fint *f, MPI_F08_status *s)
{
    s->MPI_SOURCE = f[MPI_F_SOURCE];
    s->MPI_TAG = f[MPI_F_TAG];
    s->MPI_ERROR = f[MPI_F_ERROR];
    memcpy(s->rx_internal, f + 3, sizeof s->rx_internal);
}

/* Ignore markers and NULL are not statuses (erroneous per the standard). */
static int rx_conv_check(const void *in, const void *out, const void *ig1, const void *ig2,
                         const void *ig3, const void *ig4, const char *fn)
{
    if (!in || !out || in == ig1 || in == ig2 || out == ig1 || out == ig2 || in == ig3 ||
        in == ig4 || out == ig3 || out == ig4)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "NULL or ignored status");
    return MPI_SUCCESS;
}

#define RX_CONV_ARGS(in, out, fn)                                                          \
    do {                                                                                   \
        RX_CHECK_INIT(fn);                                                                 \
        int rc_ = rx_conv_check(in, out, MPI_STATUS_IGNORE, MPI_F_STATUS_IGNORE,           \
                                MPI_F_STATUSES_IGNORE, MPI_F08_STATUS_IGNORE, fn);         \
        if (rc_ == MPI_SUCCESS && ((const void *)(in) == MPI_F08_STATUSES_IGNORE ||        \
                                   (const void *)(out) == MPI_F08_STATUSES_IGNORE))        \
            rc_ = rx_mpi_err(NULL, MPI_ERR_ARG, fn, "ignored status");                     \
        if (rc_ != MPI_SUCCESS)                                                            \
            return rc_;                                                                    \
    } while (0)

int PMPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status)
{
    RX_CONV_ARGS(c_status, f_status, "MPI_Status_c2f");
    rx_status_to_f(c_status, f_status);
    return MPI_SUCCESS;
}
RX_ALIAS(Status_c2f)

int PMPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status)
{
    RX_CONV_ARGS(f_status, c_status, "MPI_Status_f2c");
    rx_status_from_f(f_status, c_status);
    return MPI_SUCCESS;
}
RX_ALIAS(Status_f2c)

int PMPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status)
{
    RX_CONV_ARGS(c_status, f08_status, "MPI_Status_c2f08");
    MPI_Fint f[MPI_F_STATUS_SIZE];
    rx_status_to_f(c_status, f);
    rx_f_to_f08(f, f08_status);
    return MPI_SUCCESS;
}
RX_ALIAS(Status_c2f08)

int PMPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status)
{
    RX_CONV_ARGS(f08_status, c_status, "MPI_Status_f082c");
    MPI_Fint f[MPI_F_STATUS_SIZE];
    rx_f08_to_f(f08_status, f);
    rx_status_from_f(f, c_status);
    return MPI_SUCCESS;
}
RX_ALIAS(Status_f082c)

int PMPI_Status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status)
{
    RX_CONV_ARGS(f_status, f08_status, "MPI_Status_f2f08");
    rx_f_to_f08(f_status, f08_status);
    return MPI_SUCCESS;
}
RX_ALIAS(Status_f2f08)

int PMPI_Status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status)
{
    RX_CONV_ARGS(f08_status, f_status, "MPI_Status_f082f");
    rx_f08_to_f(f08_status, f_status);
    return MPI_SUCCESS;
}
RX_ALIAS(Status_f082f)
