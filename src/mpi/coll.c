/* SPDX-License-Identifier: MIT
 * Collective calls and reduction-op objects. */
#include "mpi_impl.h"
#include "coll/op.h"

#include <stdlib.h>
#include <string.h>

static int rx_coll_rc(rx_comm_t *c, int rc, const char *fn)
{
    if (rc == RX_OK)
        return MPI_SUCCESS;
    return rx_mpi_err(c, rx_mpi_class_of(rc), fn, "%s", rx_status_string(rc));
}

static int rx_check_root(rx_comm_t *c, int root, const char *fn)
{
    if (root < 0 || root >= c->size)
        return rx_mpi_err(c, MPI_ERR_ROOT, fn, "invalid root %d (communicator has %d ranks)",
                          root, c->size);
    return MPI_SUCCESS;
}

#define RX_CHECK_CONTIG(c, dt, fn) \
    if (!(dt)->contig) \
        return rx_mpi_err(c, MPI_ERR_TYPE, fn, "non-contiguous datatypes are not supported yet")

static int rx_check_op(rx_comm_t *c, MPI_Op op, const rx_dtype_t *dt, rx_opobj_t **out,
                       const char *fn)
{
    rx_opobj_t *o = rx_opobj_get(op);
    if (!o)
        return rx_mpi_err(c, MPI_ERR_OP, fn, "invalid operation%s",
                          op == MPI_OP_NULL ? " (MPI_OP_NULL)" : "");
    if (o->predefined == RX_OP_REPLACE || o->predefined == RX_OP_NO_OP)
        return rx_mpi_err(c, MPI_ERR_OP, fn, "%s is only for one-sided accumulate",
                          rx_op_name(o->predefined));
    if (!rx_opobj_valid(o, dt))
        return rx_mpi_err(c, MPI_ERR_OP, fn, "%s is not defined on %s", rx_op_name(o->predefined),
                          dt->name ? dt->name : "this datatype");
    *out = o;
    return MPI_SUCCESS;
}

int PMPI_Barrier(MPI_Comm comm)
{
    RX_CHECK_INIT("MPI_Barrier");
    RX_GET_COMM(c, comm, "MPI_Barrier");
    return rx_coll_rc(c, rx_coll_barrier(c), "MPI_Barrier");
}
RX_ALIAS(Barrier)

int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    const char *fn = "MPI_Bcast";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    RX_CHECK_COUNT(c, count, fn);
    RX_GET_DTYPE(dt, c, datatype, fn);
    RX_CHECK_BUF(c, buffer, count, fn);
    RX_CHECK_CONTIG(c, dt, fn);
    int rc = rx_check_root(c, root, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    return rx_coll_rc(c, rx_coll_bcast(buffer, (size_t)count * (size_t)dt->extent, root, c), fn);
}
RX_ALIAS(Bcast)

int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm)
{
    const char *fn = "MPI_Reduce";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    RX_CHECK_COUNT(c, count, fn);
    RX_GET_DTYPE(dt, c, datatype, fn);
    RX_CHECK_CONTIG(c, dt, fn);
    rx_opobj_t *o;
    int rc = rx_check_root(c, root, fn);
    if (rc == MPI_SUCCESS)
        rc = rx_check_op(c, op, dt, &o, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    int in_place = sendbuf == MPI_IN_PLACE;
    if (in_place && c->rank != root)
        return rx_mpi_err(c, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is only valid at the root");
    RX_CHECK_BUF(c, in_place ? recvbuf : sendbuf, count, fn);
    if (c->rank == root) {
        RX_CHECK_BUF(c, recvbuf, count, fn);
        if (!in_place && count > 0 && sendbuf == recvbuf)
            return rx_mpi_err(c, MPI_ERR_BUFFER, fn, "sendbuf and recvbuf alias (use MPI_IN_PLACE)");
    }
    return rx_coll_rc(c, rx_coll_reduce(in_place ? recvbuf : sendbuf, recvbuf, (size_t)count, dt,
                                        o, root, c), fn);
}
RX_ALIAS(Reduce)

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm)
{
    const char *fn = "MPI_Allreduce";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    RX_CHECK_COUNT(c, count, fn);
    RX_GET_DTYPE(dt, c, datatype, fn);
    RX_CHECK_CONTIG(c, dt, fn);
    rx_opobj_t *o;
    int rc = rx_check_op(c, op, dt, &o, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    int in_place = sendbuf == MPI_IN_PLACE;
    RX_CHECK_BUF(c, recvbuf, count, fn);
    if (!in_place) {
        RX_CHECK_BUF(c, sendbuf, count, fn);
        if (count > 0 && sendbuf == recvbuf)
            return rx_mpi_err(c, MPI_ERR_BUFFER, fn, "sendbuf and recvbuf alias (use MPI_IN_PLACE)");
    }
    return rx_coll_rc(c, rx_coll_allreduce(in_place ? recvbuf : sendbuf, recvbuf, (size_t)count,
                                           dt, o, c), fn);
}
RX_ALIAS(Allreduce)

int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    const char *fn = "MPI_Gather";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    int rc = rx_check_root(c, root, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    int in_place = sendbuf == MPI_IN_PLACE;
    if (in_place && c->rank != root)
        return rx_mpi_err(c, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is only valid at the root");
    size_t sbytes = 0, rbytes = 0;
    if (!in_place) {
        RX_CHECK_COUNT(c, sendcount, fn);
        RX_GET_DTYPE(sdt, c, sendtype, fn);
        RX_CHECK_CONTIG(c, sdt, fn);
        RX_CHECK_BUF(c, sendbuf, sendcount, fn);
        sbytes = (size_t)sendcount * (size_t)sdt->extent;
    }
    if (c->rank == root) {
        RX_CHECK_COUNT(c, recvcount, fn);
        RX_GET_DTYPE(rdt, c, recvtype, fn);
        RX_CHECK_CONTIG(c, rdt, fn);
        RX_CHECK_BUF(c, recvbuf, recvcount, fn);
        rbytes = (size_t)recvcount * (size_t)rdt->extent;
        if (!in_place && sbytes > rbytes)
            return rx_mpi_err(c, MPI_ERR_TRUNCATE, fn, "root sends %zu bytes into %zu-byte slots",
                              sbytes, rbytes);
    }
    if (c->rank == root)
        rc = rx_coll_gather(in_place ? NULL : sendbuf, rbytes, recvbuf, root, c);
    else
        rc = rx_coll_gather(sendbuf, sbytes, NULL, root, c);
    return rx_coll_rc(c, rc, fn);
}
RX_ALIAS(Gather)

int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    const char *fn = "MPI_Allgather";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    int in_place = sendbuf == MPI_IN_PLACE;
    RX_CHECK_COUNT(c, recvcount, fn);
    RX_GET_DTYPE(rdt, c, recvtype, fn);
    RX_CHECK_CONTIG(c, rdt, fn);
    RX_CHECK_BUF(c, recvbuf, recvcount, fn);
    size_t rbytes = (size_t)recvcount * (size_t)rdt->extent;
    if (!in_place) {
        RX_CHECK_COUNT(c, sendcount, fn);
        RX_GET_DTYPE(sdt, c, sendtype, fn);
        RX_CHECK_CONTIG(c, sdt, fn);
        RX_CHECK_BUF(c, sendbuf, sendcount, fn);
        if ((size_t)sendcount * (size_t)sdt->extent != rbytes)
            return rx_mpi_err(c, MPI_ERR_TRUNCATE, fn,
                              "send size %zu bytes differs from the receive block of %zu bytes",
                              (size_t)sendcount * (size_t)sdt->extent, rbytes);
    }
    return rx_coll_rc(c, rx_coll_allgather(in_place ? NULL : sendbuf, rbytes, recvbuf, c), fn);
}
RX_ALIAS(Allgather)

int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype,
                      MPI_Op op)
{
    const char *fn = "MPI_Reduce_local";
    RX_CHECK_INIT(fn);
    RX_CHECK_COUNT(NULL, count, fn);
    RX_GET_DTYPE(dt, NULL, datatype, fn);
    RX_CHECK_CONTIG(NULL, dt, fn);
    rx_opobj_t *o;
    int rc = rx_check_op(NULL, op, dt, &o, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    RX_CHECK_BUF(NULL, inbuf, count, fn);
    RX_CHECK_BUF(NULL, inoutbuf, count, fn);
    rx_opobj_apply(o, dt, inbuf, inoutbuf, (size_t)count);
    return MPI_SUCCESS;
}
RX_ALIAS(Reduce_local)

int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    RX_CHECK_INIT("MPI_Op_create");
    if (!user_fn || !op)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Op_create", "NULL argument");
    rx_opobj_t *o = calloc(1, sizeof *o);
    if (!o)
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, "MPI_Op_create", "out of memory");
    o->fn = (rx_user_fn_t *)user_fn;
    o->commute = commute != 0;
    o->index = rx_htab_add(&rx_op_table, o, RX_OP_PREDEFINED_COUNT);
    if (o->index < 0) {
        free(o);
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, "MPI_Op_create", "out of handles");
    }
    *op = RX_HANDLE(RX_KIND_OP, o->index);
    return MPI_SUCCESS;
}
RX_ALIAS(Op_create)

int PMPI_Op_free(MPI_Op *op)
{
    RX_CHECK_INIT("MPI_Op_free");
    if (!op)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Op_free", "op is NULL");
    rx_opobj_t *o = rx_opobj_get(*op);
    if (!o)
        return rx_mpi_err(NULL, MPI_ERR_OP, "MPI_Op_free", "invalid operation");
    if (o->predefined)
        return rx_mpi_err(NULL, MPI_ERR_OP, "MPI_Op_free", "cannot free predefined operation %s",
                          rx_op_name(o->predefined));
    rx_htab_del(&rx_op_table, o->index);
    free(o);
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}
RX_ALIAS(Op_free)

int PMPI_Op_commutative(MPI_Op op, int *commute)
{
    RX_CHECK_INIT("MPI_Op_commutative");
    rx_opobj_t *o = rx_opobj_get(op);
    if (!o)
        return rx_mpi_err(NULL, MPI_ERR_OP, "MPI_Op_commutative", "invalid operation");
    if (!commute)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Op_commutative", "commute is NULL");
    *commute = o->commute;
    return MPI_SUCCESS;
}
RX_ALIAS(Op_commutative)
