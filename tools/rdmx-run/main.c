/* SPDX-License-Identifier: MIT
 * rdmx-run: start an MPI job on this host. Options follow MPICH's hydra and
 * Open MPI's mpirun; each may be written with one dash or two, and a value may
 * follow as the next argument or after '='. */
#include "run.h"
#include "sched/sched.h"
#include "util/config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef RDMX_VERSION
#define RDMX_VERSION "unknown"
#endif

double rx_run_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void rx_run_msg(const char *fmt, ...)
{
    char buf[1024];
    int n = snprintf(buf, sizeof buf, RX_RUN_NAME ": ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, sizeof buf - n - 1, fmt, ap);
    va_end(ap);
    size_t len = strlen(buf);
    buf[len++] = '\n';
    /* one write: the message never splits a line of the ranks' output */
    ssize_t w = write(2, buf, len);
    (void)w;
}

static void rx_run_usage(FILE *out)
{
    fprintf(out,
        "Usage: " RX_RUN_NAME " [options] PROGRAM [ARGS...]\n"
        "Start PROGRAM as an MPI job of N ranks on this host or on the hosts given (also\n"
        "installed as mpiexec, mpirun).\n"
        "\n"
        "  -n, -np N              number of ranks (default 1); more ranks than cores is allowed\n"
        "  -x VAR[=VAL]           pass VAR to the ranks, set to VAL when given (the whole\n"
        "                         environment of rdmx-run is passed anyway)\n"
        "  -genv VAR VAL          set VAR=VAL in every rank (-env is the same)\n"
        "  --bind-to none|core    bind each rank to one core, round-robin over the cores\n"
        "                         (default: core when 2 or more local ranks fit the cores)\n"
        "                         rdmx-run may use (default none)\n"
        "  --report-bindings      print each rank's binding\n"
        "  --offload-cores K      keep the last K usable cores for the ranks' offload\n"
        "                         threads (RDMX_COLL_OFFLOAD, set to auto unless given);\n"
        "                         the ranks run on the other cores\n"
        "  --oversubscribe        accepted for compatibility (always allowed)\n"
        "  --timeout SECONDS      end the job after SECONDS; exit status 124\n"
        "                         (default: $MPIEXEC_TIMEOUT, else none)\n"
        "  --tag-output, -l       prefix every output line with \"[rank] \"\n"
        "  --hosts H1[:N],H2...   run on these hosts (N slots each, default 1)\n"
        "  --hostfile, -f FILE    hosts from FILE: \"host\", \"host:N\" or \"host slots=N\"\n"
        "  -ppn N                 N ranks per host (default: the hosts' slots); -n defaults\n"
        "                         to the total; ranks fill each host in turn\n"
        "  --launcher-exec CMD    start remote ranks with CMD, {host} replaced, the program\n"
        "                         appended (e.g. 'ip netns exec {host}'); default: ssh\n"
        "                         (also $RDMX_LAUNCH)\n"
        "  --pmi-addr ADDR        IPv4 address remote ranks reach rdmx-run at (default:\n"
        "                         the first non-loopback one)\n"
        "  --info                 list every RDMX_* variable with its default and meaning\n"
        "  -h, --help             this text\n"
        "  --version              print the version\n"
        "\n"
        "stdin goes to rank 0; the others read /dev/null. Output is forwarded whole lines\n"
        "at a time. Exit status: 0 when every rank exits 0, else the first failing rank's\n"
        "(128+N for a death by signal N). When a rank dies by a signal, calls MPI_Abort or\n"
        "exits between MPI_Init and MPI_Finalize, the others are ended within 2 seconds.\n");
}

static int rx_run_usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, RX_RUN_NAME ": ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n" RX_RUN_NAME ": see '" RX_RUN_NAME " --help'\n");
    return RX_RUN_EXIT_USAGE;
}

static int rx_run_parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int rx_run_parse_seconds(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v > 0) || v > 1e9)
        return -1;
    *out = v;
    return 0;
}

/* Names set with -x / -genv travel to remote ranks explicitly (ssh). */
static int rx_run_fwd_env(rx_run_opts_t *o, const char *var)
{
    const char **f = realloc(o->fwd_env, sizeof *f * (size_t)(o->nfwd_env + 1));
    char *copy = strdup(var);
    if (!f || !copy) {
        free(copy);
        fprintf(stderr, RX_RUN_NAME ": out of memory\n");
        return 1;
    }
    o->fwd_env = f;
    o->fwd_env[o->nfwd_env++] = copy;
    return 0;
}

static int rx_run_setenv_pair(const char *var, const char *val)
{
    if (!*var || strchr(var, '='))
        return rx_run_usage_error("bad environment variable name '%s'", var);
    if (setenv(var, val, 1)) {
        fprintf(stderr, RX_RUN_NAME ": setenv %s: %s\n", var, strerror(errno));
        return 1;
    }
    return 0;
}

/* Parse argv into opts. Returns -1 to go on, else the exit status. */
static int rx_run_parse(int argc, char **argv, rx_run_opts_t *o)
{
    const char *t = getenv("MPIEXEC_TIMEOUT");
    o->nprocs = 1;
    if (t && *t && rx_run_parse_seconds(t, &o->timeout_s))
        return rx_run_usage_error("MPIEXEC_TIMEOUT='%s' is not a number of seconds", t);

    int i = 1;
    while (i < argc) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (a[0] != '-' || !a[1])
            break;
        /* "--name=value" and "-name" are the same option as "--name value" */
        char name[64];
        const char *inl = NULL;
        const char *p = a + 1 + (a[1] == '-');
        const char *eq = strchr(p, '=');
        size_t nlen = eq ? (size_t)(eq - p) : strlen(p);
        if (nlen >= sizeof name)
            return rx_run_usage_error("unknown option '%s'", a);
        memcpy(name, p, nlen);
        name[nlen] = 0;
        if (eq)
            inl = eq + 1;
#define RX_VALUE()                                                                              \
    (inl ? inl : (i + 1 < argc ? argv[++i] : NULL))
#define RX_IS(s) (!strcmp(name, s))
        const char *v;
        if (RX_IS("h") || RX_IS("help")) {
            rx_run_usage(stdout);
            return 0;
        } else if (RX_IS("version") || RX_IS("V")) {
            printf(RX_RUN_NAME " (rdmx) %s\n", RDMX_VERSION);
            return 0;
        } else if (RX_IS("info")) {
            printf("RDMX_* environment variables read by the ranks (type, default, current value):\n\n");
            rx_config_print(stdout);
            printf("\nAlgorithms RDMX_COLL_<KIND> can name (besides auto and shm):\n\n");
            rx_sched_algos_print(stdout);
            return 0;
        } else if (RX_IS("n") || RX_IS("np") || RX_IS("c")) {
            long n;
            if (!(v = RX_VALUE()) || rx_run_parse_int(v, 1, 100000, &n))
                return rx_run_usage_error("-n needs a number of ranks from 1 to 100000, got '%s'", v ? v : "");
            o->nprocs = (int)n;
            o->nprocs_set = 1;
        } else if (RX_IS("x")) {
            if (!(v = RX_VALUE()))
                return rx_run_usage_error("%s needs VAR or VAR=VALUE", a);
            const char *veq = strchr(v, '=');
            if (veq) {
                char var[256];
                if ((size_t)(veq - v) >= sizeof var)
                    return rx_run_usage_error("variable name too long in '%s'", v);
                memcpy(var, v, (size_t)(veq - v));
                var[veq - v] = 0;
                if (rx_run_setenv_pair(var, veq + 1) || rx_run_fwd_env(o, var))
                    return RX_RUN_EXIT_USAGE;
            } else if (!*v) {
                return rx_run_usage_error("%s needs VAR or VAR=VALUE", a);
            } else if (rx_run_fwd_env(o, v)) {
                /* VAR alone: local ranks inherit it anyway; remote ones get it */
                return RX_RUN_EXIT_USAGE;
            }
        } else if (RX_IS("genv") || RX_IS("env")) {
            const char *var = RX_VALUE();
            const char *val = var && i + 1 < argc ? argv[++i] : NULL;
            if (!var || !val)
                return rx_run_usage_error("%s needs VAR VALUE", a);
            if (rx_run_setenv_pair(var, val) || rx_run_fwd_env(o, var))
                return RX_RUN_EXIT_USAGE;
        } else if (RX_IS("genvall") || RX_IS("oversubscribe") || RX_IS("allow-run-as-root")) {
            /* accepted for compatibility: already the behaviour */
        } else if (RX_IS("bind-to") || RX_IS("binding")) {
            if (!(v = RX_VALUE()))
                return rx_run_usage_error("%s needs none or core", a);
            if (!strcmp(v, "none"))
                o->bind_core = 0;
            else if (!strcmp(v, "core"))
                o->bind_core = 1;
            else
                return rx_run_usage_error("--bind-to '%s' is not supported (none or core)", v);
        } else if (RX_IS("report-bindings")) {
            o->report_bindings = 1;
        } else if (RX_IS("offload-cores")) {
            char *end;
            long k = (v = RX_VALUE()) ? strtol(v, &end, 10) : -1;
            if (!v || !*v || *end || k < 0 || k > 4096)
                return rx_run_usage_error("--offload-cores needs a number of cores, got '%s'", v ? v : "");
            o->offload_cores = (int)k;
        } else if (RX_IS("timeout")) {
            if (!(v = RX_VALUE()) || rx_run_parse_seconds(v, &o->timeout_s))
                return rx_run_usage_error("--timeout needs a positive number of seconds, got '%s'", v ? v : "");
        } else if (RX_IS("tag-output") || RX_IS("l") || RX_IS("prepend-rank")) {
            o->tag_output = 1;
        } else if (RX_IS("hosts") || RX_IS("host") || RX_IS("H")) {
            if (!(v = RX_VALUE()))
                return rx_run_usage_error("%s needs a host list (host[:n],...)", a);
            if (o->hosts)
                return rx_run_usage_error("%s: hosts are already given", a);
            if (rx_run_hosts_parse_list(o, v))
                return RX_RUN_EXIT_USAGE;
        } else if (RX_IS("hostfile") || RX_IS("f") || RX_IS("machinefile") ||
                   RX_IS("default-hostfile")) {
            if (!(v = RX_VALUE()))
                return rx_run_usage_error("%s needs a file name", a);
            if (o->hosts)
                return rx_run_usage_error("%s: hosts are already given", a);
            if (rx_run_hosts_parse_file(o, v))
                return RX_RUN_EXIT_USAGE;
        } else if (RX_IS("ppn") || RX_IS("perhost") || RX_IS("npernode") || RX_IS("N")) {
            long n;
            if (!(v = RX_VALUE()) || rx_run_parse_int(v, 1, 100000, &n))
                return rx_run_usage_error("%s needs a number of ranks per host", a);
            o->ppn = (int)n;
        } else if (RX_IS("launcher-exec") || RX_IS("bootstrap-exec")) {
            if (!(v = RX_VALUE()) || !*v)
                return rx_run_usage_error("%s needs a command (e.g. 'ip netns exec {host}')", a);
            o->launch_tmpl = v;
        } else if (RX_IS("launcher") || RX_IS("bootstrap") || RX_IS("mca-plm")) {
            if (!(v = RX_VALUE()))
                return rx_run_usage_error("%s needs ssh", a);
            if (strcmp(v, "ssh"))
                return rx_run_usage_error("--launcher '%s' is not supported (ssh, or "
                                          "--launcher-exec TEMPLATE)", v);
        } else if (RX_IS("pmi-addr")) {
            if (!(v = RX_VALUE()))
                return rx_run_usage_error("%s needs an IPv4 address", a);
            o->pmi_addr = v;
        } else {
            return rx_run_usage_error("unknown option '%s'", a);
        }
        if (inl && (RX_IS("tag-output") || RX_IS("report-bindings") || RX_IS("oversubscribe")))
            return rx_run_usage_error("option '%s' takes no value", a);
        i++;
#undef RX_VALUE
#undef RX_IS
    }
    if (i >= argc)
        return rx_run_usage_error("%s", "no program given");
    o->argv = argv + i;
    if (!o->launch_tmpl) {
        const char *t = getenv("RDMX_LAUNCH");
        if (t && *t)
            o->launch_tmpl = t;
    }
    if ((o->ppn || o->launch_tmpl) && !o->hosts)
        return rx_run_usage_error("%s", "-ppn and --launcher-exec need --hosts or --hostfile");
    return -1;
}

int main(int argc, char **argv)
{
    rx_run_opts_t opts = {.bind_core = -1};
    int rc = rx_run_parse(argc, argv, &opts);
    if (rc < 0)
        rc = rx_run_job(&opts);
    for (int i = 0; i < opts.nfwd_env; i++)
        free((void *)opts.fwd_env[i]);
    free(opts.fwd_env);
    free(opts.hosts);
    return rc;
}
