/* SPDX-License-Identifier: MIT
 * Streamed reduction leaf of the node path: a Reduce of two ranks above
 * the slot size (node_select.c chooses it), through the broadcast ring
 * (coll_shm_bcast.c) with the non-root as its writer. The non-root copies
 * its input into ring entries and goes on as soon as the last one is
 * written; the root combines each entry with its own input straight into
 * its output as it arrives. The two ranks work at once, the root reads the
 * other's data from shared memory instead of by cross-memory attach (whose
 * page pinning costs as much as the copy), and the non-root runs up to the
 * ring's depth ahead, so back-to-back reductions pipeline as broadcasts do.
 * Entries hold whole elements; the ring's sequence and acknowledgements
 * are the broadcast's. */
#include "coll_shm.h"

/* Root: combine entry data x (elements of the non-root) with mine. The
 * result is x_0 op x_1 whoever the root is; in place at rank 0 the entry,
 * the root's until it acknowledges it, holds the combination first. */
static void rx_stream_combine(char *x, const char *own, char *out, size_t m, int root, int in_place,
                              const rx_dtype_t *dt, const rx_opobj_t *op)
{
    size_t b = m * (size_t)dt->extent;
    if (root == 1) {
        if (!in_place)
            memcpy(out, own, b);
        rx_opobj_apply(op, dt, x, out, m);
    } else if (!in_place) {
        memcpy(out, x, b);
        rx_opobj_apply(op, dt, own, out, m);
    } else {
        rx_opobj_apply(op, dt, out, x, m);
        memcpy(out, x, b);
    }
}

void rx_shm_stream_reduce(rx_shm_state_t *st, const void *sbuf, void *rbuf, size_t count,
                          const rx_dtype_t *dt, const rx_opobj_t *op, int root)
{
    int me = st->c->rank, in_place = sbuf == rbuf;
    size_t ext = (size_t)dt->extent, per = RX_BC_CHUNK / ext;
    for (size_t lo = 0; lo < count; lo += per) {
        size_t m = count - lo < per ? count - lo : per;
        uint64_t t = ++st->bseq;
        rx_shm_line_t *l = &st->bc_line[t % RX_BC_DEPTH];
        char *data = st->bc_data + (size_t)(t % RX_BC_DEPTH) * RX_BC_CHUNK;
        if (me != root) {
            rx_shm_ring_space(st, t);
            memcpy(data, (const char *)sbuf + lo * ext, m * ext);
            rx_st(&l->seq, t);
        } else {
            rx_shm_wait(&l->seq, t);
            rx_stream_combine(data, (const char *)sbuf + lo * ext, (char *)rbuf + lo * ext, m, root,
                              in_place, dt, op);
        }
        rx_st(&st->bc_ack[me].seq, t);
    }
}
