/* SPDX-License-Identifier: MIT
 * rdmx-run internals. One single-threaded process: it forks the ranks, serves
 * their PMI-1 requests, forwards their output line by line and stdin to rank 0,
 * watches them die, and ends the job when one fails.
 *
 *   main.c     options, --help, --info, --version
 *   job.c      the event loop, rank deaths, ending the job, exit status
 *   spawn.c    fork/exec of one rank: descriptors, environment, binding
 *   bind.c     --bind-to core: the per-rank CPU sets, from hwloc
 *   pmi_serve.c the PMI-1 "simple" server over each rank's socketpair
 *   pmi_spawn.c MPI_Comm_spawn's jobs (PMI mcmd=spawn) and the name service
 *   pmi_tcp.c  the same server over TCP for ranks on other hosts (PMI_PORT)
 *   hosts.c    --hosts / --hostfile, placement, the remote launch command
 *   iofwd.c    stdout/stderr lines out, stdin in
 *   cleanup.c  the watchdog that outlives a killed launcher; /dev/shm sweep */
#ifndef RX_RUN_H
#define RX_RUN_H

#include <sched.h> /* cpu_set_t: built with _GNU_SOURCE */
#include <stddef.h>
#include <sys/types.h>

#include "boot/kvs.h"
#include "boot/pmi1_wire.h"

#define RX_RUN_NAME "rdmx-run"
#define RX_RUN_LINE_CAP (1 << 20) /* a longer line is forwarded in pieces */

/* Exit statuses of the launcher's own failures (a rank's status otherwise). */
enum {
    RX_RUN_EXIT_USAGE = 2,     /* bad option, unsupported feature */
    RX_RUN_EXIT_TIMEOUT = 124, /* --timeout expired, as timeout(1) */
    RX_RUN_EXIT_NOEXEC = 126,  /* program found but not executable */
    RX_RUN_EXIT_NOTFOUND = 127 /* program not found */
};

#define RX_RUN_HOST_MAX 256
/* TCP connections waiting to identify themselves as ranks (pmi_tcp.c): when
 * all places are taken, a new one pushes out the oldest */
#define RX_RUN_PENDING_MAX 512

typedef struct rx_run_host {
    char name[RX_RUN_HOST_MAX];
    int slots;
} rx_run_host_t;

typedef struct rx_run_opts {
    int nprocs;
    int nprocs_set;       /* -n given */
    rx_run_host_t *hosts; /* --hosts / --hostfile; NULL: everything here */
    int nhosts;
    int ppn;              /* -ppn: ranks per host (0: the hosts' slots) */
    const char *launch_tmpl; /* --launcher-exec / RDMX_LAUNCH; NULL: ssh */
    const char *pmi_addr; /* --pmi-addr: where remote ranks reach the launcher */
    const char **fwd_env; /* names set by -x / -genv, passed through ssh */
    int nfwd_env;
    int bind_core;        /* --bind-to: 1 core, 0 none, -1 default (core when the ranks fit) */
    int report_bindings;
    int offload_cores;    /* --offload-cores: last usable cores kept for offload threads */
    int tag_output;
    double timeout_s;     /* 0: none */
    char **argv;          /* program and its arguments, NULL-terminated */
} rx_run_opts_t;

/* One output stream of one rank, forwarded whole lines at a time. */
typedef struct rx_run_stream {
    int fd;               /* read end of the rank's pipe, -1 once at EOF */
    int out_fd;           /* 1 or 2: where the launcher writes it */
    int midline;          /* the last write ended inside a line (no tag next) */
    char *buf;
    size_t len, cap;
} rx_run_stream_t;

/* Spawned processes the launcher takes on in all, and spawns: the rank
 * table is allocated for them up front, so rank pointers stay valid. */
#define RX_RUN_SPAWN_MAX 512
#define RX_RUN_SUBS_MAX 64

/* A job of ranks started together: the one of the command line (0), then
 * one per spawn request (MPI_Comm_spawn), each with its own ranks 0..n-1,
 * key-value store, PMI barrier and job id ("<first job id>-s<k>", so the
 * /dev/shm sweep of the first job covers its segments). */
typedef struct rx_run_sub {
    char jobid[64];
    rx_kvs_t *kvs;
    int base, n;          /* its ranks: job->ranks[base .. base + n) */
    int barrier_count;
} rx_run_sub_t;

struct rx_run_spawn_req;

typedef struct rx_run_rank {
    int rank;             /* in its own job (sub) */
    int sub, appnum;
    char **argv;          /* program and arguments of a spawned rank (NULL: the command line's) */
    struct rx_run_spawn_req *spawn_req; /* a spawn request being received */
    pid_t pid;            /* also its process group id */
    int pmi_fd;           /* launcher's end of the socketpair, -1 when closed */
    size_t pmi_len;
    char pmi_buf[RX_PMI1_LINE_MAX];
    rx_run_stream_t out, err;
    int initialized, finalized, in_barrier;
    int remote;           /* started through the launch command, PMI over TCP */
    int pmi_tcp;          /* pmi_fd is an identified TCP connection */
    int pmi_lost;         /* that connection failed before PMI finalize */
    int lost_err;         /* its errno (0: closed) */
    int aborted;          /* sent cmd=abort */
    int exited, wstatus;
} rx_run_rank_t;

/* An accepted TCP connection not yet identified as a rank. */
typedef struct rx_run_pend_conn {
    int fd;
    size_t len;
    double deadline;
    char buf[256];
} rx_run_pend_conn_t;

typedef struct rx_run_job {
    const rx_run_opts_t *opts;
    int n;                /* ranks of every job started so far */
    int cap;              /* entries of ranks */
    rx_run_rank_t *ranks;
    rx_run_sub_t subs[RX_RUN_SUBS_MAX];
    int nsub;
    struct rx_run_name *names; /* the name service (MPI_Publish_name) */
    char jobid[64];
    rx_kvs_t *kvs;        /* the first job's (subs[0].kvs) */
    int nlive;            /* ranks not yet reaped */
    int ending;           /* SIGTERM sent; SIGKILL at kill_at */
    double kill_at;
    int kill_sent;        /* SIGKILL was sent */
    int fwd_sig;          /* the signal forwarded from the launcher, if any */
    double pend_until;    /* a failure waits to be reported until then (0: none) */
    int pend_code;
    char pend_msg[320];
    int exit_code, have_exit;
    int sigfd;
    cpu_set_t *bind_sets; /* per rank when --bind-to core, else NULL */
    char spare_cpus[256]; /* usable CPUs no rank is bound to (RDMX_SPARE_CPUS), or "" */
    int rank_cpus;        /* CPUs the local ranks run on together when bound (RDMX_NODE_CPUS), 0: not bound */
    /* stdin of the launcher, forwarded to rank 0 */
    int stdin_open;       /* still reading fd 0 */
    int stdin_pipe;       /* write end to rank 0, -1 when closed */
    size_t stdin_len, stdin_off;
    char stdin_buf[65536];
    int watchdog_fd;
    pid_t watchdog_pid;
    /* multi-host */
    int *host_of;         /* host index of each rank (with --hosts) */
    int *host_nlocal;     /* ranks per host */
    int any_remote;
    int listen_fd;        /* PMI over TCP, -1 when no rank is remote */
    char pmi_port[64];    /* "addr:port" given to remote ranks */
    char secret[40];      /* the job's secret, hex */
    rx_run_pend_conn_t pend_conn[RX_RUN_PENDING_MAX];
    double lost_at;       /* when to act on lost PMI connections (0: none) */
} rx_run_job_t;

double rx_run_now(void);
/* Print "rdmx-run: ..." to the launcher's stderr as one write. */
void rx_run_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* job.c */
int rx_run_job(const rx_run_opts_t *opts);
/* "" for a rank of the first job, " of spawned job K" for the others (a
 * static buffer: one use per message) */
const char *rx_run_of_job(const rx_run_rank_t *r);
/* Record the job's exit status if none was recorded yet. */
void rx_run_set_exit(rx_run_job_t *job, int code);
/* SIGTERM every rank now, SIGKILL one second later. */
void rx_run_end_job(rx_run_job_t *job);
/* A rank failed without a signal (abort, exit before finalize, skipped
 * barrier): end the job now, and report it and take its exit status after a
 * short grace period, unless a rank is found killed by a signal meanwhile —
 * the usual cause of such failures, reported in their place. */
void rx_run_fail(rx_run_job_t *job, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* End the job if a PMI barrier can no longer complete. */
void rx_run_barrier_check(rx_run_job_t *job);

/* spawn.c: start rank r; stdin_fd is dup'ed to its fd 0 (-1: /dev/null).
 * Returns RX_OK, or the exec errno as a positive number with the rank reaped. */
int rx_run_spawn(rx_run_job_t *job, rx_run_rank_t *r, int stdin_fd);

/* bind.c: per-rank CPU sets, round-robin over the cores this process may use.
 * only_if_fits: bind only when every rank gets a core of its own (else leave
 * job->bind_sets NULL and return RX_OK). */
int rx_run_bind_plan(rx_run_job_t *job, int report, int only_if_fits);

/* pmi_serve.c */
void rx_run_pmi_input(rx_run_job_t *job, rx_run_rank_t *r);
/* Serve the complete request lines in r->pmi_buf. */
void rx_run_pmi_lines(rx_run_job_t *job, rx_run_rank_t *r);
/* A remote rank's PMI connection failed before finalize: end the job unless
 * the rank's own exit explains it first. */
void rx_run_pmi_lost_check(rx_run_job_t *job, double now);

/* pmi_spawn.c: a line of a multi-line request (mcmd=spawn ... endcmd);
 * name service requests */
void rx_run_pmi_spawn_line(rx_run_job_t *job, rx_run_rank_t *r, const char *line);
void rx_run_pmi_names(rx_run_job_t *job, rx_run_rank_t *r, const char *cmd, const char *line);
void rx_run_names_free(rx_run_job_t *job);
void rx_run_pmi_reply(rx_run_rank_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* pmi_tcp.c */
int rx_run_pmi_tcp_open(rx_run_job_t *job);
void rx_run_pmi_tcp_accept(rx_run_job_t *job);
void rx_run_pmi_tcp_ident(rx_run_job_t *job, rx_run_pend_conn_t *c);
void rx_run_pmi_tcp_timeouts(rx_run_job_t *job, double now);
void rx_run_pmi_tcp_close(rx_run_job_t *job);

/* hosts.c */
int rx_run_hosts_parse_list(rx_run_opts_t *o, const char *list);
int rx_run_hosts_parse_file(rx_run_opts_t *o, const char *path);
/* Set job->n and each rank's host (block placement over the slots). */
int rx_run_hosts_place(rx_run_job_t *job);
int rx_run_rank_is_remote(const rx_run_job_t *job, int rank);
void rx_run_process_mapping(const rx_run_job_t *job, char *buf, size_t len);
/* The command starting a remote rank (static storage; NULL when too long). */
char **rx_run_launch_argv(const rx_run_job_t *job, int rank);
void rx_run_pmi_close(rx_run_rank_t *r);

/* iofwd.c */
int rx_run_stream_init(rx_run_stream_t *s, int fd, int out_fd);
/* Read what is available; forward whole lines. At EOF flush the rest and close. */
void rx_run_stream_input(rx_run_job_t *job, rx_run_rank_t *r, rx_run_stream_t *s);
void rx_run_stdin_input(rx_run_job_t *job);
void rx_run_stdin_output(rx_run_job_t *job);
void rx_run_stdin_close(rx_run_job_t *job);

/* cleanup.c */
int rx_run_watchdog_start(rx_run_job_t *job);
void rx_run_watchdog_add(rx_run_job_t *job, pid_t pgid);
void rx_run_watchdog_done(rx_run_job_t *job);
/* SIGKILL the process groups and wait (up to 2 s) until they are gone. */
void rx_run_kill_groups(const pid_t *pgids, int n);
/* Remove /dev/shm/<jobid>-*. */
void rx_run_sweep_shm(const char *jobid);

#endif
