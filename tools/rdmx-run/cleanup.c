/* SPDX-License-Identifier: MIT
 * Nothing of a job may outlive it, even when the launcher is killed with
 * SIGKILL. Each rank has PR_SET_PDEATHSIG=SIGKILL, which ends the rank itself
 * but not what it started, and a rank killed that way cannot unlink its
 * shared-memory segments. So a small watchdog process, forked first, holds the
 * read end of a pipe from the launcher and learns each rank's process group.
 * When the pipe reaches end-of-file without the launcher's "done" mark, the
 * launcher is gone: the watchdog kills the groups, waits for them to vanish and
 * removes /dev/shm/<jobid>-*. */
#include "run.h"
#include "util/status.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RX_RUN_WATCHDOG_DONE ((int32_t)-1)

/* Whether a process of one of the groups still runs. A zombie does not
 * count: it holds no memory and creates nothing, and once the launcher is
 * gone the ranks' zombies wait for whoever adopted them, which may reap them
 * late or never; waiting for them held the sweep up to its time limit. */
static int rx_run_groups_live(const pid_t *pgids, int n)
{
    int any = 0;
    for (int i = 0; i < n && !any; i++)
        any = kill(-pgids[i], 0) == 0;
    if (!any)
        return 0;
    DIR *d = opendir("/proc");
    if (!d)
        return 1;
    int live = 0;
    struct dirent *e;
    while (!live && (e = readdir(d))) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        char path[300], buf[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        ssize_t len = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (len <= 0)
            continue;
        buf[len] = 0;
        /* "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses */
        char *p = strrchr(buf, ')');
        char state;
        int ppid, pgrp;
        if (!p || sscanf(p + 1, " %c %d %d", &state, &ppid, &pgrp) != 3 || state == 'Z' ||
            state == 'X')
            continue;
        for (int i = 0; i < n; i++)
            if (pgrp == pgids[i])
                live = 1;
    }
    closedir(d);
    return live;
}

void rx_run_kill_groups(const pid_t *pgids, int n)
{
    for (int i = 0; i < n; i++)
        kill(-pgids[i], SIGKILL);
    /* A killed process may still be inside a system call (creating a segment,
     * say); waiting until the groups are empty makes the sweep that follows
     * final. Reap what is ours. */
    double until = rx_run_now() + 1.5;
    for (;;) {
        for (int i = 0; i < n; i++)
            while (waitpid(-pgids[i], NULL, WNOHANG) > 0)
                ;
        if (!rx_run_groups_live(pgids, n) || rx_run_now() >= until)
            return;
        struct timespec ts = {0, 2 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

void rx_run_sweep_shm(const char *jobid)
{
    char prefix[80];
    int plen = snprintf(prefix, sizeof prefix, "%s-", jobid);
    DIR *d = opendir("/dev/shm");
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)))
        if (!strncmp(e->d_name, prefix, (size_t)plen))
            unlinkat(dirfd(d), e->d_name, 0);
    closedir(d);
}

static void rx_run_watchdog_main(int fd, const char *jobid)
{
    /* Outside the launcher's process group, so that the terminal's job
     * control and signals for the launcher's group do not reach it, and with
     * no terminal output: it must never keep a reader of the launcher's
     * output waiting. */
    setpgid(0, 0);
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
        if (null > 2)
            close(null);
    }
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);

    pid_t *pgids = NULL;
    int n = 0, cap = 0;
    for (;;) {
        int32_t v;
        ssize_t r = read(fd, &v, sizeof v);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == (ssize_t)sizeof v && v == RX_RUN_WATCHDOG_DONE)
            _exit(0);
        if (r != (ssize_t)sizeof v)
            break; /* end of file: the launcher died */
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            pid_t *np = realloc(pgids, (size_t)cap * sizeof *np);
            if (!np)
                break;
            pgids = np;
        }
        pgids[n++] = (pid_t)v;
    }
    rx_run_kill_groups(pgids, n);
    rx_run_sweep_shm(jobid);
    _exit(0);
}

int rx_run_watchdog_start(rx_run_job_t *job)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0) {
        rx_run_msg("pipe: %s", strerror(errno));
        return RX_ERR_IO;
    }
    pid_t pid = fork();
    if (pid < 0) {
        rx_run_msg("fork: %s", strerror(errno));
        close(p[0]);
        close(p[1]);
        return RX_ERR_IO;
    }
    if (pid == 0) {
        close(p[1]);
        close(job->sigfd);
        rx_run_watchdog_main(p[0], job->jobid);
    }
    close(p[0]);
    job->watchdog_fd = p[1];
    job->watchdog_pid = pid;
    return RX_OK;
}

static void rx_run_watchdog_send(rx_run_job_t *job, int32_t v)
{
    if (job->watchdog_fd < 0)
        return;
    ssize_t n;
    do
        n = write(job->watchdog_fd, &v, sizeof v);
    while (n < 0 && errno == EINTR);
    if (n != (ssize_t)sizeof v) {
        /* the watchdog is gone: the ranks' PR_SET_PDEATHSIG still holds */
        close(job->watchdog_fd);
        job->watchdog_fd = -1;
    }
}

void rx_run_watchdog_add(rx_run_job_t *job, pid_t pgid)
{
    rx_run_watchdog_send(job, (int32_t)pgid);
}

void rx_run_watchdog_done(rx_run_job_t *job)
{
    rx_run_watchdog_send(job, RX_RUN_WATCHDOG_DONE);
    if (job->watchdog_fd >= 0)
        close(job->watchdog_fd);
    job->watchdog_fd = -1;
    if (job->watchdog_pid > 0)
        while (waitpid(job->watchdog_pid, NULL, 0) < 0 && errno == EINTR)
            ;
    job->watchdog_pid = -1;
}
