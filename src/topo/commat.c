/* SPDX-License-Identifier: MIT
 * Communication matrices: the traffic-matrix file format, extraction from a workload, and the
 * reverse (a one-phase workload that sends each entry). */
#include "place.h"
#include "util/log.h"
#include "util/status.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int rx_commat_push(rx_commat_t *m, uint32_t s, uint32_t d, double msgs, double bytes)
{
    if (m->nnz == m->cap) {
        uint32_t cap = m->cap ? m->cap * 2 : 1024;
        uint32_t *a = realloc(m->src, cap * sizeof *a);
        if (a) m->src = a;
        uint32_t *b = realloc(m->dst, cap * sizeof *b);
        if (b) m->dst = b;
        double *c = realloc(m->msgs, cap * sizeof *c);
        if (c) m->msgs = c;
        double *e = realloc(m->bytes, cap * sizeof *e);
        if (e) m->bytes = e;
        if (!a || !b || !c || !e)
            return RX_ERR_NOMEM;
        m->cap = cap;
    }
    m->src[m->nnz] = s;
    m->dst[m->nnz] = d;
    m->msgs[m->nnz] = msgs;
    m->bytes[m->nnz++] = bytes;
    return RX_OK;
}

/* Sorts by (src, dst) and merges duplicates. */
int rx_commat_sort(rx_commat_t *m)
{
    uint32_t *ord = malloc((m->nnz ? m->nnz : 1) * sizeof *ord);
    if (!ord)
        return RX_ERR_NOMEM;
    /* counting sort by dst then by src keeps it linear */
    for (int pass = 0; pass < 2; pass++) {
        uint32_t *cnt = calloc((size_t)m->n + 1, sizeof *cnt);
        if (!cnt) {
            free(ord);
            return RX_ERR_NOMEM;
        }
        const uint32_t *k = pass ? m->src : m->dst;
        for (uint32_t i = 0; i < m->nnz; i++)
            cnt[k[i] + 1]++;
        for (uint32_t i = 0; i < m->n; i++)
            cnt[i + 1] += cnt[i];
        for (uint32_t i = 0; i < m->nnz; i++)
            ord[cnt[k[i]]++] = i;
        free(cnt);
        /* apply the permutation */
        uint32_t *s2 = malloc(m->nnz * sizeof *s2 + 1), *d2 = malloc(m->nnz * sizeof *d2 + 1);
        double *g2 = malloc(m->nnz * sizeof *g2 + 1), *b2 = malloc(m->nnz * sizeof *b2 + 1);
        if (!s2 || !d2 || !g2 || !b2) {
            free(s2); free(d2); free(g2); free(b2); free(ord);
            return RX_ERR_NOMEM;
        }
        for (uint32_t i = 0; i < m->nnz; i++) {
            s2[i] = m->src[ord[i]];
            d2[i] = m->dst[ord[i]];
            g2[i] = m->msgs[ord[i]];
            b2[i] = m->bytes[ord[i]];
        }
        free(m->src); free(m->dst); free(m->msgs); free(m->bytes);
        m->src = s2; m->dst = d2; m->msgs = g2; m->bytes = b2;
        m->cap = m->nnz;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < m->nnz; i++) {
        if (k && m->src[k - 1] == m->src[i] && m->dst[k - 1] == m->dst[i]) {
            m->msgs[k - 1] += m->msgs[i];
            m->bytes[k - 1] += m->bytes[i];
            continue;
        }
        m->src[k] = m->src[i];
        m->dst[k] = m->dst[i];
        m->msgs[k] = m->msgs[i];
        m->bytes[k++] = m->bytes[i];
    }
    m->nnz = k;
    free(ord);
    return RX_OK;
}

int rx_commat_load(const char *path, uint32_t nranks, rx_commat_t *m)
{
    memset(m, 0, sizeof *m);
    FILE *f = fopen(path, "r");
    if (!f) {
        rx_log_error("%s: %s", path, strerror(errno));
        return RX_ERR_IO;
    }
    char *buf = NULL; /* lines of any length */
    size_t bcap = 0;
    int line = 0, rc = RX_OK, header = 0;
    uint32_t maxr = 0;
    while (!rc && getline(&buf, &bcap, f) >= 0) {
        line++;
        if (line == 1) {
            header = !strncmp(buf, "# rdmx traffic matrix v1", 24);
            if (!header) {
                rx_log_error("%s:1: expected \"# rdmx traffic matrix v1\"", path);
                rc = RX_ERR_INVAL;
            }
            continue;
        }
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = 0;
        unsigned long s, d;
        double msgs, bytes;
        char extra[2];
        int n = sscanf(buf, "%lu %lu %lf %lf %1s", &s, &d, &msgs, &bytes, extra);
        if (n <= 0)
            continue;
        if (n != 4 || msgs < 0 || bytes < 0 || s >= (1u << 24) || d >= (1u << 24)) {
            rx_log_error("%s:%d: expected \"SRC DST MESSAGES BYTES\"", path, line);
            rc = RX_ERR_INVAL;
            break;
        }
        if (nranks && (s >= nranks || d >= nranks)) {
            rx_log_error("%s:%d: rank %lu out of range (-n %u)", path, line, s >= nranks ? s : d, nranks);
            rc = RX_ERR_INVAL;
            break;
        }
        if (s == d)
            continue; /* a rank's traffic to itself never leaves it */
        if (s > maxr) maxr = (uint32_t)s;
        if (d > maxr) maxr = (uint32_t)d;
        rc = rx_commat_push(m, (uint32_t)s, (uint32_t)d, msgs, bytes);
    }
    if (!rc && ferror(f)) {
        rx_log_error("%s:%d: %s", path, line + 1, strerror(errno));
        rc = RX_ERR_IO;
    }
    free(buf);
    fclose(f);
    if (!rc && !header) {
        rx_log_error("%s: empty file", path);
        rc = RX_ERR_INVAL;
    }
    m->n = nranks ? nranks : maxr + 1;
    if (!rc)
        rc = rx_commat_sort(m);
    if (rc)
        rx_commat_free(m);
    return rc;
}

int rx_commat_from_workload(const rx_workload_t *w, rx_commat_t *m)
{
    memset(m, 0, sizeof *m);
    m->n = w->nranks;
    int rc = RX_OK;
    for (uint32_t r = 0; r < w->nranks && !rc; r++) {
        for (uint32_t k = 0;; k++) {
            const rx_step_t *st;
            uint32_t n;
            rc = w->round(w->ctx, r, k, &st, &n);
            if (rc == RX_ERR_NOTFOUND) {
                rc = RX_OK;
                break;
            }
            if (rc)
                break;
            for (uint32_t i = 0; i < n && !rc; i++)
                if (st[i].op == RX_STEP_SEND && st[i].peer != r)
                    rc = rx_commat_push(m, r, st[i].peer, 1, (double)st[i].bytes);
            /* merge as we go so that long workloads stay small */
            if (!rc && m->nnz > 4u * m->n + 65536)
                rc = rx_commat_sort(m);
        }
    }
    if (!rc)
        rc = rx_commat_sort(m);
    if (rc)
        rx_commat_free(m);
    return rc;
}

typedef struct rx_cm_ctx {
    rx_step_t *steps;
    uint32_t *idx;
} rx_cm_ctx_t;

static int rx_cm_round(void *v, uint32_t rank, uint32_t round, const rx_step_t **steps, uint32_t *n)
{
    rx_cm_ctx_t *c = v;
    if (round)
        return RX_ERR_NOTFOUND;
    *steps = &c->steps[c->idx[rank]];
    *n = c->idx[rank + 1] - c->idx[rank];
    return RX_OK;
}

static void rx_cm_destroy(void *v)
{
    rx_cm_ctx_t *c = v;
    free(c->steps);
    free(c->idx);
    free(c);
}

int rx_commat_workload(const rx_commat_t *m, rx_workload_t *w)
{
    memset(w, 0, sizeof *w);
    rx_cm_ctx_t *c = calloc(1, sizeof *c);
    if (!c)
        return RX_ERR_NOMEM;
    c->idx = calloc((size_t)m->n + 2, sizeof *c->idx);
    c->steps = malloc((2 * (size_t)m->nnz + 1) * sizeof *c->steps);
    uint32_t *fill = calloc((size_t)m->n + 1, sizeof *fill);
    if (!c->idx || !c->steps || !fill) {
        free(fill);
        rx_cm_destroy(c);
        return RX_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < m->nnz; i++) {
        c->idx[m->src[i] + 1]++;
        c->idx[m->dst[i] + 1]++;
    }
    for (uint32_t r = 0; r < m->n; r++)
        c->idx[r + 1] += c->idx[r];
    for (uint32_t i = 0; i < m->nnz; i++) {
        uint64_t b = (uint64_t)m->bytes[i];
        c->steps[c->idx[m->src[i]] + fill[m->src[i]]++] = (rx_step_t){RX_STEP_SEND, m->dst[i], b};
        c->steps[c->idx[m->dst[i]] + fill[m->dst[i]]++] = (rx_step_t){RX_STEP_RECV, m->src[i], b};
    }
    free(fill);
    w->nranks = m->n;
    w->nrounds = 1;
    w->round = rx_cm_round;
    w->destroy = rx_cm_destroy;
    w->ctx = c;
    w->concurrent = 1; /* read only */
    snprintf(w->desc, sizeof w->desc, "traffic matrix, %u ranks, %u entries", m->n, m->nnz);
    return RX_OK;
}

void rx_commat_free(rx_commat_t *m)
{
    free(m->src);
    free(m->dst);
    free(m->msgs);
    free(m->bytes);
    memset(m, 0, sizeof *m);
}
