/* SPDX-License-Identifier: MIT
 * Put, get, accumulate, get-accumulate and compare-and-swap on one target.
 *
 * Data forms. Origin data travels as a stream: the user buffer itself when
 * its layout already is the stream, else a packed copy. For put / get the
 * stream is the packed ("wire") form; for accumulates it is an array of basic
 * elements (a predefined type's buffer as it is, pair types included, or the
 * packed form of a derived type; for derived types of value-index pairs,
 * the pairs in their own layout, padding included, as the reduction
 * functions take them). The target side is cut into contiguous
 * segments (one for raw layouts, else one per data block of each element);
 * each segment is moved by the target's path: memory access (DIRECT), the
 * transport's get / put (TL), or active messages (AM). Over the network, puts,
 * gets and plain accumulates are only issued (flush completes them), unless
 * a staged buffer or a request needs them complete before returning; an
 * accumulate whose op and type the network lacks goes by messages. */
#include "rma.h"
#include "core/rt.h"
#include "op/op.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

typedef struct rx_seg_it {
    const rx_dtype_t *dt;
    size_t count, e;
    int b, whole;
} rx_seg_it_t;

static void rx_seg_init(rx_seg_it_t *it, const rx_dtype_t *dt, size_t count, int whole)
{
    it->dt = dt;
    it->count = count;
    it->e = 0;
    it->b = 0;
    it->whole = whole;
}

/* Next contiguous piece of (count, dt) at offset *off; 0 when done. */
static int rx_seg_next(rx_seg_it_t *it, int64_t *off, size_t *len)
{
    const rx_dtype_t *d = it->dt;
    if (it->whole) {
        if (it->e++ || !it->count)
            return 0;
        *off = 0;
        *len = it->count * (size_t)d->extent;
        return 1;
    }
    while (it->e < it->count) {
        if (it->b < d->nblocks) {
            *off = (int64_t)it->e * d->extent + d->blocks[it->b].off;
            *len = d->blocks[it->b].len;
            it->b++;
            if (*len)
                return 1;
            continue;
        }
        it->b = 0;
        it->e++;
    }
    return 0;
}

static int rx_is_acc(int k) { return k == RX_RMA_OP_ACC || k == RX_RMA_OP_GACC || k == RX_RMA_OP_CAS; }

/* Layout is the stream as it is: one segment. */
static int rx_whole(const rx_dtype_t *d, int acc)
{
    return acc ? d->predefined : rx_dtype_wire_is_raw(d);
}

/* Derived types of value-index pairs: the packed form drops the padding
 * inside and after each pair, which the reduction functions need, so such
 * data is combined pair by pair in the pair type's own layout. */
static int rx_pair_derived(const rx_dtype_t *d)
{
    return d && !d->predefined && d->basic && rx_basic_class(d->basic) == RX_CLASS_PAIR;
}

static const rx_dtype_t *rx_basic_type(int basic)
{
    return rx_dtype_get(RX_HANDLE(RX_KIND_DATATYPE, basic));
}

/* count elements of a derived pair type d at buf, as an array of pairs in
 * the pair type's layout (NULL: no memory). */
static void *rx_pairs_gather(const rx_dtype_t *d, const void *buf, size_t count)
{
    const rx_dtype_t *p = rx_basic_type(d->basic);
    size_t n = count * d->basic_count;
    void *packed = malloc(count * d->wire + 1), *pairs = malloc(n * (size_t)p->extent + 1);
    if (packed && pairs) {
        rx_dtype_pack(d, buf, count, packed);
        rx_dtype_unpack(p, packed, n * p->wire, pairs);
    } else {
        free(pairs);
        pairs = NULL;
    }
    free(packed);
    return pairs;
}

void rx_rma_result_unpack(const rx_dtype_t *rdt, const void *stage, size_t bytes, void *rbuf)
{
    if (!rx_pair_derived(rdt)) {
        rx_dtype_unpack(rdt, stage, bytes, rbuf);
        return;
    }
    /* the stage holds pairs in their own layout: pack them, then spread */
    const rx_dtype_t *p = rx_basic_type(rdt->basic);
    size_t n = bytes / (size_t)p->extent;
    void *packed = malloc(n * p->wire + 1);
    if (!packed)
        return; /* cannot happen for the sizes staged here; leaves rbuf as it was */
    rx_dtype_pack(p, stage, n, packed);
    rx_dtype_unpack(rdt, packed, n * p->wire, rbuf);
    free(packed);
}

/* Where each pair of count elements of the derived pair type d starts,
 * from the start of the data, in type-map order: the pair whose packed
 * bytes begin at q begins where the block holding packed byte q puts it
 * (its value comes first). *n gets their number; NULL: no memory. */
static int64_t *rx_pair_offsets(const rx_dtype_t *d, size_t count, size_t *n)
{
    size_t psz = rx_basic_type(d->basic)->wire, k = 0, packed = 0;
    int64_t *v = malloc(sizeof *v * (count * d->basic_count + 1));
    if (!v)
        return NULL;
    for (size_t e = 0; e < count; e++)
        for (int b = 0; b < d->nblocks; b++) {
            size_t len = d->blocks[b].len;
            int64_t at = (int64_t)e * d->extent + d->blocks[b].off;
            for (size_t q = (packed + psz - 1) / psz * psz; q < packed + len; q += psz)
                v[k++] = at + (int64_t)(q - packed);
            packed += len;
        }
    *n = k;
    return v;
}

int rx_rma_range(rx_win_t *w, rx_rma_op_t *op, uint64_t *off, uint64_t *span)
{
    rx_win_tgt_t *t = &w->tgt[op->target];
    const rx_dtype_t *d = op->tdt;
    *off = op->disp * (uint64_t)t->disp_unit;
    if (!op->tcount || !d->size) {
        *span = 0;
        return RX_OK;
    }
    int64_t lo = d->true_lb, hi = (int64_t)(op->tcount - 1) * d->extent + d->true_lb +
                                  d->true_extent;
    if ((int64_t)*off + lo < 0)
        return RX_ERR_INVAL;
    uint64_t first = *off + (uint64_t)lo, last = *off + (uint64_t)hi;
    *span = last - first;
    if (w->flavor != RX_WIN_FLAVOR_DYNAMIC)
        return last <= t->size ? RX_OK : RX_ERR_INVAL;
    rx_win_ctl_t *c = t->ctl;
    if (!c || t->kind == RX_RMA_AM)
        return RX_OK; /* the target checks on arrival */
    for (;;) {
        uint32_t s = atomic_load_explicit(&c->dyn_seq, memory_order_acquire);
        if (s & 1)
            continue;
        uint32_t n = c->ndyn < RX_WIN_DYN_MAX ? c->ndyn : RX_WIN_DYN_MAX, more = c->ndyn_more;
        int found = rx_win_dyn_reach(c->dyn, n, first) >= last;
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&c->dyn_seq, memory_order_relaxed) != s)
            continue;
        if (!found && more) { /* the target's private list may hold it */
            op->by_am = 1;
            return RX_OK;
        }
        return found ? RX_OK : RX_ERR_INVAL;
    }
}

/* Apply one accumulate segment to memory of this process. */
static void rx_acc_mem(rx_win_tgt_t *t, const rx_rma_op_t *op, int basic, const void *in,
                       void *tp, size_t nelem, void *fetched)
{
    int native = !t->acclock && rx_rma_native_type(basic);
    if (!native)
        rx_rma_spin_lock(&t->ctl->acc_lock);
    if (op->kind == RX_RMA_OP_CAS)
        rx_rma_cas_local(basic, op->cbuf, in, tp, fetched, native);
    else
        rx_rma_acc_local(op->op, basic, in, tp, nelem, fetched, native);
    if (!native)
        rx_rma_acc_unlock(t);
}

/* Accumulate on memory reached by the transport: under the target's lock
 * (over the network for net targets), read, combine, write back. */
static int rx_acc_tl(rx_win_t *w, rx_win_tgt_t *t, const rx_rma_op_t *op, int basic,
                     const void *in, uint64_t toff, size_t len, size_t nelem, void *fetched)
{
    rx_tl_t *tl = t->tl; /* this node's single copy: net targets never come here */
    char stackbuf[256];
    char *tmp = len <= sizeof stackbuf ? stackbuf : malloc(len);
    if (!tmp)
        return RX_ERR_NOMEM;
    (void)w;
    int rc = RX_OK;
    if (t->net)
        rc = rx_rma_net_acc_lock(t);
    else
        rx_rma_spin_lock(&t->ctl->acc_lock);
    if (rc != RX_OK) {
        if (tmp != stackbuf)
            free(tmp);
        return rc;
    }
    rc = tl->ops->get(tl, t->world, tmp, len, &t->rkey, toff);
    if (rc == RX_OK) {
        if (fetched)
            memcpy(fetched, tmp, len);
        int changed = 1;
        if (op->kind == RX_RMA_OP_CAS) {
            changed = !memcmp(tmp, op->cbuf, len);
            if (changed)
                memcpy(tmp, in, len);
        } else if (op->op->predefined == RX_OP_NO_OP) {
            changed = 0;
        } else {
            rx_op_apply(op->op->predefined, basic, in, tmp, nelem);
        }
        if (changed)
            rc = tl->ops->put(tl, t->world, tmp, len, &t->rkey, toff);
    }
    if (t->net) {
        int urc = rx_rma_net_acc_unlock(t);
        if (rc == RX_OK)
            rc = urc;
    } else {
        rx_rma_acc_unlock(t);
    }
    if (tmp != stackbuf)
        free(tmp);
    return rc;
}

/* One segment to a net target. Accumulates arrive here only when the
 * network has the atomic (amo, amt). */
static int rx_rma_net_seg(rx_win_tgt_t *t, const rx_rma_op_t *op, int amo, int amt,
                          const void *in, uint64_t toff, size_t len, size_t nelem, void *out)
{
    rx_tl_t *tl = t->tl;
    switch (op->kind) {
    case RX_RMA_OP_PUT: return tl->ops->put_nb(tl, t->world, in, len, &t->rkey, toff);
    case RX_RMA_OP_GET: return tl->ops->get_nb(tl, t->world, out, len, &t->rkey, toff, NULL, NULL);
    case RX_RMA_OP_CAS:
        return tl->ops->atomic(tl, t->world, RX_TL_AMO_CSWAP, amt, 1, in, op->cbuf, out, &t->rkey,
                          toff);
    default: break;
    }
    if (amo == RX_TL_AMO_READ && !out)
        return RX_OK; /* MPI_Accumulate with MPI_NO_OP changes nothing */
    return tl->ops->atomic(tl, t->world, amo, amt, nelem, in, NULL, out, &t->rkey, toff);
}

int rx_rma_do(rx_win_t *w, const rx_rma_op_t *op, rx_req_t *req)
{
    rx_win_tgt_t *t = &w->tgt[op->target];
    int acc = rx_is_acc(op->kind);
    int has_origin = op->kind != RX_RMA_OP_GET;
    int has_result = op->kind == RX_RMA_OP_GET || op->kind == RX_RMA_OP_GACC ||
                     op->kind == RX_RMA_OP_CAS;
    int basic = op->tdt->basic;
    size_t basic_ext = basic ? (size_t)rx_dtype_get(RX_HANDLE(RX_KIND_DATATYPE, basic))->extent : 1;
    uint64_t toff = op->disp * (uint64_t)t->disp_unit;
    int rc = RX_OK;

    /* the origin stream */
    const char *in = NULL;
    void *in_stage = NULL;
    if (has_origin && op->ocount) {
        if (rx_whole(op->odt, acc)) {
            in = op->obuf;
        } else if (acc && rx_pair_derived(op->odt)) {
            if (!(in_stage = rx_pairs_gather(op->odt, op->obuf, op->ocount)))
                return RX_ERR_NOMEM;
            in = in_stage;
        } else {
            in_stage = malloc(op->ocount * op->odt->wire);
            if (!in_stage)
                return RX_ERR_NOMEM;
            rx_dtype_pack(op->odt, op->obuf, op->ocount, in_stage);
            in = in_stage;
        }
    }
    /* where results land: the user buffer when its layout is the stream */
    char *out = NULL;
    void *out_stage = NULL;
    int out_unpack = 0;
    if (has_result && op->rcount) {
        if (rx_whole(op->rdt, acc)) {
            out = op->rbuf;
        } else {
            size_t sz = op->rcount * (!acc ? op->rdt->wire
                                      : rx_pair_derived(op->rdt)
                                          ? op->rdt->basic_count * basic_ext
                                          : (size_t)op->rdt->size);
            out_stage = malloc(sz ? sz : 1);
            if (!out_stage) {
                free(in_stage);
                return RX_ERR_NOMEM;
            }
            out = out_stage;
            out_unpack = 1;
        }
    }
    /* net accumulates, by the rule the target's node follows (rma.h): the
     * network's atomic, read-combine-write under the accumulate lock, or
     * messages, for the whole op */
    int amo = -1, amt = -1, by_am = t->kind == RX_RMA_AM || op->by_am, locked = 0;
    if (t->net && acc && !op->by_am) {
        if (t->lockacc || !rx_rma_native_type(basic))
            locked = t->netacclock;
        else if (rx_rma_net_amo(t, op->kind == RX_RMA_OP_CAS ? -1 : op->op->predefined, basic,
                                &amo, &amt))
            locked = 0;
        else
            locked = -1;
        by_am = locked <= 0 && amo < 0;
    }
    rx_rma_amrec_t *rec = NULL;
    if (by_am) {
        /* the record owns out_stage and completes req once every reply came */
        rec = rx_rma_am_rec(req, out_unpack ? out_stage : NULL, op->rdt, op->rbuf);
        if (!rec) {
            free(in_stage);
            free(out_stage);
            return RX_ERR_NOMEM;
        }
    }

    rx_seg_it_t it;
    rx_seg_init(&it, op->tdt, op->tcount, rx_whole(op->tdt, acc));
    /* a derived pair type at the target: runs of pairs one extent apart */
    int64_t *pairs = NULL;
    size_t npairs = 0, pair_at = 0;
    if (acc && rx_pair_derived(op->tdt) &&
        !(pairs = rx_pair_offsets(op->tdt, op->tcount, &npairs)))
        rc = RX_ERR_NOMEM;
    int64_t soff;
    size_t len, pos = 0;
    rx_tl_t *tl = t->tl;
    while (rc == RX_OK && (pairs ? pair_at < npairs : rx_seg_next(&it, &soff, &len))) {
        if (pairs) {
            size_t k = 1;
            soff = pairs[pair_at];
            while (pair_at + k < npairs &&
                   pairs[pair_at + k] == soff + (int64_t)(k * basic_ext))
                k++;
            pair_at += k;
            len = k * basic_ext;
        }
        uint64_t o = toff + (uint64_t)soff;
        if (acc && it.whole)
            len = op->tcount * basic_ext;
        size_t nelem = acc ? len / basic_ext : 0;
        if (rec) {
            rc = rx_rma_am_seg(w, op, rec, o, in ? in + pos : NULL, len, nelem,
                               out ? out + pos : NULL);
        } else if (t->kind == RX_RMA_DIRECT) {
            char *tp = t->base + o;
            switch (op->kind) {
            case RX_RMA_OP_PUT: memcpy(tp, in + pos, len); break;
            case RX_RMA_OP_GET: memcpy(out + pos, tp, len); break;
            default:
                rx_acc_mem(t, op, basic, in ? in + pos : NULL, tp, nelem, out ? out + pos : NULL);
            }
        } else if (t->net && locked > 0) {
            rc = rx_acc_tl(w, t, op, basic, in ? in + pos : NULL, o, len, nelem,
                           out ? out + pos : NULL);
        } else if (t->net) {
            t->nb_pending = 1;
            rc = rx_rma_net_seg(t, op, amo, amt, in ? in + pos : NULL, o, len, nelem,
                                out ? out + pos : NULL);
        } else {
            switch (op->kind) {
            case RX_RMA_OP_PUT: rc = tl->ops->put(tl, t->world, in + pos, len, &t->rkey, o); break;
            case RX_RMA_OP_GET: rc = tl->ops->get(tl, t->world, out + pos, len, &t->rkey, o); break;
            default:
                rc = rx_acc_tl(w, t, op, basic, in ? in + pos : NULL, o, len, nelem,
                               out ? out + pos : NULL);
            }
        }
        pos += len;
    }
    free(pairs);
    if (rec) {
        rx_rma_am_rec_done(rec, pos);
        free(in_stage);
        return rc;
    }
    /* staged buffers are freed and requests complete now: finish what the
     * network only issued */
    if (t->net && t->nb_pending && (in_stage || out_stage || req)) {
        t->nb_pending = 0;
        int frc = tl->ops->flush(tl, t->world);
        if (rc == RX_OK)
            rc = frc;
    }
    if (rc == RX_OK && out_unpack)
        rx_rma_result_unpack(op->rdt, out_stage, pos, op->rbuf);
    free(in_stage);
    free(out_stage);
    if (req)
        rx_req_complete(req);
    return rc;
}
