/* SPDX-License-Identifier: MIT
 * Pack / unpack between a typed buffer and the packed (wire) form.
 * Three paths, fastest first: one dense block per element (a single memcpy
 * for all elements), a strided description (nested loops with the block
 * length fixed per loop, so 4/8/16-byte blocks compile to plain loads and
 * stores instead of memcpy calls), and the general walk over blocks[]. */
#include "dtype.h"

#include <string.h>

/* n blocks of len bytes, stride apart in the typed buffer, to or from
 * consecutive packed bytes; returns the packed pointer after them. */
#define RX_STRIDED(NAME, DST, SRC, ADV_D, ADV_S)                                          \
    static char *NAME(char *dst, const char *src, size_t n, intptr_t stride, size_t len) \
    {                                                                                     \
        switch (len) {                                                                    \
        case 4:                                                                           \
            for (size_t i = 0; i < n; i++, ADV_D(4), ADV_S(4))                            \
                memcpy(DST, SRC, 4);                                                      \
            break;                                                                        \
        case 8:                                                                           \
            for (size_t i = 0; i < n; i++, ADV_D(8), ADV_S(8))                            \
                memcpy(DST, SRC, 8);                                                      \
            break;                                                                        \
        case 16:                                                                          \
            for (size_t i = 0; i < n; i++, ADV_D(16), ADV_S(16))                          \
                memcpy(DST, SRC, 16);                                                     \
            break;                                                                        \
        default:                                                                          \
            for (size_t i = 0; i < n; i++, ADV_D(len), ADV_S(len))                        \
                memcpy(DST, SRC, len);                                                    \
        }                                                                                 \
        return dst;                                                                       \
    }

/* gather: dst is packed (advances by len), src strided */
#define RX_ADV_PACKED(l) (dst += (l))
#define RX_ADV_STRIDED(l) (src += stride)
RX_STRIDED(rx_gather, dst, src, RX_ADV_PACKED, RX_ADV_STRIDED)
#undef RX_ADV_STRIDED
#undef RX_ADV_PACKED

/* scatter: here "dst" is the typed buffer (strided) and "src" the packed data;
 * the parameter names keep the macro shared, the roles are swapped */
#define RX_ADV_STRIDED(l) (dst += stride)
#define RX_ADV_PACKED(l) (src += (l))
RX_STRIDED(rx_scatter_impl, dst, src, RX_ADV_STRIDED, RX_ADV_PACKED)
#undef RX_ADV_STRIDED
#undef RX_ADV_PACKED

/* The dense case: every element is one block as long as the extent. */
static inline int rx_dense(const rx_dtype_t *d)
{
    return d->nblocks == 1 && d->blocks[0].len == (size_t)d->extent;
}

void rx_dtype_pack(const rx_dtype_t *d, const void *src, size_t count, void *dst)
{
    const char *s = src;
    char *o = dst;
    if (count == 0 || d->size == 0)
        return;
    if (rx_dense(d)) {
        memcpy(o, s + d->blocks[0].off, count * d->blocks[0].len);
        return;
    }
    if (d->vec_ok) {
        size_t n1 = d->vec_n1, n0 = d->vec_n0;
        if (n1 == 1 && d->extent == (intptr_t)n0 * d->vec_s0) { /* elements continue the stride */
            rx_gather(o, s + d->vec_off, n0 * count, d->vec_s0, d->vec_len);
            return;
        }
        for (size_t e = 0; e < count; e++, s += d->extent)
            for (size_t i1 = 0; i1 < n1; i1++)
                o = rx_gather(o, s + d->vec_off + (intptr_t)i1 * d->vec_s1, n0, d->vec_s0,
                              d->vec_len);
        return;
    }
    for (size_t e = 0; e < count; e++, s += d->extent)
        for (int b = 0; b < d->nblocks; b++) {
            memcpy(o, s + d->blocks[b].off, d->blocks[b].len);
            o += d->blocks[b].len;
        }
}

/* Unpack whole elements with the fast paths; returns packed bytes used. */
static size_t rx_unpack_whole(const rx_dtype_t *d, const char *in, size_t count, char *t)
{
    if (count == 0)
        return 0;
    if (rx_dense(d)) {
        memcpy(t + d->blocks[0].off, in, count * d->blocks[0].len);
        return count * d->wire;
    }
    if (d->vec_ok) {
        size_t n1 = d->vec_n1, n0 = d->vec_n0;
        if (n1 == 1 && d->extent == (intptr_t)n0 * d->vec_s0) {
            rx_scatter_impl(t + d->vec_off, in, n0 * count, d->vec_s0, d->vec_len);
            return count * d->wire;
        }
        const char *p = in;
        for (size_t e = 0; e < count; e++, t += d->extent)
            for (size_t i1 = 0; i1 < n1; i1++) {
                rx_scatter_impl(t + d->vec_off + (intptr_t)i1 * d->vec_s1, p, n0, d->vec_s0,
                                d->vec_len);
                p += n0 * d->vec_len;
            }
        return count * d->wire;
    }
    const char *p = in;
    for (size_t e = 0; e < count; e++, t += d->extent)
        for (int b = 0; b < d->nblocks; b++) {
            memcpy(t + d->blocks[b].off, p, d->blocks[b].len);
            p += d->blocks[b].len;
        }
    return count * d->wire;
}

void rx_dtype_unpack(const rx_dtype_t *d, const void *src, size_t bytes, void *dst)
{
    if (d->wire == 0)
        return;
    const char *in = src;
    char *t = dst;
    size_t full = bytes / d->wire;
    in += rx_unpack_whole(d, in, full, t);
    bytes -= full * d->wire;
    t += (intptr_t)full * d->extent;
    for (int b = 0; b < d->nblocks && bytes; b++) { /* a partial last element */
        size_t n = d->blocks[b].len < bytes ? d->blocks[b].len : bytes;
        memcpy(t + d->blocks[b].off, in, n);
        in += n;
        bytes -= n;
    }
}
