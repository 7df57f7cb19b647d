/* SPDX-License-Identifier: MIT
 * The bootstrap client: PMI-1 "simple" wire protocol over the inherited socket
 * named by PMI_FD (served by rdmx-run and by MPICH's hydra), or a singleton
 * with a local table when no launcher started this process.
 * Not thread-safe: the runtime calls it from one thread during init/finalize. */
#define _GNU_SOURCE
#include "boot.h"
#include "kvs.h"
#include "pmi1_wire.h"
#include "pmix_client.h"
#include "util/config.h"
#include "util/log.h"
#include "util/status.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static struct {
    int active;           /* between a successful init and finalize */
    int fd;               /* PMI socket, -1 as a singleton or under PMIx */
    int pmix;             /* the PMIx client serves the calls */
    rx_boot_info_t info;
    char kvsname[256];
    size_t key_max, val_max; /* including the NUL */
    rx_kvs_t *local;      /* singleton's store */
    char rbuf[RX_PMI1_LINE_MAX];
    size_t rlen;          /* bytes buffered in rbuf */
    int tcp;              /* fd is a TCP connection (PMI_PORT) */
    int wake[2];          /* stops the watcher */
    pthread_t watcher;
    int watching;
} rx_boot = {.fd = -1, .wake = {-1, -1}};

static int rx_boot_env_int(const char *name, long lo, long hi, long *out)
{
    const char *s = getenv(name);
    char *end;
    if (!s || !*s)
        return RX_ERR_NOTFOUND;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi) {
        rx_log_error("bootstrap: %s=\"%s\" is not a number in [%ld, %ld]", name, s, lo, hi);
        return RX_ERR_INVAL;
    }
    *out = v;
    return RX_OK;
}

static int rx_boot_send(const char *line)
{
    size_t len = strlen(line), off = 0;
    while (off < len) {
        /* MSG_NOSIGNAL: a launcher that died must give an error, not SIGPIPE */
        ssize_t n = send(rx_boot.fd, line + off, len - off, MSG_NOSIGNAL);
        if (n < 0 && errno == ENOTSOCK)
            n = write(rx_boot.fd, line + off, len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rx_log_error("bootstrap: writing to the launcher failed: %s", strerror(errno));
            return errno == EPIPE || errno == ECONNRESET ? RX_ERR_PEER : RX_ERR_IO;
        }
        off += (size_t)n;
    }
    return RX_OK;
}

/* Read one reply line into out (without the '\n') and check that it is
 * cmd=<expect>. */
static int rx_boot_recv(const char *expect, char *out, size_t outlen)
{
    for (;;) {
        char *nl = memchr(rx_boot.rbuf, '\n', rx_boot.rlen);
        if (nl) {
            size_t len = (size_t)(nl - rx_boot.rbuf);
            if (len + 1 > outlen) {
                rx_log_error("bootstrap: reply longer than %zu bytes", outlen);
                return RX_ERR_TRUNCATE;
            }
            memcpy(out, rx_boot.rbuf, len);
            out[len] = 0;
            rx_boot.rlen -= len + 1;
            memmove(rx_boot.rbuf, nl + 1, rx_boot.rlen);
            char cmd[64];
            if (rx_pmi1_field(out, "cmd", cmd, sizeof cmd) != RX_OK || strcmp(cmd, expect)) {
                rx_log_error("bootstrap: expected cmd=%s from the launcher, got \"%s\"", expect, out);
                return RX_ERR_PEER;
            }
            return RX_OK;
        }
        if (rx_boot.rlen == sizeof rx_boot.rbuf) {
            rx_log_error("bootstrap: reply line longer than %zu bytes", sizeof rx_boot.rbuf);
            return RX_ERR_PEER;
        }
        ssize_t n = read(rx_boot.fd, rx_boot.rbuf + rx_boot.rlen, sizeof rx_boot.rbuf - rx_boot.rlen);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rx_log_error("bootstrap: reading from the launcher failed: %s", strerror(errno));
            return RX_ERR_IO;
        }
        if (n == 0) {
            rx_log_error("bootstrap: the launcher closed the connection (waiting for cmd=%s)", expect);
            return RX_ERR_PEER;
        }
        rx_boot.rlen += (size_t)n;
    }
}

static int rx_boot_call(const char *req, const char *expect, char *reply, size_t replylen)
{
    int rc = rx_boot_send(req);
    return rc == RX_OK ? rx_boot_recv(expect, reply, replylen) : rc;
}

/* Replies that carry rc= must have rc=0. */
static int rx_boot_reply_rc(const char *reply)
{
    long rc;
    if (rx_pmi1_field_int(reply, "rc", &rc) != RX_OK || rc != 0)
        return RX_ERR_PEER;
    return RX_OK;
}

static int rx_boot_jobid_char_ok(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '_' || c == '.';
}

/* The job id names shared-memory segments ("/<jobid>-..."), so it must be a
 * short file-name-safe string equal on every rank: rdmx-run passes it in
 * RDMX_JOBID; under another PMI server it derives from the KVS name. */
static void rx_boot_make_jobid(const char *kvsname, char *jobid, size_t len)
{
    const char *env = getenv("RDMX_JOBID");
    const char *src = env && *env ? env : kvsname;
    size_t n = strlen(src), ok = n > 0 && n < 48;
    for (size_t i = 0; ok && i < n; i++)
        ok = rx_boot_jobid_char_ok(src[i]);
    if (ok && n < len) {
        memcpy(jobid, src, n + 1);
        return;
    }
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)src[i]) * 1099511628211ull;
    snprintf(jobid, len, "rdmx-pmi-%016llx", (unsigned long long)h);
}

static int rx_boot_init_singleton(rx_boot_info_t *info)
{
    uint64_t rnd = 0;
    if (getrandom(&rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd) {
        rx_log_error("bootstrap: getrandom failed: %s", strerror(errno));
        return RX_ERR_IO;
    }
    int rc = rx_kvs_create(&rx_boot.local);
    if (rc != RX_OK)
        return rc;
    memset(info, 0, sizeof *info);
    info->size = info->local_size = 1;
    info->singleton = 1;
    snprintf(info->jobid, sizeof info->jobid, "rdmx-%d-%016llx", (int)getpid(), (unsigned long long)rnd);
    snprintf(rx_boot.kvsname, sizeof rx_boot.kvsname, "%s", info->jobid);
    rx_boot.key_max = RX_KVS_KEY_MAX;
    rx_boot.val_max = RX_KVS_VAL_MAX;
    return RX_OK;
}

static int rx_boot_init_pmi1(long fd, rx_boot_info_t *info)
{
    long rank, size, lsize, lrank;
    char reply[RX_PMI1_LINE_MAX];
    int rc;

    if ((rc = rx_boot_env_int("PMI_RANK", 0, 1L << 30, &rank)) != RX_OK ||
        (rc = rx_boot_env_int("PMI_SIZE", 1, 1L << 30, &size)) != RX_OK) {
        if (rc == RX_ERR_NOTFOUND)
            rx_log_error("bootstrap: PMI_FD is set but PMI_RANK or PMI_SIZE is missing");
        return RX_ERR_INVAL;
    }
    if (rank >= size) {
        rx_log_error("bootstrap: PMI_RANK=%ld is not below PMI_SIZE=%ld", rank, size);
        return RX_ERR_INVAL;
    }
    /* Without locality information every rank is taken as local: rdmx launches
     * on one host only. */
    rc = rx_boot_env_int("MPI_LOCALNRANKS", 1, size, &lsize);
    if (rc == RX_OK)
        rc = rx_boot_env_int("MPI_LOCALRANKID", 0, lsize - 1, &lrank);
    if (rc == RX_ERR_INVAL)
        return rc;
    if (rc == RX_ERR_NOTFOUND) {
        lsize = size;
        lrank = rank;
    }
    rx_boot.fd = (int)fd;
    rx_boot.rlen = 0;
    /* A program this rank starts must not inherit the job's channel. */
    if (fcntl(rx_boot.fd, F_SETFD, FD_CLOEXEC) < 0) {
        rx_log_error("bootstrap: PMI_FD=%ld is not an open descriptor: %s", fd, strerror(errno));
        rx_boot.fd = -1;
        return RX_ERR_INVAL;
    }

    if ((rc = rx_boot_call("cmd=init pmi_version=1 pmi_subversion=1\n", "response_to_init", reply,
                           sizeof reply)) != RX_OK)
        goto fail;
    if ((rc = rx_boot_reply_rc(reply)) != RX_OK) {
        rx_log_error("bootstrap: the launcher refused PMI version 1.1: \"%s\"", reply);
        goto fail;
    }
    long kmax = RX_KVS_KEY_MAX, vmax = RX_KVS_VAL_MAX, appnum = 0;
    if ((rc = rx_boot_call("cmd=get_maxes\n", "maxes", reply, sizeof reply)) != RX_OK)
        goto fail;
    if (rx_pmi1_field_int(reply, "keylen_max", &kmax) != RX_OK ||
        rx_pmi1_field_int(reply, "vallen_max", &vmax) != RX_OK || kmax < 2 || vmax < 2) {
        rx_log_error("bootstrap: bad cmd=maxes reply \"%s\"", reply);
        rc = RX_ERR_PEER;
        goto fail;
    }
    rx_boot.key_max = (size_t)kmax < RX_KVS_KEY_MAX ? (size_t)kmax : RX_KVS_KEY_MAX;
    rx_boot.val_max = (size_t)vmax < RX_KVS_VAL_MAX ? (size_t)vmax : RX_KVS_VAL_MAX;
    if ((rc = rx_boot_call("cmd=get_appnum\n", "appnum", reply, sizeof reply)) != RX_OK)
        goto fail;
    rx_pmi1_field_int(reply, "appnum", &appnum);
    if ((rc = rx_boot_call("cmd=get_my_kvsname\n", "my_kvsname", reply, sizeof reply)) != RX_OK)
        goto fail;
    if (rx_pmi1_field(reply, "kvsname", rx_boot.kvsname, sizeof rx_boot.kvsname) != RX_OK ||
        !rx_boot.kvsname[0]) {
        rx_log_error("bootstrap: bad cmd=my_kvsname reply \"%s\"", reply);
        rc = RX_ERR_PEER;
        goto fail;
    }
    memset(info, 0, sizeof *info);
    info->rank = (int)rank;
    info->size = (int)size;
    info->local_rank = (int)lrank;
    info->local_size = (int)lsize;
    info->appnum = (int)appnum;
    rx_boot_make_jobid(rx_boot.kvsname, info->jobid, sizeof info->jobid);
    return RX_OK;
fail:
    close(rx_boot.fd);
    rx_boot.fd = -1;
    return rc;
}

/* A rank started on another host talks to its launcher over TCP. Its
 * launcher cannot signal it, so a thread watches the connection: when the
 * launcher closes it (the job is ending) or it fails (the host lost the
 * network, the launcher died), the rank exits instead of running on alone. */
static void *rx_boot_watch(void *arg)
{
    (void)arg;
    struct pollfd p[2] = {{.fd = rx_boot.fd, .events = POLLRDHUP}, {.fd = rx_boot.wake[0], .events = POLLIN}};
    for (;;) {
        int n = poll(p, 2, -1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 || p[1].revents)
            return NULL;
        if (p[0].revents & (POLLRDHUP | POLLHUP | POLLERR)) {
            /* say which: the launcher ending the job closes the connection;
             * a failure (this host lost its network) leaves an error */
            int err = 0;
            socklen_t elen = sizeof err;
            getsockopt(rx_boot.fd, SOL_SOCKET, SO_ERROR, &err, &elen);
            const char *id = getenv("PMI_ID"), *port = getenv("PMI_PORT");
            char msg[256];
            int len = err ? snprintf(msg, sizeof msg,
                                     "rdmx[%s]: lost the connection to the launcher at %s (%s); "
                                     "exiting\n", id ? id : "?", port ? port : "?", strerror(err))
                          : snprintf(msg, sizeof msg,
                                     "rdmx[%s]: the launcher closed its connection (the job is "
                                     "over); exiting\n", id ? id : "?");
            ssize_t w = write(2, msg, len > 0 && len < (int)sizeof msg ? (size_t)len : 0);
            (void)w;
            _exit(1);
        }
    }
}

static void rx_boot_tcp_options(int fd)
{
    int one = 1, idle = 2, intvl = 1, cnt = 3;
    unsigned int user_timeout_ms = 6000;
    setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt);
    setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user_timeout_ms, sizeof user_timeout_ms);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

static double rx_boot_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Connect within `limit` seconds: a launcher whose listen queue is full drops
 * the connection request, and a blocking connect would wait for minutes. */
static int rx_boot_connect_within(const struct addrinfo *a, double limit, int *err)
{
    int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
    if (fd < 0) {
        *err = errno;
        return -1;
    }
    int soerr = 0;
    if (connect(fd, a->ai_addr, a->ai_addrlen) < 0) {
        if (errno != EINPROGRESS) {
            soerr = errno;
        } else {
            struct pollfd p = {.fd = fd, .events = POLLOUT};
            int n;
            do
                n = poll(&p, 1, (int)(limit * 1000) + 1);
            while (n < 0 && errno == EINTR);
            socklen_t sl = sizeof soerr;
            if (n == 0)
                soerr = ETIMEDOUT;
            else if (n < 0)
                soerr = errno;
            else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0)
                soerr = errno;
        }
    }
    if (soerr || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
        *err = soerr ? soerr : errno;
        close(fd);
        return -1;
    }
    return fd;
}

/* The launcher's first line, by `deadline`, into out. Quiet: the caller
 * decides whether the failure is worth a retry. */
static int rx_boot_hs_reply(int fd, double deadline, char *out, size_t outlen, char *why,
                            size_t wlen)
{
    rx_boot.rlen = 0;
    for (;;) {
        char *nl = memchr(rx_boot.rbuf, '\n', rx_boot.rlen);
        if (nl) {
            size_t len = (size_t)(nl - rx_boot.rbuf);
            snprintf(out, outlen, "%.*s", (int)len, rx_boot.rbuf);
            rx_boot.rlen -= len + 1;
            memmove(rx_boot.rbuf, nl + 1, rx_boot.rlen);
            return RX_OK;
        }
        double left = deadline - rx_boot_now();
        if (rx_boot.rlen == sizeof rx_boot.rbuf || left <= 0) {
            snprintf(why, wlen, "%s", left <= 0 ? "no answer to the hand-shake" : "an over-long answer");
            return RX_ERR_PEER;
        }
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, (int)(left * 1000) + 1) <= 0)
            continue;
        ssize_t n = read(fd, rx_boot.rbuf + rx_boot.rlen, sizeof rx_boot.rbuf - rx_boot.rlen);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            snprintf(why, wlen, "%s", n < 0 ? strerror(errno) : "the connection was closed without an answer");
            return RX_ERR_PEER;
        }
        rx_boot.rlen += (size_t)n;
    }
}

/* How one attempt at the hand-shake ended. */
enum { RX_BOOT_HS_OK, RX_BOOT_HS_RETRY, RX_BOOT_HS_REFUSED };

/* Connect, send the hand-shake `req`, read the answer: "cmd=initack" (hydra's
 * answer; then fd is the rank's), "cmd=initack rc=1 msg=M" (the launcher is
 * busy: retry) or "rc=-1 msg=M" (refused for good, M in why). Failures to
 * connect or to get an answer are worth a retry too. */
static int rx_boot_hs_try(const struct addrinfo *res, const char *req, double limit, int *fd_out,
                          char *why, size_t wlen)
{
    int fd = -1, err = ECONNREFUSED;
    for (const struct addrinfo *a = res; a && fd < 0; a = a->ai_next)
        fd = rx_boot_connect_within(a, limit, &err);
    if (fd < 0) {
        snprintf(why, wlen, "%s", strerror(err));
        return RX_BOOT_HS_RETRY;
    }
    rx_boot_tcp_options(fd);
    char reply[RX_PMI1_LINE_MAX], cmd[32];
    long rc = 0;
    size_t len = strlen(req);
    if (send(fd, req, len, MSG_NOSIGNAL) != (ssize_t)len) {
        snprintf(why, wlen, "%s", strerror(errno));
        close(fd);
        return RX_BOOT_HS_RETRY;
    }
    if (rx_boot_hs_reply(fd, rx_boot_now() + limit, reply, sizeof reply, why, wlen) != RX_OK) {
        close(fd);
        return RX_BOOT_HS_RETRY;
    }
    if (rx_pmi1_field(reply, "cmd", cmd, sizeof cmd) != RX_OK || strcmp(cmd, "initack")) {
        snprintf(why, wlen, "it answered \"%.80s\" to the hand-shake", reply);
        close(fd);
        return RX_BOOT_HS_REFUSED;
    }
    int have_rc = rx_pmi1_field_int(reply, "rc", &rc) == RX_OK;
    if (have_rc && rc != 0) {
        if (rx_pmi1_field(reply, "msg", why, wlen) != RX_OK)
            snprintf(why, wlen, "rc=%ld", rc);
        close(fd);
        return rc > 0 ? RX_BOOT_HS_RETRY : RX_BOOT_HS_REFUSED;
    }
    *fd_out = fd;
    return RX_BOOT_HS_OK;
}

/* What a refusal means, for the message. */
static void rx_boot_refusal_text(const char *msg, long id, char *out, size_t len)
{
    if (!strcmp(msg, "wrong_secret"))
        snprintf(out, len, "%s", getenv("RDMX_PMI_SECRET")
                                     ? "wrong RDMX_PMI_SECRET (not the secret rdmx-run gave this job)"
                                     : "no RDMX_PMI_SECRET in this rank's environment");
    else if (!strcmp(msg, "unknown_rank"))
        snprintf(out, len, "PMI_ID=%ld is not a rank of this job on another host", id);
    else if (!strcmp(msg, "rank_already_connected"))
        snprintf(out, len, "rank PMI_ID=%ld is connected already", id);
    else if (!strcmp(msg, "busy_retry"))
        snprintf(out, len, "too many connections were waiting at the launcher");
    else if (!strcmp(msg, "timeout_retry"))
        snprintf(out, len, "the launcher did not get the hand-shake in time");
    else
        snprintf(out, len, "%s", msg);
}

/* PMI_PORT=host:port: connect, present PMI_ID and the job's secret
 * (RDMX_PMI_SECRET), read the server's "cmd=set" lines. Returns the fd.
 * Refused connections, unanswered hand-shakes and "busy" answers are retried
 * with growing pauses for RDMX_PMI_CONNECT_TIMEOUT seconds: anyone can
 * connect to the launcher's port, and a flood of connections there must only
 * delay a rank, not end it. */
static int rx_boot_connect_port(const char *spec, long *fd_out)
{
    char host[256];
    const char *colon = strrchr(spec, ':');
    long id;
    if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof host || !colon[1]) {
        rx_log_error("bootstrap: PMI_PORT=\"%s\" is not host:port", spec);
        return RX_ERR_INVAL;
    }
    memcpy(host, spec, (size_t)(colon - spec));
    host[colon - spec] = 0;
    int rc = rx_boot_env_int("PMI_ID", 0, 1L << 30, &id);
    if (rc == RX_ERR_NOTFOUND)
        rc = rx_boot_env_int("PMI_RANK", 0, 1L << 30, &id);
    if (rc != RX_OK) {
        rx_log_error("bootstrap: PMI_PORT is set but PMI_ID (or PMI_RANK) is missing");
        return RX_ERR_INVAL;
    }
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res = NULL;
    int gai = getaddrinfo(host, colon + 1, &hints, &res);
    if (gai) {
        rx_log_error("bootstrap: PMI_PORT=%s: %s", spec, gai_strerror(gai));
        return RX_ERR_INVAL;
    }
    const char *secret = getenv("RDMX_PMI_SECRET");
    char req[160], why[256], text[320];
    snprintf(req, sizeof req, "cmd=initack pmiid=%ld%s%s\n", id, secret ? " secret=" : "",
             secret ? secret : "");
    double timeout = (double)rx_config()->PMI_CONNECT_TIMEOUT;
    double t0 = rx_boot_now(), pause = 0.02;
    unsigned int seed = (unsigned int)getpid() ^ (unsigned int)(t0 * 1e6);
    int fd = -1, st, attempts = 0;
    for (;;) {
        double limit = t0 + timeout - rx_boot_now();
        limit = limit > 10 ? 10 : limit < 1 ? 1 : limit;
        attempts++;
        st = rx_boot_hs_try(res, req, limit, &fd, why, sizeof why);
        if (st != RX_BOOT_HS_RETRY)
            break;
        rx_boot_refusal_text(why, id, text, sizeof text);
        double left = t0 + timeout - rx_boot_now();
        if (left <= 0)
            break;
        if (attempts == 1)
            rx_log_info("bootstrap: PMI_PORT=%s: %s; retrying for up to %g s", spec, text, timeout);
        /* jittered, so that ranks pushed out together do not return together;
         * the last attempt comes at the deadline */
        double d = pause * (0.5 + (double)rand_r(&seed) / RAND_MAX);
        d = d < left ? d : left;
        struct timespec ts = {(time_t)d, (long)((d - (double)(time_t)d) * 1e9)};
        while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
            ;
        pause = pause * 2 > 1 ? 1 : pause * 2;
    }
    freeaddrinfo(res);
    if (st == RX_BOOT_HS_REFUSED) {
        rx_boot_refusal_text(why, id, text, sizeof text);
        rx_log_error("bootstrap: the launcher at PMI_PORT=%s refused this rank: %s", spec, text);
        return RX_ERR_PEER;
    }
    if (st == RX_BOOT_HS_RETRY) {
        rx_log_error("bootstrap: could not join the launcher at PMI_PORT=%s within %g s (%d "
                     "attempts; the last: %s)", spec, timeout, attempts, text);
        return RX_ERR_PEER;
    }
    /* then "cmd=set size=N", "cmd=set rank=R", "cmd=set debug=D" */
    rx_boot.fd = fd;
    char reply[RX_PMI1_LINE_MAX];
    for (int i = 0; rc == RX_OK && i < 3; i++) {
        char name[16];
        long v;
        if ((rc = rx_boot_recv("set", reply, sizeof reply)) != RX_OK)
            break;
        if (rx_pmi1_field_int(reply, "size", &v) == RX_OK && !getenv("PMI_SIZE")) {
            snprintf(name, sizeof name, "%ld", v);
            setenv("PMI_SIZE", name, 1);
        }
        if (rx_pmi1_field_int(reply, "rank", &v) == RX_OK && !getenv("PMI_RANK")) {
            snprintf(name, sizeof name, "%ld", v);
            setenv("PMI_RANK", name, 1);
        }
    }
    rx_boot.fd = -1;
    if (rc != RX_OK) {
        close(fd);
        return rc;
    }
    *fd_out = fd;
    return RX_OK;
}

int rx_boot_init(rx_boot_info_t *info)
{
    if (rx_boot.active) {
        *info = rx_boot.info;
        return RX_OK;
    }
    long fd;
#ifdef RDMX_HAVE_PMIX
    if (rx_boot_pmix_wanted() && !getenv("PMI_FD")) {
        int rc = rx_boot_pmix_init(info, rx_boot.kvsname, sizeof rx_boot.kvsname);
        if (rc != RX_OK)
            return rc;
        rx_boot_make_jobid(rx_boot.kvsname, info->jobid, sizeof info->jobid);
        rx_boot.key_max = RX_KVS_KEY_MAX;
        rx_boot.val_max = RX_KVS_VAL_MAX;
        rx_boot.pmix = 1;
        rx_boot.info = *info;
        rx_boot.active = 1;
        return RX_OK;
    }
#endif
    int rc = rx_boot_env_int("PMI_FD", 0, 1L << 20, &fd);
    if (rc == RX_ERR_NOTFOUND) {
        const char *port = getenv("PMI_PORT");
        if (port && *port) {
            rc = rx_boot_connect_port(port, &fd);
            if (rc == RX_OK && (rc = rx_boot_init_pmi1(fd, info)) == RX_OK) {
                rx_boot.tcp = 1;
                if (pipe2(rx_boot.wake, O_CLOEXEC) == 0 &&
                    pthread_create(&rx_boot.watcher, NULL, rx_boot_watch, NULL) == 0)
                    rx_boot.watching = 1;
            }
        } else {
            rc = rx_boot_init_singleton(info);
        }
    } else if (rc == RX_OK) {
        rc = rx_boot_init_pmi1(fd, info);
    }
    if (rc != RX_OK)
        return rc;
    rx_boot.info = *info;
    rx_boot.active = 1;
    return RX_OK;
}

static int rx_boot_check_kv(const char *key, const char *value)
{
    if (!rx_boot.active)
        return RX_ERR_INVAL;
    if (!key[0] || strlen(key) >= rx_boot.key_max || !rx_pmi1_token_ok(key) || strchr(key, '=')) {
        rx_log_error("bootstrap: bad key \"%s\" (1 to %zu printable characters, no space or '=')",
                     key, rx_boot.key_max - 1);
        return RX_ERR_INVAL;
    }
    if (value && (strlen(value) >= rx_boot.val_max || !rx_pmi1_token_ok(value))) {
        rx_log_error("bootstrap: bad value for key \"%s\" (up to %zu printable characters, no space)",
                     key, rx_boot.val_max - 1);
        return RX_ERR_INVAL;
    }
    return RX_OK;
}

int rx_boot_put(const char *key, const char *value)
{
    int rc = rx_boot_check_kv(key, value);
    if (rc != RX_OK)
        return rc;
#ifdef RDMX_HAVE_PMIX
    if (rx_boot.pmix)
        return rx_boot_pmix_put(key, value);
#endif
    if (rx_boot.fd < 0)
        return rx_kvs_put(rx_boot.local, key, value);
    char req[RX_PMI1_LINE_MAX], reply[RX_PMI1_LINE_MAX];
    snprintf(req, sizeof req, "cmd=put kvsname=%s key=%s value=%s\n", rx_boot.kvsname, key, value);
    if ((rc = rx_boot_call(req, "put_result", reply, sizeof reply)) != RX_OK)
        return rc;
    if (rx_boot_reply_rc(reply) != RX_OK) {
        rx_log_error("bootstrap: put of key \"%s\" refused: \"%s\"", key, reply);
        return RX_ERR_PEER;
    }
    return RX_OK;
}

int rx_boot_fence(void)
{
    if (!rx_boot.active)
        return RX_ERR_INVAL;
#ifdef RDMX_HAVE_PMIX
    if (rx_boot.pmix)
        return rx_boot_pmix_fence();
#endif
    if (rx_boot.fd < 0)
        return rx_kvs_commit(rx_boot.local);
    char reply[RX_PMI1_LINE_MAX];
    return rx_boot_call("cmd=barrier_in\n", "barrier_out", reply, sizeof reply);
}

int rx_boot_get(const char *key, char *value, size_t len)
{
    int rc = rx_boot_check_kv(key, NULL);
    if (rc != RX_OK)
        return rc;
    char reply[RX_PMI1_LINE_MAX];
    const char *v = reply;
#ifdef RDMX_HAVE_PMIX
    if (rx_boot.pmix)
        return rx_boot_pmix_get(key, value, len);
#endif
    if (rx_boot.fd < 0) {
        v = rx_kvs_get(rx_boot.local, key);
        if (!v)
            return RX_ERR_NOTFOUND;
    } else {
        char req[RX_PMI1_LINE_MAX];
        snprintf(req, sizeof req, "cmd=get kvsname=%s key=%s\n", rx_boot.kvsname, key);
        if ((rc = rx_boot_call(req, "get_result", reply, sizeof reply)) != RX_OK)
            return rc;
        /* servers answer a missing key with rc=-1 (hydra) or another nonzero rc */
        if (rx_boot_reply_rc(reply) != RX_OK)
            return RX_ERR_NOTFOUND;
        char *p = strstr(reply, " value=");
        if (!p) {
            rx_log_error("bootstrap: get_result without a value: \"%s\"", reply);
            return RX_ERR_PEER;
        }
        v = p + 7;
        p = strchr(v, ' ');
        if (p)
            *p = 0;
    }
    if (strlen(v) + 1 > len)
        return RX_ERR_TRUNCATE;
    strcpy(value, v);
    return RX_OK;
}

int rx_boot_put_bin(const char *key, const void *data, size_t len)
{
    char buf[RX_KVS_VAL_MAX];
    if (2 * len + 1 > sizeof buf || 2 * len + 1 > rx_boot.val_max)
        return RX_ERR_INVAL;
    rx_pmi1_hex(data, len, buf);
    return rx_boot_put(key, buf);
}

int rx_boot_get_bin(const char *key, void *data, size_t len)
{
    char buf[RX_KVS_VAL_MAX];
    int rc = rx_boot_get(key, buf, sizeof buf);
    if (rc != RX_OK)
        return rc;
    size_t n = strlen(buf);
    if (n > 2 * len)
        return RX_ERR_TRUNCATE;
    if (n != 2 * len) {
        rx_log_error("bootstrap: key \"%s\" holds %zu bytes, expected %zu", key, n / 2, len);
        return RX_ERR_INVAL;
    }
    if (rx_pmi1_unhex(buf, data, len) < 0) {
        rx_log_error("bootstrap: key \"%s\" does not hold hex data", key);
        return RX_ERR_INVAL;
    }
    return RX_OK;
}

/* extra: more fields of the request (" name=value..."), or "" */
static _Noreturn void rx_boot_abort_send(int code, const char *msg, const char *extra)
{
#ifdef RDMX_HAVE_PMIX
    if (rx_boot.active && rx_boot.pmix)
        rx_boot_pmix_abort(code, msg);
#else
    (void)msg;
#endif
    if (rx_boot.active && rx_boot.fd >= 0) {
        char req[RX_PMI1_LINE_MAX];
        snprintf(req, sizeof req, "cmd=abort exitcode=%d%s\n", code, extra);
        /* The launcher ends every rank on receipt; exiting right away is what
         * MPICH's client does too, and the launcher reads the request before
         * it looks at this process's exit. */
        rx_boot_send(req);
    }
    _exit(code & 0xff ? code & 0xff : 1);
}

int rx_boot_abort(int code, const char *msg)
{
    if (msg && *msg)
        rx_log_error("aborting the job (exit code %d): %s", code, msg);
    rx_boot_abort_send(code, msg, "");
}

int rx_boot_abort_lost(int code, int peer, const char *why)
{
    char msg[400], extra[900] = "";
    snprintf(msg, sizeof msg, "lost the connection to rank %d (%s)", peer, why);
    /* only rdmx-run knows these fields (it sets RDMX_JOBID); another PMI
     * server gets the plain request */
    if (getenv("RDMX_JOBID")) {
        char hex[2 * 300 + 1];
        size_t n = strlen(why);
        rx_pmi1_hex(why, n < 300 ? n : 300, hex);
        snprintf(extra, sizeof extra, " lost_peer=%d lost_why=%s", peer, hex);
    }
    rx_boot_abort_send(code, msg, extra);
}

int rx_boot_finalize(void)
{
    if (!rx_boot.active)
        return RX_ERR_INVAL;
    int rc = RX_OK;
#ifdef RDMX_HAVE_PMIX
    if (rx_boot.pmix) {
        rc = rx_boot_pmix_finalize();
        rx_boot.pmix = 0;
    } else
#endif
    if (rx_boot.fd >= 0) {
        char reply[RX_PMI1_LINE_MAX];
        rc = rx_boot_call("cmd=finalize\n", "finalize_ack", reply, sizeof reply);
        if (rx_boot.watching) {
            ssize_t w = write(rx_boot.wake[1], "x", 1);
            (void)w;
            pthread_join(rx_boot.watcher, NULL);
            rx_boot.watching = 0;
        }
        for (int i = 0; i < 2; i++)
            if (rx_boot.wake[i] >= 0) {
                close(rx_boot.wake[i]);
                rx_boot.wake[i] = -1;
            }
        close(rx_boot.fd);
        rx_boot.fd = -1;
    } else {
        rx_kvs_destroy(rx_boot.local);
        rx_boot.local = NULL;
    }
    rx_boot.active = 0;
    return rc;
}

/* ---- dynamic processes ---------------------------------------------------- */

/* 1 when a PMI-1 server answers (not a singleton, not PMIx). */
static int rx_boot_pmi1_served(char *why, size_t whylen)
{
    if (!rx_boot.active || rx_boot.pmix || rx_boot.fd < 0) {
        if (why)
            snprintf(why, whylen, "%s", !rx_boot.active ? "the bootstrap is not running"
                     : rx_boot.pmix ? "the PMIx launcher's client in rdmx does not start "
                                      "processes; run the job under rdmx-run"
                                    : "started without a launcher (singleton); run it under "
                                      "rdmx-run");
        return 0;
    }
    return 1;
}

/* Append "name=value\n" to buf (one line of a multi-line request). */
static int rx_boot_add_line(char *buf, size_t cap, size_t *len, const char *name, long idx,
                            const char *value)
{
    if (strchr(value, '\n'))
        return RX_ERR_INVAL;
    int n = idx >= 0 ? snprintf(buf + *len, cap - *len, "%s%ld=%s\n", name, idx, value)
                     : snprintf(buf + *len, cap - *len, "%s=%s\n", name, value);
    if (n < 0 || (size_t)n >= cap - *len)
        return RX_ERR_INVAL;
    *len += (size_t)n;
    return RX_OK;
}

int rx_boot_spawn(const rx_boot_app_t *apps, int napps, const char *key, const char *value,
                  char *why, size_t whylen)
{
    if (!rx_boot_pmi1_served(why, whylen))
        return RX_ERR_UNSUPPORTED;
    /* MPICH's format: one block per app, each line name=value up to its end */
    for (int a = 0; a < napps; a++) {
        char buf[16384], num[32];
        size_t len = 0;
        int argc = 0, rc = RX_OK;
        while (apps[a].argv && apps[a].argv[argc])
            argc++;
        rc = rx_boot_add_line(buf, sizeof buf, &len, "mcmd", -1, "spawn");
#define RX_NUM(name, v)                                                                           \
        if (rc == RX_OK) {                                                                        \
            snprintf(num, sizeof num, "%ld", (long)(v));                                         \
            rc = rx_boot_add_line(buf, sizeof buf, &len, name, -1, num);                         \
        }
        RX_NUM("nprocs", apps[a].nprocs);
        if (rc == RX_OK)
            rc = rx_boot_add_line(buf, sizeof buf, &len, "execname", -1, apps[a].command);
        RX_NUM("totspawns", napps);
        RX_NUM("spawnssofar", a + 1);
        RX_NUM("argcnt", argc);
        for (int i = 0; rc == RX_OK && i < argc; i++)
            rc = rx_boot_add_line(buf, sizeof buf, &len, "arg", i + 1, apps[a].argv[i]);
        RX_NUM("preput_num", key ? 1 : 0);
        if (rc == RX_OK && key)
            rc = rx_boot_add_line(buf, sizeof buf, &len, "preput_key_", 0, key);
        if (rc == RX_OK && key)
            rc = rx_boot_add_line(buf, sizeof buf, &len, "preput_val_", 0, value);
        RX_NUM("info_num", 0);
#undef RX_NUM
        if (rc == RX_OK && len + sizeof "endcmd\n" <= sizeof buf)
            memcpy(buf + len, "endcmd\n", sizeof "endcmd\n");
        else
            rc = RX_ERR_INVAL;
        if (rc != RX_OK) {
            snprintf(why, whylen, "command %d or its arguments are too long or hold a newline",
                     a);
            return RX_ERR_INVAL;
        }
        if ((rc = rx_boot_send(buf)) != RX_OK) {
            snprintf(why, whylen, "the launcher's connection failed");
            return rc;
        }
    }
    char reply[RX_PMI1_LINE_MAX];
    int rc = rx_boot_recv("spawn_result", reply, sizeof reply);
    if (rc != RX_OK) {
        snprintf(why, whylen, "no answer from the launcher");
        return rc;
    }
    long st = -1;
    rx_pmi1_field_int(reply, "rc", &st);
    if (st != 0) {
        char msg[256] = "";
        if (rx_pmi1_field(reply, "errmsg", msg, sizeof msg) != RX_OK)
            rx_pmi1_field(reply, "msg", msg, sizeof msg);
        for (char *p = msg; *p; p++)
            if (*p == '_')
                *p = ' ';
        snprintf(why, whylen, "the launcher refused: %s", msg[0] ? msg : "no reason given");
        return RX_ERR_PEER;
    }
    return RX_OK;
}

int rx_boot_get_preput(const char *key, char *value, size_t len)
{
    if (!rx_boot_pmi1_served(NULL, 0))
        return RX_ERR_NOTFOUND;
    return rx_boot_get(key, value, len);
}

/* One name-service request "cmd=<what>_name service=S[ port=P]" answered
 * by "cmd=<what>_result rc=N ...": RX_OK for rc 0, refused (the caller's
 * status for a refusal) otherwise; the reply in reply[RX_PMI1_LINE_MAX]. */
static int rx_boot_name_call(const char *what, const char *service, const char *port,
                             int refused, char *reply)
{
    if (!rx_boot_pmi1_served(NULL, 0))
        return RX_ERR_UNSUPPORTED;
    if (!*service || !rx_pmi1_token_ok(service) || (port && !rx_pmi1_token_ok(port)))
        return refused;
    char req[RX_PMI1_LINE_MAX], expect[32];
    int n = snprintf(req, sizeof req, "cmd=%s_name service=%s%s%s\n", what, service,
                     port ? " port=" : "", port ? port : "");
    if (n < 0 || n >= (int)sizeof req)
        return refused;
    snprintf(expect, sizeof expect, "%s_result", what);
    int rc = rx_boot_call(req, expect, reply, RX_PMI1_LINE_MAX);
    if (rc != RX_OK)
        return rc;
    long st = -1;
    rx_pmi1_field_int(reply, "rc", &st);
    return st == 0 ? RX_OK : refused;
}

int rx_boot_publish(const char *service, const char *port)
{
    char reply[RX_PMI1_LINE_MAX];
    return rx_boot_name_call("publish", service, port, RX_ERR_INVAL, reply);
}

int rx_boot_lookup(const char *service, char *port, size_t len)
{
    char reply[RX_PMI1_LINE_MAX];
    int rc = rx_boot_name_call("lookup", service, NULL, RX_ERR_NOTFOUND, reply);
    if (rc != RX_OK)
        return rc;
    return rx_pmi1_field(reply, "port", port, len) == RX_OK ? RX_OK : RX_ERR_TRUNCATE;
}

int rx_boot_unpublish(const char *service)
{
    char reply[RX_PMI1_LINE_MAX];
    return rx_boot_name_call("unpublish", service, NULL, RX_ERR_NOTFOUND, reply);
}
