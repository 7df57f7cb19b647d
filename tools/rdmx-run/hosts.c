/* SPDX-License-Identifier: MIT
 * Multi-host placement: the host list (--hosts, --hostfile in MPICH's
 * "host[:n]" and Open MPI's "host slots=n" formats), the block placement of
 * ranks onto it, and the command that starts a rank on a host (ssh, or a
 * launch template such as "ip netns exec {host}"). */
#include "run.h"
#include "util/status.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rx_run_host_add(rx_run_opts_t *o, const char *name, size_t nlen, long slots)
{
    if (nlen == 0 || nlen >= RX_RUN_HOST_MAX) {
        rx_run_msg("bad host name '%.*s'", (int)nlen, name);
        return -1;
    }
    for (size_t i = 0; i < nlen; i++)
        if (!isalnum((unsigned char)name[i]) && !strchr("-._", name[i])) {
            rx_run_msg("bad host name '%.*s' (letters, digits, '-', '.', '_')", (int)nlen, name);
            return -1;
        }
    if (slots < 1 || slots > 100000) {
        rx_run_msg("bad slot count %ld for host '%.*s'", slots, (int)nlen, name);
        return -1;
    }
    rx_run_host_t *h = realloc(o->hosts, sizeof *h * (size_t)(o->nhosts + 1));
    if (!h) {
        rx_run_msg("out of memory");
        return -1;
    }
    o->hosts = h;
    h = &o->hosts[o->nhosts++];
    memcpy(h->name, name, nlen);
    h->name[nlen] = 0;
    h->slots = (int)slots;
    return 0;
}

static int rx_run_parse_slots(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || (*end && !isspace((unsigned char)*end)))
        return -1;
    *out = v;
    return 0;
}

int rx_run_hosts_parse_list(rx_run_opts_t *o, const char *list)
{
    const char *p = list;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *colon = memchr(p, ':', len);
        long slots = 1;
        if (colon) {
            char num[32];
            size_t nl = len - (size_t)(colon + 1 - p);
            if (nl == 0 || nl >= sizeof num)
                goto bad;
            memcpy(num, colon + 1, nl);
            num[nl] = 0;
            if (rx_run_parse_slots(num, &slots))
                goto bad;
        }
        if (rx_run_host_add(o, p, colon ? (size_t)(colon - p) : len, slots))
            return -1;
        p += len + (end != NULL);
    }
    if (o->nhosts == 0)
        goto bad;
    return 0;
bad:
    rx_run_msg("bad host list '%s' (host[:n],host[:n],...)", list);
    return -1;
}

int rx_run_hosts_parse_file(rx_run_opts_t *o, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        rx_run_msg("cannot read host file '%s': %s", path, strerror(errno));
        return -1;
    }
    char line[1024];
    int lineno = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            continue;
        char *q = p;
        while (*q && !isspace((unsigned char)*q))
            q++;
        size_t nlen = (size_t)(q - p);
        long slots = 1;
        char *colon = memchr(p, ':', nlen);
        char *rest = q;
        while (isspace((unsigned char)*rest))
            rest++;
        if (colon) { /* MPICH: host:n */
            if (rx_run_parse_slots(colon + 1, &slots))
                rc = -1;
            nlen = (size_t)(colon - p);
        }
        /* Open MPI: host slots=n [max_slots=m]; max_slots is accepted and ignored */
        while (rc == 0 && *rest) {
            char *w = rest;
            while (*rest && !isspace((unsigned char)*rest))
                rest++;
            if (!strncmp(w, "slots=", 6) || !strncmp(w, "cpu=", 4)) {
                if (rx_run_parse_slots(strchr(w, '=') + 1, &slots))
                    rc = -1;
            } else if (strncmp(w, "max_slots=", 10) && strncmp(w, "max-slots=", 10)) {
                rc = -1;
            }
            while (isspace((unsigned char)*rest))
                rest++;
        }
        if (rc == 0)
            rc = rx_run_host_add(o, p, nlen, slots);
        else
            rx_run_msg("%s:%d: cannot parse '%s' (host, host:n or host slots=n)", path, lineno,
                       p);
    }
    fclose(f);
    if (rc == 0 && o->nhosts == 0) {
        rx_run_msg("host file '%s' names no host", path);
        rc = -1;
    }
    return rc;
}

/* Is this the host rdmx-run runs on, so that its ranks may simply be forked? */
static int rx_run_host_is_here(const char *name)
{
    char me[256] = "";
    gethostname(me, sizeof me - 1);
    return !strcmp(name, "localhost") || !strcmp(name, me);
}

int rx_run_hosts_place(rx_run_job_t *job)
{
    const rx_run_opts_t *o = job->opts;
    int total = 0;
    for (int h = 0; h < o->nhosts; h++)
        total += o->ppn > 0 ? o->ppn : o->hosts[h].slots;
    if (o->nprocs_set)
        job->n = o->nprocs;
    else
        job->n = total;
    job->host_of = calloc((size_t)job->n, sizeof *job->host_of);
    job->host_nlocal = calloc((size_t)o->nhosts, sizeof *job->host_nlocal);
    if (!job->host_of || !job->host_nlocal)
        return RX_ERR_NOMEM;
    /* blocks of each host's slots, wrapping around when there are more ranks */
    int r = 0;
    while (r < job->n)
        for (int h = 0; h < o->nhosts && r < job->n; h++) {
            int slots = o->ppn > 0 ? o->ppn : o->hosts[h].slots;
            for (int s = 0; s < slots && r < job->n; s++)
                job->host_of[r++] = h;
        }
    job->any_remote = 0;
    for (int h = 0; h < o->nhosts; h++)
        if (o->launch_tmpl || !rx_run_host_is_here(o->hosts[h].name))
            job->any_remote = 1;
    return RX_OK;
}

int rx_run_rank_is_remote(const rx_run_job_t *job, int rank)
{
    const rx_run_opts_t *o = job->opts;
    if (!o->nhosts)
        return 0;
    return o->launch_tmpl || !rx_run_host_is_here(o->hosts[job->host_of[rank]].name);
}

/* MPICH's PMI_process_mapping: (vector,(first_node,nodes,ranks_per_node),...)
 * over runs of consecutive ranks on consecutive hosts with equal counts. */
void rx_run_process_mapping(const rx_run_job_t *job, char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "(vector");
    int r = 0;
    while (r < job->n && n < len) {
        int h = job->host_of[r], c = 0;
        while (r + c < job->n && job->host_of[r + c] == h)
            c++;
        int nodes = 1, rr = r + c;
        for (;;) {
            int c2 = 0;
            while (rr + c2 < job->n && job->host_of[rr + c2] == h + nodes)
                c2++;
            if (c2 != c || rr >= job->n)
                break;
            nodes++;
            rr += c2;
        }
        n += (size_t)snprintf(buf + n, n < len ? len - n : 0, ",(%d,%d,%d)", h, nodes, c);
        r = rr;
    }
    if (n < len)
        snprintf(buf + n, len - n, ")");
}

/* Single-quote s for a POSIX shell. */
static int rx_run_shell_quote(char *out, size_t cap, size_t *pos, const char *s)
{
    size_t p = *pos;
#define PUT(c) do { if (p + 1 >= cap) return -1; out[p++] = (c); } while (0)
    if (p)
        PUT(' ');
    PUT('\'');
    for (; *s; s++) {
        if (*s == '\'') {
            PUT('\''); PUT('\\'); PUT('\''); PUT('\'');
        } else {
            PUT(*s);
        }
    }
    PUT('\'');
#undef PUT
    out[p] = 0;
    *pos = p;
    return 0;
}

/* The variables a remote rank needs that ssh would not carry: the job's and
 * every RDMX_* / -x / -genv one; not the secret, which would be on the
 * command line of ssh here and of the shell there. */
static int rx_run_env_wanted(const rx_run_opts_t *o, const char *kv)
{
    static const char *const pfx[] = {"PMI_", "MPI_LOCAL", "RDMX_", "FI_", NULL};
    if (!strncmp(kv, "RDMX_PMI_SECRET=", 16))
        return 0;
    for (int i = 0; pfx[i]; i++)
        if (!strncmp(kv, pfx[i], strlen(pfx[i])))
            return 1;
    for (int i = 0; i < o->nfwd_env; i++) {
        size_t l = strlen(o->fwd_env[i]);
        if (!strncmp(kv, o->fwd_env[i], l) && kv[l] == '=')
            return 1;
    }
    return 0;
}

extern char **environ;

/* argv that starts the rank on its host, in the child after its environment
 * is set. Template: its words with {host} replaced, then the program (the
 * launch command passes the environment on, the secret with it). ssh: one
 * shell command that changes to the same directory, reads the secret from the
 * first line of its stdin (spawn.c puts it there) and runs the program with
 * the variables. NULL on overflow. */
char **rx_run_launch_argv(const rx_run_job_t *job, int rank)
{
    const rx_run_opts_t *o = job->opts;
    const char *host = o->hosts[job->host_of[rank]].name;
    static char *argv[512];
    static char words[8192];
    static char cmd[65536];
    int n = 0;
    size_t wp = 0;
    const char *t = o->launch_tmpl ? o->launch_tmpl : "ssh -x -o BatchMode=yes {host}";
    /* split the template on spaces, substituting {host} */
    while (*t && n < 500) {
        while (*t == ' ')
            t++;
        if (!*t)
            break;
        argv[n++] = words + wp;
        while (*t && *t != ' ') {
            if (!strncmp(t, "{host}", 6)) {
                size_t hl = strlen(host);
                if (wp + hl + 1 >= sizeof words)
                    return NULL;
                memcpy(words + wp, host, hl);
                wp += hl;
                t += 6;
            } else {
                if (wp + 2 >= sizeof words)
                    return NULL;
                words[wp++] = *t++;
            }
        }
        words[wp++] = 0;
    }
    if (o->launch_tmpl) {
        for (char **a = o->argv; *a && n < 510; a++)
            argv[n++] = *a;
        argv[n] = NULL;
        return argv;
    }
    size_t cp = 0;
    char cwd[4096];
    cmd[0] = 0;
    if (getcwd(cwd, sizeof cwd)) {
        if (rx_run_shell_quote(cmd, sizeof cmd, &cp, "cd") ||
            rx_run_shell_quote(cmd, sizeof cmd, &cp, cwd) || cp + 4 >= sizeof cmd)
            return NULL;
        memcpy(cmd + cp, " &&", 4);
        cp += 3;
    }
    /* /bin/sh reads the line whatever the login shell there is, and reads
     * no further: the rest of stdin is the program's */
    if (rx_run_shell_quote(cmd, sizeof cmd, &cp, "exec") ||
        rx_run_shell_quote(cmd, sizeof cmd, &cp, "/bin/sh") ||
        rx_run_shell_quote(cmd, sizeof cmd, &cp, "-c") ||
        rx_run_shell_quote(cmd, sizeof cmd, &cp, "read -r RDMX_PMI_SECRET && export "
                                                  "RDMX_PMI_SECRET && exec \"$0\" \"$@\"") ||
        rx_run_shell_quote(cmd, sizeof cmd, &cp, "env"))
        return NULL;
    for (char **e = environ; *e; e++)
        if (rx_run_env_wanted(o, *e) && rx_run_shell_quote(cmd, sizeof cmd, &cp, *e))
            return NULL;
    for (char **a = o->argv; *a; a++)
        if (rx_run_shell_quote(cmd, sizeof cmd, &cp, *a))
            return NULL;
    argv[n++] = cmd;
    argv[n] = NULL;
    return argv;
}
