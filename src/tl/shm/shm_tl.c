/* SPDX-License-Identifier: MIT
 * Shared-memory transport: the ops table over the per-peer rings. */
#include "shm.h"
#include "util/config.h"
#include "util/log.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

/* Publish the record rec (advance bytes long) at the producer's head. The
 * consumer next polls the sequence word where the following record will
 * start; on an earlier lap that word may have been inside another record's
 * payload, and stale payload equal to the sequence number it expects would be
 * taken for a record. So that word is overwritten with a value the consumer
 * does not expect before rec's sequence number is released: once the consumer
 * sees rec, it sees no stale word after it. */
static void rx_shm_publish(rx_shm_tx_t *t, rx_shm_rec_t *rec, uint64_t advance, uint64_t size)
{
    uint32_t seq = t->seq++;
    rx_shm_rec_t *next = (rx_shm_rec_t *)(t->data + ((t->head + advance) & (size - 1)));
    atomic_store_explicit(&next->seq, seq, memory_order_relaxed); /* expected there: seq + 1 */
    atomic_store_explicit(&rec->seq, seq, memory_order_release);
    t->head += advance;
}

static int rx_shm_am_send(rx_tl_t *tl, int world_peer, const rx_am_hdr_t *hdr,
                          const void *payload, size_t len)
{
    rx_shm_t *shm = (rx_shm_t *)tl;
    rx_shm_tx_t *t = &shm->tx[world_peer];
    const uint64_t size = shm->ring_size;
    size_t need = rx_shm_rec_size(len);
    uint64_t pos = t->head & (size - 1);
    uint64_t contig = size - pos;
    /* one line more than the records: the start of the next record, which
     * rx_shm_publish clears, must not hold unconsumed data */
    uint64_t total = (need <= contig ? need : contig + need) + RX_CACHELINE;
    if (__builtin_expect(len > tl->max_am_payload, 0))
        return RX_ERR_INVAL; /* could never fit: callers fragment above this */

    if (size - (t->head - t->cached_tail) < total) {
        t->cached_tail = atomic_load_explicit(&t->ctl->tail, memory_order_acquire);
        if (size - (t->head - t->cached_tail) < total)
            return RX_ERR_AGAIN;
    }
    if (need > contig) {
        rx_shm_rec_t *w = (rx_shm_rec_t *)(t->data + pos);
        w->len = RX_SHM_REC_WRAP;
        rx_shm_publish(t, w, contig, size);
        pos = 0;
    }
    rx_shm_rec_t *rec = (rx_shm_rec_t *)(t->data + pos);
    rec->len = (uint32_t)len;
    rec->hdr = *hdr;
    if (len)
        memcpy(rec + 1, payload, len);
    rx_shm_publish(t, rec, need, size);
    if (shm->block_waits) {
        atomic_thread_fence(memory_order_seq_cst);
        if (atomic_load_explicit(&t->peer_ctl->sleeping, memory_order_relaxed))
            rx_shm_doorbell_ring(t->peer_ctl);
    }
    return RX_OK;
}

static int rx_shm_progress(rx_tl_t *tl)
{
    rx_shm_t *shm = (rx_shm_t *)tl;
    const uint64_t mask = shm->ring_size - 1;
    int delivered = 0;
    for (int i = 0; i < shm->nrx; i++) {
        rx_shm_rx_t *r = &shm->rx[i];
        /* a bounded burst per ring keeps one busy sender from starving others */
        for (int burst = 0; burst < 32; burst++) {
            rx_shm_rec_t *rec = (rx_shm_rec_t *)(r->data + (r->pos & mask));
            if (atomic_load_explicit(&rec->seq, memory_order_acquire) != r->seq)
                break;
            r->seq++;
            if (rec->len == RX_SHM_REC_WRAP) {
                r->pos += shm->ring_size - (r->pos & mask);
            } else if (__builtin_expect(rec->hdr.type == RX_SHM_AM_COOP, 0)) {
                rx_shm_coop_help(shm, r->world_src, (uint32_t)rec->hdr.cookie);
                r->pos += rx_shm_rec_size(rec->len);
            } else {
                shm->handler(shm->handler_arg, r->world_src, &rec->hdr, rec + 1, rec->len);
                r->pos += rx_shm_rec_size(rec->len);
                delivered++;
            }
            atomic_store_explicit(&r->ctl->tail, r->pos, memory_order_release);
        }
    }
    return delivered;
}

static void rx_shm_sleep(rx_tl_t *tl, int timeout_us)
{
    rx_shm_doorbell_sleep((rx_shm_t *)tl, timeout_us);
}

static void rx_shm_fini(rx_tl_t *tl)
{
    rx_shm_t *shm = (rx_shm_t *)tl;
    rx_shm_segment_release(shm);
    free(shm->tx);
    free(shm->rx);
    free(shm->pid_of);
    free(shm->reach);
    free(shm->coop_in);
    free((void *)shm->copy_err);
    free(shm);
}

/* Single copy by cross-memory attach only where the node-wide probe
 * passed (caps say so before anyone calls). */
static int rx_shm_get(rx_tl_t *tl, int world_peer, void *local, size_t len,
                      const rx_rkey_t *rkey, uint64_t offset)
{
    if (!((rx_shm_t *)tl)->cma)
        return RX_ERR_UNSUPPORTED;
    return rx_shm_cma_get(tl, world_peer, local, len, rkey, offset);
}

static int rx_shm_put(rx_tl_t *tl, int world_peer, const void *local, size_t len,
                      const rx_rkey_t *rkey, uint64_t offset)
{
    if (!((rx_shm_t *)tl)->cma)
        return RX_ERR_UNSUPPORTED;
    return rx_shm_cma_put(tl, world_peer, local, len, rkey, offset);
}

static int rx_shm_getv(rx_tl_t *tl, int world_peer, const struct iovec *local, size_t nlocal,
                       const struct iovec *remote, size_t nremote, const rx_rkey_t *rkey)
{
    if (!((rx_shm_t *)tl)->cma)
        return RX_ERR_UNSUPPORTED;
    return rx_shm_cma_getv(tl, world_peer, local, nlocal, remote, nremote, rkey);
}

/* get / put complete before they return: nothing to flush, no nonblocking
 * forms; atomics go through mapped memory or active messages above. */
static const rx_tl_ops_t rx_shm_ops = {
    .am_send = rx_shm_am_send,
    .progress = rx_shm_progress,
    .sleep = rx_shm_sleep,
    .mem_reg = rx_tl_mem_reg_pid,
    .mem_release = rx_tl_mem_release_none,
    .get = rx_shm_get,
    .put = rx_shm_put,
    .get_nb = rx_tl_get_nb_unsupported,
    .put_nb = rx_tl_put_nb_unsupported,
    .getv = rx_shm_getv,
    .atomic = rx_tl_atomic_unsupported,
    .flush = rx_tl_flush_complete,
    .rma_expose = rx_tl_rma_expose_none,
    .fini = rx_shm_fini,
};

int rx_tl_shm_ops_for_test(rx_shm_t *shm, rx_tl_t **out)
{
    rx_tl_t *tl = &shm->tl;
    tl->ops = &rx_shm_ops;
    tl->name = "shm";
    tl->caps = RX_TL_CAP_WAKE;
    tl->reaches = shm->reach;
    tl->priv = shm;
    tl->max_am_payload = shm->ring_size / 4 - sizeof(rx_shm_rec_t);
    tl->eager_limit = tl->max_am_payload;
    *out = tl;
    return RX_OK;
}

int rx_tl_shm_create(const rx_tl_job_t *job, rx_tl_t **out)
{
    rx_shm_t *shm = calloc(1, sizeof *shm);
    if (!shm)
        return RX_ERR_NOMEM;
    shm->tx = calloc((size_t)job->size, sizeof *shm->tx);
    shm->rx = calloc((size_t)job->local_size, sizeof *shm->rx);
    shm->pid_of = calloc((size_t)job->size, sizeof *shm->pid_of);
    shm->reach = calloc((size_t)job->peers_max, 1);
    shm->coop_in = calloc((size_t)job->size, sizeof *shm->coop_in);
    shm->copy_err = calloc((size_t)job->size, sizeof *shm->copy_err);
    shm->local_rank = job->local_rank;
    shm->local_size = job->local_size;
    shm->block_waits = job->block_waits;
    shm->handler = job->am_handler;
    shm->handler_arg = job->am_arg;
    rx_tl_t *tl;
    rx_tl_shm_ops_for_test(shm, &tl);
    int rc = (shm->tx && shm->rx && shm->pid_of && shm->reach && shm->coop_in &&
              shm->copy_err) ? RX_OK : RX_ERR_NOMEM;
    if (rc == RX_OK)
        rc = rx_shm_segment_create(shm, job);
    if (rc == RX_OK)
        rc = rx_shm_cma_probe(shm, job);
    if (rc != RX_OK) {
        tl->ops->fini(tl);
        return rc;
    }
    rx_shm_set_limits(shm);
    *out = tl;
    return RX_OK;
}

void rx_shm_set_limits(rx_shm_t *shm)
{
    rx_tl_t *tl = &shm->tl;
    /* a record must fit in a quarter ring so several are in flight */
    tl->max_am_payload = shm->ring_size / 4 - sizeof(rx_shm_rec_t);
    long long eager = rx_config()->SHM_EAGER_LIMIT;
    tl->eager_limit = eager < 0 ? 0 : (size_t)eager;
    if (tl->eager_limit > tl->max_am_payload)
        tl->eager_limit = tl->max_am_payload;
    long long cmin = rx_config()->SHM_COOP_MIN, cch = rx_config()->SHM_COOP_CHUNK;
    shm->coop_min = cmin <= 0 ? SIZE_MAX : (size_t)cmin;
    shm->coop_chunk = cch < 4096 ? 4096 : (size_t)cch;
    if (shm->cma)
        tl->caps |= RX_TL_CAP_GET | RX_TL_CAP_PUT | RX_TL_CAP_GETV | RX_TL_CAP_ANY_MEMORY;
}
