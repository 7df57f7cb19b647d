/* SPDX-License-Identifier: MIT
 * Node-shared regions: memory every rank of a node maps, for shared-memory
 * collectives and one-sided windows. Created exclusively with mode 0600 under
 * an unguessable name that starts with the job id (so the launcher's sweep
 * finds it after a crash); the creator unlinks it once all have attached. */
#include "shm.h"
#include "tl/tl.h"
#include "util/log.h"
#include "util/status.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

static size_t rx_region_len(size_t size)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t p = page > 0 ? (size_t)page : 4096;
    return size ? (size + p - 1) / p * p : p;
}

int rx_region_create(const char *jobid, size_t size, char *name, size_t namelen, void **addr)
{
    uint64_t secret;
    if (getrandom(&secret, sizeof secret, 0) != (ssize_t)sizeof secret)
        secret = (uint64_t)getpid() ^ ((uint64_t)(uintptr_t)&secret << 16);
    static unsigned seq;
    snprintf(name, namelen, "/%s-r%d-%u-%016llx", jobid, (int)getpid(), seq++,
             (unsigned long long)secret);
    int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) {
        rx_log_error("shm: cannot create region %s: %s", name, strerror(errno));
        return RX_ERR_IO;
    }
    size_t len = rx_region_len(size);
    int err = posix_fallocate(fd, 0, (off_t)len);
    if (err) {
        rx_log_error("shm: cannot reserve %zu bytes in /dev/shm: %s", len, strerror(err));
        close(fd);
        shm_unlink(name);
        return RX_ERR_NOMEM;
    }
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, rx_shm_map_flags(len), fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        rx_log_error("shm: mmap of region %s failed: %s", name, strerror(errno));
        shm_unlink(name);
        return RX_ERR_IO;
    }
    *addr = p;
    return RX_OK;
}

int rx_region_attach(const char *name, size_t size, void **addr)
{
    int fd = shm_open(name, O_RDWR, 0);
    if (fd < 0) {
        rx_log_error("shm: cannot open region %s: %s", name, strerror(errno));
        return RX_ERR_IO;
    }
    size_t len = rx_region_len(size);
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, rx_shm_map_flags(len), fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        rx_log_error("shm: mmap of region %s failed: %s", name, strerror(errno));
        return RX_ERR_IO;
    }
    *addr = p;
    return RX_OK;
}

void rx_region_unlink(const char *name)
{
    shm_unlink(name);
}

void rx_region_detach(void *addr, size_t size)
{
    if (addr)
        munmap(addr, rx_region_len(size));
}
