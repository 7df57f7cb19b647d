/* SPDX-License-Identifier: MIT
 * MPI_Put, MPI_Get, the accumulates and their request-based forms. Every
 * argument, the epoch and the target range are checked before any memory is
 * touched; a contiguous put or get of a predefined type to a mapped target is
 * a memcpy right here (the latency of the lock/flush loop is this path). */
#include "win_impl.h"
#include "bigcount.h"
#include "op/op.h"

#include <string.h>

enum { RX_OP_CHECKED = 0, RX_OP_PROC_NULL = -1 };

/* Epoch: fence, lock_all, or a lock / start naming this target. */
static inline int rx_rma_in_epoch(const rx_win_t *w, int target)
{
    return w->fence_open | w->lock_all | w->tgt[target].access;
}

/* The byte offset of a displacement into target t's window, or 0 when the
 * product wraps or lies beyond the window (dynamic windows, whose unit is 1
 * and whose displacements are addresses, are checked against their regions
 * later): keeps disp * disp_unit from wrapping to an offset inside it. */
static inline int rx_rma_off(const rx_win_t *w, const rx_win_tgt_t *t, MPI_Aint disp,
                             uint64_t *off)
{
    if (w->flavor == RX_WIN_FLAVOR_DYNAMIC) {
        *off = (uint64_t)disp;
        return 1;
    }
    return !__builtin_mul_overflow((uint64_t)disp, (uint64_t)t->disp_unit, off) && *off <= t->size;
}

/* Check one operation; RX_OP_CHECKED, RX_OP_PROC_NULL, or an error class
 * already reported through the window's handler. */
static int rx_rma_check(rx_win_t *w, rx_rma_op_t *op, MPI_Count ocount, MPI_Datatype odt,
                        int target, MPI_Aint disp, MPI_Count tcount, MPI_Datatype tdt, MPI_Op mop,
                        const char *fn)
{
    if (ocount < 0 || tcount < 0)
        return rx_win_err(w, MPI_ERR_COUNT, fn, "negative count");
    if (target == MPI_PROC_NULL)
        return RX_OP_PROC_NULL;
    if (target < 0 || target >= w->size)
        return rx_win_err(w, MPI_ERR_RANK, fn, "invalid target rank %d (window of %d ranks)",
                          target, w->size);
    rx_dtype_t *od = rx_dtype_get(odt), *td = rx_dtype_get(tdt);
    if (mop == MPI_NO_OP && op->kind != RX_RMA_OP_CAS) {
        /* MPI_NO_OP ignores the origin: buffer, count and datatype (which may
         * be MPI_DATATYPE_NULL, MPI-4.1 12.3.4) */
        od = NULL;
        ocount = 0;
    }
    if ((!od && op->kind != RX_RMA_OP_CAS && mop != MPI_NO_OP) || (od && !od->committed))
        return rx_win_err(w, MPI_ERR_TYPE, fn, "invalid or uncommitted origin datatype");
    if (!td || !td->committed)
        return rx_win_err(w, MPI_ERR_TYPE, fn, "invalid or uncommitted target datatype");
    if (disp < 0 && w->flavor != RX_WIN_FLAVOR_DYNAMIC)
        return rx_win_err(w, MPI_ERR_DISP, fn, "negative target displacement %ld", (long)disp);
    if (!rx_rma_in_epoch(w, target))
        return rx_win_err(w, MPI_ERR_RMA_SYNC, fn,
                          "no access epoch to rank %d is open (fence, lock or start)", target);
    /* the origin data (ignored by MPI_NO_OP), the result buffer of the
     * fetching kinds, and the target's count * size: none may be NULL with
     * data or beyond what one call moves */
    int cls = MPI_SUCCESS;
    const char *what = "origin";
    if (od && mop != MPI_NO_OP)
        cls = rx_mpi_data_class(op->kind == RX_RMA_OP_GET ? op->rbuf : op->obuf,
                                (uint64_t)ocount, od);
    if (cls == MPI_SUCCESS && op->kind == RX_RMA_OP_CAS && !op->cbuf)
        cls = MPI_ERR_BUFFER, what = "compare";
    if (cls == MPI_SUCCESS && op->rdt && op->kind != RX_RMA_OP_GET)
        cls = rx_mpi_data_class(op->rbuf, op->rcount, op->rdt), what = "result";
    if (cls == MPI_SUCCESS && rx_mpi_data_class(NULL, (uint64_t)tcount, td) == MPI_ERR_COUNT)
        cls = MPI_ERR_COUNT, what = "target";
    if (cls != MPI_SUCCESS)
        return rx_win_err(w, cls, fn, "%s data: %s", what, cls == MPI_ERR_BUFFER
                          ? "NULL buffer with a positive count"
                          : "count * size exceeds what one call moves");
    op->odt = od;
    op->ocount = (size_t)ocount;
    op->tdt = td;
    op->tcount = (size_t)tcount;
    op->target = target;
    op->disp = (uint64_t)disp;
    if (op->kind == RX_RMA_OP_PUT || op->kind == RX_RMA_OP_GET) {
        if ((size_t)ocount * od->size != (size_t)tcount * td->size)
            return rx_win_err(w, MPI_ERR_TYPE, fn,
                              "origin (%zu bytes) and target (%zu bytes) data differ in size",
                              (size_t)ocount * od->size, (size_t)tcount * td->size);
    } else {
        rx_opobj_t *o = rx_opobj_get(mop);
        if (!o)
            return rx_win_err(w, MPI_ERR_OP, fn, "invalid operation");
        if (!o->predefined)
            return rx_win_err(w, MPI_ERR_OP, fn, "accumulate takes predefined operations only");
        /* no data on either side (zero counts, zero-size types): nothing to combine */
        int empty = (size_t)tcount * td->size == 0 && (!od || (size_t)ocount * od->size == 0) &&
                    (!op->rdt || op->rcount * op->rdt->size == 0);
        if (empty) {
            op->op = o;
            goto checked;
        }
        if (!td->basic)
            return rx_win_err(w, MPI_ERR_UNSUPPORTED_OPERATION, fn,
                              "target datatype %s is not made of one predefined type",
                              td->name ? td->name : "");
        if (!rx_op_valid(o->predefined, td->basic))
            return rx_win_err(w, MPI_ERR_OP, fn, "%s is not defined on %s",
                              rx_op_name(o->predefined), rx_basic_name(td->basic));
        if (o->predefined != RX_OP_NO_OP && op->kind != RX_RMA_OP_CAS &&
            (od->basic != td->basic ||
             (size_t)ocount * od->basic_count != (size_t)tcount * td->basic_count))
            return rx_win_err(w, MPI_ERR_TYPE, fn,
                              "origin and target data must be the same number of elements "
                              "of one predefined type");
        op->op = o;
    }
checked:;
    uint64_t off, span;
    if (!rx_rma_off(w, &w->tgt[target], disp, &off) || rx_rma_range(w, op, &off, &span) != RX_OK)
        return rx_win_err(w, MPI_ERR_RMA_RANGE, fn,
                          "target rank %d: bytes at displacement %ld (+%llu) lie outside its "
                          "window", target, (long)disp, (unsigned long long)span);
    return RX_OP_CHECKED;
}

static int rx_rma_issue(rx_win_t *w, rx_rma_op_t *op, MPI_Request *request, const char *fn,
                        int checked)
{
    rx_req_t *req = NULL;
    if (request) {
        req = rx_req_alloc(RX_REQ_SEND);
        if (!req)
            return rx_win_err(w, MPI_ERR_NO_MEM, fn, "out of requests");
        req->comm = w->comm;
        *request = RX_HANDLE(RX_KIND_REQUEST, req->index);
        if (checked == RX_OP_PROC_NULL) {
            rx_req_complete(req);
            return MPI_SUCCESS;
        }
    } else if (checked == RX_OP_PROC_NULL) {
        return MPI_SUCCESS;
    }
    int rc = rx_rma_do(w, op, req);
    if (rc != RX_OK)
        return rx_win_err(w, rx_mpi_class_of(rc), fn, "%s", rx_status_string(rc));
    return MPI_SUCCESS;
}

/* Predefined contiguous data to a mapped target: nothing to pack, one copy. */
static inline int rx_rma_fast(rx_win_t *w, const void *buf, int target, MPI_Aint disp,
                              MPI_Count count, MPI_Datatype odt, MPI_Count tcount,
                              MPI_Datatype tdt, char **tp, size_t *bytes)
{
    if (odt != tdt || count != tcount || target < 0 || target >= w->size || disp < 0 || count < 0)
        return 0;
    if (!buf)
        return 0; /* the checked path reports it (or takes MPI_BOTTOM) */
    rx_win_tgt_t *t = &w->tgt[target];
    rx_dtype_t *d = rx_dtype_get(odt);
    if (t->kind != RX_RMA_DIRECT || !d || !d->predefined || d->size != (size_t)d->extent ||
        !rx_rma_in_epoch(w, target) || w->flavor == RX_WIN_FLAVOR_DYNAMIC)
        return 0;
    uint64_t off, n = (uint64_t)count * d->size;
    if (!rx_rma_off(w, t, disp, &off) || n > t->size - off)
        return 0;
    *tp = t->base + off;
    *bytes = n;
    return 1;
}

static int rx_put_get(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                      int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                      MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request, int get,
                      const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_WIN(w, win, fn);
    char *tp;
    size_t n;
    int req = fn[4] == 'R'; /* MPI_Rput, MPI_Rget: a request, no shortcut */
    if (req && !request)
        return rx_win_err(w, MPI_ERR_ARG, fn, "request is NULL");
    if (!req && rx_rma_fast(w, origin_addr, target_rank, target_disp, origin_count,
                            origin_datatype, target_count, target_datatype, &tp, &n)) {
        if (get)
            memcpy(origin_addr, tp, n);
        else
            memcpy(tp, origin_addr, n);
        return MPI_SUCCESS;
    }
    rx_rma_op_t op = {.kind = RX_RMA_OP_PUT, .obuf = origin_addr};
    if (get)
        op = (rx_rma_op_t){.kind = RX_RMA_OP_GET, .rbuf = origin_addr,
                           .rcount = (size_t)origin_count, .rdt = rx_dtype_get(origin_datatype)};
    int c = rx_rma_check(w, &op, origin_count, origin_datatype, target_rank, target_disp,
                         target_count, target_datatype, MPI_OP_NULL, fn);
    return c > 0 ? c : rx_rma_issue(w, &op, req ? request : NULL, fn, c);
}

#define RX_PUT_PARAMS(C, D, A)                                                             \
    (const void *origin_addr, C origin_count, MPI_Datatype origin_datatype, int target_rank, \
     MPI_Aint target_disp, C target_count, MPI_Datatype target_datatype, MPI_Win win)
#define RX_GET_PARAMS(C, D, A)                                                       \
    (void *origin_addr, C origin_count, MPI_Datatype origin_datatype, int target_rank, \
     MPI_Aint target_disp, C target_count, MPI_Datatype target_datatype, MPI_Win win)
#define RX_RPUT_PARAMS(C, D, A)                                                            \
    (const void *origin_addr, C origin_count, MPI_Datatype origin_datatype, int target_rank, \
     MPI_Aint target_disp, C target_count, MPI_Datatype target_datatype, MPI_Win win,       \
     MPI_Request *request)
#define RX_RGET_PARAMS(C, D, A)                                                      \
    (void *origin_addr, C origin_count, MPI_Datatype origin_datatype, int target_rank, \
     MPI_Aint target_disp, C target_count, MPI_Datatype target_datatype, MPI_Win win, \
     MPI_Request *request)
RX_COUNT_FORMS(Put, RX_PUT_PARAMS,
               return rx_put_get((void *)origin_addr, origin_count, origin_datatype, target_rank,
                                 target_disp, target_count, target_datatype, win, NULL, 0, fn);)
RX_COUNT_FORMS(Get, RX_GET_PARAMS,
               return rx_put_get(origin_addr, origin_count, origin_datatype, target_rank,
                                 target_disp, target_count, target_datatype, win, NULL, 1, fn);)
RX_COUNT_FORMS(Rput, RX_RPUT_PARAMS,
               return rx_put_get((void *)origin_addr, origin_count, origin_datatype, target_rank,
                                 target_disp, target_count, target_datatype, win, request, 0,
                                 fn);)
RX_COUNT_FORMS(Rget, RX_RGET_PARAMS,
               return rx_put_get(origin_addr, origin_count, origin_datatype, target_rank,
                                 target_disp, target_count, target_datatype, win, request, 1,
                                 fn);)

static int rx_acc(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                  void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype,
                  int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                  MPI_Datatype target_datatype, MPI_Op mop, MPI_Win win, MPI_Request *request,
                  int fetch, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_WIN(w, win, fn);
    if (fn[4] == 'R' && !request)
        return rx_win_err(w, MPI_ERR_ARG, fn, "request is NULL");
    rx_rma_op_t op = {.kind = fetch ? RX_RMA_OP_GACC : RX_RMA_OP_ACC, .obuf = origin_addr};
    if (fetch) {
        rx_dtype_t *rd = rx_dtype_get(result_datatype);
        if (result_count < 0)
            return rx_win_err(w, MPI_ERR_COUNT, fn, "negative result count");
        if (!rd || !rd->committed)
            return rx_win_err(w, MPI_ERR_TYPE, fn, "invalid or uncommitted result datatype");
        op.rbuf = result_addr;
        op.rcount = (size_t)result_count;
        op.rdt = rd;
    }
    int c = rx_rma_check(w, &op, origin_count, origin_datatype, target_rank, target_disp,
                         target_count, target_datatype, mop, fn);
    if (c > 0)
        return c;
    if (c == RX_OP_CHECKED && fetch &&
        (op.rcount * op.rdt->size != 0 || op.tcount * op.tdt->size != 0) &&
        (op.rdt->basic != op.tdt->basic ||
         op.rcount * op.rdt->basic_count != op.tcount * op.tdt->basic_count))
        return rx_win_err(w, MPI_ERR_TYPE, fn, "result and target data differ");
    if (c == RX_OP_CHECKED && op.op->predefined == RX_OP_NO_OP)
        op.obuf = NULL, op.ocount = 0; /* the origin buffer is ignored */
    return rx_rma_issue(w, &op, request, fn, c);
}

#define RX_ACC_PARAMS(C, D, A)                                                             \
    (const void *origin_addr, C origin_count, MPI_Datatype origin_datatype, int target_rank, \
     MPI_Aint target_disp, C target_count, MPI_Datatype target_datatype, MPI_Op op,         \
     MPI_Win win)
#define RX_RACC_PARAMS(C, D, A)                                                            \
    (const void *origin_addr, C origin_count, MPI_Datatype origin_datatype, int target_rank, \
     MPI_Aint target_disp, C target_count, MPI_Datatype target_datatype, MPI_Op op,         \
     MPI_Win win, MPI_Request *request)
#define RX_GACC_PARAMS(C, D, A)                                                            \
    (const void *origin_addr, C origin_count, MPI_Datatype origin_datatype,             \
     void *result_addr, C result_count, MPI_Datatype result_datatype, int target_rank,  \
     MPI_Aint target_disp, C target_count, MPI_Datatype target_datatype, MPI_Op op,     \
     MPI_Win win)
#define RX_RGACC_PARAMS(C, D, A)                                                           \
    (const void *origin_addr, C origin_count, MPI_Datatype origin_datatype,             \
     void *result_addr, C result_count, MPI_Datatype result_datatype, int target_rank,  \
     MPI_Aint target_disp, C target_count, MPI_Datatype target_datatype, MPI_Op op,     \
     MPI_Win win, MPI_Request *request)
RX_COUNT_FORMS(Accumulate, RX_ACC_PARAMS,
               return rx_acc(origin_addr, origin_count, origin_datatype, NULL, 0,
                             MPI_DATATYPE_NULL, target_rank, target_disp, target_count,
                             target_datatype, op, win, NULL, 0, fn);)
RX_COUNT_FORMS(Raccumulate, RX_RACC_PARAMS,
               return rx_acc(origin_addr, origin_count, origin_datatype, NULL, 0,
                             MPI_DATATYPE_NULL, target_rank, target_disp, target_count,
                             target_datatype, op, win, request, 0, fn);)
RX_COUNT_FORMS(Get_accumulate, RX_GACC_PARAMS,
               return rx_acc(origin_addr, origin_count, origin_datatype, result_addr,
                             result_count, result_datatype, target_rank, target_disp,
                             target_count, target_datatype, op, win, NULL, 1, fn);)
RX_COUNT_FORMS(Rget_accumulate, RX_RGACC_PARAMS,
               return rx_acc(origin_addr, origin_count, origin_datatype, result_addr,
                             result_count, result_datatype, target_rank, target_disp,
                             target_count, target_datatype, op, win, request, 1, fn);)

int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype,
                      int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    RX_CHECK_INIT("MPI_Fetch_and_op");
    RX_GET_WIN(w, win, "MPI_Fetch_and_op");
    /* the common case: one native element on a mapped target */
    rx_dtype_t *d = rx_dtype_get(datatype);
    if (target_rank >= 0 && target_rank < w->size && d && d->predefined && target_disp >= 0 &&
        rx_rma_in_epoch(w, target_rank)) {
        rx_win_tgt_t *t = &w->tgt[target_rank];
        rx_opobj_t *o = rx_opobj_get(op);
        uint64_t off;
        if (t->kind == RX_RMA_DIRECT && o && o->predefined &&
            rx_op_valid(o->predefined, d->basic) && rx_rma_native_type(d->basic) &&
            w->flavor != RX_WIN_FLAVOR_DYNAMIC && rx_rma_off(w, t, target_disp, &off) &&
            (uint64_t)d->extent <= t->size - off && result_addr &&
            (origin_addr || o->predefined == RX_OP_NO_OP)) {
            rx_rma_fop_direct(t, o, d->basic, origin_addr, t->base + off, result_addr);
            return MPI_SUCCESS;
        }
    }
    return rx_acc(origin_addr, 1, datatype, result_addr, 1, datatype, target_rank, target_disp, 1,
                  datatype, op, win, NULL, 1, "MPI_Fetch_and_op");
}
RX_ALIAS(Fetch_and_op)

int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
                          MPI_Datatype datatype, int target_rank, MPI_Aint target_disp,
                          MPI_Win win)
{
    RX_CHECK_INIT("MPI_Compare_and_swap");
    RX_GET_WIN(w, win, "MPI_Compare_and_swap");
    if (!origin_addr || !compare_addr || !result_addr)
        return rx_win_err(w, MPI_ERR_BUFFER, "MPI_Compare_and_swap", "NULL buffer");
    rx_dtype_t *d = rx_dtype_get(datatype);
    if (d && d->predefined) {
        int cls = rx_basic_class(d->basic);
        if (cls != RX_CLASS_CINT && cls != RX_CLASS_FINT && cls != RX_CLASS_BYTE &&
            cls != RX_CLASS_LOGIC)
            return rx_win_err(w, MPI_ERR_TYPE, "MPI_Compare_and_swap",
                              "%s is not an integer, logical or byte type", rx_basic_name(d->basic));
    } else {
        return rx_win_err(w, MPI_ERR_TYPE, "MPI_Compare_and_swap",
                          "a predefined datatype is required");
    }
    if (target_rank >= 0 && target_rank < w->size && target_disp >= 0 &&
        rx_rma_in_epoch(w, target_rank)) {
        rx_win_tgt_t *t = &w->tgt[target_rank];
        uint64_t off;
        if (t->kind == RX_RMA_DIRECT && rx_rma_native_type(d->basic) &&
            w->flavor != RX_WIN_FLAVOR_DYNAMIC && rx_rma_off(w, t, target_disp, &off) &&
            (uint64_t)d->extent <= t->size - off) {
            rx_rma_cas_direct(t, d->basic, compare_addr, origin_addr, t->base + off, result_addr);
            return MPI_SUCCESS;
        }
    }
    rx_rma_op_t op = {.kind = RX_RMA_OP_CAS, .obuf = origin_addr, .cbuf = compare_addr,
                      .rbuf = result_addr, .rcount = 1, .rdt = d};
    int c = rx_rma_check(w, &op, 1, datatype, target_rank, target_disp, 1, datatype,
                         MPI_REPLACE, "MPI_Compare_and_swap");
    return c > 0 ? c : rx_rma_issue(w, &op, NULL, "MPI_Compare_and_swap", c);
}
RX_ALIAS(Compare_and_swap)
