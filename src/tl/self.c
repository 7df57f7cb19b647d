/* SPDX-License-Identifier: MIT
 * Loopback transport: messages a process sends to itself. Delivery is
 * deferred to progress() so handlers never run inside the sender's call. */
#include "tl/tl.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static int rx_self_mem_reg(rx_tl_t *tl, void *addr, size_t len, rx_rkey_t *rkey)
{
    (void)tl;
    (void)len;
    rkey->addr = (uint64_t)(uintptr_t)addr;
    rkey->key = (uint64_t)getpid();
    return RX_OK;
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

static void rx_self_sleep(rx_tl_t *tl, int timeout_us)
{
    (void)tl;
    (void)timeout_us;
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

int rx_tl_self_create(const rx_tl_job_t *job, rx_tl_t **out)
{
    rx_self_t *s = calloc(1, sizeof *s);
    if (!s || !(s->reach = calloc((size_t)job->size, 1))) {
        free(s);
        return RX_ERR_NOMEM;
    }
    s->rank = job->rank;
    s->reach[job->rank] = 1;
    s->handler = job->am_handler;
    s->arg = job->am_arg;
    rx_tl_t *tl = &s->tl;
    tl->name = "self";
    tl->caps = RX_TL_CAP_GET | RX_TL_CAP_PUT;
    tl->max_am_payload = (size_t)1 << 30;
    tl->eager_limit = 65536;
    tl->reaches = s->reach;
    tl->priv = s;
    tl->am_send = rx_self_am_send;
    tl->progress = rx_self_progress;
    tl->sleep = rx_self_sleep;
    tl->mem_reg = rx_self_mem_reg;
    tl->get = rx_self_get;
    tl->put = rx_self_put;
    tl->getv = rx_self_getv;
    tl->fini = rx_self_fini;
    *out = tl;
    return RX_OK;
}
