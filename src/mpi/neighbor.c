/* SPDX-License-Identifier: MIT
 * Neighbourhood collectives (allgather, allgatherv, alltoall, alltoallv,
 * alltoallw) and their nonblocking forms on Cartesian and distributed-graph
 * communicators. One description covers all: each side (send to the out-
 * neighbours, receive from the in-neighbours) is a buffer with per-neighbour
 * counts, displacements and types, each optional; the transfers run in
 * src/coll/neighbor.c. */
#include "mpi_impl.h"
#include "coll/neighbor.h"

#include <stdlib.h>

typedef struct rx_side {
    const void *buf;
    int count;                  /* used when counts is NULL */
    const int *counts;
    int blocked;                /* neighbour k at k * count elements (allgather recv, alltoall) */
    const int *idispls;         /* in elements */
    const MPI_Aint *adispls;    /* in bytes (alltoallw) */
    MPI_Datatype type;          /* used when types is NULL */
    const MPI_Datatype *types;
} rx_side_t;

static int rx_side_xfers(rx_comm_t *c, const rx_side_t *s, int send, int n, const int *peers,
                         int tminus, int tplus, int cart, rx_nbr_xfer_t *x, const char *fn)
{
    for (int k = 0; k < n; k++) {
        int count = s->counts ? s->counts[k] : s->count;
        MPI_Datatype th = s->types ? s->types[k] : s->type;
        RX_CHECK_COUNT(c, count, fn);
        RX_GET_DTYPE(dt, c, th, fn);
        /* blocked: the blocks before this one are part of its buffer */
        RX_CHECK_BUF(c, s->buf, s->blocked ? (uint64_t)(k + 1) * (uint64_t)count : (uint64_t)count,
                     dt, fn);
        int64_t d = s->idispls ? s->idispls[k] : 0;
        if (rx_mpi_data_class(s->buf, (uint64_t)(d < 0 ? -d : d), dt) == MPI_ERR_COUNT)
            return rx_mpi_err(c, MPI_ERR_COUNT, fn, "a displacement of %lld elements is beyond "
                              "what one call reaches", (long long)d);
        if (s->buf == MPI_IN_PLACE)
            return rx_mpi_err(c, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is not allowed here");
        intptr_t off = s->adispls   ? s->adispls[k]
                       : s->idispls ? (intptr_t)s->idispls[k] * dt->extent
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

#define RX_NBR_PAIR(NAME, ARGS, SEND, RECV)                                                     \
    int PMPI_Neighbor_##NAME ARGS                                                               \
    {                                                                                           \
        rx_side_t s = SEND, r = RECV;                                                           \
        return rx_neighbor(&s, &r, comm, NULL, "MPI_Neighbor_" #NAME);                          \
    }                                                                                           \
    RX_ALIAS(Neighbor_##NAME)

#define RX_INBR_PAIR(NAME, ARGS, SEND, RECV)                                                    \
    int PMPI_Ineighbor_##NAME ARGS                                                              \
    {                                                                                           \
        if (!request)                                                                           \
            return rx_mpi_err(rx_comm_get(comm), MPI_ERR_ARG, "MPI_Ineighbor_" #NAME,           \
                              "request is NULL");                                               \
        rx_side_t s = SEND, r = RECV;                                                           \
        return rx_neighbor(&s, &r, comm, request, "MPI_Ineighbor_" #NAME);                      \
    }                                                                                           \
    RX_ALIAS(Ineighbor_##NAME)

#define RX_AG_ARGS const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, \
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm
#define RX_AG_SEND {.buf = sendbuf, .count = sendcount, .type = sendtype}
#define RX_AG_RECV {.buf = recvbuf, .count = recvcount, .type = recvtype, .blocked = 1}
RX_NBR_PAIR(allgather, (RX_AG_ARGS), RX_AG_SEND, RX_AG_RECV)
RX_INBR_PAIR(allgather, (RX_AG_ARGS, MPI_Request *request), RX_AG_SEND, RX_AG_RECV)

#define RX_AGV_ARGS const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, \
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,        \
                    MPI_Comm comm
#define RX_AGV_RECV {.buf = recvbuf, .counts = recvcounts, .idispls = displs, .type = recvtype}
RX_NBR_PAIR(allgatherv, (RX_AGV_ARGS), RX_AG_SEND, RX_AGV_RECV)
RX_INBR_PAIR(allgatherv, (RX_AGV_ARGS, MPI_Request *request), RX_AG_SEND, RX_AGV_RECV)

#define RX_A2A_SEND {.buf = sendbuf, .count = sendcount, .type = sendtype, .blocked = 1}
RX_NBR_PAIR(alltoall, (RX_AG_ARGS), RX_A2A_SEND, RX_AG_RECV)
RX_INBR_PAIR(alltoall, (RX_AG_ARGS, MPI_Request *request), RX_A2A_SEND, RX_AG_RECV)

#define RX_A2AV_ARGS const void *sendbuf, const int sendcounts[], const int sdispls[],         \
                     MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],             \
                     const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm
#define RX_A2AV_SEND {.buf = sendbuf, .counts = sendcounts, .idispls = sdispls, .type = sendtype}
#define RX_A2AV_RECV {.buf = recvbuf, .counts = recvcounts, .idispls = rdispls, .type = recvtype}
RX_NBR_PAIR(alltoallv, (RX_A2AV_ARGS), RX_A2AV_SEND, RX_A2AV_RECV)
RX_INBR_PAIR(alltoallv, (RX_A2AV_ARGS, MPI_Request *request), RX_A2AV_SEND, RX_A2AV_RECV)

#define RX_A2AW_ARGS const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],    \
                     const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],    \
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm
#define RX_A2AW_SEND {.buf = sendbuf, .counts = sendcounts, .adispls = sdispls, .types = sendtypes}
#define RX_A2AW_RECV {.buf = recvbuf, .counts = recvcounts, .adispls = rdispls, .types = recvtypes}
RX_NBR_PAIR(alltoallw, (RX_A2AW_ARGS), RX_A2AW_SEND, RX_A2AW_RECV)
RX_INBR_PAIR(alltoallw, (RX_A2AW_ARGS, MPI_Request *request), RX_A2AW_SEND, RX_A2AW_RECV)
