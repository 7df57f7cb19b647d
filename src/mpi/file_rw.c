/* SPDX-License-Identifier: MIT
 * MPI-IO data access (MPI-4.1 §14.4): explicit offsets, individual and
 * shared file pointers, each blocking, nonblocking, collective and split
 * collective, with int and MPI_Count counts.
 *
 * Every access ends in rx_io_access (src/io/view.c). Collective forms: each
 * process moves its own data, which is all the standard requires of them
 * (no aggregation between processes); the ordered forms place the
 * processes' data in rank order from the shared pointer after an exclusive
 * scan of their sizes. Nonblocking forms move the data at the call and hand
 * back a generalized request, already complete, whose status carries the
 * byte count; split collectives keep the status for their _end call. */
#include "file_impl.h"

#include <string.h>

enum rx_file_ptr { RX_PTR_AT, RX_PTR_INDIV, RX_PTR_SHARED, RX_PTR_ORDERED };

/* The class of an access a file does not allow, or 0. */
static int rx_file_rw_class(const rx_file_t *f, enum rx_io_dir dir, enum rx_file_ptr ptr,
                            MPI_Offset offset, const void *buf, MPI_Count count,
                            const rx_dtype_t *dt, const char **why)
{
    *why = NULL;
    if (count < 0) {
        *why = "negative count";
        return MPI_ERR_COUNT;
    }
    if (!dt || !dt->committed) {
        *why = "invalid or uncommitted datatype";
        return MPI_ERR_TYPE;
    }
    int cls = rx_mpi_data_class(buf, (uint64_t)count, dt);
    if (cls) {
        *why = cls == MPI_ERR_COUNT ? "count * datatype size too large" : "NULL buffer";
        return cls;
    }
    if (dir == RX_IO_READ && (f->amode & MPI_MODE_WRONLY)) {
        *why = "the file is open write-only";
        return MPI_ERR_ACCESS;
    }
    if (dir == RX_IO_WRITE && (f->amode & MPI_MODE_RDONLY)) {
        *why = "the file is open read-only";
        return MPI_ERR_READ_ONLY;
    }
    if ((ptr == RX_PTR_AT || ptr == RX_PTR_INDIV) && (f->amode & MPI_MODE_SEQUENTIAL)) {
        *why = "only shared file pointers under MPI_MODE_SEQUENTIAL";
        return MPI_ERR_UNSUPPORTED_OPERATION;
    }
    if (ptr == RX_PTR_AT && offset < 0) {
        *why = "negative offset";
        return MPI_ERR_ARG;
    }
    if (((uint64_t)count * dt->size) % f->view.esize) {
        *why = "the data is not a whole number of etypes";
        return MPI_ERR_ARG;
    }
    return 0;
}

/* Stream positions of an ordered access: this process's data goes after the
 * data of the lower ranks, all of it after the shared pointer. */
static int rx_file_ordered_pos(rx_file_t *f, int64_t bytes, int64_t *pos, int *err)
{
    int64_t before = 0, total = 0, res[2] = {0, 0};
    PMPI_Exscan(&bytes, &before, 1, MPI_INT64_T, MPI_SUM, f->comm);
    if (f->rank == 0)
        before = 0; /* Exscan leaves rank 0's result undefined */
    PMPI_Allreduce(&bytes, &total, 1, MPI_INT64_T, MPI_SUM, f->comm);
    if (f->rank == 0)
        res[0] = rx_io_shfp_fetch_add(&f->shfp, total, &res[1]);
    PMPI_Bcast(res, 2, MPI_INT64_T, 0, f->comm);
    *err = (int)res[0];
    *pos = res[1] + before;
    return *err ? rx_file_errno_class(*err) : 0;
}

static int rx_file_rw(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                      MPI_Datatype datatype, enum rx_io_dir dir, enum rx_file_ptr ptr,
                      MPI_Status *status, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_FILE(f, fh, fn);
    rx_dtype_t *dt = rx_dtype_get(datatype);
    const char *why;
    int cls = rx_file_rw_class(f, dir, ptr, offset, buf, count, dt, &why);
    int64_t bytes = cls ? 0 : (int64_t)((uint64_t)count * dt->size), pos = 0;
    int err = 0;
    switch (ptr) {
    case RX_PTR_AT: pos = rx_file_etypes(f, offset); break;
    case RX_PTR_INDIV: pos = f->fp; break;
    case RX_PTR_SHARED:
        if (!cls && (err = rx_io_shfp_fetch_add(&f->shfp, bytes, &pos)))
            return rx_file_err(f, rx_file_errno_class(err), fn, "shared file pointer %s: %s",
                               f->shfp.path, strerror(err));
        break;
    case RX_PTR_ORDERED: {
        /* a process with bad arguments still takes part, with no data */
        int pcls = rx_file_ordered_pos(f, bytes, &pos, &err);
        if (!cls && pcls)
            return rx_file_err(f, pcls, fn, "shared file pointer %s: %s", f->shfp.path,
                               strerror(err));
        break;
    }
    }
    if (cls)
        return rx_file_err(f, cls, fn, "%s", why);
    size_t done = 0;
    err = rx_io_access(f->fd, &f->view, pos, dir, buf, (size_t)count, dt, f->atomic, &done);
    if (ptr == RX_PTR_INDIV)
        f->fp += (int64_t)done;
    if (status != MPI_STATUS_IGNORE) {
        rx_mpi_status_empty(status);
        status->rx_bytes = (long long)done;
    }
    if (err)
        return rx_file_err(f, rx_file_errno_class(err), fn, "%s: %s", f->path, strerror(err));
    return MPI_SUCCESS;
}

/* The request of a nonblocking access: complete, its status the byte count. */
static int rx_file_req_query(void *extra, MPI_Status *status)
{
    status->rx_bytes = (long long)(intptr_t)extra;
    return MPI_SUCCESS;
}
static int rx_file_req_free(void *extra)
{
    (void)extra;
    return MPI_SUCCESS;
}
static int rx_file_req_cancel(void *extra, int complete)
{
    (void)extra, (void)complete;
    return MPI_SUCCESS; /* done at the call: nothing is left to cancel */
}

static int rx_file_irw(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                       MPI_Datatype datatype, enum rx_io_dir dir, enum rx_file_ptr ptr,
                       MPI_Request *request, const char *fn)
{
    RX_CHECK_INIT(fn);
    if (!request)
        return rx_file_err(rx_file_get(fh), MPI_ERR_ARG, fn, "request is NULL");
    MPI_Status st;
    int rc = rx_file_rw(fh, offset, buf, count, datatype, dir, ptr, &st, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = PMPI_Grequest_start(rx_file_req_query, rx_file_req_free, rx_file_req_cancel,
                             (void *)(intptr_t)st.rx_bytes, request);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Grequest_complete(*request);
    return rc == MPI_SUCCESS ? rc : rx_file_err(rx_file_get(fh), rc, fn, "no request");
}

static int rx_file_begin(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                         MPI_Datatype datatype, enum rx_io_dir dir, enum rx_file_ptr ptr,
                         const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_FILE(f, fh, fn);
    if (f->split_active)
        return rx_file_err(f, MPI_ERR_OTHER, fn, "a split collective is already active");
    int rc = rx_file_rw(fh, offset, buf, count, datatype, dir, ptr, &f->split_status, fn);
    if (rc == MPI_SUCCESS)
        f->split_active = 1;
    return rc;
}

static int rx_file_end(MPI_File fh, MPI_Status *status, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_FILE(f, fh, fn);
    if (!f->split_active)
        return rx_file_err(f, MPI_ERR_OTHER, fn, "no split collective is active");
    f->split_active = 0;
    if (status != MPI_STATUS_IGNORE)
        *status = f->split_status;
    return MPI_SUCCESS;
}

/* The public functions, one line each below: an int-count and an MPI_Count
 * form of each. lead/off: the explicit-offset argument and its use (or
 * nothing and 0); last: MPI_Status * for blocking calls (through
 * rx_file_rw), MPI_Request * for nonblocking ones (rx_file_irw). */
#define RX_FILE_DEF(name, cbuf, lead, off, last, impl, dir, ptr)                            \
    int PMPI_File_##name(MPI_File fh, lead cbuf void *buf, int count, MPI_Datatype datatype, \
                         last out)                                                          \
    {                                                                                       \
        return impl(fh, off, (void *)buf, count, datatype, dir, ptr, out, "MPI_File_" #name); \
    }                                                                                       \
    RX_ALIAS(File_##name)                                                                   \
    int PMPI_File_##name##_c(MPI_File fh, lead cbuf void *buf, MPI_Count count,             \
                             MPI_Datatype datatype, last out)                               \
    {                                                                                       \
        return impl(fh, off, (void *)buf, count, datatype, dir, ptr, out,                   \
                    "MPI_File_" #name "_c");                                                \
    }                                                                                       \
    RX_ALIAS(File_##name##_c)

/* Split collectives: _begin (both count forms) and _end. */
#define RX_FILE_SPLIT(name, cbuf, lead, off, dir, ptr)                                      \
    int PMPI_File_##name##_begin(MPI_File fh, lead cbuf void *buf, int count,               \
                                 MPI_Datatype datatype)                                     \
    {                                                                                       \
        return rx_file_begin(fh, off, (void *)buf, count, datatype, dir, ptr,               \
                             "MPI_File_" #name "_begin");                                   \
    }                                                                                       \
    RX_ALIAS(File_##name##_begin)                                                           \
    int PMPI_File_##name##_begin_c(MPI_File fh, lead cbuf void *buf, MPI_Count count,       \
                                   MPI_Datatype datatype)                                   \
    {                                                                                       \
        return rx_file_begin(fh, off, (void *)buf, count, datatype, dir, ptr,               \
                             "MPI_File_" #name "_begin_c");                                 \
    }                                                                                       \
    RX_ALIAS(File_##name##_begin_c)                                                         \
    int PMPI_File_##name##_end(MPI_File fh, cbuf void *buf, MPI_Status *status)             \
    {                                                                                       \
        (void)buf;                                                                          \
        return rx_file_end(fh, status, "MPI_File_" #name "_end");                           \
    }                                                                                       \
    RX_ALIAS(File_##name##_end)

#define RX_RD RX_IO_READ
#define RX_WR RX_IO_WRITE
#define RX_NOCONST
#define RX_AT MPI_Offset offset,
#define RX_NOAT
#define RX_ST MPI_Status *
#define RX_RQ MPI_Request *

RX_FILE_DEF(read_at, RX_NOCONST, RX_AT, offset, RX_ST, rx_file_rw, RX_RD, RX_PTR_AT)
RX_FILE_DEF(read_at_all, RX_NOCONST, RX_AT, offset, RX_ST, rx_file_rw, RX_RD, RX_PTR_AT)
RX_FILE_DEF(write_at, const, RX_AT, offset, RX_ST, rx_file_rw, RX_WR, RX_PTR_AT)
RX_FILE_DEF(write_at_all, const, RX_AT, offset, RX_ST, rx_file_rw, RX_WR, RX_PTR_AT)
RX_FILE_DEF(iread_at, RX_NOCONST, RX_AT, offset, RX_RQ, rx_file_irw, RX_RD, RX_PTR_AT)
RX_FILE_DEF(iwrite_at, const, RX_AT, offset, RX_RQ, rx_file_irw, RX_WR, RX_PTR_AT)
RX_FILE_DEF(iread_at_all, RX_NOCONST, RX_AT, offset, RX_RQ, rx_file_irw, RX_RD, RX_PTR_AT)
RX_FILE_DEF(iwrite_at_all, const, RX_AT, offset, RX_RQ, rx_file_irw, RX_WR, RX_PTR_AT)

RX_FILE_DEF(read, RX_NOCONST, RX_NOAT, 0, RX_ST, rx_file_rw, RX_RD, RX_PTR_INDIV)
RX_FILE_DEF(read_all, RX_NOCONST, RX_NOAT, 0, RX_ST, rx_file_rw, RX_RD, RX_PTR_INDIV)
RX_FILE_DEF(write, const, RX_NOAT, 0, RX_ST, rx_file_rw, RX_WR, RX_PTR_INDIV)
RX_FILE_DEF(write_all, const, RX_NOAT, 0, RX_ST, rx_file_rw, RX_WR, RX_PTR_INDIV)
RX_FILE_DEF(iread, RX_NOCONST, RX_NOAT, 0, RX_RQ, rx_file_irw, RX_RD, RX_PTR_INDIV)
RX_FILE_DEF(iwrite, const, RX_NOAT, 0, RX_RQ, rx_file_irw, RX_WR, RX_PTR_INDIV)
RX_FILE_DEF(iread_all, RX_NOCONST, RX_NOAT, 0, RX_RQ, rx_file_irw, RX_RD, RX_PTR_INDIV)
RX_FILE_DEF(iwrite_all, const, RX_NOAT, 0, RX_RQ, rx_file_irw, RX_WR, RX_PTR_INDIV)

RX_FILE_DEF(read_shared, RX_NOCONST, RX_NOAT, 0, RX_ST, rx_file_rw, RX_RD, RX_PTR_SHARED)
RX_FILE_DEF(write_shared, const, RX_NOAT, 0, RX_ST, rx_file_rw, RX_WR, RX_PTR_SHARED)
RX_FILE_DEF(iread_shared, RX_NOCONST, RX_NOAT, 0, RX_RQ, rx_file_irw, RX_RD, RX_PTR_SHARED)
RX_FILE_DEF(iwrite_shared, const, RX_NOAT, 0, RX_RQ, rx_file_irw, RX_WR, RX_PTR_SHARED)
RX_FILE_DEF(read_ordered, RX_NOCONST, RX_NOAT, 0, RX_ST, rx_file_rw, RX_RD, RX_PTR_ORDERED)
RX_FILE_DEF(write_ordered, const, RX_NOAT, 0, RX_ST, rx_file_rw, RX_WR, RX_PTR_ORDERED)

RX_FILE_SPLIT(read_at_all, RX_NOCONST, RX_AT, offset, RX_RD, RX_PTR_AT)
RX_FILE_SPLIT(write_at_all, const, RX_AT, offset, RX_WR, RX_PTR_AT)
RX_FILE_SPLIT(read_all, RX_NOCONST, RX_NOAT, 0, RX_RD, RX_PTR_INDIV)
RX_FILE_SPLIT(write_all, const, RX_NOAT, 0, RX_WR, RX_PTR_INDIV)
RX_FILE_SPLIT(read_ordered, RX_NOCONST, RX_NOAT, 0, RX_RD, RX_PTR_ORDERED)
RX_FILE_SPLIT(write_ordered, const, RX_NOAT, 0, RX_WR, RX_PTR_ORDERED)
