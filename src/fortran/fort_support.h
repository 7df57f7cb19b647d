/* SPDX-License-Identifier: MIT
 * What the generated Fortran bindings (fort_gen.c) share: recognising the
 * Fortran sentinels, choice buffers given by CFI descriptors, Fortran strings
 * (blank padded, with a length) and Fortran statuses. The common cases (a
 * contiguous buffer, a status to fill) stay inline; the rest is in
 * fort_support.c. */
#ifndef RX_FORT_SUPPORT_H
#define RX_FORT_SUPPORT_H

#include "mpi.h"

#include <ISO_Fortran_binding.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The sentinels of mpif.h and module mpi are common blocks (defined in
 * fort_support.c), those of mpi_f08 BIND(C) variables of the module: only
 * their addresses mean something. */
extern MPI_Fint rdmx_f_bottom_, rdmx_f_in_place_, rdmx_f_unweighted_, rdmx_f_weights_empty_;
extern MPI_Fint rdmx_f_status_ignore_[MPI_F_STATUS_SIZE], rdmx_f_statuses_ignore_[MPI_F_STATUS_SIZE];
extern MPI_Fint rdmx_f_bottom_f08, rdmx_f_in_place_f08, rdmx_f_unweighted_f08,
    rdmx_f_weights_empty_f08;
extern MPI_Fint rdmx_f_buffer_automatic_, rdmx_f_buffer_automatic_f08;
extern MPI_Fint rdmx_f_status_ignore_f08[MPI_F_STATUS_SIZE],
    rdmx_f_statuses_ignore_f08[MPI_F_STATUS_SIZE];

static inline void *rx_f_addr(const void *p)
{
    if (p == &rdmx_f_bottom_ || p == &rdmx_f_bottom_f08)
        return MPI_BOTTOM;
    if (p == &rdmx_f_in_place_ || p == &rdmx_f_in_place_f08)
        return MPI_IN_PLACE;
    if (p == &rdmx_f_buffer_automatic_ || p == &rdmx_f_buffer_automatic_f08)
        return MPI_BUFFER_AUTOMATIC; /* Buffer_attach and the comm/session forms */
    return (void *)p;
}

static inline const int *rx_f_weights(const MPI_Fint *p)
{
    if (p == &rdmx_f_unweighted_ || p == &rdmx_f_unweighted_f08)
        return MPI_UNWEIGHTED;
    if (p == &rdmx_f_weights_empty_ || p == &rdmx_f_weights_empty_f08)
        return MPI_WEIGHTS_EMPTY;
    return p;
}

static inline int rx_f_status_ignored(const MPI_Fint *s)
{
    return s == rdmx_f_status_ignore_ || s == rdmx_f_status_ignore_f08 ||
           s == rdmx_f_statuses_ignore_ || s == rdmx_f_statuses_ignore_f08;
}

/* ---- choice buffers described by a CFI descriptor (use mpi, mpi_f08) ---- */

/* What a buffer's count and datatype say about its elements (gen_bindings.py
 * picks one per argument). */
enum {
    RX_F_DESCRIBED, /* its own count and datatype: a section can be described */
    RX_F_SHARED,    /* count and datatype shared with another buffer (Reduce) */
    RX_F_CONTIG,    /* counts in arrays, sizes in bytes: must be contiguous */
    RX_F_ADDRESS    /* only its address matters (Get_address, Win_create) */
};

typedef struct rx_f_buf {
    void *addr;
    MPI_Count count;   /* what the C call gets: the caller's, or 1 of type */
    MPI_Datatype type;
    int own_type;      /* type was made for a non-contiguous section */
} rx_f_buf_t;

int rx_f_buf_section(const CFI_cdesc_t *d, MPI_Count count, MPI_Datatype dt, int mode,
                     const char *fn, rx_f_buf_t *b);

static inline int rx_f_contiguous(const CFI_cdesc_t *d)
{
    CFI_index_t want = (CFI_index_t)d->elem_len;
    for (int i = 0; i < d->rank; i++) {
        CFI_index_t ext = d->dim[i].extent;
        if (ext < 0 || ext == 0)
            return 1; /* assumed-size (contiguous by rule) or empty */
        if (ext > 1 && d->dim[i].sm != want)
            return 0;
        want *= ext;
    }
    return 1;
}

/* A contiguous array (the usual case) passes its address, never a copy. */
static inline int rx_f_cdesc_buf(const CFI_cdesc_t *d, MPI_Count count, MPI_Datatype dt,
                                 int mode, const char *fn, rx_f_buf_t *b)
{
    b->count = count;
    b->type = dt;
    b->own_type = 0;
    if (d->rank == 0) { /* the sentinels are scalars */
        b->addr = rx_f_addr(d->base_addr);
        return MPI_SUCCESS;
    }
    if (mode == RX_F_ADDRESS || rx_f_contiguous(d)) {
        b->addr = d->base_addr;
        return MPI_SUCCESS;
    }
    return rx_f_buf_section(d, count, dt, mode, fn, b);
}

static inline void rx_f_buf_done(rx_f_buf_t *b)
{
    if (b->own_type)
        PMPI_Type_free(&b->type); /* operations still using it hold a reference */
}

/* ---- strings ---- */

/* Output strings go through a buffer large enough for any string the library
 * writes (MPI_MAX_INFO_VAL is the largest bound); longer Fortran strings get
 * one on the heap. */
#define RX_F_STR_STACK (MPI_MAX_INFO_VAL + 1)

/* A Fortran string without its trailing blanks, NUL-terminated: in stack when
 * it fits, else on the heap; NULL when out of memory. */
char *rx_f_str_in(const char *s, size_t len, char *stack);
char *rx_f_str_out_buf(size_t len, char *stack);
/* Copy a C string into a Fortran one, truncated or padded with blanks. */
void rx_f_str_out(const char *c, char *f, size_t len);
void rx_f_str_free(char *c, char *stack);

/* A length the caller gives (n > 0), at most the Fortran string's. */
static inline size_t rx_f_min(MPI_Fint n, size_t len)
{
    return (size_t)n < len ? (size_t)n : len;
}

/* ---- statuses ---- */

/* A Fortran status holds the bytes of a C status (handle_conv.c: source, tag,
 * error, cancelled, the byte count's low and high halves), so a C call writes
 * the Fortran status itself when it is aligned as MPI_Status; only a status at
 * a 4-byte boundary goes through a copy. */
_Static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint), "status size");
_Static_assert(offsetof(MPI_Status, MPI_SOURCE) == MPI_F_SOURCE * sizeof(MPI_Fint) &&
               offsetof(MPI_Status, MPI_TAG) == MPI_F_TAG * sizeof(MPI_Fint) &&
               offsetof(MPI_Status, MPI_ERROR) == MPI_F_ERROR * sizeof(MPI_Fint) &&
               offsetof(MPI_Status, rx_cancelled) == 3 * sizeof(MPI_Fint) &&
               offsetof(MPI_Status, rx_bytes) == 4 * sizeof(MPI_Fint), "status layout");
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the byte count's low half first");

static inline int rx_f_status_aligned(const void *f)
{
    return ((uintptr_t)f & (_Alignof(MPI_Status) - 1)) == 0;
}

/* Where the C call writes the status: MPI_STATUS_IGNORE, f itself, or tmp. */
static inline MPI_Status *rx_f_status_out(MPI_Fint *f, MPI_Status *tmp)
{
    if (rx_f_status_ignored(f))
        return MPI_STATUS_IGNORE;
    return rx_f_status_aligned(f) ? (MPI_Status *)(void *)f : tmp;
}

/* The same for a status the call reads (and may update). */
static inline MPI_Status *rx_f_status_in(MPI_Fint *f, MPI_Status *tmp)
{
    MPI_Status *c = rx_f_status_out(f, tmp);
    if (c == tmp)
        memcpy(tmp, f, sizeof *tmp);
    return c;
}

static inline void rx_f_status_done(const MPI_Status *c, MPI_Fint *f)
{
    if (c != MPI_STATUS_IGNORE && c != (const MPI_Status *)(const void *)f)
        memcpy(f, c, sizeof *c);
}

#define RX_F_STATUS_STACK 16
MPI_Status *rx_f_statuses(MPI_Fint *f, MPI_Fint n, MPI_Status *stack);
void rx_f_statuses_done(MPI_Status *c, MPI_Fint *f, MPI_Fint n, MPI_Status *stack);
void rx_f_statuses_free(MPI_Status *c, MPI_Fint *f, MPI_Status *stack);

/* ---- attributes ---- */

/* The value a Fortran program sees for an attribute: predefined attributes by
 * value (MPI_TAG_UB is the bound, not where it is), its own as stored. */
MPI_Aint rx_f_attr_value(int keyval, void *val);

#endif
