/* SPDX-License-Identifier: MIT
 * Datatype objects. Predefined types occupy handle indices 1..RX_BASIC_COUNT-1
 * (src/dtype/basic.h); derived types follow.
 *
 * Layout. One element of a type is described by its data blocks, blocks[0..nblocks),
 * (offset from the element's start, length) in type-map order, adjacent blocks
 * merged. The packed ("wire") form of count elements is the concatenation of
 * those blocks, element after element: count * wire bytes. Every layer that
 * moves typed data (p2p, collectives, one-sided) uses that form:
 *
 *   raw        rx_dtype_wire_is_raw(d): the user buffer already is the packed
 *              form (count * extent bytes from buf), move it as it is;
 *   packed     otherwise rx_dtype_pack() / rx_dtype_unpack() convert, or walk
 *              blocks[] to build iovecs (block b of element e lies at
 *              buf + e * extent + blocks[b].off).
 *
 * At commit a type whose blocks form at most two nested strided loops of equal
 * blocks (vectors, faces of subarrays, ...) gets a strided description (vec) and
 * pack/unpack run as tight strided loops instead of walking blocks[].
 *
 * Lifetime: types are reference counted. A derived type holds references to
 * the types it was built from (for MPI_Type_get_contents); MPI_Type_free drops
 * the user's reference. Holders of a type beyond one call (persistent requests,
 * receives that unpack at completion) take a reference with rx_dtype_ref(). */
#ifndef RX_DTYPE_H
#define RX_DTYPE_H

#include "basic.h"
#include "core/handle.h"
#include "util/status.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

/* Combiners (values equal the MPI_COMBINER_* constants of include/mpi.h). */
enum rx_combiner {
    RX_COMB_NAMED = 1, RX_COMB_DUP, RX_COMB_CONTIGUOUS, RX_COMB_VECTOR, RX_COMB_HVECTOR,
    RX_COMB_INDEXED, RX_COMB_HINDEXED, RX_COMB_INDEXED_BLOCK, RX_COMB_HINDEXED_BLOCK,
    RX_COMB_STRUCT, RX_COMB_SUBARRAY, RX_COMB_DARRAY, RX_COMB_RESIZED,
};

typedef struct rx_dtype {
    int index;              /* handle id (index and generation) */
    int refcount;
    int handles;            /* references the application holds by handle (MPI_Type_free
                             * drops one; at 0 the handle is retired while others hold it) */
    int predefined;
    int committed;
    size_t size;            /* bytes of data in one element (MPI_Type_size) */
    size_t wire;            /* bytes one element occupies when sent (packed form) */
    intptr_t lb, extent;
    intptr_t true_lb, true_extent;
    int basic;              /* the basic type every element is made of, 0 if mixed */
    size_t basic_count;     /* basic elements per element */
    int contig;             /* count elements lie in count * extent bytes that may be
                             * copied as they are (padding included): true for every
                             * basic type and for derived types without holes whose
                             * data starts at offset 0; collectives move such data raw */
    int nblocks;            /* the data of one element: blocks at offsets from its start */
    struct rx_dtype_block { intptr_t off; size_t len; } *blocks;
    const char *name;
    /* --- derived types --- */
    size_t align;           /* alignment a struct of this type pads its extent to */
    int explicit_bounds;    /* lb/extent set by resized somewhere in the tree */
    /* strided description, valid when vec_ok: blocks of vec_len bytes at
     * vec_off + i1 * vec_s1 + i0 * vec_s0, i1 < vec_n1 outer, i0 < vec_n0 inner */
    int vec_ok;
    size_t vec_n1, vec_n0, vec_len;
    intptr_t vec_s1, vec_s0, vec_off;
    /* basic elements in type-map order, consecutive equal types merged
     * (MPI_Get_elements on a partial element) */
    int nruns;
    struct rx_dtype_run { int basic; size_t count; } *runs;
    /* envelope and contents (MPI_Type_get_envelope / get_contents); types[]
     * are handles this type holds a reference on */
    int combiner;
    int ni, na, nt, nc;     /* nc: large counts (a _c constructor's) */
    int *ints;
    intptr_t *aints;
    int *types;
    int64_t *lcounts;
    char namebuf[128];     /* MPI_Type_set_name */
} rx_dtype_t;

extern rx_htab_t rx_dtype_table;

int rx_dtype_init(void);
void rx_dtype_fini(void);
static inline rx_dtype_t *rx_dtype_get(int handle)
{
    return (rx_dtype_t *)rx_htab_get(&rx_dtype_table, handle);
}
/* Also a type the application freed that others still hold (envelopes). */
static inline rx_dtype_t *rx_dtype_get_held(int handle)
{
    return (rx_dtype_t *)rx_htab_get_held(&rx_dtype_table, handle);
}
const char *rx_basic_name(int basic);
int rx_basic_class(int basic);

/* Point-to-point data travels packed (count * wire bytes). 1 if the user
 * buffer already is that form, so no staging copy is needed. */
static inline int rx_dtype_wire_is_raw(const rx_dtype_t *d)
{
    return d->contig && d->wire == (size_t)d->extent;
}
/* Pack count elements from src into dst (count * wire bytes). */
void rx_dtype_pack(const rx_dtype_t *d, const void *src, size_t count, void *dst);
/* Unpack the first bytes of packed data into elements at dst (a partial last
 * element fills its first blocks only). */
void rx_dtype_unpack(const rx_dtype_t *d, const void *src, size_t bytes, void *dst);
/* Basic elements in the first bytes of packed data, or -1 if bytes ends
 * inside a basic element (MPI_Get_elements). */
long long rx_dtype_elements(const rx_dtype_t *d, size_t bytes);

/* I/O-vector views (iov.c): a cursor over the blocks of count elements of
 * extent bytes at base, in packed order. The block list may be another
 * process's (copied here): the cursor only computes addresses. */
typedef struct rx_dtype_iter {
    uintptr_t base;
    size_t count;
    intptr_t extent;
    const struct rx_dtype_block *blocks;
    size_t nblocks;
    size_t elem, blk, done; /* position: element, block, bytes of that block given out */
} rx_dtype_iter_t;
void rx_dtype_iter_init(rx_dtype_iter_t *it, uintptr_t base, size_t count, intptr_t extent,
                        const struct rx_dtype_block *blocks, size_t nblocks);
/* The next pieces: at most max of them and limit bytes in all (*bytes gets
 * the total); 0 when the data is exhausted. Pieces that touch are merged. */
size_t rx_dtype_iter_next(rx_dtype_iter_t *it, struct iovec *iov, size_t max, size_t limit,
                          size_t *bytes);
/* Average bytes per block of one element (SIZE_MAX for dense types): what
 * decides whether moving a type by I/O vectors beats packing it. */
size_t rx_dtype_avg_block(const rx_dtype_t *d);

/* References: predefined types ignore them. unref frees a derived type (and
 * drops its references on the types it was built from) at zero. */
void rx_dtype_ref(rx_dtype_t *d);
void rx_dtype_unref(rx_dtype_t *d);

/* Constructors (create.c). Each makes a new, uncommitted type holding one
 * reference (the caller's) and registers its handle; RX_ERR_NOMEM or
 * RX_ERR_INVAL (message in *why, when given) on failure. Displacements and
 * strides are in bytes; blens[i] copies of olds[i] at disps[i]. */
int rx_dtype_create_struct(size_t count, const size_t *blens, const intptr_t *disps,
                           rx_dtype_t *const *olds, rx_dtype_t **out);
/* Same old type for every block (vector, indexed and their h/block forms). */
int rx_dtype_create_hindexed(size_t count, const size_t *blens, const intptr_t *disps,
                             rx_dtype_t *old, rx_dtype_t **out);
int rx_dtype_create_hvector(size_t count, size_t blen, intptr_t stride, rx_dtype_t *old,
                            rx_dtype_t **out);
int rx_dtype_create_resized(rx_dtype_t *old, intptr_t lb, intptr_t extent, rx_dtype_t **out);
/* order_c: 1 for C order (last dimension fastest), 0 for Fortran order. */
int rx_dtype_create_subarray(int ndims, const int *sizes, const int *subsizes,
                             const int *starts, int order_c, rx_dtype_t *old,
                             rx_dtype_t **out);
int rx_dtype_dup(rx_dtype_t *old, rx_dtype_t **out);
/* Record how a type was made (copies the arrays; takes references on types). */
int rx_dtype_set_envelope(rx_dtype_t *d, int combiner, int ni, const int *ints, int na,
                          const intptr_t *aints, int nt, const int *types);
/* The large counts of a type made by an MPI-4 _c constructor (its envelope's
 * num_large_counts; copied). */
int rx_dtype_set_large_counts(rx_dtype_t *d, int nc, const int64_t *counts);
/* Commit: computes the strided description used by pack / unpack. */
void rx_dtype_commit(rx_dtype_t *d);

#endif
