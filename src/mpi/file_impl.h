/* SPDX-License-Identifier: MIT
 * MPI-IO file handles, shared by the src/mpi/file*.c binding files: the
 * handle table, the open file's state, and file error reporting. The I/O
 * itself is in src/io. */
#ifndef RX_MPI_FILE_IMPL_H
#define RX_MPI_FILE_IMPL_H

#include "mpi_impl.h"
#include "io/io.h"

/* Handle kind of MPI_File (MPI_FILE_NULL in include/mpio.h). */
#define RX_KIND_FILE 0x78

typedef struct rx_file {
    int index;            /* handle id */
    MPI_Comm comm;        /* the file's own duplicate of the opening communicator */
    int rank, size;
    int amode;
    int fd;
    char *path;           /* as opened (the prefix "ufs:" or "nfs:" removed) */
    int atomic;           /* MPI_File_set_atomicity */
    int errhandler;
    MPI_Info info;        /* hints as last set (none changes behaviour) */
    /* the view; etype and filetype are the file's own duplicates of derived types */
    MPI_Offset disp;
    MPI_Datatype etype, filetype;
    rx_io_view_t view;
    char datarep[MPI_MAX_DATAREP_STRING];
    int64_t fp;           /* individual file pointer, in bytes of the view's data stream */
    rx_io_shfp_t shfp;    /* shared file pointer, also in stream bytes */
    /* the split collective in progress (at most one per file) */
    int split_active;
    int split_rc;
    MPI_Status split_status;
} rx_file_t;

extern rx_htab_t rx_file_table;

static inline rx_file_t *rx_file_get(MPI_File h) { return rx_htab_get(&rx_file_table, h); }
static inline MPI_File rx_file_handle(const rx_file_t *f) { return RX_HANDLE(RX_KIND_FILE, f->index); }

/* Report an error on file f (NULL: MPI_FILE_NULL, which MPI_File_open and
 * MPI_File_delete report through) to its error handler and return cls. */
int rx_file_err(rx_file_t *f, int cls, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The class of a failed system call's errno. */
int rx_file_errno_class(int err);

#define RX_GET_FILE(f, handle, fn)                                                        \
    rx_file_t *f = rx_file_get(handle);                                                   \
    if (__builtin_expect(!f, 0))                                                          \
        return rx_file_err(NULL, MPI_ERR_FILE, fn, "invalid file handle%s",               \
                           (handle) == MPI_FILE_NULL ? " (MPI_FILE_NULL)" : "")

/* Collective agreement on errors: the largest class any process of the file's
 * communicator found (0 when none), so every process returns an error when one
 * does. */
int rx_file_agree(MPI_Comm comm, int cls);

/* The stream position one etype offset stands for. */
static inline int64_t rx_file_etypes(const rx_file_t *f, MPI_Offset off)
{
    return (int64_t)off * (int64_t)f->view.esize;
}

/* Set the view (file_view.c): types are referenced, derived ones duplicated. */
int rx_file_view_set(rx_file_t *f, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                     const char *datarep);
void rx_file_view_free(rx_file_t *f);

#endif
