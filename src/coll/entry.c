/* SPDX-License-Identifier: MIT
 * Blocking collectives on contiguous data: the node path when its selector
 * takes the call (members on one node), the hierarchical composition with
 * node phases on the node path (members across nodes), otherwise the
 * chosen schedule run by the executor. */
#include "coll.h"
#include "util/status.h"

static rx_coll_exec_t *rx_entry(rx_comm_t *c, int kind)
{
    return rx_coll_exec_for(c, kind, 1);
}

int rx_coll_sched_barrier(rx_comm_t *c)
{
    rx_coll_exec_t *e = rx_entry(c, RX_COLL_BARRIER);
    return e ? rx_coll_run(e) : RX_ERR_NOMEM;
}

int rx_coll_barrier(rx_comm_t *c)
{
    int rc = rx_coll_node_barrier(c);
    if (rc == RX_COLL_DECLINED)
        rc = rx_coll_hier_barrier(c);
    return rc != RX_COLL_DECLINED ? rc : rx_coll_sched_barrier(c);
}

int rx_coll_sched_bcast(void *buf, size_t bytes, int root, rx_comm_t *c)
{
    rx_coll_exec_t *e = rx_entry(c, RX_COLL_BCAST);
    if (!e)
        return RX_ERR_NOMEM;
    e->args.root = root;
    e->args.bytes = bytes;
    e->buf[RX_SB_OUT] = buf;
    return rx_coll_run(e);
}

int rx_coll_bcast(void *buf, size_t bytes, int root, rx_comm_t *c)
{
    int rc = rx_coll_node_bcast(buf, bytes, root, c);
    if (rc == RX_COLL_DECLINED)
        rc = rx_coll_hier_bcast(buf, bytes, root, c);
    return rc != RX_COLL_DECLINED ? rc : rx_coll_sched_bcast(buf, bytes, root, c);
}

static rx_coll_exec_t *rx_entry_red(rx_comm_t *c, int kind, const void *sbuf, void *rbuf,
                                    size_t count, const rx_dtype_t *dt, const rx_opobj_t *op)
{
    rx_coll_exec_t *e = rx_entry(c, kind);
    if (!e)
        return NULL;
    e->args.count = count;
    e->args.unit = (uint64_t)dt->extent;
    e->args.commute = op->commute;
    e->op = op;
    e->dt = dt;
    e->buf[RX_SB_IN] = (char *)sbuf;
    e->buf[RX_SB_OUT] = rbuf;
    return e;
}

int rx_coll_sched_reduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                         const rx_opobj_t *op, int root, rx_comm_t *c)
{
    rx_coll_exec_t *e = rx_entry_red(c, RX_COLL_REDUCE, sbuf, rbuf, count, dt, op);
    if (!e)
        return RX_ERR_NOMEM;
    e->args.root = root;
    return rx_coll_run(e);
}

int rx_coll_reduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                   const rx_opobj_t *op, int root, rx_comm_t *c)
{
    int rc = rx_coll_node_reduce(sbuf, rbuf, count, dt, op, root, c);
    if (rc == RX_COLL_DECLINED)
        rc = rx_coll_hier_reduce(sbuf, rbuf, count, dt, op, root, c);
    return rc != RX_COLL_DECLINED ? rc : rx_coll_sched_reduce(sbuf, rbuf, count, dt, op, root, c);
}

int rx_coll_sched_allreduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                            const rx_opobj_t *op, rx_comm_t *c)
{
    rx_coll_exec_t *e = rx_entry_red(c, RX_COLL_ALLREDUCE, sbuf, rbuf, count, dt, op);
    return e ? rx_coll_run(e) : RX_ERR_NOMEM;
}

int rx_coll_allreduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                      const rx_opobj_t *op, rx_comm_t *c)
{
    int rc = rx_coll_node_allreduce(sbuf, rbuf, count, dt, op, c);
    if (rc == RX_COLL_DECLINED)
        rc = rx_coll_hier_allreduce(sbuf, rbuf, count, dt, op, c);
    return rc != RX_COLL_DECLINED ? rc : rx_coll_sched_allreduce(sbuf, rbuf, count, dt, op, c);
}

int rx_coll_gather(const void *sbuf, size_t bytes, void *rbuf, int root, rx_comm_t *c)
{
    int rc = rx_coll_node_gather(sbuf, bytes, rbuf, root, c);
    if (rc != RX_COLL_DECLINED)
        return rc;
    rx_coll_exec_t *e = rx_entry(c, RX_COLL_GATHER);
    if (!e)
        return RX_ERR_NOMEM;
    e->args.root = root;
    e->args.bytes = bytes;
    /* in place at the root: the own block is its input */
    e->buf[RX_SB_IN] = sbuf ? (char *)sbuf : (char *)rbuf + (size_t)root * bytes;
    e->buf[RX_SB_OUT] = rbuf;
    return rx_coll_run(e);
}

int rx_coll_sched_allgather(const void *sbuf, size_t bytes, void *rbuf, rx_comm_t *c)
{
    rx_coll_exec_t *e = rx_entry(c, RX_COLL_ALLGATHER);
    if (!e)
        return RX_ERR_NOMEM;
    e->args.bytes = bytes;
    e->buf[RX_SB_IN] = sbuf ? (char *)sbuf : (char *)rbuf + (size_t)c->rank * bytes;
    e->buf[RX_SB_OUT] = rbuf;
    return rx_coll_run(e);
}

int rx_coll_allgather(const void *sbuf, size_t bytes, void *rbuf, rx_comm_t *c)
{
    int rc = rx_coll_node_allgather(sbuf, bytes, rbuf, c);
    return rc != RX_COLL_DECLINED ? rc : rx_coll_sched_allgather(sbuf, bytes, rbuf, c);
}
