/* SPDX-License-Identifier: MIT
 * Persistent collectives (MPI-4.0 §6.13): MPI_Barrier_init ...
 * MPI_Neighbor_alltoallw_init. The init call checks the arguments and keeps
 * them in a persistent request (kind RX_REQ_PSEND, mode RX_PMODE_COLL, so
 * that Wait / Test / Request_free treat it as every persistent request);
 * MPI_Start runs the collective's nonblocking form with them, and a progress
 * hook completes the persistent request when that operation has. The
 * operation's messages carry tags the request took at init, not at the
 * start, so members may start their requests in different orders (§6.13;
 * coll.h, rx_coll_pin_reserve). Starting
 * through the nonblocking entry points keeps one implementation of every
 * collective, intercommunicators included, and the collective layer's
 * schedule cache turns each start after the first into a lookup.
 *
 * The standard forbids changing the count, displacement and datatype arrays
 * while the request lives, so they are kept by address. The communicator and
 * the datatypes (those of the w forms' arrays too) are held: the program may
 * free them after the init call, and starts still find them. */
#include "coll_impl.h"
#include "info_impl.h"
#include "persist_impl.h"
#include "bigcount.h"

#include <stdlib.h>

enum rx_pcoll_kind {
    PC_BARRIER, PC_BCAST, PC_GATHER, PC_GATHERV, PC_SCATTER, PC_SCATTERV, PC_ALLGATHER,
    PC_ALLGATHERV, PC_ALLTOALL, PC_ALLTOALLV, PC_ALLTOALLW, PC_REDUCE, PC_ALLREDUCE,
    PC_REDUCE_SCATTER, PC_REDUCE_SCATTER_BLOCK, PC_SCAN, PC_EXSCAN, PC_NB_ALLGATHER,
    PC_NB_ALLGATHERV, PC_NB_ALLTOALL, PC_NB_ALLTOALLV, PC_NB_ALLTOALLW,
};

typedef struct rx_pcoll {
    struct rx_pcoll *next;
    int req_id;               /* the persistent request (rx_req_lookup fails once released) */
    int kind;
    MPI_Request running;      /* the started nonblocking collective, or MPI_REQUEST_NULL */
    uint32_t tags;            /* the block of collective tags every start uses (coll.h) */
    MPI_Comm comm;
    const void *sbuf;
    void *rbuf;
    MPI_Count scount, rcount; /* the one-count forms (int or _c) */
    int root;
    MPI_Datatype stype, rtype;
    MPI_Op op;
    /* the v and w forms' arrays: int ones, or (wide) those of the _c form */
    const void *scounts, *sdispls, *rcounts, *rdispls;
    int wide;
    const MPI_Datatype *stypes, *rtypes;
    MPI_Datatype *held;       /* the w forms: the per-peer types the request holds */
    int nheld;
} rx_pcoll_t;

static rx_pcoll_t *rx_pcolls;

/* A derived datatype stays usable by handle while a request holds it, as
 * MPI_Type_get_contents' results do (dtype.c). */
static void rx_pcoll_hold_type(MPI_Datatype h)
{
    rx_dtype_t *t = rx_dtype_get_held(h);
    if (!t || t->predefined)
        return;
    if (t->handles++ == 0)
        rx_htab_revive(&rx_dtype_table, t->index);
    rx_dtype_ref(t);
}

static void rx_pcoll_drop_type(MPI_Datatype h)
{
    rx_dtype_t *t = rx_dtype_get_held(h);
    if (!t || t->predefined)
        return;
    if (--t->handles <= 0 && t->refcount > 1)
        rx_htab_retire(&rx_dtype_table, t->index);
    rx_dtype_unref(t);
}

static void rx_pcoll_destroy(rx_pcoll_t *p)
{
    rx_pcoll_drop_type(p->stype);
    rx_pcoll_drop_type(p->rtype);
    for (int i = 0; i < p->nheld; i++)
        rx_pcoll_drop_type(p->held[i]);
    free(p->held);
    free(p);
}

/* The entries of the per-peer arrays of a w form on c: the group (the
 * remote one of an intercommunicator) or the topology's neighbours. */
static void rx_pcoll_peers(rx_comm_t *c, MPI_Comm comm, int neighbor, int *in, int *out)
{
    *in = *out = c->remote ? c->remote->size : c->size;
    if (!neighbor)
        return;
    int kind = MPI_UNDEFINED, w, nd = 0;
    *in = *out = 0; /* no topology: the start reports it */
    PMPI_Topo_test(comm, &kind);
    if (kind == MPI_CART && PMPI_Cartdim_get(comm, &nd) == MPI_SUCCESS)
        *in = *out = 2 * nd;
    else if (kind == MPI_GRAPH)
        PMPI_Graph_neighbors_count(comm, c->rank, in), *out = *in;
    else if (kind == MPI_DIST_GRAPH)
        PMPI_Dist_graph_neighbors_count(comm, in, out, &w);
}

/* Hold the per-peer datatypes of a w form, so that the program may free
 * them after the init call as it may the others (the send types are not
 * read with MPI_IN_PLACE). */
static int rx_pcoll_hold_arrays(rx_pcoll_t *p, rx_comm_t *c, int neighbor)
{
    int in, out;
    rx_pcoll_peers(c, p->comm, neighbor, &in, &out);
    int ns = p->sbuf == MPI_IN_PLACE || !p->stypes ? 0 : out, nr = p->rtypes ? in : 0;
    if (ns + nr == 0)
        return RX_OK;
    if (!(p->held = malloc(sizeof(MPI_Datatype) * (size_t)(ns + nr))))
        return RX_ERR_NOMEM;
    for (int i = 0; i < ns; i++)
        p->held[p->nheld++] = p->stypes[i];
    for (int i = 0; i < nr; i++)
        p->held[p->nheld++] = p->rtypes[i];
    for (int i = 0; i < p->nheld; i++)
        rx_pcoll_hold_type(p->held[i]);
    return RX_OK;
}

/* The v and w forms: the nonblocking call of the init call's form (the
 * arrays convert from const void * to either). */
#define RX_PC_FORM(name, ...) \
    (p->wide ? PMPI_##name##_c(__VA_ARGS__) : PMPI_##name(__VA_ARGS__))

/* Run the nonblocking form of p's collective. */
static int rx_pcoll_issue(rx_pcoll_t *p, MPI_Request *q)
{
    switch (p->kind) {
    case PC_BARRIER: return PMPI_Ibarrier(p->comm, q);
    case PC_BCAST: return PMPI_Ibcast_c(p->rbuf, p->rcount, p->rtype, p->root, p->comm, q);
    case PC_GATHER:
        return PMPI_Igather_c(p->sbuf, p->scount, p->stype, p->rbuf, p->rcount, p->rtype, p->root,
                            p->comm, q);
    case PC_GATHERV:
        return RX_PC_FORM(Igatherv, p->sbuf, p->scount, p->stype, p->rbuf, p->rcounts, p->rdispls,
                          p->rtype, p->root, p->comm, q);
    case PC_SCATTER:
        return PMPI_Iscatter_c(p->sbuf, p->scount, p->stype, p->rbuf, p->rcount, p->rtype, p->root,
                             p->comm, q);
    case PC_SCATTERV:
        return RX_PC_FORM(Iscatterv, p->sbuf, p->scounts, p->sdispls, p->stype, p->rbuf, p->rcount,
                          p->rtype, p->root, p->comm, q);
    case PC_ALLGATHER:
        return PMPI_Iallgather_c(p->sbuf, p->scount, p->stype, p->rbuf, p->rcount, p->rtype,
                               p->comm, q);
    case PC_ALLGATHERV:
        return RX_PC_FORM(Iallgatherv, p->sbuf, p->scount, p->stype, p->rbuf, p->rcounts,
                          p->rdispls, p->rtype, p->comm, q);
    case PC_ALLTOALL:
        return PMPI_Ialltoall_c(p->sbuf, p->scount, p->stype, p->rbuf, p->rcount, p->rtype,
                              p->comm, q);
    case PC_ALLTOALLV:
        return RX_PC_FORM(Ialltoallv, p->sbuf, p->scounts, p->sdispls, p->stype, p->rbuf,
                          p->rcounts, p->rdispls, p->rtype, p->comm, q);
    case PC_ALLTOALLW:
        return RX_PC_FORM(Ialltoallw, p->sbuf, p->scounts, p->sdispls, p->stypes, p->rbuf,
                          p->rcounts, p->rdispls, p->rtypes, p->comm, q);
    case PC_REDUCE:
        return PMPI_Ireduce_c(p->sbuf, p->rbuf, p->rcount, p->rtype, p->op, p->root, p->comm, q);
    case PC_ALLREDUCE:
        return PMPI_Iallreduce_c(p->sbuf, p->rbuf, p->rcount, p->rtype, p->op, p->comm, q);
    case PC_REDUCE_SCATTER:
        return RX_PC_FORM(Ireduce_scatter, p->sbuf, p->rbuf, p->rcounts, p->rtype, p->op, p->comm,
                          q);
    case PC_REDUCE_SCATTER_BLOCK:
        return PMPI_Ireduce_scatter_block_c(p->sbuf, p->rbuf, p->rcount, p->rtype, p->op,
                                            p->comm, q);
    case PC_SCAN: return PMPI_Iscan_c(p->sbuf, p->rbuf, p->rcount, p->rtype, p->op, p->comm, q);
    case PC_EXSCAN: return PMPI_Iexscan_c(p->sbuf, p->rbuf, p->rcount, p->rtype, p->op, p->comm,
                                         q);
    case PC_NB_ALLGATHER:
        return PMPI_Ineighbor_allgather_c(p->sbuf, p->scount, p->stype, p->rbuf, p->rcount,
                                          p->rtype, p->comm, q);
    case PC_NB_ALLGATHERV:
        return RX_PC_FORM(Ineighbor_allgatherv, p->sbuf, p->scount, p->stype, p->rbuf, p->rcounts,
                          p->rdispls, p->rtype, p->comm, q);
    case PC_NB_ALLTOALL:
        return PMPI_Ineighbor_alltoall_c(p->sbuf, p->scount, p->stype, p->rbuf, p->rcount,
                                         p->rtype, p->comm, q);
    case PC_NB_ALLTOALLV:
        return RX_PC_FORM(Ineighbor_alltoallv, p->sbuf, p->scounts, p->sdispls, p->stype, p->rbuf,
                          p->rcounts, p->rdispls, p->rtype, p->comm, q);
    default:
        return RX_PC_FORM(Ineighbor_alltoallw, p->sbuf, p->scounts, p->sdispls, p->stypes,
                          p->rbuf, p->rcounts, p->rdispls, p->rtypes, p->comm, q);
    }
}

/* Completes persistent requests whose operation is done, and lets go of
 * those the program released (MPI_Request_free) while they were inactive. */
static int rx_pcoll_progress(void)
{
    int n = 0;
    for (rx_pcoll_t **pp = &rx_pcolls; *pp;) {
        rx_pcoll_t *p = *pp;
        rx_req_t *r = rx_req_lookup(p->req_id);
        rx_req_t *run = p->running == MPI_REQUEST_NULL
                            ? NULL : rx_req_lookup(RX_HANDLE_INDEX(p->running));
        if (run && run->complete) {
            MPI_Status st;
            int err = rx_mpi_req_finish(&p->running, run, &st);
            p->running = MPI_REQUEST_NULL;
            run = NULL;
            if (r) {
                r->st_error = err;
                if (r->user_freed) { /* freed while active: it goes now */
                    rx_req_release(r);
                    r = NULL;
                } else {
                    rx_req_complete(r);
                }
            }
            n++;
        }
        if (!r && !run) {
            *pp = p->next;
            rx_pcoll_destroy(p);
        } else {
            pp = &p->next;
        }
    }
    return n;
}

int rx_pcoll_start(rx_req_t *r)
{
    rx_pcoll_t *p = (rx_pcoll_t *)r->coll;
    rx_comm_t *c = r->comm;
    r->st_source = MPI_ANY_SOURCE;
    r->st_tag = MPI_ANY_TAG;
    /* A communicator the program freed after the init call is still held by
     * the request; its handle is accepted for this start. */
    int freed = c->freed;
    c->freed = 0;
    rx_coll_pin_t before = rx_coll_pin_swap((rx_coll_pin_t){1, p->tags, 0});
    int rc = rx_pcoll_issue(p, &p->running);
    rx_coll_pin_swap(before);
    c->freed = freed;
    if (rc != MPI_SUCCESS) {
        p->running = MPI_REQUEST_NULL;
        r->st_error = rc;
        r->complete = 1;
        return rc; /* reported by the nonblocking call, in its own name */
    }
    return MPI_SUCCESS;
}

/* Checks shared by every init call, then the request. */
static int rx_pcoll_new(rx_pcoll_t *proto, MPI_Info info, MPI_Request *request, const char *fn)
{
    RX_GET_COMM(c, proto->comm, fn);
    rx_info_t *unused;
    int rc = rx_info_arg(c, info, &unused, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!request)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "request is NULL");
    rx_pcoll_t *p = malloc(sizeof *p);
    if (p) {
        *p = *proto;
        int w = p->kind == PC_ALLTOALLW || p->kind == PC_NB_ALLTOALLW;
        if (w && rx_pcoll_hold_arrays(p, c, p->kind == PC_NB_ALLTOALLW) != RX_OK) {
            free(p);
            p = NULL;
        }
    }
    rx_req_t *r = p && rx_progress_hook_add(rx_pcoll_progress) == 0 ? rx_req_alloc(RX_REQ_PSEND)
                                                                     : NULL;
    if (!r) {
        if (p) {
            p->stype = p->rtype = MPI_DATATYPE_NULL; /* not held yet */
            rx_pcoll_destroy(p);
        }
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of requests");
    }
    p->running = MPI_REQUEST_NULL;
    p->tags = rx_coll_pin_reserve(c);
    p->req_id = r->index;
    rx_req_hold_comm(r, c); /* for the request's whole life */
    r->ctx = c->ctx;
    r->p_mode = RX_PMODE_COLL;
    r->coll = p;
    rx_pcoll_hold_type(p->stype);
    rx_pcoll_hold_type(p->rtype);
    p->next = rx_pcolls;
    rx_pcolls = p;
    *request = RX_HANDLE(RX_KIND_REQUEST, r->index);
    return MPI_SUCCESS;
}

/* Argument checks: what can be judged before any data moves (the buffers
 * and arrays are checked again by the nonblocking call at each start). */
static int rx_pcoll_side(rx_comm_t *c, MPI_Count count, MPI_Datatype dt, const char *fn)
{
    RX_CHECK_COUNT(c, count, fn);
    RX_GET_DTYPE(d, c, dt, fn);
    (void)d;
    return MPI_SUCCESS;
}

static int rx_pcoll_rooted(rx_comm_t *c, int root, const char *fn)
{
    if (c->remote)
        return root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < c->remote->size)
                   ? MPI_SUCCESS
                   : rx_mpi_err(c, MPI_ERR_ROOT, fn, "invalid root %d (remote group has %d ranks)",
                                root, c->remote->size);
    return rx_coll_check_root(c, root, fn);
}

static int rx_pcoll_reduction(rx_comm_t *c, MPI_Count count, MPI_Datatype dt, MPI_Op op,
                              const char *fn)
{
    RX_CHECK_COUNT(c, count, fn);
    RX_GET_DTYPE(d, c, dt, fn);
    rx_opobj_t *o;
    return rx_coll_check_op(c, op, d, &o, fn);
}

#define RX_PC_BEGIN(fn, comm_)                  \
    RX_CHECK_INIT(fn);                          \
    RX_GET_COMM(c, comm_, fn);                  \
    int rc = MPI_SUCCESS;                       \
    rx_pcoll_t p = {.comm = (comm_), .stype = MPI_DATATYPE_NULL, .rtype = MPI_DATATYPE_NULL}

#define RX_PC_END(fn) \
    return rc != MPI_SUCCESS ? rc : rx_pcoll_new(&p, info, request, fn)

int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    RX_PC_BEGIN("MPI_Barrier_init", comm);
    (void)c;
    p.kind = PC_BARRIER;
    RX_PC_END("MPI_Barrier_init");
}
RX_ALIAS(Barrier_init)

#define RX_BCAST_INIT_PARAMS(C, D, A)                                                 \
    (void *buffer, C count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info, \
     MPI_Request *request)
RX_COUNT_FORMS(Bcast_init, RX_BCAST_INIT_PARAMS, {
    RX_PC_BEGIN(fn, comm);
    rc = rx_pcoll_side(c, count, datatype, fn);
    if (rc == MPI_SUCCESS)
        rc = rx_pcoll_rooted(c, root, fn);
    p.kind = PC_BCAST;
    p.rbuf = buffer;
    p.rcount = count;
    p.rtype = datatype;
    p.root = root;
    RX_PC_END(fn);
})

/* The sides of a data movement a rank supplies: both for the collectives
 * without a root; by role for rooted ones (on an intercommunicator the root
 * side, the other group, or none for MPI_PROC_NULL). */
enum { RX_SIDE_SEND = 1, RX_SIDE_RECV = 2 };
#define RX_NO_ROOT (-100) /* a collective without a root: every side matters */

static int rx_pcoll_roles(rx_comm_t *c, int root, int gather)
{
    int root_side = gather ? RX_SIDE_RECV : RX_SIDE_SEND;
    int leaf_side = gather ? RX_SIDE_SEND : RX_SIDE_RECV;
    if (c->remote)
        return root == MPI_PROC_NULL ? 0 : root == MPI_ROOT ? root_side : leaf_side;
    return root == c->rank ? RX_SIDE_SEND | RX_SIDE_RECV : leaf_side;
}

/* Counts and datatypes of the sides the rank supplies (a count of 0 stands
 * for the side given by arrays, checked at each start); MPI_IN_PLACE skips
 * the side it replaces. */
static int rx_pcoll_two_sides(rx_comm_t *c, const void *sbuf, MPI_Count scount,
                              MPI_Datatype stype, const void *rbuf, MPI_Count rcount, MPI_Datatype rtype, int root,
                              int gather, const char *fn)
{
    int roles = RX_SIDE_SEND | RX_SIDE_RECV;
    if (root != RX_NO_ROOT) {
        int rc = rx_pcoll_rooted(c, root, fn);
        if (rc != MPI_SUCCESS)
            return rc;
        roles = rx_pcoll_roles(c, root, gather);
    }
    int rc = MPI_SUCCESS;
    if ((roles & RX_SIDE_SEND) && sbuf != MPI_IN_PLACE)
        rc = rx_pcoll_side(c, scount, stype, fn);
    if (rc == MPI_SUCCESS && (roles & RX_SIDE_RECV) && rbuf != MPI_IN_PLACE)
        rc = rx_pcoll_side(c, rcount, rtype, fn);
    return rc;
}

#define RX_PC_MOVE(k)                                                        \
    p.kind = (k);                                                            \
    p.sbuf = sendbuf;                                                        \
    p.rbuf = recvbuf;                                                        \
    p.stype = sendtype;                                                      \
    p.rtype = recvtype

#define RX_ROOTED_INIT_PARAMS(C, D, A)                                                    \
    (const void *sendbuf, C sendcount, MPI_Datatype sendtype, void *recvbuf, C recvcount, \
     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)

/* Gather and scatter with one count a side (gather: 1, scatter: 0). */
static int rx_pcoll_rooted_move(int kind, const void *sendbuf, MPI_Count sendcount,
                                MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                                MPI_Request *request, const char *fn)
{
    RX_PC_BEGIN(fn, comm);
    rc = rx_pcoll_two_sides(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                            kind == PC_GATHER, fn);
    RX_PC_MOVE(kind);
    p.scount = sendcount;
    p.rcount = recvcount;
    p.root = root;
    RX_PC_END(fn);
}

RX_COUNT_FORMS(Gather_init, RX_ROOTED_INIT_PARAMS,
               return rx_pcoll_rooted_move(PC_GATHER, sendbuf, sendcount, sendtype, recvbuf,
                                           recvcount, recvtype, root, comm, info, request, fn);)

RX_COUNT_FORMS(Scatter_init, RX_ROOTED_INIT_PARAMS,
               return rx_pcoll_rooted_move(PC_SCATTER, sendbuf, sendcount, sendtype, recvbuf,
                                           recvcount, recvtype, root, comm, info, request, fn);)

/* Allgather, alltoall and the neighbourhood forms with one count a side. */
static int rx_pcoll_flat(int kind, const void *sendbuf, MPI_Count sendcount,
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Info info, MPI_Request *request, const char *fn)
{
    RX_PC_BEGIN(fn, comm);
    rc = rx_pcoll_two_sides(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                            RX_NO_ROOT, 1, fn);
    RX_PC_MOVE(kind);
    p.scount = sendcount;
    p.rcount = recvcount;
    RX_PC_END(fn);
}

#define RX_FLAT_INIT_PARAMS(C, D, A)                                                      \
    (const void *sendbuf, C sendcount, MPI_Datatype sendtype, void *recvbuf, C recvcount, \
     MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
#define RX_FLAT_INIT_FORMS(name, kind)                                                     \
    RX_COUNT_FORMS(name, RX_FLAT_INIT_PARAMS,                                              \
                   return rx_pcoll_flat(kind, sendbuf, sendcount, sendtype, recvbuf,       \
                                        recvcount, recvtype, comm, info, request, fn);)
RX_FLAT_INIT_FORMS(Allgather_init, PC_ALLGATHER)
RX_FLAT_INIT_FORMS(Alltoall_init, PC_ALLTOALL)
RX_FLAT_INIT_FORMS(Neighbor_allgather_init, PC_NB_ALLGATHER)
RX_FLAT_INIT_FORMS(Neighbor_alltoall_init, PC_NB_ALLTOALL)

/* One side of a v or w form: per-peer counts and displacements (and, in a
 * w form, datatypes), or one count and datatype. */
typedef struct rx_pc_vside {
    const void *buf;
    MPI_Count count;
    const void *counts, *displs;
    MPI_Datatype type;
    const MPI_Datatype *types;
} rx_pc_vside_t;

#define RX_PC_ONE(buf, count, type) ((rx_pc_vside_t){(buf), (count), NULL, NULL, (type), NULL})
#define RX_PC_V(buf, counts, displs, type) \
    ((rx_pc_vside_t){(buf), 0, (counts), (displs), (type), NULL})
#define RX_PC_W(buf, counts, displs, types) \
    ((rx_pc_vside_t){(buf), 0, (counts), (displs), MPI_DATATYPE_NULL, (types)})
/* the counts of the _c form are MPI_Count */
#define RX_PC_WIDE(counts) (sizeof *(counts) == sizeof(MPI_Count))

/* The v and w forms and reduce_scatter, int or _c (wide). The sides given
 * by arrays, and the w forms' per-peer datatypes (their number depends on
 * the group or the topology), are checked by the nonblocking call at each
 * start. */
static int rx_pcoll_vector(int kind, int wide, rx_pc_vside_t s, rx_pc_vside_t r, int root,
                           MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request,
                           const char *fn)
{
    RX_PC_BEGIN(fn, comm);
    if (kind == PC_REDUCE_SCATTER)
        rc = rx_pcoll_reduction(c, 0, r.type, op, fn);
    else if (kind != PC_ALLTOALLW && kind != PC_NB_ALLTOALLW)
        rc = rx_pcoll_two_sides(c, s.buf, s.count, s.type, r.buf, r.count, r.type, root,
                                kind == PC_GATHERV, fn);
    p.kind = kind;
    p.wide = wide;
    p.sbuf = s.buf;
    p.scount = s.count;
    p.scounts = s.counts;
    p.sdispls = s.displs;
    p.stype = s.type;
    p.stypes = s.types;
    p.rbuf = (void *)r.buf;
    p.rcount = r.count;
    p.rcounts = r.counts;
    p.rdispls = r.displs;
    p.rtype = r.type;
    p.rtypes = r.types;
    p.root = root;
    p.op = op;
    RX_PC_END(fn);
}

#define RX_GATHERV_INIT_PARAMS(C, D, A)                                                      \
    (const void *sendbuf, C sendcount, MPI_Datatype sendtype, void *recvbuf,               \
     const C recvcounts[], const D displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, \
     MPI_Info info, MPI_Request *request)
RX_COUNT_FORMS(Gatherv_init, RX_GATHERV_INIT_PARAMS,
               return rx_pcoll_vector(PC_GATHERV, RX_PC_WIDE(recvcounts),
                                      RX_PC_ONE(sendbuf, sendcount, sendtype),
                                      RX_PC_V(recvbuf, recvcounts, displs, recvtype), root,
                                      MPI_OP_NULL, comm, info, request, fn);)

#define RX_SCATTERV_INIT_PARAMS(C, D, A)                                                   \
    (const void *sendbuf, const C sendcounts[], const D displs[], MPI_Datatype sendtype,  \
     void *recvbuf, C recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,           \
     MPI_Info info, MPI_Request *request)
RX_COUNT_FORMS(Scatterv_init, RX_SCATTERV_INIT_PARAMS,
               return rx_pcoll_vector(PC_SCATTERV, RX_PC_WIDE(sendcounts),
                                      RX_PC_V(sendbuf, sendcounts, displs, sendtype),
                                      RX_PC_ONE(recvbuf, recvcount, recvtype), root, MPI_OP_NULL,
                                      comm, info, request, fn);)

/* Allgatherv and its neighbourhood form: one send count, receive arrays. */
#define RX_ALLGATHERV_INIT_PARAMS(C, D, A)                                                  \
    (const void *sendbuf, C sendcount, MPI_Datatype sendtype, void *recvbuf,              \
     const C recvcounts[], const D displs[], MPI_Datatype recvtype, MPI_Comm comm,        \
     MPI_Info info, MPI_Request *request)
#define RX_ALLGATHERV_INIT_FORMS(name, kind)                                               \
    RX_COUNT_FORMS(name, RX_ALLGATHERV_INIT_PARAMS,                                        \
                   return rx_pcoll_vector(kind, RX_PC_WIDE(recvcounts),                    \
                                          RX_PC_ONE(sendbuf, sendcount, sendtype),         \
                                          RX_PC_V(recvbuf, recvcounts, displs, recvtype),  \
                                          RX_NO_ROOT, MPI_OP_NULL, comm, info, request, fn);)
RX_ALLGATHERV_INIT_FORMS(Allgatherv_init, PC_ALLGATHERV)
RX_ALLGATHERV_INIT_FORMS(Neighbor_allgatherv_init, PC_NB_ALLGATHERV)

/* Alltoallv and its neighbourhood form. */
#define RX_ALLTOALLV_INIT_PARAMS(C, D, A)                                                  \
    (const void *sendbuf, const C sendcounts[], const D sdispls[], MPI_Datatype sendtype, \
     void *recvbuf, const C recvcounts[], const D rdispls[], MPI_Datatype recvtype,       \
     MPI_Comm comm, MPI_Info info, MPI_Request *request)
#define RX_ALLTOALLV_INIT_FORMS(name, kind)                                                \
    RX_COUNT_FORMS(name, RX_ALLTOALLV_INIT_PARAMS,                                         \
                   return rx_pcoll_vector(kind, RX_PC_WIDE(sendcounts),                    \
                                          RX_PC_V(sendbuf, sendcounts, sdispls, sendtype), \
                                          RX_PC_V(recvbuf, recvcounts, rdispls, recvtype), \
                                          RX_NO_ROOT, MPI_OP_NULL, comm, info, request, fn);)
RX_ALLTOALLV_INIT_FORMS(Alltoallv_init, PC_ALLTOALLV)
RX_ALLTOALLV_INIT_FORMS(Neighbor_alltoallv_init, PC_NB_ALLTOALLV)

/* The w forms: displacements in bytes, int in MPI_Alltoallw_init's int form
 * (D), MPI_Aint in every form of the neighbourhood one. */
#define RX_ALLTOALLW_INIT_PARAMS(C, D, A)                                                   \
    (const void *sendbuf, const C sendcounts[], const D sdispls[],                       \
     const MPI_Datatype sendtypes[], void *recvbuf, const C recvcounts[], const D rdispls[], \
     const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request)
#define RX_NB_ALLTOALLW_INIT_PARAMS(C, D, A) RX_ALLTOALLW_INIT_PARAMS(C, MPI_Aint, A)
#define RX_ALLTOALLW_INIT_FORMS(name, params, kind)                                         \
    RX_COUNT_FORMS(name, params,                                                            \
                   return rx_pcoll_vector(kind, RX_PC_WIDE(sendcounts),                     \
                                          RX_PC_W(sendbuf, sendcounts, sdispls, sendtypes), \
                                          RX_PC_W(recvbuf, recvcounts, rdispls, recvtypes), \
                                          RX_NO_ROOT, MPI_OP_NULL, comm, info, request, fn);)
RX_ALLTOALLW_INIT_FORMS(Alltoallw_init, RX_ALLTOALLW_INIT_PARAMS, PC_ALLTOALLW)
RX_ALLTOALLW_INIT_FORMS(Neighbor_alltoallw_init, RX_NB_ALLTOALLW_INIT_PARAMS, PC_NB_ALLTOALLW)

/* Reductions with one count (reduce, allreduce, scans, reduce_scatter_block). */
static int rx_pcoll_reduce(int kind, const void *sendbuf, void *recvbuf, MPI_Count count,
                           MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                           MPI_Info info, MPI_Request *request, const char *fn)
{
    RX_PC_BEGIN(fn, comm);
    rc = rx_pcoll_reduction(c, count, datatype, op, fn);
    if (rc == MPI_SUCCESS && kind == PC_REDUCE)
        rc = rx_pcoll_rooted(c, root, fn);
    p.kind = kind;
    p.sbuf = sendbuf;
    p.rbuf = recvbuf;
    p.rcount = count;
    p.rtype = datatype;
    p.op = op;
    p.root = root;
    RX_PC_END(fn);
}

#define RX_REDUCE_INIT_PARAMS(C, D, A)                                                   \
    (const void *sendbuf, void *recvbuf, C count, MPI_Datatype datatype, MPI_Op op, int root, \
     MPI_Comm comm, MPI_Info info, MPI_Request *request)
#define RX_ALLRED_INIT_PARAMS(C, D, A)                                                   \
    (const void *sendbuf, void *recvbuf, C count, MPI_Datatype datatype, MPI_Op op, \
     MPI_Comm comm, MPI_Info info, MPI_Request *request)
#define RX_ALLRED_INIT_FORMS(name, kind)                                                       \
    RX_COUNT_FORMS(name, RX_ALLRED_INIT_PARAMS,                                                \
                   return rx_pcoll_reduce(kind, sendbuf, recvbuf, count, datatype, op, 0, comm, \
                                          info, request, fn);)
RX_COUNT_FORMS(Reduce_init, RX_REDUCE_INIT_PARAMS,
               return rx_pcoll_reduce(PC_REDUCE, sendbuf, recvbuf, count, datatype, op, root,
                                      comm, info, request, fn);)
RX_ALLRED_INIT_FORMS(Allreduce_init, PC_ALLREDUCE)
/* MPI-4.1 names this count recvcount: the same argument, by position */
RX_ALLRED_INIT_FORMS(Reduce_scatter_block_init, PC_REDUCE_SCATTER_BLOCK)
RX_ALLRED_INIT_FORMS(Scan_init, PC_SCAN)
RX_ALLRED_INIT_FORMS(Exscan_init, PC_EXSCAN)

#define RX_RS_INIT_PARAMS(C, D, A)                                                      \
    (const void *sendbuf, void *recvbuf, const C recvcounts[], MPI_Datatype datatype,   \
     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
RX_COUNT_FORMS(Reduce_scatter_init, RX_RS_INIT_PARAMS,
               return rx_pcoll_vector(PC_REDUCE_SCATTER, RX_PC_WIDE(recvcounts),
                                      RX_PC_ONE(sendbuf, 0, MPI_DATATYPE_NULL),
                                      RX_PC_V(recvbuf, recvcounts, NULL, datatype), RX_NO_ROOT,
                                      op, comm, info, request, fn);)
