/* SPDX-License-Identifier: MIT
 * Several jobs on one fabric as one workload: job j's ranks are numbered after those of the jobs
 * before it and its steps' peers are shifted alike, so that the jobs never exchange data with each
 * other but share every link their placements make them share. The simulator synchronises each job
 * among its own ranks (rx_sim_opts_t.job_first / job_barrier) and reports each job's end. */
#include "sim.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

typedef struct rx_jobs {
    const rx_workload_t *const *jobs;
    uint32_t njobs;
    uint32_t *first; /* njobs + 1 */
} rx_jobs_t;

/* per thread: the shifted copy of one round */
static _Thread_local rx_step_t *rx_jobs_buf;
static _Thread_local uint32_t rx_jobs_cap;

static void rx_jobs_destroy(void *vctx)
{
    rx_jobs_t *c = vctx;
    free(c->first);
    free(c);
    free(rx_jobs_buf);
    rx_jobs_buf = NULL;
    rx_jobs_cap = 0;
}

static int rx_jobs_round(void *vctx, uint32_t rank, uint32_t round, const rx_step_t **steps, uint32_t *n)
{
    rx_jobs_t *c = vctx;
    uint32_t j = 0;
    while (rank >= c->first[j + 1])
        j++;
    const rx_workload_t *w = c->jobs[j];
    const rx_step_t *st;
    int rc = w->round(w->ctx, rank - c->first[j], round, &st, n);
    if (rc || !*n || !c->first[j]) {
        *steps = rc ? NULL : st;
        return rc;
    }
    if (*n > rx_jobs_cap) {
        rx_step_t *b = realloc(rx_jobs_buf, *n * sizeof *b);
        if (!b)
            return RX_ERR_NOMEM;
        rx_jobs_buf = b;
        rx_jobs_cap = *n;
    }
    for (uint32_t i = 0; i < *n; i++) {
        rx_jobs_buf[i] = st[i];
        if (st[i].op == RX_STEP_SEND || st[i].op == RX_STEP_RECV)
            rx_jobs_buf[i].peer += c->first[j];
    }
    *steps = rx_jobs_buf;
    return RX_OK;
}

int rx_workload_jobs(const rx_workload_t *const *jobs, uint32_t njobs, rx_workload_t *w, uint32_t **first)
{
    memset(w, 0, sizeof *w);
    if (!njobs)
        return RX_ERR_INVAL;
    rx_jobs_t *c = calloc(1, sizeof *c);
    uint32_t *f = malloc((njobs + 1) * sizeof *f), *f2 = malloc((njobs + 1) * sizeof *f2);
    if (!c || !f || !f2) {
        free(c);
        free(f);
        free(f2);
        return RX_ERR_NOMEM;
    }
    uint64_t n = 0;
    for (uint32_t j = 0; j < njobs; j++) {
        f[j] = (uint32_t)n;
        n += jobs[j]->nranks;
        if (jobs[j]->nrounds > w->nrounds)
            w->nrounds = jobs[j]->nrounds;
    }
    if (n > (1u << 24)) {
        free(c);
        free(f);
        free(f2);
        return RX_ERR_INVAL;
    }
    f[njobs] = (uint32_t)n;
    memcpy(f2, f, (njobs + 1) * sizeof *f);
    c->jobs = jobs;
    c->njobs = njobs;
    c->first = f;
    w->nranks = (uint32_t)n;
    w->round = rx_jobs_round;
    w->destroy = rx_jobs_destroy;
    w->ctx = c;
    w->concurrent = 0; /* one thread: the shifted copies live in that thread's buffer */
    snprintf(w->desc, sizeof w->desc, "%u jobs, %u ranks", njobs, w->nranks);
    *first = f2;
    return RX_OK;
}
