/* SPDX-License-Identifier: MIT
 * The job: start the ranks, then one poll loop until every rank is reaped and
 * its output drained. Failure rules (docs/launcher.md):
 *  - a rank killed by a signal, calling MPI_Abort, or exiting after PMI init
 *    but before PMI finalize ends the job: SIGTERM to every rank's process
 *    group, SIGKILL one second later;
 *  - the exit status is the first failure's; 0 only when every rank exits 0. */
#include "run.h"
#include "util/status.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

/* How long output may still arrive after the last rank was reaped (from a
 * process that escaped the ranks' process groups). */
#define RX_RUN_DRAIN_S 1.0

const char *rx_run_of_job(const rx_run_rank_t *r)
{
    static char buf[32];
    if (r->sub == 0)
        return "";
    snprintf(buf, sizeof buf, " of spawned job %d", r->sub);
    return buf;
}

void rx_run_set_exit(rx_run_job_t *job, int code)
{
    if (!job->have_exit) {
        job->exit_code = code;
        job->have_exit = 1;
    }
}

static void rx_run_signal_groups(rx_run_job_t *job, int sig)
{
    for (int i = 0; i < job->n; i++)
        if (job->ranks[i].pid > 0)
            kill(-job->ranks[i].pid, sig);
}

/* Remote ranks watch their PMI connection: closing it ends them even where
 * a signal to the local launch command (ssh) would not reach them. */
static void rx_run_close_remote(rx_run_job_t *job)
{
    for (int i = 0; i < job->n; i++)
        if (job->ranks[i].pmi_tcp)
            rx_run_pmi_close(&job->ranks[i]);
}

void rx_run_end_job(rx_run_job_t *job)
{
    if (job->ending)
        return;
    job->ending = 1;
    job->kill_at = rx_run_now() + 1.0;
    rx_run_signal_groups(job, SIGTERM);
    rx_run_close_remote(job);
    rx_run_stdin_close(job);
}

/* Long enough for the kernel to finish a rank's death that caused the
 * failure (a peer sees its memory gone before it becomes a zombie), short
 * next to the one second between SIGTERM and SIGKILL. */
#define RX_RUN_GRACE_S 0.1

void rx_run_fail(rx_run_job_t *job, int code, const char *fmt, ...)
{
    if (job->ending)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(job->pend_msg, sizeof job->pend_msg, fmt, ap);
    va_end(ap);
    job->pend_code = code;
    job->pend_until = rx_run_now() + RX_RUN_GRACE_S;
    rx_run_end_job(job);
}

/* The grace period is over (or every rank is gone): report the failure. */
static void rx_run_fail_commit(rx_run_job_t *job)
{
    if (job->pend_until == 0)
        return;
    job->pend_until = 0;
    rx_run_msg("%s", job->pend_msg);
    rx_run_set_exit(job, job->pend_code);
}

void rx_run_barrier_check(rx_run_job_t *job)
{
    if (job->ending)
        return;
    for (int i = 0; i < job->n; i++) {
        rx_run_rank_t *r = &job->ranks[i];
        if (job->subs[r->sub].barrier_count > 0 && !r->in_barrier && (r->exited || r->finalized)) {
            rx_run_fail(job, 1,
                        "rank %d%s (pid %d) %s without entering the PMI barrier (fence) the other "
                        "ranks wait in; ending the job",
                        r->rank, rx_run_of_job(r), (int)r->pid, r->exited ? "exited" : "finalized");
            return;
        }
    }
}

/* A death by a signal the launcher did not send while ending the job. */
static int rx_run_unexpected_signal(const rx_run_job_t *job, int sig)
{
    return sig != SIGTERM && sig != job->fwd_sig && !(sig == SIGKILL && job->kill_sent);
}

/* A remote rank's launch command exited before MPI_Finalize: was its PMI
 * connection lost first? Then the loss is the cause, and the exit its
 * consequence (the rank's client exits when it loses the launcher, and the
 * launch command reports that as a plain failure). Either the launcher saw
 * the connection fail already, or its keepalive probes are going
 * unanswered: the rank's side may give up first. A connection closed
 * cleanly is explained by the exit itself. Returns the errno, or 0. */
static int rx_run_lost_first(const rx_run_rank_t *r)
{
    if (!r->pmi_tcp)
        return 0;
    if (r->pmi_lost)
        return r->lost_err;
    struct tcp_info ti;
    socklen_t len = sizeof ti;
    if (r->pmi_fd < 0 || getsockopt(r->pmi_fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0)
        return 0;
    /* two in a row: one may be in flight on a healthy connection */
    return ti.tcpi_probes >= 2 || ti.tcpi_backoff >= 2 ? ETIMEDOUT : 0;
}

/* A rank was reaped: apply the failure rules. */
static void rx_run_rank_exited(rx_run_job_t *job, rx_run_rank_t *r, int wstatus)
{
    /* Requests it sent before dying (abort, finalize) count first. */
    if (r->pmi_fd >= 0)
        rx_run_pmi_input(job, r);
    int lost = rx_run_lost_first(r);
    rx_run_pmi_close(r);
    r->exited = 1;
    r->wstatus = wstatus;
    job->nlive--;
    if (r->sub == 0 && r->rank == 0)
        rx_run_stdin_close(job);
    if (WIFSIGNALED(wstatus) && job->ending) {
        int sig = WTERMSIG(wstatus);
        if (job->pend_until > 0 && rx_run_unexpected_signal(job, sig)) {
            /* the likely cause of the failure waiting to be reported */
            job->pend_until = 0;
            rx_run_msg("rank %d%s (pid %d) killed by signal %d (%s); ending the job", r->rank,
                       rx_run_of_job(r), (int)r->pid, sig, strsignal(sig));
            rx_run_set_exit(job, 128 + sig);
        } else if (rx_run_unexpected_signal(job, sig)) {
            rx_run_msg("rank %d%s (pid %d) killed by signal %d (%s) while the job was ending",
                       r->rank, rx_run_of_job(r), (int)r->pid, sig, strsignal(sig));
        }
        return;
    }
    if (job->ending || r->aborted)
        return;
    if (WIFSIGNALED(wstatus)) {
        int sig = WTERMSIG(wstatus);
        rx_run_msg("rank %d%s (pid %d) killed by signal %d (%s); ending the job", r->rank,
                   rx_run_of_job(r), (int)r->pid, sig, strsignal(sig));
        rx_run_set_exit(job, 128 + sig);
        rx_run_end_job(job);
        return;
    }
    int code = WEXITSTATUS(wstatus);
    if (r->initialized && !r->finalized && lost && code) {
        r->pmi_lost = 0; /* reported here, not again by the lost-connection check */
        rx_run_fail(job, code,
                    "lost the connection to rank %d on host %s (%s) before MPI_Finalize; "
                    "ending the job", r->rank, job->opts->hosts[job->host_of[r->rank]].name,
                    strerror(lost));
        return;
    }
    if (r->sub > 0 && !r->initialized) {
        /* its parents wait in MPI_Comm_spawn for it to connect from MPI_Init */
        rx_run_fail(job, code ? code : 1,
                    "rank %d%s (pid %d) exited with code %d without calling MPI_Init; the "
                    "spawning ranks wait for it in MPI_Comm_spawn; ending the job",
                    r->rank, rx_run_of_job(r), (int)r->pid, code);
        return;
    }
    if (r->initialized && !r->finalized) {
        rx_run_fail(job, code ? code : 1,
                    "rank %d%s (pid %d) exited with code %d before MPI_Finalize; ending the job",
                    r->rank, rx_run_of_job(r), (int)r->pid, code);
        return;
    }
    if (code)
        rx_run_set_exit(job, code);
    rx_run_barrier_check(job);
}

static void rx_run_reap(rx_run_job_t *job)
{
    /* Collect the exited children first and take deaths by signal before
     * exits: when a rank dies, others often fail because of it a moment later
     * (a transfer from it breaks), and the cause is what must be reported. */
    for (;;) {
        struct { pid_t pid; int wstatus; } dead[64];
        int n = 0;
        while (n < 64 && (dead[n].pid = waitpid(-1, &dead[n].wstatus, WNOHANG)) > 0)
            n++;
        if (n == 0)
            return;
        for (int pass = 0; pass < 2; pass++)
            for (int k = 0; k < n; k++) {
                if (!!WIFSIGNALED(dead[k].wstatus) != (pass == 0))
                    continue;
                if (dead[k].pid == job->watchdog_pid) {
                    job->watchdog_pid = -1;
                    continue;
                }
                for (int i = 0; i < job->n; i++)
                    if (job->ranks[i].pid == dead[k].pid && !job->ranks[i].exited) {
                        rx_run_rank_exited(job, &job->ranks[i], dead[k].wstatus);
                        break;
                    }
            }
    }
}

static void rx_run_signal(rx_run_job_t *job)
{
    struct signalfd_siginfo si;
    while (read(job->sigfd, &si, sizeof si) == (ssize_t)sizeof si) {
        int sig = (int)si.ssi_signo;
        if (sig == SIGCHLD) {
            rx_run_reap(job);
            continue;
        }
        if (!job->ending) {
            rx_run_msg("received signal %d (%s); forwarding it to the ranks and ending the job", sig,
                       strsignal(sig));
            rx_run_set_exit(job, 128 + sig);
            job->fwd_sig = sig;
            rx_run_signal_groups(job, sig);
            rx_run_close_remote(job);
            job->ending = 1;
            job->kill_at = rx_run_now() + 1.0;
            rx_run_stdin_close(job);
        } else {
            /* a second request: do not wait any longer */
            job->kill_at = rx_run_now();
        }
    }
}

/* Descriptors 0-2 must exist, or a pipe created later would take their
 * number and a rank's stdout could land on its PMI socket. */
static void rx_run_fix_std_fds(void)
{
    for (int fd = 0; fd < 3; fd++)
        if (fcntl(fd, F_GETFD) < 0) {
            int nfd = open("/dev/null", O_RDWR);
            if (nfd >= 0 && nfd != fd) {
                dup2(nfd, fd);
                close(nfd);
            }
        }
}

static int rx_run_setup(rx_run_job_t *job, const rx_run_opts_t *opts)
{
    job->opts = opts;
    job->n = opts->nprocs;
    job->listen_fd = -1;
    for (int i = 0; i < RX_RUN_PENDING_MAX; i++)
        job->pend_conn[i].fd = -1;
    job->stdin_pipe = -1;
    job->watchdog_fd = -1;
    job->watchdog_pid = -1;
    job->sigfd = -1;

    uint64_t rnd;
    if (getrandom(&rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd) {
        rx_run_msg("getrandom: %s", strerror(errno));
        return RX_ERR_IO;
    }
    snprintf(job->jobid, sizeof job->jobid, "rdmx-%d-%016llx", (int)getpid(), (unsigned long long)rnd);

    /* Three descriptors a rank (PMI, stdout, stderr): lift the soft limit. */
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (rlim_t)job->n * 4 + 32 > rl.rlim_cur) {
        rx_run_msg("%d ranks need about %d open files, the limit is %llu", job->n, job->n * 4 + 32,
                   (unsigned long long)rl.rlim_cur);
        return RX_ERR_INVAL;
    }

    if (opts->hosts) {
        if (rx_run_hosts_place(job) != RX_OK) {
            rx_run_msg("out of memory");
            return RX_ERR_NOMEM;
        }
        if (job->any_remote && rx_run_pmi_tcp_open(job) != RX_OK)
            return RX_ERR_IO;
    }
    /* room for the processes MPI_Comm_spawn may add: rank pointers never move */
    job->cap = job->n + RX_RUN_SPAWN_MAX;
    job->ranks = calloc((size_t)job->cap, sizeof *job->ranks);
    if (!job->ranks || rx_kvs_create(&job->kvs) != RX_OK) {
        rx_run_msg("out of memory");
        return RX_ERR_NOMEM;
    }
    job->nsub = 1;
    job->subs[0] = (rx_run_sub_t){.kvs = job->kvs, .base = 0, .n = job->n};
    snprintf(job->subs[0].jobid, sizeof job->subs[0].jobid, "%s", job->jobid);
    for (int i = 0; i < job->n; i++) {
        job->ranks[i].rank = i;
        job->ranks[i].pmi_fd = job->ranks[i].out.fd = job->ranks[i].err.fd = -1;
        if (opts->hosts) {
            job->ranks[i].remote = rx_run_rank_is_remote(job, i);
            job->host_nlocal[job->host_of[i]]++;
        }
    }
    /* By default ranks are bound as Open MPI's mpirun binds them: one core
     * each when they fit. A rank that stays on its core keeps its cache and
     * never waits for the scheduler to move it off a busy sibling (the first
     * ~25 ms of a job otherwise run with both ranks on one core). Oversubscribed
     * ranks stay unbound so the kernel can balance them; remote hosts are
     * bound by their own launch command. */
    int bind_default = opts->bind_core < 0;
    if (opts->offload_cores > 0) {
        if (opts->hosts) {
            rx_run_msg("--offload-cores applies to jobs on this machine only");
            return RX_ERR_INVAL;
        }
        if (rx_run_bind_plan(job, opts->report_bindings, bind_default) != RX_OK)
            return RX_ERR_INVAL;
        /* the kept cores are for the offload threads: on unless the user chose */
        if (!getenv("RDMX_COLL_OFFLOAD"))
            setenv("RDMX_COLL_OFFLOAD", "auto", 1);
    } else if (bind_default && (opts->hosts || job->n < 2)) {
        if (opts->report_bindings)
            rx_run_msg("ranks are not bound (%s)", opts->hosts ? "multi-host job" : "one rank");
    } else if (opts->bind_core) {
        if (rx_run_bind_plan(job, opts->report_bindings, bind_default) != RX_OK)
            return bind_default ? RX_OK : RX_ERR_INVAL;
        if (opts->report_bindings && !job->bind_sets)
            rx_run_msg("ranks are not bound (more ranks than cores)");
    } else if (opts->report_bindings) {
        rx_run_msg("ranks are not bound (--bind-to none)");
    }

    /* Signals become events of the poll loop; the ranks unblock them. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigaddset(&set, SIGQUIT);
    sigprocmask(SIG_BLOCK, &set, NULL);
    /* a closed stdout of the launcher must not kill it with ranks still running */
    signal(SIGPIPE, SIG_IGN);
    job->sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
    if (job->sigfd < 0) {
        rx_run_msg("signalfd: %s", strerror(errno));
        return RX_ERR_IO;
    }
    return rx_run_watchdog_start(job);
}

static int rx_run_start_ranks(rx_run_job_t *job)
{
    int child_stdin = -1;
    int p[2];
    /* rank 0 reads the launcher's stdin through a pipe, not the terminal
     * itself: in its own process group, reading a terminal would stop it */
    if (isatty(0) && tcgetpgrp(0) != getpgrp()) {
        /* started in the background of a terminal: reading it would stop us */
    } else if (pipe2(p, O_CLOEXEC) == 0) {
        child_stdin = p[0];
        job->stdin_pipe = p[1];
        fcntl(p[1], F_SETFL, O_NONBLOCK);
        job->stdin_open = 1;
    } else {
        rx_run_msg("pipe: %s; rank 0 reads /dev/null", strerror(errno));
    }
    for (int i = 0; i < job->n; i++) {
        rx_run_rank_t *r = &job->ranks[i];
        int rc = rx_run_spawn(job, r, i == 0 ? child_stdin : -1);
        if (i == 0 && child_stdin >= 0)
            close(child_stdin);
        if (r->pid > 0 && !r->exited) {
            job->nlive++;
            rx_run_watchdog_add(job, r->pid);
        }
        if (rc != RX_OK) {
            int err = rc > 0 ? rc : 0;
            if (err)
                rx_run_msg("cannot run '%s': %s", job->opts->argv[0], strerror(err));
            rx_run_set_exit(job, err == ENOENT ? RX_RUN_EXIT_NOTFOUND
                                 : err ? RX_RUN_EXIT_NOEXEC : 1);
            rx_run_end_job(job);
            return rc;
        }
    }
    return RX_OK;
}

static int rx_run_streams_open(const rx_run_job_t *job)
{
    for (int i = 0; i < job->n; i++)
        if (job->ranks[i].out.fd >= 0 || job->ranks[i].err.fd >= 0)
            return 1;
    return 0;
}

/* Which rank and stream each pollfd belongs to. */
enum { RX_PFD_SIG, RX_PFD_STDIN, RX_PFD_STDIN_PIPE, RX_PFD_PMI, RX_PFD_OUT, RX_PFD_ERR,
       RX_PFD_LISTEN, RX_PFD_IDENT };
typedef struct { int kind; int rank; } rx_run_pfd_tag_t;

static void rx_run_loop(rx_run_job_t *job)
{
    size_t cap = 4 + RX_RUN_PENDING_MAX + 3 * (size_t)job->cap;
    struct pollfd *pfd = calloc(cap, sizeof *pfd);
    rx_run_pfd_tag_t *tag = calloc(cap, sizeof *tag);
    double drain_until = 0, deadline = job->opts->timeout_s > 0 ? rx_run_now() + job->opts->timeout_s : 0;
    if (!pfd || !tag) {
        rx_run_msg("out of memory");
        rx_run_set_exit(job, 1);
        rx_run_end_job(job);
    }

    while (pfd && tag && (job->nlive > 0 || rx_run_streams_open(job))) {
        double now = rx_run_now();
        if (job->nlive == 0) {
            if (drain_until == 0) {
                /* every rank is gone: anything still in their process groups
                 * goes too, so nothing of the job outlives it */
                rx_run_signal_groups(job, SIGKILL);
                drain_until = now + RX_RUN_DRAIN_S;
            } else if (now >= drain_until) {
                break;
            }
        }
        if (deadline > 0 && now >= deadline && !job->ending && job->nlive > 0) {
            rx_run_msg("the job ran longer than --timeout %g s; ending it", job->opts->timeout_s);
            rx_run_set_exit(job, RX_RUN_EXIT_TIMEOUT);
            rx_run_end_job(job);
        }
        if (job->listen_fd >= 0)
            rx_run_pmi_tcp_timeouts(job, now);
        rx_run_pmi_lost_check(job, now);
        if (job->pend_until > 0 && (now >= job->pend_until || job->nlive == 0))
            rx_run_fail_commit(job);
        if (job->ending && job->kill_at > 0 && now >= job->kill_at) {
            job->kill_sent = 1;
            rx_run_signal_groups(job, SIGKILL);
            job->kill_at = 0;
        }

        size_t n = 0;
#define RX_ADD(fd_, ev_, kind_, rank_)                                                            \
    do {                                                                                          \
        pfd[n] = (struct pollfd){.fd = (fd_), .events = (ev_)};                                   \
        tag[n++] = (rx_run_pfd_tag_t){(kind_), (rank_)};                                          \
    } while (0)
        RX_ADD(job->sigfd, POLLIN, RX_PFD_SIG, -1);
        if (job->stdin_pipe >= 0) {
            if (job->stdin_len > job->stdin_off)
                RX_ADD(job->stdin_pipe, POLLOUT, RX_PFD_STDIN_PIPE, -1);
            else if (job->stdin_open)
                RX_ADD(0, POLLIN, RX_PFD_STDIN, -1);
        }
        if (job->listen_fd >= 0 && !job->ending) {
            RX_ADD(job->listen_fd, POLLIN, RX_PFD_LISTEN, -1);
            for (int i = 0; i < RX_RUN_PENDING_MAX; i++)
                if (job->pend_conn[i].fd >= 0)
                    RX_ADD(job->pend_conn[i].fd, POLLIN, RX_PFD_IDENT, -2 - i);
        }
        for (int i = 0; i < job->n; i++) {
            rx_run_rank_t *r = &job->ranks[i];
            if (r->pmi_fd >= 0)
                RX_ADD(r->pmi_fd, POLLIN, RX_PFD_PMI, i);
            if (r->out.fd >= 0)
                RX_ADD(r->out.fd, POLLIN, RX_PFD_OUT, i);
            if (r->err.fd >= 0)
                RX_ADD(r->err.fd, POLLIN, RX_PFD_ERR, i);
        }
#undef RX_ADD
        double wake = -1;
        if (deadline > 0 && !job->ending)
            wake = deadline;
        if (job->ending && job->kill_at > 0 && (wake < 0 || job->kill_at < wake))
            wake = job->kill_at;
        if (drain_until > 0 && (wake < 0 || drain_until < wake))
            wake = drain_until;
        if (job->pend_until > 0 && (wake < 0 || job->pend_until < wake))
            wake = job->pend_until;
        if (job->lost_at > 0 && (wake < 0 || job->lost_at < wake))
            wake = job->lost_at;
        for (int i = 0; job->listen_fd >= 0 && i < RX_RUN_PENDING_MAX; i++)
            if (job->pend_conn[i].fd >= 0 && (wake < 0 || job->pend_conn[i].deadline < wake))
                wake = job->pend_conn[i].deadline;
        int timeout_ms = wake < 0 ? -1 : (int)((wake - now) * 1000) + 1;
        if (timeout_ms < -1)
            timeout_ms = 0;
        int ready = poll(pfd, n, timeout_ms);
        if (ready < 0) {
            if (errno == EINTR)
                continue;
            rx_run_msg("poll: %s", strerror(errno));
            rx_run_set_exit(job, 1);
            rx_run_end_job(job);
            break;
        }
        for (size_t k = 0; k < n && ready > 0; k++) {
            if (!pfd[k].revents)
                continue;
            rx_run_rank_t *r = tag[k].rank >= 0 ? &job->ranks[tag[k].rank] : NULL;
            switch (tag[k].kind) {
            case RX_PFD_LISTEN: rx_run_pmi_tcp_accept(job); break;
            case RX_PFD_IDENT: {
                rx_run_pend_conn_t *c = &job->pend_conn[-2 - tag[k].rank];
                if (c->fd == pfd[k].fd)
                    rx_run_pmi_tcp_ident(job, c);
                break;
            }
            case RX_PFD_SIG: rx_run_signal(job); break;
            case RX_PFD_STDIN: rx_run_stdin_input(job); break;
            case RX_PFD_STDIN_PIPE: rx_run_stdin_output(job); break;
            /* the descriptor may have been closed by an earlier event of this round */
            case RX_PFD_PMI: if (r->pmi_fd == pfd[k].fd) rx_run_pmi_input(job, r); break;
            case RX_PFD_OUT: if (r->out.fd == pfd[k].fd) rx_run_stream_input(job, r, &r->out); break;
            case RX_PFD_ERR: if (r->err.fd == pfd[k].fd) rx_run_stream_input(job, r, &r->err); break;
            }
        }
    }
    /* Output of a process that outlived the drain time: flush what we have. */
    for (int i = 0; i < job->n; i++) {
        rx_run_rank_t *r = &job->ranks[i];
        if (r->out.fd >= 0) {
            close(r->out.fd);
            r->out.fd = -1;
            rx_run_stream_input(job, r, &r->out);
        }
        if (r->err.fd >= 0) {
            close(r->err.fd);
            r->err.fd = -1;
            rx_run_stream_input(job, r, &r->err);
        }
    }
    free(pfd);
    free(tag);
}

int rx_run_job(const rx_run_opts_t *opts)
{
    static rx_run_job_t job; /* large (stdin buffer), one per process */
    rx_run_fix_std_fds();
    if (rx_run_setup(&job, opts) == RX_OK && rx_run_start_ranks(&job) == RX_OK) {
        rx_run_loop(&job);
    } else {
        /* a start failed: the loop still reaps whatever was started */
        if (!job.have_exit)
            rx_run_set_exit(&job, 1);
        if (job.ranks && job.sigfd >= 0)
            rx_run_loop(&job);
    }

    rx_run_fail_commit(&job);
    /* Whatever happened: no process of the job and no segment of it remains. */
    pid_t *pgids = calloc((size_t)job.n + 1, sizeof *pgids);
    int ng = 0;
    for (int i = 0; pgids && job.ranks && i < job.n; i++)
        if (job.ranks[i].pid > 0)
            pgids[ng++] = job.ranks[i].pid;
    rx_run_kill_groups(pgids, ng);
    free(pgids);
    rx_run_pmi_tcp_close(&job);
    rx_run_sweep_shm(job.jobid);
    rx_run_watchdog_done(&job);
    for (int s = 1; s < job.nsub; s++)
        rx_kvs_destroy(job.subs[s].kvs);
    rx_kvs_destroy(job.kvs);
    rx_run_names_free(&job);
    return job.have_exit ? job.exit_code : 0;
}
