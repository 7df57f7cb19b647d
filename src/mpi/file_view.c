/* SPDX-License-Identifier: MIT
 * File views, file pointers and data representations (MPI-4.1 §14.3,
 * §14.4.3-14.4.4, §14.5). Offsets the program passes count etypes of the
 * current view; the file keeps its pointers in bytes of the view's data
 * stream (src/io/io.h), so an access that ends inside an etype (a short
 * read) loses nothing. Data representations: "native", and "internal",
 * which is native here; "external32" and user representations are refused
 * with MPI_ERR_UNSUPPORTED_DATAREP. */
#include "file_impl.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static int rx_file_datarep_known(const char *datarep)
{
    return strcmp(datarep, "native") == 0 || strcmp(datarep, "internal") == 0;
}

/* The file's own copy of a type: derived types are duplicated, so the
 * program may free its handles while the view uses them. */
static int rx_file_type_keep(MPI_Datatype t, MPI_Datatype *kept)
{
    rx_dtype_t *d = rx_dtype_get(t);
    if (d->predefined) {
        *kept = t;
        return MPI_SUCCESS;
    }
    return PMPI_Type_dup(t, kept);
}

static void rx_file_type_drop(MPI_Datatype *t)
{
    rx_dtype_t *d = rx_dtype_get(*t);
    if (d && !d->predefined)
        PMPI_Type_free(t);
    *t = MPI_DATATYPE_NULL;
}

void rx_file_view_free(rx_file_t *f)
{
    rx_file_type_drop(&f->etype);
    rx_file_type_drop(&f->filetype);
}

int rx_file_view_set(rx_file_t *f, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                     const char *datarep)
{
    MPI_Datatype e, t;
    int rc = rx_file_type_keep(etype, &e);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = rx_file_type_keep(filetype, &t)) != MPI_SUCCESS) {
        rx_file_type_drop(&e);
        return rc;
    }
    rx_file_view_free(f);
    f->etype = e;
    f->filetype = t;
    f->disp = disp;
    f->view = (rx_io_view_t){disp, rx_dtype_get(t), rx_dtype_get(e)->size};
    snprintf(f->datarep, sizeof f->datarep, "%s", datarep);
    f->fp = 0;
    return MPI_SUCCESS;
}

/* The class of an etype / filetype pair a view cannot have, or 0. */
static int rx_file_types_class(const rx_dtype_t *et, const rx_dtype_t *ft, const char **why)
{
    *why = NULL;
    if (et->size == 0)
        *why = "the etype holds no data";
    else if (ft->size > 0 && ft->extent <= 0)
        *why = "the filetype has data but no positive extent";
    else if (ft->size % et->size)
        *why = "the filetype is not made of whole etypes";
    for (int b = 0; !*why && b < ft->nblocks; b++)
        if (ft->blocks[b].off < 0 ||
            (b && ft->blocks[b].off < ft->blocks[b - 1].off + (intptr_t)ft->blocks[b - 1].len))
            *why = "filetype displacements must be non-negative and increasing";
    return *why ? MPI_ERR_TYPE : 0;
}

int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                       const char *datarep, MPI_Info info)
{
    const char *fn = "MPI_File_set_view";
    RX_CHECK_INIT(fn);
    RX_GET_FILE(f, fh, fn);
    rx_dtype_t *et = rx_dtype_get(etype), *ft = rx_dtype_get(filetype);
    const char *why = NULL;
    int cls = 0, nkeys;
    if (!et || !et->committed || !ft || !ft->committed) {
        cls = MPI_ERR_TYPE;
        why = "etype or filetype invalid or not committed";
    } else if (!datarep) {
        cls = MPI_ERR_ARG;
        why = "datarep is NULL";
    } else if (!rx_file_datarep_known(datarep)) {
        cls = MPI_ERR_UNSUPPORTED_DATAREP;
        why = strcmp(datarep, "external32") == 0
                  ? "external32 is not supported for files (native and internal are)"
                  : "unknown data representation";
    } else if (disp == MPI_DISPLACEMENT_CURRENT && !(f->amode & MPI_MODE_SEQUENTIAL)) {
        cls = MPI_ERR_ARG;
        why = "MPI_DISPLACEMENT_CURRENT needs MPI_MODE_SEQUENTIAL";
    } else if (disp < 0 && disp != MPI_DISPLACEMENT_CURRENT) {
        cls = MPI_ERR_ARG;
        why = "negative displacement";
    } else if (info != MPI_INFO_NULL && PMPI_Info_get_nkeys(info, &nkeys) != MPI_SUCCESS) {
        cls = MPI_ERR_INFO;
        why = "invalid info object";
    } else if (f->split_active) {
        cls = MPI_ERR_OTHER;
        why = "a split collective is active on the file";
    } else {
        cls = rx_file_types_class(et, ft, &why);
    }
    int all = rx_file_agree(f->comm, cls);
    if (all)
        return rx_file_err(f, cls ? cls : all, fn, "%s",
                           cls ? why : "another process's arguments are invalid");
    /* every process has left its earlier shared-pointer calls: rank 0 reads
     * the pointer (MPI_DISPLACEMENT_CURRENT: its position is everyone's
     * displacement) and resets it for the new view */
    int64_t res[2] = {0, disp};
    if (f->rank == 0) {
        int64_t cur = 0;
        int err = disp == MPI_DISPLACEMENT_CURRENT ? rx_io_shfp_fetch_add(&f->shfp, 0, &cur) : 0;
        if (!err && disp == MPI_DISPLACEMENT_CURRENT)
            res[1] = cur ? rx_io_view_file_offset(&f->view, cur - 1) + 1 : f->view.disp;
        if (!err)
            err = rx_io_shfp_set(&f->shfp, 0);
        res[0] = rx_file_errno_class(err);
    }
    PMPI_Bcast(res, 2, MPI_INT64_T, 0, f->comm);
    if (res[0])
        return rx_file_err(f, (int)res[0], fn, "the shared file pointer cannot be reset");
    int rc = rx_file_view_set(f, disp == MPI_DISPLACEMENT_CURRENT ? res[1] : disp, etype,
                              filetype, datarep);
    if (info != MPI_INFO_NULL && rc == MPI_SUCCESS)
        rc = PMPI_File_set_info(fh, info);
    return rc == MPI_SUCCESS ? rc : rx_file_err(f, rc, fn, "cannot keep the view's types");
}
RX_ALIAS(File_set_view)

int PMPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype,
                       MPI_Datatype *filetype, char *datarep)
{
    const char *fn = "MPI_File_get_view";
    RX_CHECK_INIT(fn);
    RX_GET_FILE(f, fh, fn);
    if (!disp || !etype || !filetype || !datarep)
        return rx_file_err(f, MPI_ERR_ARG, fn, "NULL argument");
    /* derived types come back as new handles the program frees */
    int rc = rx_file_type_keep(f->etype, etype);
    if (rc == MPI_SUCCESS && (rc = rx_file_type_keep(f->filetype, filetype)) != MPI_SUCCESS)
        rx_file_type_drop(etype);
    if (rc != MPI_SUCCESS)
        return rx_file_err(f, rc, fn, "cannot duplicate the view's types");
    *disp = f->disp;
    snprintf(datarep, MPI_MAX_DATAREP_STRING, "%s", f->datarep);
    return MPI_SUCCESS;
}
RX_ALIAS(File_get_view)

static int rx_file_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Count *extent,
                               const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_FILE(f, fh, fn);
    rx_dtype_t *d = rx_dtype_get(datatype);
    if (!d)
        return rx_file_err(f, MPI_ERR_TYPE, fn, "invalid datatype");
    if (!extent)
        return rx_file_err(f, MPI_ERR_ARG, fn, "extent is NULL");
    *extent = (MPI_Count)d->extent; /* native and internal: the memory extent */
    return MPI_SUCCESS;
}

int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent)
{
    MPI_Count e = 0;
    int rc = rx_file_type_extent(fh, datatype, extent ? &e : NULL, "MPI_File_get_type_extent");
    if (rc == MPI_SUCCESS)
        *extent = (MPI_Aint)e;
    return rc;
}
RX_ALIAS(File_get_type_extent)

int PMPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype, MPI_Count *extent)
{
    return rx_file_type_extent(fh, datatype, extent, "MPI_File_get_type_extent_c");
}
RX_ALIAS(File_get_type_extent_c)

static int rx_register_datarep(const char *datarep, const char *fn)
{
    RX_CHECK_INIT(fn);
    if (!datarep || !*datarep || strlen(datarep) >= MPI_MAX_DATAREP_STRING)
        return rx_file_err(NULL, MPI_ERR_ARG, fn, "invalid data representation name");
    if (rx_file_datarep_known(datarep) || strcmp(datarep, "external32") == 0)
        return rx_file_err(NULL, MPI_ERR_DUP_DATAREP, fn, "\"%s\" is predefined", datarep);
    return rx_file_err(NULL, MPI_ERR_UNSUPPORTED_DATAREP, fn,
                       "user data representations are not supported (\"%s\")", datarep);
}

int PMPI_Register_datarep(const char *datarep, MPI_Datarep_conversion_function *read_conversion_fn,
                          MPI_Datarep_conversion_function *write_conversion_fn,
                          MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
    (void)read_conversion_fn, (void)write_conversion_fn, (void)dtype_file_extent_fn;
    (void)extra_state;
    return rx_register_datarep(datarep, "MPI_Register_datarep");
}
RX_ALIAS(Register_datarep)

int PMPI_Register_datarep_c(const char *datarep,
                            MPI_Datarep_conversion_function_c *read_conversion_fn,
                            MPI_Datarep_conversion_function_c *write_conversion_fn,
                            MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
    (void)read_conversion_fn, (void)write_conversion_fn, (void)dtype_file_extent_fn;
    (void)extra_state;
    return rx_register_datarep(datarep, "MPI_Register_datarep_c");
}
RX_ALIAS(Register_datarep_c)

/* The stream position a seek names; cur is the pointer's position now. */
static int rx_file_seek_pos(rx_file_t *f, MPI_Offset offset, int whence, int64_t cur,
                            int64_t *pos, const char **why)
{
    int64_t es = (int64_t)f->view.esize, base;
    *why = NULL;
    switch (whence) {
    case MPI_SEEK_SET: base = 0; break;
    case MPI_SEEK_CUR: base = cur / es; break;
    case MPI_SEEK_END: {
        struct stat st;
        if (fstat(f->fd, &st) != 0) {
            *why = "cannot read the file's size";
            return MPI_ERR_IO;
        }
        base = (rx_io_view_stream_pos(&f->view, st.st_size) + es - 1) / es;
        break;
    }
    default:
        *why = "whence is not MPI_SEEK_SET, MPI_SEEK_CUR or MPI_SEEK_END";
        return MPI_ERR_ARG;
    }
    if (base + offset < 0) {
        *why = "the position would be negative";
        return MPI_ERR_ARG;
    }
    *pos = (base + offset) * es;
    return 0;
}

int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence)
{
    const char *fn = "MPI_File_seek";
    RX_CHECK_INIT(fn);
    RX_GET_FILE(f, fh, fn);
    if (f->amode & MPI_MODE_SEQUENTIAL)
        return rx_file_err(f, MPI_ERR_UNSUPPORTED_OPERATION, fn,
                           "no individual file pointer under MPI_MODE_SEQUENTIAL");
    const char *why;
    int64_t pos;
    int cls = rx_file_seek_pos(f, offset, whence, f->fp, &pos, &why);
    if (cls)
        return rx_file_err(f, cls, fn, "%s", why);
    f->fp = pos;
    return MPI_SUCCESS;
}
RX_ALIAS(File_seek)

int PMPI_File_get_position(MPI_File fh, MPI_Offset *offset)
{
    const char *fn = "MPI_File_get_position";
    RX_CHECK_INIT(fn);
    RX_GET_FILE(f, fh, fn);
    if (!offset)
        return rx_file_err(f, MPI_ERR_ARG, fn, "offset is NULL");
    if (f->amode & MPI_MODE_SEQUENTIAL)
        return rx_file_err(f, MPI_ERR_UNSUPPORTED_OPERATION, fn,
                           "no individual file pointer under MPI_MODE_SEQUENTIAL");
    *offset = f->fp / (int64_t)f->view.esize;
    return MPI_SUCCESS;
}
RX_ALIAS(File_get_position)

int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp)
{
    const char *fn = "MPI_File_get_byte_offset";
    RX_CHECK_INIT(fn);
    RX_GET_FILE(f, fh, fn);
    if (!disp)
        return rx_file_err(f, MPI_ERR_ARG, fn, "disp is NULL");
    if (offset < 0)
        return rx_file_err(f, MPI_ERR_ARG, fn, "negative offset");
    *disp = rx_io_view_file_offset(&f->view, rx_file_etypes(f, offset));
    return MPI_SUCCESS;
}
RX_ALIAS(File_get_byte_offset)

int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence)
{
    const char *fn = "MPI_File_seek_shared";
    RX_CHECK_INIT(fn);
    RX_GET_FILE(f, fh, fn);
    MPI_Offset mine[4] = {offset, -offset, whence, -whence}, agreed[4];
    PMPI_Allreduce(mine, agreed, 4, MPI_OFFSET, MPI_MAX, f->comm);
    if (agreed[0] != -agreed[1] || agreed[2] != -agreed[3])
        return rx_file_err(f, MPI_ERR_NOT_SAME, fn, "the processes passed different positions");
    /* the reduction also waited for every process's earlier shared accesses */
    int res[2] = {0, 0};
    if (f->rank == 0) {
        const char *why = NULL;
        int64_t cur = 0, pos = 0;
        int err = whence == MPI_SEEK_CUR ? rx_io_shfp_fetch_add(&f->shfp, 0, &cur) : 0;
        res[0] = err ? rx_file_errno_class(err) : rx_file_seek_pos(f, offset, whence, cur, &pos, &why);
        if (!res[0] && (err = rx_io_shfp_set(&f->shfp, pos)))
            res[0] = rx_file_errno_class(err);
        res[1] = why ? 1 : 0;
    }
    PMPI_Bcast(res, 2, MPI_INT, 0, f->comm);
    if (res[0])
        return rx_file_err(f, res[0], fn, "%s",
                           res[1] ? "invalid position" : "the shared file pointer cannot be set");
    return MPI_SUCCESS;
}
RX_ALIAS(File_seek_shared)

int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset)
{
    const char *fn = "MPI_File_get_position_shared";
    RX_CHECK_INIT(fn);
    RX_GET_FILE(f, fh, fn);
    if (!offset)
        return rx_file_err(f, MPI_ERR_ARG, fn, "offset is NULL");
    int64_t cur;
    int err = rx_io_shfp_fetch_add(&f->shfp, 0, &cur);
    if (err)
        return rx_file_err(f, rx_file_errno_class(err), fn, "%s: %s", f->shfp.path, strerror(err));
    *offset = cur / (int64_t)f->view.esize;
    return MPI_SUCCESS;
}
RX_ALIAS(File_get_position_shared)
