/* SPDX-License-Identifier: MIT
 * Node-shared-memory broadcast through the ring of coll_shm.h: the root
 * copies the message into ring entries (inline in the entry's line up to
 * 48 bytes, else RX_BC_CHUNK bytes per entry) and publishes each one; the
 * others copy it out and acknowledge. The root waits only for ring space,
 * so back-to-back broadcasts pipeline: a root is never held in lockstep
 * with its receivers, and a large message streams through the ring in
 * chunks while receivers copy the earlier ones. Up to
 * RDMX_COLL_SHM_BCAST_MAX bytes (every size from 64 KiB on oversubscribed
 * nodes). */
#include "coll_shm.h"
#include "util/config.h"
#include "util/status.h"

/* Root: wait until entry t may be written (every rank has used t - K). */
static void rx_bc_space(rx_shm_state_t *st, uint64_t t)
{
    if (t <= st->bfree)
        return;
    uint64_t low = UINT64_MAX;
    for (int j = 0; j < st->c->size; j++) {
        if (j == st->c->rank)
            continue;
        rx_shm_wait(&st->bc_ack[j].seq, t - RX_BC_DEPTH);
        uint64_t a = rx_ld(&st->bc_ack[j].seq);
        low = a < low ? a : low;
    }
    st->bfree = low + RX_BC_DEPTH;
}

int rx_coll_shm_bcast(void *buf, size_t bytes, int root, rx_comm_t *c)
{
    long long max = rx_config()->COLL_SHM_BCAST_MAX;
    /* With more ranks than CPUs the direct path's final wait for every
     * reader costs more than the ring's second copy from RX_XO_RING_OVERSUB
     * up, whatever the size (8 ranks on 2 cores: 64 KiB 43 against 70 us,
     * 1 MiB 0.73 against 0.94 ms, 4 MiB 1.3-1.5 against 2.3-2.6 ms; 4 ranks
     * 4 MiB 0.68-0.71 against 1.4-1.9 ms), so there the ring's size limit
     * does not apply; the choice depends only on values every rank shares. */
    int ring_first = rx_rt.oversubscribed && bytes >= RX_XO_RING_OVERSUB && max > 0;
    if (bytes >= RX_XO_DIRECT_BCAST && !ring_first) {
        int rc = rx_shm_direct_bcast(buf, bytes, root, c);
        if (rc != RX_ERR_AGAIN)
            return rc;
    }
    if (max < 0 || (bytes > (size_t)max && !ring_first))
        return RX_ERR_AGAIN;
    rx_shm_state_t *st = rx_shm_get(c, 0, RX_COLL_BCAST);
    if (!st)
        return RX_ERR_AGAIN;
    if (bytes == 0) /* every rank agrees on the size: nothing to move */
        return RX_OK;
    int me = c->rank;
    size_t done = 0;
    do {
        uint64_t t = ++st->bseq;
        size_t k = (size_t)(t % RX_BC_DEPTH), n = bytes - done;
        rx_shm_line_t *l = &st->bc_line[k];
        if (n > RX_BC_CHUNK)
            n = RX_BC_CHUNK;
        void *data = bytes <= RX_INLINE ? (void *)l->data : (void *)(st->bc_data + k * RX_BC_CHUNK);
        if (me == root) {
            rx_bc_space(st, t);
            memcpy(data, (char *)buf + done, n);
            rx_st(&l->seq, t);
        } else {
            rx_shm_wait(&l->seq, t);
            memcpy((char *)buf + done, data, n);
        }
        /* the root acknowledges too: it may be a receiver of a later root */
        rx_st(&st->bc_ack[me].seq, t);
        done += n;
    } while (done < bytes);
    return RX_OK;
}
