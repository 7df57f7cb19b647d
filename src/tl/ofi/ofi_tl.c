/* SPDX-License-Identifier: MIT
 * libfabric transport set-up: choose a provider, open one reliable-datagram
 * endpoint, exchange endpoint names through the bootstrap, fill the ops table.
 * Every rank of the job calls rx_tl_ofi_create (its bootstrap fence is
 * global), also a rank that fails to open its endpoint: it then publishes
 * "error" so that the others fail with a clear message instead of waiting. */
#define _GNU_SOURCE
#include "ofi.h"
#include "boot/boot.h"
#include "util/config.h"
#include "util/log.h"
#include "util/status.h"

#include <rdma/fi_cm.h>
#include <rdma/fi_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rx_ofi_err(const char *what, int ret)
{
    rx_log_error("ofi: %s failed: %s", what, fi_strerror(ret < 0 ? -ret : ret));
    return ret == -FI_ENOMEM ? RX_ERR_NOMEM : RX_ERR_IO;
}

/* Default eager limits (RDMX_OFI_EAGER_LIMIT=0): over tcp, up to 64 KiB
 * staged copies beat the rendezvous's extra round trips; with RDMA hardware
 * the zero-copy read pays off from 16 KiB. */
#define RX_OFI_EAGER_TCP 65536
#define RX_OFI_EAGER_RDMA 16384

/* Providers in order of preference: RDMA hardware first, tcp last. Over tcp
 * a provider with reliable-datagram endpoints of its own ("net" in libfabric
 * 1.17, renamed "tcp" later) comes before ofi_rxm layered on connected
 * endpoints: rxm's extra layer adds to every small message's latency
 * (docs/network.md has the measurement). */
static const char *const rx_ofi_pref[] = {
    "verbs;ofi_rxm", "psm3", "cxi", "efa", "psm2", "opx", "tcp", "net", "tcp;ofi_rxm",
};

int rx_ofi_prov_is_tcp(const char *prov)
{
    return !strncmp(prov, "tcp", 3) || !strncmp(prov, "net", 3) || !strncmp(prov, "sockets", 7);
}

static int rx_ofi_pref_rank(const char *prov)
{
    for (size_t i = 0; i < sizeof rx_ofi_pref / sizeof *rx_ofi_pref; i++)
        if (!strcmp(prov, rx_ofi_pref[i]))
            return (int)i;
    return -1;
}

/* Pick from fi_getinfo's list: the named provider (RDMX_OFI_PROVIDER) or the
 * preferred one; the named domain (RDMX_OFI_IFACE), else not loopback unless
 * the whole job is on one node (then loopback, to keep traffic inside); IPv4
 * before IPv6. */
static struct fi_info *rx_ofi_pick(struct fi_info *list, const char *want_prov,
                                   const char *want_dom, int one_node)
{
    struct fi_info *best = NULL;
    long best_score = 0;
    for (struct fi_info *fi = list; fi; fi = fi->next) {
        const char *prov = fi->fabric_attr->prov_name;
        const char *dom = fi->domain_attr->name ? fi->domain_attr->name : "";
        long score;
        if (*want_prov) {
            if (strcmp(prov, want_prov))
                continue;
            score = 0;
        } else {
            int r = rx_ofi_pref_rank(prov);
            if (r < 0)
                continue;
            score = (long)r * 16;
        }
        int lo = !strcmp(dom, "lo");
        if (*want_dom) {
            if (strcmp(dom, want_dom))
                continue;
        } else if (lo != one_node) {
            if (lo)
                continue;
            score += 4; /* one node without loopback: any interface will do */
        }
        if (fi->addr_format == FI_SOCKADDR_IN6)
            score += 1;
        if (!best || score < best_score) {
            best = fi;
            best_score = score;
        }
    }
    return best;
}

static void rx_ofi_list_offers(struct fi_info *list)
{
    char buf[1024];
    size_t n = 0;
    buf[0] = 0;
    for (struct fi_info *fi = list; fi && n < sizeof buf - 80; fi = fi->next)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s (%s)", n ? ", " : "",
                              fi->fabric_attr->prov_name,
                              fi->domain_attr->name ? fi->domain_attr->name : "?");
    rx_log_error("ofi: libfabric offers: %s", n ? buf : "nothing suitable");
}

static int rx_ofi_open(rx_ofi_t *o, const rx_tl_job_t *job)
{
    const rx_config_t *cf = rx_config();
    long long eager = cf->OFI_EAGER_LIMIT;
    if (eager < 0)
        eager = 0;
    if (eager > (1 << 20))
        eager = 1 << 20;
    /* ofi_rxm sends messages above its bounce-buffer size (16 KiB by
     * default) by a rendezvous of its own: extra round trips for every eager
     * message near the limit. Make its buffers hold our largest eager message
     * (unless the user chose a size); it reads the variable when the first
     * fi_getinfo loads the providers. */
    if (!getenv("FI_OFI_RXM_BUFFER_SIZE")) {
        char v[32];
        snprintf(v, sizeof v, "%llu",
                 (unsigned long long)((eager ? eager : RX_OFI_EAGER_TCP) + RX_OFI_MSG_HDR));
        setenv("FI_OFI_RXM_BUFFER_SIZE", v, 0);
    }
    /* Passive-target operations must complete while the target computes.
     * ofi_rxm (over tcp and verbs alike) moves RMA data and applies atomics
     * in software, only when the target's endpoint is progressed; its own
     * progress thread (FI_OFI_RXM_DATA_AUTO_PROGRESS) cannot wait on tcp's
     * completion queue in libfabric 1.17 and ends at once. So rdmx polls the
     * endpoint from a thread of its own once a window exposes memory, which
     * needs a thread-safe domain. */
    int thread = cf->OFI_RMA && strcmp(cf->OFI_PROGRESS, "manual") != 0;
    struct fi_info *list = NULL;
    int ret = -FI_ENODATA;
    /* with atomics first; a provider without them still serves the rest */
    for (int pass = cf->OFI_RMA ? 0 : 1; pass < 2 && ret; pass++) {
        struct fi_info *hints = fi_allocinfo();
        if (!hints)
            return RX_ERR_NOMEM;
        hints->ep_attr->type = FI_EP_RDM;
        hints->caps = FI_MSG | FI_RMA | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE |
                      (pass == 0 ? FI_ATOMIC : 0);
        hints->mode = FI_CONTEXT;
        hints->domain_attr->mr_mode =
            FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY;
        hints->domain_attr->threading = thread ? FI_THREAD_SAFE : FI_THREAD_DOMAIN;
        hints->domain_attr->av_type = FI_AV_TABLE;
        hints->domain_attr->resource_mgmt = FI_RM_ENABLED;
        hints->tx_attr->msg_order = FI_ORDER_SAS;
        hints->rx_attr->msg_order = FI_ORDER_SAS;
        ret = fi_getinfo(FI_VERSION(1, 10), NULL, NULL, 0, hints, &list);
        fi_freeinfo(hints);
        if (!ret && !rx_ofi_pick(list, cf->OFI_PROVIDER, cf->OFI_IFACE, job->nnodes == 1) &&
            pass == 0) {
            fi_freeinfo(list); /* the wanted provider lacks atomics: ask again */
            list = NULL;
            ret = -FI_ENODATA;
        }
    }
    if (ret) {
        rx_log_error("ofi: no libfabric provider offers reliable-datagram endpoints with RMA: %s",
                     fi_strerror(-ret));
        return RX_ERR_UNSUPPORTED;
    }
    struct fi_info *fi = rx_ofi_pick(list, cf->OFI_PROVIDER, cf->OFI_IFACE, job->nnodes == 1);
    if (!fi) {
        rx_log_error("ofi: no provider matches RDMX_OFI_PROVIDER=\"%s\" RDMX_OFI_IFACE=\"%s\"",
                     cf->OFI_PROVIDER, cf->OFI_IFACE);
        rx_ofi_list_offers(list);
        fi_freeinfo(list);
        return RX_ERR_UNSUPPORTED;
    }
    o->info = fi_dupinfo(fi);
    fi_freeinfo(list);
    if (!o->info)
        return RX_ERR_NOMEM;
    fi = o->info;
    /* net (and tcp from libfabric 1.18) report FI_PROGRESS_AUTO, but start
     * their progress thread only for blocking waits, which rdmx never uses:
     * their data moves when the endpoint is polled, as with rxm */
    o->progress_thread = thread && (fi->domain_attr->data_progress != FI_PROGRESS_AUTO ||
                                    rx_ofi_prov_is_tcp(fi->fabric_attr->prov_name) ||
                                    !strcmp(cf->OFI_PROGRESS, "thread"));
    o->delivery_complete = 1;
    o->mr_local = !!(fi->domain_attr->mr_mode & FI_MR_LOCAL);
    o->virt_addr = !!(fi->domain_attr->mr_mode & FI_MR_VIRT_ADDR);
    o->prov_key = !!(fi->domain_attr->mr_mode & FI_MR_PROV_KEY);
    o->next_key = 1;
    o->inject_size = fi->tx_attr->inject_size;
    o->max_msg = fi->ep_attr->max_msg_size ? fi->ep_attr->max_msg_size : (1u << 30);
    if (o->max_msg > (1ull << 30))
        o->max_msg = 1ull << 30;

    struct fi_av_attr av_attr = {.type = FI_AV_TABLE};
    struct fi_cq_attr cq_attr = {.format = FI_CQ_FORMAT_MSG, .wait_obj = FI_WAIT_NONE};
    if ((ret = fi_fabric(fi->fabric_attr, &o->fabric, NULL)))
        return rx_ofi_err("fi_fabric", ret);
    if ((ret = fi_domain(o->fabric, fi, &o->domain, NULL)))
        return rx_ofi_err("fi_domain", ret);
    if ((ret = fi_av_open(o->domain, &av_attr, &o->av, NULL)))
        return rx_ofi_err("fi_av_open", ret);
    if ((ret = fi_cq_open(o->domain, &cq_attr, &o->cq, NULL)))
        return rx_ofi_err("fi_cq_open", ret);
    if ((ret = fi_endpoint(o->domain, fi, &o->ep, NULL)))
        return rx_ofi_err("fi_endpoint", ret);
    if ((ret = fi_ep_bind(o->ep, &o->av->fid, 0)))
        return rx_ofi_err("fi_ep_bind(av)", ret);
    if ((ret = fi_ep_bind(o->ep, &o->cq->fid, FI_TRANSMIT | FI_RECV)))
        return rx_ofi_err("fi_ep_bind(cq)", ret);
    if (o->progress_thread) { /* reading a counter progresses its endpoint */
        struct fi_cntr_attr ca = {.events = FI_CNTR_EVENTS_COMP, .wait_obj = FI_WAIT_NONE};
        if ((ret = fi_cntr_open(o->domain, &ca, &o->pcntr, NULL)))
            return rx_ofi_err("fi_cntr_open", ret);
        if ((ret = fi_ep_bind(o->ep, &o->pcntr->fid, FI_SEND)))
            return rx_ofi_err("fi_ep_bind(cntr)", ret);
    }
    if ((ret = fi_enable(o->ep)))
        return rx_ofi_err("fi_enable", ret);

    if (eager == 0) /* by provider: a copy is cheap next to a tcp round trip */
        eager = rx_ofi_prov_is_tcp(fi->fabric_attr->prov_name) ? RX_OFI_EAGER_TCP : RX_OFI_EAGER_RDMA;
    o->tl.eager_limit = (size_t)eager;
    /* room for the rendezvous announcement even with eager sends off */
    o->tl.max_am_payload = o->tl.eager_limit < 256 ? 256 : o->tl.eager_limit;
    o->buf_size = RX_OFI_MSG_HDR + o->tl.max_am_payload;
    long long cap = cf->OFI_MR_CACHE;
    o->mr_cap = cap < 0 ? 0 : cap > (1 << 20) ? (1 << 20) : (int)cap;
    if (o->mr_cap > 0 && (fi->domain_attr->mr_mode & (FI_MR_LOCAL | FI_MR_ALLOCATED)))
        rx_ofi_mr_hold_heap();
    return rx_ofi_am_init(o);
}

static int rx_ofi_hex_decode(const char *s, unsigned char *out, size_t cap, size_t *len)
{
    size_t n = strlen(s);
    if (n % 2 || n / 2 > cap)
        return RX_ERR_INVAL;
    for (size_t i = 0; i < n / 2; i++) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1)
            return RX_ERR_INVAL;
        out[i] = (unsigned char)v;
    }
    *len = n / 2;
    return RX_OK;
}

/* Publish our name, fence, insert every reached peer's name. */
static int rx_ofi_exchange(rx_ofi_t *o, int local_rc)
{
    char key[64], val[1024];
    unsigned char name[480];
    size_t len = sizeof name;
    int rc = local_rc;
    snprintf(key, sizeof key, "rdmx.ofi.%d", o->rank);
    if (rc == RX_OK) {
        int ret = fi_getname(&o->ep->fid, name, &len);
        if (ret)
            rc = rx_ofi_err("fi_getname", ret);
    }
    int prc = rc == RX_OK ? rx_boot_put_bin(key, name, len) : rx_boot_put(key, "error");
    int frc = rx_boot_fence();
    if (rc != RX_OK)
        return rc;
    if (prc != RX_OK)
        return prc;
    if (frc != RX_OK)
        return frc;
    for (int r = 0; r < o->size; r++) {
        if (!o->reach[r])
            continue;
        snprintf(key, sizeof key, "rdmx.ofi.%d", r);
        if ((rc = rx_boot_get(key, val, sizeof val)) != RX_OK) {
            rx_log_error("ofi: no endpoint name from rank %d", r);
            return rc;
        }
        if (!strcmp(val, "error")) {
            rx_log_error("ofi: rank %d could not open its network endpoint (see its message)", r);
            return RX_ERR_PEER;
        }
        if (rx_ofi_hex_decode(val, name, sizeof name, &len) != RX_OK) {
            rx_log_error("ofi: bad endpoint name from rank %d", r);
            return RX_ERR_PEER;
        }
        int ret = fi_av_insert(o->av, name, 1, &o->addr[r], 0, NULL);
        if (ret != 1) {
            rx_log_error("ofi: cannot add rank %d's address: %s", r,
                         fi_strerror(ret < 0 ? -ret : FI_EINVAL));
            return RX_ERR_IO;
        }
    }
    return RX_OK;
}

static int rx_ofi_mem_reg(rx_tl_t *tl, void *addr, size_t len, rx_rkey_t *rkey)
{
    rx_ofi_t *o = (rx_ofi_t *)tl;
    rx_ofi_mr_t *m;
    int rc = rx_ofi_mr_get(o, addr, len, &m);
    if (rc != RX_OK)
        return rc;
    rkey->addr = o->virt_addr ? (uint64_t)(uintptr_t)addr : (uint64_t)((uintptr_t)addr - m->base);
    rkey->key = m->key;
    return RX_OK;
}

static void rx_ofi_mem_release(rx_tl_t *tl, void *addr, size_t len)
{
    rx_ofi_mr_release_range((rx_ofi_t *)tl, addr, len);
}

static void rx_ofi_print_stats(rx_ofi_t *o)
{
    const rx_ofi_stats_t *s = &o->st;
    fprintf(stderr,
            "rdmx[%d] ofi stats: provider %s domain %s; copied %llu bytes; rendezvous read "
            "%llu bytes in %llu reads; %llu messages sent, %llu received early; registration "
            "cache %llu hits, %llu misses, %llu invalidated, %llu evicted\n",
            o->rank, o->info->fabric_attr->prov_name,
            o->info->domain_attr->name ? o->info->domain_attr->name : "?",
            (unsigned long long)s->copied, (unsigned long long)s->rndv_read,
            (unsigned long long)s->rndv_reads, (unsigned long long)s->eager_sent,
            (unsigned long long)s->reordered,
            (unsigned long long)s->mr_hits, (unsigned long long)s->mr_misses,
            (unsigned long long)s->mr_invalidated, (unsigned long long)s->mr_evicted);
}

static void rx_ofi_close(rx_ofi_t *o)
{
    /* sends already handed to the provider still go out: the peer may wait */
    for (long spins = 0; o->ep && (o->sends_out > 0 || o->rma_out > 0) && spins < 10000000;
         spins++)
        rx_ofi_progress(&o->tl);
    rx_ofi_rma_fini(o); /* stops the progress thread before the endpoint goes */
    if (o->ep)
        fi_close(&o->ep->fid);
    if (o->pcntr)
        fi_close(&o->pcntr->fid);
    rx_ofi_am_fini(o);
    rx_ofi_mr_fini(o);
    if (o->cq)
        fi_close(&o->cq->fid);
    if (o->av)
        fi_close(&o->av->fid);
    if (o->domain)
        fi_close(&o->domain->fid);
    if (o->fabric)
        fi_close(&o->fabric->fid);
    if (o->info)
        fi_freeinfo(o->info);
    free(o->addr);
    free(o->reach);
    free(o);
}

static void rx_ofi_fini(rx_tl_t *tl)
{
    rx_ofi_t *o = (rx_ofi_t *)tl;
    if (rx_config()->OFI_STATS)
        rx_ofi_print_stats(o);
    rx_ofi_close(o);
}

/* Only the (op, type) pairs rx_ofi_atomic_query found and this transport
 * advertises reach the provider. */
static int rx_ofi_atomic_checked(rx_tl_t *tl, int world_peer, int op, int type, size_t count,
                                 const void *operand, const void *compare, void *fetched,
                                 const rx_rkey_t *rkey, uint64_t offset)
{
    if (!(tl->caps & RX_TL_CAP_ATOMIC) || op < 0 || op >= RX_TL_AMO_NOPS || type < 0 ||
        type >= RX_TL_AMT_NTYPES || !(tl->amo_types[op] & (1u << type)))
        return RX_ERR_UNSUPPORTED;
    if (!fetched && (op == RX_TL_AMO_READ || op == RX_TL_AMO_CSWAP))
        return RX_ERR_INVAL; /* the provider would take it and fail at the target */
    return rx_ofi_atomic(tl, world_peer, op, type, count, operand, compare, fetched, rkey,
                         offset);
}

static void rx_ofi_sleep(rx_tl_t *tl, int timeout_us)
{
    (void)tl, (void)timeout_us; /* no doorbell: waits sleep in short slices (no RX_TL_CAP_WAKE) */
}

/* rma_expose starts the progress thread only where rx_ofi_open prepared it */
static const rx_tl_ops_t rx_ofi_ops = {
    .am_send = rx_ofi_am_send,
    .progress = rx_ofi_progress,
    .sleep = rx_ofi_sleep,
    .mem_reg = rx_ofi_mem_reg,
    .mem_release = rx_ofi_mem_release,
    .get = rx_ofi_get,
    .put = rx_ofi_put,
    .get_nb = rx_ofi_get_nb,
    .put_nb = rx_ofi_put_nb,
    .getv = rx_tl_getv_unsupported,
    .atomic = rx_ofi_atomic_checked,
    .flush = rx_ofi_flush,
    .rma_expose = rx_ofi_rma_expose,
    .fini = rx_ofi_fini,
};

int rx_tl_ofi_create(const rx_tl_job_t *job, rx_tl_t **out)
{
    rx_ofi_t *o = calloc(1, sizeof *o);
    if (!o) {
        char key[64];
        snprintf(key, sizeof key, "rdmx.ofi.%d", job->rank);
        rx_boot_put(key, "error");
        rx_boot_fence(); /* the others fence too */
        return RX_ERR_NOMEM;
    }
    o->rank = job->rank;
    o->size = job->size;
    o->handler = job->am_handler;
    o->handler_arg = job->am_arg;
    o->addr = calloc((size_t)job->size, sizeof *o->addr);
    o->reach = calloc((size_t)job->peers_max, 1);
    o->peer_out = calloc((size_t)job->size, sizeof *o->peer_out);
    o->peer_err = calloc((size_t)job->size, sizeof *o->peer_err);
    int all = !strcmp(rx_config()->OFI, "all");
    int rc = o->addr && o->reach && o->peer_out && o->peer_err ? RX_OK : RX_ERR_NOMEM;
    for (int r = 0; rc == RX_OK && r < job->size; r++)
        o->reach[r] = r != job->rank && (all || job->node_of[r] != job->node_of[job->rank]);
    if (rc == RX_OK)
        rc = rx_ofi_open(o, job);
    rc = rx_ofi_exchange(o, rc);
    if (rc != RX_OK) {
        rx_ofi_close(o);
        return rc;
    }
    rx_tl_t *tl = &o->tl;
    tl->ops = &rx_ofi_ops;
    tl->name = "ofi";
    tl->caps = RX_TL_CAP_GET | RX_TL_CAP_PUT;
    tl->reaches = o->reach;
    tl->priv = o;
    int amo = 0;
    if (rx_config()->OFI_RMA) {
        tl->caps |= RX_TL_CAP_NET_RMA;
        /* only atomics the target applies with CPU instructions (software
         * providers) mix safely with the node's own atomic instructions */
        if ((o->info->caps & FI_ATOMIC) && rx_ofi_prov_is_tcp(o->info->fabric_attr->prov_name) &&
            rx_ofi_atomic_query(o)) {
            tl->caps |= RX_TL_CAP_ATOMIC;
            amo = 1;
        } else {
            memset(tl->amo_types, 0, sizeof tl->amo_types);
        }
    }
    rx_log_info("ofi: provider %s, domain %s, eager limit %zu, registration cache %d, "
                "one-sided %s, atomics %s, progress %s",
                o->info->fabric_attr->prov_name, o->info->domain_attr->name,
                tl->eager_limit, o->mr_cap, rx_config()->OFI_RMA ? "native" : "by messages",
                amo ? "native" : "by messages",
                o->progress_thread ? "thread once a window exists" : "by calls");
    *out = tl;
    return RX_OK;
}
