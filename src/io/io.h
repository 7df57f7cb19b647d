/* SPDX-License-Identifier: MIT
 * File I/O under MPI-IO: file views and the POSIX calls that move typed data.
 *
 * A view (displacement, etype, filetype) turns a file into a stream of data
 * bytes: the filetype is tiled from the displacement on, tile k at
 * disp + k * extent, and the stream is the tiles' data blocks in order (holes
 * are skipped). Positions handed to this layer are byte positions in that
 * stream; the MPI layer converts etype offsets to them. An access of count
 * memtype elements at stream position pos pairs the memory type's blocks with
 * the file blocks byte for byte and moves each contiguous file range with one
 * preadv / pwritev whose vector is the memory pieces of that range, so
 * neither side is packed. Functions return 0 or a positive errno value. */
#ifndef RX_IO_H
#define RX_IO_H

#include "dtype/dtype.h"

#include <stddef.h>
#include <stdint.h>

typedef struct rx_io_view {
    int64_t disp;            /* bytes from the start of the file */
    const rx_dtype_t *ftype; /* filetype: non-negative, increasing block offsets */
    size_t esize;            /* etype size in bytes */
} rx_io_view_t;

/* The file byte that holds stream byte pos. */
int64_t rx_io_view_file_offset(const rx_io_view_t *v, int64_t pos);
/* The stream position of the first data byte at or after file byte off (the
 * stream length of a file of off bytes). */
int64_t rx_io_view_stream_pos(const rx_io_view_t *v, int64_t off);

enum rx_io_dir { RX_IO_READ, RX_IO_WRITE };

/* Move count elements of memtype at buf to or from the stream at pos. lock:
 * hold a POSIX record lock over the file range the access spans (atomic
 * mode). *done gets the bytes moved: less than asked for only when a read
 * reaches the end of the file. */
int rx_io_access(int fd, const rx_io_view_t *v, int64_t pos, enum rx_io_dir dir, void *buf,
                 size_t count, const rx_dtype_t *memtype, int lock, size_t *done);

/* Wait for a record lock of type (F_RDLCK, F_WRLCK; F_UNLCK releases) over
 * [from, to) of fd: an open-file-description lock where the kernel has them
 * (two handles of one file in one process exclude each other too), else a
 * process lock. */
int rx_io_lock(int fd, short type, int64_t from, int64_t to);

/* Shared file pointers: an 8-byte counter in a side file, updated under a
 * POSIX record lock, so every process of the file (on any node that sees the
 * file system) moves the same pointer without a server. The side file is
 * made on first use and removed at close. */
typedef struct rx_io_shfp {
    char path[4096];
    int fd; /* -1 until first use */
} rx_io_shfp_t;

/* Name the side file of data file path after an id unique to this open. */
int rx_io_shfp_name(rx_io_shfp_t *s, const char *path, const char *id);
/* *old gets the pointer, which becomes *old + delta, in one locked step. */
int rx_io_shfp_fetch_add(rx_io_shfp_t *s, int64_t delta, int64_t *old);
int rx_io_shfp_set(rx_io_shfp_t *s, int64_t value);
void rx_io_shfp_close(rx_io_shfp_t *s);
/* Remove the side file (one process, after all have closed it). */
void rx_io_shfp_remove(const rx_io_shfp_t *s);

#endif
