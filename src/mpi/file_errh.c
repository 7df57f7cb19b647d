/* SPDX-License-Identifier: MIT
 * File error handlers (MPI-4.1 §9.3.4) and file error reporting. A file
 * handler is an error handler object of errors.c made through
 * MPI_Comm_create_errhandler (so MPI_Errhandler_free and the reference
 * counts of errors.c apply); the table here remembers which handlers were
 * made for files and their function, which is called with the file handle.
 * Files start with MPI_ERRORS_RETURN, and so does MPI_FILE_NULL, whose
 * handler reports the errors of MPI_File_open and MPI_File_delete. */
#include "file_impl.h"
#include "boot/boot.h"
#include "util/log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct rx_file_errh {
    MPI_Errhandler handle;
    MPI_File_errhandler_function *fn;
} rx_file_errh_t;

static rx_file_errh_t *rx_file_errhs;
static int rx_file_nerrh, rx_file_errh_cap;
static MPI_Errhandler rx_file_null_errh = MPI_ERRORS_RETURN;

/* The function of a file error handler still in use, or NULL. */
static MPI_File_errhandler_function *rx_file_errh_fn(MPI_Errhandler eh)
{
    for (int i = 0; i < rx_file_nerrh; i++)
        if (rx_file_errhs[i].handle == eh && rx_htab_get_held(&rx_errh_table, eh))
            return rx_file_errhs[i].fn;
    return NULL;
}

int rx_file_err(rx_file_t *f, int cls, const char *fn, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    MPI_Errhandler eh = f ? f->errhandler : rx_file_null_errh;
    MPI_File_errhandler_function *user = rx_file_errh_fn(eh);
    if (user) {
        MPI_File h = f ? rx_file_handle(f) : MPI_FILE_NULL;
        int code = cls;
        user(&h, &code, fn, msg);
        return cls;
    }
    if (eh == MPI_ERRORS_RETURN)
        return cls;
    rx_log_error("%s: %s (%s); ending the job (%s)", fn, msg, rx_mpi_class_name(cls),
                 eh == MPI_ERRORS_ABORT ? "MPI_ERRORS_ABORT" : "MPI_ERRORS_ARE_FATAL");
    fflush(stdout);
    char why[700];
    snprintf(why, sizeof why, "%s: %s", fn, msg);
    rx_boot_abort(cls == 0 ? 1 : cls, why);
    _exit(cls == 0 ? 1 : cls);
}

int rx_file_errno_class(int err)
{
    switch (err) {
    case 0: return MPI_SUCCESS;
    case ENOENT: return MPI_ERR_NO_SUCH_FILE;
    case EEXIST: return MPI_ERR_FILE_EXISTS;
    case EACCES: case EPERM: return MPI_ERR_ACCESS;
    case EROFS: return MPI_ERR_READ_ONLY;
    case ENOSPC: case EFBIG: return MPI_ERR_NO_SPACE;
    case EDQUOT: return MPI_ERR_QUOTA;
    case ENAMETOOLONG: case EISDIR: case ENOTDIR: case ELOOP: return MPI_ERR_BAD_FILE;
    case ETXTBSY: case EBUSY: return MPI_ERR_FILE_IN_USE;
    case ENOMEM: return MPI_ERR_NO_MEM;
    default: return MPI_ERR_IO;
    }
}

int rx_file_agree(MPI_Comm comm, int cls)
{
    int all = cls;
    if (PMPI_Allreduce(&cls, &all, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS)
        return MPI_ERR_INTERN;
    return all;
}

int PMPI_File_create_errhandler(MPI_File_errhandler_function *file_errhandler_fn,
                                MPI_Errhandler *errhandler)
{
    const char *fn = "MPI_File_create_errhandler";
    RX_CHECK_INIT(fn);
    if (!file_errhandler_fn || !errhandler)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "NULL argument");
    /* forget handlers errors.c has let go of */
    int keep = 0;
    for (int i = 0; i < rx_file_nerrh; i++)
        if (rx_htab_get_held(&rx_errh_table, rx_file_errhs[i].handle))
            rx_file_errhs[keep++] = rx_file_errhs[i];
    rx_file_nerrh = keep;
    if (rx_file_nerrh == rx_file_errh_cap) {
        int cap = rx_file_errh_cap ? 2 * rx_file_errh_cap : 8;
        rx_file_errh_t *n = realloc(rx_file_errhs, (size_t)cap * sizeof *n);
        if (!n)
            return rx_mpi_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
        rx_file_errhs = n;
        rx_file_errh_cap = cap;
    }
    /* the object errors.c keeps is called only through the table above, with
     * the file handle: the function type never reaches a communicator */
    MPI_Errhandler eh;
    int rc = PMPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)(void (*)(void))
                                             file_errhandler_fn, &eh);
    if (rc != MPI_SUCCESS)
        return rc;
    rx_file_errhs[rx_file_nerrh++] = (rx_file_errh_t){eh, file_errhandler_fn};
    *errhandler = eh;
    return MPI_SUCCESS;
}
RX_ALIAS(File_create_errhandler)

/* A handler a file may use: predefined, or made for files. */
static int rx_file_errh_ok(MPI_Errhandler eh)
{
    if (eh == MPI_ERRORS_RETURN || eh == MPI_ERRORS_ARE_FATAL || eh == MPI_ERRORS_ABORT)
        return 1;
    return rx_htab_get(&rx_errh_table, eh) && rx_file_errh_fn(eh);
}

int PMPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler)
{
    const char *fn = "MPI_File_set_errhandler";
    RX_CHECK_INIT(fn);
    rx_file_t *f = NULL;
    if (file != MPI_FILE_NULL && !(f = rx_file_get(file)))
        return rx_file_err(NULL, MPI_ERR_FILE, fn, "invalid file handle");
    if (!rx_file_errh_ok(errhandler))
        return rx_file_err(f, MPI_ERR_ARG, fn, "not a file error handler");
    MPI_Errhandler *slot = f ? &f->errhandler : &rx_file_null_errh;
    rx_errh_attach(errhandler);
    rx_errh_detach(*slot);
    *slot = errhandler;
    return MPI_SUCCESS;
}
RX_ALIAS(File_set_errhandler)

int PMPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler)
{
    const char *fn = "MPI_File_get_errhandler";
    RX_CHECK_INIT(fn);
    rx_file_t *f = NULL;
    if (file != MPI_FILE_NULL && !(f = rx_file_get(file)))
        return rx_file_err(NULL, MPI_ERR_FILE, fn, "invalid file handle");
    if (!errhandler)
        return rx_file_err(f, MPI_ERR_ARG, fn, "errhandler is NULL");
    *errhandler = rx_errh_handle_out(f ? f->errhandler : rx_file_null_errh);
    return MPI_SUCCESS;
}
RX_ALIAS(File_get_errhandler)

int PMPI_File_call_errhandler(MPI_File fh, int errorcode)
{
    const char *fn = "MPI_File_call_errhandler";
    RX_CHECK_INIT(fn);
    rx_file_t *f = NULL;
    if (fh != MPI_FILE_NULL && !(f = rx_file_get(fh)))
        return rx_file_err(NULL, MPI_ERR_FILE, fn, "invalid file handle");
    rx_file_err(f, errorcode, fn, "error code %d raised by the program", errorcode);
    return MPI_SUCCESS;
}
RX_ALIAS(File_call_errhandler)

MPI_Fint PMPI_File_c2f(MPI_File file) { return (MPI_Fint)file; }
RX_ALIAS(File_c2f)

MPI_File PMPI_File_f2c(MPI_Fint file)
{
    return rx_file_get((MPI_File)file) ? (MPI_File)file : MPI_FILE_NULL;
}
RX_ALIAS(File_f2c)
