/* SPDX-License-Identifier: MIT
 * Derived datatypes against a reference: random nested type trees (vectors of
 * structs of indexed ..., negative displacements, resized extents, subarrays)
 * are built twice, with the runtime's constructors and as an explicit type map
 * (one entry per basic element, expanded by the definitions of the MPI
 * standard). Size, bounds, true bounds, pack, unpack (whole and partial,
 * bytes outside the type map untouched) and element counts must agree. */
#include "dtype/basic.h"
#include "dtype/dtype.h"
#include "util/status.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int errors;
#define CHECK(c, ...)                                                                   \
    do {                                                                                \
        if (!(c)) {                                                                     \
            if (++errors < 20) {                                                        \
                fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #c);            \
                fprintf(stderr, __VA_ARGS__);                                           \
                fputc('\n', stderr);                                                    \
            }                                                                           \
        }                                                                               \
    } while (0)

typedef struct ent { intptr_t off; int sz; int first; } ent_t; /* first: starts an MPI element */
typedef struct ref {
    ent_t *e;
    int n, cap;
    intptr_t lb, ub;
    int any, explicit_bounds;
    size_t align;
} ref_t;

static uint64_t seed = 12345;
static uint64_t rnd(void)
{
    uint64_t z = (seed += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static int rint_(int lo, int hi) { return lo + (int)(rnd() % (uint64_t)(hi - lo + 1)); }

static void ref_push(ref_t *r, intptr_t off, int sz, int first)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 16;
        r->e = realloc(r->e, sizeof *r->e * (size_t)r->cap);
    }
    r->e[r->n++] = (ent_t){off, sz, first};
}

static intptr_t ext_of(const ref_t *r) { return r->ub - r->lb; }

static void ref_add(ref_t *r, const ref_t *t, intptr_t disp, int blen)
{
    if (blen == 0)
        return;
    intptr_t lo = disp + t->lb, hi = disp + (intptr_t)(blen - 1) * ext_of(t) + t->ub;
    if (!r->any || lo < r->lb)
        r->lb = lo;
    if (!r->any || hi > r->ub)
        r->ub = hi;
    r->any = 1;
    r->explicit_bounds |= t->explicit_bounds;
    if (t->align > r->align)
        r->align = t->align;
    for (int c = 0; c < blen; c++)
        for (int i = 0; i < t->n; i++)
            ref_push(r, disp + c * ext_of(t) + t->e[i].off, t->e[i].sz, t->e[i].first);
}

typedef struct node { rx_dtype_t *d; ref_t r; } node_t;

static node_t mk_basic(void)
{
    static const int ids[] = {1, 5, 7, 14, 34}; /* CHAR SHORT INT DOUBLE DOUBLE_INT */
    int id = ids[rint_(0, 4)];
    node_t n = {rx_dtype_get(RX_HANDLE(RX_KIND_DATATYPE, id)), {0}};
    n.r.align = n.d->align;
    if (id == 34) {
        ref_push(&n.r, 0, 8, 1);
        ref_push(&n.r, 8, 4, 0);
        n.r.ub = 16;
    } else {
        ref_push(&n.r, 0, (int)n.d->size, 1);
        n.r.ub = (intptr_t)n.d->size;
    }
    n.r.any = 1;
    return n;
}

static void ref_finish_struct(ref_t *r)
{
    if (!r->any) {
        r->lb = r->ub = 0;
        return;
    }
    if (!r->explicit_bounds && r->align > 1) {
        intptr_t span = r->ub - r->lb, a = (intptr_t)r->align;
        if (span % a)
            r->ub += a - span % a;
    }
}

static int budget; /* entries allowed in one tree */

static node_t mk(int depth)
{
    if (depth == 0 || budget < 8)
        return mk_basic();
    node_t old = mk(depth - 1);
    node_t n = {0};
    n.r.align = 1;
    int kind = rint_(0, 6);
    intptr_t ext = ext_of(&old.r);
    int rc = RX_OK;
    int lim = budget / (old.r.n ? old.r.n : 1);
    if (lim < 1)
        lim = 1;
    switch (kind) {
    case 0: { /* vector, stride in elements, possibly negative */
        int count = rint_(0, 5), blen = rint_(1, 3), stride = rint_(-6, 6);
        if (count * blen > lim)
            count = lim / blen;
        rc = rx_dtype_create_hvector(count, blen, stride * ext, old.d, &n.d);
        for (int i = 0; i < count; i++)
            ref_add(&n.r, &old.r, i * stride * ext, blen);
        break;
    }
    case 1: { /* hvector, byte stride */
        int count = rint_(1, 4), blen = rint_(1, 2);
        intptr_t stride = (intptr_t)rint_(-3, 3) * ext + rint_(0, 1) * 8;
        if (count * blen > lim)
            count = 1;
        rc = rx_dtype_create_hvector(count, blen, stride, old.d, &n.d);
        for (int i = 0; i < count; i++)
            ref_add(&n.r, &old.r, i * stride, blen);
        break;
    }
    case 2:
    case 3: { /* indexed / hindexed with negative displacements */
        int count = rint_(0, 4);
        size_t blens[4];
        intptr_t disps[4];
        for (int i = 0; i < count; i++) {
            blens[i] = (size_t)rint_(0, 3);
            disps[i] = kind == 2 ? rint_(-8, 8) * ext : rint_(-40, 40) * 8;
        }
        if (count * 3 > lim)
            count = 1;
        rc = rx_dtype_create_hindexed(count, blens, disps, old.d, &n.d);
        for (int i = 0; i < count; i++)
            ref_add(&n.r, &old.r, disps[i], (int)blens[i]);
        break;
    }
    case 4: { /* struct of old and more subtrees */
        int count = rint_(1, 3);
        size_t blens[3];
        intptr_t disps[3];
        rx_dtype_t *types[3];
        node_t kids[3];
        kids[0] = old;
        for (int i = 1; i < count; i++)
            kids[i] = mk(depth - 1);
        for (int i = 0; i < count; i++) {
            blens[i] = (size_t)rint_(0, 2);
            disps[i] = rint_(-5, 20) * 4;
            types[i] = kids[i].d;
        }
        rc = rx_dtype_create_struct(count, blens, disps, types, &n.d);
        for (int i = 0; i < count; i++)
            ref_add(&n.r, &kids[i].r, disps[i], (int)blens[i]);
        ref_finish_struct(&n.r);
        for (int i = 1; i < count; i++) {
            free(kids[i].r.e);
            rx_dtype_unref(kids[i].d);
        }
        break;
    }
    case 5: { /* resized: lb may be negative, extent >= 1 */
        intptr_t lb = rint_(-16, 16), extent = ext_of(&old.r) + rint_(-4, 24);
        if (extent < 1)
            extent = 1;
        rc = rx_dtype_create_resized(old.d, lb, extent, &n.d);
        ref_add(&n.r, &old.r, 0, 1);
        n.r.lb = lb;
        n.r.ub = lb + extent;
        n.r.any = 1;
        n.r.explicit_bounds = 1;
        break;
    }
    default: { /* subarray 2D or 3D, C or Fortran order */
        int nd = rint_(2, 3), sizes[3], sub[3], st[3], order_c = rint_(0, 1);
        for (int k = 0; k < nd; k++) {
            sizes[k] = rint_(1, 5);
            sub[k] = rint_(1, sizes[k]);
            st[k] = rint_(0, sizes[k] - sub[k]);
        }
        rc = rx_dtype_create_subarray(nd, sizes, sub, st, order_c, old.d, &n.d);
        /* reference: every index tuple in C order of the dimension list given */
        int idx[3] = {0, 0, 0};
        intptr_t stride[3];
        intptr_t s = ext;
        if (order_c)
            for (int k = nd - 1; k >= 0; k--) { stride[k] = s; s *= sizes[k]; }
        else
            for (int k = 0; k < nd; k++) { stride[k] = s; s *= sizes[k]; }
        int total = 1;
        for (int k = 0; k < nd; k++)
            total *= sub[k];
        for (int t = 0; t < total; t++) {
            int rem = t;
            if (order_c)
                for (int k = nd - 1; k >= 0; k--) { idx[k] = rem % sub[k]; rem /= sub[k]; }
            else
                for (int k = 0; k < nd; k++) { idx[k] = rem % sub[k]; rem /= sub[k]; }
            intptr_t disp = 0;
            for (int k = 0; k < nd; k++)
                disp += (st[k] + idx[k]) * stride[k];
            ref_add(&n.r, &old.r, disp, 1);
        }
        n.r.lb = 0;
        n.r.ub = s;
        n.r.any = 1;
        break;
    }
    }
    CHECK(rc == RX_OK, "constructor %d failed: %d", kind, rc);
    if (!n.r.any)
        n.r.lb = n.r.ub = 0;
    budget -= n.r.n;
    free(old.r.e);
    rx_dtype_unref(old.d);
    return n;
}

static void check_tree(int iter)
{
    budget = 3000;
    node_t n = mk(rint_(1, 4));
    rx_dtype_t *d = n.d;
    rx_dtype_commit(d);
    const ref_t *r = &n.r;
    size_t size = 0;
    intptr_t tlo = 0, thi = 0;
    for (int i = 0; i < r->n; i++) {
        size += (size_t)r->e[i].sz;
        if (i == 0 || r->e[i].off < tlo)
            tlo = r->e[i].off;
        if (i == 0 || r->e[i].off + r->e[i].sz > thi)
            thi = r->e[i].off + r->e[i].sz;
    }
    CHECK(d->size == size, "iter %d: size %zu, reference %zu", iter, d->size, size);
    CHECK(d->lb == r->lb && d->extent == r->ub - r->lb, "iter %d: lb/extent %ld/%ld, reference %ld/%ld",
          iter, (long)d->lb, (long)d->extent, (long)r->lb, (long)(r->ub - r->lb));
    if (r->n)
        CHECK(d->true_lb == tlo && d->true_extent == thi - tlo, "iter %d: true bounds %ld/%ld, reference %ld/%ld",
              iter, (long)d->true_lb, (long)d->true_extent, (long)tlo, (long)(thi - tlo));
    int count = rint_(1, 3);
    intptr_t ext = r->ub - r->lb;
    intptr_t lo = tlo < 0 ? tlo : 0, hi = thi;
    intptr_t elo = (count - 1) * ext;
    if (elo < 0)
        lo += elo;
    else
        hi += elo;
    size_t span = (size_t)(hi - lo) + 64;
    unsigned char *buf = malloc(span), *a = malloc(span), *b = malloc(span);
    unsigned char *packed = malloc(size * (size_t)count + 1), *rpacked = malloc(size * (size_t)count + 1);
    for (size_t i = 0; i < span; i++)
        buf[i] = (unsigned char)rnd();
    unsigned char *origin = buf + (-lo) + 32;
    rx_dtype_pack(d, origin, (size_t)count, packed);
    size_t p = 0;
    for (int e = 0; e < count; e++)
        for (int i = 0; i < r->n; i++) {
            memcpy(rpacked + p, origin + e * ext + r->e[i].off, (size_t)r->e[i].sz);
            p += (size_t)r->e[i].sz;
        }
    CHECK(memcmp(packed, rpacked, p) == 0, "iter %d: pack differs (%d entries, count %d)", iter, r->n, count);
    /* unpack a random prefix into a pattern-filled buffer */
    size_t bytes = rint_(0, 1) ? p : (size_t)(rnd() % (p + 1));
    memset(a, 0xa5, span);
    memset(b, 0xa5, span);
    rx_dtype_unpack(d, packed, bytes, a + (origin - buf));
    size_t q = 0;
    for (int e = 0; e < count && q < bytes; e++)
        for (int i = 0; i < r->n && q < bytes; i++) {
            size_t k = (size_t)r->e[i].sz < bytes - q ? (size_t)r->e[i].sz : bytes - q;
            memcpy(b + (origin - buf) + e * ext + r->e[i].off, packed + q, k);
            q += k;
        }
    CHECK(memcmp(a, b, span) == 0, "iter %d: unpack of %zu bytes differs", iter, bytes);
    /* element count of that prefix */
    long long want = 0;
    size_t c = 0;
    int cut = 0;
    for (int e = 0; e < count && c < bytes; e++)
        for (int i = 0; i < r->n && c < bytes; i++) {
            if (r->e[i].first) {
                int j = i + 1;
                size_t gsz = (size_t)r->e[i].sz;
                while (j < r->n && !r->e[j].first)
                    gsz += (size_t)r->e[j++].sz;
                if (c + gsz > bytes)
                    cut = 1;
                else
                    want++;
            }
            c += (size_t)r->e[i].sz;
        }
    if (cut)
        want = -1;
    long long got = rx_dtype_elements(d, bytes);
    CHECK(got == want, "iter %d: elements in %zu bytes %lld, reference %lld", iter, bytes, got, want);
    free(buf);
    free(a);
    free(b);
    free(packed);
    free(rpacked);
    free(n.r.e);
    rx_dtype_unref(d);
}

static void check_fast_paths(void)
{
    rx_dtype_t *dbl = rx_dtype_get(RX_HANDLE(RX_KIND_DATATYPE, 14)), *v, *c, *s;
    /* contiguous (blen copies) merges into one block, moved raw */
    CHECK(rx_dtype_create_hvector(1, 100, 0, dbl, &c) == RX_OK, "contiguous");
    rx_dtype_commit(c);
    CHECK(c->nblocks == 1 && c->contig && rx_dtype_wire_is_raw(c), "contiguous: %d blocks", c->nblocks);
    /* a vector: one strided loop */
    CHECK(rx_dtype_create_hvector(50, 2, 80, dbl, &v) == RX_OK, "vector");
    rx_dtype_commit(v);
    CHECK(v->vec_ok && v->vec_n1 == 1 && v->vec_n0 == 50 && v->vec_len == 16 && !v->contig,
          "vector: vec_ok %d n1 %zu n0 %zu len %zu", v->vec_ok, v->vec_n1, v->vec_n0, v->vec_len);
    /* the x face of a 3D block: two nested loops */
    int sizes[3] = {6, 7, 8}, sub[3] = {4, 5, 1}, st[3] = {1, 1, 3};
    CHECK(rx_dtype_create_subarray(3, sizes, sub, st, 1, dbl, &s) == RX_OK, "subarray");
    rx_dtype_commit(s);
    CHECK(s->vec_ok && s->vec_n1 == 4 && s->vec_n0 == 5 && s->vec_len == 8 && s->vec_s0 == 64 &&
          s->vec_s1 == 56 * 8, "subarray: n1 %zu n0 %zu s0 %ld s1 %ld", s->vec_n1, s->vec_n0,
          (long)s->vec_s0, (long)s->vec_s1);
    CHECK(s->extent == 6 * 7 * 8 * 8 && s->lb == 0, "subarray extent %ld", (long)s->extent);
    rx_dtype_unref(c);
    rx_dtype_unref(v);
    rx_dtype_unref(s);
}

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 3000;
    if (rx_dtype_init() != RX_OK) {
        fprintf(stderr, "rx_dtype_init failed\n");
        return 1;
    }
    check_fast_paths();
    for (int i = 0; i < iters; i++)
        check_tree(i);
    rx_dtype_fini();
    if (errors) {
        fprintf(stderr, "test_dtype: %d errors\n", errors);
        return 1;
    }
    printf("test_dtype: %d random type trees OK\n", iters);
    return 0;
}
