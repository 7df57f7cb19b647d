/* SPDX-License-Identifier: MIT
 * The PMI server over TCP, for ranks started on other hosts: they connect to
 * PMI_PORT (host:port) and present "cmd=initack pmiid=RANK secret=SECRET"
 * (MPICH's PMI_PORT hand-shake plus the job's secret, a random 128-bit value
 * given only to the ranks, never on a command line). Once identified, the
 * connection serves the rank exactly like a local socket pair (pmi_serve.c).
 *
 * Anyone who reaches the port can connect, so a connection holds nothing of
 * the job until it has shown the secret: the hand-shake a rank sends with its
 * connect is usually read at accept, and only a connection that has not sent
 * its line yet waits in one of a bounded set of places (RX_RUN_PENDING_MAX),
 * for at most RX_RUN_IDENT_S. When the places are full a new connection
 * pushes out the oldest waiting one, never the other way round: a flood of
 * idle connections then only ever delays a rank, which is told to retry
 * ("rc=1") and does (src/boot/pmi1_client.c). Refusals that retrying cannot
 * mend say why ("rc=-1 msg=wrong_secret", "unknown_rank", ...). Refusals are
 * logged once of each kind, then summed up every RX_RUN_QUIET_S, so a flood
 * cannot flood the launcher's stderr either.
 *
 * TCP keepalive (and a user timeout) on every identified connection lets the
 * launcher notice within about 5 s a host that became unreachable (a link
 * down, a host crashed): the connection fails, and the job ends with a message
 * naming the rank and host instead of hanging. */
#include "run.h"
#include "util/status.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

/* A rank sends its hand-shake right after connecting; this leaves room for a
 * lost packet or two, and a rank closed for being late retries. */
#define RX_RUN_IDENT_S 2.0
#define RX_RUN_QUIET_S 10.0
/* accepts per call, so that a flood of connections cannot starve the ranks */
#define RX_RUN_ACCEPT_BURST 256
#define RX_RUN_PEER_MAX (INET_ADDRSTRLEN + 8)

/* Why an unidentified connection was closed. */
enum { RX_RUN_REF_SECRET, RX_RUN_REF_GARBAGE, RX_RUN_REF_RANK, RX_RUN_REF_IDLE, RX_RUN_REF_BUSY,
       RX_RUN_REF_KINDS };

/* The launcher serves one job per process: this state is the job's. */
static struct {
    int pend_max;         /* places of job->pend_conn in use: fewer when descriptors are short */
    int spare_fd;         /* closed to accept (and refuse) when descriptors run out */
    char peer[RX_RUN_PENDING_MAX][RX_RUN_PEER_MAX];
    int logged[RX_RUN_REF_KINDS];        /* the first of each kind was logged */
    unsigned long unlogged[RX_RUN_REF_KINDS]; /* refusals since the last message */
    char last_peer[RX_RUN_PEER_MAX];
    double quiet_until;   /* refusals are summed up, not logged, until then */
} rx_tcp = {.spare_fd = -1};

/* The address remote ranks reach us at: --pmi-addr, else the first IPv4
 * address of an interface that is up and not loopback, else loopback. */
static int rx_run_pick_addr(const char *want, struct in_addr *out)
{
    if (want && *want) {
        if (inet_pton(AF_INET, want, out) != 1) {
            rx_run_msg("--pmi-addr '%s' is not an IPv4 address", want);
            return -1;
        }
        return 0;
    }
    struct ifaddrs *ifa = NULL;
    out->s_addr = htonl(INADDR_LOOPBACK);
    if (getifaddrs(&ifa) == 0) {
        for (struct ifaddrs *i = ifa; i; i = i->ifa_next)
            if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET && (i->ifa_flags & IFF_UP) &&
                !(i->ifa_flags & IFF_LOOPBACK)) {
                *out = ((struct sockaddr_in *)i->ifa_addr)->sin_addr;
                break;
            }
        freeifaddrs(ifa);
    }
    return 0;
}

int rx_run_pmi_tcp_open(rx_run_job_t *job)
{
    struct in_addr addr;
    if (rx_run_pick_addr(job->opts->pmi_addr, &addr))
        return RX_ERR_INVAL;
    unsigned char rnd[16];
    if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd) {
        rx_run_msg("getrandom: %s", strerror(errno));
        return RX_ERR_IO;
    }
    for (int i = 0; i < 16; i++)
        snprintf(job->secret + 2 * i, 3, "%02x", rnd[i]);
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        rx_run_msg("socket: %s", strerror(errno));
        return RX_ERR_IO;
    }
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr = addr};
    socklen_t sl = sizeof sa;
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(fd, 1024) < 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &sl) < 0) {
        char a[INET_ADDRSTRLEN];
        inet_ntop(AF_INET, &addr, a, sizeof a);
        rx_run_msg("cannot listen for remote ranks on %s: %s", a, strerror(errno));
        close(fd);
        return RX_ERR_IO;
    }
    char a[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &addr, a, sizeof a);
    snprintf(job->pmi_port, sizeof job->pmi_port, "%s:%d", a, ntohs(sa.sin_port));
    job->listen_fd = fd;
    /* places for unidentified connections: what the descriptors left by the
     * ranks (four each) allow, up to RX_RUN_PENDING_MAX */
    struct rlimit rl;
    rx_tcp.pend_max = RX_RUN_PENDING_MAX;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        long left = (long)rl.rlim_cur - 4L * job->n - 64;
        if (left < rx_tcp.pend_max)
            rx_tcp.pend_max = left < 8 ? 8 : (int)left;
    }
    rx_tcp.spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    return RX_OK;
}

static void rx_run_keepalive(int fd)
{
    int one = 1, idle = 1, intvl = 1, cnt = 3;
    unsigned int user_timeout_ms = 5000;
    setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt);
    setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user_timeout_ms, sizeof user_timeout_ms);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

/* Compare a presented secret with the job's in time that does not depend on
 * where they differ, so timing does not reveal a prefix. */
static int rx_run_secret_ok(const char *given, const char *want)
{
    size_t gl = strlen(given), wl = strlen(want);
    volatile unsigned char diff = gl != wl;
    for (size_t i = 0; i < wl; i++)
        diff |= (unsigned char)(want[i] ^ (i < gl ? given[i] : 0));
    return diff == 0;
}

/* Log the first refusal of each kind; count the others for a summary. */
static void rx_run_refusal_log(int kind, const char *peer, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void rx_run_refusal_log(int kind, const char *peer, const char *fmt, ...)
{
    snprintf(rx_tcp.last_peer, sizeof rx_tcp.last_peer, "%s", peer);
    if (rx_tcp.logged[kind] && rx_run_now() < rx_tcp.quiet_until) {
        rx_tcp.unlogged[kind]++;
        return;
    }
    rx_tcp.logged[kind] = 1;
    if (rx_tcp.quiet_until == 0)
        rx_tcp.quiet_until = rx_run_now() + RX_RUN_QUIET_S;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    rx_run_msg("%s", msg);
}

/* The summary of the refusals not logged one by one. */
static void rx_run_refusal_summary(void)
{
    unsigned long *u = rx_tcp.unlogged, n = 0;
    for (int k = 0; k < RX_RUN_REF_KINDS; k++)
        n += u[k];
    if (n)
        rx_run_msg("refused %lu more PMI connections (%lu wrong or no secret, %lu no PMI "
                   "hand-shake, %lu bad rank, %lu idle over %g s, %lu pushed out while %d were "
                   "waiting); the last from %s", n, u[RX_RUN_REF_SECRET], u[RX_RUN_REF_GARBAGE],
                   u[RX_RUN_REF_RANK], u[RX_RUN_REF_IDLE], RX_RUN_IDENT_S, u[RX_RUN_REF_BUSY],
                   rx_tcp.pend_max, rx_tcp.last_peer);
    memset(rx_tcp.unlogged, 0, sizeof rx_tcp.unlogged);
    rx_tcp.quiet_until = n ? rx_run_now() + RX_RUN_QUIET_S : 0;
}

/* Tell the peer why (one line, best effort: it may be gone) and close.
 * reply: "rc=-1 msg=..." (final) or "rc=1 msg=..." (retry). */
static void rx_run_pend_refuse(rx_run_pend_conn_t *c, const char *reply)
{
    char line[96];
    int len = snprintf(line, sizeof line, "cmd=initack %s\n", reply);
    ssize_t w = send(c->fd, line, (size_t)len, MSG_NOSIGNAL | MSG_DONTWAIT);
    (void)w;
    close(c->fd);
    c->fd = -1;
}

/* The connection presented the secret for rank id: it becomes that rank's. */
static void rx_run_pend_identified(rx_run_job_t *job, rx_run_pend_conn_t *c, long id, char *nl)
{
    rx_run_rank_t *r = &job->ranks[id];
    rx_run_keepalive(c->fd);
    r->pmi_fd = c->fd;
    r->pmi_len = 0;
    r->pmi_tcp = 1;
    c->fd = -1;
    /* bytes after the hand-shake line are the rank's first requests */
    size_t rest = c->len - (size_t)(nl + 1 - c->buf);
    memcpy(r->pmi_buf, nl + 1, rest);
    r->pmi_len = rest;
    char reply[128];
    int len = snprintf(reply, sizeof reply, "cmd=initack\ncmd=set size=%d\ncmd=set rank=%ld\n"
                       "cmd=set debug=0\n", job->subs[0].n, id);
    if (send(r->pmi_fd, reply, (size_t)len, MSG_NOSIGNAL) != len) {
        rx_run_pmi_close(r);
        return;
    }
    if (rest)
        rx_run_pmi_lines(job, r);
}

/* Judge a complete hand-shake line. */
static void rx_run_pend_line(rx_run_job_t *job, rx_run_pend_conn_t *c, const char *peer, char *nl)
{
    *nl = 0;
    char cmd[32], secret[64];
    long id = -1;
    if (rx_pmi1_field(c->buf, "cmd", cmd, sizeof cmd) != RX_OK || strcmp(cmd, "initack") ||
        rx_pmi1_field_int(c->buf, "pmiid", &id) != RX_OK) {
        rx_run_refusal_log(RX_RUN_REF_GARBAGE, peer,
                           "refused a PMI connection from %s: not a PMI_PORT hand-shake", peer);
        rx_run_pend_refuse(c, "rc=-1 msg=not_a_handshake");
        return;
    }
    int have = rx_pmi1_field(c->buf, "secret", secret, sizeof secret);
    if (have == RX_ERR_NOTFOUND || (have == RX_OK && !rx_run_secret_ok(secret, job->secret)) ||
        have == RX_ERR_TRUNCATE) {
        rx_run_refusal_log(RX_RUN_REF_SECRET, peer,
                           "refused a PMI connection from %s for rank %ld: %s secret", peer, id,
                           have == RX_ERR_NOTFOUND ? "no" : "wrong");
        rx_run_pend_refuse(c, "rc=-1 msg=wrong_secret");
        return;
    }
    if (id < 0 || id >= job->n || !job->ranks[id].remote || job->ranks[id].exited) {
        rx_run_refusal_log(RX_RUN_REF_RANK, peer,
                           "refused a PMI connection from %s for rank %ld: no such rank on "
                           "another host", peer, id);
        rx_run_pend_refuse(c, "rc=-1 msg=unknown_rank");
        return;
    }
    if (job->ranks[id].pmi_fd >= 0) {
        rx_run_refusal_log(RX_RUN_REF_RANK, peer,
                           "refused a PMI connection from %s for rank %ld: already connected",
                           peer, id);
        rx_run_pend_refuse(c, "rc=-1 msg=rank_already_connected");
        return;
    }
    rx_run_pend_identified(job, c, id, nl);
}

/* Read what the connection sent; act on a complete line. */
static void rx_run_pend_read(rx_run_job_t *job, rx_run_pend_conn_t *c, const char *peer)
{
    ssize_t n = read(c->fd, c->buf + c->len, sizeof c->buf - 1 - c->len);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (n <= 0) {
        close(c->fd); /* gone before it said anything useful */
        c->fd = -1;
        return;
    }
    c->len += (size_t)n;
    c->buf[c->len] = 0;
    char *nl = memchr(c->buf, '\n', c->len);
    if (nl) {
        rx_run_pend_line(job, c, peer, nl);
    } else if (c->len == sizeof c->buf - 1) {
        rx_run_refusal_log(RX_RUN_REF_GARBAGE, peer,
                           "refused a PMI connection from %s: a hand-shake line over %zu bytes",
                           peer, sizeof c->buf - 1);
        rx_run_pend_refuse(c, "rc=-1 msg=not_a_handshake");
    }
}

/* A place for a connection that has not sent its line yet: a free one, or
 * the oldest waiting connection's, which is told to retry. */
static int rx_run_pend_place(rx_run_job_t *job)
{
    int oldest = -1;
    for (int i = 0; i < rx_tcp.pend_max; i++) {
        if (job->pend_conn[i].fd < 0)
            return i;
        if (oldest < 0 || job->pend_conn[i].deadline < job->pend_conn[oldest].deadline)
            oldest = i;
    }
    rx_run_refusal_log(RX_RUN_REF_BUSY, rx_tcp.peer[oldest],
                       "%d PMI connections are waiting to identify themselves: closing the "
                       "oldest (from %s), told to retry", rx_tcp.pend_max, rx_tcp.peer[oldest]);
    rx_run_pend_refuse(&job->pend_conn[oldest], "rc=1 msg=busy_retry");
    return oldest;
}

/* accept4, or when descriptors ran out: accept with the spare one, refuse
 * (the peer retries) and take the spare back, so the listening socket does
 * not stay readable with nothing done about it. */
static int rx_run_accept(rx_run_job_t *job, struct sockaddr_in *sa)
{
    socklen_t sl = sizeof *sa;
    int fd = accept4(job->listen_fd, (struct sockaddr *)sa, &sl, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd >= 0 || (errno != EMFILE && errno != ENFILE) || rx_tcp.spare_fd < 0)
        return fd;
    close(rx_tcp.spare_fd);
    fd = accept(job->listen_fd, NULL, NULL);
    if (fd >= 0) {
        rx_run_pend_conn_t c = {.fd = fd};
        rx_run_pend_refuse(&c, "rc=1 msg=busy_retry");
    }
    rx_tcp.spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    errno = EAGAIN;
    return -1;
}

void rx_run_pmi_tcp_accept(rx_run_job_t *job)
{
    for (int k = 0; k < RX_RUN_ACCEPT_BURST; k++) {
        struct sockaddr_in sa = {0};
        int fd = rx_run_accept(job, &sa);
        if (fd < 0)
            return;
        char peer[RX_RUN_PEER_MAX], a[INET_ADDRSTRLEN] = "?";
        inet_ntop(AF_INET, &sa.sin_addr, a, sizeof a);
        snprintf(peer, sizeof peer, "%s:%d", a, ntohs(sa.sin_port));
        /* a rank's hand-shake is usually here already: judge it at once */
        rx_run_pend_conn_t c = {.fd = fd};
        rx_run_pend_read(job, &c, peer);
        if (c.fd < 0)
            continue;
        int slot = rx_run_pend_place(job);
        job->pend_conn[slot] = c;
        job->pend_conn[slot].deadline = rx_run_now() + RX_RUN_IDENT_S;
        memcpy(rx_tcp.peer[slot], peer, sizeof peer);
    }
}

void rx_run_pmi_tcp_ident(rx_run_job_t *job, rx_run_pend_conn_t *c)
{
    rx_run_pend_read(job, c, rx_tcp.peer[c - job->pend_conn]);
}

void rx_run_pmi_tcp_timeouts(rx_run_job_t *job, double now)
{
    for (int i = 0; i < RX_RUN_PENDING_MAX; i++)
        if (job->pend_conn[i].fd >= 0 && now >= job->pend_conn[i].deadline) {
            rx_run_refusal_log(RX_RUN_REF_IDLE, rx_tcp.peer[i],
                               "closed a PMI connection from %s that did not identify itself "
                               "within %g s", rx_tcp.peer[i], RX_RUN_IDENT_S);
            rx_run_pend_refuse(&job->pend_conn[i], "rc=1 msg=timeout_retry");
        }
    if (rx_tcp.quiet_until > 0 && now >= rx_tcp.quiet_until)
        rx_run_refusal_summary();
}

void rx_run_pmi_tcp_close(rx_run_job_t *job)
{
    if (job->listen_fd >= 0)
        close(job->listen_fd);
    job->listen_fd = -1;
    for (int i = 0; i < RX_RUN_PENDING_MAX; i++)
        if (job->pend_conn[i].fd >= 0) {
            close(job->pend_conn[i].fd);
            job->pend_conn[i].fd = -1;
        }
    if (rx_tcp.spare_fd >= 0)
        close(rx_tcp.spare_fd);
    rx_tcp.spare_fd = -1;
    rx_run_refusal_summary();
}
