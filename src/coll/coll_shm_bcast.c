/* SPDX-License-Identifier: MIT
 * Node-shared-memory broadcast through the ring of coll_shm.h: the root
 * copies the message into ring entries (inline in the entry's line up to
 * 48 bytes, else RX_BC_CHUNK bytes per entry) and publishes each one; the
 * others copy it out and acknowledge. The root waits only for ring space,
 * so back-to-back broadcasts pipeline: a root is never held in lockstep
 * with its receivers, and a large message streams through the ring in
 * chunks while receivers copy the earlier ones. node_select.c takes it up
 * to RDMX_COLL_SHM_BCAST_MAX bytes (every size from 64 KiB on
 * oversubscribed nodes). */
#include "coll_shm.h"

/* Root: wait until entry t may be written (every rank has used t - K). */
void rx_shm_ring_space(rx_shm_state_t *st, uint64_t t)
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

void rx_shm_ring_bcast(rx_shm_state_t *st, void *buf, size_t bytes, int root)
{
    if (bytes == 0) /* every rank agrees on the size: nothing to move */
        return;
    int me = st->c->rank;
    size_t done = 0;
    do {
        uint64_t t = ++st->bseq;
        size_t k = (size_t)(t % RX_BC_DEPTH), n = bytes - done;
        rx_shm_line_t *l = &st->bc_line[k];
        if (n > RX_BC_CHUNK)
            n = RX_BC_CHUNK;
        void *data = bytes <= RX_INLINE ? (void *)l->data : (void *)(st->bc_data + k * RX_BC_CHUNK);
        if (me == root) {
            rx_shm_ring_space(st, t);
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
}
