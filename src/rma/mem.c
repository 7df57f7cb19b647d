/* SPDX-License-Identifier: MIT
 * MPI_Alloc_mem memory: each block is its own anonymous memory file, so that
 * a window later created on it (MPI_Win_create) is mapped by the other ranks
 * of the node and reached with loads, stores and atomic instructions instead
 * of cross-memory attach. The registry finds a block from any address in it. */
#include "rma.h"
#include "util/status.h"

#include <stdlib.h>

typedef struct rx_mem_blk {
    struct rx_mem_blk *next;
    char *addr;
    size_t size;
    int fd;
} rx_mem_blk_t;

static rx_mem_blk_t *rx_mem_blocks;

int rx_rma_mem_alloc(size_t size, void **addr)
{
    rx_mem_blk_t *b = malloc(sizeof *b);
    if (!b)
        return RX_ERR_NOMEM;
    void *p;
    int rc = rx_region_fd_alloc(size, &b->fd, &p);
    if (rc != RX_OK) {
        free(b);
        return rc;
    }
    b->addr = p;
    b->size = size;
    b->next = rx_mem_blocks;
    rx_mem_blocks = b;
    *addr = p;
    return RX_OK;
}

int rx_rma_mem_free(void *addr)
{
    for (rx_mem_blk_t **pp = &rx_mem_blocks; *pp; pp = &(*pp)->next) {
        rx_mem_blk_t *b = *pp;
        if (b->addr == addr) {
            *pp = b->next;
            rx_region_fd_free(b->fd, b->addr, b->size);
            free(b);
            return RX_OK;
        }
    }
    return RX_ERR_NOTFOUND;
}

int rx_rma_mem_lookup(const void *addr, size_t len, int *fd, uint64_t *off)
{
    const char *a = addr;
    for (rx_mem_blk_t *b = rx_mem_blocks; b; b = b->next)
        if (a >= b->addr && a + len <= b->addr + (b->size ? b->size : 1)) {
            *fd = b->fd;
            *off = (uint64_t)(a - b->addr);
            return RX_OK;
        }
    return RX_ERR_NOTFOUND;
}
