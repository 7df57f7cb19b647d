/* SPDX-License-Identifier: MIT
 * The node's shared segment: created exclusively by local rank 0 with mode
 * 0600 under an unguessable name, mapped by every local rank, and unlinked as
 * soon as all have mapped it, so nothing outlives the job even if it crashes
 * later. Every rank of the job calls this (the bootstrap fences are global). */
#include "shm.h"
#include "boot/boot.h"
#include "util/config.h"
#include "util/log.h"
#include "util/status.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* Ring sizes are powers of two so positions wrap with a mask. */
static uint32_t rx_shm_pick_ring_size(int local_size)
{
    long long r = rx_config()->SHM_RING_SIZE;
    if (r <= 0) /* about 32 MiB for all rings together */
        r = (32ll << 20) / ((long long)local_size * local_size);
    if (r > (64ll << 20)) r = 64ll << 20;
    if (r > (256 << 10) && rx_config()->SHM_RING_SIZE <= 0) r = 256 << 10;
    if (r < (16 << 10)) r = 16 << 10;
    uint32_t p = 16 << 10;
    while ((long long)p * 2 <= r)
        p *= 2;
    return p;
}

static size_t rx_shm_layout(int L, uint32_t ring_size, size_t *off_rank, size_t *off_rctl,
                            size_t *off_data)
{
    *off_rank = sizeof(rx_shm_seg_hdr_t);
    *off_rctl = *off_rank + (size_t)L * sizeof(rx_shm_rank_ctl_t);
    size_t data = *off_rctl + (size_t)L * L * sizeof(rx_shm_ring_ctl_t);
    *off_data = (data + 4095) & ~(size_t)4095;
    return *off_data + (size_t)L * L * ring_size;
}

static int rx_shm_map(rx_shm_t *shm, int fd, size_t size)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, rx_shm_map_flags(size), fd, 0);
    if (p == MAP_FAILED) {
        rx_log_error("shm: mmap of %zu bytes failed: %s", size, strerror(errno));
        return RX_ERR_IO;
    }
    shm->base = p;
    shm->seg_size = size;
    return RX_OK;
}

int rx_shm_segment_create(rx_shm_t *shm, const rx_tl_job_t *job)
{
    const int L = job->local_size;
    const int leader = job->local_ranks[0];
    char key[64], name[192];
    int rc = RX_OK, fd = -1;
    size_t off_rank, off_rctl, off_data;

    shm->ring_size = rx_shm_pick_ring_size(L);
    size_t size = rx_shm_layout(L, shm->ring_size, &off_rank, &off_rctl, &off_data);
    snprintf(key, sizeof key, "rdmx.shm.%d", leader);

    if (L > 1 && job->local_rank == 0) {
        uint64_t secret = 0;
        if (getrandom(&secret, sizeof secret, 0) != (ssize_t)sizeof secret)
            secret = (uint64_t)getpid() * 0x9e3779b97f4a7c15ull ^ (uint64_t)(uintptr_t)&secret;
        snprintf(name, sizeof name, "/%s-n%d-%016llx", job->jobid, leader,
                 (unsigned long long)secret);
        fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
        if (fd < 0) {
            rx_log_error("shm: cannot create segment %s: %s", name, strerror(errno));
            rc = RX_ERR_IO;
        } else if ((errno = posix_fallocate(fd, 0, (off_t)size)) != 0) {
            /* reserve the pages now: a full /dev/shm must fail here, not as SIGBUS later */
            rx_log_error("shm: cannot reserve %zu bytes in /dev/shm for %s: %s", size, name,
                         strerror(errno));
            rc = RX_ERR_NOMEM;
        } else if ((rc = rx_shm_map(shm, fd, size)) == RX_OK) {
            rx_shm_seg_hdr_t *h = shm->base;
            h->local_size = (uint32_t)L;
            h->ring_size = shm->ring_size;
            h->total_size = size;
            atomic_thread_fence(memory_order_release);
            h->magic = RX_SHM_MAGIC;
        }
        if (rc != RX_OK && fd >= 0)
            shm_unlink(name);
        rx_boot_put(key, rc == RX_OK ? name : "error");
    }
    int frc = rx_boot_fence();
    if (frc != RX_OK)
        rc = frc;

    if (L > 1 && job->local_rank != 0 && rc == RX_OK) {
        if (rx_boot_get(key, name, sizeof name) != RX_OK || !strcmp(name, "error")) {
            rx_log_error("shm: local rank 0 could not create the node's segment");
            rc = RX_ERR_PEER;
        } else if ((fd = shm_open(name, O_RDWR, 0)) < 0) {
            rx_log_error("shm: cannot open segment %s: %s", name, strerror(errno));
            rc = RX_ERR_IO;
        } else if ((rc = rx_shm_map(shm, fd, size)) == RX_OK) {
            rx_shm_seg_hdr_t *h = shm->base;
            if (h->magic != RX_SHM_MAGIC || h->local_size != (uint32_t)L ||
                h->ring_size != shm->ring_size) {
                rx_log_error("shm: segment %s has an unexpected layout", name);
                rc = RX_ERR_INTERN;
            }
        }
    }
    if (fd >= 0)
        close(fd);
    if (L > 1 && rc == RX_OK) {
        shm->ctl = (rx_shm_rank_ctl_t *)((char *)shm->base + off_rank);
        shm->ctl[job->local_rank].pid = getpid();
        shm->ctl[job->local_rank].probe_addr = (uint64_t)(uintptr_t)&shm->probe_value;
        shm->probe_value = (uint64_t)(uintptr_t)&shm->probe_value ^ (uint64_t)getpid();
    }
    frc = rx_boot_fence(); /* every local rank has mapped the segment */
    if (frc != RX_OK)
        rc = frc;
    if (L > 1 && job->local_rank == 0 && shm->base)
        shm_unlink(name);
    if (rc != RX_OK || L == 1)
        return rc;

    rx_shm_ring_ctl_t *rctl = (rx_shm_ring_ctl_t *)((char *)shm->base + off_rctl);
    unsigned char *data = (unsigned char *)shm->base + off_data;
    int me = job->local_rank;
    shm->nrx = 0;
    for (int l = 0; l < L; l++) {
        if (l == me)
            continue;
        int w = job->local_ranks[l];
        size_t out = (size_t)me * L + l, in = (size_t)l * L + me;
        shm->tx[w].data = data + out * shm->ring_size;
        shm->tx[w].ctl = &rctl[out];
        shm->tx[w].peer_ctl = &shm->ctl[l];
        shm->tx[w].seq = 1;
        shm->rx[shm->nrx].data = data + in * shm->ring_size;
        shm->rx[shm->nrx].ctl = &rctl[in];
        shm->rx[shm->nrx].seq = 1;
        shm->rx[shm->nrx].world_src = w;
        shm->coop_in[w] = &rctl[in].coop;
        shm->nrx++;
        shm->pid_of[w] = shm->ctl[l].pid;
        shm->reach[w] = 1;
    }
    rx_log_info("shm: %d local ranks, %u-byte rings, segment %zu bytes", L, shm->ring_size, size);
    return RX_OK;
}

void rx_shm_segment_release(rx_shm_t *shm)
{
    if (shm->base)
        munmap(shm->base, shm->seg_size);
    shm->base = NULL;
}
