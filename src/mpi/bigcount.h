/* SPDX-License-Identifier: MIT
 * MPI-4 large counts: every call with a count has an int form and a _c form
 * (MPI_Count counts, MPI_Aint displacements). Both share one implementation
 * that takes MPI_Count; the int form is the _c form with narrower arguments.
 *
 * Arrays of counts and displacements (the v and w collectives) differ in
 * element width between the two forms, so the implementation reads them
 * through rx_ivec_t, a view of an int or a 64-bit array: no copy, no
 * allocation on the int path. */
#ifndef RX_MPI_BIGCOUNT_H
#define RX_MPI_BIGCOUNT_H

#include "mpi.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct rx_ivec {
    const void *p;  /* NULL for an absent array */
    int wide;       /* 1: int64_t elements (MPI_Count, MPI_Aint), 0: int */
} rx_ivec_t;

_Static_assert(sizeof(MPI_Count) == 8 && sizeof(MPI_Aint) == 8,
               "rx_ivec_t reads MPI_Count and MPI_Aint arrays as int64_t");

/* View of an int, MPI_Count or MPI_Aint array (the width from its type). */
#define RX_IVEC(arr) ((rx_ivec_t){ (const void *)(arr), sizeof(*(arr)) == 8 })

static inline int64_t rx_ivec_at(rx_ivec_t v, int i)
{
    if (!v.wide)
        return ((const int *)v.p)[i];
    int64_t x; /* MPI_Count is long long, MPI_Aint long: read either without aliasing */
    memcpy(&x, (const char *)v.p + 8 * (size_t)i, sizeof x);
    return x;
}

/* An int array seen as a view, for callers that still hold int arrays. */
static inline rx_ivec_t rx_ivec_int(const int *p) { return (rx_ivec_t){ p, 0 }; }

/* Define PMPI_name (int counts: C = int, D = int displacements, A = MPI_Aint
 * byte displacements) and PMPI_name_c (C = MPI_Count, D = MPI_Aint, and
 * A = MPI_Count, as MPI-4.1 has the byte displacements of the _c type
 * constructors), each with its MPI_ weak alias. PARAMS(C, D, A) is the
 * parameter list; the body (the rest) uses fn, the MPI name. */
#define RX_COUNT_FORMS(name, PARAMS, ...)                                  \
    int PMPI_##name PARAMS(int, int, MPI_Aint)                                      \
    {                                                                      \
        const char *fn = "MPI_" #name;                                    \
        __VA_ARGS__                                                        \
    }                                                                      \
    RX_ALIAS(name)                                                         \
    int PMPI_##name##_c PARAMS(MPI_Count, MPI_Aint, MPI_Count)                       \
    {                                                                      \
        const char *fn = "MPI_" #name "_c";                               \
        __VA_ARGS__                                                        \
    }                                                                      \
    RX_ALIAS(name##_c)

#endif
