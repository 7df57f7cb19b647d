/* SPDX-License-Identifier: MIT
 * Window creation and release. Collective over the window's private
 * communicator: every member describes its memory, the node's first member
 * creates the node-shared metadata (lock words), and each rank maps what it
 * can of its node's window memory. Whether memory counts as mapped is agreed
 * by every member, since it decides how accumulates are made atomic. When
 * members sit on several nodes, each also registers its window memory and its
 * control block (lock word) with the network transport and the keys are
 * gathered, so that origins elsewhere reach it without the target's CPU. */
#include "rma.h"
#include "coll/coll.h"
#include "op/op.h"
#include "core/rt.h"
#include "util/log.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct rx_win_desc {
    uint64_t addr;       /* window start in the owner's address space */
    uint64_t bytes;
    uint64_t map_len;    /* bytes to map from the start of the memory file */
    uint64_t map_off;    /* where the window starts in that file */
    int32_t disp_unit;
    int32_t pid;
    int32_t fd;          /* memory file, or -1 (user memory: cross-memory attach) */
    int32_t pad;
    char meta[RX_REGION_NAME_MAX]; /* node leader: name of the metadata region */
} rx_win_desc_t;

/* Index of comm rank r among the members on its node (comm rank order). */
static int rx_win_node_index(rx_comm_t *c, int r, int *leader)
{
    int node = rx_rt.node_of[c->world[r]], idx = 0;
    *leader = -1;
    for (int i = 0; i < c->size; i++) {
        if (rx_rt.node_of[c->world[i]] != node)
            continue;
        if (*leader < 0)
            *leader = i;
        if (i == r)
            return idx;
        idx++;
    }
    return idx;
}

static int rx_win_all_ok(rx_comm_t *c, int *flags, int n)
{
    return rx_coll_allreduce(flags, flags, (size_t)n,
                             rx_dtype_get(RX_HANDLE(RX_KIND_DATATYPE, RX_ID_MPI_INT)),
                             rx_opobj_get(RX_HANDLE(RX_KIND_OP, RX_OP_LAND)), c);
}

static int rx_win_node_members(rx_comm_t *c, int r)
{
    int n = 0;
    for (int i = 0; i < c->size; i++)
        n += rx_rt.node_of[c->world[i]] == rx_rt.node_of[c->world[r]];
    return n;
}

static void rx_win_net_release(rx_win_t *w)
{
    rx_tl_t *net = w->net_tl;
    if (!net)
        return;
    if (w->reg_mem)
        net->ops->mem_release(net, w->reg_mem, w->reg_len);
    if (w->myctl_reg)
        net->ops->mem_release(net, w->myctl_reg, sizeof(rx_win_ctl_t));
    w->reg_mem = NULL;
    w->myctl_reg = NULL;
    w->net_tl = NULL;
}

/* Members on several nodes: register this rank's memory and control block
 * with the network transport and gather everyone's keys (w->net_keys). Every
 * member must succeed, or the window reaches other nodes by messages. */
static int rx_win_net_setup(rx_win_t *w, rx_comm_t *comm, int flavor, void *base, size_t bytes,
                            int leader)
{
    rx_tl_t *net = rx_rma_net_tl();
    int spans = rx_win_node_members(comm, comm->rank) < comm->size;
    if (!spans || !net || rx_rma_emulate() || flavor == RX_WIN_FLAVOR_DYNAMIC ||
        flavor == RX_WIN_FLAVOR_SHARED)
        return RX_OK;
    int idx = rx_win_node_index(comm, comm->rank, &leader);
    rx_win_ctl_t *ctl = (rx_win_ctl_t *)w->meta + idx;
    rx_win_netkey_t mine = {.ok = 1};
    w->net_tl = net;
    if (bytes && base) {
        if (net->ops->mem_reg(net, base, bytes, &mine.mem) == RX_OK) {
            w->reg_mem = base;
            w->reg_len = bytes;
        } else {
            mine.ok = 0;
        }
    }
    if (mine.ok) {
        if (net->ops->mem_reg(net, ctl, sizeof *ctl, &mine.ctl) == RX_OK)
            w->myctl_reg = ctl;
        else
            mine.ok = 0;
    }
    net->ops->rma_expose(net);
    w->net_keys = calloc((size_t)comm->size, sizeof *w->net_keys);
    if (!w->net_keys)
        return RX_ERR_NOMEM;
    int rc = rx_coll_allgather(&mine, sizeof mine, w->net_keys, comm);
    if (rc != RX_OK)
        return rc;
    /* Connect to every member on another node now, while all take part, so
     * that the first passive-target operation does not wait for ofi_rxm to
     * set up a connection with a target busy outside MPI: a read of each
     * control block makes the connections. */
    for (int k = 1; k < comm->size && rc == RX_OK; k++) {
        int i = (comm->rank + k) % comm->size;
        uint64_t v;
        if (rx_rt.node_of[comm->world[i]] != rx_rt.node_of[rx_rt.rank] && w->net_keys[i].ok)
            rc = net->ops->get(net, comm->world[i], &v, sizeof v, &w->net_keys[i].ctl, 0);
    }
    if (rc != RX_OK)
        return rc;
    for (int i = 0; i < comm->size; i++)
        if (!w->net_keys[i].ok) {
            rx_log_warn("rma: rank %d could not register its window memory with the network; "
                        "this window reaches other nodes by messages", i);
            rx_win_net_release(w);
            free(w->net_keys);
            w->net_keys = NULL;
            return RX_OK;
        }
    return RX_OK;
}

int rx_win_setup(rx_win_t *w, rx_comm_t *comm, int flavor, void *base, size_t bytes,
                 int disp_unit, void **base_out)
{
    int rc = RX_OK, leader, me = comm->rank, n = comm->size;
    int nlocal = 0;
    rx_win_node_index(comm, me, &leader);
    for (int i = 0; i < n; i++)
        nlocal += rx_rt.node_of[comm->world[i]] == rx_rt.node_of[rx_rt.rank];
    w->comm = comm;
    w->id = comm->ctx;
    w->flavor = flavor;
    w->rank = me;
    w->size = n;
    w->bytes = bytes;
    w->disp_unit = disp_unit;
    w->own_fd = -1;
    w->model = RX_WIN_UNIFIED;
    rx_win_desc_t *d = calloc((size_t)n, sizeof *d);
    w->tgt = calloc((size_t)n, sizeof *w->tgt);
    w->maps = calloc((size_t)n, sizeof *w->maps);
    w->map_lens = calloc((size_t)n, sizeof *w->map_lens);
    if (!d || !w->tgt || !w->maps || !w->map_lens) {
        free(d);
        return RX_ERR_NOMEM;
    }
    rx_win_desc_t *my = &d[me];
    my->fd = -1;
    my->disp_unit = disp_unit;
    my->bytes = bytes;
    my->pid = getpid();

    /* this rank's memory */
    if (flavor == RX_WIN_FLAVOR_ALLOCATE) {
        rc = rx_region_fd_alloc(bytes, &w->own_fd, &w->own_mem);
        if (rc == RX_OK) {
            w->own_len = bytes;
            base = w->own_mem;
            my->fd = w->own_fd;
            my->map_len = bytes;
        }
    } else if (flavor == RX_WIN_FLAVOR_CREATE && bytes) {
        int fd;
        uint64_t off;
        if (rx_rma_mem_lookup(base, bytes, &fd, &off) == RX_OK) {
            my->fd = fd;
            my->map_off = off;
            my->map_len = off + bytes;
        }
    }
    /* the node's metadata region */
    size_t meta_len = (size_t)nlocal * sizeof(rx_win_ctl_t);
    if (rc == RX_OK && me == leader) {
        rc = rx_region_create(rx_rt.jobid, meta_len, my->meta, sizeof my->meta, &w->meta);
        if (rc == RX_OK)
            memset(w->meta, 0, meta_len);
    }
    w->meta_len = meta_len;
    int ok[2] = {rc == RX_OK, 1};
    int arc = rx_win_all_ok(comm, ok, 1);
    if (arc != RX_OK || !ok[0]) {
        rc = arc != RX_OK ? arc : rc != RX_OK ? rc : RX_ERR_PEER;
        goto fail;
    }
    my->addr = (uint64_t)(uintptr_t)base;
    w->base = base;
    if ((rc = rx_coll_allgather(my, sizeof *my, d, comm)) != RX_OK)
        goto fail;

    /* Win_allocate_shared: one region for the node, segments in rank order */
    if (flavor == RX_WIN_FLAVOR_SHARED) {
        size_t total = 0;
        for (int i = 0; i < n; i++)
            total += (d[i].bytes + 63) & ~(size_t)63;
        if ((rc = rx_coll_shared_region(comm, total, &w->shared_region)) != RX_OK)
            goto fail;
        w->shared_len = total;
        size_t off = 0;
        for (int i = 0; i < n; i++) {
            w->tgt[i].base = (char *)w->shared_region + off;
            off += (d[i].bytes + 63) & ~(size_t)63;
        }
        w->base = w->tgt[me].base;
    }

    /* map the node's metadata and the memory files of local peers */
    ok[0] = 1;
    ok[1] = !rx_rma_emulate() && rx_rt.local_size > 1; /* mapped fast path wanted at all */
    if (me != leader)
        ok[0] = rx_region_attach(d[leader].meta, meta_len, &w->meta) == RX_OK;
    for (int i = 0; i < n && ok[1] && flavor != RX_WIN_FLAVOR_SHARED; i++) {
        if (i == me || d[i].fd < 0 || rx_rt.node_of[comm->world[i]] != rx_rt.node_of[rx_rt.rank])
            continue;
        if (rx_region_fd_map(d[i].pid, d[i].fd, d[i].map_len, &w->maps[i]) != RX_OK) {
            ok[1] = 0;
            break;
        }
        w->map_lens[i] = d[i].map_len;
    }
    if ((rc = rx_win_all_ok(comm, ok, 2)) != RX_OK)
        goto fail;
    if (me == leader)
        rx_region_unlink(d[leader].meta);
    if (!ok[0]) {
        rx_log_error("rma: a rank could not map the window metadata");
        rc = RX_ERR_IO;
        goto fail;
    }
    int mapped = ok[1];
    if ((rc = rx_win_net_setup(w, comm, flavor, base, bytes, leader)) != RX_OK)
        goto fail;
    /* every peer has opened our file: a Win_allocate file needs no descriptor now */
    if (w->own_fd >= 0) {
        close(w->own_fd);
        w->own_fd = -1;
    }

    for (int i = 0; i < n; i++) {
        rx_win_tgt_t *t = &w->tgt[i];
        int lr, idx = rx_win_node_index(comm, i, &lr);
        int local = rx_rt.node_of[comm->world[i]] == rx_rt.node_of[rx_rt.rank];
        t->world = comm->world[i];
        t->size = d[i].bytes;
        t->disp_unit = d[i].disp_unit;
        t->ctl = local ? (rx_win_ctl_t *)w->meta + idx : NULL;
        t->lockacc = !(flavor == RX_WIN_FLAVOR_SHARED || (d[i].fd >= 0 && mapped));
        /* alone on its node, nobody reaches its memory by cross-memory attach:
         * atomic instructions suffice, and they agree with network atomics */
        if (rx_win_node_members(comm, i) == 1)
            t->lockacc = 0;
        t->acclock = t->lockacc || (nlocal == n && !w->acc_atomics);
        t->lock_local = nlocal == n;
        t->rkey.addr = d[i].addr;
        t->rkey.key = (uint64_t)d[i].pid;
        /* node peers by single-copy get / put of memory named by its pid
         * (no registration to exchange): not the network, even when
         * RDMX_OFI=all puts it first */
        t->tl = local ? rx_tl_reaching(rx_rt.tls, rx_rt.ntl, t->world,
                                       RX_TL_CAP_GET | RX_TL_CAP_PUT | RX_TL_CAP_ANY_MEMORY, 0)
                      : NULL;
        if (rx_rma_emulate()) {
            t->kind = RX_RMA_AM;
        } else if (flavor == RX_WIN_FLAVOR_SHARED) {
            t->kind = RX_RMA_DIRECT;
        } else if (i == me) {
            t->kind = RX_RMA_DIRECT;
            t->base = flavor == RX_WIN_FLAVOR_DYNAMIC ? NULL : base;
        } else if (local && w->maps[i]) {
            t->kind = RX_RMA_DIRECT;
            t->base = (char *)w->maps[i] + d[i].map_off;
        } else if (local && t->tl) {
            t->kind = RX_RMA_TL;
            if (flavor == RX_WIN_FLAVOR_DYNAMIC)
                t->rkey.addr = 0; /* displacements are addresses */
        } else if (!local && w->net_keys) {
            rx_tl_t *net = w->net_tl;
            t->kind = RX_RMA_TL;
            t->tl = net;
            t->net = 1;
            t->rkey = w->net_keys[i].mem;
            t->ctl_rkey = w->net_keys[i].ctl;
            /* network atomics only on memory whose other accesses are atomic
             * instructions too (cross-memory attach cannot be atomic) */
            int amo = !!(net->caps & RX_TL_CAP_ATOMIC);
            t->netamo = !t->lockacc && amo;
            t->netlock = amo && (net->amo_types[RX_TL_AMO_SUM] & (1u << RX_TL_AMT_U64));
            t->netacclock = amo && (net->amo_types[RX_TL_AMO_SUM] & (1u << RX_TL_AMT_U32));
        } else {
            t->kind = RX_RMA_AM;
        }
    }
    w->myctl = w->tgt[me].ctl;
    if (base_out)
        *base_out = w->base;
    free(d);
    free(w->net_keys);
    w->net_keys = NULL;
    rx_rma_win_register(w);
    rx_log_info("rma: window %u flavor %d: %zu bytes, %s%s", w->id, flavor, bytes,
                rx_rma_emulate() ? "every target by active messages"
                : w->tgt[me].lockacc ? "user memory: peers use cross-memory attach"
                                     : "memory mapped by the node's ranks",
                w->net_tl ? "; other nodes by the network's RMA" : "");
    /* no member may send active messages before every member registered */
    return rx_coll_barrier(comm);
fail:
    free(d);
    rx_win_teardown(w);
    return rc;
}

void rx_win_teardown(rx_win_t *w)
{
    rx_rma_win_unregister(w);
    rx_win_net_release(w);
    free(w->net_keys);
    w->net_keys = NULL;
    for (int i = 0; w->maps && i < w->size; i++)
        if (w->maps[i])
            rx_region_detach(w->maps[i], w->map_lens[i]);
    if (w->meta)
        rx_region_detach(w->meta, w->meta_len);
    if (w->shared_region)
        rx_region_detach(w->shared_region, w->shared_len);
    if (w->own_mem || w->own_fd >= 0)
        rx_region_fd_free(w->own_fd, w->own_mem, w->own_len);
    free(w->maps);
    free(w->map_lens);
    free(w->tgt);
    free(w->dyn_more);
    free(w->start_ranks);
    free(w->post_ranks);
    w->maps = NULL;
    w->map_lens = NULL;
    w->tgt = NULL;
    w->meta = w->shared_region = w->own_mem = NULL;
    w->own_fd = -1;
    w->start_ranks = w->post_ranks = NULL;
}

int rx_win_shared_query(rx_win_t *w, int r, size_t *size, int *disp_unit, void **base)
{
    if (r < 0) { /* MPI_PROC_NULL: the first segment of non-zero size */
        for (r = 0; r < w->size && !w->tgt[r].size; r++)
            ;
        if (r == w->size) {
            *size = 0;
            *disp_unit = w->disp_unit;
            *base = NULL;
            return RX_OK;
        }
    }
    rx_win_tgt_t *t = &w->tgt[r];
    if (t->kind != RX_RMA_DIRECT && w->flavor != RX_WIN_FLAVOR_SHARED)
        return RX_ERR_UNSUPPORTED;
    *size = t->size;
    *disp_unit = t->disp_unit;
    *base = t->base;
    return RX_OK;
}

uint64_t rx_win_dyn_reach(const rx_win_dyn_t *r, uint32_t n, uint64_t pos)
{
    for (int grew = 1; grew;) { /* each pass moves pos past a region holding it */
        grew = 0;
        for (uint32_t i = 0; i < n; i++)
            if (pos >= r[i].addr && pos < r[i].addr + r[i].len) {
                pos = r[i].addr + r[i].len;
                grew = 1;
            }
    }
    return pos;
}

/* Dynamic windows: the attach list lives in this rank's metadata under a
 * sequence lock, so local origins check ranges without asking us; past
 * RX_WIN_DYN_MAX regions they go to a private list (rma.h). */
int rx_win_attach(rx_win_t *w, void *addr, size_t len)
{
    rx_win_ctl_t *c = w->myctl;
    rx_win_dyn_t r = {(uint64_t)(uintptr_t)addr, len};
    if (c->ndyn == RX_WIN_DYN_MAX) {
        if (w->ndyn_more == w->dyn_more_cap) {
            uint32_t cap = w->dyn_more_cap ? 2 * w->dyn_more_cap : 64;
            rx_win_dyn_t *m = realloc(w->dyn_more, sizeof *m * cap);
            if (!m)
                return RX_ERR_NOMEM;
            w->dyn_more = m;
            w->dyn_more_cap = cap;
        }
        w->dyn_more[w->ndyn_more++] = r;
        atomic_fetch_add_explicit(&c->dyn_seq, 1, memory_order_acq_rel);
        c->ndyn_more = w->ndyn_more;
        atomic_fetch_add_explicit(&c->dyn_seq, 1, memory_order_release);
        return RX_OK;
    }
    atomic_fetch_add_explicit(&c->dyn_seq, 1, memory_order_acq_rel);
    c->dyn[c->ndyn] = r;
    c->ndyn++;
    atomic_fetch_add_explicit(&c->dyn_seq, 1, memory_order_release);
    return RX_OK;
}

int rx_win_detach(rx_win_t *w, const void *addr)
{
    rx_win_ctl_t *c = w->myctl;
    uint64_t a = (uint64_t)(uintptr_t)addr;
    for (uint32_t i = 0; i < w->ndyn_more; i++) {
        if (w->dyn_more[i].addr != a)
            continue;
        w->dyn_more[i] = w->dyn_more[--w->ndyn_more];
        atomic_fetch_add_explicit(&c->dyn_seq, 1, memory_order_acq_rel);
        c->ndyn_more = w->ndyn_more;
        atomic_fetch_add_explicit(&c->dyn_seq, 1, memory_order_release);
        return RX_OK;
    }
    for (uint32_t i = 0; i < c->ndyn; i++) {
        if (c->dyn[i].addr != a)
            continue;
        atomic_fetch_add_explicit(&c->dyn_seq, 1, memory_order_acq_rel);
        c->dyn[i] = c->dyn[c->ndyn - 1];
        c->ndyn--;
        if (w->ndyn_more) { /* keep the shared list full while there are more */
            c->dyn[c->ndyn++] = w->dyn_more[--w->ndyn_more];
            c->ndyn_more = w->ndyn_more;
        }
        atomic_fetch_add_explicit(&c->dyn_seq, 1, memory_order_release);
        return RX_OK;
    }
    return RX_ERR_NOTFOUND;
}

void *rx_rma_local_addr(rx_win_t *w, uint64_t off, uint64_t len)
{
    if (w->flavor != RX_WIN_FLAVOR_DYNAMIC)
        return off <= w->bytes && len <= w->bytes - off ? (char *)w->base + off : NULL;
    rx_win_ctl_t *c = w->myctl;
    if (!len)
        return (void *)(uintptr_t)off;
    /* a range may lie across both lists: check them as one */
    uint64_t pos = off, last = off + len, before;
    do {
        before = pos;
        pos = rx_win_dyn_reach(c->dyn, c->ndyn, pos);
        pos = rx_win_dyn_reach(w->dyn_more, w->ndyn_more, pos);
    } while (pos < last && pos != before);
    return pos >= last ? (void *)(uintptr_t)off : NULL;
}
