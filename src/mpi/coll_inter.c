/* SPDX-License-Identifier: MIT
 * Collectives on intercommunicators (MPI-4.1 6.2.2): rooted ones with
 * MPI_ROOT / MPI_PROC_NULL in the root's group, the all-to-all family
 * where each group receives the other group's data, and their nonblocking
 * forms, which are the same plans (a blocking call waits for its plan).
 *
 * A plan runs in stages; a stage starts nonblocking operations, either
 * between the groups (point-to-point on the intercommunicator's collective
 * context, through its cview communicator) or inside the own group (the
 * local communicator's nonblocking collectives), and the next stage starts
 * when all of them are done. Data moved between groups goes directly from
 * each sender to each receiver (gather, scatter, allgather, alltoall,
 * barrier) or through the leaders, rank 0 of each group (bcast, reductions:
 * reduced in the group first, swapped by the leaders, spread in the group).
 * A progress hook moves plans on. Plans of one intercommunicator run one
 * after the other in call order: the local communicator's collectives then
 * start in the same order at every member, whatever the timing. */
#include "coll_impl.h"
#include "inter_impl.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct rx_iplan rx_iplan_t;
/* Start stage p->stage; 0 when the plan has no such stage (it is done). */
typedef int (*rx_istep_t)(rx_iplan_t *p);

struct rx_iplan {
    rx_iplan_t *next;       /* all plans, in call order */
    rx_comm_t *c;
    rx_req_t *req;          /* completes with the plan; st_error its first error */
    rx_istep_t step;
    int stage, tag, err;
    rx_coll_pin_t pin;      /* a persistent start's tags (coll.h), or none */
    MPI_Comm inter, local;  /* handles of c->cview and c->local */
    MPI_Request *parts;     /* the current stage's operations */
    int nparts;
    /* arguments */
    rx_inter_side_t s, r;
    int root;
    MPI_Count count, blockcount;
    rx_ivec_t counts;
    MPI_Datatype dt;
    MPI_Op op;
    void *tmp[2], *base[2]; /* typed temporaries and their allocations */
    MPI_Aint *displs;       /* reduce_scatter: displacements of the scatter */
    MPI_Count *bcounts;     /* and its counts (the caller's, widened) */
};

static rx_iplan_t *rx_plans;
static int rx_plans_busy; /* a plan is being moved on: no re-entry */

/* ---- plan machinery ------------------------------------------------------ */

static void rx_part(rx_iplan_t *p, int rc, MPI_Request h)
{
    if (rc != MPI_SUCCESS) {
        if (!p->err)
            p->err = rc;
        return;
    }
    p->parts[p->nparts++] = h;
}
/* Start one operation of the current stage: CALL ends with &h_. */
#define RX_PART(p, CALL)                              \
    do {                                              \
        MPI_Request h_ = MPI_REQUEST_NULL;            \
        int rc_ = CALL;                               \
        rx_part(p, rc_, h_);                          \
    } while (0)

static int rx_parts_done(rx_iplan_t *p)
{
    for (int i = 0; i < p->nparts; i++) {
        rx_req_t *q = rx_req_lookup(RX_HANDLE_INDEX(p->parts[i]));
        if (q && !q->complete)
            return 0;
    }
    for (int i = 0; i < p->nparts; i++) {
        rx_req_t *q = rx_req_lookup(RX_HANDLE_INDEX(p->parts[i]));
        int err = q ? rx_mpi_req_finish(&p->parts[i], q, MPI_STATUS_IGNORE) : MPI_SUCCESS;
        if (err && !p->err)
            p->err = err;
    }
    p->nparts = 0;
    return 1;
}

/* Move p on as far as it goes; 1 when it is done. An error does not stop
 * it: the other group still expects every message of the later stages. */
static int rx_plan_advance(rx_iplan_t *p)
{
    int done = 0;
    rx_coll_pin_t before = rx_coll_pin_swap(p->pin);
    while (rx_parts_done(p)) {
        if (!p->step(p)) {
            done = 1;
            break;
        }
        p->stage++;
    }
    p->pin = rx_coll_pin_swap(before);
    return done;
}

static void rx_plan_drop(rx_iplan_t *p)
{
    for (int i = 0; i < 2; i++)
        free(p->base[i]);
    free(p->displs);
    free(p->bcounts);
    free(p->parts);
    free(p);
}

static void rx_plan_end(rx_iplan_t *p)
{
    p->req->st_error = p->err;
    rx_req_complete(p->req);
    rx_plan_drop(p);
}

/* 1 if no plan of the same intercommunicator comes before p. Plans of
 * persistent starts take their tags from their own blocks, and members may
 * start them in any order: they run at once, and others do not wait for
 * them. */
static int rx_plan_first(const rx_iplan_t *p)
{
    if (p->pin.on)
        return 1;
    for (const rx_iplan_t *q = rx_plans; q != p; q = q->next)
        if (q->c == p->c && !q->pin.on)
            return 0;
    return 1;
}

static int rx_plan_hook(void)
{
    if (rx_plans_busy)
        return 0;
    rx_plans_busy = 1;
    int n = 0;
    for (rx_iplan_t **pp = &rx_plans; *pp;) {
        rx_iplan_t *p = *pp;
        if (rx_plan_first(p) && rx_plan_advance(p)) {
            *pp = p->next;
            rx_plan_end(p);
            n++;
        } else {
            pp = &p->next;
        }
    }
    rx_plans_busy = 0;
    return n;
}

static int rx_plan_pending(const rx_comm_t *c)
{
    for (const rx_iplan_t *q = rx_plans; q; q = q->next)
        if (q->c == c)
            return 1;
    return 0;
}

void rx_inter_drain(rx_comm_t *c)
{
    RX_WAIT_UNTIL(!rx_plan_pending(c));
}

/* A plan for c with room for nparts operations a stage (NULL: no memory). */
static rx_iplan_t *rx_plan_new(rx_comm_t *c, rx_istep_t step, int nparts)
{
    rx_iplan_t *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    if (!(p->parts = malloc(sizeof *p->parts * (size_t)nparts))) {
        free(p);
        return NULL;
    }
    p->c = c;
    p->step = step;
    p->inter = rx_comm_handle(c->cview);
    p->local = rx_comm_handle(c->local);
    return p;
}

/* Queue p and start it if it is the first of its intercommunicator; a
 * blocking call (req NULL) waits for it. */
static int rx_plan_go(rx_iplan_t *p, MPI_Request *req, const char *fn)
{
    rx_comm_t *c = p->c;
    rx_req_t *r = rx_progress_hook_add(rx_plan_hook) == 0 ? rx_req_alloc(RX_REQ_COLL) : NULL;
    if (!r) {
        rx_plan_drop(p);
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of requests");
    }
    rx_req_hold_comm(r, c);
    r->st_source = MPI_ANY_SOURCE;
    r->st_tag = MPI_ANY_TAG;
    p->req = r;
    p->tag = rx_coll_tag(c); /* in call order, alike in both groups */
    p->pin = rx_coll_pin_swap(RX_COLL_PIN_NONE);
    rx_coll_pin_swap(p->pin);
    rx_iplan_t **pp = &rx_plans;
    while (*pp)
        pp = &(*pp)->next;
    *pp = p;
    if (!rx_plans_busy && rx_plan_first(p)) {
        rx_plans_busy = 1;
        if (rx_plan_advance(p)) {
            *pp = p->next;
            rx_plan_end(p);
        }
        rx_plans_busy = 0;
    }
    if (req) {
        *req = RX_HANDLE(RX_KIND_REQUEST, r->index);
        return MPI_SUCCESS;
    }
    RX_WAIT_UNTIL(r->complete);
    int err = r->st_error;
    rx_req_release(r);
    return err ? rx_mpi_err(c, err, fn, "%s failed on the intercommunicator",
                            fn) : MPI_SUCCESS;
}

/* ---- argument checks and temporaries --------------------------------------- */

static int rx_inter_root(rx_comm_t *c, int root, const char *fn)
{
    if (root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < c->remote->size))
        return MPI_SUCCESS;
    return rx_mpi_err(c, MPI_ERR_ROOT, fn, "invalid root %d (MPI_ROOT, MPI_PROC_NULL or a rank "
                      "of the remote group of %d)", root, c->remote->size);
}

/* count elements of type at buf, which may not be MPI_IN_PLACE. */
static int rx_inter_data(rx_comm_t *c, const void *buf, MPI_Count count, MPI_Datatype type,
                         const char *fn)
{
    if (buf == MPI_IN_PLACE)
        return rx_mpi_err(c, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is not valid on an "
                          "intercommunicator");
    RX_CHECK_COUNT(c, count, fn);
    RX_GET_DTYPE(d, c, type, fn);
    RX_CHECK_BUF(c, buf, count, d, fn);
    return MPI_SUCCESS;
}

/* Every per-peer entry of side x for n peers. */
static int rx_inter_side_ok(rx_comm_t *c, const rx_inter_side_t *x, int n, const char *fn)
{
    if (!x->form)
        return rx_inter_data(c, x->buf, x->count, x->type, fn);
    if (!x->counts.p || !x->displs.p || (x->form == 2 && !x->types))
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "a counts, displacements or types array is NULL");
    if (x->buf == MPI_IN_PLACE)
        return rx_inter_data(c, x->buf, 0, MPI_BYTE, fn);
    for (int j = 0; j < n; j++) {
        MPI_Datatype t = x->form == 2 ? x->types[j] : x->type;
        RX_CHECK_COUNT(c, rx_ivec_at(x->counts, j), fn);
        RX_GET_DTYPE(d, c, t, fn);
        (void)d;
    }
    return MPI_SUCCESS;
}

/* Where peer j's block of side x lies, its count and type. */
static char *rx_side_at(const rx_inter_side_t *x, int j, MPI_Count *n, MPI_Datatype *t)
{
    *t = x->form == 2 ? x->types[j] : x->type;
    *n = x->form ? rx_ivec_at(x->counts, j) : x->count;
    if (x->form == 2)
        return (char *)x->buf + rx_ivec_at(x->displs, j);
    const rx_dtype_t *d = rx_dtype_get(*t);
    long off = x->form ? (long)rx_ivec_at(x->displs, j) : (long)j * x->count;
    return (char *)x->buf + off * (long)d->extent;
}

/* Temporary i for count elements of type dt (the caller knows dt valid). */
static int rx_plan_tmp(rx_iplan_t *p, int i, MPI_Count count)
{
    const rx_dtype_t *d = rx_dtype_get(p->dt);
    size_t ext = (size_t)(d->extent < 0 ? -d->extent : d->extent);
    size_t span = count > 0 ? (size_t)(count - 1) * ext + (size_t)d->true_extent : 0;
    if (!(p->base[i] = malloc(span ? span : 1)))
        return RX_ERR_NOMEM;
    /* the lowest byte the elements touch is the allocation's first */
    ptrdiff_t low = d->extent < 0 ? (ptrdiff_t)(count - 1) * d->extent : 0;
    p->tmp[i] = (char *)p->base[i] - d->true_lb - low;
    return RX_OK;
}

/* ---- barrier, bcast --------------------------------------------------------- */

static int rx_step_barrier(rx_iplan_t *p)
{
    if (p->stage)
        return 0;
    /* a process leaves once every remote process has entered */
    for (int j = 0; j < p->c->remote->size; j++) {
        RX_PART(p, PMPI_Irecv_c(NULL, 0, MPI_BYTE, j, p->tag, p->inter, &h_));
        RX_PART(p, PMPI_Isend_c(NULL, 0, MPI_BYTE, j, p->tag, p->inter, &h_));
    }
    return 1;
}

int rx_inter_barrier(rx_comm_t *c, MPI_Request *req, const char *fn)
{
    rx_iplan_t *p = rx_plan_new(c, rx_step_barrier, 2 * c->remote->size);
    if (!p)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    return rx_plan_go(p, req, fn);
}

static int rx_step_bcast(rx_iplan_t *p)
{
    void *buf = (void *)p->s.buf;
    switch (p->stage) {
    case 0:
        if (p->root == MPI_ROOT)
            RX_PART(p, PMPI_Isend_c(buf, p->count, p->dt, 0, p->tag, p->inter, &h_));
        else if (p->root >= 0 && p->c->rank == 0)
            RX_PART(p, PMPI_Irecv_c(buf, p->count, p->dt, p->root, p->tag, p->inter, &h_));
        return 1;
    case 1:
        if (p->root >= 0 && p->c->size > 1)
            RX_PART(p, PMPI_Ibcast_c(buf, p->count, p->dt, 0, p->local, &h_));
        return 1;
    }
    return 0;
}

int rx_inter_bcast(rx_comm_t *c, void *buf, MPI_Count count, MPI_Datatype dt, int root,
                   MPI_Request *req, const char *fn)
{
    int rc = rx_inter_root(c, root, fn);
    if (rc == MPI_SUCCESS && root != MPI_PROC_NULL)
        rc = rx_inter_data(c, buf, count, dt, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rx_iplan_t *p = rx_plan_new(c, rx_step_bcast, 1);
    if (!p)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    p->s.buf = buf;
    p->count = count;
    p->dt = dt;
    p->root = root;
    return rx_plan_go(p, req, fn);
}

/* ---- reductions ------------------------------------------------------------- */

static int rx_red_args(rx_comm_t *c, const void *sbuf, const void *rbuf, MPI_Count count,
                       MPI_Datatype dt, MPI_Op op, int need_s, int need_r, const char *fn)
{
    int rc = MPI_SUCCESS;
    if (need_s)
        rc = rx_inter_data(c, sbuf, count, dt, fn);
    if (rc == MPI_SUCCESS && need_r)
        rc = rx_inter_data(c, rbuf, count, dt, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    RX_GET_DTYPE(d, c, dt, fn);
    rx_opobj_t *o;
    return rx_coll_check_op(c, op, d, &o, fn);
}

/* A plan of a reduction with its operands (NULL: no memory). */
static rx_iplan_t *rx_red_plan(rx_comm_t *c, rx_istep_t step, int nparts, const void *sbuf,
                               void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op)
{
    rx_iplan_t *p = rx_plan_new(c, step, nparts);
    if (p) {
        p->s.buf = sbuf;
        p->r.buf = rbuf;
        p->count = count;
        p->dt = dt;
        p->op = op;
        p->blockcount = -1;
    }
    return p;
}

static int rx_step_reduce(rx_iplan_t *p)
{
    switch (p->stage) {
    case 0:
        if (p->root == MPI_ROOT)
            RX_PART(p, PMPI_Irecv_c((void *)p->r.buf, p->count, p->dt, 0, p->tag, p->inter,
                                    &h_));
        else if (p->root >= 0)
            RX_PART(p, PMPI_Ireduce_c(p->s.buf, p->tmp[0], p->count, p->dt, p->op, 0,
                                      p->local, &h_));
        return 1;
    case 1:
        if (p->root >= 0 && p->c->rank == 0)
            RX_PART(p, PMPI_Isend_c(p->tmp[0], p->count, p->dt, p->root, p->tag, p->inter,
                                    &h_));
        return 1;
    }
    return 0;
}

int rx_inter_reduce(rx_comm_t *c, const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt,
                    MPI_Op op, int root, MPI_Request *req, const char *fn)
{
    int rc = rx_inter_root(c, root, fn);
    if (rc == MPI_SUCCESS && root != MPI_PROC_NULL)
        rc = rx_red_args(c, sbuf, rbuf, count, dt, op, root >= 0, root == MPI_ROOT, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rx_iplan_t *p = rx_red_plan(c, rx_step_reduce, 1, sbuf, rbuf, count, dt, op);
    if (!p)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    p->root = root;
    if (root >= 0 && c->rank == 0 && rx_plan_tmp(p, 0, count) != RX_OK) {
        rx_plan_drop(p);
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    return rx_plan_go(p, req, fn);
}

/* Allreduce and reduce_scatter: reduce in the group to its leader, swap
 * with the other leader, spread the other group's result (bcast, or
 * scatter in blocks). p->count is the whole vector. */
static int rx_step_allred(rx_iplan_t *p)
{
    int lead = p->c->rank == 0;
    switch (p->stage) {
    case 0:
        RX_PART(p, PMPI_Ireduce_c(p->s.buf, p->tmp[0], p->count, p->dt, p->op, 0, p->local,
                                  &h_));
        return 1;
    case 1:
        if (lead) {
            void *in = p->counts.p || p->blockcount >= 0 ? p->tmp[1] : (void *)p->r.buf;
            RX_PART(p, PMPI_Irecv_c(in, p->count, p->dt, 0, p->tag, p->inter, &h_));
            RX_PART(p, PMPI_Isend_c(p->tmp[0], p->count, p->dt, 0, p->tag, p->inter, &h_));
        }
        return 1;
    case 2:
        if (p->counts.p)
            RX_PART(p, PMPI_Iscatterv_c(p->tmp[1], p->bcounts, p->displs, p->dt,
                                        (void *)p->r.buf, p->bcounts[p->c->rank], p->dt, 0,
                                        p->local, &h_));
        else if (p->blockcount >= 0)
            RX_PART(p, PMPI_Iscatter_c(p->tmp[1], p->blockcount, p->dt, (void *)p->r.buf,
                                       p->blockcount, p->dt, 0, p->local, &h_));
        else if (p->c->size > 1)
            RX_PART(p, PMPI_Ibcast_c((void *)p->r.buf, p->count, p->dt, 0, p->local, &h_));
        return 1;
    }
    return 0;
}

static int rx_allred_go(rx_comm_t *c, rx_iplan_t *p, MPI_Request *req, const char *fn)
{
    int lead = c->rank == 0, spread = p->counts.p || p->blockcount >= 0;
    if ((lead && rx_plan_tmp(p, 0, p->count) != RX_OK) ||
        (lead && spread && rx_plan_tmp(p, 1, p->count) != RX_OK)) {
        rx_plan_drop(p);
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    return rx_plan_go(p, req, fn);
}

int rx_inter_allreduce(rx_comm_t *c, const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt,
                       MPI_Op op, MPI_Request *req, const char *fn)
{
    int rc = rx_red_args(c, sbuf, rbuf, count, dt, op, 1, 1, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rx_iplan_t *p = rx_red_plan(c, rx_step_allred, 2, sbuf, rbuf, count, dt, op);
    if (!p)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    return rx_allred_go(c, p, req, fn);
}

/* The vector each group reduces is the sum of its own members' counts
 * (MPI: both groups' sums must be equal); the leader swaps it for the other
 * group's reduced vector, which is scattered here. */
int rx_inter_reduce_scatter(rx_comm_t *c, const void *sbuf, void *rbuf, rx_ivec_t counts,
                            MPI_Count blockcount, MPI_Datatype dt, MPI_Op op, MPI_Request *req,
                            const char *fn)
{
    MPI_Count total = 0;
    if (!counts.p) {
        RX_CHECK_COUNT(c, blockcount, fn);
        if (__builtin_mul_overflow(blockcount, (MPI_Count)c->size, &total))
            return rx_mpi_err(c, MPI_ERR_COUNT, fn, "the counts' sum overflows");
    } else {
        for (int i = 0; i < c->size; i++) {
            int64_t n = rx_ivec_at(counts, i);
            if (n < 0)
                return rx_mpi_err(c, MPI_ERR_COUNT, fn, "negative count %lld for rank %d",
                                  (long long)n, i);
            if (__builtin_add_overflow(total, n, &total))
                return rx_mpi_err(c, MPI_ERR_COUNT, fn, "the counts' sum overflows");
        }
    }
    int rc = rx_red_args(c, sbuf, rbuf, total, dt, op, 1, 0, fn);
    if (rc == MPI_SUCCESS)
        rc = rx_inter_data(c, rbuf, counts.p ? rx_ivec_at(counts, c->rank) : blockcount, dt, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rx_iplan_t *p = rx_red_plan(c, rx_step_allred, 2, sbuf, rbuf, total, dt, op);
    if (!p || (counts.p && (!(p->displs = malloc(sizeof(MPI_Aint) * (size_t)c->size)) ||
                            !(p->bcounts = malloc(sizeof(MPI_Count) * (size_t)c->size))))) {
        if (p)
            rx_plan_drop(p);
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    MPI_Aint off = 0;
    for (int i = 0; counts.p && i < c->size; off += p->bcounts[i++]) {
        p->displs[i] = off;
        p->bcounts[i] = rx_ivec_at(counts, i);
    }
    p->counts = counts;
    p->blockcount = counts.p ? -1 : blockcount;
    return rx_allred_go(c, p, req, fn);
}

/* ---- gather, scatter, allgather, alltoall ------------------------------------ */

/* The root's side takes one block from or to every remote process. */
static int rx_step_rooted(rx_iplan_t *p, int gather)
{
    if (p->stage)
        return 0;
    MPI_Count n;
    MPI_Datatype t;
    if (p->root == MPI_ROOT) {
        for (int j = 0; j < p->c->remote->size; j++) {
            char *at = rx_side_at(gather ? &p->r : &p->s, j, &n, &t);
            if (gather)
                RX_PART(p, PMPI_Irecv_c(at, n, t, j, p->tag, p->inter, &h_));
            else
                RX_PART(p, PMPI_Isend_c(at, n, t, j, p->tag, p->inter, &h_));
        }
    } else if (p->root >= 0) {
        if (gather)
            RX_PART(p, PMPI_Isend_c(p->s.buf, p->s.count, p->s.type, p->root, p->tag, p->inter,
                                  &h_));
        else
            RX_PART(p, PMPI_Irecv_c((void *)p->r.buf, p->r.count, p->r.type, p->root, p->tag,
                                  p->inter, &h_));
    }
    return 1;
}
static int rx_step_gather(rx_iplan_t *p) { return rx_step_rooted(p, 1); }
static int rx_step_scatter(rx_iplan_t *p) { return rx_step_rooted(p, 0); }

static int rx_rooted(rx_comm_t *c, const rx_inter_side_t *s, const rx_inter_side_t *r, int root,
                     int gather, MPI_Request *req, const char *fn)
{
    int rc = rx_inter_root(c, root, fn);
    const rx_inter_side_t *many = gather ? r : s, *one = gather ? s : r;
    if (rc == MPI_SUCCESS && root == MPI_ROOT)
        rc = rx_inter_side_ok(c, many, c->remote->size, fn);
    else if (rc == MPI_SUCCESS && root >= 0)
        rc = rx_inter_data(c, one->buf, one->count, one->type, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rx_iplan_t *p = rx_plan_new(c, gather ? rx_step_gather : rx_step_scatter,
                                c->remote->size + 1);
    if (!p)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    p->s = *s;
    p->r = *r;
    p->root = root;
    return rx_plan_go(p, req, fn);
}

int rx_inter_gather(rx_comm_t *c, const rx_inter_side_t *s, const rx_inter_side_t *r, int root,
                    MPI_Request *req, const char *fn)
{
    return rx_rooted(c, s, r, root, 1, req, fn);
}

int rx_inter_scatter(rx_comm_t *c, const rx_inter_side_t *s, const rx_inter_side_t *r, int root,
                     MPI_Request *req, const char *fn)
{
    return rx_rooted(c, s, r, root, 0, req, fn);
}

/* Allgather sends the same block to every remote process (s uniform), the
 * all-to-alls one block each; both receive one block from each. */
static int rx_step_exchange(rx_iplan_t *p)
{
    if (p->stage)
        return 0;
    MPI_Count n;
    MPI_Datatype t;
    for (int j = 0; j < p->c->remote->size; j++) {
        char *at = rx_side_at(&p->r, j, &n, &t);
        RX_PART(p, PMPI_Irecv_c(at, n, t, j, p->tag, p->inter, &h_));
    }
    for (int j = 0; j < p->c->remote->size; j++) {
        char *at = p->root ? (char *)p->s.buf : rx_side_at(&p->s, j, &n, &t);
        if (p->root) {
            n = p->s.count;
            t = p->s.type;
        }
        RX_PART(p, PMPI_Isend_c(at, n, t, j, p->tag, p->inter, &h_));
    }
    return 1;
}

static int rx_exchange(rx_comm_t *c, const rx_inter_side_t *s, const rx_inter_side_t *r,
                       int same, MPI_Request *req, const char *fn)
{
    int rc = rx_inter_side_ok(c, s, c->remote->size, fn);
    if (rc == MPI_SUCCESS)
        rc = rx_inter_side_ok(c, r, c->remote->size, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rx_iplan_t *p = rx_plan_new(c, rx_step_exchange, 2 * c->remote->size);
    if (!p)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    p->s = *s;
    p->r = *r;
    p->root = same; /* 1: the send side is one block for all */
    return rx_plan_go(p, req, fn);
}

int rx_inter_allgather(rx_comm_t *c, const rx_inter_side_t *s, const rx_inter_side_t *r,
                       MPI_Request *req, const char *fn)
{
    return rx_exchange(c, s, r, 1, req, fn);
}

int rx_inter_alltoall(rx_comm_t *c, const rx_inter_side_t *s, const rx_inter_side_t *r,
                      MPI_Request *req, const char *fn)
{
    return rx_exchange(c, s, r, 0, req, fn);
}
