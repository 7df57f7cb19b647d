/* SPDX-License-Identifier: MIT
 * I/O-vector views of typed buffers: a cursor over the blocks of count
 * elements that hands out (address, length) pieces in packed order, so a
 * transport can move data between two layouts without packing either. A
 * piece may be cut anywhere, so two cursors can be kept in step byte for
 * byte while each side's pieces are limited in number. */
#include "dtype.h"

void rx_dtype_iter_init(rx_dtype_iter_t *it, uintptr_t base, size_t count, intptr_t extent,
                        const struct rx_dtype_block *blocks, size_t nblocks)
{
    it->base = base;
    it->count = nblocks ? count : 0;
    it->extent = extent;
    it->blocks = blocks;
    it->nblocks = nblocks;
    it->elem = 0;
    it->blk = 0;
    it->done = 0;
}

size_t rx_dtype_iter_next(rx_dtype_iter_t *it, struct iovec *iov, size_t max, size_t limit,
                          size_t *bytes)
{
    size_t n = 0, total = 0;
    while (n < max && total < limit && it->elem < it->count) {
        const struct rx_dtype_block *b = &it->blocks[it->blk];
        size_t len = b->len - it->done;
        if (len > limit - total)
            len = limit - total;
        uintptr_t addr = it->base + (uintptr_t)((intptr_t)it->elem * it->extent + b->off) + it->done;
        if (len) {
            /* blocks of consecutive elements may continue each other */
            if (n && (uintptr_t)iov[n - 1].iov_base + iov[n - 1].iov_len == addr) {
                iov[n - 1].iov_len += len;
            } else {
                iov[n].iov_base = (void *)addr;
                iov[n].iov_len = len;
                n++;
            }
            total += len;
        }
        it->done += len;
        if (it->done == b->len) {
            it->done = 0;
            if (++it->blk == it->nblocks) {
                it->blk = 0;
                it->elem++;
            }
        }
    }
    *bytes = total;
    return n;
}

size_t rx_dtype_avg_block(const rx_dtype_t *d)
{
    if (d->nblocks == 0)
        return SIZE_MAX;
    /* one element whose blocks continue into the next counts as one block */
    if (d->nblocks == 1 && d->blocks[0].len == (size_t)d->extent)
        return SIZE_MAX;
    return d->wire / (size_t)d->nblocks;
}
