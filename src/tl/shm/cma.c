/* SPDX-License-Identifier: MIT
 * Single copy between processes of a node by cross-memory attach
 * (process_vm_readv / process_vm_writev). Containers and ptrace policies often
 * forbid it, so it is probed with a real transfer at start-up and used only if
 * every local rank succeeded; otherwise the layer above falls back to the
 * pipelined copy through the rings. */
#define _GNU_SOURCE
#include "shm.h"
#include "boot/boot.h"
#include "util/config.h"
#include "util/log.h"
#include "util/status.h"

#include <errno.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/uio.h>
#include <unistd.h>

/* Called after every local rank wrote its pid and probe address. Ends with a
 * global fence, so every rank of the job calls it. */
int rx_shm_cma_probe(rx_shm_t *shm, const rx_tl_job_t *job)
{
    const char *mode = rx_config()->SHM_CMA;
    int want = strcmp(mode, "off") != 0;
    int L = job->local_size, me = job->local_rank;
    if (strcmp(mode, "off") && strcmp(mode, "on") && strcmp(mode, "auto"))
        rx_log_warn("RDMX_SHM_CMA=\"%s\" unknown (auto, on, off); using auto", mode);

    if (L > 1 && want) {
#ifdef PR_SET_PTRACER
        /* Yama (ptrace_scope 1) allows attaching only to descendants; let the
         * job's peers attach to us. Harmless where Yama is absent. */
        prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
#endif
    }
    int frc = rx_boot_fence(); /* probe values are in place, ptracer set */
    if (L > 1 && want) {
        int peer = (me + 1) % L;
        /* the peer's probe value is the address itself mixed with its pid: no
         * shared state needed to know what to expect */
        uint64_t got = 0, expect = shm->ctl[peer].probe_addr ^ (uint64_t)shm->ctl[peer].pid;
        struct iovec l = {&got, sizeof got};
        struct iovec r = {(void *)(uintptr_t)shm->ctl[peer].probe_addr, sizeof got};
        ssize_t n = process_vm_readv(shm->ctl[peer].pid, &l, 1, &r, 1, 0);
        shm->ctl[me].cma_ok = (n == (ssize_t)sizeof got && got == expect);
        if (!shm->ctl[me].cma_ok)
            rx_log_info("shm: cross-memory attach refused (%s)", n < 0 ? strerror(errno) : "wrong data");
    }
    int frc2 = rx_boot_fence();
    shm->cma = L > 1 && want;
    for (int l = 0; l < L && shm->cma; l++)
        if (!shm->ctl[l].cma_ok)
            shm->cma = 0;
    if (L > 1) {
        if (!shm->cma && !strcmp(mode, "on")) {
            rx_log_error("shm: RDMX_SHM_CMA=on but cross-memory attach does not work here "
                         "(ptrace policy or container); set RDMX_SHM_CMA=auto to fall back");
            return RX_ERR_UNSUPPORTED;
        }
        if (me == 0)
            rx_log_info("shm: large messages use %s", shm->cma ? "single copy (cross-memory attach)"
                                                          : "pipelined copy through shared memory");
    }
    return frc != RX_OK ? frc : frc2;
}

int rx_shm_copy_failed(rx_shm_t *shm, int world_peer, const char *what, int err)
{
    /* One large message is hundreds of chunks, and a survivor that logged
     * each would bury the launcher's report of the death under repeats. */
    if (!shm->copy_err ||
        atomic_exchange_explicit(&shm->copy_err[world_peer], err, memory_order_relaxed) != err)
        rx_log_error("shm: %s rank %d (pid %d) failed: %s", what, world_peer,
                     (int)shm->pid_of[world_peer], strerror(err));
    return err == ESRCH ? RX_ERR_PEER : RX_ERR_IO;
}

int rx_shm_peer_gone(rx_shm_t *shm, int world_peer)
{
    return shm->copy_err &&
           atomic_load_explicit(&shm->copy_err[world_peer], memory_order_relaxed) == ESRCH;
}

int rx_shm_cma_copy(pid_t pid, int write, char *local, uint64_t remote, size_t len)
{
    while (len) {
        struct iovec l = {local, len}, r = {(void *)(uintptr_t)remote, len};
        ssize_t n = write ? process_vm_writev(pid, &l, 1, &r, 1, 0)
                          : process_vm_readv(pid, &l, 1, &r, 1, 0);
        if (n <= 0) {
            if (n < 0 && errno == EINTR)
                continue;
            return n < 0 ? errno : EFAULT; /* nothing at the remote address */
        }
        local += n;
        remote += (uint64_t)n;
        len -= (size_t)n;
    }
    return 0;
}

int rx_shm_cma_get(rx_tl_t *tl, int world_peer, void *local, size_t len, const rx_rkey_t *rkey,
                   uint64_t offset)
{
    rx_shm_t *shm = (rx_shm_t *)tl;
    if (rx_shm_peer_gone(shm, world_peer))
        return RX_ERR_PEER;
    if (len >= shm->coop_min && shm->coop_in[world_peer])
        return rx_shm_coop_get(shm, world_peer, local, len, rkey->addr + offset);
    int err = rx_shm_cma_copy((pid_t)rkey->key, 0, local, rkey->addr + offset, len);
    return !err ? RX_OK : rx_shm_copy_failed(shm, world_peer, "process_vm_readv from", err);
}

int rx_shm_cma_put(rx_tl_t *tl, int world_peer, const void *local, size_t len,
                   const rx_rkey_t *rkey, uint64_t offset)
{
    rx_shm_t *shm = (rx_shm_t *)tl;
    if (rx_shm_peer_gone(shm, world_peer))
        return RX_ERR_PEER;
    int err = rx_shm_cma_copy((pid_t)rkey->key, 1, (char *)local, rkey->addr + offset, len);
    return !err ? RX_OK : rx_shm_copy_failed(shm, world_peer, "process_vm_writev to", err);
}

/* Drop the first n bytes of an I/O-vector list (after a partial transfer). */
static size_t rx_iov_skip(struct iovec *iov, size_t cnt, size_t n)
{
    size_t i = 0;
    while (i < cnt && n >= iov[i].iov_len)
        n -= iov[i++].iov_len;
    if (i < cnt) {
        iov[i].iov_base = (char *)iov[i].iov_base + n;
        iov[i].iov_len -= n;
    }
    memmove(iov, iov + i, (cnt - i) * sizeof *iov);
    return cnt - i;
}

int rx_shm_cma_getv(rx_tl_t *tl, int world_peer, const struct iovec *local, size_t nlocal,
                    const struct iovec *remote, size_t nremote, const rx_rkey_t *rkey)
{
    rx_shm_t *shm = (rx_shm_t *)tl;
    if (rx_shm_peer_gone(shm, world_peer))
        return RX_ERR_PEER;
    pid_t pid = (pid_t)rkey->key;
    size_t want = 0;
    for (size_t i = 0; i < nlocal; i++)
        want += local[i].iov_len;
    ssize_t n = process_vm_readv(pid, local, nlocal, remote, nremote, 0);
    if (n == (ssize_t)want)
        return RX_OK;
    /* the kernel may stop early (a signal, a page it could not pin at once):
     * resume from where it stopped on private copies of the lists */
    static __thread struct iovec l[RX_TL_IOV_MAX], r[RX_TL_IOV_MAX]; /* the offload thread reads too */
    memcpy(l, local, nlocal * sizeof *l);
    memcpy(r, remote, nremote * sizeof *r);
    for (;;) {
        if (n <= 0 && !(n < 0 && errno == EINTR))
            return rx_shm_copy_failed(shm, world_peer, "process_vm_readv (pieces) from",
                                      n < 0 ? errno : EFAULT);
        if (n > 0) {
            want -= (size_t)n;
            if (!want)
                return RX_OK;
            nlocal = rx_iov_skip(l, nlocal, (size_t)n);
            nremote = rx_iov_skip(r, nremote, (size_t)n);
        }
        n = process_vm_readv(pid, l, nlocal, r, nremote, 0);
    }
}
