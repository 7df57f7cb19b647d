/* SPDX-License-Identifier: MIT
 * Loopback transport: messages a process sends to itself. Delivery is
 * deferred to progress() so handlers never run inside the sender's call. */
#include "tl/tl.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

typedef struct rx_self_msg {
    struct rx_self_msg *next;
    rx_am_hdr_t hdr;
    size_t len;
    unsigned char payload[];
} rx_self_msg_t;

typedef struct rx_self {
    rx_tl_t tl;
    int rank;
    rx_am_handler_t handler;
    void *arg;
    rx_self_msg_t *head, *tail;
    unsigned char *reach;
} rx_self_t;

static int rx_self_am_send(rx_tl_t *tl, int world_peer, const rx_am_hdr_t *hdr,
                           const void *payload, size_t len)
{
    (void)world_peer;
    rx_self_t *s = (rx_self_t *)tl;
    if (len > tl->max_am_payload)
        return RX_ERR_INVAL;
    rx_self_msg_t *m = malloc(sizeof *m + len);
    if (!m)
        return RX_ERR_NOMEM;
    m->next = NULL;
    m->hdr = *hdr;
    m->len = len;
    if (len)
        memcpy(m->payload, payload, len);
    if (s->tail)
        s->tail->next = m;
    else
        s->head = m;
    s->tail = m;
    return RX_OK;
}

static int rx_self_progress(rx_tl_t *tl)
{
    rx_self_t *s = (rx_self_t *)tl;
    int n = 0;
    /* deliver only what is queued now: handlers may queue replies */
    rx_self_msg_t *m = s->head, *last = s->tail;
    if (!m)
        return 0;
    s->head = s->tail = NULL;
    while (m) {
        rx_self_msg_t *next = m->next;
        s->handler(s->arg, s->rank, &m->hdr, m->payload, m->len);
        free(m);
        n++;
        if (m == last)
            break;
        m = next;
    }
    return n;
}

static int rx_self_get(rx_tl_t *tl, int world_peer, void *local, size_t len,
                       const rx_rkey_t *rkey, uint64_t offset)
{
    (void)tl;
    (void)world_peer;
    memcpy(local, (const char *)(uintptr_t)rkey->addr + offset, len);
    return RX_OK;
}

/* Walk both lists in step: one memcpy per overlap of a local and a remote piece. */
static int rx_self_getv(rx_tl_t *tl, int world_peer, const struct iovec *local, size_t nlocal,
                        const struct iovec *remote, size_t nremote, const rx_rkey_t *rkey)
{
    (void)tl;
    (void)world_peer;
    (void)rkey;
    size_t li = 0, ri = 0, lo = 0, ro = 0;
    while (li < nlocal && ri < nremote) {
        size_t n = local[li].iov_len - lo;
        if (n > remote[ri].iov_len - ro)
            n = remote[ri].iov_len - ro;
        memcpy((char *)local[li].iov_base + lo, (const char *)remote[ri].iov_base + ro, n);
        lo += n;
        ro += n;
        if (lo == local[li].iov_len) {
            li++;
            lo = 0;
        }
        if (ro == remote[ri].iov_len) {
            ri++;
            ro = 0;
        }
    }
    return RX_OK;
}

static int rx_self_put(rx_tl_t *tl, int world_peer, const void *local, size_t len,
                       const rx_rkey_t *rkey, uint64_t offset)
{
    (void)tl;
    (void)world_peer;
    memcpy((char *)(uintptr_t)rkey->addr + offset, local, len);
    return RX_OK;
}

static void rx_self_fini(rx_tl_t *tl)
{
    rx_self_t *s = (rx_self_t *)tl;
    while (s->head) {
        rx_self_msg_t *n = s->head->next;
        free(s->head);
        s->head = n;
    }
    free(s->reach);
    free(s);
}

/* Everything completes inside the call: no flush, no nonblocking forms;
 * atomics on its own memory go by the layer above's direct path. */
static const rx_tl_ops_t rx_self_ops = {
    .am_send = rx_self_am_send,
    .progress = rx_self_progress,
    .sleep = rx_tl_sleep_none,
    .mem_reg = rx_tl_mem_reg_pid,
    .mem_release = rx_tl_mem_release_none,
    .get = rx_self_get,
    .put = rx_self_put,
    .get_nb = rx_tl_get_nb_unsupported,
    .put_nb = rx_tl_put_nb_unsupported,
    .getv = rx_self_getv,
    .atomic = rx_tl_atomic_unsupported,
    .flush = rx_tl_flush_complete,
    .rma_expose = rx_tl_rma_expose_none,
    .fini = rx_self_fini,
};

int rx_tl_self_create(const rx_tl_job_t *job, rx_tl_t **out)
{
    rx_self_t *s = calloc(1, sizeof *s);
    if (!s || !(s->reach = calloc((size_t)job->peers_max, 1))) {
        free(s);
        return RX_ERR_NOMEM;
    }
    s->rank = job->rank;
    s->reach[job->rank] = 1;
    s->handler = job->am_handler;
    s->arg = job->am_arg;
    rx_tl_t *tl = &s->tl;
    tl->ops = &rx_self_ops;
    tl->name = "self";
    tl->caps = RX_TL_CAP_GET | RX_TL_CAP_PUT | RX_TL_CAP_GETV | RX_TL_CAP_ANY_MEMORY;
    tl->max_am_payload = (size_t)1 << 30;
    tl->eager_limit = 65536;
    tl->reaches = s->reach;
    tl->priv = s;
    *out = tl;
    return RX_OK;
}
