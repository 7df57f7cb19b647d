/* SPDX-License-Identifier: MIT
 * Symmetric memory: the heap window with its allocator, and the window over
 * the program's static data.
 *
 * The allocator keeps its block list in private memory, never inside the
 * heap, so a stray store into symmetric memory cannot corrupt it. Every PE
 * makes the same calls with the same arguments (the standard requires it),
 * so every PE's list, and with it every offset, stays the same; each call
 * checks that by a reduction, which is also the barrier the standard asks
 * for, and ends the job when the PEs disagree. */
#define _GNU_SOURCE
#include "shmem_impl.h"
#include "coll/coll.h"
#include "dtype/basic.h"
#include "mpi/comm_internal.h"
#include "op/op.h"
#include "util/status.h"

#include <ctype.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RX_SH_HEAP_DEFAULT (64ull << 20)
#define RX_SH_MIN_ALIGN 64 /* a cache line: blocks of two PEs' data never share one */

typedef struct rx_sh_blk {
    size_t off, size;
    int used;
} rx_sh_blk_t;

static rx_sh_blk_t *rx_sh_blks;
static size_t rx_sh_nblk, rx_sh_capblk;

/* SHMEM_SYMMETRIC_SIZE (or its deprecated name SMA_SYMMETRIC_SIZE): a
 * number with an optional K, M, G or T suffix. */
static const char *rx_sh_heap_env(const char **name)
{
    *name = "SHMEM_SYMMETRIC_SIZE";
    const char *s = getenv(*name);
    if (!s && (s = getenv("SMA_SYMMETRIC_SIZE")))
        *name = "SMA_SYMMETRIC_SIZE";
    return s;
}

static int rx_sh_heap_size(size_t *out)
{
    const char *name, *s = rx_sh_heap_env(&name);
    *out = RX_SH_HEAP_DEFAULT;
    if (!s || !*s)
        return RX_OK;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || *s == '-')
        return RX_ERR_INVAL;
    unsigned sh = 0;
    switch (toupper((unsigned char)*end)) {
    case 'K': sh = 10; end++; break;
    case 'M': sh = 20; end++; break;
    case 'G': sh = 30; end++; break;
    case 'T': sh = 40; end++; break;
    case 0: break;
    default: return RX_ERR_INVAL;
    }
    if ((*end == 'B' || *end == 'b') && sh)
        end++;
    if (*end || v == 0 || v > (SIZE_MAX >> 1) >> sh)
        return RX_ERR_INVAL;
    *out = (size_t)(v << sh);
    return RX_OK;
}

/* The executable's writable segments (.data, .bss): first in the list. */
static int rx_sh_data_cb(struct dl_phdr_info *info, size_t len, void *arg)
{
    (void)len;
    uintptr_t *r = arg, lo = UINTPTR_MAX, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        if (p->p_type != PT_LOAD || !(p->p_flags & PF_W))
            continue;
        uintptr_t a = info->dlpi_addr + p->p_vaddr;
        if (a < lo)
            lo = a;
        if (a + p->p_memsz > hi)
            hi = a + p->p_memsz;
    }
    r[0] = lo;
    r[1] = hi;
    return 1; /* only the program itself */
}

/* A window of the rma layer over s (flavor allocate: new memory, whose
 * address lands in s->base; create: the memory at s->base) on its own
 * duplicate of the world, as MPI windows have one. */
static int rx_sh_win(rx_sh_seg_t *s, int flavor, size_t size, const char *name)
{
    rx_comm_t *c = NULL;
    int rc = rx_rma_am_init();
    if (rc == RX_OK)
        rc = rx_comm_derive(rx_sh.world, 0, rx_sh.me, &c);
    if (rc != RX_OK)
        return rc;
    snprintf(c->name, sizeof c->name, "%s", name);
    rx_win_t *w = calloc(1, sizeof *w);
    if (!w) {
        rx_comm_release_internal(c);
        return RX_ERR_NOMEM;
    }
    void *base = NULL;
    w->acc_atomics = 1; /* SHMEM atomics are single elements: atomic instructions */
    rc = rx_win_setup(w, c, flavor, s->base, size, 1, &base);
    if (rc != RX_OK) { /* rx_win_setup released what it had made */
        free(w);
        rx_comm_release_internal(c);
        return rc;
    }
    snprintf(w->name, sizeof w->name, "%s", name);
    s->win = w;
    s->base = base;
    s->size = size;
    /* one passive epoch for the whole run; SHMEM has no epochs */
    return rx_win_lock_all(w, 1);
}

static void rx_sh_win_free(rx_sh_seg_t *s)
{
    rx_win_t *w = s->win;
    int rc = rx_win_unlock_all(w); /* completes everything issued */
    /* nobody unmaps while a peer still reaches this PE's memory */
    if (rc == RX_OK)
        rc = rx_coll_barrier(w->comm);
    if (rc != RX_OK)
        rx_sh_fatal("shmem_finalize", "%s", rx_status_string(rc));
    rx_comm_t *c = w->comm;
    rx_win_teardown(w);
    rx_comm_release_internal(c);
    free(w);
}

int rx_sh_heap_init(void)
{
    size_t size;
    if (rx_sh_heap_size(&size) != RX_OK) {
        const char *name, *val = rx_sh_heap_env(&name);
        rx_sh_fatal("shmem_init", "%s=%s is not a size (bytes, or with K, M, G, T)", name, val);
    }
    int rc = rx_sh_win(&rx_sh.seg[RX_SH_HEAP], RX_WIN_FLAVOR_ALLOCATE, size,
                       "symmetric heap");
    if (rc != RX_OK)
        return rc;
    rx_sh_capblk = 16;
    rx_sh_blks = malloc(rx_sh_capblk * sizeof *rx_sh_blks);
    if (!rx_sh_blks)
        return RX_ERR_NOMEM;
    rx_sh_blks[0] = (rx_sh_blk_t){0, size, 0};
    rx_sh_nblk = 1;
    uintptr_t r[2] = {0, 0};
    dl_iterate_phdr(rx_sh_data_cb, r);
    rx_sh_seg_t *d = &rx_sh.seg[RX_SH_DATA];
    if (r[1] > r[0]) {
        d->base = (char *)r[0];
        return rx_sh_win(d, RX_WIN_FLAVOR_CREATE, r[1] - r[0], "symmetric static data");
    }
    return rx_sh_win(d, RX_WIN_FLAVOR_CREATE, 0, "symmetric static data");
}

void rx_sh_heap_fini(void)
{
    for (int i = RX_SH_NSEG - 1; i >= 0; i--) {
        rx_sh_seg_t *s = &rx_sh.seg[i];
        if (!s->win)
            continue;
        rx_sh_win_free(s);
        memset(s, 0, sizeof *s);
    }
    free(rx_sh_blks);
    rx_sh_blks = NULL;
    rx_sh_nblk = rx_sh_capblk = 0;
}

rx_sh_seg_t *rx_sh_locate(const void *addr, size_t len, uint64_t *off)
{
    uintptr_t a = (uintptr_t)addr;
    for (int i = 0; i < RX_SH_NSEG; i++) {
        rx_sh_seg_t *s = &rx_sh.seg[i];
        uintptr_t b = (uintptr_t)s->base;
        if (s->size && a >= b && a - b <= s->size && len <= s->size - (a - b)) {
            *off = a - b;
            return s;
        }
    }
    return NULL;
}

rx_sh_seg_t *rx_sh_find(const void *addr, size_t len, const char *fn, uint64_t *off)
{
    rx_sh_seg_t *s = rx_sh_locate(addr, len, off);
    if (__builtin_expect(!s, 0))
        rx_sh_fatal(fn, "[%p, +%zu) is not symmetric memory (the symmetric heap or the "
                    "program's static data)", addr, len);
    return s;
}

int shmem_addr_accessible(const void *addr, int pe)
{
    rx_sh_check_init("shmem_addr_accessible");
    uint64_t off;
    return pe >= 0 && pe < rx_sh.npes && rx_sh_locate(addr, 1, &off) != NULL;
}

void *shmem_ptr(const void *dest, int pe)
{
    rx_sh_check_init("shmem_ptr");
    uint64_t off;
    rx_sh_seg_t *s = rx_sh_locate(dest, 1, &off);
    if (!s || pe < 0 || pe >= rx_sh.npes)
        return NULL;
    if (pe == rx_sh.me)
        return (void *)dest;
    rx_win_tgt_t *t = &s->win->tgt[pe];
    if (t->kind != RX_RMA_DIRECT || !t->base || off >= t->size)
        return NULL;
    return t->base + off;
}

/* Every PE passed the same (a, b): a reduction of (a, -a, b, -b) by MAX,
 * which also serves as the barrier the heap routines include. */
static void rx_sh_agree(const char *fn, size_t a, size_t b)
{
    long long v[4] = {(long long)a, -(long long)a, (long long)b, -(long long)b};
    int rc = rx_coll_allreduce(v, v, 4,
                               rx_dtype_get(RX_HANDLE(RX_KIND_DATATYPE, RX_ID_MPI_LONG_LONG)),
                               rx_opobj_get(RX_HANDLE(RX_KIND_OP, RX_OP_MAX)), rx_sh.world);
    if (rc != RX_OK)
        rx_sh_fatal(fn, "%s", rx_status_string(rc));
    if (v[0] != -v[1] || v[2] != -v[3])
        rx_sh_fatal(fn, "the PEs passed different arguments (%zu and %zu here); symmetric "
                    "allocations must be the same on every PE", a, b);
}

static int rx_sh_blk_insert(size_t at, rx_sh_blk_t b)
{
    if (rx_sh_nblk == rx_sh_capblk) {
        rx_sh_blk_t *n = realloc(rx_sh_blks, 2 * rx_sh_capblk * sizeof *n);
        if (!n)
            return RX_ERR_NOMEM;
        rx_sh_blks = n;
        rx_sh_capblk *= 2;
    }
    memmove(&rx_sh_blks[at + 1], &rx_sh_blks[at], (rx_sh_nblk - at) * sizeof *rx_sh_blks);
    rx_sh_blks[at] = b;
    rx_sh_nblk++;
    return RX_OK;
}

static void rx_sh_blk_remove(size_t at)
{
    memmove(&rx_sh_blks[at], &rx_sh_blks[at + 1], (rx_sh_nblk - at - 1) * sizeof *rx_sh_blks);
    rx_sh_nblk--;
}

/* First fit; splits the free block into (front gap, block, rest). */
static void *rx_sh_alloc(size_t align, size_t size)
{
    if (size > SIZE_MAX - RX_SH_MIN_ALIGN)
        return NULL;
    size = (size + RX_SH_MIN_ALIGN - 1) & ~(size_t)(RX_SH_MIN_ALIGN - 1);
    for (size_t i = 0; i < rx_sh_nblk; i++) {
        rx_sh_blk_t b = rx_sh_blks[i];
        if (b.used)
            continue;
        size_t start = (b.off + align - 1) & ~(align - 1);
        if (start < b.off || start - b.off > b.size || size > b.size - (start - b.off))
            continue;
        size_t gap = start - b.off, rest = b.size - gap - size;
        /* room for up to two more entries first, so nothing fails half-way */
        if (rx_sh_nblk + 2 > rx_sh_capblk) {
            rx_sh_blk_t *n = realloc(rx_sh_blks, (rx_sh_capblk * 2 + 2) * sizeof *n);
            if (!n)
                return NULL;
            rx_sh_blks = n;
            rx_sh_capblk = rx_sh_capblk * 2 + 2;
        }
        rx_sh_blks[i] = (rx_sh_blk_t){start, size, 1};
        if (rest)
            rx_sh_blk_insert(i + 1, (rx_sh_blk_t){start + size, rest, 0});
        if (gap)
            rx_sh_blk_insert(i, (rx_sh_blk_t){b.off, gap, 0});
        return rx_sh.seg[RX_SH_HEAP].base + start;
    }
    return NULL;
}

/* Index of the used block starting at p, or -1. */
static long rx_sh_blk_of(const void *p)
{
    rx_sh_seg_t *h = &rx_sh.seg[RX_SH_HEAP];
    uintptr_t a = (uintptr_t)p, b = (uintptr_t)h->base;
    if (a < b || a >= b + h->size)
        return -1;
    size_t off = a - b;
    for (size_t i = 0; i < rx_sh_nblk; i++)
        if (rx_sh_blks[i].off == off)
            return rx_sh_blks[i].used ? (long)i : -1;
    return -1;
}

static void rx_sh_release(size_t i)
{
    rx_sh_blks[i].used = 0;
    if (i + 1 < rx_sh_nblk && !rx_sh_blks[i + 1].used) {
        rx_sh_blks[i].size += rx_sh_blks[i + 1].size;
        rx_sh_blk_remove(i + 1);
    }
    if (i > 0 && !rx_sh_blks[i - 1].used) {
        rx_sh_blks[i - 1].size += rx_sh_blks[i].size;
        rx_sh_blk_remove(i);
    }
}

/* Block i (at ptr) to size bytes: in place when it shrinks or the next
 * block is free and large enough, else moved; NULL (block unchanged) when
 * the heap has no room. */
static void *rx_sh_resize(size_t i, void *ptr, size_t size)
{
    if (size > SIZE_MAX - RX_SH_MIN_ALIGN)
        return NULL;
    size_t want = (size + RX_SH_MIN_ALIGN - 1) & ~(size_t)(RX_SH_MIN_ALIGN - 1);
    rx_sh_blk_t *b = &rx_sh_blks[i];
    if (want <= b->size)
        return ptr; /* shrinking keeps the block */
    if (i + 1 < rx_sh_nblk && !rx_sh_blks[i + 1].used &&
        b->size + rx_sh_blks[i + 1].size >= want) {
        size_t extra = want - b->size;
        b->size = want;
        rx_sh_blks[i + 1].off += extra;
        rx_sh_blks[i + 1].size -= extra;
        if (!rx_sh_blks[i + 1].size)
            rx_sh_blk_remove(i + 1);
        return ptr;
    }
    size_t old = b->size;
    void *p = rx_sh_alloc(RX_SH_MIN_ALIGN, size);
    if (!p)
        return NULL; /* the old block stays, as realloc's does */
    memcpy(p, ptr, old < size ? old : size);
    rx_sh_release((size_t)rx_sh_blk_of(ptr));
    return p;
}

void *shmem_malloc(size_t size)
{
    rx_sh_check_init("shmem_malloc");
    RX_SH_CS_SCOPE;
    void *p = size ? rx_sh_alloc(RX_SH_MIN_ALIGN, size) : NULL;
    rx_sh_agree("shmem_malloc", size, 0);
    return p;
}

void *shmem_calloc(size_t count, size_t size)
{
    rx_sh_check_init("shmem_calloc");
    RX_SH_CS_SCOPE;
    void *p = NULL;
    if (count && size && count <= SIZE_MAX / size)
        p = rx_sh_alloc(RX_SH_MIN_ALIGN, count * size);
    /* zeroed before the barrier: a PE that leaves it first may put into it */
    if (p)
        memset(p, 0, count * size);
    rx_sh_agree("shmem_calloc", count, size);
    return p;
}

void *shmem_align(size_t alignment, size_t size)
{
    rx_sh_check_init("shmem_align");
    RX_SH_CS_SCOPE;
    void *p = NULL;
    if (size && alignment && !(alignment & (alignment - 1)))
        p = rx_sh_alloc(alignment < RX_SH_MIN_ALIGN ? RX_SH_MIN_ALIGN : alignment, size);
    rx_sh_agree("shmem_align", alignment, size);
    return p;
}

void shmem_free(void *ptr)
{
    rx_sh_check_init("shmem_free");
    RX_SH_CS_SCOPE;
    /* every PE's operations on the block complete before anyone reuses it */
    shmem_quiet();
    long i = ptr ? rx_sh_blk_of(ptr) : -1;
    if (ptr && i < 0)
        rx_sh_fatal("shmem_free", "%p is not a block of the symmetric heap", ptr);
    uint64_t off = ptr ? (uint64_t)((char *)ptr - rx_sh.seg[RX_SH_HEAP].base) + 1 : 0;
    rx_sh_agree("shmem_free", off, 0);
    if (ptr)
        rx_sh_release((size_t)i);
}

void *shmem_realloc(void *ptr, size_t size)
{
    rx_sh_check_init("shmem_realloc");
    RX_SH_CS_SCOPE;
    if (!ptr)
        return shmem_malloc(size);
    if (!size) {
        shmem_free(ptr);
        return NULL;
    }
    shmem_quiet();
    long i = rx_sh_blk_of(ptr);
    if (i < 0)
        rx_sh_fatal("shmem_realloc", "%p is not a block of the symmetric heap", ptr);
    /* every PE finished with the old block before anyone moves it */
    rx_sh_agree("shmem_realloc", (size_t)((char *)ptr - rx_sh.seg[RX_SH_HEAP].base), size);
    void *p = rx_sh_resize((size_t)i, ptr, size);
    /* and everyone moved it before anyone writes into the new one */
    rx_sh_agree("shmem_realloc", 0, 0);
    return p;
}
