/* SPDX-License-Identifier: MIT
 * Handle tables: an MPI handle is one int,
 *
 *   bit 31      0 (handles stay non-negative ints, so MPI_Fint conversion is the identity)
 *   bits 30-26  kind (RX_KIND_* >> 2: the kinds are multiples of 4)
 *   bits 25-0   id: the slot's generation above RX_HTAB_INDEX_BITS bits of slot index
 *
 * Predefined handles are generation 0 at fixed small indices, so their values
 * in include/mpi.h are (kind << 24) | index. Index 0 is the null handle. Each
 * slot remembers the one handle it answers to; freeing the object moves the
 * slot to the next generation, so every copy of the old handle fails lookup
 * instead of naming whatever object takes the slot next. Freed slots are reused
 * first-in first-out, and only once RX_HTAB_REUSE_MIN of them wait, so one slot
 * comes back after many others and its generation cycle is long.
 *
 * An object the application freed but the runtime still uses (a datatype
 * inside another, a key with attributes still set) is retired: its handle
 * fails the application's lookups (rx_htab_get) while internal holders that
 * kept the handle still reach it (rx_htab_get_held) until it is deleted. */
#ifndef RX_CORE_HANDLE_H
#define RX_CORE_HANDLE_H

enum rx_handle_kind {
    RX_KIND_COMM = 0x44,
    RX_KIND_GROUP = 0x48,
    RX_KIND_DATATYPE = 0x4c,
    RX_KIND_ERRHANDLER = 0x54,
    RX_KIND_OP = 0x58,
    RX_KIND_WIN = 0x60,
    RX_KIND_KEYVAL = 0x64,
    RX_KIND_REQUEST = 0x6c,
    RX_KIND_INFO = 0x70,
};

#define RX_HANDLE_ID_BITS 26
#define RX_HANDLE_ID_MASK ((1u << RX_HANDLE_ID_BITS) - 1)
/* id is an object's id (generation and index), as rx_htab_add returns it. */
#define RX_HANDLE(kind, id) ((int)(((unsigned)(kind) << 24) | (unsigned)(id)))
#define RX_HANDLE_KIND(h) ((int)(((unsigned)(h) >> 24) & 0xfc))
/* The id of a handle (slot index and generation), whatever its kind. */
#define RX_HANDLE_INDEX(h) ((int)((unsigned)(h) & RX_HANDLE_ID_MASK))

/* Table slots: up to 262,143 live objects of one kind, 256 generations. */
#define RX_HTAB_INDEX_BITS 18
#define RX_HTAB_INDEX_MASK ((1u << RX_HTAB_INDEX_BITS) - 1)
#define RX_HTAB_MAX_INDEX ((int)RX_HTAB_INDEX_MASK)
#define RX_HTAB_REUSE_MIN 1024
/* Marks a slot's handle as retired (bit 31: no valid handle has it). */
#define RX_HTAB_RETIRED 0x80000000u

typedef struct rx_htab {
    void **slot;       /* object by slot index; NULL when free */
    unsigned *handle;  /* the handle each slot answers to now (next one when free) */
    int *next;         /* free-slot FIFO links */
    int n, cap;        /* slots in use or freed below n; allocated */
    int kind;
    int free_head, free_tail, nfree; /* FIFO of freed slots (head, tail valid if nfree) */
} rx_htab_t;

/* Store obj at index with generation 0 (predefined objects; grows the table);
 * returns RX_OK or RX_ERR_NOMEM. */
int rx_htab_set(rx_htab_t *t, int index, void *obj);
/* Store obj in a free slot at index >= first; returns its id (RX_HANDLE(kind,
 * id) is the handle), or -1 when out of memory or the table is full. */
int rx_htab_add(rx_htab_t *t, void *obj, int first);

/* The object a handle of this table's kind names, or NULL: one compare checks
 * kind, generation and index together. */
static inline void *rx_htab_get(const rx_htab_t *t, int handle)
{
    unsigned i = (unsigned)handle & RX_HTAB_INDEX_MASK;
    if (i >= (unsigned)t->n || t->handle[i] != (unsigned)handle)
        return 0;
    return t->slot[i];
}
/* Like rx_htab_get, but also finds a retired object (internal holders). */
static inline void *rx_htab_get_held(const rx_htab_t *t, int handle)
{
    unsigned i = (unsigned)handle & RX_HTAB_INDEX_MASK;
    if (i >= (unsigned)t->n || (t->handle[i] & ~RX_HTAB_RETIRED) != (unsigned)handle)
        return 0;
    return t->slot[i];
}
/* The object at a slot index, live or retired, or NULL (walks at teardown). */
static inline void *rx_htab_at(const rx_htab_t *t, int index)
{
    return index > 0 && index < t->n ? t->slot[index] : 0;
}
/* Retire the object of handle (id or full handle): the application's lookups
 * fail, held lookups still succeed. revive undoes it. */
void rx_htab_retire(rx_htab_t *t, int id);
void rx_htab_revive(rx_htab_t *t, int id);
/* Free the slot of id (live or retired); a stale id is ignored. */
void rx_htab_del(rx_htab_t *t, int id);
void rx_htab_free(rx_htab_t *t);

#endif
