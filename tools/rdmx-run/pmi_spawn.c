/* SPDX-License-Identifier: MIT
 * MPI_Comm_spawn through the launcher: the PMI-1 "mcmd=spawn" request
 * (MPICH's format, one block of name=value lines per command, up to
 * "endcmd", the last block having spawnssofar == totspawns) starts a new job
 * of ranks on this host: its own ranks 0..N-1 in command order, appnum =
 * the command's index, KVS holding the request's preput keys, job id
 * "<first job id>-s<k>". The new ranks are the launcher's like the first
 * ones: same output forwarding, failure rules and clean-up.
 * Also the name service (MPI_Publish_name / _Lookup_name / _Unpublish_name):
 * one table of service -> port for every job of the launcher. */
#include "run.h"
#include "util/status.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RX_RUN_SPAWN_APPS 64
#define RX_RUN_SPAWN_ARGS 256

typedef struct rx_run_spawn_app {
    int nprocs;
    char **argv;          /* execname, args, NULL */
    int argc;             /* announced (argcnt) */
} rx_run_spawn_app_t;

typedef struct rx_run_spawn_req {
    rx_run_spawn_app_t apps[RX_RUN_SPAWN_APPS];
    int napps, total;     /* blocks received, totspawns */
    int in_block;
    char *preput_key[8], *preput_val[8];
    char err[160];        /* the first problem found (the request is answered at its end) */
} rx_run_spawn_req_t;

struct rx_run_name {
    struct rx_run_name *next;
    char *service, *port;
};

static void rx_run_spawn_req_free(rx_run_spawn_req_t *q)
{
    for (int a = 0; a < RX_RUN_SPAWN_APPS; a++) {
        for (int i = 0; q->apps[a].argv && q->apps[a].argv[i]; i++)
            free(q->apps[a].argv[i]);
        free(q->apps[a].argv);
    }
    for (int i = 0; i < 8; i++) {
        free(q->preput_key[i]);
        free(q->preput_val[i]);
    }
    free(q);
}

static void rx_run_spawn_err(rx_run_spawn_req_t *q, const char *what, const char *detail)
{
    if (!q->err[0])
        snprintf(q->err, sizeof q->err, "%s%s%.100s", what, detail ? ": " : "",
                 detail ? detail : "");
}

/* 1 when execvp would find an executable file for cmd. */
static int rx_run_findable(const char *cmd, int *err)
{
    if (strchr(cmd, '/')) {
        if (access(cmd, X_OK) == 0)
            return 1;
        *err = errno;
        return 0;
    }
    const char *path = getenv("PATH");
    *err = ENOENT;
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        const char *e = strchr(p, ':');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char full[4096];
        if (snprintf(full, sizeof full, "%.*s/%s", (int)len, len ? p : ".", cmd) <
                (int)sizeof full && access(full, X_OK) == 0)
            return 1;
        p += len + (e != NULL);
    }
    return 0;
}

/* Start the request's ranks as a new job; "" in why on success. */
static void rx_run_spawn_start(rx_run_job_t *job, rx_run_spawn_req_t *q, char *why, size_t wl)
{
    why[0] = 0;
    int total = 0, err;
    for (int a = 0; a < q->napps; a++) {
        if (!q->apps[a].argv || !q->apps[a].argv[0]) {
            snprintf(why, wl, "command %d has no execname", a);
            return;
        }
        if (!rx_run_findable(q->apps[a].argv[0], &err)) {
            snprintf(why, wl, "cannot run '%.100s': %s", q->apps[a].argv[0], strerror(err));
            return;
        }
        total += q->apps[a].nprocs;
    }
    if (job->ending) {
        snprintf(why, wl, "the job is ending");
        return;
    }
    if (job->nsub == RX_RUN_SUBS_MAX || job->n + total > job->cap) {
        snprintf(why, wl, "rdmx-run starts at most %d spawned processes in %d spawns",
                 RX_RUN_SPAWN_MAX, RX_RUN_SUBS_MAX - 1);
        return;
    }
    rx_run_sub_t *s = &job->subs[job->nsub];
    memset(s, 0, sizeof *s);
    if (rx_kvs_create(&s->kvs) != RX_OK) {
        snprintf(why, wl, "out of memory");
        return;
    }
    for (int i = 0; i < 8 && q->preput_key[i]; i++)
        if (rx_kvs_put(s->kvs, q->preput_key[i], q->preput_val[i] ? q->preput_val[i] : "") !=
            RX_OK) {
            rx_kvs_destroy(s->kvs);
            snprintf(why, wl, "out of memory");
            return;
        }
    rx_kvs_commit(s->kvs); /* preput keys are visible before the first barrier */
    if (snprintf(s->jobid, sizeof s->jobid, "%s-s%d", job->jobid, job->nsub) >=
        (int)sizeof s->jobid) {
        rx_kvs_destroy(s->kvs);
        snprintf(why, wl, "job id too long");
        return;
    }
    s->base = job->n;
    s->n = total;
    int k = job->nsub++;
    for (int a = 0, rank = 0; a < q->napps; a++)
        for (int i = 0; i < q->apps[a].nprocs; i++, rank++) {
            rx_run_rank_t *r = &job->ranks[job->n++];
            memset(r, 0, sizeof *r);
            r->rank = rank;
            r->sub = k;
            r->appnum = a;
            r->pmi_fd = r->out.fd = r->err.fd = -1;
            r->argv = q->apps[a].argv; /* kept: the request is not freed (below) */
        }
    for (int i = s->base; i < s->base + s->n; i++) {
        rx_run_rank_t *r = &job->ranks[i];
        int rc = rx_run_spawn(job, r, -1);
        if (r->pid > 0 && !r->exited) {
            job->nlive++;
            rx_run_watchdog_add(job, r->pid);
        }
        if (rc != RX_OK) {
            /* checked above: the program vanished meanwhile, or no resources */
            rx_run_fail(job, 1, "spawned job %d: cannot start rank %d (%s); ending the job", k,
                        r->rank, rc > 0 ? strerror(rc) : "see above");
            r->exited = 1;
            for (int j = i + 1; j < s->base + s->n; j++)
                job->ranks[j].exited = 1; /* never started */
            return;
        }
    }
    /* the argument vectors now belong to the ranks */
    for (int a = 0; a < q->napps; a++)
        q->apps[a].argv = NULL;
}

/* "name=value" of one line of a block */
static int rx_run_spawn_kv(const char *line, char *name, size_t nl, const char **value)
{
    const char *eq = strchr(line, '=');
    if (!eq || (size_t)(eq - line) >= nl)
        return 0;
    memcpy(name, line, (size_t)(eq - line));
    name[eq - line] = 0;
    *value = eq + 1;
    return 1;
}

static void rx_run_spawn_field(rx_run_spawn_req_t *q, const char *name, const char *v)
{
    rx_run_spawn_app_t *app = &q->apps[q->napps];
    long idx;
    char *end;
    if (!strcmp(name, "nprocs")) {
        idx = strtol(v, &end, 10);
        if (*end || idx <= 0 || idx > RX_RUN_SPAWN_MAX)
            rx_run_spawn_err(q, "bad nprocs", v);
        else
            app->nprocs = (int)idx;
    } else if (!strcmp(name, "execname")) {
        if (!app->argv)
            app->argv = calloc(RX_RUN_SPAWN_ARGS + 2, sizeof *app->argv);
        if (!app->argv || !(app->argv[0] = strdup(v)))
            rx_run_spawn_err(q, "out of memory", NULL);
    } else if (!strcmp(name, "totspawns")) {
        q->total = atoi(v);
    } else if (!strcmp(name, "argcnt")) {
        app->argc = atoi(v);
        if (app->argc < 0 || app->argc > RX_RUN_SPAWN_ARGS)
            rx_run_spawn_err(q, "too many arguments", v);
    } else if (!strncmp(name, "arg", 3) && name[3] >= '1' && name[3] <= '9') {
        idx = strtol(name + 3, &end, 10);
        if (*end || idx < 1 || idx > RX_RUN_SPAWN_ARGS || !app->argv || app->argv[idx])
            rx_run_spawn_err(q, "bad argument", name);
        else if (!(app->argv[idx] = strdup(v)))
            rx_run_spawn_err(q, "out of memory", NULL);
    } else if (!strncmp(name, "preput_key_", 11) || !strncmp(name, "preput_val_", 11)) {
        idx = strtol(name + 11, &end, 10);
        char **slot = name[7] == 'k' ? q->preput_key : q->preput_val;
        if (*end || idx < 0 || idx >= 8)
            rx_run_spawn_err(q, "more than 8 preput keys", NULL);
        else if (!slot[idx] && !(slot[idx] = strdup(v)))
            rx_run_spawn_err(q, "out of memory", NULL);
    }
    /* spawnssofar, preput_num, info_num and info keys (host, wdir, ...) are
     * not needed: every process starts here, in the launcher's directory */
}

void rx_run_pmi_spawn_line(rx_run_job_t *job, rx_run_rank_t *r, const char *line)
{
    rx_run_spawn_req_t *q = r->spawn_req;
    if (!q && !(q = r->spawn_req = calloc(1, sizeof *q))) {
        rx_run_msg("out of memory");
        rx_run_set_exit(job, 1);
        rx_run_end_job(job);
        return;
    }
    char name[64];
    const char *v;
    if (!q->in_block) {
        if (strcmp(line, "mcmd=spawn")) {
            rx_run_spawn_err(q, "unknown multi-line request", line);
            q->in_block = 1; /* read up to its endcmd */
            q->total = -1;
            return;
        }
        if (q->napps == RX_RUN_SPAWN_APPS) {
            rx_run_spawn_err(q, "too many commands", NULL);
            q->napps--; /* the extra block overwrites the last; refused anyway */
        }
        q->in_block = 1;
        return;
    }
    if (strcmp(line, "endcmd")) {
        if (rx_run_spawn_kv(line, name, sizeof name, &v))
            rx_run_spawn_field(q, name, v);
        return;
    }
    /* end of a block */
    q->in_block = 0;
    rx_run_spawn_app_t *app = &q->apps[q->napps++];
    if (!q->err[0] && (app->nprocs <= 0 || !app->argv))
        rx_run_spawn_err(q, "a command without nprocs or execname", NULL);
    for (int i = 1; !q->err[0] && i <= app->argc; i++)
        if (!app->argv[i])
            rx_run_spawn_err(q, "missing argument", NULL);
    if (q->total > 0 && q->napps < q->total)
        return; /* more blocks follow */
    char why[256];
    if (q->err[0])
        snprintf(why, sizeof why, "%s", q->err);
    else
        rx_run_spawn_start(job, q, why, sizeof why);
    r->spawn_req = NULL;
    rx_run_spawn_req_free(q);
    if (why[0]) {
        /* one token: the client turns '_' back into spaces */
        for (char *p = why; *p; p++)
            if (*p == ' ' || *p == '=' || (unsigned char)*p < 33)
                *p = '_';
        rx_run_pmi_reply(r, "cmd=spawn_result rc=-1 errmsg=%s", why);
    } else {
        rx_run_pmi_reply(r, "cmd=spawn_result rc=0");
    }
}

/* ---- name service ---------------------------------------------------------- */

static struct rx_run_name **rx_run_name_find(rx_run_job_t *job, const char *service)
{
    struct rx_run_name **p = &job->names;
    while (*p && strcmp((*p)->service, service))
        p = &(*p)->next;
    return p;
}

void rx_run_pmi_names(rx_run_job_t *job, rx_run_rank_t *r, const char *cmd, const char *line)
{
    char service[RX_PMI1_LINE_MAX], port[RX_PMI1_LINE_MAX];
    int have_service = rx_pmi1_field(line, "service", service, sizeof service) == RX_OK &&
                       service[0];
    struct rx_run_name **p = have_service ? rx_run_name_find(job, service) : NULL;
    if (!strcmp(cmd, "publish_name")) {
        if (!have_service || rx_pmi1_field(line, "port", port, sizeof port) != RX_OK) {
            rx_run_pmi_reply(r, "cmd=publish_result rc=-1 msg=bad_request");
        } else if (*p) {
            rx_run_pmi_reply(r, "cmd=publish_result rc=-1 msg=already_published");
        } else {
            struct rx_run_name *e = calloc(1, sizeof *e);
            if (e && (e->service = strdup(service)) && (e->port = strdup(port))) {
                *p = e;
                rx_run_pmi_reply(r, "cmd=publish_result rc=0 msg=success");
            } else {
                if (e) {
                    free(e->service);
                    free(e);
                }
                rx_run_pmi_reply(r, "cmd=publish_result rc=-1 msg=out_of_memory");
            }
        }
    } else if (!strcmp(cmd, "lookup_name")) {
        if (p && *p)
            rx_run_pmi_reply(r, "cmd=lookup_result rc=0 msg=success port=%s", (*p)->port);
        else
            rx_run_pmi_reply(r, "cmd=lookup_result rc=-1 msg=not_found");
    } else {
        if (p && *p) {
            struct rx_run_name *e = *p;
            *p = e->next;
            free(e->service);
            free(e->port);
            free(e);
            rx_run_pmi_reply(r, "cmd=unpublish_result rc=0 msg=success");
        } else {
            rx_run_pmi_reply(r, "cmd=unpublish_result rc=-1 msg=not_found");
        }
    }
}

void rx_run_names_free(rx_run_job_t *job)
{
    while (job->names) {
        struct rx_run_name *e = job->names;
        job->names = e->next;
        free(e->service);
        free(e->port);
        free(e);
    }
}
