/* SPDX-License-Identifier: MIT
 * Derived datatype constructors. Every constructor reduces to "blens[i] copies
 * of type t_i at byte displacement d_i", appended in order to a builder that
 * flattens the type map into blocks (merging a block into the previous one when
 * it continues it in memory), keeps the runs of basic elements and the bounds
 * the MPI standard defines (lb = min of the copies' lb, ub = max of their ub).
 *
 * Sizes and bounds are 64-bit (MPI_Count, MPI_Aint). Every sum and product
 * that builds them is checked: a type whose size, bounds or extent would not
 * fit fails with RX_ERR_OVERFLOW before anything is allocated for it (the
 * extreme copies are checked first, so a huge count never loops). */
#include "dtype.h"
#include "basic.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

typedef struct rx_dbuild {
    rx_dtype_t *d;
    size_t bcap, rcap;
    int any;               /* a copy contributed bounds */
    intptr_t lb, ub;
} rx_dbuild_t;

static int rx_db_init(rx_dbuild_t *b)
{
    memset(b, 0, sizeof *b);
    b->d = calloc(1, sizeof *b->d);
    if (!b->d)
        return RX_ERR_NOMEM;
    b->d->align = 1;
    return RX_OK;
}

static void rx_db_abort(rx_dbuild_t *b)
{
    free(b->d->blocks);
    free(b->d->runs);
    free(b->d);
    b->d = NULL;
}

static int rx_db_block(rx_dbuild_t *b, intptr_t off, size_t len)
{
    rx_dtype_t *d = b->d;
    if (len == 0)
        return RX_OK;
    d->size += len;
    if (d->nblocks) {
        struct rx_dtype_block *last = &d->blocks[d->nblocks - 1];
        if (last->off + (intptr_t)last->len == off) {
            last->len += len;
            return RX_OK;
        }
    }
    if ((size_t)d->nblocks == b->bcap) {
        size_t cap = b->bcap ? b->bcap * 2 : 8;
        if (cap > (size_t)INT32_MAX)
            return RX_ERR_NOMEM;
        void *nb = realloc(d->blocks, cap * sizeof *d->blocks);
        if (!nb)
            return RX_ERR_NOMEM;
        d->blocks = nb;
        b->bcap = cap;
    }
    d->blocks[d->nblocks].off = off;
    d->blocks[d->nblocks].len = len;
    d->nblocks++;
    return RX_OK;
}

static int rx_db_runs(rx_dbuild_t *b, const rx_dtype_t *t, size_t copies)
{
    rx_dtype_t *d = b->d;
    d->basic_count += copies * t->basic_count;
    for (size_t c = 0; c < copies; c++) {
        for (int i = 0; i < t->nruns; i++) {
            if (d->nruns && d->runs[d->nruns - 1].basic == t->runs[i].basic) {
                if (t->nruns == 1) { /* the common case: one basic type throughout */
                    d->runs[d->nruns - 1].count += t->runs[i].count * (copies - c);
                    return RX_OK;
                }
                d->runs[d->nruns - 1].count += t->runs[i].count;
                continue;
            }
            if ((size_t)d->nruns == b->rcap) {
                size_t cap = b->rcap ? b->rcap * 2 : 4;
                void *nr = realloc(d->runs, cap * sizeof *d->runs);
                if (!nr)
                    return RX_ERR_NOMEM;
                d->runs = nr;
                b->rcap = cap;
            }
            d->runs[d->nruns++] = t->runs[i];
        }
    }
    return RX_OK;
}

/* The interval covered by n >= 1 copies, the first at disp, each stride
 * further, each covering [from, from + width] relative to its start: the
 * first and the last copy bound it (a negative stride walks backwards). */
static int rx_span(intptr_t disp, size_t n, intptr_t stride, intptr_t from, intptr_t width,
                   intptr_t *lo, intptr_t *hi)
{
    intptr_t last, a0, a1, b0, b1;
    if (n - 1 > (size_t)INTPTR_MAX || __builtin_mul_overflow((intptr_t)(n - 1), stride, &last) ||
        __builtin_add_overflow(disp, last, &last) || __builtin_add_overflow(disp, from, &a0) ||
        __builtin_add_overflow(a0, width, &a1) || __builtin_add_overflow(last, from, &b0) ||
        __builtin_add_overflow(b0, width, &b1))
        return RX_ERR_OVERFLOW;
    *lo = a0 < b0 ? a0 : b0;
    *hi = a1 > b1 ? a1 : b1;
    return RX_OK;
}

/* blen copies of t at disp (bounds, true bounds and size) fit 64 bits. */
static int rx_copies_fit(intptr_t disp, size_t blen, const rx_dtype_t *t, intptr_t *lo,
                         intptr_t *hi)
{
    intptr_t tlo, thi;
    size_t bytes;
    if (rx_span(disp, blen, t->extent, t->lb, t->extent, lo, hi) != RX_OK ||
        rx_span(disp, blen, t->extent, t->true_lb, t->true_extent, &tlo, &thi) != RX_OK ||
        __builtin_mul_overflow(blen, t->size, &bytes) || bytes > (size_t)INTPTR_MAX)
        return RX_ERR_OVERFLOW;
    return RX_OK;
}

/* blen copies of t, the first at displacement disp, each one extent further. */
static int rx_db_add(rx_dbuild_t *b, intptr_t disp, size_t blen, const rx_dtype_t *t)
{
    if (blen == 0)
        return RX_OK;
    rx_dtype_t *d = b->d;
    intptr_t lo, hi;
    size_t total;
    if (rx_copies_fit(disp, blen, t, &lo, &hi) != RX_OK ||
        __builtin_add_overflow(d->size, blen * t->size, &total) || total > (size_t)INTPTR_MAX)
        return RX_ERR_OVERFLOW;
    if (!b->any || lo < b->lb)
        b->lb = lo;
    if (!b->any || hi > b->ub)
        b->ub = hi;
    b->any = 1;
    if (t->align > d->align)
        d->align = t->align;
    d->explicit_bounds |= t->explicit_bounds;
    if (d->basic != -1) {
        if (t->basic == 0 || (d->basic && d->basic != t->basic))
            d->basic = -1; /* mixed */
        else
            d->basic = t->basic;
    }
    int rc;
    int dense = t->nblocks == 1 && t->blocks[0].len == (size_t)t->extent;
    if (dense) { /* consecutive copies are one block */
        if ((rc = rx_db_block(b, disp + t->blocks[0].off, blen * t->blocks[0].len)) != RX_OK)
            return rc;
    } else {
        for (size_t c = 0; c < blen; c++) {
            intptr_t base = disp + (intptr_t)c * t->extent;
            for (int i = 0; i < t->nblocks; i++)
                if ((rc = rx_db_block(b, base + t->blocks[i].off, t->blocks[i].len)) != RX_OK)
                    return rc;
        }
    }
    return rx_db_runs(b, t, blen);
}

/* Close the type: bounds, true bounds, wire size, flags; register a handle. */
static int rx_db_finish(rx_dbuild_t *b, int pad_to_align, rx_dtype_t **out)
{
    rx_dtype_t *d = b->d;
    d->lb = b->any ? b->lb : 0;
    intptr_t ub = b->any ? b->ub : 0;
    if (__builtin_sub_overflow(ub, d->lb, &d->extent))
        goto overflow;
    if (pad_to_align && !d->explicit_bounds && d->align > 1) {
        /* as C lays out a struct: the extent is a multiple of the largest
         * alignment of its members */
        intptr_t a = (intptr_t)d->align, pad = d->extent % a ? a - d->extent % a : 0;
        if (__builtin_add_overflow(ub, pad, &ub) || __builtin_sub_overflow(ub, d->lb, &d->extent))
            goto overflow;
    }
    if (d->nblocks) {
        intptr_t lo = d->blocks[0].off, hi = lo + (intptr_t)d->blocks[0].len;
        for (int i = 1; i < d->nblocks; i++) {
            if (d->blocks[i].off < lo)
                lo = d->blocks[i].off;
            if (d->blocks[i].off + (intptr_t)d->blocks[i].len > hi)
                hi = d->blocks[i].off + (intptr_t)d->blocks[i].len;
        }
        d->true_lb = lo;
        if (__builtin_sub_overflow(hi, lo, &d->true_extent))
            goto overflow;
    }
    if (d->basic == -1)
        d->basic = 0;
    d->wire = d->size;
    d->contig = d->size == 0 ? d->extent == 0
                             : d->nblocks == 1 && d->blocks[0].off == 0 && d->lb == 0 &&
                                   d->blocks[0].len == (size_t)d->extent;
    d->refcount = 1;
    d->handles = 1;
    d->name = d->namebuf;
    int idx = rx_htab_add(&rx_dtype_table, d, RX_BASIC_COUNT);
    if (idx < 0) {
        rx_db_abort(b);
        return RX_ERR_NOMEM;
    }
    d->index = idx;
    *out = d;
    return RX_OK;
overflow:
    rx_db_abort(b);
    return RX_ERR_OVERFLOW;
}

int rx_dtype_create_struct(size_t count, const size_t *blens, const intptr_t *disps,
                           rx_dtype_t *const *olds, rx_dtype_t **out)
{
    rx_dbuild_t b;
    int rc = rx_db_init(&b);
    for (size_t i = 0; rc == RX_OK && i < count; i++)
        rc = rx_db_add(&b, disps[i], blens[i], olds[i]);
    if (rc != RX_OK) {
        rx_db_abort(&b);
        return rc;
    }
    return rx_db_finish(&b, 1, out);
}

int rx_dtype_create_hindexed(size_t count, const size_t *blens, const intptr_t *disps,
                             rx_dtype_t *old, rx_dtype_t **out)
{
    rx_dbuild_t b;
    int rc = rx_db_init(&b);
    for (size_t i = 0; rc == RX_OK && i < count; i++)
        rc = rx_db_add(&b, disps[i], blens[i], old);
    if (rc != RX_OK) {
        rx_db_abort(&b);
        return rc;
    }
    return rx_db_finish(&b, 0, out);
}

int rx_dtype_create_hvector(size_t count, size_t blen, intptr_t stride, rx_dtype_t *old,
                            rx_dtype_t **out)
{
    /* the first and the last block bound the others: check them (and the
     * total size) before building count blocks */
    intptr_t lo, hi, last;
    size_t bytes;
    size_t copies;
    if (count > 0 && blen > 0 &&
        (count - 1 > (size_t)INTPTR_MAX ||
         __builtin_mul_overflow((intptr_t)(count - 1), stride, &last) ||
         rx_copies_fit(0, blen, old, &lo, &hi) != RX_OK ||
         rx_copies_fit(last, blen, old, &lo, &hi) != RX_OK ||
         __builtin_mul_overflow(count, blen, &copies) ||
         __builtin_mul_overflow(copies, old->size, &bytes) || bytes > (size_t)INTPTR_MAX))
        return RX_ERR_OVERFLOW;
    rx_dbuild_t b;
    int rc = rx_db_init(&b);
    for (size_t i = 0; rc == RX_OK && i < count; i++)
        rc = rx_db_add(&b, (intptr_t)i * stride, blen, old);
    if (rc != RX_OK) {
        rx_db_abort(&b);
        return rc;
    }
    return rx_db_finish(&b, 0, out);
}

/* A builder holding one copy of old (resized, dup). */
static int rx_db_one(rx_dbuild_t *b, rx_dtype_t *old)
{
    int rc = rx_db_init(b);
    if (rc == RX_OK && (rc = rx_db_add(b, 0, 1, old)) != RX_OK)
        rx_db_abort(b);
    return rc;
}

int rx_dtype_create_resized(rx_dtype_t *old, intptr_t lb, intptr_t extent, rx_dtype_t **out)
{
    rx_dbuild_t b;
    int rc = rx_db_one(&b, old);
    if (rc != RX_OK)
        return rc;
    b.lb = lb;
    if (__builtin_add_overflow(lb, extent, &b.ub)) {
        rx_db_abort(&b);
        return RX_ERR_INVAL; /* lb + extent is not an address */
    }
    b.d->explicit_bounds = 1;
    return rx_db_finish(&b, 0, out);
}

int rx_dtype_dup(rx_dtype_t *old, rx_dtype_t **out)
{
    rx_dbuild_t b;
    int rc = rx_db_one(&b, old);
    if (rc != RX_OK)
        return rc;
    /* the copy has the same bounds, whatever built them */
    b.lb = old->lb;
    b.ub = old->lb + old->extent;
    b.d->align = old->align;
    b.d->explicit_bounds = old->explicit_bounds;
    return rx_db_finish(&b, 0, out);
}

/* Blocks of the subarray in type-map order: every index tuple of the
 * sub-array, the fastest dimension as one run of subsizes[fast] elements. */
int rx_dtype_create_subarray(int ndims, const int *sizes, const int *subsizes,
                             const int *starts, int order_c, rx_dtype_t *old,
                             rx_dtype_t **out)
{
    /* dim(k): k-th dimension from the slowest to the fastest */
#define RX_DIM(a, k) ((a)[order_c ? (k) : ndims - 1 - (k)])
    intptr_t stride[32];
    int idx[32];
    intptr_t s = old->extent;
    for (int k = ndims - 1; k >= 0; k--) {
        stride[k] = s;
        if (__builtin_mul_overflow(s, (intptr_t)RX_DIM(sizes, k), &s))
            return RX_ERR_OVERFLOW;
    }
    intptr_t full = s; /* the whole array: every displacement below lies inside it */
    size_t bytes = old->size;
    for (int k = 0; k < ndims; k++)
        if (__builtin_mul_overflow(bytes, (size_t)RX_DIM(subsizes, k), &bytes) ||
            bytes > (size_t)INTPTR_MAX)
            return RX_ERR_OVERFLOW;
    rx_dbuild_t b;
    int rc = rx_db_init(&b);
    if (rc != RX_OK)
        return rc;
    size_t runs = 1;
    for (int k = 0; k < ndims - 1; k++)
        runs *= (size_t)RX_DIM(subsizes, k);
    int fast = RX_DIM(subsizes, ndims - 1);
    if (fast == 0)
        runs = 0;
    memset(idx, 0, sizeof idx);
    for (size_t r = 0; r < runs && rc == RX_OK; r++) {
        intptr_t disp = 0;
        for (int k = 0; k < ndims; k++)
            disp += (RX_DIM(starts, k) + (k < ndims - 1 ? idx[k] : 0)) * stride[k];
        rc = rx_db_add(&b, disp, (size_t)fast, old);
        for (int k = ndims - 2; k >= 0; k--) { /* odometer */
            if (++idx[k] < RX_DIM(subsizes, k))
                break;
            idx[k] = 0;
        }
    }
#undef RX_DIM
    if (rc != RX_OK) {
        rx_db_abort(&b);
        return rc;
    }
    /* the type spans the whole array: lb 0, extent = product of sizes */
    b.lb = 0;
    b.ub = full;
    b.any = 1;
    return rx_db_finish(&b, 0, out);
}

int rx_dtype_set_large_counts(rx_dtype_t *d, int nc, const int64_t *counts)
{
    if (nc && !(d->lcounts = malloc(sizeof(int64_t) * (size_t)nc)))
        return RX_ERR_NOMEM;
    if (nc)
        memcpy(d->lcounts, counts, sizeof(int64_t) * (size_t)nc);
    d->nc = nc;
    return RX_OK;
}

int rx_dtype_set_envelope(rx_dtype_t *d, int combiner, int ni, const int *ints, int na,
                          const intptr_t *aints, int nt, const int *types)
{
    d->combiner = combiner;
    if (ni && !(d->ints = malloc(sizeof(int) * (size_t)ni)))
        return RX_ERR_NOMEM;
    if (na && !(d->aints = malloc(sizeof(intptr_t) * (size_t)na)))
        return RX_ERR_NOMEM;
    if (nt && !(d->types = malloc(sizeof(int) * (size_t)nt)))
        return RX_ERR_NOMEM;
    if (ni)
        memcpy(d->ints, ints, sizeof(int) * (size_t)ni);
    if (na)
        memcpy(d->aints, aints, sizeof(intptr_t) * (size_t)na);
    if (nt)
        memcpy(d->types, types, sizeof(int) * (size_t)nt);
    d->ni = ni;
    d->na = na;
    d->nt = nt;
    for (int i = 0; i < nt; i++)
        rx_dtype_ref(rx_dtype_get_held(types[i]));
    return RX_OK;
}

/* Find at most two nested strided loops of equal blocks. */
void rx_dtype_commit(rx_dtype_t *d)
{
    d->committed = 1;
    d->vec_ok = 0;
    int n = d->nblocks;
    if (n == 0)
        return;
    const struct rx_dtype_block *bl = d->blocks;
    size_t len = bl[0].len;
    for (int i = 1; i < n; i++)
        if (bl[i].len != len)
            return;
    intptr_t off = bl[0].off;
    intptr_t s0 = n > 1 ? bl[1].off - off : 0;
    int n0 = 1;
    while (n0 < n && bl[n0].off == off + (intptr_t)n0 * s0)
        n0++;
    intptr_t s1 = n0 < n ? bl[n0].off - off : 0;
    if (n % n0)
        return;
    int n1 = n / n0;
    for (int i1 = 0; i1 < n1; i1++)
        for (int i0 = 0; i0 < n0; i0++)
            if (bl[i1 * n0 + i0].off != off + (intptr_t)i1 * s1 + (intptr_t)i0 * s0)
                return;
    d->vec_n1 = (size_t)n1;
    d->vec_n0 = (size_t)n0;
    d->vec_s1 = s1;
    d->vec_s0 = s0;
    d->vec_off = off;
    d->vec_len = len;
    d->vec_ok = 1;
}
