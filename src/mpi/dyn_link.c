/* SPDX-License-Identifier: MIT
 * Joining two groups of processes that did not start together: the
 * accepting and the connecting group (MPI_Comm_accept / _connect, the
 * parents and children of MPI_Comm_spawn, the two ends of MPI_Comm_join).
 *
 * The groups' roots talk over one Unix stream socket (a port: a listening
 * socket in the abstract namespace, so no file is created and the name dies
 * with the process; or the socket MPI_Comm_join is given). In order:
 *   1. every member describes itself (job id, rank in its job, pid, the
 *      address of its cross-memory probe word, its ring size) and the root
 *      of each group swaps its group's list for the other's;
 *   2. the pairs of members in different jobs need rings: the accepting
 *      root makes one region for all of them (a link, src/tl/shm/link.c)
 *      and sends its name, every member maps it; members of one job keep
 *      talking through their job's own transports, under their job ranks;
 *   3. every member probes cross-memory attach towards the other group's
 *      members, and the groups agree (a logical and over both) on whether
 *      the region is mapped everywhere, single copy works, and which two
 *      context ids are free at every member; then the region's name is
 *      unlinked (nothing remains in /dev/shm whatever happens later);
 *   4. the other group's members become peers of this process under new
 *      peer indices (rx_rt.nprocs upward), reached by the link, and the
 *      intercommunicator is made as MPI_Intercomm_create makes one.
 * Only processes of one node can be joined (the rings are shared memory). */
#define _GNU_SOURCE
#include "dyn_impl.h"
#include "inter_impl.h"
#include "tl/tl.h"
#include "util/log.h"

#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define RX_DYN_MAGIC 0x72646d7864796e31ull /* "rdmxdyn1" */
#define RX_DYN_LINKS_MAX 256
#define RX_DYN_WHY 200

/* ---- sockets ------------------------------------------------------------- */

static socklen_t rx_dyn_addr(const char *name, struct sockaddr_un *a)
{
    memset(a, 0, sizeof *a);
    a->sun_family = AF_UNIX;
    size_t n = strlen(name);
    if (n + 1 > sizeof a->sun_path)
        return 0;
    memcpy(a->sun_path + 1, name, n); /* abstract: the path starts with a NUL */
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
}

/* Wait until fd is ready, driving progress meanwhile: the other members of
 * the communicator, or traffic already under way, may need this process. */
static int rx_dyn_wait_fd(int fd, short events)
{
    for (;;) {
        struct pollfd p = {.fd = fd, .events = events};
        int n = poll(&p, 1, 0);
        if (n > 0)
            return (p.revents & (events | POLLHUP)) ? RX_OK : RX_ERR_IO;
        if (n < 0 && errno != EINTR)
            return RX_ERR_IO;
        if (rx_progress() == 0) {
            p.revents = 0;
            poll(&p, 1, 1);
        }
    }
}

/* Only processes of this user may connect: another user's process reaching
 * the abstract name is turned away. */
static int rx_dyn_same_user(int fd)
{
    struct ucred cr;
    socklen_t l = sizeof cr;
    return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &l) == 0 && cr.uid == getuid();
}

int rx_dyn_port_open(char *name, int *fd)
{
    unsigned char rnd[16];
    if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd)
        return RX_ERR_IO;
    int n = snprintf(name, MPI_MAX_PORT_NAME, "%s", RX_DYN_PORT_PREFIX);
    for (size_t i = 0; i < sizeof rnd; i++)
        n += snprintf(name + n, (size_t)(MPI_MAX_PORT_NAME - n), "%02x", rnd[i]);
    struct sockaddr_un a;
    socklen_t len = rx_dyn_addr(name, &a);
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (s < 0)
        return RX_ERR_IO;
    if (bind(s, (struct sockaddr *)&a, len) < 0 || listen(s, 64) < 0) {
        rx_log_error("MPI_Open_port: %s", strerror(errno));
        close(s);
        return RX_ERR_IO;
    }
    *fd = s;
    return RX_OK;
}

int rx_dyn_port_accept(int lfd, const char **why)
{
    for (;;) {
        if (rx_dyn_wait_fd(lfd, POLLIN) != RX_OK) {
            *why = "the port's socket failed";
            return -1;
        }
        int s = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
        if (s >= 0) {
            if (rx_dyn_same_user(s))
                return s;
            close(s);
            continue;
        }
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ECONNABORTED) {
            *why = strerror(errno);
            return -1;
        }
    }
}

int rx_dyn_port_connect(const char *name, const char **why)
{
    struct sockaddr_un a;
    socklen_t len;
    if (strncmp(name, RX_DYN_PORT_PREFIX, strlen(RX_DYN_PORT_PREFIX)) ||
        !(len = rx_dyn_addr(name, &a))) {
        *why = "not a port name MPI_Open_port of rdmx gave (\"" RX_DYN_PORT_PREFIX "...\")";
        return -1;
    }
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) {
        *why = strerror(errno);
        return -1;
    }
    if (connect(s, (struct sockaddr *)&a, len) < 0) {
        *why = errno == ECONNREFUSED ? "no such port is open (closed, or not on this host)"
                                     : strerror(errno);
        close(s);
        return -1;
    }
    if (!rx_dyn_same_user(s)) {
        *why = "the port belongs to another user";
        close(s);
        return -1;
    }
    return s;
}

/* All of buf through fd (out: send), driving progress while it waits. */
static int rx_dyn_io(int fd, void *buf, size_t len, int out)
{
    size_t off = 0;
    while (off < len) {
        ssize_t n = out ? send(fd, (char *)buf + off, len - off, MSG_DONTWAIT | MSG_NOSIGNAL)
                        : recv(fd, (char *)buf + off, len - off, MSG_DONTWAIT);
        if (n > 0) {
            off += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (rx_dyn_wait_fd(fd, out ? POLLOUT : POLLIN) != RX_OK)
                return RX_ERR_PEER;
            continue;
        }
        return RX_ERR_PEER; /* closed, or failed */
    }
    return RX_OK;
}

/* The roots swap data: the accepting side sends first, so that two large
 * lists never fill both sockets at once. */
static int rx_dyn_swap(int fd, int side, const void *mine, size_t mlen, void *theirs, size_t tlen)
{
    int rc;
    if (side == 0) {
        rc = rx_dyn_io(fd, (void *)mine, mlen, 1);
        return rc == RX_OK ? rx_dyn_io(fd, theirs, tlen, 0) : rc;
    }
    rc = rx_dyn_io(fd, theirs, tlen, 0);
    return rc == RX_OK ? rx_dyn_io(fd, (void *)mine, mlen, 1) : rc;
}

/* ---- links ---------------------------------------------------------------- */

static rx_tl_t *rx_dyn_links[RX_DYN_LINKS_MAX];
/* links in use: also the "queued" count of their progress hook, so that
 * waits sleep in short slices (links ring no doorbell) */
static int rx_dyn_nlinks;

static int rx_dyn_progress(void)
{
    int n = 0;
    for (int i = 0; i < rx_dyn_nlinks; i++)
        n += rx_dyn_links[i]->ops->progress(rx_dyn_links[i]);
    return n;
}

void rx_dyn_fini(void)
{
    for (int i = 0; i < rx_dyn_nlinks; i++)
        rx_dyn_links[i]->ops->fini(rx_dyn_links[i]);
    rx_dyn_nlinks = 0;
}

/* ---- the connection --------------------------------------------------------- */

typedef struct rx_dyn_member {
    char jobid[64];
    int32_t rank;            /* in its job */
    int32_t pid;
    uint64_t probe;          /* its cross-memory probe word */
    uint32_t ring;           /* ring size it proposes */
    uint32_t pad;
} rx_dyn_member_t;

typedef struct rx_dyn_hello {
    uint64_t magic;
    int32_t side, n;
} rx_dyn_hello_t;

/* What each root tells its group after a step: RX_OK or the error, why. */
typedef struct rx_dyn_status {
    int32_t status, n;
    char why[RX_DYN_WHY];
} rx_dyn_status_t;

static void rx_dyn_set(rx_dyn_status_t *s, int status, const char *why)
{
    if (s->status != RX_OK)
        return;
    s->status = status;
    snprintf(s->why, sizeof s->why, "%s", why);
}

/* Step 1 at the root: hello, then the member lists. */
static void rx_dyn_root_lists(int fd, int side, const rx_dyn_member_t *loc, int n,
                              rx_dyn_member_t **rem, rx_dyn_status_t *st)
{
    rx_dyn_hello_t h = {RX_DYN_MAGIC, side, n}, o;
    /* both send first: the hellos are small enough for any socket buffer */
    if (rx_dyn_io(fd, &h, sizeof h, 1) != RX_OK || rx_dyn_io(fd, &o, sizeof o, 0) != RX_OK) {
        rx_dyn_set(st, RX_ERR_PEER, "the other group's root closed the connection");
        return;
    }
    if (o.magic != RX_DYN_MAGIC || o.n <= 0 || o.n > RX_DYN_PEERS_MAX) {
        rx_dyn_set(st, RX_ERR_PEER, "the other end is no MPI_Comm_accept / _connect / _join "
                   "of rdmx");
        return;
    }
    if (o.side == side) {
        rx_dyn_set(st, RX_ERR_INVAL, side == 0 ? "both ends accept" : "both ends connect");
        return;
    }
    if (!(*rem = malloc(sizeof **rem * (size_t)o.n))) {
        rx_dyn_set(st, RX_ERR_NOMEM, "out of memory");
        return;
    }
    if (rx_dyn_swap(fd, side, loc, sizeof *loc * (size_t)n, *rem, sizeof **rem * (size_t)o.n) !=
        RX_OK)
        rx_dyn_set(st, RX_ERR_PEER, "the other group's root closed the connection");
    st->n = o.n;
}

/* Step 1 on every member: the other group's list in *rem (*rn members). */
static int rx_dyn_lists(rx_comm_t *c, int root, int fd, int side, const char *why_root,
                        rx_dyn_member_t *loc, rx_dyn_member_t **rem, int *rn,
                        rx_dyn_status_t *st)
{
    rx_dyn_member_t mine = {.rank = rx_rt.rank, .pid = (int32_t)getpid(),
                            .probe = rx_tl_link_probe_addr(), .ring = rx_tl_link_ring_size()};
    snprintf(mine.jobid, sizeof mine.jobid, "%s", rx_rt.jobid);
    int rc = rx_coll_allgather(&mine, sizeof mine, loc, c);
    if (rc != RX_OK)
        return rc;
    if (c->rank == root) {
        if (fd < 0)
            rx_dyn_set(st, RX_ERR_PEER, why_root);
        else
            rx_dyn_root_lists(fd, side, loc, c->size, rem, st);
    }
    if ((rc = rx_coll_bcast(st, sizeof *st, root, c)) != RX_OK || st->status != RX_OK)
        return rc;
    if (c->rank != root && !(*rem = malloc(sizeof **rem * (size_t)st->n)))
        return RX_ERR_NOMEM;
    *rn = st->n;
    return rx_coll_bcast(*rem, sizeof **rem * (size_t)st->n, root, c);
}

/* Steps 2 and 3 at the root of each group: the region's name (accepting
 * side to connecting side), the groups' votes. */
static int rx_dyn_root_name(int fd, int side, char *name)
{
    return rx_dyn_io(fd, name, RX_REGION_NAME_MAX, side == 0);
}

enum { RX_DYN_V_MAPPED, RX_DYN_V_CMA, RX_DYN_V_MASK };

int rx_dyn_connect(rx_comm_t *c, int root, int fd, const char *why_root, int side, int cls,
                   MPI_Comm *out, const char *fn)
{
    int n = c->size, rn = 0, me_root = c->rank == root, mrc = -1;
    rx_dyn_member_t *loc = malloc(sizeof *loc * (size_t)n), *rem = NULL;
    rx_dyn_status_t st = {RX_OK, 0, ""};
    int *idx = NULL, *lpeer = NULL, *pid = NULL;
    void *base = NULL;
    size_t bytes = 0;
    char name[RX_REGION_NAME_MAX] = "";
    rx_tl_t *link = NULL;
    int rc = loc ? rx_dyn_lists(c, root, fd, side, why_root, loc, &rem, &rn, &st) : RX_ERR_NOMEM;
    if (rc == RX_OK && st.status != RX_OK) {
        rc = st.status;
        goto out;
    }
    if (rc != RX_OK) {
        snprintf(st.why, sizeof st.why, "%s", rx_status_string(rc));
        goto out;
    }
    /* step 2: which pairs need rings, the region for them */
    int na = side == 0 ? n : rn, nb = side == 0 ? rn : n, need = 0, nnew = 0, mapped = 1;
    uint32_t ring = 0;
    for (int i = 0; i < n; i++) {
        if (loc[i].ring > ring)
            ring = loc[i].ring;
        for (int k = 0; k < rn; k++)
            need |= strcmp(loc[i].jobid, rem[k].jobid) != 0;
    }
    for (int k = 0; k < rn; k++)
        if (rem[k].ring > ring)
            ring = rem[k].ring;
    idx = malloc(sizeof *idx * (size_t)rn);
    lpeer = malloc(sizeof *lpeer * (size_t)rn);
    pid = malloc(sizeof *pid * (size_t)rn);
    if (!idx || !lpeer || !pid)
        mapped = 0;
    for (int k = 0; mapped && k < rn; k++) {
        pid[k] = rem[k].pid;
        if (!strcmp(rem[k].jobid, rx_rt.jobid) && rem[k].rank >= 0 && rem[k].rank < rx_rt.size) {
            idx[k] = rem[k].rank; /* a rank of this job: its transports reach it already */
            lpeer[k] = -1;
        } else {
            idx[k] = lpeer[k] = rx_rt.nprocs + nnew++;
        }
    }
    if (rx_rt.nprocs + nnew > rx_rt.peers_max || (nnew && rx_dyn_nlinks == RX_DYN_LINKS_MAX))
        mapped = 0; /* out of peer slots: the vote fails */
    if (need) {
        bytes = rx_tl_link_bytes(na, nb, ring);
        if (side == 0 && me_root && rx_region_create(rx_rt.jobid, bytes, name, sizeof name,
                                                      &base) != RX_OK)
            name[0] = 0;
        if (me_root && rx_dyn_root_name(fd, side, name) != RX_OK)
            name[0] = 0;
        if ((rc = rx_coll_bcast(name, sizeof name, root, c)) != RX_OK)
            goto fail;
        if (name[0] && !base && rx_region_attach(name, bytes, &base) != RX_OK)
            base = NULL;
        if (!base)
            mapped = 0;
    }
    /* step 3: probe, vote, context ids */
    uint32_t vote[RX_DYN_V_MASK + RX_CTX_WORDS], other[RX_DYN_V_MASK + RX_CTX_WORDS];
    vote[RX_DYN_V_MAPPED] = (uint32_t)mapped;
    vote[RX_DYN_V_CMA] = 1;
    for (int k = 0; mapped && k < rn; k++)
        if (lpeer[k] >= 0 && !rx_tl_link_probe(rem[k].pid, rem[k].probe))
            vote[RX_DYN_V_CMA] = 0;
    memcpy(vote + RX_DYN_V_MASK, rx_ctx_mask(), sizeof(uint32_t) * RX_CTX_WORDS);
    rc = rx_coll_allreduce(vote, vote, RX_DYN_V_MASK + RX_CTX_WORDS, rx_dtype_get(MPI_UINT32_T),
                           rx_opobj_get(MPI_BAND), c);
    if (rc != RX_OK)
        goto fail;
    if (me_root) {
        if (rx_dyn_swap(fd, side, vote, sizeof vote, other, sizeof other) != RX_OK)
            other[RX_DYN_V_MAPPED] = 0;
        for (size_t w = 0; w < sizeof vote / sizeof *vote; w++)
            vote[w] &= other[w];
    }
    if ((rc = rx_coll_bcast(vote, sizeof vote, root, c)) != RX_OK)
        goto fail;
    if (name[0] && side == 0 && me_root)
        rx_region_unlink(name); /* everyone mapped it, or gave up */
    name[0] = 0;
    int ids[2];
    uint32_t *mask = vote + RX_DYN_V_MASK;
    for (int i = 0; i < 2; i++) {
        if ((ids[i] = rx_ctx_pick(mask)) < 0)
            break;
        mask[ids[i] / 32] &= ~(1u << (ids[i] % 32));
    }
    if (!vote[RX_DYN_V_MAPPED] || ids[0] < 0 || ids[1] < 0) {
        snprintf(st.why, sizeof st.why, "%s", !vote[RX_DYN_V_MAPPED]
                 ? "the groups could not share memory (both must run on one node; a region, "
                   "or peer slots, could not be had)"
                 : "no context id is free at every member");
        rc = RX_ERR_UNSUPPORTED;
        goto fail;
    }
    /* step 4: the peers and the intercommunicator */
    if (need) {
        rx_tl_link_t d = {.na = na, .nb = nb, .side = side, .me = c->rank, .ring_size = ring,
                          .peer = lpeer, .peer_pid = pid, .cma = (int)vote[RX_DYN_V_CMA],
                          .peers_max = rx_rt.peers_max, .am_handler = rx_p2p_am_handler};
        if ((rc = rx_tl_link_create(&d, base, bytes, &link)) != RX_OK)
            goto fail; /* out of memory: this member fails alone, the others hang up later */
        base = NULL; /* the link's now */
        rx_dyn_links[rx_dyn_nlinks++] = link;
        rx_progress_hook_add_queue(rx_dyn_progress, &rx_dyn_nlinks);
    }
    for (int k = 0; k < rn; k++)
        if (lpeer[k] >= 0) {
            rx_rt.node_of[idx[k]] = rx_rt.node_of[rx_rt.rank];
            rx_rt.peer_tl[idx[k]] = link;
        }
    rx_rt.nprocs += nnew;
    rx_group_t *rg = rx_group_new(rn);
    if (!rg) {
        rc = RX_ERR_NOMEM;
        goto fail;
    }
    memcpy(rg->world, idx, sizeof *idx * (size_t)rn);
    mrc = rx_inter_make(c, c->group, rg, ids, out, fn);
    rx_group_unref(rg);
    goto done;
fail:
    if (!st.why[0])
        snprintf(st.why, sizeof st.why, "%s", rx_status_string(rc));
    if (name[0] && side == 0 && me_root)
        rx_region_unlink(name);
    if (base)
        rx_region_detach(base, bytes);
out:
    mrc = -1;
done:
    free(loc);
    free(rem);
    free(idx);
    free(lpeer);
    free(pid);
    if (fd >= 0)
        close(fd);
    return mrc >= 0 ? mrc : rx_mpi_err(c, cls, fn, "%s", st.why);
}
