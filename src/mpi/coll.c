/* SPDX-License-Identifier: MIT
 * Collective calls that combine data (barrier and bcast too), their
 * nonblocking forms, and reduction-op objects. Data movement collectives are
 * in coll_move.c. Every call checks its local arguments, converts buffers to
 * wire form and runs (or starts) the executor of src/coll. */
#include "coll_impl.h"
#include "inter_impl.h"
#include "coll/offload.h"
#include "op/op.h"

#include <stdlib.h>
#include <string.h>

int rx_coll_rc(rx_comm_t *c, int rc, const char *fn)
{
    if (rc == RX_OK)
        return MPI_SUCCESS;
    return rx_mpi_err(c, rx_mpi_class_of(rc), fn, "%s", rx_status_string(rc));
}

int rx_coll_check_root(rx_comm_t *c, int root, const char *fn)
{
    if (root < 0 || root >= c->size)
        return rx_mpi_err(c, MPI_ERR_ROOT, fn, "invalid root %d (communicator has %d ranks)",
                          root, c->size);
    return MPI_SUCCESS;
}

int rx_coll_check_op(rx_comm_t *c, MPI_Op op, const rx_dtype_t *dt, rx_opobj_t **out,
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

rx_coll_exec_t *rx_coll_exec_new(rx_comm_t *c, int kind, MPI_Request *req)
{
    return rx_coll_exec_for(c, kind, req == NULL);
}

int rx_coll_fail(rx_coll_exec_t *e, int cls, const char *fn, const char *msg)
{
    rx_comm_t *c = e->c;
    rx_coll_exec_put(e);
    return rx_mpi_err(c, cls, fn, "%s", msg);
}

int rx_coll_go(rx_coll_exec_t *e, MPI_Request *req, const char *fn)
{
    rx_comm_t *c = e->c;
    if (!req)
        return rx_coll_rc(c, rx_coll_run(e), fn);
    rx_req_t *r;
    int rc = rx_coll_start(e, &r);
    if (rc != RX_OK)
        return rx_coll_rc(c, rc, fn);
    *req = RX_HANDLE(RX_KIND_REQUEST, r->index);
    return MPI_SUCCESS;
}

char rx_coll_nothing[1];

char *rx_coll_in(rx_coll_exec_t *e, int si, const void *buf, size_t count, const rx_dtype_t *dt)
{
    if (rx_dtype_wire_is_raw(dt))
        return buf ? (char *)buf : rx_coll_nothing;
    size_t bytes = count * dt->wire;
    free(e->stage[si]);
    if (!(e->stage[si] = malloc(bytes ? bytes : 1)))
        return NULL;
    rx_dtype_pack(dt, buf, count, e->stage[si]);
    return e->stage[si];
}

char *rx_coll_out(rx_coll_exec_t *e, int si, void *buf, size_t bytes, const rx_dtype_t *dt)
{
    if (dt && rx_dtype_wire_is_raw(dt))
        return buf ? buf : rx_coll_nothing;
    free(e->stage[si]);
    return e->stage[si] = malloc(bytes ? bytes : 1);
}

char *rx_wire_in(const void *buf, size_t count, const rx_dtype_t *dt, void **tmp)
{
    *tmp = NULL;
    if (rx_dtype_wire_is_raw(dt))
        return buf ? (char *)buf : rx_coll_nothing;
    size_t bytes = count * dt->wire;
    if (!(*tmp = malloc(bytes ? bytes : 1)))
        return NULL;
    rx_dtype_pack(dt, buf, count, *tmp);
    return *tmp;
}

char *rx_wire_out(void *buf, size_t count, const rx_dtype_t *dt, void **tmp)
{
    *tmp = NULL;
    if (rx_dtype_wire_is_raw(dt))
        return buf ? buf : rx_coll_nothing;
    size_t bytes = count * dt->wire;
    return *tmp = malloc(bytes ? bytes : 1);
}

void rx_wire_done(void *buf, size_t count, const rx_dtype_t *dt, void *tmp, int ok)
{
    if (!tmp)
        return;
    if (ok)
        rx_dtype_unpack(dt, tmp, count * dt->wire, buf);
    free(tmp);
}

int rx_coll_out_block(rx_coll_exec_t *e, void *dst, size_t count, const rx_dtype_t *dt,
                      uint64_t off, int span)
{
    if (!span && rx_dtype_wire_is_raw(dt))
        return RX_OK;
    rx_coll_unpack_t *u = realloc(e->unp, sizeof *u * (size_t)(e->nunp + 1));
    if (!u)
        return RX_ERR_NOMEM;
    e->unp = u;
    e->unp[e->nunp++] = (rx_coll_unpack_t){dt, dst, count, off, span};
    return RX_OK;
}

/* ---- barrier, bcast ---------------------------------------------------- */

static int rx_barrier(MPI_Comm comm, MPI_Request *req, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    if (c->remote)
        return rx_inter_barrier(c, req, fn);
    if (!req)
        return rx_coll_rc(c, rx_coll_barrier(c), fn);
    rx_coll_exec_t *e = rx_coll_exec_new(c, RX_COLL_BARRIER, req);
    if (!e)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    return rx_coll_go(e, req, fn);
}

int PMPI_Barrier(MPI_Comm comm) { return rx_barrier(comm, NULL, "MPI_Barrier"); }
RX_ALIAS(Barrier)

static int rx_bcast(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                    MPI_Request *req, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    if (c->remote)
        return rx_inter_bcast(c, buffer, count, datatype, root, req, fn);
    RX_COLL_SIDE(c, buffer, count, dt, datatype, fn);
    int rc = rx_coll_check_root(c, root, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    size_t bytes = (size_t)count * dt->wire;
    if (!req && rx_dtype_wire_is_raw(dt))
        return rx_coll_rc(c, rx_coll_bcast(buffer, bytes, root, c), fn);
    if (!req) {
        /* the root packs, the others unpack: same path as raw ranks */
        void *tmp;
        char *w = c->rank == root ? rx_wire_in(buffer, (size_t)count, dt, &tmp)
                                  : rx_wire_out(buffer, (size_t)count, dt, &tmp);
        if (!w)
            return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
        rc = rx_coll_bcast(w, bytes, root, c);
        rx_wire_done(buffer, (size_t)count, dt, tmp, rc == RX_OK && c->rank != root);
        return rx_coll_rc(c, rc, fn);
    }
    rx_coll_exec_t *e = rx_coll_exec_new(c, RX_COLL_BCAST, req);
    if (!e)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    e->args.root = root;
    e->args.bytes = bytes;
    char *out = rx_coll_out(e, 0, buffer, bytes, dt);
    if (!out || rx_coll_out_block(e, buffer, (size_t)count, dt, 0, 0) != RX_OK)
        return rx_coll_fail(e, MPI_ERR_NO_MEM, fn, "out of memory");
    if (out != buffer && c->rank == root) {
        rx_dtype_pack(dt, buffer, (size_t)count, out);
        e->nunp = 0; /* the root's buffer is already right */
    }
    e->buf[RX_SB_OUT] = out;
    return rx_coll_go(e, req, fn);
}

#define RX_BCAST_PARAMS(C, D, A) \
    (void *buffer, C count, MPI_Datatype datatype, int root, MPI_Comm comm)
RX_COUNT_FORMS(Bcast, RX_BCAST_PARAMS,
               return rx_bcast(buffer, count, datatype, root, comm, NULL, fn);)

/* ---- reductions ------------------------------------------------------------ */

/* Set up the reduction arguments and the operand buffers of e: contiguous
 * types are combined where they lie; others travel as their memory span
 * (extent-sized gaps included) in one piece, so that user functions see
 * the real layout. in == NULL: no input at this rank (in place elsewhere). */
static int rx_red_setup(rx_coll_exec_t *e, const void *in, void *out, MPI_Count count,
                        const rx_dtype_t *dt, rx_opobj_t *o, int out_valid)
{
    e->op = o;
    e->dt = dt;
    e->args.commute = o->commute;
    if (dt->contig) {
        e->args.count = (uint64_t)count;
        e->args.unit = (uint64_t)dt->extent;
        e->buf[RX_SB_IN] = (char *)in;
        e->buf[RX_SB_OUT] = out;
        return RX_OK;
    }
    size_t span = count ? (size_t)(count - 1) * (size_t)dt->extent + (size_t)dt->true_extent : 0;
    e->args.count = 1;
    e->args.unit = span;
    e->span_bytes = span;
    e->span_count = (uint64_t)count;
    e->span_lb = dt->true_lb;
    if (!(e->stage[0] = malloc(span ? span : 1)) || !(e->stage[1] = malloc(span ? span : 1)))
        return RX_ERR_NOMEM;
    if (span)
        memcpy(e->stage[0], (const char *)in + dt->true_lb, span);
    e->buf[RX_SB_IN] = e->stage[0];
    e->buf[RX_SB_OUT] = e->stage[1];
    if (out_valid) {
        /* the gaps of the result keep the caller's bytes */
        if (span)
            memcpy(e->stage[1], (char *)out + dt->true_lb, span);
        return rx_coll_out_block(e, out, (size_t)count, dt, 0, 1);
    }
    return RX_OK;
}

static int rx_reduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, int root, MPI_Comm comm, MPI_Request *req, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    if (c->remote)
        return rx_inter_reduce(c, sendbuf, recvbuf, count, datatype, op, root, req, fn);
    RX_CHECK_COUNT(c, count, fn);
    RX_GET_DTYPE(dt, c, datatype, fn);
    rx_opobj_t *o;
    int rc = rx_coll_check_root(c, root, fn);
    if (rc == MPI_SUCCESS)
        rc = rx_coll_check_op(c, op, dt, &o, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    int in_place = sendbuf == MPI_IN_PLACE, is_root = c->rank == root;
    if (in_place && !is_root)
        return rx_mpi_err(c, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is only valid at the root");
    RX_CHECK_BUF(c, in_place ? recvbuf : sendbuf, count, dt, fn);
    if (is_root) {
        RX_CHECK_BUF(c, recvbuf, count, dt, fn);
        if (!in_place && count > 0 && sendbuf == recvbuf)
            return rx_mpi_err(c, MPI_ERR_BUFFER, fn, "sendbuf and recvbuf alias (use MPI_IN_PLACE)");
    }
    const void *in = in_place ? recvbuf : sendbuf;
    if (!req && dt->contig)
        return rx_coll_rc(c, rx_coll_reduce(in, recvbuf, (size_t)count, dt, o, root, c), fn);
    rx_coll_exec_t *e = rx_coll_exec_new(c, RX_COLL_REDUCE, req);
    if (!e)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    e->args.root = root;
    if (rx_red_setup(e, in, recvbuf, count, dt, o, is_root) != RX_OK)
        return rx_coll_fail(e, MPI_ERR_NO_MEM, fn, "out of memory");
    return rx_coll_go(e, req, fn);
}

#define RX_REDUCE_PARAMS(C, D, A)                                                          \
    (const void *sendbuf, void *recvbuf, C count, MPI_Datatype datatype, MPI_Op op, int root, \
     MPI_Comm comm)
RX_COUNT_FORMS(Reduce, RX_REDUCE_PARAMS,
               return rx_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, NULL, fn);)

/* Allreduce, scan and exscan share their checks: sendbuf or MPI_IN_PLACE,
 * recvbuf valid everywhere (exscan: its content at rank 0 is undefined). */
static int rx_allred(int kind, const void *sendbuf, void *recvbuf, MPI_Count count,
                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *req,
                     const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    if (c->remote) /* scan and exscan are not defined on intercommunicators */
        return kind == RX_COLL_ALLREDUCE
                   ? rx_inter_allreduce(c, sendbuf, recvbuf, count, datatype, op, req, fn)
                   : rx_mpi_err(c, MPI_ERR_COMM, fn, "not defined on an intercommunicator");
    RX_CHECK_COUNT(c, count, fn);
    RX_GET_DTYPE(dt, c, datatype, fn);
    rx_opobj_t *o;
    int rc = rx_coll_check_op(c, op, dt, &o, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    int in_place = sendbuf == MPI_IN_PLACE;
    RX_CHECK_BUF(c, recvbuf, count, dt, fn);
    if (!in_place) {
        RX_CHECK_BUF(c, sendbuf, count, dt, fn);
        if (count > 0 && sendbuf == recvbuf)
            return rx_mpi_err(c, MPI_ERR_BUFFER, fn, "sendbuf and recvbuf alias (use MPI_IN_PLACE)");
    }
    /* one process: the result is its own contribution (exscan leaves it
     * undefined), with no schedule to choose or run */
    if (!req && c->size == 1 && dt->contig) {
        if (!in_place && kind != RX_COLL_EXSCAN && count > 0)
            memcpy(recvbuf, sendbuf, (size_t)count * (size_t)dt->extent);
        return MPI_SUCCESS;
    }
    const void *in = in_place ? recvbuf : sendbuf;
    if (!req && kind == RX_COLL_ALLREDUCE && dt->contig)
        return rx_coll_rc(c, rx_coll_allreduce(in, recvbuf, (size_t)count, dt, o, c), fn);
    /* the node path orders operations by call: not for persistent starts */
    if (req && kind == RX_COLL_ALLREDUCE && !rx_coll_pinned()) {
        rx_req_t *r;
        rc = rx_coll_node_iallreduce(in, recvbuf, (size_t)count, dt, o, c, &r);
        if (rc == RX_OK) {
            *req = RX_HANDLE(RX_KIND_REQUEST, r->index);
            return MPI_SUCCESS;
        }
        if (rc != RX_COLL_DECLINED)
            return rx_coll_rc(c, rc, fn);
    }
    rx_coll_exec_t *e = rx_coll_exec_new(c, kind, req);
    if (!e)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    if (rx_red_setup(e, in, recvbuf, count, dt, o, 1) != RX_OK)
        return rx_coll_fail(e, MPI_ERR_NO_MEM, fn, "out of memory");
    return rx_coll_go(e, req, fn);
}

#define RX_ALLRED_PARAMS(C, D, A)                                                        \
    (const void *sendbuf, void *recvbuf, C count, MPI_Datatype datatype, MPI_Op op, \
     MPI_Comm comm)
RX_COUNT_FORMS(Allreduce, RX_ALLRED_PARAMS,
               return rx_allred(RX_COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm,
                                NULL, fn);)
RX_COUNT_FORMS(Scan, RX_ALLRED_PARAMS,
               return rx_allred(RX_COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm, NULL,
                                fn);)
RX_COUNT_FORMS(Exscan, RX_ALLRED_PARAMS,
               return rx_allred(RX_COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, comm, NULL,
                                fn);)

/* Copy the data blocks of count elements of dt from src to dst (same layout). */
static void rx_copy_elements(const rx_dtype_t *dt, const char *src, char *dst, size_t count)
{
    for (size_t i = 0; i < count; i++)
        for (int k = 0; k < dt->nblocks; k++) {
            size_t o = i * (size_t)dt->extent + (size_t)dt->blocks[k].off;
            memcpy(dst + o, src + o, dt->blocks[k].len);
        }
}

/* Reduce_scatter of e's counts (set) over copies of the input laid out as dt's
 * elements, one extent each: the schedule combines whole extents, the operation
 * sees the caller's layout, and the result's data goes to out at completion. */
static int rx_reduce_scatter_cells(rx_coll_exec_t *e, const void *in, void *out, size_t total,
                                   size_t mine, const rx_dtype_t *dt, rx_opobj_t *o,
                                   MPI_Request *req, const char *fn)
{
    size_t x = (size_t)dt->extent;
    e->args.rcounts = e->vec;
    e->op = o;
    e->dt = dt;
    e->args.commute = o->commute;
    e->args.count = total;
    e->args.unit = x;
    if (!(e->stage[0] = calloc(total ? total : 1, x ? x : 1)) ||
        !(e->stage[1] = calloc(mine ? mine : 1, x ? x : 1)) ||
        rx_coll_out_block(e, out, mine, dt, 0, 1) != RX_OK)
        return rx_coll_fail(e, MPI_ERR_NO_MEM, fn, "out of memory");
    rx_copy_elements(dt, in, e->stage[0], total);
    e->buf[RX_SB_IN] = e->stage[0];
    e->buf[RX_SB_OUT] = e->stage[1];
    return rx_coll_go(e, req, fn);
}

/* Reduce_scatter: recvcounts[i] elements to rank i (block form: all equal). */
static int rx_reduce_scatter(const void *sendbuf, void *recvbuf, rx_ivec_t recvcounts,
                             MPI_Count blockcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                             MPI_Request *req, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    if (c->remote)
        return rx_inter_reduce_scatter(c, sendbuf, recvbuf, recvcounts, blockcount, datatype, op,
                                       req, fn);
    RX_GET_DTYPE(dt, c, datatype, fn);
    int p = c->size;
    if (!recvcounts.p)
        RX_CHECK_COUNT(c, blockcount, fn);
    size_t total = 0;
    for (int i = 0; i < p; i++) {
        int64_t n = recvcounts.p ? rx_ivec_at(recvcounts, i) : blockcount;
        if (n < 0)
            return rx_mpi_err(c, MPI_ERR_COUNT, fn, "negative count %lld for rank %d",
                              (long long)n, i);
        if (__builtin_add_overflow(total, (size_t)n, &total))
            return rx_mpi_err(c, MPI_ERR_COUNT, fn, "the counts' sum overflows");
    }
    int64_t mine = recvcounts.p ? rx_ivec_at(recvcounts, c->rank) : blockcount;
    rx_opobj_t *o;
    int rc = rx_coll_check_op(c, op, dt, &o, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    /* a predefined op combines basic element by basic element, so a type
     * made of one basic type reduces in its packed form; a user function
     * must see the type's layout, which only contiguous types give here */
    int packed = !dt->contig;
    const rx_dtype_t *bdt = packed && dt->basic && o->predefined
                                ? rx_dtype_get(RX_HANDLE(RX_KIND_DATATYPE, dt->basic))
                                : NULL;
    /* otherwise (a user function, a type of several basic types) elements whose
     * data lies within their extent are reduced in copies laid out as the
     * caller's (gaps zero), and only the data is copied out */
    int cells = packed && !bdt;
    if (cells && (dt->true_lb < 0 || dt->true_lb + dt->true_extent > dt->extent))
        return rx_mpi_err(c, MPI_ERR_UNSUPPORTED_OPERATION, fn,
                          "reduce-scatter of a non-contiguous datatype whose data lies outside "
                          "its extent needs a predefined operation and one basic type");
    int in_place = sendbuf == MPI_IN_PLACE;
    RX_CHECK_BUF(c, recvbuf, in_place ? total : (size_t)mine, dt, fn);
    if (!in_place)
        RX_CHECK_BUF(c, sendbuf, total, dt, fn);
    rx_coll_exec_t *e = rx_coll_exec_new(c, RX_COLL_REDUCE_SCATTER, req);
    if (!e || !(e->vec = malloc(sizeof(uint64_t) * (size_t)p)))
        return e ? rx_coll_fail(e, MPI_ERR_NO_MEM, fn, "out of memory")
                 : rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    uint64_t per = packed && !cells ? dt->basic_count : 1; /* combined units per element */
    for (int i = 0; i < p; i++)
        e->vec[i] = (uint64_t)(recvcounts.p ? rx_ivec_at(recvcounts, i) : blockcount) * per;
    if (cells)
        return rx_reduce_scatter_cells(e, in_place ? recvbuf : sendbuf, recvbuf, total,
                                       (size_t)mine, dt, o, req, fn);
    e->args.rcounts = e->vec;
    e->op = o;
    e->dt = packed ? bdt : dt;
    e->args.commute = o->commute;
    e->args.count = total * per;
    e->args.unit = (uint64_t)e->dt->extent;
    if (packed) {
        const void *in = in_place ? recvbuf : sendbuf;
        if (!(e->buf[RX_SB_IN] = rx_coll_in(e, 0, in, total, dt)) ||
            !(e->buf[RX_SB_OUT] = rx_coll_out(e, 1, recvbuf, (size_t)mine * dt->wire, dt)) ||
            rx_coll_out_block(e, recvbuf, (size_t)mine, dt, 0, 0) != RX_OK)
            return rx_coll_fail(e, MPI_ERR_NO_MEM, fn, "out of memory");
        return rx_coll_go(e, req, fn);
    }
    size_t bytes = total * (size_t)dt->extent;
    e->buf[RX_SB_IN] = (char *)sendbuf;
    e->buf[RX_SB_OUT] = recvbuf;
    if (in_place) {
        /* the input is recvbuf, whose start receives the result */
        if (!(e->stage[0] = malloc(bytes ? bytes : 1)))
            return rx_coll_fail(e, MPI_ERR_NO_MEM, fn, "out of memory");
        memcpy(e->stage[0], recvbuf, bytes);
        e->buf[RX_SB_IN] = e->stage[0];
    }
    return rx_coll_go(e, req, fn);
}

#define RX_RS_PARAMS(C, D, A)                                                             \
    (const void *sendbuf, void *recvbuf, const C recvcounts[], MPI_Datatype datatype, \
     MPI_Op op, MPI_Comm comm)
RX_COUNT_FORMS(Reduce_scatter, RX_RS_PARAMS, {
    if (!recvcounts && rx_rt.initialized)
        return rx_mpi_err(rx_comm_get(comm), MPI_ERR_ARG, fn, "recvcounts is NULL");
    return rx_reduce_scatter(sendbuf, recvbuf, RX_IVEC(recvcounts), 0, datatype, op, comm, NULL,
                             fn);
})
#define RX_RSB_PARAMS(C, D, A) \
    (const void *sendbuf, void *recvbuf, C recvcount, MPI_Datatype datatype, MPI_Op op, \
     MPI_Comm comm)
RX_COUNT_FORMS(Reduce_scatter_block, RX_RSB_PARAMS,
               return rx_reduce_scatter(sendbuf, recvbuf, RX_IVEC((int *)NULL), recvcount,
                                        datatype, op, comm, NULL, fn);)

/* ---- nonblocking forms --------------------------------------------------- */

int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    RX_NB_REQ(request, "MPI_Ibarrier");
    return rx_barrier(comm, request, "MPI_Ibarrier");
}
RX_ALIAS(Ibarrier)

#define RX_IBCAST_PARAMS(C, D, A) \
    (void *buffer, C count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request)
RX_COUNT_FORMS(Ibcast, RX_IBCAST_PARAMS, {
    RX_NB_REQ(request, fn);
    return rx_bcast(buffer, count, datatype, root, comm, request, fn);
})
#define RX_IREDUCE_PARAMS(C, D, A)                                                         \
    (const void *sendbuf, void *recvbuf, C count, MPI_Datatype datatype, MPI_Op op, int root, \
     MPI_Comm comm, MPI_Request *request)
RX_COUNT_FORMS(Ireduce, RX_IREDUCE_PARAMS, {
    RX_NB_REQ(request, fn);
    return rx_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, request, fn);
})
#define RX_IALLRED_PARAMS(C, D, A)                                                       \
    (const void *sendbuf, void *recvbuf, C count, MPI_Datatype datatype, MPI_Op op, \
     MPI_Comm comm, MPI_Request *request)
RX_COUNT_FORMS(Iallreduce, RX_IALLRED_PARAMS, {
    RX_NB_REQ(request, fn);
    return rx_allred(RX_COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm, request,
                     fn);
})
RX_COUNT_FORMS(Iscan, RX_IALLRED_PARAMS, {
    RX_NB_REQ(request, fn);
    return rx_allred(RX_COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm, request, fn);
})
RX_COUNT_FORMS(Iexscan, RX_IALLRED_PARAMS, {
    RX_NB_REQ(request, fn);
    return rx_allred(RX_COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, comm, request, fn);
})
#define RX_IRS_PARAMS(C, D, A)                                                            \
    (const void *sendbuf, void *recvbuf, const C recvcounts[], MPI_Datatype datatype, \
     MPI_Op op, MPI_Comm comm, MPI_Request *request)
RX_COUNT_FORMS(Ireduce_scatter, RX_IRS_PARAMS, {
    RX_NB_REQ(request, fn);
    if (!recvcounts)
        return rx_mpi_err(rx_comm_get(comm), MPI_ERR_ARG, fn, "recvcounts is NULL");
    return rx_reduce_scatter(sendbuf, recvbuf, RX_IVEC(recvcounts), 0, datatype, op, comm,
                             request, fn);
})
#define RX_IRSB_PARAMS(C, D, A)                                                          \
    (const void *sendbuf, void *recvbuf, C recvcount, MPI_Datatype datatype, MPI_Op op, \
     MPI_Comm comm, MPI_Request *request)
RX_COUNT_FORMS(Ireduce_scatter_block, RX_IRSB_PARAMS, {
    RX_NB_REQ(request, fn);
    return rx_reduce_scatter(sendbuf, recvbuf, RX_IVEC((int *)NULL), recvcount, datatype, op,
                             comm, request, fn);
})

/* ---- local reduction and op objects ---------------------------------------- */

static int rx_reduce_local(const void *inbuf, void *inoutbuf, MPI_Count count,
                           MPI_Datatype datatype, MPI_Op op, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_CHECK_COUNT(NULL, count, fn);
    RX_GET_DTYPE(dt, NULL, datatype, fn);
    rx_opobj_t *o;
    int rc = rx_coll_check_op(NULL, op, dt, &o, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    RX_CHECK_BUF(NULL, inbuf, count, dt, fn);
    RX_CHECK_BUF(NULL, inoutbuf, count, dt, fn);
    rx_coll_reduce_apply(o, dt, inbuf, inoutbuf, (size_t)count);
    return MPI_SUCCESS;
}
#define RX_REDUCE_LOCAL_PARAMS(C, D, A) \
    (const void *inbuf, void *inoutbuf, C count, MPI_Datatype datatype, MPI_Op op)
RX_COUNT_FORMS(Reduce_local, RX_REDUCE_LOCAL_PARAMS,
               return rx_reduce_local(inbuf, inoutbuf, count, datatype, op, fn);)

/* One of fn, fn_c is set (MPI_Op_create, MPI_Op_create_c). */
static int rx_op_create(rx_user_fn_t *fn, rx_user_fn_c_t *fn_c, int commute, MPI_Op *op,
                        const char *fn_name)
{
    RX_CHECK_INIT(fn_name);
    if ((!fn && !fn_c) || !op)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn_name, "NULL argument");
    rx_opobj_t *o = calloc(1, sizeof *o);
    if (!o)
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, fn_name, "out of memory");
    o->fn = fn;
    o->fn_c = fn_c;
    o->commute = commute != 0;
    o->index = rx_htab_add(&rx_op_table, o, RX_OP_PREDEFINED_COUNT);
    if (o->index < 0) {
        free(o);
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, fn_name, "out of handles");
    }
    *op = RX_HANDLE(RX_KIND_OP, o->index);
    return MPI_SUCCESS;
}

int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    return rx_op_create((rx_user_fn_t *)user_fn, NULL, commute, op, "MPI_Op_create");
}
RX_ALIAS(Op_create)

int PMPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op)
{
    return rx_op_create(NULL, (rx_user_fn_c_t *)user_fn, commute, op, "MPI_Op_create_c");
}
RX_ALIAS(Op_create_c)

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
    if (o->holds)
        o->freed = 1; /* operations in flight still apply it; the last one frees it */
    else
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
