/* SPDX-License-Identifier: MIT
 * The PMI-1 "simple" server, answering as MPICH's hydra does, so that rdmx's
 * client and MPICH-built programs both run under rdmx-run. Every request is
 * one line and gets one reply line, except barrier_in (the reply waits for all
 * ranks) and abort (no reply: the job ends). */
#include "run.h"
#include "util/status.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void rx_run_pmi_close(rx_run_rank_t *r)
{
    if (r->pmi_fd >= 0)
        close(r->pmi_fd);
    r->pmi_fd = -1;
    r->pmi_len = 0;
}

void rx_run_pmi_reply(rx_run_rank_t *r, const char *fmt, ...)
{
    char buf[RX_PMI1_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(buf, sizeof buf - 1, fmt, ap);
    va_end(ap);
    if (len < 0 || len >= (int)sizeof buf - 1)
        len = (int)sizeof buf - 2;
    buf[len++] = '\n';
    if (r->pmi_fd < 0)
        return;
    size_t off = 0;
    while (off < (size_t)len) {
        ssize_t n = send(r->pmi_fd, buf + off, (size_t)len - off, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            /* A client waits for each reply before its next request, so a
             * full socket means it broke the protocol; a closed one, that it
             * is gone (its exit is handled when it is reaped). */
            if (errno == EAGAIN)
                rx_run_msg("rank %d does not read its PMI replies; closing its connection", r->rank);
            rx_run_pmi_close(r);
            return;
        }
        off += (size_t)n;
    }
}

static void rx_run_pmi_barrier_in(rx_run_job_t *job, rx_run_rank_t *r)
{
    if (r->in_barrier) {
        rx_run_msg("rank %d entered the PMI barrier twice", r->rank);
        return;
    }
    r->in_barrier = 1;
    rx_run_sub_t *s = &job->subs[r->sub];
    if (++s->barrier_count < s->n) {
        rx_run_barrier_check(job);
        return;
    }
    rx_kvs_commit(s->kvs);
    s->barrier_count = 0;
    for (int i = s->base; i < s->base + s->n; i++) {
        job->ranks[i].in_barrier = 0;
        rx_run_pmi_reply(&job->ranks[i], "cmd=barrier_out");
    }
}

static void rx_run_pmi_put(rx_run_job_t *job, rx_run_rank_t *r, const char *line)
{
    char kvsname[256], key[RX_KVS_KEY_MAX], value[RX_KVS_VAL_MAX];
    rx_run_sub_t *s = &job->subs[r->sub];
    if (rx_pmi1_field(line, "kvsname", kvsname, sizeof kvsname) != RX_OK || strcmp(kvsname, s->jobid)) {
        rx_run_pmi_reply(r, "cmd=put_result rc=-1 msg=unknown_kvsname");
        return;
    }
    if (rx_pmi1_field(line, "key", key, sizeof key) != RX_OK || !key[0] ||
        rx_pmi1_field(line, "value", value, sizeof value) != RX_OK) {
        rx_run_pmi_reply(r, "cmd=put_result rc=-1 msg=key_or_value_too_long");
        return;
    }
    if (rx_kvs_put(s->kvs, key, value) != RX_OK) {
        rx_run_pmi_reply(r, "cmd=put_result rc=-1 msg=out_of_memory");
        return;
    }
    rx_run_pmi_reply(r, "cmd=put_result rc=0 msg=success");
}

static void rx_run_pmi_get(rx_run_job_t *job, rx_run_rank_t *r, const char *line)
{
    char kvsname[256], key[RX_KVS_KEY_MAX];
    rx_run_sub_t *s = &job->subs[r->sub];
    if (rx_pmi1_field(line, "kvsname", kvsname, sizeof kvsname) != RX_OK || strcmp(kvsname, s->jobid)) {
        rx_run_pmi_reply(r, "cmd=get_result rc=-1 msg=unknown_kvsname");
        return;
    }
    if (rx_pmi1_field(line, "key", key, sizeof key) != RX_OK || !key[0]) {
        rx_run_pmi_reply(r, "cmd=get_result rc=-1 msg=bad_key");
        return;
    }
    /* MPICH reads the rank-to-node map from this key */
    if (!strcmp(key, "PMI_process_mapping")) {
        char map[RX_KVS_VAL_MAX];
        if (job->host_of && r->sub == 0)
            rx_run_process_mapping(job, map, sizeof map);
        else /* spawned jobs run on this host */
            snprintf(map, sizeof map, "(vector,(0,1,%d))", s->n);
        rx_run_pmi_reply(r, "cmd=get_result rc=0 msg=success value=%s", map);
        return;
    }
    const char *v = rx_kvs_get(s->kvs, key);
    if (v)
        rx_run_pmi_reply(r, "cmd=get_result rc=0 msg=success value=%s", v);
    else
        rx_run_pmi_reply(r, "cmd=get_result rc=-1 msg=key_%s_not_found", key);
}

/* " on host NAME" for rank i of a multi-host job, else "". */
static const char *rx_run_on_host(const rx_run_job_t *job, int i, char *buf, size_t len)
{
    buf[0] = 0;
    if (job->host_of && i >= 0 && i < job->subs[0].n)
        snprintf(buf, len, " on host %s", job->opts->hosts[job->host_of[i]].name);
    return buf;
}

/* An abort because the rank's transport lost its connection to another
 * rank (lost_peer, lost_why: the error text in hex): that loss is the cause
 * to report, with both hosts. 0 when the request carries no such cause. */
static int rx_run_pmi_abort_lost(rx_run_job_t *job, rx_run_rank_t *r, const char *line, int code)
{
    long peer;
    char hex[2 * 300 + 1], why[301], h1[300], h2[300], who[340] = "a peer";
    long n = -1;
    if (rx_pmi1_field_int(line, "lost_peer", &peer) == RX_OK &&
        rx_pmi1_field(line, "lost_why", hex, sizeof hex) == RX_OK)
        n = rx_pmi1_unhex(hex, why, sizeof why - 1);
    if (n < 0)
        return 0;
    why[n] = 0;
    for (long i = 0; i < n; i++)
        if ((unsigned char)why[i] < 32 || why[i] == 127)
            why[i] = '?'; /* one line of plain text */
    int sub0 = r->sub == 0;
    if (peer >= 0 && peer < job->subs[r->sub].n)
        snprintf(who, sizeof who, "rank %ld%s", peer,
                 sub0 ? rx_run_on_host(job, (int)peer, h2, sizeof h2) : "");
    rx_run_fail(job, code, "rank %d%s (pid %d)%s lost its connection to %s (%s); ending the job",
                r->rank, rx_run_of_job(r), (int)r->pid,
                sub0 ? rx_run_on_host(job, r->rank, h1, sizeof h1) : "", who, why);
    return 1;
}

static void rx_run_pmi_abort(rx_run_job_t *job, rx_run_rank_t *r, const char *line)
{
    long code = 1;
    rx_pmi1_field_int(line, "exitcode", &code);
    r->aborted = 1;
    int status = code & 0xff ? (int)(code & 0xff) : 1;
    if (rx_run_pmi_abort_lost(job, r, line, status))
        return;
    rx_run_fail(job, status, "rank %d%s (pid %d) called MPI_Abort with exit code %ld; ending the job",
                r->rank, rx_run_of_job(r), (int)r->pid, code);
}

static void rx_run_pmi_line(rx_run_job_t *job, rx_run_rank_t *r, const char *line)
{
    char cmd[64];
    /* a spawn request runs over several lines up to "endcmd" */
    if (r->spawn_req || !strncmp(line, "mcmd=", 5)) {
        rx_run_pmi_spawn_line(job, r, line);
        return;
    }
    if (rx_pmi1_field(line, "cmd", cmd, sizeof cmd) != RX_OK) {
        rx_run_msg("rank %d sent a malformed PMI request \"%.80s\"", r->rank, line);
        rx_run_pmi_reply(r, "cmd=error rc=-1 msg=malformed_request");
        return;
    }
    if (!strcmp(cmd, "init")) {
        long ver = 0;
        rx_pmi1_field_int(line, "pmi_version", &ver);
        if (ver != 1) {
            rx_run_pmi_reply(r, "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=-1");
            return;
        }
        r->initialized = 1;
        rx_run_pmi_reply(r, "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0");
    } else if (!strcmp(cmd, "get_maxes")) {
        rx_run_pmi_reply(r, "cmd=maxes kvsname_max=256 keylen_max=%d vallen_max=%d", RX_KVS_KEY_MAX,
                         RX_KVS_VAL_MAX);
    } else if (!strcmp(cmd, "get_appnum")) {
        rx_run_pmi_reply(r, "cmd=appnum appnum=%d", r->appnum);
    } else if (!strcmp(cmd, "get_my_kvsname")) {
        rx_run_pmi_reply(r, "cmd=my_kvsname kvsname=%s", job->subs[r->sub].jobid);
    } else if (!strcmp(cmd, "get_universe_size")) {
        rx_run_pmi_reply(r, "cmd=universe_size size=%d", job->subs[r->sub].n);
    } else if (!strcmp(cmd, "put")) {
        rx_run_pmi_put(job, r, line);
    } else if (!strcmp(cmd, "barrier_in")) {
        rx_run_pmi_barrier_in(job, r);
    } else if (!strcmp(cmd, "get")) {
        rx_run_pmi_get(job, r, line);
    } else if (!strcmp(cmd, "finalize")) {
        r->finalized = 1;
        rx_run_pmi_reply(r, "cmd=finalize_ack");
    } else if (!strcmp(cmd, "abort")) {
        rx_run_pmi_abort(job, r, line);
    } else if (!strcmp(cmd, "publish_name") || !strcmp(cmd, "lookup_name") ||
               !strcmp(cmd, "unpublish_name")) {
        rx_run_pmi_names(job, r, cmd, line);
    } else {
        rx_run_msg("rank %d sent an unsupported PMI request \"%.80s\"", r->rank, line);
        rx_run_pmi_reply(r, "cmd=%s_result rc=-1 msg=unsupported_request", cmd);
    }
}

void rx_run_pmi_lines(rx_run_job_t *job, rx_run_rank_t *r)
{
    char *start = r->pmi_buf, *nl;
    while (r->pmi_fd >= 0 && (nl = memchr(start, '\n', r->pmi_len - (size_t)(start - r->pmi_buf)))) {
        *nl = 0;
        rx_run_pmi_line(job, r, start);
        start = nl + 1;
    }
    if (r->pmi_fd < 0)
        return;
    r->pmi_len -= (size_t)(start - r->pmi_buf);
    memmove(r->pmi_buf, start, r->pmi_len);
    if (r->pmi_len == sizeof r->pmi_buf) {
        rx_run_msg("rank %d sent a PMI request longer than %d bytes; closing its connection",
                   r->rank, RX_PMI1_LINE_MAX);
        rx_run_pmi_close(r);
    }
}

/* How long a remote rank's exit may take to show after its PMI connection
 * broke, before the broken connection itself is reported. */
#define RX_RUN_LOST_GRACE_S 1.0

void rx_run_pmi_input(rx_run_job_t *job, rx_run_rank_t *r)
{
    while (r->pmi_fd >= 0) {
        ssize_t n = read(r->pmi_fd, r->pmi_buf + r->pmi_len, sizeof r->pmi_buf - r->pmi_len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return;
        if (n <= 0) {
            /* closed: after finalize, or the rank is exiting (handled when
             * reaped); over TCP before finalize it may be a lost host */
            if (r->pmi_tcp && !r->finalized && !r->aborted && !job->ending) {
                r->pmi_lost = 1;
                r->lost_err = n < 0 ? errno : 0;
                if (job->lost_at == 0)
                    job->lost_at = rx_run_now() + RX_RUN_LOST_GRACE_S;
            }
            rx_run_pmi_close(r);
            return;
        }
        r->pmi_len += (size_t)n;
        rx_run_pmi_lines(job, r);
    }
}

void rx_run_pmi_lost_check(rx_run_job_t *job, double now)
{
    if (job->lost_at == 0 || now < job->lost_at)
        return;
    job->lost_at = 0;
    for (int i = 0; i < job->n; i++) {
        rx_run_rank_t *r = &job->ranks[i];
        if (!r->pmi_lost || r->exited)
            continue;
        r->pmi_lost = 0;
        const char *host = job->opts->hosts ? job->opts->hosts[job->host_of[i]].name : "?";
        rx_run_fail(job, 1,
                    "lost the connection to rank %d on host %s (%s) before MPI_Finalize; "
                    "ending the job", i, host,
                    r->lost_err ? strerror(r->lost_err) : "closed by the remote side");
        return;
    }
}
