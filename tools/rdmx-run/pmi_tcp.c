/* SPDX-License-Identifier: MIT
 * The PMI server over TCP, for ranks started on other hosts: they connect to
 * PMI_PORT (host:port) and present "cmd=initack pmiid=RANK secret=SECRET"
 * (MPICH's PMI_PORT hand-shake plus the job's secret, a random 128-bit value
 * given only to the ranks' environment). A connection that presents a wrong
 * secret, an unknown or taken rank, or nothing within 10 s is closed. Once
 * identified, the connection serves the rank exactly like a local socket pair
 * (pmi_serve.c).
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#define RX_RUN_IDENT_S 10.0

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

void rx_run_pmi_tcp_accept(rx_run_job_t *job)
{
    for (;;) {
        int fd = accept4(job->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0)
            return;
        int slot = -1;
        for (int i = 0; i < RX_RUN_PENDING_MAX; i++)
            if (job->pend_conn[i].fd < 0) {
                slot = i;
                break;
            }
        if (slot < 0) {
            close(fd); /* the rank retries nothing: it fails and the job ends */
            continue;
        }
        job->pend_conn[slot].fd = fd;
        job->pend_conn[slot].len = 0;
        job->pend_conn[slot].deadline = rx_run_now() + RX_RUN_IDENT_S;
    }
}

static void rx_run_pend_close(rx_run_pend_conn_t *c)
{
    close(c->fd);
    c->fd = -1;
}

void rx_run_pmi_tcp_ident(rx_run_job_t *job, rx_run_pend_conn_t *c)
{
    ssize_t n = read(c->fd, c->buf + c->len, sizeof c->buf - 1 - c->len);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (n <= 0) {
        rx_run_pend_close(c);
        return;
    }
    c->len += (size_t)n;
    c->buf[c->len] = 0;
    char *nl = strchr(c->buf, '\n');
    if (!nl) {
        if (c->len == sizeof c->buf - 1)
            rx_run_pend_close(c);
        return;
    }
    *nl = 0;
    char cmd[32], secret[64];
    long id = -1;
    if (rx_pmi1_field(c->buf, "cmd", cmd, sizeof cmd) != RX_OK || strcmp(cmd, "initack") ||
        rx_pmi1_field_int(c->buf, "pmiid", &id) != RX_OK ||
        rx_pmi1_field(c->buf, "secret", secret, sizeof secret) != RX_OK ||
        strcmp(secret, job->secret)) {
        rx_run_msg("refused a PMI connection that did not present this job's secret");
        rx_run_pend_close(c);
        return;
    }
    if (id < 0 || id >= job->n || !job->ranks[id].remote || job->ranks[id].pmi_fd >= 0 ||
        job->ranks[id].exited) {
        rx_run_msg("refused a PMI connection for rank %ld (unknown or already connected)", id);
        rx_run_pend_close(c);
        return;
    }
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
                       "cmd=set debug=0\n", job->n, id);
    if (send(r->pmi_fd, reply, (size_t)len, MSG_NOSIGNAL) != len) {
        rx_run_pmi_close(r);
        return;
    }
    if (rest)
        rx_run_pmi_lines(job, r);
}

void rx_run_pmi_tcp_timeouts(rx_run_job_t *job, double now)
{
    for (int i = 0; i < RX_RUN_PENDING_MAX; i++)
        if (job->pend_conn[i].fd >= 0 && now >= job->pend_conn[i].deadline) {
            rx_run_msg("closed a PMI connection that did not identify itself within %g s",
                       RX_RUN_IDENT_S);
            rx_run_pend_close(&job->pend_conn[i]);
        }
}

void rx_run_pmi_tcp_close(rx_run_job_t *job)
{
    if (job->listen_fd >= 0)
        close(job->listen_fd);
    job->listen_fd = -1;
    for (int i = 0; i < RX_RUN_PENDING_MAX; i++)
        if (job->pend_conn[i].fd >= 0)
            rx_run_pend_close(&job->pend_conn[i]);
}
