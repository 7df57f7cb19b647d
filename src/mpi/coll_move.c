/* SPDX-License-Identifier: MIT
 * Collectives that move data: gather(v), scatter(v), allgather(v),
 * alltoall(v, w), blocking and nonblocking. Buffers of raw types are used
 * where they lie; other types are packed into staging buffers whose block
 * offsets are the element displacements times the packed element size
 * (raw types have packed size = extent, so one formula serves both). */
#include "coll_impl.h"
#include "inter_impl.h"

#include <stdlib.h>
#include <string.h>

#define RX_NO_MEM(e, fn) rx_coll_fail(e, MPI_ERR_NO_MEM, fn, "out of memory")
#define RX_NO_VEC ((rx_ivec_t){NULL, 0}) /* uniform forms: no per-rank arrays */

/* Per-rank counts and displacements (elements) as wire bytes in e->vec:
 * counts at [base], displs at [base + p]. Returns the extent of the area
 * they cover, or (uint64_t)-1 for a negative count or a block beyond
 * RX_MPI_MAX_BYTES (so that no sum below wraps). */
static uint64_t rx_vec(rx_coll_exec_t *e, int base, rx_ivec_t counts, rx_ivec_t displs,
                       size_t wire)
{
    int p = e->c->size;
    uint64_t end = 0;
    for (int i = 0; i < p; i++) {
        int64_t n = rx_ivec_at(counts, i), d = rx_ivec_at(displs, i);
        uint64_t cb, db;
        if (n < 0 || __builtin_mul_overflow((uint64_t)n, (uint64_t)wire, &cb) ||
            cb > RX_MPI_MAX_BYTES ||
            __builtin_mul_overflow((uint64_t)(d < 0 ? -d : d), (uint64_t)wire, &db) ||
            db > RX_MPI_MAX_BYTES)
            return (uint64_t)-1;
        e->vec[base + i] = cb;
        e->vec[base + p + i] = (uint64_t)d * wire;
        uint64_t hi = e->vec[base + p + i] + e->vec[base + i];
        if (n && hi > end)
            end = hi;
    }
    return end;
}

static int rx_unpack_v(rx_coll_exec_t *e, void *buf, rx_ivec_t counts, rx_ivec_t displs,
                       const rx_dtype_t *dt)
{
    for (int i = 0; i < e->c->size; i++) {
        int64_t n = rx_ivec_at(counts, i), d = rx_ivec_at(displs, i);
        if (n && rx_coll_out_block(e, (char *)buf + (intptr_t)d * dt->extent, (size_t)n, dt,
                                   (uint64_t)d * dt->wire, 0) != RX_OK)
            return RX_ERR_NOMEM;
    }
    return RX_OK;
}

/* ---- gather / gatherv ------------------------------------------------------ */

/* The node-shared path needs every member on this node; checked before
 * packing derived types for it, so multi-node calls pack only once, in the
 * schedule. */
static int rx_coll_on_one_node(const rx_comm_t *c)
{
    return c->size > 1 && c->local_size == c->size;
}

/* Blocking uniform gather (root >= 0) or allgather (root < 0) on one node
 * (RX_ERR_AGAIN: take the schedule, which also reports mismatched sizes).
 * A NULL buffer with count 0 is legal (uneven decompositions), so in place
 * is its own flag. */
static int rx_gather_shm(rx_comm_t *c, int in_place, const void *sendbuf, MPI_Count scount,
                         const rx_dtype_t *sdt, void *recvbuf, MPI_Count rcount, const rx_dtype_t *rdt,
                         int root)
{
    if (!rx_coll_on_one_node(c))
        return RX_ERR_AGAIN;
    size_t p = (size_t)c->size, me = (size_t)c->rank;
    int gets = root < 0 || c->rank == root;
    size_t bytes = !in_place ? (size_t)scount * sdt->wire : (size_t)rcount * rdt->wire;
    void *ti = NULL, *to = NULL;
    char *in = NULL, *out = NULL;
    if (gets && ((!in_place && bytes != (size_t)rcount * rdt->wire) || (!recvbuf && bytes)))
        return RX_ERR_AGAIN;
    if (!in_place && !(in = rx_wire_in(sendbuf, (size_t)scount, sdt, &ti)))
        return RX_ERR_NOMEM;
    if (gets) {
        if (!(out = rx_wire_out(recvbuf, (size_t)rcount * p, rdt, &to))) {
            free(ti);
            return RX_ERR_NOMEM;
        }
        if (in_place && to)
            rx_dtype_pack(rdt, (char *)recvbuf + me * (size_t)rcount * (size_t)rdt->extent,
                          (size_t)rcount, out + me * bytes);
    }
    int rc = root < 0 ? rx_coll_node_allgather(in, bytes, out, c)
                      : rx_coll_node_gather(in, bytes, out, root, c);
    free(ti);
    if (gets)
        rx_wire_done(recvbuf, (size_t)rcount * p, rdt, to, rc == RX_OK);
    return rc;
}

/* v: Gatherv (told by the caller: the arrays may be NULL at non-roots) */
static int rx_gather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void *recvbuf, MPI_Count recvcount, int v, rx_ivec_t recvcounts,
                     rx_ivec_t displs,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *req,
                     const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    if (c->remote) {
        rx_inter_side_t s = {sendbuf, sendcount, RX_NO_VEC, RX_NO_VEC, sendtype, NULL, 0};
        rx_inter_side_t r = {recvbuf, recvcount, recvcounts, displs, recvtype, NULL, v};
        return rx_inter_gather(c, &s, &r, root, req, fn);
    }
    int rc = rx_coll_check_root(c, root, fn), p = c->size, is_root = c->rank == root;
    if (rc != MPI_SUCCESS)
        return rc;
    int in_place = sendbuf == MPI_IN_PLACE;
    if (in_place && !is_root)
        return rx_mpi_err(c, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is only valid at the root");
    rx_dtype_t *sdt = NULL, *rdt = NULL;
    if (!in_place) {
        RX_COLL_SIDE(c, sendbuf, sendcount, d, sendtype, fn);
        sdt = d;
    }
    if (is_root) {
        RX_GET_DTYPE(d, c, recvtype, fn);
        rdt = d;
        if (v && (!recvcounts.p || !displs.p))
            return rx_mpi_err(c, MPI_ERR_ARG, fn, "recvcounts or displs is NULL");
        if (!v) {
            RX_CHECK_COUNT(c, recvcount, fn);
            RX_CHECK_BUF(c, recvbuf, (uint64_t)recvcount * (uint64_t)p, d, fn);
        }
    }
    if (!req && !v) {
        rc = rx_gather_shm(c, in_place, sendbuf, sendcount, sdt, recvbuf, recvcount, rdt, root);
        if (rc != RX_ERR_AGAIN && rc != RX_COLL_DECLINED)
            return rx_coll_rc(c, rc, fn);
    }
    rx_coll_exec_t *e = rx_coll_exec_new(c, RX_COLL_GATHER, req);
    if (!e)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    e->args.root = root;
    e->args.bytes = in_place ? 0 : (uint64_t)sendcount * sdt->wire;
    if (is_root) {
        uint64_t rblk = (uint64_t)recvcount * rdt->wire, end = rblk * (uint64_t)p;
        if (v) {
            if (!(e->vec = malloc(sizeof(uint64_t) * 2 * (size_t)p)))
                return RX_NO_MEM(e, fn);
            if ((end = rx_vec(e, 0, recvcounts, displs, rdt->wire)) == (uint64_t)-1)
                return rx_coll_fail(e, MPI_ERR_COUNT, fn, "negative or too large receive count");
            e->args.rcounts = e->vec;
            e->args.rdispls = e->vec + p;
            rblk = e->vec[root];
        }
        if (!recvbuf && end)
            return rx_coll_fail(e, MPI_ERR_BUFFER, fn, "recvbuf is NULL");
        if (!in_place && e->args.bytes > rblk)
            return rx_coll_fail(e, MPI_ERR_TRUNCATE, fn, "the root's block is larger than its slot");
        uint64_t own = v ? e->vec[p + root] : rblk * (uint64_t)root;
        char *out = rx_coll_out(e, 1, recvbuf, end, rdt);
        if (!out)
            return RX_NO_MEM(e, fn);
        if (out != recvbuf) {
            int ok = v ? rx_unpack_v(e, recvbuf, recvcounts, displs, rdt)
                       : rx_coll_out_block(e, recvbuf, (size_t)recvcount * (size_t)p, rdt, 0, 0);
            if (ok != RX_OK)
                return RX_NO_MEM(e, fn);
            if (in_place) /* the root's own block is in the user buffer */
                rx_dtype_pack(rdt, (char *)recvbuf + (own / rdt->wire) * (uint64_t)rdt->extent,
                              rblk / rdt->wire, out + own);
        }
        e->buf[RX_SB_OUT] = out;
        if (in_place) {
            e->args.bytes = rblk;
            e->buf[RX_SB_IN] = out + own;
        }
    }
    if (!in_place && !(e->buf[RX_SB_IN] = rx_coll_in(e, 0, sendbuf, (size_t)sendcount, sdt)))
        return RX_NO_MEM(e, fn);
    return rx_coll_go(e, req, fn);
}

#define RX_GATHER_PARAMS(C, D, A)                                                          \
    (const void *sendbuf, C sendcount, MPI_Datatype sendtype, void *recvbuf, C recvcount, \
     MPI_Datatype recvtype, int root, MPI_Comm comm)
RX_COUNT_FORMS(Gather, RX_GATHER_PARAMS,
               return rx_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, 0, RX_NO_VEC,
                                RX_NO_VEC, recvtype, root, comm, NULL, fn);)
#define RX_GATHERV_PARAMS(C, D, A)                                                  \
    (const void *sendbuf, C sendcount, MPI_Datatype sendtype, void *recvbuf,   \
     const C recvcounts[], const D displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
RX_COUNT_FORMS(Gatherv, RX_GATHERV_PARAMS,
               return rx_gather(sendbuf, sendcount, sendtype, recvbuf, 0, 1, RX_IVEC(recvcounts),
                                RX_IVEC(displs), recvtype, root, comm, NULL, fn);)

/* ---- scatter / scatterv -------------------------------------------------- */

/* Blocking uniform scatter on one node (RX_ERR_AGAIN: take the schedule).
 * in_place: at the root, which then receives nothing. */
static int rx_scatter_shm(rx_comm_t *c, int in_place, const void *sendbuf, MPI_Count scount,
                          const rx_dtype_t *sdt, void *recvbuf, MPI_Count rcount, const rx_dtype_t *rdt,
                          int root)
{
    if (!rx_coll_on_one_node(c))
        return RX_ERR_AGAIN;
    size_t p = (size_t)c->size, is_root = c->rank == root;
    size_t bytes = is_root ? (size_t)scount * sdt->wire : (size_t)rcount * rdt->wire;
    void *ti = NULL, *to = NULL;
    char *in = NULL, *out = NULL;
    if (is_root && !in_place && bytes != (size_t)rcount * rdt->wire)
        return RX_ERR_AGAIN; /* the schedule path reports the mismatch */
    if (is_root && bytes && !sendbuf)
        return RX_ERR_AGAIN;
    if (is_root && !(in = rx_wire_in(sendbuf, (size_t)scount * p, sdt, &ti)))
        return RX_ERR_NOMEM;
    if (!in_place && !(out = rx_wire_out(recvbuf, (size_t)rcount, rdt, &to))) {
        free(ti);
        return RX_ERR_NOMEM;
    }
    int rc = rx_coll_node_scatter(in, bytes, out, root, c);
    free(ti);
    if (!in_place)
        rx_wire_done(recvbuf, (size_t)rcount, rdt, to, rc == RX_OK);
    return rc;
}

/* v: Scatterv (told by the caller: the arrays may be NULL at non-roots) */
static int rx_scatter(const void *sendbuf, MPI_Count sendcount, int v, rx_ivec_t sendcounts,
                      rx_ivec_t displs, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *req,
                      const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    if (c->remote) {
        rx_inter_side_t s = {sendbuf, sendcount, sendcounts, displs, sendtype, NULL, v};
        rx_inter_side_t r = {recvbuf, recvcount, RX_NO_VEC, RX_NO_VEC, recvtype, NULL, 0};
        return rx_inter_scatter(c, &s, &r, root, req, fn);
    }
    int rc = rx_coll_check_root(c, root, fn), p = c->size, is_root = c->rank == root;
    if (rc != MPI_SUCCESS)
        return rc;
    int in_place = recvbuf == MPI_IN_PLACE;
    if (in_place && !is_root)
        return rx_mpi_err(c, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is only valid at the root");
    rx_dtype_t *sdt = NULL, *rdt = NULL;
    if (!in_place) {
        RX_COLL_SIDE(c, recvbuf, recvcount, d, recvtype, fn);
        rdt = d;
    }
    if (is_root) {
        RX_GET_DTYPE(d, c, sendtype, fn);
        sdt = d;
        if (v && (!sendcounts.p || !displs.p))
            return rx_mpi_err(c, MPI_ERR_ARG, fn, "sendcounts or displs is NULL");
        if (!v) {
            RX_CHECK_COUNT(c, sendcount, fn);
            RX_CHECK_BUF(c, sendbuf, (uint64_t)sendcount * (uint64_t)p, d, fn);
        }
    }
    if (!req && !v) {
        rc = rx_scatter_shm(c, in_place, sendbuf, sendcount, sdt, recvbuf, recvcount, rdt,
                            root);
        if (rc != RX_ERR_AGAIN && rc != RX_COLL_DECLINED)
            return rx_coll_rc(c, rc, fn);
    }
    rx_coll_exec_t *e = rx_coll_exec_new(c, RX_COLL_SCATTER, req);
    if (!e)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    e->args.root = root;
    e->args.bytes = in_place ? 0 : (uint64_t)recvcount * rdt->wire;
    if (is_root) {
        uint64_t sblk = (uint64_t)sendcount * sdt->wire, own = sblk * (uint64_t)root;
        if (v) {
            if (!(e->vec = malloc(sizeof(uint64_t) * 2 * (size_t)p)))
                return RX_NO_MEM(e, fn);
            if (rx_vec(e, 0, sendcounts, displs, sdt->wire) == (uint64_t)-1)
                return rx_coll_fail(e, MPI_ERR_COUNT, fn, "negative or too large send count");
            e->args.scounts = e->vec;
            e->args.sdispls = e->vec + p;
            sblk = e->vec[root];
            own = e->vec[p + root];
        }
        if (!in_place && sblk > e->args.bytes)
            return rx_coll_fail(e, MPI_ERR_TRUNCATE, fn, "the root's block is larger than its buffer");
        char *in;
        if (!sendbuf && (sblk != 0 || v))
            for (int i = 0; i < p; i++)
                if (v ? e->vec[i] != 0 : i == 0)
                    return rx_coll_fail(e, MPI_ERR_BUFFER, fn, "sendbuf is NULL");
        if (rx_dtype_wire_is_raw(sdt)) {
            in = (char *)sendbuf;
        } else {
            uint64_t end = 0;
            for (int i = 0; i < p; i++) {
                uint64_t hi = v ? e->vec[p + i] + e->vec[i] : sblk * (uint64_t)(i + 1);
                end = hi > end ? hi : end;
            }
            if (!(in = e->stage[0] = malloc(end ? end : 1)))
                return RX_NO_MEM(e, fn);
            for (int i = 0; i < p; i++) {
                uint64_t n = (v ? e->vec[i] : sblk) / sdt->wire;
                uint64_t off = v ? e->vec[p + i] : sblk * (uint64_t)i;
                rx_dtype_pack(sdt, (const char *)sendbuf + (off / sdt->wire) * (uint64_t)sdt->extent,
                              n, in + off);
            }
        }
        e->buf[RX_SB_IN] = in;
        if (in_place) {
            e->args.bytes = sblk;
            e->buf[RX_SB_OUT] = in + own;
        }
    }
    if (!in_place) {
        char *out = rx_coll_out(e, 1, recvbuf, e->args.bytes, rdt);
        if (!out || rx_coll_out_block(e, recvbuf, (size_t)recvcount, rdt, 0, 0) != RX_OK)
            return RX_NO_MEM(e, fn);
        e->buf[RX_SB_OUT] = out;
    }
    return rx_coll_go(e, req, fn);
}

#define RX_SCATTER_PARAMS(C, D, A)                                                         \
    (const void *sendbuf, C sendcount, MPI_Datatype sendtype, void *recvbuf, C recvcount, \
     MPI_Datatype recvtype, int root, MPI_Comm comm)
RX_COUNT_FORMS(Scatter, RX_SCATTER_PARAMS,
               return rx_scatter(sendbuf, sendcount, 0, RX_NO_VEC, RX_NO_VEC, sendtype, recvbuf,
                                 recvcount, recvtype, root, comm, NULL, fn);)
#define RX_SCATTERV_PARAMS(C, D, A)                                                            \
    (const void *sendbuf, const C sendcounts[], const D displs[], MPI_Datatype sendtype,  \
     void *recvbuf, C recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
RX_COUNT_FORMS(Scatterv, RX_SCATTERV_PARAMS,
               return rx_scatter(sendbuf, 0, 1, RX_IVEC(sendcounts), RX_IVEC(displs), sendtype,
                                 recvbuf, recvcount, recvtype, root, comm, NULL, fn);)

/* ---- allgather / allgatherv ------------------------------------------------ */

static int rx_allgather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, MPI_Count recvcount, rx_ivec_t recvcounts, rx_ivec_t displs,
                        MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *req, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    if (c->remote) {
        rx_inter_side_t s = {sendbuf, sendcount, RX_NO_VEC, RX_NO_VEC, sendtype, NULL, 0};
        rx_inter_side_t r = {recvbuf, recvcount, recvcounts, displs, recvtype, NULL,
                             recvcounts.p || displs.p};
        return rx_inter_allgather(c, &s, &r, req, fn);
    }
    int p = c->size, me = c->rank, in_place = sendbuf == MPI_IN_PLACE;
    int v = recvcounts.p || displs.p;
    RX_GET_DTYPE(rdt, c, recvtype, fn);
    if (v && (!recvcounts.p || !displs.p))
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "recvcounts or displs is NULL");
    if (!v) {
        RX_CHECK_COUNT(c, recvcount, fn);
        RX_CHECK_BUF(c, recvbuf, (uint64_t)recvcount * (uint64_t)p, rdt, fn);
    }
    rx_dtype_t *sdt = NULL;
    if (!in_place) {
        RX_COLL_SIDE(c, sendbuf, sendcount, d, sendtype, fn);
        sdt = d;
    }
    if (!req && !v) {
        int rc = rx_gather_shm(c, in_place, sendbuf, sendcount, sdt, recvbuf, recvcount,
                               rdt, -1);
        if (rc != RX_ERR_AGAIN && rc != RX_COLL_DECLINED)
            return rx_coll_rc(c, rc, fn);
    }
    rx_coll_exec_t *e = rx_coll_exec_new(c, RX_COLL_ALLGATHER, req);
    if (!e)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    uint64_t rblk = (uint64_t)recvcount * rdt->wire, end = rblk * (uint64_t)p, own = rblk * (uint64_t)me;
    if (v) {
        if (!(e->vec = malloc(sizeof(uint64_t) * 2 * (size_t)p)))
            return RX_NO_MEM(e, fn);
        if ((end = rx_vec(e, 0, recvcounts, displs, rdt->wire)) == (uint64_t)-1)
            return rx_coll_fail(e, MPI_ERR_COUNT, fn, "negative or too large receive count");
        e->args.rcounts = e->vec;
        e->args.rdispls = e->vec + p;
        rblk = e->vec[me];
        own = e->vec[p + me];
    }
    if (!recvbuf && end)
        return rx_coll_fail(e, MPI_ERR_BUFFER, fn, "recvbuf is NULL");
    e->args.bytes = rblk;
    if (!in_place && (uint64_t)sendcount * sdt->wire != rblk)
        return rx_coll_fail(e, MPI_ERR_TRUNCATE, fn, "send size differs from the receive block");
    char *out = rx_coll_out(e, 1, recvbuf, end, rdt);
    if (!out)
        return RX_NO_MEM(e, fn);
    if (out != recvbuf) {
        int ok = v ? rx_unpack_v(e, recvbuf, recvcounts, displs, rdt)
                   : rx_coll_out_block(e, recvbuf, (size_t)recvcount * (size_t)p, rdt, 0, 0);
        if (ok != RX_OK)
            return RX_NO_MEM(e, fn);
        if (in_place)
            rx_dtype_pack(rdt, (char *)recvbuf + (own / rdt->wire) * (uint64_t)rdt->extent,
                          rblk / rdt->wire, out + own);
    }
    e->buf[RX_SB_OUT] = out;
    e->buf[RX_SB_IN] = in_place ? out + own : rx_coll_in(e, 0, sendbuf, (size_t)sendcount, sdt);
    if (!e->buf[RX_SB_IN])
        return RX_NO_MEM(e, fn);
    return rx_coll_go(e, req, fn);
}

#define RX_ALLGATHER_PARAMS(C, D, A)                                                       \
    (const void *sendbuf, C sendcount, MPI_Datatype sendtype, void *recvbuf, C recvcount, \
     MPI_Datatype recvtype, MPI_Comm comm)
RX_COUNT_FORMS(Allgather, RX_ALLGATHER_PARAMS,
               return rx_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, RX_NO_VEC,
                                   RX_NO_VEC, recvtype, comm, NULL, fn);)
#define RX_ALLGATHERV_PARAMS(C, D, A)                                             \
    (const void *sendbuf, C sendcount, MPI_Datatype sendtype, void *recvbuf, \
     const C recvcounts[], const D displs[], MPI_Datatype recvtype, MPI_Comm comm)
RX_COUNT_FORMS(Allgatherv, RX_ALLGATHERV_PARAMS,
               return rx_allgather(sendbuf, sendcount, sendtype, recvbuf, 0, RX_IVEC(recvcounts),
                                   RX_IVEC(displs), recvtype, comm, NULL, fn);)

/* ---- alltoall, alltoallv, alltoallw ------------------------------------------ */

/* One side of an all-to-all: per-peer counts, byte displacements and types
 * (uniform forms fill the arrays). */
typedef struct rx_a2a_side {
    rx_ivec_t counts, displs;     /* displs in elements (v) or bytes (w) */
    const MPI_Datatype *types;
    MPI_Count count;              /* uniform form */
    MPI_Datatype type;
} rx_a2a_side_t;

/* Byte offset of peer i's block in the user buffer of side sd. */
static uint64_t rx_a2a_uoff(const rx_a2a_side_t *sd, int i, int w, const rx_dtype_t *dt)
{
    if (w)
        return (uint64_t)rx_ivec_at(sd->displs, i);
    int64_t d = sd->displs.p ? rx_ivec_at(sd->displs, i) : (int64_t)i * sd->count;
    return (uint64_t)d * (uint64_t)dt->extent;
}

/* Fill e->vec[base..] with wire counts and offsets; pack (input) or list
 * unpack blocks (output). Returns the wire buffer, NULL on failure (*cls). */
static char *rx_a2a_side(rx_coll_exec_t *e, int base, const rx_a2a_side_t *sd, void *buf,
                         int input, int w, int *cls, const char *fn)
{
    int p = e->c->size, raw = 1;
    *cls = MPI_ERR_NO_MEM;
    const rx_dtype_t **dts = calloc((size_t)p, sizeof *dts);
    if (!dts)
        return NULL;
    uint64_t end = 0, pos = 0;
    for (int i = 0; i < p; i++) {
        dts[i] = rx_dtype_get(sd->types ? sd->types[i] : sd->type);
        int64_t n = sd->counts.p ? rx_ivec_at(sd->counts, i) : sd->count;
        /* a block and its user offset stay below RX_MPI_MAX_BYTES: no sum wraps */
        int64_t d = sd->displs.p ? rx_ivec_at(sd->displs, i) : (int64_t)i * sd->count;
        uint64_t ad = (uint64_t)(d < 0 ? -d : d);
        int bad = !dts[i] || !dts[i]->committed ? MPI_ERR_TYPE
                  : n < 0 || (uint64_t)n > RX_MPI_MAX_BYTES ||
                          (uint64_t)n * dts[i]->size > RX_MPI_MAX_BYTES ||
                          (uint64_t)n * dts[i]->wire > RX_MPI_MAX_BYTES ||
                          ad > RX_MPI_MAX_BYTES ||
                          (!w && ad * (uint64_t)(dts[i]->extent < 0 ? -dts[i]->extent
                                                                      : dts[i]->extent) >
                                     RX_MPI_MAX_BYTES)
                      ? MPI_ERR_COUNT : MPI_SUCCESS;
        if (bad) {
            *cls = bad;
            rx_mpi_err(e->c, *cls, fn, "%s for rank %d", bad == MPI_ERR_COUNT
                       ? "negative or too large count or displacement" : "invalid datatype", i);
            free(dts);
            return NULL;
        }
        raw &= rx_dtype_wire_is_raw(dts[i]);
        e->vec[base + i] = (uint64_t)n * dts[i]->wire;
    }
    if (!buf && p > 0) {
        for (int i = 0; i < p; i++)
            if (e->vec[base + i]) {
                *cls = MPI_ERR_BUFFER;
                rx_mpi_err(e->c, *cls, fn, "%s is NULL", input ? "sendbuf" : "recvbuf");
                free(dts);
                return NULL;
            }
    }
    /* user offsets of each block; wire offsets equal them for raw data */
    for (int i = 0; i < p; i++) {
        uint64_t uoff = rx_a2a_uoff(sd, i, w, dts[i]);
        e->vec[base + p + i] = raw ? uoff : pos;
        pos += e->vec[base + i];
        if (raw && uoff + e->vec[base + i] > end)
            end = uoff + e->vec[base + i];
    }
    char *wire = buf;
    if (!raw) {
        end = pos;
        if (!(wire = malloc(end ? end : 1))) {
            free(dts);
            return NULL;
        }
        e->stage[input ? 0 : 1] = wire;
        for (int i = 0; i < p; i++) {
            uint64_t uoff = rx_a2a_uoff(sd, i, w, dts[i]);
            size_t n = dts[i]->wire ? e->vec[base + i] / dts[i]->wire : 0;
            if (input)
                rx_dtype_pack(dts[i], (const char *)buf + uoff, n, wire + e->vec[base + p + i]);
            else if (n && rx_coll_out_block(e, (char *)buf + uoff, n, dts[i], e->vec[base + p + i], 0) != RX_OK) {
                free(dts);
                return NULL;
            }
        }
    }
    free(dts);
    return wire ? wire : rx_coll_nothing;
}

/* Blocking uniform alltoall on one node (RX_ERR_AGAIN: take the schedule,
 * which also reports invalid arguments). */
static int rx_alltoall_shm(rx_comm_t *c, int in_place, const void *sendbuf,
                           const rx_a2a_side_t *s, void *recvbuf, const rx_a2a_side_t *r)
{
    if (!rx_coll_on_one_node(c))
        return RX_ERR_AGAIN;
    size_t p = (size_t)c->size;
    const rx_dtype_t *rdt = rx_dtype_get(r->type);
    const rx_dtype_t *sdt = in_place ? rdt : rx_dtype_get(s->type);
    if (!rdt || !rdt->committed || !sdt || !sdt->committed)
        return RX_ERR_AGAIN;
    size_t bytes = (size_t)r->count * rdt->wire;
    if (!in_place && (size_t)s->count * sdt->wire != bytes)
        return RX_ERR_AGAIN;
    if (bytes && (!recvbuf || (!in_place && !sendbuf)))
        return RX_ERR_AGAIN;
    void *ti = NULL, *to = NULL;
    /* in place: the input is what recvbuf holds now */
    char *in = in_place ? rx_wire_in(recvbuf, (size_t)r->count * p, rdt, &ti)
                        : rx_wire_in(sendbuf, (size_t)s->count * p, sdt, &ti);
    if (!in)
        return RX_ERR_NOMEM;
    char *out = rx_wire_out(recvbuf, (size_t)r->count * p, rdt, &to);
    if (!out) {
        free(ti);
        return RX_ERR_NOMEM;
    }
    int rc = rx_coll_node_alltoall(in, bytes, out, c);
    free(ti);
    rx_wire_done(recvbuf, (size_t)r->count * p, rdt, to, rc == RX_OK);
    return rc;
}

static int rx_alltoall(const void *sendbuf, const rx_a2a_side_t *s, void *recvbuf,
                       const rx_a2a_side_t *r, int kind, MPI_Comm comm, MPI_Request *req,
                       const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    if (c->remote) {
        rx_inter_side_t is = {sendbuf, s->count, s->counts, s->displs, s->type, s->types, kind};
        rx_inter_side_t ir = {recvbuf, r->count, r->counts, r->displs, r->type, r->types, kind};
        return rx_inter_alltoall(c, &is, &ir, req, fn);
    }
    int p = c->size, in_place = sendbuf == MPI_IN_PLACE, cls;
    if (kind > 0 && ((!in_place && (!s->counts.p || !s->displs.p || (kind == 2 && !s->types))) ||
                     !r->counts.p || !r->displs.p || (kind == 2 && !r->types)))
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "a counts, displacements or types array is NULL");
    if (!kind) {
        /* the uniform forms may take the node-shared path, which stages
         * count * p elements: check both sides whole first */
        if (!in_place) {
            RX_CHECK_COUNT(c, s->count, fn);
            RX_GET_DTYPE(sd, c, s->type, fn);
            RX_CHECK_BUF(c, sendbuf, (uint64_t)s->count * (uint64_t)p, sd, fn);
        }
        RX_CHECK_COUNT(c, r->count, fn);
        RX_GET_DTYPE(rd, c, r->type, fn);
        RX_CHECK_BUF(c, recvbuf, (uint64_t)r->count * (uint64_t)p, rd, fn);
    }
    if (!req && !kind) {
        int rc = rx_alltoall_shm(c, in_place, sendbuf, s, recvbuf, r);
        if (rc != RX_ERR_AGAIN && rc != RX_COLL_DECLINED)
            return rx_coll_rc(c, rc, fn);
    }
    rx_coll_exec_t *e = rx_coll_exec_new(c, RX_COLL_ALLTOALL, req);
    if (!e)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    if (!(e->vec = malloc(sizeof(uint64_t) * 4 * (size_t)p)))
        return RX_NO_MEM(e, fn);
    char *out = rx_a2a_side(e, 2 * p, r, recvbuf, 0, kind == 2, &cls, fn);
    if (!out) {
        rx_coll_exec_put(e);
        return cls == MPI_ERR_NO_MEM ? rx_mpi_err(c, cls, fn, "out of memory") : cls;
    }
    char *in;
    if (in_place) {
        /* the input is what recvbuf holds now, in the receive layout */
        rx_a2a_side_t copy = *r;
        memcpy(e->vec, e->vec + 2 * p, sizeof(uint64_t) * 2 * (size_t)p);
        void *keep = e->stage[1];
        e->stage[1] = NULL;
        in = rx_a2a_side(e, 0, &copy, recvbuf, 1, kind == 2, &cls, fn);
        e->stage[2] = e->stage[0];
        e->stage[0] = NULL;
        e->stage[1] = keep;
        if (in && in == (char *)recvbuf) {
            /* raw data: take a copy, the exchange overwrites it */
            uint64_t end = 0;
            for (int i = 0; i < p; i++)
                end = e->vec[p + i] + e->vec[i] > end ? e->vec[p + i] + e->vec[i] : end;
            if (!(in = e->stage[2] = malloc(end ? end : 1)))
                return RX_NO_MEM(e, fn);
            memcpy(in, recvbuf, end);
        }
    } else {
        in = rx_a2a_side(e, 0, s, (void *)sendbuf, 1, kind == 2, &cls, fn);
    }
    if (!in) {
        rx_coll_exec_put(e);
        return cls == MPI_ERR_NO_MEM ? rx_mpi_err(c, cls, fn, "out of memory") : cls;
    }
    e->args.scounts = e->vec;
    e->args.sdispls = e->vec + p;
    e->args.rcounts = e->vec + 2 * p;
    e->args.rdispls = e->vec + 3 * p;
    if (!kind) {
        /* uniform blocks: Bruck applies */
        e->args.bytes = e->vec[0];
        if (e->vec[0] != e->vec[2 * p])
            return rx_coll_fail(e, MPI_ERR_TRUNCATE, fn, "send and receive blocks differ in size");
        int contiguous = 1;
        for (int i = 0; i < p; i++)
            contiguous &= e->vec[p + i] == (uint64_t)i * e->vec[0] &&
                          e->vec[3 * p + i] == (uint64_t)i * e->vec[0];
        if (contiguous)
            e->args.scounts = e->args.sdispls = e->args.rcounts = e->args.rdispls = NULL;
    }
    e->buf[RX_SB_IN] = in;
    e->buf[RX_SB_OUT] = out;
    return rx_coll_go(e, req, fn);
}

#define RX_ALLTOALL_PARAMS(C, D, A)                                                        \
    (const void *sendbuf, C sendcount, MPI_Datatype sendtype, void *recvbuf, C recvcount, \
     MPI_Datatype recvtype, MPI_Comm comm)
RX_COUNT_FORMS(Alltoall, RX_ALLTOALL_PARAMS, {
    rx_a2a_side_t s = {.count = sendcount, .type = sendtype};
    rx_a2a_side_t r = {.count = recvcount, .type = recvtype};
    return rx_alltoall(sendbuf, &s, recvbuf, &r, 0, comm, NULL, fn);
})
#define RX_ALLTOALLV_PARAMS(C, D, A)                                                      \
    (const void *sendbuf, const C sendcounts[], const D sdispls[], MPI_Datatype sendtype, \
     void *recvbuf, const C recvcounts[], const D rdispls[], MPI_Datatype recvtype,       \
     MPI_Comm comm)
RX_COUNT_FORMS(Alltoallv, RX_ALLTOALLV_PARAMS, {
    rx_a2a_side_t s = {RX_IVEC(sendcounts), RX_IVEC(sdispls), NULL, 0, sendtype};
    rx_a2a_side_t r = {RX_IVEC(recvcounts), RX_IVEC(rdispls), NULL, 0, recvtype};
    return rx_alltoall(sendbuf, &s, recvbuf, &r, 1, comm, NULL, fn);
})
/* the int form's displacements are int, the _c form's MPI_Aint */
#define RX_ALLTOALLW_PARAMS(C, D, A)                                                       \
    (const void *sendbuf, const C sendcounts[], const D sdispls[],                      \
     const MPI_Datatype sendtypes[], void *recvbuf, const C recvcounts[], const D rdispls[], \
     const MPI_Datatype recvtypes[], MPI_Comm comm)
RX_COUNT_FORMS(Alltoallw, RX_ALLTOALLW_PARAMS, {
    rx_a2a_side_t s = {RX_IVEC(sendcounts), RX_IVEC(sdispls), sendtypes, 0, 0};
    rx_a2a_side_t r = {RX_IVEC(recvcounts), RX_IVEC(rdispls), recvtypes, 0, 0};
    return rx_alltoall(sendbuf, &s, recvbuf, &r, 2, comm, NULL, fn);
})

/* ---- nonblocking forms --------------------------------------------------- */

#define RX_IGATHER_PARAMS(C, D, A)                                                         \
    (const void *sendbuf, C sendcount, MPI_Datatype sendtype, void *recvbuf, C recvcount, \
     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
RX_COUNT_FORMS(Igather, RX_IGATHER_PARAMS, {
    RX_NB_REQ(request, fn);
    return rx_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, 0, RX_NO_VEC, RX_NO_VEC,
                     recvtype, root, comm, request, fn);
})
#define RX_IGATHERV_PARAMS(C, D, A)                                                       \
    (const void *sendbuf, C sendcount, MPI_Datatype sendtype, void *recvbuf,         \
     const C recvcounts[], const D displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, \
     MPI_Request *request)
RX_COUNT_FORMS(Igatherv, RX_IGATHERV_PARAMS, {
    RX_NB_REQ(request, fn);
    return rx_gather(sendbuf, sendcount, sendtype, recvbuf, 0, 1, RX_IVEC(recvcounts),
                     RX_IVEC(displs), recvtype, root, comm, request, fn);
})
#define RX_ISCATTER_PARAMS(C, D, A)                                                        \
    (const void *sendbuf, C sendcount, MPI_Datatype sendtype, void *recvbuf, C recvcount, \
     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
RX_COUNT_FORMS(Iscatter, RX_ISCATTER_PARAMS, {
    RX_NB_REQ(request, fn);
    return rx_scatter(sendbuf, sendcount, 0, RX_NO_VEC, RX_NO_VEC, sendtype, recvbuf, recvcount,
                      recvtype, root, comm, request, fn);
})
#define RX_ISCATTERV_PARAMS(C, D, A)                                                          \
    (const void *sendbuf, const C sendcounts[], const D displs[], MPI_Datatype sendtype, \
     void *recvbuf, C recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,          \
     MPI_Request *request)
RX_COUNT_FORMS(Iscatterv, RX_ISCATTERV_PARAMS, {
    RX_NB_REQ(request, fn);
    return rx_scatter(sendbuf, 0, 1, RX_IVEC(sendcounts), RX_IVEC(displs), sendtype, recvbuf,
                      recvcount, recvtype, root, comm, request, fn);
})
#define RX_IALLGATHER_PARAMS(C, D, A)                                                      \
    (const void *sendbuf, C sendcount, MPI_Datatype sendtype, void *recvbuf, C recvcount, \
     MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
RX_COUNT_FORMS(Iallgather, RX_IALLGATHER_PARAMS, {
    RX_NB_REQ(request, fn);
    return rx_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, RX_NO_VEC, RX_NO_VEC,
                        recvtype, comm, request, fn);
})
#define RX_IALLGATHERV_PARAMS(C, D, A)                                                   \
    (const void *sendbuf, C sendcount, MPI_Datatype sendtype, void *recvbuf,        \
     const C recvcounts[], const D displs[], MPI_Datatype recvtype, MPI_Comm comm,  \
     MPI_Request *request)
RX_COUNT_FORMS(Iallgatherv, RX_IALLGATHERV_PARAMS, {
    RX_NB_REQ(request, fn);
    return rx_allgather(sendbuf, sendcount, sendtype, recvbuf, 0, RX_IVEC(recvcounts),
                        RX_IVEC(displs), recvtype, comm, request, fn);
})
#define RX_IALLTOALL_PARAMS(C, D, A)                                                       \
    (const void *sendbuf, C sendcount, MPI_Datatype sendtype, void *recvbuf, C recvcount, \
     MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
RX_COUNT_FORMS(Ialltoall, RX_IALLTOALL_PARAMS, {
    RX_NB_REQ(request, fn);
    rx_a2a_side_t s = {.count = sendcount, .type = sendtype};
    rx_a2a_side_t r = {.count = recvcount, .type = recvtype};
    return rx_alltoall(sendbuf, &s, recvbuf, &r, 0, comm, request, fn);
})
#define RX_IALLTOALLV_PARAMS(C, D, A)                                                        \
    (const void *sendbuf, const C sendcounts[], const D sdispls[], MPI_Datatype sendtype, \
     void *recvbuf, const C recvcounts[], const D rdispls[], MPI_Datatype recvtype,       \
     MPI_Comm comm, MPI_Request *request)
RX_COUNT_FORMS(Ialltoallv, RX_IALLTOALLV_PARAMS, {
    RX_NB_REQ(request, fn);
    rx_a2a_side_t s = {RX_IVEC(sendcounts), RX_IVEC(sdispls), NULL, 0, sendtype};
    rx_a2a_side_t r = {RX_IVEC(recvcounts), RX_IVEC(rdispls), NULL, 0, recvtype};
    return rx_alltoall(sendbuf, &s, recvbuf, &r, 1, comm, request, fn);
})
#define RX_IALLTOALLW_PARAMS(C, D, A)                                                      \
    (const void *sendbuf, const C sendcounts[], const D sdispls[],                      \
     const MPI_Datatype sendtypes[], void *recvbuf, const C recvcounts[], const D rdispls[], \
     const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
RX_COUNT_FORMS(Ialltoallw, RX_IALLTOALLW_PARAMS, {
    RX_NB_REQ(request, fn);
    rx_a2a_side_t s = {RX_IVEC(sendcounts), RX_IVEC(sdispls), sendtypes, 0, 0};
    rx_a2a_side_t r = {RX_IVEC(recvcounts), RX_IVEC(rdispls), recvtypes, 0, 0};
    return rx_alltoall(sendbuf, &s, recvbuf, &r, 2, comm, request, fn);
})
