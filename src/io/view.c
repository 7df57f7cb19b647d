/* SPDX-License-Identifier: MIT
 * File views and typed file access: stream positions to file offsets, and
 * preadv / pwritev lists pairing the file's blocks with the memory type's. */
#define _GNU_SOURCE
#include "io.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/uio.h>
#include <unistd.h>

/* iovec entries per system call (IOV_MAX is 1024 on Linux) */
#define RX_IO_IOV 1024

static int rx_io_dense(const rx_dtype_t *t)
{
    return t->nblocks == 1 && t->blocks[0].len == (size_t)t->extent;
}

int64_t rx_io_view_file_offset(const rx_io_view_t *v, int64_t pos)
{
    const rx_dtype_t *t = v->ftype;
    if (t->size == 0) /* a view of no data: every position is its displacement */
        return v->disp;
    if (rx_io_dense(t))
        return v->disp + t->blocks[0].off + pos;
    int64_t tile = pos / (int64_t)t->size, rest = pos % (int64_t)t->size;
    int b = 0;
    while (rest >= (int64_t)t->blocks[b].len) {
        rest -= (int64_t)t->blocks[b].len;
        b++;
    }
    return v->disp + tile * (int64_t)t->extent + t->blocks[b].off + rest;
}

int64_t rx_io_view_stream_pos(const rx_io_view_t *v, int64_t off)
{
    const rx_dtype_t *t = v->ftype;
    if (off <= v->disp || t->size == 0)
        return 0;
    int64_t x = off - v->disp;
    int64_t tile = x / (int64_t)t->extent, within = x % (int64_t)t->extent;
    int64_t pos = tile * (int64_t)t->size;
    for (int b = 0; b < t->nblocks; b++) {
        int64_t lo = t->blocks[b].off, hi = lo + (int64_t)t->blocks[b].len;
        if (hi <= within)
            pos += hi - lo;
        else if (lo < within)
            pos += within - lo;
    }
    return pos;
}

/* A cursor over the file's data blocks from a stream position on. */
typedef struct rx_io_fcur {
    const rx_io_view_t *v;
    int64_t tile;
    int blk;
    size_t done; /* bytes of block blk already behind the cursor */
    int64_t pos; /* stream position (dense filetypes use only this) */
} rx_io_fcur_t;

static void rx_io_fcur_init(rx_io_fcur_t *c, const rx_io_view_t *v, int64_t pos)
{
    const rx_dtype_t *t = v->ftype;
    c->v = v;
    c->pos = pos;
    c->tile = pos / (int64_t)t->size;
    size_t rest = (size_t)(pos % (int64_t)t->size);
    c->blk = 0;
    while (rest >= t->blocks[c->blk].len) {
        rest -= t->blocks[c->blk].len;
        c->blk++;
    }
    c->done = rest;
}

/* The next contiguous file range of at most limit bytes: blocks that touch
 * (within a tile or across tiles) are one range. */
static size_t rx_io_fcur_next(rx_io_fcur_t *c, size_t limit, int64_t *off)
{
    const rx_io_view_t *v = c->v;
    const rx_dtype_t *t = v->ftype;
    if (rx_io_dense(t)) {
        *off = v->disp + t->blocks[0].off + c->pos;
        c->pos += (int64_t)limit;
        return limit;
    }
    size_t len = 0;
    int64_t end = 0;
    while (len < limit) {
        const struct rx_dtype_block *b = &t->blocks[c->blk];
        int64_t at = v->disp + c->tile * (int64_t)t->extent + b->off + (int64_t)c->done;
        if (len && at != end)
            break;
        if (!len)
            *off = at;
        size_t n = b->len - c->done;
        if (n > limit - len)
            n = limit - len;
        len += n;
        end = at + (int64_t)n;
        c->done += n;
        if (c->done == b->len) {
            c->done = 0;
            if (++c->blk == t->nblocks) {
                c->blk = 0;
                c->tile++;
            }
        }
    }
    c->pos += (int64_t)len;
    return len;
}

/* One vector at file offset off, retried until all of it moved; *moved is
 * short only at the end of the file (reads). */
static int rx_io_vec(int fd, struct iovec *iov, size_t n, int64_t off, enum rx_io_dir dir,
                     size_t *moved)
{
    size_t i = 0;
    *moved = 0;
    while (i < n) {
        ssize_t r = dir == RX_IO_WRITE ? pwritev(fd, iov + i, (int)(n - i), (off_t)off)
                                       : preadv(fd, iov + i, (int)(n - i), (off_t)off);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (r == 0) {
            if (dir == RX_IO_READ)
                return 0; /* end of file */
            return EIO;
        }
        *moved += (size_t)r;
        off += r;
        while (i < n && (size_t)r >= iov[i].iov_len) {
            r -= (ssize_t)iov[i].iov_len;
            i++;
        }
        if (i < n) {
            iov[i].iov_base = (char *)iov[i].iov_base + r;
            iov[i].iov_len -= (size_t)r;
        }
    }
    return 0;
}

int rx_io_lock(int fd, short type, int64_t from, int64_t to)
{
    struct flock fl = {.l_type = type, .l_whence = SEEK_SET, .l_start = (off_t)from,
                       .l_len = (off_t)(to - from)};
    for (;;) {
        if (fcntl(fd, F_OFD_SETLKW, &fl) == 0)
            return 0;
        if (errno == EINTR)
            continue;
        if (errno != EINVAL)
            return errno;
        fl.l_pid = 0;
        if (fcntl(fd, F_SETLKW, &fl) == 0)
            return 0;
        if (errno != EINTR)
            return errno;
    }
}

int rx_io_access(int fd, const rx_io_view_t *v, int64_t pos, enum rx_io_dir dir, void *buf,
                 size_t count, const rx_dtype_t *memtype, int lock, size_t *done)
{
    size_t total = count * memtype->size;
    *done = 0;
    /* a filetype of no data (a process with nothing to access, in a
     * collective call) moves nothing, as ROMIO does */
    if (total == 0 || v->ftype->size == 0)
        return 0;
    int64_t lo = 0, hi = 0;
    if (lock) {
        lo = rx_io_view_file_offset(v, pos);
        hi = rx_io_view_file_offset(v, pos + (int64_t)total - 1) + 1;
        int rc = rx_io_lock(fd, dir == RX_IO_WRITE ? F_WRLCK : F_RDLCK, lo, hi);
        if (rc)
            return rc;
    }
    rx_dtype_iter_t mem;
    rx_dtype_iter_init(&mem, (uintptr_t)buf, count, memtype->extent, memtype->blocks,
                       (size_t)memtype->nblocks);
    rx_io_fcur_t file;
    rx_io_fcur_init(&file, v, pos);
    struct iovec iov[RX_IO_IOV];
    int rc = 0, stop = 0;
    size_t left = total;
    while (left && !stop) {
        int64_t off;
        size_t len = rx_io_fcur_next(&file, left, &off), seg = 0;
        while (seg < len) {
            size_t got, moved;
            size_t n = rx_dtype_iter_next(&mem, iov, RX_IO_IOV, len - seg, &got);
            rc = rx_io_vec(fd, iov, n, off + (int64_t)seg, dir, &moved);
            *done += moved;
            seg += moved;
            if (rc || moved < got) { /* an error, or the end of the file */
                stop = 1;
                break;
            }
        }
        left -= len;
    }
    if (lock)
        rx_io_lock(fd, F_UNLCK, lo, hi);
    return rc;
}
