/* SPDX-License-Identifier: MIT
 * Node-shared-memory collectives for communicators whose members are all on
 * one node: the per-communicator region (layout and protocol in
 * coll_shm.h), barrier, reduce and allreduce up to RDMX_COLL_SHM_MAX bytes,
 * from the first call on (the region is made by the first collective that
 * can use it). Broadcast: coll_shm_bcast.c; gather, scatter, allgather and
 * alltoall: coll_shm_move.c.
 *
 * Larger reductions split the vector: each rank combines its share across
 * all slots into res, then everyone copies res out. Operands are combined
 * in rank order, so non-commutative ops are exact and every rank gets
 * bit-identical results. */
#include "coll_shm.h"
#include "offload.h"
#include "util/config.h"
#include "util/log.h"
#include "util/status.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#ifdef MADV_POPULATE_WRITE
#define RX_MADV_POPULATE_WRITE MADV_POPULATE_WRITE
#else
#define RX_MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

#define RX_SHM_SPLIT 4096 /* reductions above: split the work across ranks */

static rx_shm_state_t **rx_shm_tab; /* by communicator handle index */
static int rx_shm_ntab;


static rx_shm_state_t *rx_shm_lookup(rx_comm_t *c)
{
    if (c->handle < rx_shm_ntab && rx_shm_tab[c->handle] && rx_shm_tab[c->handle]->c == c)
        return rx_shm_tab[c->handle];
    return NULL;
}

void rx_coll_comm_release(rx_comm_t *c)
{
    rx_shm_state_t *st = rx_shm_lookup(c);
    if (!st)
        return;
    rx_coll_offload_drain(st);
    if (st->base)
        rx_region_detach(st->base, st->size);
    rx_shm_tab[c->handle] = NULL;
    free(st);
}

static rx_shm_state_t *rx_shm_create(rx_comm_t *c)
{
    if (c->handle >= rx_shm_ntab) {
        int n = c->handle + 16;
        rx_shm_state_t **t = realloc(rx_shm_tab, sizeof *t * (size_t)n);
        if (!t)
            return NULL;
        memset(t + rx_shm_ntab, 0, sizeof *t * (size_t)(n - rx_shm_ntab));
        rx_shm_tab = t;
        rx_shm_ntab = n;
    }
    rx_shm_state_t *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    st->c = c;
    st->cma = -1;
    rx_shm_tab[c->handle] = st;
    size_t p = (size_t)c->size;
    st->slot = ((size_t)rx_config()->COLL_SHM_MAX + RX_LINE - 1) & ~(size_t)(RX_LINE - 1);
    st->size = (p * 5 + RX_BC_DEPTH) * RX_LINE + (2 * p + 2) * st->slot +
               (size_t)RX_BC_DEPTH * RX_BC_CHUNK;
    st->creating = 1;
    st->offload = rx_coll_offload_vote();
    int rc = rx_coll_shared_region_vote(c, st->size, &st->base, &st->offload);
    st->creating = 0;
    if (rc == RX_OK && st->offload)
        rx_log_info("large nonblocking allreduces of a %d-rank communicator go to the offload thread",
                    c->size);
    if (rc != RX_OK) {
        rx_log_warn("node-shared collectives off for a communicator: %s", rx_status_string(rc));
        st->failed = 1;
        st->base = NULL;
        return st;
    }
    /* Map every page now: otherwise the first collectives that reach a new
     * slot or ring entry pay page faults in every rank (tens of
     * microseconds at 8 ranks), and a benchmark sees them as a slow size.
     * Kernels before 5.14 refuse the advice; the pages then fault later. */
    {
        uintptr_t a = (uintptr_t)st->base & ~(uintptr_t)4095;
        madvise((void *)a, st->size + ((uintptr_t)st->base - a), RX_MADV_POPULATE_WRITE);
    }
    /* rank 0 created the region zeroed; seq 0 means nothing arrived */
    st->ctrl = st->base;
    st->done = st->ctrl + 2 * p;
    st->fin = st->done + p;
    st->bc_ack = st->fin + p;
    st->bc_line = st->bc_ack + p;
    st->slots = (char *)(st->bc_line + RX_BC_DEPTH);
    st->res = st->slots + 2 * p * st->slot;
    st->bc_data = st->res + 2 * st->slot;
    st->bfree = RX_BC_DEPTH;
    return st;
}

/* The state for c if the shm path may take a collective of bytes; may_queue:
 * the caller queues to the offload thread, so need not wait for it. */
rx_shm_state_t *rx_shm_get_for(rx_comm_t *c, size_t bytes, int kind, int may_queue)
{
    long long max = rx_config()->COLL_SHM_MAX;
    if (c->size < 2 || c->local_size != c->size || max <= 0 || bytes > (size_t)max)
        return NULL;
    int forced = rx_coll_forced(kind);
    if (forced != RX_ALGO_AUTO && forced != RX_ALGO_SHM)
        return NULL;
    rx_shm_state_t *st = rx_shm_lookup(c);
    if (!st)
        st = rx_shm_create(c);
    if (!st || st->failed || st->creating)
        return NULL;
    if (st->offload_pending && !may_queue)
        rx_coll_offload_drain(st); /* its operations hold earlier sequence numbers */
    return st;
}

rx_shm_state_t *rx_shm_get(rx_comm_t *c, size_t bytes, int kind)
{
    return rx_shm_get_for(c, bytes, kind, 0);
}

rx_shm_state_t *rx_shm_existing(rx_comm_t *c)
{
    rx_shm_state_t *st = rx_shm_lookup(c);
    return st && !st->failed && !st->creating ? st : NULL;
}

int rx_coll_shm_barrier(rx_comm_t *c)
{
    rx_shm_state_t *st = rx_shm_get(c, 0, RX_COLL_BARRIER);
    if (!st)
        return RX_ERR_AGAIN;
    uint64_t s = ++st->seq;
    rx_st(&rx_ctrl(st, c->rank, s)->seq, s);
    rx_wait_all(st, s);
    return RX_OK;
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

/* Reductions: every rank combines everything itself (small), or each rank
 * combines its share into res and everyone reads res (split). */
static int rx_shm_red(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                      const rx_opobj_t *op, int root, rx_comm_t *c, int kind)
{
    size_t bytes = count * (size_t)dt->extent;
    if (!dt->contig || count == 0)
        return RX_ERR_AGAIN;
    rx_shm_state_t *st = rx_shm_get(c, bytes, kind);
    if (!st)
        return RX_ERR_AGAIN;
    uint64_t s = ++st->seq;
    int p = c->size, me = c->rank, all = root < 0;
    rx_put_contrib(st, sbuf, bytes, s);
    if (bytes <= RX_SHM_SPLIT || count < (size_t)p) {
        if (all || me == root) {
            rx_wait_all(st, s);
            rx_combine(st, rbuf, 0, count, bytes, dt, op, s);
        }
        return RX_OK;
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
    return RX_OK;
}

int rx_coll_shm_allreduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                          const rx_opobj_t *op, rx_comm_t *c)
{
    long long max = rx_config()->COLL_SHM_MAX;
    size_t ext = (size_t)dt->extent;
    /* Above the slot, when every rank has a CPU (or the shm path is forced):
     * the direct allreduce reads the inputs in place (2 ranks, 256 KiB-4 MiB:
     * 0.65-0.8 of the point-to-point schedules). Oversubscribed nodes keep the
     * piecewise slots below: there every wait for all readers costs a
     * descheduled peer. */
    if (rx_shm_direct_red_fits(RX_COLL_ALLREDUCE, dt, count)) {
        int rc = rx_shm_direct_allreduce(sbuf, rbuf, count, dt, op, c);
        if (rc != RX_ERR_AGAIN)
            return rc;
    }
    if (!rx_rt.oversubscribed || max <= 0 || !dt->contig || ext == 0 || ext > (size_t)max ||
        count * ext <= (size_t)max)
        return rx_shm_red(sbuf, rbuf, count, dt, op, -1, c, RX_COLL_ALLREDUCE);
    /* With more ranks than CPUs, a large allreduce through the slots, one
     * slot-sized piece after the other, beats the point-to-point schedules
     * (8 ranks on 2 cores: every message of those waits for a descheduled
     * peer, while a slot round needs each rank once). Elements are reduced
     * independently, so the pieces give the same result. */
    size_t per = (size_t)max / ext;
    for (size_t done = 0; done < count; done += per) {
        size_t n = count - done < per ? count - done : per;
        int rc = rx_shm_red((const char *)sbuf + done * ext, (char *)rbuf + done * ext, n, dt, op,
                            -1, c, RX_COLL_ALLREDUCE);
        if (rc != RX_OK)
            return done == 0 ? rc : (rc == RX_ERR_AGAIN ? RX_ERR_INTERN : rc);
    }
    return RX_OK;
}

int rx_coll_shm_reduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                       const rx_opobj_t *op, int root, rx_comm_t *c)
{
    /* above the slot, as the allreduce: single copy where every rank has a CPU */
    if (rx_shm_direct_red_fits(RX_COLL_REDUCE, dt, count)) {
        int rc = rx_shm_direct_reduce(sbuf, rbuf, count, dt, op, root, c);
        if (rc != RX_ERR_AGAIN)
            return rc;
    }
    return rx_shm_red(sbuf, rbuf, count, dt, op, root, c, RX_COLL_REDUCE);
}
