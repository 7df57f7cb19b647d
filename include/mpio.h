/* SPDX-License-Identifier: MIT
 * rdmx — MPI-IO (MPI-4.1 chapter 14) over POSIX files; docs/mpi-io.md says
 * what is provided and how. Included by mpi.h; a program may include either.
 * MPI_Offset and the MPI_ERR_* file classes are in mpi.h. */
#ifndef RDMX_MPIO_H
#define RDMX_MPIO_H

#include "mpi.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int MPI_File;

#define MPI_FILE_NULL ((MPI_File)0x78000000)

/* access modes (bits; MPI_File_open takes their OR) */
#define MPI_MODE_RDONLY          0x0002
#define MPI_MODE_RDWR            0x0008
#define MPI_MODE_WRONLY          0x0004
#define MPI_MODE_CREATE          0x0001
#define MPI_MODE_EXCL            0x0040
#define MPI_MODE_DELETE_ON_CLOSE 0x0010
#define MPI_MODE_UNIQUE_OPEN     0x0020
#define MPI_MODE_SEQUENTIAL      0x0100
#define MPI_MODE_APPEND          0x0080

#define MPI_SEEK_SET 600
#define MPI_SEEK_CUR 602
#define MPI_SEEK_END 604

#define MPI_DISPLACEMENT_CURRENT ((MPI_Offset)-54278278)
#define MPI_MAX_DATAREP_STRING 128

typedef void MPI_File_errhandler_function(MPI_File *file, int *errcode, ...);
typedef MPI_File_errhandler_function MPI_File_errhandler_fn; /* MPI-2 name */

typedef int MPI_Datarep_extent_function(MPI_Datatype datatype, MPI_Aint *extent,
                                        void *extra_state);
typedef int MPI_Datarep_conversion_function(void *userbuf, MPI_Datatype datatype, int count,
                                            void *filebuf, MPI_Offset position,
                                            void *extra_state);
typedef int MPI_Datarep_conversion_function_c(void *userbuf, MPI_Datatype datatype,
                                              MPI_Count count, void *filebuf,
                                              MPI_Offset position, void *extra_state);
#define MPI_CONVERSION_FN_NULL ((MPI_Datarep_conversion_function *)0)
#define MPI_CONVERSION_FN_NULL_C ((MPI_Datarep_conversion_function_c *)0)

/* Every function below has a PMPI_ twin (the profiling interface). */
#define RX_MPIO_API(ret, name, args) ret MPI_##name args; ret PMPI_##name args;

/* file manipulation */
RX_MPIO_API(int, File_open, (MPI_Comm comm, const char *filename, int amode, MPI_Info info,
                             MPI_File *fh))
RX_MPIO_API(int, File_close, (MPI_File *fh))
RX_MPIO_API(int, File_delete, (const char *filename, MPI_Info info))
RX_MPIO_API(int, File_set_size, (MPI_File fh, MPI_Offset size))
RX_MPIO_API(int, File_preallocate, (MPI_File fh, MPI_Offset size))
RX_MPIO_API(int, File_get_size, (MPI_File fh, MPI_Offset *size))
RX_MPIO_API(int, File_get_group, (MPI_File fh, MPI_Group *group))
RX_MPIO_API(int, File_get_amode, (MPI_File fh, int *amode))
RX_MPIO_API(int, File_set_info, (MPI_File fh, MPI_Info info))
RX_MPIO_API(int, File_get_info, (MPI_File fh, MPI_Info *info_used))

/* file views */
RX_MPIO_API(int, File_set_view, (MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
                                 MPI_Datatype filetype, const char *datarep, MPI_Info info))
RX_MPIO_API(int, File_get_view, (MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype,
                                 MPI_Datatype *filetype, char *datarep))

/* Data access: each of the 30 read/write calls in an int-count form and a
 * large-count _c form. RX_MPIO_RW(name, buffer-const, leading arguments,
 * completion argument) declares both. */
#define RX_MPIO_RW(name, cbuf, lead, tail)                                                   \
    RX_MPIO_API(int, File_##name, (MPI_File fh, lead cbuf void *buf, int count,              \
                                   MPI_Datatype datatype, tail))                             \
    RX_MPIO_API(int, File_##name##_c, (MPI_File fh, lead cbuf void *buf, MPI_Count count,    \
                                       MPI_Datatype datatype, tail))
#define RX_MPIO_AT MPI_Offset offset,
#define RX_MPIO_NOLEAD
#define RX_MPIO_RO
RX_MPIO_RW(read_at, RX_MPIO_RO, RX_MPIO_AT, MPI_Status *status)
RX_MPIO_RW(read_at_all, RX_MPIO_RO, RX_MPIO_AT, MPI_Status *status)
RX_MPIO_RW(write_at, const, RX_MPIO_AT, MPI_Status *status)
RX_MPIO_RW(write_at_all, const, RX_MPIO_AT, MPI_Status *status)
RX_MPIO_RW(iread_at, RX_MPIO_RO, RX_MPIO_AT, MPI_Request *request)
RX_MPIO_RW(iwrite_at, const, RX_MPIO_AT, MPI_Request *request)
RX_MPIO_RW(iread_at_all, RX_MPIO_RO, RX_MPIO_AT, MPI_Request *request)
RX_MPIO_RW(iwrite_at_all, const, RX_MPIO_AT, MPI_Request *request)
RX_MPIO_RW(read, RX_MPIO_RO, RX_MPIO_NOLEAD, MPI_Status *status)
RX_MPIO_RW(read_all, RX_MPIO_RO, RX_MPIO_NOLEAD, MPI_Status *status)
RX_MPIO_RW(write, const, RX_MPIO_NOLEAD, MPI_Status *status)
RX_MPIO_RW(write_all, const, RX_MPIO_NOLEAD, MPI_Status *status)
RX_MPIO_RW(iread, RX_MPIO_RO, RX_MPIO_NOLEAD, MPI_Request *request)
RX_MPIO_RW(iwrite, const, RX_MPIO_NOLEAD, MPI_Request *request)
RX_MPIO_RW(iread_all, RX_MPIO_RO, RX_MPIO_NOLEAD, MPI_Request *request)
RX_MPIO_RW(iwrite_all, const, RX_MPIO_NOLEAD, MPI_Request *request)
RX_MPIO_RW(read_shared, RX_MPIO_RO, RX_MPIO_NOLEAD, MPI_Status *status)
RX_MPIO_RW(write_shared, const, RX_MPIO_NOLEAD, MPI_Status *status)
RX_MPIO_RW(iread_shared, RX_MPIO_RO, RX_MPIO_NOLEAD, MPI_Request *request)
RX_MPIO_RW(iwrite_shared, const, RX_MPIO_NOLEAD, MPI_Request *request)
RX_MPIO_RW(read_ordered, RX_MPIO_RO, RX_MPIO_NOLEAD, MPI_Status *status)
RX_MPIO_RW(write_ordered, const, RX_MPIO_NOLEAD, MPI_Status *status)

/* split collectives: _begin takes the data, _end completes it */
#define RX_MPIO_BEGIN(name, cbuf, lead)                                                      \
    RX_MPIO_API(int, File_##name##_begin, (MPI_File fh, lead cbuf void *buf, int count,      \
                                           MPI_Datatype datatype))                           \
    RX_MPIO_API(int, File_##name##_begin_c, (MPI_File fh, lead cbuf void *buf,               \
                                             MPI_Count count, MPI_Datatype datatype))        \
    RX_MPIO_API(int, File_##name##_end, (MPI_File fh, cbuf void *buf, MPI_Status *status))
RX_MPIO_BEGIN(read_at_all, RX_MPIO_RO, RX_MPIO_AT)
RX_MPIO_BEGIN(write_at_all, const, RX_MPIO_AT)
RX_MPIO_BEGIN(read_all, RX_MPIO_RO, RX_MPIO_NOLEAD)
RX_MPIO_BEGIN(write_all, const, RX_MPIO_NOLEAD)
RX_MPIO_BEGIN(read_ordered, RX_MPIO_RO, RX_MPIO_NOLEAD)
RX_MPIO_BEGIN(write_ordered, const, RX_MPIO_NOLEAD)
#undef RX_MPIO_BEGIN
#undef RX_MPIO_RW
#undef RX_MPIO_AT
#undef RX_MPIO_NOLEAD
#undef RX_MPIO_RO

/* file pointers */
RX_MPIO_API(int, File_seek, (MPI_File fh, MPI_Offset offset, int whence))
RX_MPIO_API(int, File_get_position, (MPI_File fh, MPI_Offset *offset))
RX_MPIO_API(int, File_get_byte_offset, (MPI_File fh, MPI_Offset offset, MPI_Offset *disp))
RX_MPIO_API(int, File_seek_shared, (MPI_File fh, MPI_Offset offset, int whence))
RX_MPIO_API(int, File_get_position_shared, (MPI_File fh, MPI_Offset *offset))

/* data representations */
RX_MPIO_API(int, File_get_type_extent, (MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent))
RX_MPIO_API(int, File_get_type_extent_c, (MPI_File fh, MPI_Datatype datatype,
                                          MPI_Count *extent))
RX_MPIO_API(int, Register_datarep, (const char *datarep,
                                    MPI_Datarep_conversion_function *read_conversion_fn,
                                    MPI_Datarep_conversion_function *write_conversion_fn,
                                    MPI_Datarep_extent_function *dtype_file_extent_fn,
                                    void *extra_state))
RX_MPIO_API(int, Register_datarep_c, (const char *datarep,
                                      MPI_Datarep_conversion_function_c *read_conversion_fn,
                                      MPI_Datarep_conversion_function_c *write_conversion_fn,
                                      MPI_Datarep_extent_function *dtype_file_extent_fn,
                                      void *extra_state))

/* consistency and semantics */
RX_MPIO_API(int, File_set_atomicity, (MPI_File fh, int flag))
RX_MPIO_API(int, File_get_atomicity, (MPI_File fh, int *flag))
RX_MPIO_API(int, File_sync, (MPI_File fh))

/* error handling and handle conversion */
RX_MPIO_API(int, File_create_errhandler, (MPI_File_errhandler_function *file_errhandler_fn,
                                          MPI_Errhandler *errhandler))
RX_MPIO_API(int, File_set_errhandler, (MPI_File file, MPI_Errhandler errhandler))
RX_MPIO_API(int, File_get_errhandler, (MPI_File file, MPI_Errhandler *errhandler))
RX_MPIO_API(int, File_call_errhandler, (MPI_File fh, int errorcode))
RX_MPIO_API(MPI_Fint, File_c2f, (MPI_File file))
RX_MPIO_API(MPI_File, File_f2c, (MPI_Fint file))

#undef RX_MPIO_API

#ifdef __cplusplus
}
#endif
#endif
