/* SPDX-License-Identifier: MIT
 * Memory-registration cache. Registering memory with a NIC is expensive
 * (pinning, a round trip to the driver), so a registration is kept after its
 * transfer and reused when later transfers fall inside it.
 *
 * The danger of any such cache: the application frees memory, the address is
 * mapped again with other pages, and a cached registration still points at
 * the old pages (a pinning NIC would read stale data). rdmx guards against it
 * in two ways:
 *  1. munmap, mremap and madvise(DONTNEED/FREE/REMOVE) called by the
 *     application or any library go through the wrappers below, which record
 *     the range in a small ring of "unmap events" with a generation number.
 *     A cached entry remembers the generation it was registered (or last
 *     checked) at; on a hit the events since then are compared with its
 *     range, and an overlapping event — or more events than the ring holds —
 *     drops the entry and registers afresh. The check costs nothing while no
 *     memory is unmapped.
 *  2. glibc's free() unmaps large blocks and trims the heap through internal
 *     calls that no wrapper sees; with a provider that pins memory (mr_mode
 *     FI_MR_LOCAL or FI_MR_ALLOCATED), rdmx therefore asks malloc to keep
 *     freed memory mapped (mallopt M_MMAP_MAX 0, M_TRIM_THRESHOLD maximum):
 *     a freed and reused block then keeps its pages and its registration
 *     stays right. Providers that do not pin (tcp) read memory by its virtual
 *     address at transfer time, so a reused address is always read as it is.
 * Entries in use by a transfer are never released; invalidated ones are
 * freed when their last transfer ends. */
#define _GNU_SOURCE
#include "ofi.h"
#include "util/log.h"
#include "util/status.h"

#include <dlfcn.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* ---- unmap events ---- */

#define RX_UNMAP_RING 64

static struct {
    _Atomic uint64_t seq; /* generation + 1 once the slot is written */
    uintptr_t lo, hi;
} rx_unmap_ring[RX_UNMAP_RING];
static _Atomic uint64_t rx_unmap_gen;

static void rx_unmap_note(const void *addr, size_t len)
{
    uint64_t g = atomic_fetch_add_explicit(&rx_unmap_gen, 1, memory_order_acq_rel);
    unsigned s = (unsigned)(g % RX_UNMAP_RING);
    atomic_store_explicit(&rx_unmap_ring[s].seq, 0, memory_order_relaxed);
    rx_unmap_ring[s].lo = (uintptr_t)addr;
    rx_unmap_ring[s].hi = (uintptr_t)addr + len;
    atomic_store_explicit(&rx_unmap_ring[s].seq, g + 1, memory_order_release);
}

/* 1 when [lo, hi) may have been unmapped since generation *gen (then the
 * caller drops the entry); otherwise advances *gen to now. */
static int rx_unmap_since(uint64_t *gen, uintptr_t lo, uintptr_t hi)
{
    uint64_t now = atomic_load_explicit(&rx_unmap_gen, memory_order_acquire);
    if (now == *gen)
        return 0;
    if (now - *gen > RX_UNMAP_RING / 2)
        return 1;
    for (uint64_t g = *gen; g < now; g++) {
        unsigned s = (unsigned)(g % RX_UNMAP_RING);
        if (atomic_load_explicit(&rx_unmap_ring[s].seq, memory_order_acquire) != g + 1)
            return 1; /* being written or overwritten: assume the worst */
        uintptr_t elo = rx_unmap_ring[s].lo, ehi = rx_unmap_ring[s].hi;
        if (atomic_load_explicit(&rx_unmap_ring[s].seq, memory_order_acquire) != g + 1)
            return 1;
        if (elo < hi && lo < ehi)
            return 1;
    }
    *gen = now;
    return 0;
}

/* The wrappers: the process's munmap, mremap and madvise resolve here
 * (librdmx comes before libc), note the range, and call libc's. */
static void *rx_real(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

int munmap(void *addr, size_t len)
{
    static int (*real)(void *, size_t);
    if (!real)
        real = (int (*)(void *, size_t))rx_real("munmap");
    rx_unmap_note(addr, len);
    return real ? real(addr, len) : (int)syscall(SYS_munmap, addr, len);
}

void *mremap(void *old, size_t old_len, size_t new_len, int flags, ...)
{
    static void *(*real)(void *, size_t, size_t, int, ...);
    void *new_addr = NULL;
    if (flags & MREMAP_FIXED) {
        va_list ap;
        va_start(ap, flags);
        new_addr = va_arg(ap, void *);
        va_end(ap);
    }
    if (!real)
        real = (void *(*)(void *, size_t, size_t, int, ...))rx_real("mremap");
    rx_unmap_note(old, old_len);
    if (flags & MREMAP_FIXED)
        rx_unmap_note(new_addr, new_len);
    if (real)
        return real(old, old_len, new_len, flags, new_addr);
    return (void *)syscall(SYS_mremap, old, old_len, new_len, flags, new_addr);
}

int madvise(void *addr, size_t len, int advice)
{
    static int (*real)(void *, size_t, int);
    if (!real)
        real = (int (*)(void *, size_t, int))rx_real("madvise");
    if (advice == MADV_DONTNEED || advice == MADV_FREE || advice == MADV_REMOVE)
        rx_unmap_note(addr, len);
    return real ? real(addr, len, advice) : (int)syscall(SYS_madvise, addr, len, advice);
}

void rx_ofi_mr_hold_heap(void)
{
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, -1);
}

/* ---- registrations ---- */

int rx_ofi_mr_raw(rx_ofi_t *o, void *addr, size_t len, uint64_t access, struct fid_mr **mr,
                  void **desc)
{
    uint64_t key = o->prov_key ? 0 : o->next_key++;
    int ret = fi_mr_reg(o->domain, addr, len, access, 0, key, 0, mr, NULL);
    if (ret)
        return rx_ofi_err("fi_mr_reg", ret);
    *desc = fi_mr_desc(*mr);
    return RX_OK;
}

static void rx_ofi_mr_unlink(rx_ofi_t *o, rx_ofi_mr_t *m)
{
    if (m->prev) m->prev->next = m->next; else o->mr_head = m->next;
    if (m->next) m->next->prev = m->prev; else o->mr_tail = m->prev;
    m->prev = m->next = NULL;
    o->mr_count--;
}

static void rx_ofi_mr_push_front(rx_ofi_t *o, rx_ofi_mr_t *m)
{
    m->prev = NULL;
    m->next = o->mr_head;
    if (o->mr_head) o->mr_head->prev = m; else o->mr_tail = m;
    o->mr_head = m;
    o->mr_count++;
}

static void rx_ofi_mr_free(rx_ofi_mr_t *m)
{
    if (m->mr)
        fi_close(&m->mr->fid);
    free(m);
}

/* Drop an entry from the cache: now if unused, else when its last user ends. */
static void rx_ofi_mr_drop(rx_ofi_t *o, rx_ofi_mr_t *m)
{
    rx_ofi_mr_unlink(o, m);
    if (m->refs == 0)
        rx_ofi_mr_free(m);
    else
        m->dead = 1;
}

int rx_ofi_mr_get(rx_ofi_t *o, const void *addr, size_t len, rx_ofi_mr_t **out)
{
    const uintptr_t page = 4096;
    uintptr_t lo = (uintptr_t)addr & ~(page - 1);
    uintptr_t hi = ((uintptr_t)addr + (len ? len : 1) + page - 1) & ~(page - 1);
    for (rx_ofi_mr_t *m = o->mr_head, *next; m; m = next) {
        next = m->next;
        if (m->base > lo || m->base + m->len < hi)
            continue;
        if (rx_unmap_since(&m->gen, m->base, m->base + m->len)) {
            o->st.mr_invalidated++;
            rx_ofi_mr_drop(o, m);
            continue;
        }
        o->st.mr_hits++;
        if (m != o->mr_head) {
            rx_ofi_mr_unlink(o, m);
            rx_ofi_mr_push_front(o, m);
        }
        m->refs++;
        *out = m;
        return RX_OK;
    }
    o->st.mr_misses++;
    rx_ofi_mr_t *m = calloc(1, sizeof *m);
    if (!m)
        return RX_ERR_NOMEM;
    m->gen = atomic_load_explicit(&rx_unmap_gen, memory_order_acquire);
    m->base = lo;
    m->len = hi - lo;
    int rc = rx_ofi_mr_raw(o, (void *)lo, hi - lo,
                           FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE, &m->mr, &m->desc);
    if (rc != RX_OK) {
        free(m);
        return rc;
    }
    m->key = fi_mr_key(m->mr);
    m->refs = 1;
    rx_ofi_mr_push_front(o, m);
    /* over capacity: evict the least recently used entries nobody uses */
    for (rx_ofi_mr_t *v = o->mr_tail, *prev; v && o->mr_count > o->mr_cap; v = prev) {
        prev = v->prev;
        if (v->refs == 0) {
            o->st.mr_evicted++;
            rx_ofi_mr_drop(o, v);
        }
    }
    *out = m;
    return RX_OK;
}

void rx_ofi_mr_put(rx_ofi_t *o, rx_ofi_mr_t *m)
{
    if (--m->refs > 0)
        return;
    if (m->dead)
        rx_ofi_mr_free(m);
    else if (o->mr_cap <= 0) /* no cache: every registration ends with its transfer */
        rx_ofi_mr_drop(o, m);
}

/* The rendezvous sender's reference: the entry covering the range is in the
 * list (the most recent such one comes first). Only memory unmapped while a
 * send from it is in flight — which the MPI rules forbid — could have taken
 * it off the list; that entry then stays registered until finalize. */
void rx_ofi_mr_release_range(rx_ofi_t *o, const void *addr, size_t len)
{
    uintptr_t lo = (uintptr_t)addr, hi = lo + (len ? len : 1);
    for (rx_ofi_mr_t *m = o->mr_head; m; m = m->next)
        if (m->base <= lo && m->base + m->len >= hi && m->refs > 0) {
            rx_ofi_mr_put(o, m);
            return;
        }
}

void rx_ofi_mr_fini(rx_ofi_t *o)
{
    while (o->mr_head) {
        rx_ofi_mr_t *m = o->mr_head;
        rx_ofi_mr_unlink(o, m);
        rx_ofi_mr_free(m);
    }
}
