/* SPDX-License-Identifier: MIT
 * Schedule storage, the builder primitives, kind names, dispatch to an
 * algorithm's builder and the text writer. */
#include "sched.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

void rx_sched_init(rx_sched_t *s)
{
    memset(s, 0, sizeof *s);
}

void rx_sched_free(rx_sched_t *s)
{
    free(s->step);
    free(s->round);
    rx_sched_init(s);
}

void rx_sched_reset(rx_sched_t *s)
{
    s->nstep = s->nround = 0;
    s->tmp_bytes = 0;
    s->err = 0;
}

void rx_sched_round(rx_sched_t *s)
{
    if (s->nround == s->rcap) {
        uint32_t n = s->rcap ? s->rcap * 2 : 16;
        uint32_t *r = realloc(s->round, sizeof *r * n);
        if (!r) {
            s->err = 1;
            return;
        }
        s->round = r;
        s->rcap = n;
    }
    s->round[s->nround++] = s->nstep;
}

static void rx_sched_add(rx_sched_t *s, rx_sched_step_t st)
{
    if (!s->nround)
        rx_sched_round(s);
    if (s->nstep == s->cap) {
        uint32_t n = s->cap ? s->cap * 2 : 32;
        rx_sched_step_t *p = realloc(s->step, sizeof *p * n);
        if (!p) {
            s->err = 1;
            return;
        }
        s->step = p;
        s->cap = n;
    }
    s->step[s->nstep++] = st;
}

void rx_sched_send(rx_sched_t *s, int peer, int buf, uint64_t off, uint64_t bytes)
{
    rx_sched_add(s, (rx_sched_step_t){.op = RX_SOP_SEND, .buf = (uint8_t)buf, .peer = peer,
                                      .off = off, .bytes = bytes});
}

void rx_sched_recv(rx_sched_t *s, int peer, int buf, uint64_t off, uint64_t bytes)
{
    rx_sched_add(s, (rx_sched_step_t){.op = RX_SOP_RECV, .buf = (uint8_t)buf, .peer = peer,
                                      .off = off, .bytes = bytes});
}

void rx_sched_copy(rx_sched_t *s, int buf, uint64_t off, int buf2, uint64_t off2, uint64_t bytes)
{
    if (bytes == 0 || (buf == buf2 && off == off2))
        return;
    rx_sched_add(s, (rx_sched_step_t){.op = RX_SOP_COPY, .buf = (uint8_t)buf, .buf2 = (uint8_t)buf2,
                                      .peer = -1, .off = off, .off2 = off2, .bytes = bytes});
}

void rx_sched_reduce(rx_sched_t *s, int in, uint64_t off, int inout, uint64_t off2, uint64_t bytes)
{
    if (bytes == 0)
        return;
    rx_sched_add(s, (rx_sched_step_t){.op = RX_SOP_REDUCE, .buf = (uint8_t)in, .buf2 = (uint8_t)inout,
                                      .peer = -1, .off = off, .off2 = off2, .bytes = bytes});
}

void rx_sched_tmp(rx_sched_t *s, uint64_t bytes)
{
    if (bytes > s->tmp_bytes)
        s->tmp_bytes = bytes;
}

static const char *const rx_kind_names[RX_COLL_KINDS] = {
    "barrier", "bcast", "reduce", "allreduce", "gather", "scatter", "allgather", "alltoall",
    "reduce_scatter", "scan", "exscan",
};

const char *rx_coll_kind_name(int kind)
{
    return kind >= 0 && kind < RX_COLL_KINDS ? rx_kind_names[kind] : "?";
}

int rx_sched_name_eq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;
        if (x != y)
            return 0;
    }
    return *a == *b;
}

int rx_coll_kind_parse(const char *s)
{
    for (int i = 0; i < RX_COLL_KINDS; i++)
        if (rx_sched_name_eq(s, rx_kind_names[i]))
            return i;
    return -1;
}

int rx_sched_build(rx_sched_t *s, const rx_sched_args_t *a)
{
    rx_sched_reset(s);
    if (!a->algo || a->algo->kind != a->kind || !rx_sched_algo_fits(a))
        return RX_ERR_INVAL;
    int rc = a->algo->build(s, a);
    if (rc == RX_OK && s->err)
        rc = RX_ERR_NOMEM;
    return rc;
}

const rx_sched_algo_t *rx_sched_parse_name(const char *name)
{
    /* the longest kind that prefixes name, then '-' or '_' and an algorithm */
    size_t best = 0;
    const rx_sched_algo_t *found = NULL;
    for (int k = 0; k < RX_COLL_KINDS; k++) {
        size_t n = strlen(rx_kind_names[k]), i;
        for (i = 0; i < n && name[i]; i++) {
            char x = name[i] == '-' ? '_' : name[i];
            if (x != rx_kind_names[k][i])
                break;
        }
        if (i == n && (name[n] == '-' || name[n] == '_') && n > best) {
            const rx_sched_algo_t *al = rx_sched_algo_find(k, name + n + 1);
            if (al) {
                best = n;
                found = al;
            }
        }
    }
    return found;
}

int rx_sched_write(FILE *f, const char *name, rx_sched_args_t a)
{
    rx_sched_t s;
    rx_sched_init(&s);
    int rc = RX_OK;
    fprintf(f, "# rdmx schedule v1\nalgorithm %s\n", name);
    fprintf(f, "bytes %llu\nnranks %d\n",
            (unsigned long long)(a.bytes ? a.bytes : a.count * a.unit), a.p);
    for (int r = 0; r < a.p && rc == RX_OK; r++) {
        a.rank = r;
        if ((rc = rx_sched_build(&s, &a)) != RX_OK)
            break;
        fprintf(f, "rank %d\n", r);
        for (uint32_t i = 0; i < s.nround; i++) {
            uint32_t end = i + 1 < s.nround ? s.round[i + 1] : s.nstep;
            /* transfers first, then the local steps: the order they run in */
            fputs("round", f);
            const char *sep = " ";
            for (int pass = 0; pass < 2; pass++) {
                for (uint32_t j = s.round[i]; j < end; j++) {
                    const rx_sched_step_t *st = &s.step[j];
                    int xfer = st->op == RX_SOP_SEND || st->op == RX_SOP_RECV;
                    if (xfer != (pass == 0))
                        continue;
                    unsigned long long b = (unsigned long long)st->bytes;
                    if (st->op == RX_SOP_SEND)
                        fprintf(f, "%ssend %d %llu", sep, st->peer, b);
                    else if (st->op == RX_SOP_RECV)
                        fprintf(f, "%srecv %d %llu", sep, st->peer, b);
                    else
                        fprintf(f, "%s%s %llu", sep, st->op == RX_SOP_REDUCE ? "reduce" : "copy", b);
                    sep = " ; ";
                }
            }
            fputc('\n', f);
        }
    }
    fprintf(f, "end\n");
    rx_sched_free(&s);
    if (rc == RX_OK && ferror(f))
        rc = RX_ERR_IO;
    return rc;
}
