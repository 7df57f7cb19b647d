/* SPDX-License-Identifier: MIT
 * Handle tables: an MPI handle is (kind << 24) | index; index 0 is the null
 * handle. Tables map indices to objects so every handle can be validated. */
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

#define RX_HANDLE(kind, idx) ((int)(((unsigned)(kind) << 24) | (unsigned)(idx)))
#define RX_HANDLE_KIND(h) ((int)(((unsigned)(h) >> 24) & 0xff))
#define RX_HANDLE_INDEX(h) ((int)((unsigned)(h) & 0xffffff))

typedef struct rx_htab {
    void **slot;
    int n, cap;
    int kind;
} rx_htab_t;

/* Store obj at index (grows the table); returns RX_OK or RX_ERR_NOMEM. */
int rx_htab_set(rx_htab_t *t, int index, void *obj);
/* Store obj in the first free index >= first; returns the index or -1. */
int rx_htab_add(rx_htab_t *t, void *obj, int first);
/* The object for a handle of this table's kind, or NULL. */
static inline void *rx_htab_get(const rx_htab_t *t, int handle)
{
    int i = RX_HANDLE_INDEX(handle);
    if (RX_HANDLE_KIND(handle) != t->kind || i <= 0 || i >= t->n)
        return 0;
    return t->slot[i];
}
void rx_htab_del(rx_htab_t *t, int index);
void rx_htab_free(rx_htab_t *t);

#endif
