/* SPDX-License-Identifier: MIT
 * Emulation of one-sided operations by active messages, for targets the
 * transport cannot reach directly (another node without native RDMA, or
 * every target under RDMX_RMA_EMULATE=1). The target's progress engine
 * applies each request to its window with the same rules as direct origins
 * (atomic instructions or the accumulate lock, the reader-writer lock word),
 * so emulated and direct accesses stay atomic with respect to each other.
 *
 * Every request is answered (ACK, DATA or LOCK_OK); the origin counts
 * unanswered requests per target, and flush waits for that count to reach
 * zero. Messages of one (origin, target) pair arrive in order, so an unlock
 * is applied after every operation sent before it. */
#include "rma.h"
#include "op/op.h"
#include "core/rt.h"
#include "p2p/am_rma.h"
#include "util/config.h"
#include "util/log.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

enum {
    RX_AM_RMA_PUT = RX_AM_RMA_FIRST,
    RX_AM_RMA_GET,
    RX_AM_RMA_ACC,    /* accumulate; flags RX_RMA_F_FETCH: answer the old values */
    RX_AM_RMA_CAS,
    RX_AM_RMA_LOCK,
    RX_AM_RMA_UNLOCK,
    RX_AM_RMA_ACK,    /* tag = RX status of the request */
    RX_AM_RMA_DATA,   /* payload: origin address (8 bytes), then the data */
    RX_AM_RMA_LOCK_OK,
};
#define RX_RMA_F_FETCH 1
#define RX_RMA_F_EXCL 2

/* Request payload: this, then the data (put, accumulate, compare + value). */
typedef struct rx_rma_req_hdr {
    uint64_t off;      /* byte offset in the target window (dynamic: address) */
    uint64_t len;      /* bytes at the target */
    uint64_t dest;     /* origin address for the answer's data */
    int32_t basic, op;
    uint64_t nelem;
} rx_rma_req_hdr_t;

struct rx_rma_amrec {
    int refs;
    rx_req_t *req;
    void *stage;
    const rx_dtype_t *rdt;
    void *rbuf;
    size_t bytes;
};

/* Answers that found no room in the transport, sent in order by progress. */
typedef struct rx_am_out {
    struct rx_am_out *next;
    int world;
    rx_am_hdr_t hdr;
    size_t len;
    unsigned char data[];
} rx_am_out_t;

/* Lock requests that must wait for the lock word. */
typedef struct rx_lock_wait {
    struct rx_lock_wait *next;
    uint32_t win;
    int world, src, excl;
} rx_lock_wait_t;

static rx_am_out_t *rx_outq_head, *rx_outq_tail;
static int rx_outq_len; /* this layer's backlog, read by the progress engine */
static rx_lock_wait_t *rx_lock_waiters;
static rx_win_t *rx_live_wins;
static unsigned char *rx_scratch_origin, *rx_scratch_reply;
static size_t rx_scratch_len;
static int rx_emulate = -1;

int rx_rma_emulate(void)
{
    if (rx_emulate < 0)
        rx_emulate = rx_config()->RMA_EMULATE != 0;
    return rx_emulate;
}

void rx_rma_win_register(rx_win_t *w)
{
    w->next_live = rx_live_wins;
    rx_live_wins = w;
}

void rx_rma_win_unregister(rx_win_t *w)
{
    for (rx_win_t **pp = &rx_live_wins; *pp; pp = &(*pp)->next_live)
        if (*pp == w) {
            *pp = w->next_live;
            return;
        }
}

rx_win_t *rx_rma_win_find(uint32_t id)
{
    for (rx_win_t *w = rx_live_wins; w; w = w->next_live)
        if (w->id == id)
            return w;
    return NULL;
}

static size_t rx_am_max(int world)
{
    size_t m = rx_rt.peer_tl[world]->max_am_payload;
    return m > rx_scratch_len ? rx_scratch_len : m;
}

/* From a handler: send now or queue behind earlier answers (never progress). */
static void rx_am_reply(int world, const rx_am_hdr_t *hdr, const void *p1, size_t l1,
                        const void *p2, size_t l2)
{
    rx_tl_t *tl = rx_rt.peer_tl[world];
    if (l1)
        memcpy(rx_scratch_reply, p1, l1);
    if (l2)
        memcpy(rx_scratch_reply + l1, p2, l2);
    if (!rx_outq_head && tl->ops->am_send(tl, world, hdr, rx_scratch_reply, l1 + l2) == RX_OK)
        return;
    rx_am_out_t *o = malloc(sizeof *o + l1 + l2);
    if (!o) {
        rx_log_error("rma: out of memory queueing an answer to rank %d", world);
        abort();
    }
    o->next = NULL;
    o->world = world;
    o->hdr = *hdr;
    o->len = l1 + l2;
    memcpy(o->data, rx_scratch_reply, l1 + l2);
    if (rx_outq_tail)
        rx_outq_tail->next = o;
    else
        rx_outq_head = o;
    rx_outq_tail = o;
    rx_outq_len++;
}

static int rx_am_progress(void)
{
    int n = 0;
    while (rx_outq_head) {
        rx_am_out_t *o = rx_outq_head;
        rx_tl_t *tl = rx_rt.peer_tl[o->world];
        if (tl->ops->am_send(tl, o->world, &o->hdr, o->data, o->len) != RX_OK)
            break;
        rx_outq_head = o->next;
        if (!rx_outq_head)
            rx_outq_tail = NULL;
        rx_outq_len--;
        free(o);
        n++;
    }
    for (rx_lock_wait_t **pp = &rx_lock_waiters; *pp;) {
        rx_lock_wait_t *lw = *pp;
        rx_win_t *w = rx_rma_win_find(lw->win);
        if (w && !rx_rma_lock_try(&w->myctl->lock, lw->excl)) {
            pp = &lw->next;
            continue;
        }
        rx_am_hdr_t h = {.type = RX_AM_RMA_LOCK_OK, .ctx = lw->win, .src = w ? w->rank : -1};
        rx_am_reply(lw->world, &h, NULL, 0, NULL, 0);
        *pp = lw->next;
        free(lw);
        n++;
    }
    return n;
}

/* From a user call: may drive progress until the transport takes it. */
static int rx_am_send(int world, const rx_am_hdr_t *hdr, size_t len)
{
    rx_tl_t *tl = rx_rt.peer_tl[world];
    for (;;) {
        if (!rx_outq_head) {
            int rc = tl->ops->am_send(tl, world, hdr, rx_scratch_origin, len);
            if (rc != RX_ERR_AGAIN)
                return rc;
        }
        rx_progress();
    }
}

static void rx_am_answered(rx_win_t *w, int target, rx_rma_amrec_t *rec, int status)
{
    if (w && target >= 0 && target < w->size) {
        rx_win_tgt_t *t = &w->tgt[target];
        t->am_pending--;
        w->am_pending_total--;
        if (status != RX_OK && !t->am_err)
            t->am_err = status;
    }
    if (rec && --rec->refs == 0) {
        if (rec->stage)
            rx_rma_result_unpack(rec->rdt, rec->stage, rec->bytes, rec->rbuf);
        free(rec->stage);
        if (rec->req) {
            if (status != RX_OK)
                rx_req_fail(rec->req, RX_ERR_INTERN);
            rx_req_complete(rec->req);
        }
        free(rec);
    }
}

/* The target side: apply a request to this rank's window memory. */
static void rx_am_apply(rx_win_t *w, int world_src, const rx_am_hdr_t *hdr, const void *payload,
                        size_t len)
{
    rx_rma_req_hdr_t rh;
    memcpy(&rh, payload, sizeof rh);
    const char *data = (const char *)payload + sizeof rh;
    rx_am_hdr_t ans = {.type = RX_AM_RMA_ACK, .ctx = hdr->ctx, .src = w->rank,
                       .cookie = hdr->cookie};
    void *addr = rx_rma_local_addr(w, rh.off, rh.len);
    (void)len;
    if (!addr) {
        rx_log_error("rma: request from rank %d outside window (offset %llu, %llu bytes)",
                     world_src, (unsigned long long)rh.off, (unsigned long long)rh.len);
        ans.tag = RX_ERR_INVAL;
        rx_am_reply(world_src, &ans, NULL, 0, NULL, 0);
        return;
    }
    rx_win_tgt_t *me = &w->tgt[w->rank];
    switch (hdr->type) {
    case RX_AM_RMA_PUT:
        memcpy(addr, data, rh.len);
        rx_am_reply(world_src, &ans, NULL, 0, NULL, 0);
        return;
    case RX_AM_RMA_GET:
        ans.type = RX_AM_RMA_DATA;
        rx_am_reply(world_src, &ans, &rh.dest, 8, addr, rh.len);
        return;
    default: break;
    }
    /* accumulate / compare-and-swap, under the same rule as direct origins */
    char stackbuf[256];
    int fetch = hdr->type == RX_AM_RMA_CAS || (hdr->flags & RX_RMA_F_FETCH);
    char *old = !fetch ? NULL : rh.len <= sizeof stackbuf ? stackbuf : malloc(rh.len);
    if (fetch && !old) {
        ans.tag = RX_ERR_NOMEM;
        rx_am_reply(world_src, &ans, NULL, 0, NULL, 0);
        return;
    }
    int native = !me->acclock && rx_rma_native_type(rh.basic);
    if (!native)
        rx_rma_spin_lock(&w->myctl->acc_lock);
    if (hdr->type == RX_AM_RMA_CAS)
        rx_rma_cas_local(rh.basic, data, data + rh.len, addr, old, native);
    else
        rx_rma_acc_local(rx_opobj_get(RX_HANDLE(RX_KIND_OP, rh.op)), rh.basic, data, addr,
                         rh.nelem, old, native);
    if (!native)
        rx_rma_acc_unlock(me);
    if (fetch) {
        ans.type = RX_AM_RMA_DATA;
        rx_am_reply(world_src, &ans, &rh.dest, 8, old, rh.len);
        if (old != stackbuf)
            free(old);
    } else {
        rx_am_reply(world_src, &ans, NULL, 0, NULL, 0);
    }
}

static void rx_rma_am_handler(void *arg, int world_src, const rx_am_hdr_t *hdr,
                              const void *payload, size_t len)
{
    (void)arg;
    rx_win_t *w = rx_rma_win_find(hdr->ctx);
    if (!w) {
        rx_log_error("rma: message type %u from rank %d for unknown window %u dropped",
                     hdr->type, world_src, hdr->ctx);
        return;
    }
    switch (hdr->type) {
    case RX_AM_RMA_ACK:
        rx_am_answered(w, hdr->src, (rx_rma_amrec_t *)(uintptr_t)hdr->cookie, hdr->tag);
        return;
    case RX_AM_RMA_DATA: {
        uint64_t dest;
        memcpy(&dest, payload, 8);
        if (len > 8)
            memcpy((void *)(uintptr_t)dest, (const char *)payload + 8, len - 8);
        rx_am_answered(w, hdr->src, (rx_rma_amrec_t *)(uintptr_t)hdr->cookie, RX_OK);
        return;
    }
    case RX_AM_RMA_LOCK_OK:
        rx_am_answered(w, hdr->src, NULL, RX_OK);
        return;
    case RX_AM_RMA_LOCK: {
        int excl = (hdr->flags & RX_RMA_F_EXCL) != 0;
        if (!rx_lock_waiters && rx_rma_lock_try(&w->myctl->lock, excl)) {
            rx_am_hdr_t h = {.type = RX_AM_RMA_LOCK_OK, .ctx = hdr->ctx, .src = w->rank};
            rx_am_reply(world_src, &h, NULL, 0, NULL, 0);
            return;
        }
        rx_lock_wait_t *lw = malloc(sizeof *lw), **pp = &rx_lock_waiters;
        if (!lw) {
            rx_log_error("rma: out of memory queueing a lock request");
            abort();
        }
        *lw = (rx_lock_wait_t){.win = hdr->ctx, .world = world_src, .src = hdr->src,
                               .excl = excl};
        while (*pp) /* first come, first served */
            pp = &(*pp)->next;
        *pp = lw;
        return;
    }
    case RX_AM_RMA_UNLOCK: {
        rx_rma_lock_release(&w->myctl->lock, (hdr->flags & RX_RMA_F_EXCL) != 0);
        rx_am_hdr_t h = {.type = RX_AM_RMA_ACK, .ctx = hdr->ctx, .src = w->rank};
        rx_am_reply(world_src, &h, NULL, 0, NULL, 0);
        return;
    }
    default:
        rx_am_apply(w, world_src, hdr, payload, len);
    }
}

int rx_rma_am_init(void)
{
    if (rx_p2p_rma_hook)
        return RX_OK;
    size_t m = 0;
    for (int i = 0; i < rx_rt.ntl; i++)
        if (rx_rt.tls[i]->max_am_payload > m)
            m = rx_rt.tls[i]->max_am_payload;
    if (m > (256u << 10))
        m = 256u << 10; /* bounds the scratch buffers; larger transfers fragment */
    rx_scratch_len = m;
    rx_scratch_origin = malloc(m);
    rx_scratch_reply = malloc(m);
    if (!rx_scratch_origin || !rx_scratch_reply)
        return RX_ERR_NOMEM;
    if (rx_progress_hook_add_queue(rx_am_progress, &rx_outq_len) != 0)
        return RX_ERR_INTERN;
    rx_p2p_rma_hook = rx_rma_am_handler;
    return RX_OK;
}

rx_rma_amrec_t *rx_rma_am_rec(rx_req_t *req, void *stage, const rx_dtype_t *rdt, void *rbuf)
{
    rx_rma_amrec_t *r = malloc(sizeof *r);
    if (r)
        *r = (rx_rma_amrec_t){.refs = 1, .req = req, .stage = stage, .rdt = rdt, .rbuf = rbuf};
    return r;
}

void rx_rma_am_rec_done(rx_rma_amrec_t *rec, size_t bytes)
{
    rec->bytes = bytes;
    rx_am_answered(NULL, -1, rec, RX_OK);
}

static int rx_am_request(rx_win_t *w, int target, uint8_t type, uint8_t flags,
                         rx_rma_amrec_t *rec, const rx_rma_req_hdr_t *rh, const void *d1,
                         size_t l1, const void *d2, size_t l2)
{
    rx_win_tgt_t *t = &w->tgt[target];
    rx_am_hdr_t h = {.type = type, .flags = flags, .ctx = w->id, .src = w->rank,
                     .cookie = (uint64_t)(uintptr_t)rec};
    size_t n = 0;
    if (rh) {
        memcpy(rx_scratch_origin, rh, sizeof *rh);
        n = sizeof *rh;
    }
    if (l1)
        memcpy(rx_scratch_origin + n, d1, l1);
    if (l2)
        memcpy(rx_scratch_origin + n + l1, d2, l2);
    if (rec)
        rec->refs++;
    t->am_pending++;
    w->am_pending_total++;
    int rc = rx_am_send(t->world, &h, n + l1 + l2);
    if (rc != RX_OK) {
        t->am_pending--;
        w->am_pending_total--;
        if (rec)
            rec->refs--;
    }
    return rc;
}

int rx_rma_am_seg(rx_win_t *w, const rx_rma_op_t *op, rx_rma_amrec_t *rec, uint64_t off,
                  const void *in, size_t len, size_t nelem, void *out)
{
    int world = w->tgt[op->target].world;
    size_t room = rx_am_max(world) - sizeof(rx_rma_req_hdr_t) - 8;
    size_t elem = nelem ? len / nelem : 1, step = room / elem * elem;
    if (op->kind == RX_RMA_OP_CAS) {
        rx_rma_req_hdr_t rh = {.off = off, .len = len, .dest = (uint64_t)(uintptr_t)out,
                               .basic = op->tdt->basic, .nelem = 1};
        return rx_am_request(w, op->target, RX_AM_RMA_CAS, 0, rec, &rh, op->cbuf, len, in, len);
    }
    for (size_t pos = 0; pos < len; pos += step) {
        size_t n = len - pos < step ? len - pos : step;
        rx_rma_req_hdr_t rh = {.off = off + pos, .len = n,
                               .dest = out ? (uint64_t)(uintptr_t)((char *)out + pos) : 0,
                               .basic = op->tdt->basic, .nelem = n / elem};
        int rc;
        switch (op->kind) {
        case RX_RMA_OP_PUT:
            rc = rx_am_request(w, op->target, RX_AM_RMA_PUT, 0, rec, &rh, (const char *)in + pos,
                               n, NULL, 0);
            break;
        case RX_RMA_OP_GET:
            rc = rx_am_request(w, op->target, RX_AM_RMA_GET, 0, rec, &rh, NULL, 0, NULL, 0);
            break;
        default: {
            rh.op = op->op->predefined;
            int fetch = op->kind == RX_RMA_OP_GACC;
            rc = rx_am_request(w, op->target, RX_AM_RMA_ACC, fetch ? RX_RMA_F_FETCH : 0, rec,
                               &rh, in ? (const char *)in + pos : NULL, in ? n : 0, NULL, 0);
        }
        }
        if (rc != RX_OK)
            return rc;
    }
    return RX_OK;
}

int rx_rma_am_lock(rx_win_t *w, int target, int exclusive)
{
    int rc = rx_am_request(w, target, RX_AM_RMA_LOCK, exclusive ? RX_RMA_F_EXCL : 0, NULL, NULL,
                           NULL, 0, NULL, 0);
    if (rc != RX_OK)
        return rc;
    return rx_rma_am_flush(w, target);
}

int rx_rma_am_unlock(rx_win_t *w, int target, int exclusive)
{
    int rc = rx_am_request(w, target, RX_AM_RMA_UNLOCK, exclusive ? RX_RMA_F_EXCL : 0, NULL, NULL,
                           NULL, 0, NULL, 0);
    if (rc != RX_OK)
        return rc;
    return rx_rma_am_flush(w, target);
}

int rx_rma_am_flush(rx_win_t *w, int target)
{
    if (target < 0) {
        RX_WAIT_UNTIL(w->am_pending_total == 0);
        int err = RX_OK;
        for (int i = 0; i < w->size; i++)
            if (w->tgt[i].am_err) {
                err = w->tgt[i].am_err;
                w->tgt[i].am_err = 0;
            }
        return err;
    }
    rx_win_tgt_t *t = &w->tgt[target];
    RX_WAIT_UNTIL(t->am_pending == 0);
    int err = t->am_err;
    t->am_err = 0;
    return err;
}
