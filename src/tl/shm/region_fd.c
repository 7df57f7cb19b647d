/* SPDX-License-Identifier: MIT
 * Node-shareable private memory: an anonymous memory file (memfd) that its
 * owner allocates alone and that other ranks of the node map later through
 * /proc/<owner>/fd/<fd>. No name exists in any file system, so nothing can
 * outlive the processes that map it; the kernel checks the same ptrace
 * permission as for cross-memory attach before it lets a peer open the file. */
#define _GNU_SOURCE
#include "shm.h"
#include "tl/tl.h"
#include "util/log.h"
#include "util/status.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static size_t rx_fd_len(size_t size)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t p = page > 0 ? (size_t)page : 4096;
    return size ? (size + p - 1) / p * p : p;
}

int rx_region_fd_alloc(size_t size, int *fd, void **addr)
{
    size_t len = rx_fd_len(size);
    int f = memfd_create("rdmx-win", MFD_CLOEXEC);
    if (f < 0) {
        rx_log_error("shm: memfd_create failed: %s", strerror(errno));
        return RX_ERR_IO;
    }
    /* reserve the pages now: a full tmpfs must fail here, not as SIGBUS later */
    int err = posix_fallocate(f, 0, (off_t)len);
    if (err) {
        rx_log_error("shm: cannot reserve %zu bytes of shared memory: %s", len, strerror(err));
        close(f);
        return err == ENOSPC ? RX_ERR_NOMEM : RX_ERR_IO;
    }
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, rx_shm_map_flags(len), f, 0);
    if (p == MAP_FAILED) {
        rx_log_error("shm: mmap of %zu bytes failed: %s", len, strerror(errno));
        close(f);
        return RX_ERR_NOMEM;
    }
    *fd = f;
    *addr = p;
    return RX_OK;
}

int rx_region_fd_map(int owner_pid, int fd, size_t size, void **addr)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd/%d", owner_pid, fd);
    int f = open(path, O_RDWR | O_CLOEXEC);
    if (f < 0) {
        rx_log_info("shm: cannot open rank memory %s: %s", path, strerror(errno));
        return RX_ERR_IO;
    }
    void *p = mmap(NULL, rx_fd_len(size), PROT_READ | PROT_WRITE, rx_shm_map_flags(rx_fd_len(size)), f, 0);
    int e = errno;
    close(f);
    if (p == MAP_FAILED) {
        rx_log_info("shm: cannot map rank memory %s: %s", path, strerror(e));
        return RX_ERR_IO;
    }
    *addr = p;
    return RX_OK;
}

void rx_region_fd_free(int fd, void *addr, size_t size)
{
    if (addr)
        munmap(addr, rx_fd_len(size));
    if (fd >= 0)
        close(fd);
}
