/* SPDX-License-Identifier: MIT
 * Links: shared-memory rings between processes that did not start together
 * (MPI_Comm_spawn, _connect / _accept, _join: src/mpi/dynamic.c). The job's
 * segment is unlinked once its ranks mapped it, so newcomers cannot join it;
 * each connection gets a region of its own instead, holding one ring per
 * ordered pair of a member of side A and a member of side B, in the layout
 * of the node segment's rings:
 *   [header][ring control x 2*na*nb][ring data x 2*na*nb]
 * ring a->b of members (i, j): i * nb + j; ring b->a: na * nb + j * na + i.
 * A link is an ordinary shm transport instance over that region (same ops,
 * same records), reaching only the other side's members; it has no doorbells
 * (a sleeping rank sleeps on its job's segment), so its owner keeps waits in
 * short slices while links exist. */
#define _GNU_SOURCE
#include "shm.h"
#include "util/config.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#define RX_SHM_LINK_MAGIC 0x72646d786c6e6b31ull /* "rdmxlnk1" */

uint32_t rx_tl_link_ring_size(void)
{
    long long r = rx_config()->SHM_RING_SIZE;
    if (r <= 0)
        r = 256 << 10; /* the node segment's ring for a few local ranks */
    if (r > (64ll << 20))
        r = 64ll << 20;
    uint32_t p = 16 << 10;
    while ((long long)p * 2 <= r)
        p *= 2;
    return p;
}

static size_t rx_link_layout(int na, int nb, uint32_t ring_size, size_t *off_rctl,
                             size_t *off_data)
{
    size_t rings = 2 * (size_t)na * (size_t)nb;
    *off_rctl = sizeof(rx_shm_seg_hdr_t);
    size_t data = *off_rctl + rings * sizeof(rx_shm_ring_ctl_t);
    *off_data = (data + 4095) & ~(size_t)4095;
    return *off_data + rings * ring_size;
}

size_t rx_tl_link_bytes(int na, int nb, uint32_t ring_size)
{
    size_t a, b;
    return rx_link_layout(na, nb, ring_size, &a, &b);
}

int rx_tl_link_create(const rx_tl_link_t *d, void *base, size_t bytes, rx_tl_t **out)
{
    size_t off_rctl, off_data;
    int nother = d->side == 0 ? d->nb : d->na;
    if (rx_link_layout(d->na, d->nb, d->ring_size, &off_rctl, &off_data) > bytes)
        return RX_ERR_INVAL;
    rx_shm_t *shm = calloc(1, sizeof *shm);
    if (!shm)
        return RX_ERR_NOMEM;
    size_t n = (size_t)d->peers_max;
    shm->tx = calloc(n, sizeof *shm->tx);
    shm->rx = calloc((size_t)nother, sizeof *shm->rx);
    shm->pid_of = calloc(n, sizeof *shm->pid_of);
    shm->reach = calloc(n, 1);
    shm->coop_in = calloc(n, sizeof *shm->coop_in);
    shm->copy_err = calloc(n, sizeof *shm->copy_err);
    shm->handler = d->am_handler;
    shm->handler_arg = d->am_arg;
    shm->ring_size = d->ring_size;
    shm->cma = d->cma;
    rx_tl_t *tl;
    rx_tl_shm_ops_for_test(shm, &tl);
    if (!shm->tx || !shm->rx || !shm->pid_of || !shm->reach || !shm->coop_in || !shm->copy_err) {
        tl->ops->fini(tl);
        return RX_ERR_NOMEM;
    }
    tl->name = "shm-link";
    tl->caps = 0; /* no doorbell: see above */
    rx_shm_ring_ctl_t *rctl = (rx_shm_ring_ctl_t *)((char *)base + off_rctl);
    unsigned char *data = (unsigned char *)base + off_data;
    size_t half = (size_t)d->na * (size_t)d->nb;
    for (int k = 0; k < nother; k++) {
        int w = d->peer[k];
        if (w < 0)
            continue;
        size_t out_ring, in_ring;
        if (d->side == 0) { /* me = i on side A, k = j on side B */
            out_ring = (size_t)d->me * d->nb + k;
            in_ring = half + (size_t)k * d->na + d->me;
        } else {
            out_ring = half + (size_t)d->me * d->na + k;
            in_ring = (size_t)k * d->nb + d->me;
        }
        shm->tx[w].data = data + out_ring * d->ring_size;
        shm->tx[w].ctl = &rctl[out_ring];
        shm->tx[w].seq = 1;
        shm->rx[shm->nrx].data = data + in_ring * d->ring_size;
        shm->rx[shm->nrx].ctl = &rctl[in_ring];
        shm->rx[shm->nrx].seq = 1;
        shm->rx[shm->nrx].world_src = w;
        shm->nrx++;
        shm->coop_in[w] = &rctl[in_ring].coop;
        shm->pid_of[w] = d->peer_pid[k];
        shm->reach[w] = 1;
    }
    /* rx_shm_fini unmaps it with the instance */
    shm->base = base;
    shm->seg_size = bytes;
    rx_shm_set_limits(shm);
    *out = tl;
    return RX_OK;
}

/* The word another process reads to learn whether cross-memory attach
 * works towards this one: its own address mixed with the pid, so the reader
 * knows what to expect without shared state. */
static uint64_t rx_link_probe_word;

uint64_t rx_tl_link_probe_addr(void)
{
#ifdef PR_SET_PTRACER
    /* Yama's ptrace_scope 1 lets only ancestors attach: let the peers in */
    if (strcmp(rx_config()->SHM_CMA, "off"))
        prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
#endif
    rx_link_probe_word = (uint64_t)(uintptr_t)&rx_link_probe_word ^ (uint64_t)getpid();
    return (uint64_t)(uintptr_t)&rx_link_probe_word;
}

int rx_tl_link_probe(int pid, uint64_t addr)
{
    if (!strcmp(rx_config()->SHM_CMA, "off"))
        return 0;
    uint64_t got = 0;
    return rx_shm_cma_copy(pid, 0, (char *)&got, addr, sizeof got) == 0 &&
           got == (addr ^ (uint64_t)pid);
}
