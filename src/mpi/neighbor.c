/* SPDX-License-Identifier: MIT
 * Neighbourhood collectives (allgather, allgatherv, alltoall, alltoallv,
 * alltoallw) and their nonblocking forms on Cartesian and distributed-graph
 * communicators. One description covers all: each side (send to the out-
 * neighbours, receive from the in-neighbours) is a buffer with per-neighbour
 * counts, displacements and types, each optional; the transfers run in
 * src/coll/neighbor.c. */
#include "mpi_impl.h"
#include "bigcount.h"
#include "coll/neighbor.h"

#include <stdlib.h>

typedef struct rx_side {
    const void *buf;
    MPI_Count count;            /* used when counts is NULL */
    rx_ivec_t counts;
    int blocked;                /* neighbour k at k * count elements (allgather recv, alltoall) */
    rx_ivec_t idispls;          /* in elements */
    const MPI_Aint *adispls;    /* in bytes (alltoallw) */
    MPI_Datatype type;          /* used when types is NULL */
    const MPI_Datatype *types;
} rx_side_t;

static int rx_side_xfers(rx_comm_t *c, const rx_side_t *s, int send, int n, const int *peers,
                         int tminus, int tplus, int cart, rx_nbr_xfer_t *x, const char *fn)
{
    for (int k = 0; k < n; k++) {
        int64_t count = s->counts.p ? rx_ivec_at(s->counts, k) : s->count;
        MPI_Datatype th = s->types ? s->types[k] : s->type;
        RX_CHECK_COUNT(c, count, fn);
        RX_GET_DTYPE(dt, c, th, fn);
        /* blocked: the blocks before this one are part of its buffer */
        RX_CHECK_BUF(c, s->buf, s->blocked ? (uint64_t)(k + 1) * (uint64_t)count : (uint64_t)count,
                     dt, fn);
        int64_t d = s->idispls.p ? rx_ivec_at(s->idispls, k) : 0;
        if (rx_mpi_data_class(s->buf, (uint64_t)(d < 0 ? -d : d), dt) == MPI_ERR_COUNT)
            return rx_mpi_err(c, MPI_ERR_COUNT, fn, "a displacement of %lld elements is beyond "
                              "what one call reaches", (long long)d);
        if (s->buf == MPI_IN_PLACE)
            return rx_mpi_err(c, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is not allowed here");
        intptr_t off = s->adispls   ? s->adispls[k]
                       : s->idispls.p ? (intptr_t)d * dt->extent
                       : s->blocked ? (intptr_t)k * count * dt->extent
                                    : 0;
        /* Cartesian: a block sent towards -1 arrives in the +1 slot of the
         * receiver's list, so tags follow the direction of travel */
        int tag = !cart ? tminus : send ? (k % 2 ? tplus : tminus) : (k % 2 ? tminus : tplus);
        x[k] = (rx_nbr_xfer_t){send, peers[k], tag, (char *)s->buf + off, (size_t)count, dt};
    }
    return MPI_SUCCESS;
}

static int rx_neighbor(const rx_side_t *snd, const rx_side_t *rcv, MPI_Comm comm,
                       MPI_Request *request, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    if (c->remote)
        return rx_mpi_err(c, MPI_ERR_COMM, fn, "neighbourhood collectives are not defined on "
                          "intercommunicators");
    if (!c->topo_kind || !c->topo)
        return rx_mpi_err(c, MPI_ERR_TOPOLOGY, fn, "communicator has no process topology");
    rx_topo_t *t = c->topo;
    int n = t->indeg + t->outdeg;
    rx_nbr_xfer_t stackx[16], *x = n <= 16 ? stackx : malloc(sizeof *x * (size_t)n);
    if (!x)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    int tminus, tplus, cart = c->topo_kind == MPI_CART;
    rx_nbr_tags(c, &tminus, &tplus);
    int rc = rx_side_xfers(c, rcv, 0, t->indeg, t->in, tminus, tplus, cart, x, fn);
    if (rc == MPI_SUCCESS)
        rc = rx_side_xfers(c, snd, 1, t->outdeg, t->out, tminus, tplus, cart, x + t->indeg, fn);
    rx_req_t *top = NULL;
    if (rc == MPI_SUCCESS && request) {
        if (!(top = rx_req_alloc(RX_REQ_COLL)))
            rc = rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of requests");
        else {
            rx_req_hold_comm(top, c); /* MPI_Comm_free lets it complete */
            top->st_source = MPI_ANY_SOURCE;
            top->st_tag = MPI_ANY_TAG;
        }
    }
    if (rc == MPI_SUCCESS) {
        int st = rx_nbr_run(c, x, n, top);
        if (st != RX_OK) {
            rx_req_release(top);
            rc = rx_mpi_err(c, rx_mpi_class_of(st), fn, "%s", rx_status_string(st));
        } else if (top) {
            *request = RX_HANDLE(RX_KIND_REQUEST, top->index);
        }
    }
    if (x != stackx)
        free(x);
    return rc;
}

/* Each neighbourhood collective in its int and _c forms, blocking (PARAMS)
 * and nonblocking (IPARAMS, with the request). */
#define RX_NBR_FORMS(NAME, PARAMS, IPARAMS, SEND, RECV)                                   \
    RX_COUNT_FORMS(Neighbor_##NAME, PARAMS, {                                             \
        rx_side_t s = SEND, r = RECV;                                                     \
        return rx_neighbor(&s, &r, comm, NULL, fn);                                       \
    })                                                                                    \
    RX_COUNT_FORMS(Ineighbor_##NAME, IPARAMS, {                                           \
        if (!request)                                                                     \
            return rx_mpi_err(rx_comm_get(comm), MPI_ERR_ARG, fn, "request is NULL");    \
        rx_side_t s = SEND, r = RECV;                                                     \
        return rx_neighbor(&s, &r, comm, request, fn);                                    \
    })

#define RX_AG_ARGS(C) const void *sendbuf, C sendcount, MPI_Datatype sendtype, void *recvbuf, \
                      C recvcount, MPI_Datatype recvtype, MPI_Comm comm
#define RX_AG_PARAMS(C, D, A) (RX_AG_ARGS(C))
#define RX_IAG_PARAMS(C, D, A) (RX_AG_ARGS(C), MPI_Request *request)
#define RX_AG_SEND {.buf = sendbuf, .count = sendcount, .type = sendtype}
#define RX_AG_RECV {.buf = recvbuf, .count = recvcount, .type = recvtype, .blocked = 1}
RX_NBR_FORMS(allgather, RX_AG_PARAMS, RX_IAG_PARAMS, RX_AG_SEND, RX_AG_RECV)

#define RX_AGV_ARGS(C, D) const void *sendbuf, C sendcount, MPI_Datatype sendtype,         \
                          void *recvbuf, const C recvcounts[], const D displs[],             \
                          MPI_Datatype recvtype, MPI_Comm comm
#define RX_AGV_PARAMS(C, D, A) (RX_AGV_ARGS(C, D))
#define RX_IAGV_PARAMS(C, D, A) (RX_AGV_ARGS(C, D), MPI_Request *request)
#define RX_AGV_RECV {.buf = recvbuf, .counts = RX_IVEC(recvcounts), .idispls = RX_IVEC(displs), \
                     .type = recvtype}
RX_NBR_FORMS(allgatherv, RX_AGV_PARAMS, RX_IAGV_PARAMS, RX_AG_SEND, RX_AGV_RECV)

#define RX_A2A_SEND {.buf = sendbuf, .count = sendcount, .type = sendtype, .blocked = 1}
RX_NBR_FORMS(alltoall, RX_AG_PARAMS, RX_IAG_PARAMS, RX_A2A_SEND, RX_AG_RECV)

#define RX_A2AV_ARGS(C, D) const void *sendbuf, const C sendcounts[], const D sdispls[],   \
                           MPI_Datatype sendtype, void *recvbuf, const C recvcounts[],     \
                           const D rdispls[], MPI_Datatype recvtype, MPI_Comm comm
#define RX_A2AV_PARAMS(C, D, A) (RX_A2AV_ARGS(C, D))
#define RX_IA2AV_PARAMS(C, D, A) (RX_A2AV_ARGS(C, D), MPI_Request *request)
#define RX_A2AV_SEND {.buf = sendbuf, .counts = RX_IVEC(sendcounts), .idispls = RX_IVEC(sdispls), \
                      .type = sendtype}
#define RX_A2AV_RECV {.buf = recvbuf, .counts = RX_IVEC(recvcounts), .idispls = RX_IVEC(rdispls), \
                      .type = recvtype}
RX_NBR_FORMS(alltoallv, RX_A2AV_PARAMS, RX_IA2AV_PARAMS, RX_A2AV_SEND, RX_A2AV_RECV)

/* byte displacements are MPI_Aint in both forms */
#define RX_A2AW_ARGS(C) const void *sendbuf, const C sendcounts[], const MPI_Aint sdispls[], \
                        const MPI_Datatype sendtypes[], void *recvbuf, const C recvcounts[], \
                        const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm
#define RX_A2AW_PARAMS(C, D, A) (RX_A2AW_ARGS(C))
#define RX_IA2AW_PARAMS(C, D, A) (RX_A2AW_ARGS(C), MPI_Request *request)
#define RX_A2AW_SEND {.buf = sendbuf, .counts = RX_IVEC(sendcounts), .adispls = sdispls, \
                      .types = sendtypes}
#define RX_A2AW_RECV {.buf = recvbuf, .counts = RX_IVEC(recvcounts), .adispls = rdispls, \
                      .types = recvtypes}
RX_NBR_FORMS(alltoallw, RX_A2AW_PARAMS, RX_IA2AW_PARAMS, RX_A2AW_SEND, RX_A2AW_RECV)
