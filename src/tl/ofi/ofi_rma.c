/* SPDX-License-Identifier: MIT
 * One-sided transfers: the rendezvous receiver reads the sender's registered
 * buffer with fi_read straight into its own buffer (no staging on either
 * side); fi_write serves put. A transfer above the provider's largest message
 * goes as several operations that complete together. Operations the provider
 * refuses for now (FI_EAGAIN) wait in a queue that progress retries in order.
 *
 * Windows use the same machinery: put / get / atomics issued without a
 * completion callback are counted per target and completed by flush, which
 * is what lets MPI_Put return before the data has left. Writes ask for
 * FI_DELIVERY_COMPLETE where the provider offers it, so that a flushed put is
 * in the target's memory, not merely handed to the network. */
#include "ofi.h"
#include "util/log.h"
#include "util/status.h"

#include <rdma/fi_errno.h>
#include <stdlib.h>
#include <time.h>

static rx_ofi_op_t *rx_ofi_op_alloc(rx_ofi_t *o)
{
    rx_ofi_op_t *op = o->op_free;
    if (op)
        o->op_free = op->next;
    else if (!(op = malloc(sizeof *op)))
        return NULL;
    *op = (rx_ofi_op_t){0};
    return op;
}

static void rx_ofi_op_free(rx_ofi_t *o, rx_ofi_op_t *op)
{
    op->next = o->op_free;
    o->op_free = op;
}

static const enum fi_op rx_ofi_fi_op[RX_TL_AMO_NOPS] = {
    [RX_TL_AMO_SUM] = FI_SUM,     [RX_TL_AMO_PROD] = FI_PROD,   [RX_TL_AMO_MIN] = FI_MIN,
    [RX_TL_AMO_MAX] = FI_MAX,     [RX_TL_AMO_LAND] = FI_LAND,   [RX_TL_AMO_LOR] = FI_LOR,
    [RX_TL_AMO_LXOR] = FI_LXOR,   [RX_TL_AMO_BAND] = FI_BAND,   [RX_TL_AMO_BOR] = FI_BOR,
    [RX_TL_AMO_BXOR] = FI_BXOR,   [RX_TL_AMO_WRITE] = FI_ATOMIC_WRITE,
    [RX_TL_AMO_READ] = FI_ATOMIC_READ, [RX_TL_AMO_CSWAP] = FI_CSWAP,
};

static const size_t rx_ofi_amt_size[RX_TL_AMT_NTYPES] = {1, 1, 2, 2, 4, 4, 8, 8, 4, 8};

static void *rx_ofi_desc(rx_ofi_mr_t *m) { return m ? m->desc : NULL; }

static ssize_t rx_ofi_amo_post(rx_ofi_t *o, rx_ofi_op_t *op)
{
    enum fi_datatype dt = (enum fi_datatype)o->fi_amt[op->amt];
    enum fi_op fop = rx_ofi_fi_op[op->amo - 1];
    size_t count = op->len / rx_ofi_amt_size[op->amt];
    fi_addr_t dst = o->addr[op->peer];
    if (op->amo - 1 == RX_TL_AMO_CSWAP)
        return fi_compare_atomic(o->ep, op->local, count, rx_ofi_desc(op->lmr), (void *)op->compare,
                                 rx_ofi_desc(op->clmr), op->result, rx_ofi_desc(op->rlmr), dst,
                                 op->raddr, op->rkey, dt, fop, op);
    if (op->result)
        return fi_fetch_atomic(o->ep, op->local, count, rx_ofi_desc(op->lmr), op->result,
                               rx_ofi_desc(op->rlmr), dst, op->raddr, op->rkey, dt, fop, op);
    return fi_atomic(o->ep, op->local, count, rx_ofi_desc(op->lmr), dst, op->raddr, op->rkey, dt,
                     fop, op);
}

static ssize_t rx_ofi_write_post(rx_ofi_t *o, rx_ofi_op_t *op)
{
    void *desc = rx_ofi_desc(op->lmr);
    if (!o->delivery_complete)
        return fi_write(o->ep, op->local, op->len, desc, o->addr[op->peer], op->raddr, op->rkey,
                        op);
    struct iovec iov = {.iov_base = op->local, .iov_len = op->len};
    struct fi_rma_iov riov = {.addr = op->raddr, .len = op->len, .key = op->rkey};
    struct fi_msg_rma msg = {.msg_iov = &iov, .desc = &desc, .iov_count = 1,
                             .addr = o->addr[op->peer], .rma_iov = &riov, .rma_iov_count = 1,
                             .context = op};
    ssize_t ret = fi_writemsg(o->ep, &msg, FI_COMPLETION | FI_DELIVERY_COMPLETE);
    if (ret == -FI_EOPNOTSUPP || ret == -FI_ENOSYS || ret == -FI_EINVAL) {
        o->delivery_complete = 0; /* the provider's own completion is what there is */
        return rx_ofi_write_post(o, op);
    }
    return ret;
}

static void rx_ofi_op_unref(rx_ofi_t *o, rx_ofi_op_t *op)
{
    if (op->lmr)
        rx_ofi_mr_put(o, op->lmr);
    if (op->clmr)
        rx_ofi_mr_put(o, op->clmr);
    if (op->rlmr)
        rx_ofi_mr_put(o, op->rlmr);
    rx_ofi_op_free(o, op);
}

/* RX_OK: posted; RX_ERR_AGAIN: not now; else failed. */
static int rx_ofi_rma_post(rx_ofi_t *o, rx_ofi_op_t *op)
{
    ssize_t ret = op->amo ? rx_ofi_amo_post(o, op)
                  : op->kind == RX_OFI_OP_READ
                      ? fi_read(o->ep, op->local, op->len, rx_ofi_desc(op->lmr),
                                o->addr[op->peer], op->raddr, op->rkey, op)
                      : rx_ofi_write_post(o, op);
    if (ret == 0) {
        o->rma_out++;
        return RX_OK;
    }
    if (ret == -FI_EAGAIN)
        return RX_ERR_AGAIN;
    return rx_ofi_err(op->amo ? "fi_atomic" : op->kind == RX_OFI_OP_READ ? "fi_read" : "fi_write",
                      (int)ret);
}

static void rx_ofi_retry_push(rx_ofi_t *o, rx_ofi_op_t *op)
{
    op->next = NULL;
    if (o->retry_tail)
        o->retry_tail->next = op;
    else
        o->retry_head = op;
    o->retry_tail = op;
}

int rx_ofi_rma_retry(rx_ofi_t *o)
{
    int n = 0;
    while (o->retry_head) {
        rx_ofi_op_t *op = o->retry_head;
        int rc = rx_ofi_rma_post(o, op);
        if (rc == RX_ERR_AGAIN)
            break;
        o->retry_head = op->next;
        if (!o->retry_head)
            o->retry_tail = NULL;
        n++;
        if (rc != RX_OK) {
            o->rma_out++; /* counted as posted, so that completing it balances */
            rx_ofi_rma_complete(o, op, rc);
        }
    }
    return n;
}

/* Parent of a transfer split into several operations. */
typedef struct rx_ofi_multi {
    int left, status;
    rx_tl_done_t done;
    void *arg;
} rx_ofi_multi_t;

static void rx_ofi_multi_done(void *arg, int status)
{
    rx_ofi_multi_t *m = arg;
    if (status != RX_OK)
        m->status = status;
    if (--m->left == 0) {
        m->done(m->arg, m->status);
        free(m);
    }
}

static int rx_ofi_rma_start(rx_ofi_t *o, int kind, int peer, void *local, size_t len,
                            const rx_rkey_t *rkey, uint64_t offset, rx_tl_done_t done, void *arg)
{
    size_t chunk = o->max_msg;
    rx_ofi_multi_t *m = NULL;
    if (len > chunk && done) {
        if (!(m = malloc(sizeof *m)))
            return RX_ERR_NOMEM;
        *m = (rx_ofi_multi_t){.left = (int)((len + chunk - 1) / chunk), .done = done, .arg = arg};
        done = rx_ofi_multi_done;
        arg = m;
    }
    size_t off = 0;
    do {
        size_t n = len - off < chunk ? len - off : chunk;
        rx_ofi_op_t *op = rx_ofi_op_alloc(o);
        int rc = op ? RX_OK : RX_ERR_NOMEM;
        if (op) {
            op->kind = kind;
            op->peer = peer;
            op->local = (char *)local + off;
            op->len = n;
            op->raddr = rkey->addr + offset + off;
            op->rkey = rkey->key;
            op->done = done;
            op->arg = arg;
            if (o->mr_local)
                rc = rx_ofi_mr_get(o, op->local, n, &op->lmr);
        }
        if (rc == RX_OK) {
            /* behind earlier refused operations, to keep their order */
            rc = o->retry_head ? RX_ERR_AGAIN : rx_ofi_rma_post(o, op);
            if (rc == RX_ERR_AGAIN) {
                rx_ofi_retry_push(o, op);
                rc = RX_OK;
            }
            if (rc == RX_OK && !done)
                o->peer_out[peer]++; /* completed by flush */
        }
        if (rc != RX_OK) {
            if (op)
                rx_ofi_op_unref(o, op);
            if (!m)
                return rc; /* nothing posted: the caller learns it here */
            /* parts already posted complete later; fail the rest */
            m->status = rc;
            int rest = (int)((len - off + chunk - 1) / chunk);
            m->left -= rest - 1;
            rx_ofi_multi_done(m, rc);
            return RX_OK;
        }
        off += n;
    } while (off < len);
    return RX_OK;
}

void rx_ofi_rma_complete(rx_ofi_t *o, rx_ofi_op_t *op, int status)
{
    if (status == RX_OK && op->kind == RX_OFI_OP_READ && op->done && !op->amo) {
        o->st.rndv_read += op->len;
        o->st.rndv_reads++;
    }
    o->rma_out--;
    rx_tl_done_t done = op->done;
    void *arg = op->arg;
    int peer = op->peer;
    rx_ofi_op_unref(o, op);
    if (done) {
        done(arg, status);
    } else {
        o->peer_out[peer]--;
        if (status != RX_OK && !o->peer_err[peer])
            o->peer_err[peer] = status;
    }
}

int rx_ofi_get_nb(rx_tl_t *tl, int world_peer, void *local, size_t len, const rx_rkey_t *rkey,
                  uint64_t offset, rx_tl_done_t done, void *arg)
{
    return rx_ofi_rma_start((rx_ofi_t *)tl, RX_OFI_OP_READ, world_peer, local, len, rkey, offset,
                            done, arg);
}

typedef struct {
    int finished, status;
} rx_ofi_sync_t;

static void rx_ofi_sync_done(void *arg, int status)
{
    rx_ofi_sync_t *s = arg;
    s->status = status;
    s->finished = 1;
}

static int rx_ofi_rma_sync(rx_ofi_t *o, int kind, int peer, void *local, size_t len,
                           const rx_rkey_t *rkey, uint64_t offset)
{
    rx_ofi_sync_t s = {0};
    if (o->in_progress) {
        rx_log_error("ofi: a blocking get/put cannot run inside a message handler");
        return RX_ERR_INVAL;
    }
    int rc = rx_ofi_rma_start(o, kind, peer, local, len, rkey, offset, rx_ofi_sync_done, &s);
    if (rc != RX_OK)
        return rc;
    while (!s.finished)
        rx_ofi_progress(&o->tl);
    return s.status;
}

int rx_ofi_get(rx_tl_t *tl, int world_peer, void *local, size_t len, const rx_rkey_t *rkey,
               uint64_t offset)
{
    return rx_ofi_rma_sync((rx_ofi_t *)tl, RX_OFI_OP_READ, world_peer, local, len, rkey, offset);
}

int rx_ofi_put(rx_tl_t *tl, int world_peer, const void *local, size_t len, const rx_rkey_t *rkey,
               uint64_t offset)
{
    return rx_ofi_rma_sync((rx_ofi_t *)tl, RX_OFI_OP_WRITE, world_peer, (void *)local, len, rkey,
                           offset);
}

/* ---- windows: operations completed by flush, atomics ---- */

int rx_ofi_put_nb(rx_tl_t *tl, int world_peer, const void *local, size_t len,
                  const rx_rkey_t *rkey, uint64_t offset)
{
    return rx_ofi_rma_start((rx_ofi_t *)tl, RX_OFI_OP_WRITE, world_peer, (void *)local, len, rkey,
                            offset, NULL, NULL);
}

typedef struct {
    int left, status;
} rx_ofi_wait_t;

static void rx_ofi_wait_done(void *arg, int status)
{
    rx_ofi_wait_t *w = arg;
    if (status != RX_OK && w->status == RX_OK)
        w->status = status;
    w->left--;
}

static int rx_ofi_reg(rx_ofi_t *o, const void *p, size_t len, rx_ofi_mr_t **m)
{
    return o->mr_local && p ? rx_ofi_mr_get(o, p, len, m) : RX_OK;
}

int rx_ofi_atomic(rx_tl_t *tl, int world_peer, int op, int type, size_t count,
                  const void *operand, const void *compare, void *fetched,
                  const rx_rkey_t *rkey, uint64_t offset)
{
    rx_ofi_t *o = (rx_ofi_t *)tl;
    size_t es = rx_ofi_amt_size[type], max = o->amo_count[type] ? o->amo_count[type] : 1;
    int fetch = fetched != NULL || op == RX_TL_AMO_CSWAP;
    rx_ofi_wait_t w = {0, RX_OK};
    if (fetch && o->in_progress) {
        rx_log_error("ofi: a fetching atomic cannot run inside a message handler");
        return RX_ERR_INVAL;
    }
    if (op == RX_TL_AMO_CSWAP)
        max = 1;
    int rc = RX_OK;
    for (size_t done = 0; done < count && rc == RX_OK;) {
        size_t n = count - done < max ? count - done : max;
        size_t off = done * es;
        rx_ofi_op_t *a = rx_ofi_op_alloc(o);
        if (!a) {
            rc = RX_ERR_NOMEM;
            break;
        }
        a->kind = fetch ? RX_OFI_OP_READ : RX_OFI_OP_WRITE;
        a->amo = op + 1;
        a->amt = type;
        a->peer = world_peer;
        /* a read sends no operand; the provider still wants a buffer */
        a->local = (char *)(operand ? operand : fetched) + off;
        a->len = n * es;
        a->compare = compare ? (const char *)compare + off : NULL;
        a->result = fetched ? (char *)fetched + off : NULL;
        a->raddr = rkey->addr + offset + off;
        a->rkey = rkey->key;
        a->done = fetch ? rx_ofi_wait_done : NULL;
        a->arg = &w;
        rc = rx_ofi_reg(o, a->local, a->len, &a->lmr);
        if (rc == RX_OK)
            rc = rx_ofi_reg(o, a->compare, a->len, &a->clmr);
        if (rc == RX_OK)
            rc = rx_ofi_reg(o, a->result, a->len, &a->rlmr);
        if (rc == RX_OK) {
            rc = o->retry_head ? RX_ERR_AGAIN : rx_ofi_rma_post(o, a);
            if (rc == RX_ERR_AGAIN) {
                rx_ofi_retry_push(o, a);
                rc = RX_OK;
            }
        }
        if (rc != RX_OK) {
            rx_ofi_op_unref(o, a);
            break;
        }
        if (fetch)
            w.left++;
        else
            o->peer_out[world_peer]++;
        done += n;
    }
    while (w.left > 0) /* posted parts finish even after a failure: a refers to w */
        rx_ofi_progress(tl);
    return rc != RX_OK ? rc : w.status;
}

int rx_ofi_flush(rx_tl_t *tl, int world_peer)
{
    rx_ofi_t *o = (rx_ofi_t *)tl;
    int lo = world_peer < 0 ? 0 : world_peer, hi = world_peer < 0 ? o->size : world_peer + 1;
    int rc = RX_OK;
    if (o->in_progress) {
        rx_log_error("ofi: flush cannot run inside a message handler");
        return RX_ERR_INVAL;
    }
    for (int r = lo; r < hi; r++) {
        while (o->peer_out[r] > 0)
            rx_ofi_progress(tl);
        if (o->peer_err[r] && rc == RX_OK)
            rc = o->peer_err[r];
        o->peer_err[r] = 0;
    }
    return rc;
}

int rx_ofi_atomic_query(rx_ofi_t *o)
{
    static const enum fi_datatype dts[RX_TL_AMT_NTYPES] = {
        FI_INT8, FI_UINT8, FI_INT16, FI_UINT16, FI_INT32, FI_UINT32,
        FI_INT64, FI_UINT64, FI_FLOAT, FI_DOUBLE,
    };
    int any = 0;
    for (int t = 0; t < RX_TL_AMT_NTYPES; t++) {
        o->fi_amt[t] = (int)dts[t];
        o->amo_count[t] = 0;
    }
    for (int op = 0; op < RX_TL_AMO_NOPS; op++) {
        o->tl.amo_types[op] = 0;
        for (int t = 0; t < RX_TL_AMT_NTYPES; t++) {
            /* both forms MPI may use: plain (accumulate) and fetching */
            uint64_t forms[2] = {0, FI_FETCH_ATOMIC};
            int nforms = 2, ok = 1;
            if (op == RX_TL_AMO_CSWAP) {
                forms[0] = FI_COMPARE_ATOMIC;
                nforms = 1;
            } else if (op == RX_TL_AMO_READ) {
                forms[0] = FI_FETCH_ATOMIC;
                nforms = 1;
            }
            for (int f = 0; f < nforms && ok; f++) {
                struct fi_atomic_attr attr = {0};
                if (fi_query_atomic(o->domain, dts[t], rx_ofi_fi_op[op], &attr, forms[f]) ||
                    attr.count < 1) {
                    ok = 0;
                    break;
                }
                size_t c = attr.count > (1u << 20) ? (1u << 20) : attr.count;
                if (!o->amo_count[t] || c < o->amo_count[t])
                    o->amo_count[t] = c;
            }
            if (ok) {
                o->tl.amo_types[op] |= 1u << t;
                any = 1;
            }
        }
    }
    return any;
}

/* The thread only reads a counter: that runs the provider's progress (under
 * its own lock, the domain being thread-safe), which applies incoming writes,
 * reads and atomics and queues our completions for the application's next
 * progress call. Waking every 100 us costs a few microseconds each time. */
static void *rx_ofi_pthread(void *arg)
{
    rx_ofi_t *o = arg;
    const struct timespec nap = {0, 100000};
    while (!atomic_load_explicit(&o->pthr_stop, memory_order_acquire)) {
        fi_cntr_read(o->pcntr);
        nanosleep(&nap, NULL);
    }
    return NULL;
}

void rx_ofi_rma_expose(rx_tl_t *tl)
{
    rx_ofi_t *o = (rx_ofi_t *)tl;
    if (o->pthr_on || !o->pcntr)
        return;
    atomic_store(&o->pthr_stop, 0);
    if (pthread_create(&o->pthr, NULL, rx_ofi_pthread, o) == 0)
        o->pthr_on = 1;
    else
        rx_log_warn("ofi: no progress thread: passive-target operations from other nodes "
                    "progress only when this rank calls MPI");
}

void rx_ofi_rma_fini(rx_ofi_t *o)
{
    if (o->pthr_on) {
        atomic_store(&o->pthr_stop, 1);
        pthread_join(o->pthr, NULL);
        o->pthr_on = 0;
    }
    free(o->peer_out);
    free(o->peer_err);
    o->peer_out = o->peer_err = NULL;
    while (o->op_free) {
        rx_ofi_op_t *op = o->op_free;
        o->op_free = op->next;
        free(op);
    }
}
