/* SPDX-License-Identifier: MIT
 * Shared file pointers: one 8-byte counter in a hidden file next to the data
 * file (".NAME.rdmx-shfp.ID"), read and advanced under a write lock on its
 * bytes. Next to the data file because every process that can open the data
 * file sees that directory; an empty side file reads as pointer 0, so each
 * process may create it on first use without agreeing on who does. */
#define _GNU_SOURCE
#include "io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int rx_io_shfp_name(rx_io_shfp_t *s, const char *path, const char *id)
{
    const char *slash = strrchr(path, '/');
    int dirlen = slash ? (int)(slash - path + 1) : 0;
    const char *base = slash ? slash + 1 : path;
    s->fd = -1;
    int n = snprintf(s->path, sizeof s->path, "%.*s.%s.rdmx-shfp.%s", dirlen, path, base, id);
    return n < 0 || (size_t)n >= sizeof s->path ? ENAMETOOLONG : 0;
}

static int rx_io_shfp_open(rx_io_shfp_t *s)
{
    if (s->fd >= 0)
        return 0;
    s->fd = open(s->path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    return s->fd < 0 ? errno : 0;
}

static int rx_io_shfp_rw(rx_io_shfp_t *s, int64_t delta, int64_t *old, int set)
{
    if (set && delta == 0 && s->fd < 0 && access(s->path, F_OK) != 0)
        return 0; /* never used: it reads as 0 already */
    int rc = rx_io_shfp_open(s);
    if (rc)
        return rc;
    if ((rc = rx_io_lock(s->fd, F_WRLCK, 0, 8)))
        return rc;
    int64_t cur = 0;
    ssize_t r = pread(s->fd, &cur, sizeof cur, 0);
    if (r != (ssize_t)sizeof cur)
        cur = 0; /* not written yet */
    if (r < 0)
        rc = errno;
    int64_t next = set ? delta : cur + delta;
    if (!rc && next != cur && pwrite(s->fd, &next, sizeof next, 0) != (ssize_t)sizeof next)
        rc = errno ? errno : EIO;
    rx_io_lock(s->fd, F_UNLCK, 0, 8);
    if (old)
        *old = cur;
    return rc;
}

int rx_io_shfp_fetch_add(rx_io_shfp_t *s, int64_t delta, int64_t *old)
{
    return rx_io_shfp_rw(s, delta, old, 0);
}

int rx_io_shfp_set(rx_io_shfp_t *s, int64_t value) { return rx_io_shfp_rw(s, value, NULL, 1); }

void rx_io_shfp_close(rx_io_shfp_t *s)
{
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
}

void rx_io_shfp_remove(const rx_io_shfp_t *s) { unlink(s->path); }
