/* SPDX-License-Identifier: MIT
 * Slot leaf of the node path (protocol in coll_shm.h): barrier, and reduce
 * and allreduce of vectors that fit a slot (RDMX_COLL_SHM_MAX bytes).
 * Broadcast: coll_shm_bcast.c; gather, scatter, allgather and alltoall:
 * coll_shm_move.c; which one runs: node_select.c.
 *
 * Larger reductions split the vector: each rank combines its share across
 * all slots into res, then everyone copies res out. Operands are combined
 * in rank order, so non-commutative ops are exact and every rank gets
 * bit-identical results. */
#include "coll_shm.h"

#define RX_SHM_SPLIT 4096 /* reductions above: split the work across ranks */

void rx_shm_slot_barrier(rx_shm_state_t *st)
{
    uint64_t s = ++st->seq;
    rx_st(&rx_ctrl(st, st->c->rank, s)->seq, s);
    rx_wait_all(st, s);
}

/* dst[elements lo..lo+n) = x_0 op (x_1 op (... op x_{p-1})) over the
 * contributions of s, highest rank first so each step is in op inout. */
static void rx_combine(rx_shm_state_t *st, char *dst, size_t lo, size_t n, size_t bytes,
                       const rx_dtype_t *dt, const rx_opobj_t *op, uint64_t s)
{
    int p = st->c->size;
    size_t o = lo * (size_t)dt->extent;
    memcpy(dst, rx_contrib(st, p - 1, bytes, s) + o, n * (size_t)dt->extent);
    for (int j = p - 2; j >= 0; j--)
        rx_opobj_apply(op, dt, rx_contrib(st, j, bytes, s) + o, dst, n);
}

/* Every rank combines everything itself (small), or each rank combines its
 * share into res and everyone reads res (split). root -1: allreduce. */
void rx_shm_slot_reduce(rx_shm_state_t *st, const void *sbuf, void *rbuf, size_t count,
                        const rx_dtype_t *dt, const rx_opobj_t *op, int root)
{
    size_t bytes = count * (size_t)dt->extent;
    uint64_t s = ++st->seq;
    int p = st->c->size, me = st->c->rank, all = root < 0;
    rx_put_contrib(st, sbuf, bytes, s);
    if (bytes <= RX_SHM_SPLIT || count < (size_t)p) {
        if (all || me == root) {
            rx_wait_all(st, s);
            rx_combine(st, rbuf, 0, count, bytes, dt, op, s);
        }
        return;
    }
    size_t q = count / (size_t)p, rem = count % (size_t)p;
    size_t lo = (size_t)me * q + ((size_t)me < rem ? (size_t)me : rem), n = q + ((size_t)me < rem);
    char *res = st->res + (size_t)(s & 1) * st->slot;
    rx_wait_all(st, s);
    rx_combine(st, res + lo * (size_t)dt->extent, lo, n, bytes, dt, op, s);
    rx_st(&st->done[me].seq, s);
    if (all || me == root) {
        for (int j = 0; j < p; j++)
            rx_shm_wait(&st->done[j].seq, s);
        memcpy(rbuf, res, bytes);
    }
}
