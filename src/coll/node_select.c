/* SPDX-License-Identifier: MIT
 * The node path's selector: the one place that decides whether a
 * collective of a communicator whose members share a node runs through its
 * shared region, and by which leaf (coll_shm.h lists them): slot, ring,
 * direct, direct reduction or streamed reduction. A call none of them fits is declined
 * (RX_COLL_DECLINED) and the caller runs a schedule.
 *
 * Every input to a choice is something every member agrees on (arguments,
 * configuration, the node's oversubscription, whether cross-memory attach
 * works between all of them), so all members take the same leaf and their
 * sequence numbers stay in step. The crossovers were measured at 2 to 4
 * ranks on the 2-core reference machine (docs/collectives.md). */
#include "coll_shm.h"
#include "offload.h"
#include "util/config.h"
#include "util/status.h"

#include <stdint.h>

/* Bytes per block / message from which the direct leaf beats the copies
 * through slot or ring: below them the final wait for every reader costs
 * more than the second copy saves; above the slot size the direct leaf
 * replaces the point-to-point schedules. The bcast's is where every rank
 * has a CPU (the ring's root runs ahead while receivers copy, which the
 * direct leaf's wait for every reader does not allow; docs/collectives.md). */
#define RX_XO_DIRECT_BCAST 32768
#define RX_XO_DIRECT_ALLGATHER 16384
#define RX_XO_DIRECT_ALLTOALL 16384
/* A two-rank Reduce streams through the ring from here (2 ranks, µs,
 * against the slot path or the direct reduction: 16 KiB 2.0 / 3.8, 64 KiB
 * 8.1 / 14.8, 1 MiB 115 / 157, 4 MiB 584 / 1,130; docs/collectives.md). */
#define RX_XO_STREAM_REDUCE 8192
/* oversubscribed nodes: bcast through the ring from here even above
 * RDMX_COLL_SHM_BCAST_MAX, at every size (measured with 4 and 8 ranks on
 * 2 cores); below it the ring takes every bcast it may */
#define RX_XO_RING_OVERSUB 65536

/* c's region, made by this call if it has none yet (a step every member
 * takes: only blocking calls come here). */
static rx_shm_state_t *rx_node_region(rx_comm_t *c)
{
    rx_shm_state_t *st = rx_shm_existing(c);
    return st ? st : rx_shm_state(c, rx_coll_offload_vote());
}

/* The region state if the node path may take a collective of kind whose
 * contribution per rank is bytes: members on one node, within
 * RDMX_COLL_SHM_MAX, not forced to a schedule. Nonblocking operations
 * still in flight there hold earlier sequence numbers: they finish first. */
static rx_shm_state_t *rx_node_state(rx_comm_t *c, size_t bytes, int kind)
{
    long long max = rx_config()->COLL_SHM_MAX;
    if (c->size < 2 || c->local_size != c->size || max <= 0 || bytes > (size_t)max)
        return NULL;
    int forced = rx_coll_forced(kind);
    if (forced != RX_ALGO_AUTO && forced != RX_ALGO_SHM)
        return NULL;
    rx_shm_state_t *st = rx_node_region(c);
    if (st && st->offload_pending)
        rx_shm_drain(st);
    return st;
}

/* The same for the direct leaves, which also need cross-memory attach. */
static rx_shm_state_t *rx_node_direct(rx_comm_t *c, int kind)
{
    rx_shm_state_t *st = rx_node_state(c, 0, kind);
    return st && rx_shm_direct_usable(st) ? st : NULL;
}

/* Whether a reduction of count elements of dt takes the direct reduction:
 * contiguous, above the slot, and where every rank has a CPU unless the
 * node path is forced (on oversubscribed nodes every wait for all readers
 * costs a descheduled peer). */
static int rx_node_direct_red_fits(int kind, const rx_dtype_t *dt, size_t count)
{
    long long max = rx_config()->COLL_SHM_MAX;
    size_t ext = (size_t)dt->extent;
    int forced = rx_coll_forced(kind);
    return max > 0 && dt->contig && ext > 0 && count * ext > (size_t)max &&
           (forced == RX_ALGO_SHM || (forced == RX_ALGO_AUTO && !rx_rt.oversubscribed));
}

/* Blocks of bytes go the direct way from the crossover on, and wherever the
 * contribution of nblocks of them would not fit a slot. */
static int rx_node_direct_size(size_t bytes, size_t nblocks, size_t xo)
{
    long long max = rx_config()->COLL_SHM_MAX;
    return bytes >= xo || (nblocks && bytes > (max > 0 ? (size_t)max : 0) / nblocks);
}

int rx_coll_node_barrier(rx_comm_t *c)
{
    rx_shm_state_t *st = rx_node_state(c, 0, RX_COLL_BARRIER);
    if (!st)
        return RX_COLL_DECLINED;
    rx_shm_slot_barrier(st);
    return RX_OK;
}

/* Whether the ring may take a bcast of bytes: up to
 * RDMX_COLL_SHM_BCAST_MAX, and with more ranks than CPUs at every size from
 * RX_XO_RING_OVERSUB unless that is 0 (there the direct leaf's final wait
 * for every reader costs more than the ring's second copy; the measurements
 * are in docs/collectives.md). */
static int rx_node_bcast_ring_fits(size_t bytes)
{
    long long max = rx_config()->COLL_SHM_BCAST_MAX;
    if (max < 0)
        return 0;
    return bytes <= (size_t)max || (rx_rt.oversubscribed && max > 0 && bytes >= RX_XO_RING_OVERSUB);
}

/* Whether a bcast of bytes goes the direct way when cross-memory attach
 * works: from the crossover; with more ranks than CPUs only what the ring
 * may not take (3 and 4 ranks on 2 cores, 8-32 KiB: the ring takes
 * 0.25-0.5 of the direct leaf's time). */
static int rx_node_bcast_direct_first(size_t bytes)
{
    return bytes >= RX_XO_DIRECT_BCAST && (!rx_rt.oversubscribed || !rx_node_bcast_ring_fits(bytes));
}

int rx_coll_node_bcast(void *buf, size_t bytes, int root, rx_comm_t *c)
{
    rx_shm_state_t *st;
    if (rx_node_bcast_direct_first(bytes) && (st = rx_node_direct(c, RX_COLL_BCAST)))
        return rx_shm_direct_bcast(st, buf, bytes, root);
    if (!rx_node_bcast_ring_fits(bytes))
        return RX_COLL_DECLINED;
    if (!(st = rx_node_state(c, 0, RX_COLL_BCAST)))
        return RX_COLL_DECLINED;
    rx_shm_ring_bcast(st, buf, bytes, root);
    return RX_OK;
}

/* Through the slots: the whole vector within one. root -1: allreduce. */
static int rx_node_slot_red(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                            const rx_opobj_t *op, int root, rx_comm_t *c, int kind)
{
    if (!dt->contig || count == 0)
        return RX_COLL_DECLINED;
    rx_shm_state_t *st = rx_node_state(c, count * (size_t)dt->extent, kind);
    if (!st)
        return RX_COLL_DECLINED;
    rx_shm_slot_reduce(st, sbuf, rbuf, count, dt, op, root);
    return RX_OK;
}

int rx_coll_node_allreduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                           const rx_opobj_t *op, rx_comm_t *c)
{
    long long max = rx_config()->COLL_SHM_MAX;
    size_t ext = (size_t)dt->extent;
    rx_shm_state_t *st;
    /* Above the slot, when every rank has a CPU (or the node path is
     * forced): the direct reduction reads the inputs in place (2 ranks,
     * 256 KiB-4 MiB: 0.65-0.8 of the point-to-point schedules). */
    if (rx_node_direct_red_fits(RX_COLL_ALLREDUCE, dt, count) &&
        (st = rx_node_direct(c, RX_COLL_ALLREDUCE)))
        return rx_dir_run_on(st, sbuf, rbuf, count, dt, op, -1);
    if (!rx_rt.oversubscribed || max <= 0 || !dt->contig || ext == 0 || ext > (size_t)max ||
        count * ext <= (size_t)max)
        return rx_node_slot_red(sbuf, rbuf, count, dt, op, -1, c, RX_COLL_ALLREDUCE);
    /* With more ranks than CPUs, a large allreduce through the slots, one
     * slot-sized piece after the other, beats the point-to-point schedules
     * (8 ranks on 2 cores: every message of those waits for a descheduled
     * peer, while a slot round needs each rank once). Elements are reduced
     * independently, so the pieces give the same result. */
    size_t per = (size_t)max / ext;
    if (!(st = rx_node_state(c, per * ext, RX_COLL_ALLREDUCE)))
        return RX_COLL_DECLINED;
    for (size_t done = 0; done < count; done += per) {
        size_t n = count - done < per ? count - done : per;
        rx_shm_slot_reduce(st, (const char *)sbuf + done * ext, (char *)rbuf + done * ext, n, dt,
                           op, -1);
    }
    return RX_OK;
}

int rx_coll_node_reduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                        const rx_opobj_t *op, int root, rx_comm_t *c)
{
    rx_shm_state_t *st;
    size_t ext = (size_t)dt->extent;
    /* Two ranks from the crossover: streamed through the ring, the
     * non-root's copy and the root's combine at once */
    if (c->size == 2 && dt->contig && ext > 0 && ext <= RX_BC_CHUNK &&
        count * ext >= RX_XO_STREAM_REDUCE && (st = rx_node_state(c, 0, RX_COLL_REDUCE))) {
        rx_shm_stream_reduce(st, sbuf, rbuf, count, dt, op, root);
        return RX_OK;
    }
    /* above the slot, as the allreduce: single copy where every rank has a CPU */
    if (rx_node_direct_red_fits(RX_COLL_REDUCE, dt, count) &&
        (st = rx_node_direct(c, RX_COLL_REDUCE)))
        return rx_dir_run_on(st, sbuf, rbuf, count, dt, op, root);
    return rx_node_slot_red(sbuf, rbuf, count, dt, op, root, c, RX_COLL_REDUCE);
}

int rx_coll_node_allgather(const void *sbuf, size_t bytes, void *rbuf, rx_comm_t *c)
{
    rx_shm_state_t *st;
    if (rx_node_direct_size(bytes, 1, RX_XO_DIRECT_ALLGATHER) &&
        (st = rx_node_direct(c, RX_COLL_ALLGATHER)))
        return rx_shm_direct_allgather(st, sbuf, bytes, rbuf);
    if (!(st = rx_node_state(c, bytes, RX_COLL_ALLGATHER)))
        return RX_COLL_DECLINED;
    rx_shm_slot_allgather(st, sbuf, bytes, rbuf);
    return RX_OK;
}

int rx_coll_node_alltoall(const void *sbuf, size_t bytes, void *rbuf, rx_comm_t *c)
{
    size_t p = (size_t)c->size;
    if (bytes && bytes > SIZE_MAX / p)
        return RX_COLL_DECLINED; /* the schedule reports what does not fit */
    rx_shm_state_t *st;
    if (rx_node_direct_size(bytes, p, RX_XO_DIRECT_ALLTOALL) &&
        (st = rx_node_direct(c, RX_COLL_ALLTOALL)))
        return rx_shm_direct_alltoall(st, sbuf, bytes, rbuf);
    if (!(st = rx_node_state(c, bytes * p, RX_COLL_ALLTOALL)))
        return RX_COLL_DECLINED;
    rx_shm_slot_alltoall(st, sbuf, bytes, rbuf);
    return RX_OK;
}

int rx_coll_node_gather(const void *sbuf, size_t bytes, void *rbuf, int root, rx_comm_t *c)
{
    rx_shm_state_t *st = rx_node_state(c, bytes, RX_COLL_GATHER);
    if (!st)
        return RX_COLL_DECLINED;
    rx_shm_slot_gather(st, sbuf, bytes, rbuf, root);
    return RX_OK;
}

int rx_coll_node_scatter(const void *sbuf, size_t bytes, void *rbuf, int root, rx_comm_t *c)
{
    size_t p = (size_t)c->size;
    if (bytes && bytes > SIZE_MAX / p)
        return RX_COLL_DECLINED;
    rx_shm_state_t *st = rx_node_state(c, bytes * p, RX_COLL_SCATTER);
    if (!st)
        return RX_COLL_DECLINED;
    rx_shm_slot_scatter(st, sbuf, bytes, rbuf, root);
    return RX_OK;
}

int rx_coll_node_iallreduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                            const rx_opobj_t *op, rx_comm_t *c, rx_req_t **out)
{
    size_t bytes = count * (size_t)dt->extent;
    long long min = rx_config()->COLL_OFFLOAD_MIN;
    int forced = rx_coll_forced(RX_COLL_ALLREDUCE);
    if (!dt->contig || !op->predefined || bytes == 0 ||
        (forced != RX_ALGO_AUTO && forced != RX_ALGO_SHM))
        return RX_COLL_DECLINED;
    /* only a region made earlier: a nonblocking call must not block on its
     * peers to make one */
    rx_shm_state_t *st = rx_shm_existing(c);
    if (!st || !rx_shm_direct_usable(st))
        return RX_COLL_DECLINED;
    /* the members agreed on st->offload when they made the region */
    int thread = st->offload && forced == RX_ALGO_AUTO && bytes >= (size_t)(min > 0 ? min : 0);
    if (!thread && !rx_node_direct_red_fits(RX_COLL_ALLREDUCE, dt, count))
        return RX_COLL_DECLINED;
    return rx_coll_offload_start(st, sbuf, rbuf, count, dt, op, thread, out);
}

/* The node phases of the hierarchical collectives (node_hier.c) on a node
 * group's region: the leaves a node-local communicator would take for the
 * same sizes, and for what no leaf of that choice takes (reductions above
 * the slot on oversubscribed nodes or without cross-memory attach, large
 * bcasts) the slot pieces and the ring, which take any size. */
int rx_node_phase_reduce(rx_shm_state_t *st, const void *sbuf, void *rbuf, size_t count,
                         const rx_dtype_t *dt, const rx_opobj_t *op, int root)
{
    size_t ext = (size_t)dt->extent, max = (size_t)rx_config()->COLL_SHM_MAX;
    if (count * ext > max && !rx_rt.oversubscribed && rx_shm_direct_usable(st))
        return rx_dir_run_on(st, sbuf, rbuf, count, dt, op, root);
    size_t per = max / ext;
    for (size_t done = 0; done < count; done += per) {
        size_t n = count - done < per ? count - done : per;
        rx_shm_slot_reduce(st, (const char *)sbuf + done * ext, (char *)rbuf + done * ext, n, dt,
                           op, root);
    }
    return RX_OK;
}

int rx_node_phase_bcast(rx_shm_state_t *st, void *buf, size_t bytes, int root)
{
    if (rx_node_bcast_direct_first(bytes) && rx_shm_direct_usable(st))
        return rx_shm_direct_bcast(st, buf, bytes, root);
    rx_shm_ring_bcast(st, buf, bytes, root);
    return RX_OK;
}
