/* SPDX-License-Identifier: MIT
 * Starting one rank. Between fork and exec the child only rearranges its
 * descriptors, environment, signal state and CPU binding: the launcher is
 * single-threaded, so that is safe. */
#include "run.h"
#include "util/status.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static void rx_run_setenv_int(const char *name, long v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%ld", v);
    setenv(name, buf, 1);
}

/* A niced launch stays niced towards other sessions: a new session has a
 * new autogroup of nice 0, where the task's own nice value only ranks it
 * against the tasks of that group. Raising a group's nice needs no
 * privilege; without autogroups the file is absent and nothing changes. */
static void rx_run_keep_nice(void)
{
    errno = 0;
    int prio = getpriority(PRIO_PROCESS, 0);
    if (prio <= 0 || errno)
        return;
    int fd = open("/proc/self/autogroup", O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    char buf[16];
    int len = snprintf(buf, sizeof buf, "%d", prio);
    ssize_t w = write(fd, buf, (size_t)len);
    (void)w;
    close(fd);
}

/* In the child: never returns. */
static void rx_run_child(rx_run_job_t *job, rx_run_rank_t *r, pid_t launcher, int stdin_fd,
                         int pmi_fd, int out_fd, int err_fd, int report_fd)
{
    /* Its own session, and so its own process group: signals for the rank
     * reach what it starts, and a Ctrl-C in the terminal reaches only the
     * launcher, which forwards it. The session matters to the scheduler:
     * with autogroups (Linux's default on desktops and many servers) CPU
     * time is shared out between sessions, so ranks left in the launcher's
     * session would weigh together as much as one process of any other
     * session on a busy machine (hydra starts each rank in its own session
     * too). setsid fails only for a group leader, which this child is not:
     * the launcher does not set its group. */
    if (setsid() < 0)
        setpgid(0, 0);
    rx_run_keep_nice();
    /* If the launcher dies, even by SIGKILL, the rank dies with it. The check
     * closes the window where the launcher died before prctl. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != launcher)
        _exit(1);

    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL); /* ignored dispositions would survive exec */

    if (stdin_fd < 0)
        stdin_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (stdin_fd < 0 || dup2(stdin_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0)
        goto fail;
    const rx_run_sub_t *sub = &job->subs[r->sub];
    rx_run_setenv_int("PMI_RANK", r->rank);
    rx_run_setenv_int("PMI_SIZE", sub->n);
    if (job->host_of && r->sub == 0) {
        int h = job->host_of[r->rank], lr = 0;
        for (int i = 0; i < r->rank; i++)
            lr += job->host_of[i] == h;
        rx_run_setenv_int("MPI_LOCALNRANKS", job->host_nlocal[h]);
        rx_run_setenv_int("MPI_LOCALRANKID", lr);
    } else {
        rx_run_setenv_int("MPI_LOCALNRANKS", sub->n);
        rx_run_setenv_int("MPI_LOCALRANKID", r->rank);
    }
    setenv("RDMX_JOBID", sub->jobid, 1);
    /* this host's CPUs, for local ranks only: remote hosts have their own */
    unsetenv("RDMX_SPARE_CPUS");
    unsetenv("RDMX_NODE_CPUS");
    if (!r->remote) {
        if (job->spare_cpus[0])
            setenv("RDMX_SPARE_CPUS", job->spare_cpus, 1);
        cpu_set_t mine;
        int ncpu = job->rank_cpus;
        if (ncpu <= 0 && sched_getaffinity(0, sizeof mine, &mine) == 0)
            ncpu = CPU_COUNT(&mine); /* unbound: the launcher's own CPU set */
        if (r->sub > 0) {
            /* a spawned job shares the host with the ranks still running: its
             * ranks learn they are oversubscribed when these CPUs are taken */
            for (int i = 0; i < sub->base; i++)
                ncpu -= !job->ranks[i].exited && !job->ranks[i].remote;
            if (ncpu < 1)
                ncpu = 1;
        }
        if (ncpu > 0)
            rx_run_setenv_int("RDMX_NODE_CPUS", ncpu);
    }
    if (r->remote) {
        /* no inherited channel: the rank connects back over TCP */
        unsetenv("PMI_FD");
        setenv("PMI_PORT", job->pmi_port, 1);
        rx_run_setenv_int("PMI_ID", r->rank);
        if (job->opts->launch_tmpl)
            setenv("RDMX_PMI_SECRET", job->secret, 1);
        else
            unsetenv("RDMX_PMI_SECRET"); /* ssh: on stdin (rx_run_secret_stdin) */
        char **argv = rx_run_launch_argv(job, r->rank);
        if (!argv) {
            errno = E2BIG;
            goto fail;
        }
        execvp(argv[0], argv);
        goto fail;
    }
    if (fcntl(pmi_fd, F_SETFD, 0) < 0) /* the one descriptor the program inherits */
        goto fail;
    rx_run_setenv_int("PMI_FD", pmi_fd);

    if (job->bind_sets && r->sub == 0 &&
        sched_setaffinity(0, sizeof job->bind_sets[r->rank], &job->bind_sets[r->rank]) < 0)
        goto fail;

    char **argv = r->argv ? r->argv : job->opts->argv;
    execvp(argv[0], argv);
fail:;
    int err = errno;
    ssize_t w = write(report_fd, &err, sizeof err);
    (void)w;
    _exit(127);
}

/* ssh carries no environment, and a variable in the remote command would be
 * on command lines: a rank started by ssh reads the job's secret from the
 * first line of its stdin (hosts.c). Rank 0's stdin is the launcher's own,
 * forwarded through job->stdin_pipe, where nothing has been written yet: the
 * line goes first. The others get a pipe holding the line, then EOF.
 * Returns the rank's stdin (*own: the descriptor to close after the fork). */
static int rx_run_secret_stdin(rx_run_job_t *job, int stdin_fd, int *own)
{
    char line[sizeof job->secret + 1];
    int len = snprintf(line, sizeof line, "%s\n", job->secret);
    if (stdin_fd >= 0)
        return write(job->stdin_pipe, line, (size_t)len) == len ? stdin_fd : -1;
    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0)
        return -1;
    /* shorter than PIPE_BUF into an empty pipe: written whole at once */
    if (write(p[1], line, (size_t)len) != len) {
        close(p[0]);
        close(p[1]);
        return -1;
    }
    close(p[1]);
    *own = p[0];
    return p[0];
}

int rx_run_spawn(rx_run_job_t *job, rx_run_rank_t *r, int stdin_fd)
{
    int sv[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1}, rep[2] = {-1, -1}, own_in = -1;
    if (r->remote && !job->opts->launch_tmpl &&
        (stdin_fd = rx_run_secret_stdin(job, stdin_fd, &own_in)) < 0) {
        rx_run_msg("starting rank %d: passing the secret: %s", r->rank, strerror(errno));
        goto fail;
    }
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0 || pipe2(out, O_CLOEXEC) < 0 ||
        pipe2(err, O_CLOEXEC) < 0 || pipe2(rep, O_CLOEXEC) < 0) {
        rx_run_msg("starting rank %d: %s", r->rank, strerror(errno));
        goto fail;
    }
    pid_t launcher = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        rx_run_msg("starting rank %d: fork: %s", r->rank, strerror(errno));
        goto fail;
    }
    if (pid == 0)
        rx_run_child(job, r, launcher, stdin_fd, sv[1], out[1], err[1], rep[1]);

    /* The rank's group (its session, made before exec) exists once the
     * report pipe below has closed: nothing signals the group before that. */
    r->pid = pid;
    if (own_in >= 0)
        close(own_in); /* the rank has it */
    close(sv[1]);
    close(out[1]);
    close(err[1]);
    close(rep[1]);

    /* The report pipe closes at a successful exec; an errno arrives otherwise. */
    int child_err = 0;
    ssize_t n;
    do
        n = read(rep[0], &child_err, sizeof child_err);
    while (n < 0 && errno == EINTR);
    close(rep[0]);
    if (n == (ssize_t)sizeof child_err) {
        int ws;
        while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
            ;
        r->exited = 1;
        r->wstatus = ws;
        close(sv[0]);
        close(out[0]);
        close(err[0]);
        return child_err > 0 ? child_err : RX_ERR_IO;
    }

    if (r->remote) {
        close(sv[0]); /* its PMI connection arrives over TCP */
    } else {
        r->pmi_fd = sv[0];
        fcntl(sv[0], F_SETFL, O_NONBLOCK);
    }
    if (rx_run_stream_init(&r->out, out[0], 1) != RX_OK ||
        rx_run_stream_init(&r->err, err[0], 2) != RX_OK) {
        rx_run_msg("out of memory");
        /* it runs: leave it to the loop, which ends the job */
        return RX_ERR_NOMEM;
    }
    return RX_OK;

fail:
    if (own_in >= 0)
        close(own_in);
    for (int i = 0; i < 2; i++) {
        if (sv[i] >= 0) close(sv[i]);
        if (out[i] >= 0) close(out[i]);
        if (err[i] >= 0) close(err[i]);
        if (rep[i] >= 0) close(rep[i]);
    }
    return RX_ERR_IO;
}
