/* SPDX-License-Identifier: MIT
 * Traffic patterns as workloads: all-to-all as pairwise phases, shift, random permutation,
 * uniform random, 3D halo, dragonfly adversarial. Steps are produced round by round. */
#include "sim.h"
#include "util/log.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

typedef struct rx_pat_ctx {
    rx_pattern_opts_t po;
    uint32_t nphases;
    /* one-phase patterns keep their steps in CSR form: rank r's steps are steps[idx[r] .. idx[r+1]) */
    rx_step_t *steps;
    uint32_t *idx;
} rx_pat_ctx_t;

/* phased patterns fill two steps on demand, per thread: the phase threads of the simulator ask
 * for different rounds of one rank at once */
static _Thread_local rx_step_t rx_pat_buf[2];

static const char *rx_pat_names[] = {"alltoall", "alltoall-xor", "shift", "permutation", "uniform", "halo3d",
                                     "adversarial"};

int rx_pattern_parse(const char *name, int *pattern)
{
    for (int i = 0; i <= RX_PAT_ADVERSARIAL; i++)
        if (!strcmp(name, rx_pat_names[i])) {
            *pattern = i;
            return RX_OK;
        }
    rx_log_error("rdmx-topo: unknown pattern \"%s\" (alltoall, alltoall-xor, shift, permutation, uniform, halo3d, "
                 "adversarial)", name);
    return RX_ERR_INVAL;
}

const char *rx_pattern_name(int p)
{
    return p >= 0 && p <= RX_PAT_ADVERSARIAL ? rx_pat_names[p] : "?";
}

static int rx_pat_round(void *vctx, uint32_t rank, uint32_t round, const rx_step_t **steps, uint32_t *n)
{
    rx_pat_ctx_t *c = vctx;
    uint32_t N = c->po.nranks;
    if (round >= c->nphases * c->po.iterations)
        return RX_ERR_NOTFOUND;
    uint32_t k = round % c->nphases + 1;
    if (c->po.pattern == RX_PAT_ALLTOALL || c->po.pattern == RX_PAT_ALLTOALL_XOR) {
        uint32_t to, from;
        if (c->po.pattern == RX_PAT_ALLTOALL) {
            to = (rank + k) % N;
            from = (rank + N - k) % N;
        } else {
            to = from = rank ^ k;
        }
        rx_step_t *b = rx_pat_buf;
        b[0] = (rx_step_t){RX_STEP_SEND, to, c->po.bytes};
        b[1] = (rx_step_t){RX_STEP_RECV, from, c->po.bytes};
        *steps = b;
        *n = 2;
        return RX_OK;
    }
    *steps = &c->steps[c->idx[rank]];
    *n = c->idx[rank + 1] - c->idx[rank];
    return RX_OK;
}

static void rx_pat_destroy(void *vctx)
{
    rx_pat_ctx_t *c = vctx;
    free(c->steps);
    free(c->idx);
    free(c);
}

/* Builds the CSR steps of a one-phase pattern from its list of (src, dst) transfers. */
static int rx_pat_from_pairs(rx_pat_ctx_t *c, const uint32_t *src, const uint32_t *dst, size_t np)
{
    uint32_t N = c->po.nranks;
    c->idx = calloc(N + 2, sizeof *c->idx);
    c->steps = malloc((2 * np + 1) * sizeof *c->steps);
    uint32_t *fill = calloc(N + 1, sizeof *fill);
    if (!c->idx || !c->steps || !fill) {
        free(fill);
        return RX_ERR_NOMEM;
    }
    for (size_t i = 0; i < np; i++) {
        c->idx[src[i] + 1]++;
        c->idx[dst[i] + 1]++;
    }
    for (uint32_t r = 0; r < N; r++)
        c->idx[r + 1] += c->idx[r];
    for (size_t i = 0; i < np; i++) {
        c->steps[c->idx[src[i]] + fill[src[i]]++] = (rx_step_t){RX_STEP_SEND, dst[i], c->po.bytes};
        c->steps[c->idx[dst[i]] + fill[dst[i]]++] = (rx_step_t){RX_STEP_RECV, src[i], c->po.bytes};
    }
    free(fill);
    return RX_OK;
}

static uint64_t rx_rand_next(uint64_t *s)
{
    *s += 0x9e3779b97f4a7c15ULL;
    return rx_hash64(*s);
}

/* Near-cubic factorisation of n into d[0] >= d[1] >= d[2]. */
static void rx_grid3(uint32_t n, uint32_t d[3])
{
    uint64_t best = UINT64_MAX;
    for (uint32_t x = 1; x <= n; x++) {
        if (n % x)
            continue;
        for (uint32_t y = 1; y <= x && (uint64_t)x * y <= n; y++) {
            if ((n / x) % y)
                continue;
            uint32_t z = n / x / y;
            if (z > y)
                continue;
            uint64_t surf = (uint64_t)x * y + (uint64_t)y * z + (uint64_t)x * z;
            if (surf < best) {
                best = surf;
                d[0] = x;
                d[1] = y;
                d[2] = z;
            }
        }
    }
}

int rx_workload_pattern(const rx_topo_t *t, const rx_pattern_opts_t *po, rx_workload_t *w)
{
    uint32_t N = po->nranks;
    memset(w, 0, sizeof *w);
    if (N < 2) {
        rx_log_error("rdmx-topo: a pattern needs at least 2 ranks");
        return RX_ERR_INVAL;
    }
    rx_pat_ctx_t *c = calloc(1, sizeof *c);
    if (!c)
        return RX_ERR_NOMEM;
    c->po = *po;
    if (!c->po.iterations)
        c->po.iterations = 1;
    c->nphases = 1;
    int rc = RX_OK;
    uint32_t *src = NULL, *dst = NULL;
    size_t np = 0;
    uint64_t rs = po->seed * 0x2545f4914f6cdd1dULL + 17;
    switch (po->pattern) {
    case RX_PAT_ALLTOALL_XOR:
        if (N & (N - 1)) {
            rx_log_error("rdmx-topo: alltoall-xor needs a power-of-two rank count (%u)", N);
            rc = RX_ERR_INVAL;
            break;
        }
        /* fallthrough */
    case RX_PAT_ALLTOALL:
        c->nphases = N - 1;
        break;
    case RX_PAT_SHIFT:
    case RX_PAT_ADVERSARIAL: {
        long s = po->shift;
        if (po->pattern == RX_PAT_ADVERSARIAL) {
            if (t->family == RX_TOPO_DRAGONFLY)
                s = (long)t->df.a * t->df.p;
            else if (t->family == RX_TOPO_FATTREE)
                s = (long)t->ft.M[t->ft.levels > 1 ? t->ft.levels - 1 : 1];
            else {
                rx_log_error("rdmx-topo: the adversarial pattern needs a dragonfly or a fat-tree");
                rc = RX_ERR_INVAL;
                break;
            }
        }
        s = ((s % (long)N) + N) % N;
        if (s == 0) {
            rx_log_error("rdmx-topo: shift by %ld is the identity on %u ranks", po->shift, N);
            rc = RX_ERR_INVAL;
            break;
        }
        src = malloc(N * sizeof *src);
        dst = malloc(N * sizeof *dst);
        if (!src || !dst) {
            rc = RX_ERR_NOMEM;
            break;
        }
        for (uint32_t i = 0; i < N; i++) {
            src[i] = i;
            dst[i] = (uint32_t)((i + (uint64_t)s) % N);
        }
        np = N;
        break;
    }
    case RX_PAT_PERMUTATION: {
        src = malloc(N * sizeof *src);
        dst = malloc(N * sizeof *dst);
        if (!src || !dst) {
            rc = RX_ERR_NOMEM;
            break;
        }
        /* Sattolo's algorithm: a single cycle, so nobody sends to itself */
        for (uint32_t i = 0; i < N; i++)
            dst[i] = i;
        for (uint32_t i = N - 1; i > 0; i--) {
            uint32_t j = (uint32_t)(rx_rand_next(&rs) % i);
            uint32_t x = dst[i];
            dst[i] = dst[j];
            dst[j] = x;
        }
        for (uint32_t i = 0; i < N; i++)
            src[i] = i;
        np = N;
        break;
    }
    case RX_PAT_UNIFORM: {
        uint32_t k = po->k ? po->k : 1;
        np = (size_t)N * k;
        src = malloc(np * sizeof *src);
        dst = malloc(np * sizeof *dst);
        if (!src || !dst) {
            rc = RX_ERR_NOMEM;
            break;
        }
        for (uint32_t i = 0; i < N; i++)
            for (uint32_t j = 0; j < k; j++) {
                uint32_t d = (uint32_t)(rx_rand_next(&rs) % (N - 1));
                src[(size_t)i * k + j] = i;
                dst[(size_t)i * k + j] = d >= i ? d + 1 : d;
            }
        break;
    }
    case RX_PAT_HALO3D: {
        uint32_t d[3] = {po->dims[0], po->dims[1], po->dims[2]};
        if (!d[0])
            rx_grid3(N, d);
        if ((uint64_t)d[0] * d[1] * d[2] != N) {
            rx_log_error("rdmx-topo: halo3d grid %ux%ux%u does not hold %u ranks", d[0], d[1], d[2], N);
            rc = RX_ERR_INVAL;
            break;
        }
        c->po.dims[0] = d[0];
        c->po.dims[1] = d[1];
        c->po.dims[2] = d[2];
        src = malloc(6 * (size_t)N * sizeof *src);
        dst = malloc(6 * (size_t)N * sizeof *dst);
        if (!src || !dst) {
            rc = RX_ERR_NOMEM;
            break;
        }
        for (uint32_t r = 0; r < N; r++) {
            uint32_t x[3] = {r % d[0], r / d[0] % d[1], r / d[0] / d[1]};
            for (int a = 0; a < 3; a++) {
                if (d[a] == 1)
                    continue;
                for (int dir = -1; dir <= 1; dir += 2) {
                    uint32_t y[3] = {x[0], x[1], x[2]};
                    y[a] = (x[a] + d[a] + (uint32_t)dir) % d[a];
                    src[np] = r;
                    dst[np++] = y[0] + d[0] * (y[1] + d[1] * y[2]);
                }
            }
        }
        break;
    }
    default:
        rc = RX_ERR_INVAL;
    }
    /* point-to-point patterns split each transfer into k flows routed independently: the flow-level
     * stand-in for a packet-spraying (Valiant, UGAL) router spreading one transfer over paths */
    uint32_t split = po->k > 1 && (po->pattern == RX_PAT_SHIFT || po->pattern == RX_PAT_ADVERSARIAL ||
                                   po->pattern == RX_PAT_PERMUTATION) ? po->k : 1;
    if (!rc && split > 1) {
        uint32_t *s2 = malloc(np * split * sizeof *s2), *d2 = malloc(np * split * sizeof *d2);
        if (!s2 || !d2) {
            free(s2);
            free(d2);
            rc = RX_ERR_NOMEM;
        } else {
            for (size_t i = 0; i < np * split; i++) {
                s2[i] = src[i / split];
                d2[i] = dst[i / split];
            }
            free(src);
            free(dst);
            src = s2;
            dst = d2;
            np *= split;
            c->po.bytes = po->bytes / split;
        }
    }
    if (!rc && np)
        rc = rx_pat_from_pairs(c, src, dst, np);
    free(src);
    free(dst);
    if (rc) {
        rx_pat_destroy(c);
        return rc;
    }
    w->nranks = N;
    w->nrounds = c->nphases * c->po.iterations;
    w->round = rx_pat_round;
    w->destroy = rx_pat_destroy;
    w->ctx = c;
    w->concurrent = 1;
    int n = snprintf(w->desc, sizeof w->desc, "%s, %u ranks, %llu bytes", rx_pattern_name(po->pattern), N,
                     (unsigned long long)po->bytes);
    if (po->pattern == RX_PAT_UNIFORM)
        n += snprintf(w->desc + n, sizeof w->desc - n, ", %u flows per rank", po->k ? po->k : 1);
    else if (split > 1)
        n += snprintf(w->desc + n, sizeof w->desc - n, ", %u flows per transfer", split);
    if (po->pattern == RX_PAT_SHIFT)
        snprintf(w->desc + n, sizeof w->desc - n, ", shift %ld", po->shift);
    else if (po->pattern == RX_PAT_HALO3D)
        snprintf(w->desc + n, sizeof w->desc - n, ", grid %ux%ux%u", c->po.dims[0], c->po.dims[1], c->po.dims[2]);
    return RX_OK;
}

void rx_workload_free(rx_workload_t *w)
{
    if (w->destroy)
        w->destroy(w->ctx);
    memset(w, 0, sizeof *w);
}
