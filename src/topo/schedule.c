/* SPDX-License-Identifier: MIT
 * Collective schedule files (docs/topo.md, "Schedule format") as simulator workloads.
 *
 *   # rdmx schedule v1
 *   nranks 4                 a block for one process count; a file may hold several
 *   rank 0
 *   round send 1 8 ; recv 1 8 ; reduce 8
 *   round                    an empty round (waits, under barrier synchronisation)
 *   send 2 8                 a step on its own line joins the current round
 *   rank 1
 *   ...
 *   end
 */
#include "sim.h"
#include "util/log.h"
#include "util/status.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct rx_sched_rank {
    uint32_t nrounds, rcap;
    uint32_t *rstart; /* rounds: steps[rstart[k] .. rstart[k+1]) */
    rx_step_t *steps;
    uint32_t nsteps, scap;
    int seen;
} rx_sched_rank_t;

typedef struct rx_sched {
    uint32_t nranks;
    rx_sched_rank_t *r;
} rx_sched_t;

static void rx_sched_destroy(void *vctx)
{
    rx_sched_t *s = vctx;
    if (!s)
        return;
    for (uint32_t i = 0; s->r && i < s->nranks; i++) {
        free(s->r[i].rstart);
        free(s->r[i].steps);
    }
    free(s->r);
    free(s);
}

static int rx_sched_round(void *vctx, uint32_t rank, uint32_t round, const rx_step_t **steps, uint32_t *n)
{
    rx_sched_t *s = vctx;
    rx_sched_rank_t *r = &s->r[rank];
    if (round >= r->nrounds)
        return RX_ERR_NOTFOUND;
    *steps = &r->steps[r->rstart[round]];
    *n = r->rstart[round + 1] - r->rstart[round];
    return RX_OK;
}

static int rx_sched_new_round(rx_sched_rank_t *r)
{
    if (r->nrounds + 2 > r->rcap) {
        uint32_t cap = r->rcap ? r->rcap * 2 : 8;
        uint32_t *x = realloc(r->rstart, cap * sizeof *x);
        if (!x)
            return RX_ERR_NOMEM;
        r->rstart = x;
        r->rcap = cap;
    }
    if (r->nrounds == 0)
        r->rstart[0] = r->nsteps;
    r->nrounds++;
    r->rstart[r->nrounds] = r->nsteps;
    return RX_OK;
}

static int rx_sched_add_step(rx_sched_rank_t *r, rx_step_t st)
{
    if (r->nsteps == r->scap) {
        uint32_t cap = r->scap ? r->scap * 2 : 16;
        rx_step_t *x = realloc(r->steps, cap * sizeof *x);
        if (!x)
            return RX_ERR_NOMEM;
        r->steps = x;
        r->scap = cap;
    }
    r->steps[r->nsteps++] = st;
    r->rstart[r->nrounds] = r->nsteps;
    return RX_OK;
}

static int rx_parse_u64(const char *s, uint64_t *v)
{
    char *end;
    errno = 0;
    if (!isdigit((unsigned char)*s))
        return -1;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *v = x;
    return 0;
}

/* One step "OP ARGS" (already split into words). */
static int rx_sched_step(const char *path, int line, rx_sched_t *s, rx_sched_rank_t *r, char **w, int nw)
{
    static const char *ops[] = {"send", "recv", "reduce", "copy"};
    int op = -1;
    for (int i = 0; i < 4; i++)
        if (!strcmp(w[0], ops[i]))
            op = i;
    if (op < 0) {
        rx_log_error("%s:%d: unknown step \"%s\" (send, recv, reduce, copy)", path, line, w[0]);
        return RX_ERR_INVAL;
    }
    int want = op <= RX_STEP_RECV ? 3 : 2;
    uint64_t peer = 0, bytes;
    if (nw != want || (want == 3 && rx_parse_u64(w[1], &peer)) || rx_parse_u64(w[want - 1], &bytes)) {
        rx_log_error("%s:%d: expected \"%s%s BYTES\"", path, line, ops[op], want == 3 ? " PEER" : "");
        return RX_ERR_INVAL;
    }
    if (want == 3 && peer >= s->nranks) {
        rx_log_error("%s:%d: peer %llu out of range (nranks %u)", path, line, (unsigned long long)peer, s->nranks);
        return RX_ERR_INVAL;
    }
    if (r->nrounds == 0) {
        rx_log_error("%s:%d: step before the first \"round\"", path, line);
        return RX_ERR_INVAL;
    }
    return rx_sched_add_step(r, (rx_step_t){(uint8_t)op, (uint32_t)peer, bytes});
}

static int rx_split(char *s, char **w, int max)
{
    int n = 0;
    char *save;
    for (char *tok = strtok_r(s, " \t\r\n", &save); tok && n < max; tok = strtok_r(NULL, " \t\r\n", &save))
        w[n++] = tok;
    return n;
}

int rx_workload_schedule(const char *path, uint32_t want, rx_workload_t *wl)
{
    memset(wl, 0, sizeof *wl);
    FILE *f = fopen(path, "r");
    if (!f) {
        rx_log_error("%s: %s", path, strerror(errno));
        return RX_ERR_IO;
    }
    char *buf = NULL, *copy = NULL, name[128] = ""; /* lines of any length */
    size_t bcap = 0, ccap = 0;
    int line = 0, rc = RX_OK, inblock = 0, found = 0, nblocks = 0;
    rx_sched_t *s = NULL, *active = NULL; /* the chosen block; the block being read if it is that one */
    rx_sched_rank_t *cur = NULL;
    uint32_t sizes[64], nsizes = 0;
    ssize_t len;
    while (!rc && (len = getline(&buf, &bcap, f)) >= 0) {
        line++;
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = 0;
        char *w[16];
        if ((size_t)len + 1 > ccap) {
            char *x = realloc(copy, (size_t)len + 1);
            if (!x) {
                rc = RX_ERR_NOMEM;
                break;
            }
            copy = x;
            ccap = (size_t)len + 1;
        }
        strcpy(copy, buf);
        int nw = rx_split(copy, w, 16);
        if (!nw)
            continue;
        if (!strcmp(w[0], "nranks")) {
            uint64_t n;
            if (inblock || nw != 2 || rx_parse_u64(w[1], &n) || n == 0 || n > (1u << 24)) {
                rx_log_error("%s:%d: %s", path, line, inblock ? "\"nranks\" inside a block (missing \"end\")"
                                                              : "expected \"nranks N\" with N >= 1");
                rc = RX_ERR_INVAL;
                break;
            }
            inblock = 1;
            nblocks++;
            if (nsizes < 64)
                sizes[nsizes++] = (uint32_t)n;
            cur = NULL;
            if (found || (want && n != want)) {
                active = NULL; /* skip this block */
                continue;
            }
            s = calloc(1, sizeof *s);
            if (!s || !(s->r = calloc(n, sizeof *s->r))) {
                rc = RX_ERR_NOMEM;
                break;
            }
            s->nranks = (uint32_t)n;
            active = s;
            found = 1;
            continue;
        }
        if (!strcmp(w[0], "algorithm") || !strcmp(w[0], "bytes")) {
            if (!strcmp(w[0], "algorithm") && nw >= 2)
                snprintf(name, sizeof name, "%s", w[1]);
            continue; /* descriptive */
        }
        if (!inblock) {
            rx_log_error("%s:%d: \"%s\" outside a block (start one with \"nranks N\")", path, line, w[0]);
            rc = RX_ERR_INVAL;
            break;
        }
        if (!strcmp(w[0], "end")) {
            inblock = 0;
            if (active) {
                for (uint32_t i = 0; i < s->nranks; i++)
                    if (!s->r[i].seen) {
                        rx_log_error("%s:%d: rank %u of %u has no section", path, line, i, s->nranks);
                        rc = RX_ERR_INVAL;
                        break;
                    }
                active = NULL;
            }
            continue;
        }
        if (!active)
            continue; /* a block for another process count */
        if (!strcmp(w[0], "rank")) {
            uint64_t r;
            if (nw != 2 || rx_parse_u64(w[1], &r) || r >= s->nranks) {
                rx_log_error("%s:%d: expected \"rank R\" with R < %u", path, line, s->nranks);
                rc = RX_ERR_INVAL;
            } else if (s->r[r].seen) {
                rx_log_error("%s:%d: rank %llu appears twice", path, line, (unsigned long long)r);
                rc = RX_ERR_INVAL;
            } else {
                cur = &s->r[r];
                cur->seen = 1;
            }
            continue;
        }
        if (!cur) {
            rx_log_error("%s:%d: \"%s\" before the first \"rank R\"", path, line, w[0]);
            rc = RX_ERR_INVAL;
            break;
        }
        /* "round [step ; step ...]" or a lone step */
        char *rest = buf;
        while (isspace((unsigned char)*rest))
            rest++;
        if (!strcmp(w[0], "round")) {
            if ((rc = rx_sched_new_round(cur)))
                break;
            rest += 5;
        }
        char *save;
        for (char *part = strtok_r(rest, ";", &save); part && !rc; part = strtok_r(NULL, ";", &save)) {
            char *sw[8];
            int ns = rx_split(part, sw, 8); /* in place: strtok_r has moved past this part */
            if (ns)
                rc = rx_sched_step(path, line, s, cur, sw, ns);
        }
    }
    if (!rc && ferror(f)) {
        rx_log_error("%s:%d: %s", path, line + 1, strerror(errno));
        rc = RX_ERR_IO;
    }
    free(buf);
    free(copy);
    fclose(f);
    if (!rc && inblock) {
        rx_log_error("%s:%d: block not closed with \"end\"", path, line);
        rc = RX_ERR_INVAL;
    }
    if (!rc && !found) {
        if (nblocks == 0)
            rx_log_error("%s: no schedule block (\"nranks N\" ... \"end\")", path);
        else {
            char list[256] = "";
            int n = 0;
            for (uint32_t i = 0; i < nsizes && n < 240; i++)
                n += snprintf(list + n, sizeof list - n, "%s%u", i ? ", " : "", sizes[i]);
            rx_log_error("%s: no block for %u ranks (the file has %s)", path, want, list);
        }
        rc = RX_ERR_NOTFOUND;
    }
    if (!rc && !want && nblocks > 1) {
        rx_log_error("%s: %d blocks: choose the process count with -n", path, nblocks);
        rc = RX_ERR_INVAL;
    }
    if (rc) {
        if (found)
            rx_sched_destroy(s);
        return rc;
    }
    wl->nranks = s->nranks;
    for (uint32_t i = 0; i < s->nranks; i++)
        if (s->r[i].nrounds > wl->nrounds)
            wl->nrounds = s->r[i].nrounds;
    wl->round = rx_sched_round;
    wl->destroy = rx_sched_destroy;
    wl->ctx = s;
    wl->concurrent = 1; /* read only */
    snprintf(wl->desc, sizeof wl->desc, "schedule %s%s%s, %u ranks, %u rounds", path, *name ? " " : "", name,
             s->nranks, wl->nrounds);
    return RX_OK;
}
