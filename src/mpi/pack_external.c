/* SPDX-License-Identifier: MIT
 * MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size with the
 * one portable representation, "external32" (MPI-4.1 §5.2.5, §14.5.2):
 * every basic value big-endian at the size the standard's table gives
 * (MPI_LONG and MPI_UNSIGNED_LONG in 4 bytes, MPI_LONG_DOUBLE as IEEE
 * binary128), floating point IEEE. The data go through the native packed
 * form (src/dtype), whose basic values lie in type-map order as the type's
 * runs list them; each is then converted in place order. */
#include "mpi_impl.h"
#include "bigcount.h"
#include "dtype/basic.h"

#include <stdlib.h>
#include <string.h>

/* How one native value becomes external32. */
enum rx_x32_kind {
    RX_X32_NONE,  /* no external form (unknown basic) */
    RX_X32_RAW,   /* bytes as they are (1-byte types) */
    RX_X32_SINT,  /* signed integer, native size -> external size */
    RX_X32_UINT,  /* unsigned integer, native size -> external size */
    RX_X32_SWAP,  /* same size, byte order only (IEEE floats, fixed-size ints) */
    RX_X32_LDBL,  /* long double -> IEEE binary128 */
};

typedef struct rx_x32 {
    unsigned char kind, ext, parts; /* parts: complex has 2 of kind/ext */
    unsigned char ikind, iext;      /* pairs: the index after the value */
} rx_x32_t;

static rx_x32_t rx_x32_of(int b)
{
    enum { R = RX_X32_RAW, S = RX_X32_SINT, U = RX_X32_UINT, W = RX_X32_SWAP, L = RX_X32_LDBL };
    switch (b) {
    case 1: case 2: case 3: case 4: case 17: case 18: case 22: case 32: case 39: case 47:
    case 51: case 62:
        return (rx_x32_t){R, 1, 1, 0, 0};
    case 5: case 19: case 52: case 63: return (rx_x32_t){S, 2, 1, 0, 0};
    case 6: case 23: return (rx_x32_t){U, 2, 1, 0, 0};
    case 7: case 20: case 43: case 46: case 53: case 64: return (rx_x32_t){S, 4, 1, 0, 0};
    case 8: case 24: return (rx_x32_t){U, 4, 1, 0, 0};
    case 16: return (rx_x32_t){U, 4, 1, 0, 0}; /* wchar_t */
    case 9: return (rx_x32_t){S, 4, 1, 0, 0};   /* long: 4 bytes in external32 */
    case 10: return (rx_x32_t){U, 4, 1, 0, 0};
    case 11: case 21: case 29: case 30: case 31: case 54: case 65:
        return (rx_x32_t){S, 8, 1, 0, 0};
    case 12: case 25: return (rx_x32_t){U, 8, 1, 0, 0};
    case 55: return (rx_x32_t){W, 16, 1, 0, 0};
    case 13: case 44: case 56: return (rx_x32_t){W, 4, 1, 0, 0};
    case 14: case 45: case 57: return (rx_x32_t){W, 8, 1, 0, 0};
    case 58: return (rx_x32_t){W, 16, 1, 0, 0};
    case 15: return (rx_x32_t){L, 16, 1, 0, 0};
    case 26: case 40: case 48: case 59: return (rx_x32_t){W, 4, 2, 0, 0};
    case 27: case 41: case 49: case 60: return (rx_x32_t){W, 8, 2, 0, 0};
    case 61: return (rx_x32_t){W, 16, 2, 0, 0};
    case 28: case 42: return (rx_x32_t){L, 16, 2, 0, 0};
    case 33: return (rx_x32_t){W, 4, 1, S, 4};  /* MPI_FLOAT_INT */
    case 34: return (rx_x32_t){W, 8, 1, S, 4};  /* MPI_DOUBLE_INT */
    case 35: return (rx_x32_t){S, 4, 1, S, 4};  /* MPI_LONG_INT */
    case 36: case 50: return (rx_x32_t){S, 4, 1, S, 4};
    case 37: return (rx_x32_t){S, 2, 1, S, 4};  /* MPI_SHORT_INT */
    case 38: return (rx_x32_t){L, 16, 1, S, 4}; /* MPI_LONG_DOUBLE_INT */
    case 66: return (rx_x32_t){W, 4, 1, W, 4};  /* MPI_2REAL */
    case 67: return (rx_x32_t){W, 8, 1, W, 8};  /* MPI_2DOUBLE_PRECISION */
    default: return (rx_x32_t){RX_X32_NONE, 0, 0, 0, 0};
    }
}

/* Native bytes of one part of basic b's value (pairs: the value; the index
 * is an int or the value's type). */
static size_t rx_x32_native(int b, const rx_x32_t *x)
{
    size_t whole = rx_dtype_get(RX_HANDLE(RX_KIND_DATATYPE, b))->size;
    if (x->ikind)
        return whole - (b == 66 || b == 67 ? whole / 2 : sizeof(int));
    return whole / x->parts;
}

static void rx_be_put(unsigned char *out, unsigned __int128 v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[n - 1 - i] = (unsigned char)(v >> (8 * i));
}

static unsigned __int128 rx_be_get(const unsigned char *in, size_t n)
{
    unsigned __int128 v = 0;
    for (size_t i = 0; i < n; i++)
        v = v << 8 | in[i];
    return v;
}

static void rx_swap_copy(unsigned char *out, const unsigned char *in, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = in[n - 1 - i];
}

/* One scalar: native (nat bytes) to external (ext bytes); RX_ERR_INVAL if
 * an integer does not fit its external size. */
static int rx_x32_put(int kind, const unsigned char *nat, size_t nsz, unsigned char *out,
                      size_t ext)
{
    switch (kind) {
    case RX_X32_RAW: memcpy(out, nat, ext); return RX_OK;
    case RX_X32_SWAP: rx_swap_copy(out, nat, ext); return RX_OK; /* little-endian host */
    case RX_X32_LDBL: {
        long double ld;
        memcpy(&ld, nat, sizeof ld);
        _Float128 q = (_Float128)ld;
        rx_swap_copy(out, (const unsigned char *)&q, 16);
        return RX_OK;
    }
    default: break;
    }
    /* integers: value from nsz native bytes, stored in ext bytes */
    int sgn = kind == RX_X32_SINT;
    __int128 v = 0;
    unsigned __int128 u = 0;
    memcpy(&u, nat, nsz);
    if (sgn && nsz < 16 && (u >> (8 * nsz - 1)) & 1)
        u |= ~(unsigned __int128)0 << (8 * nsz); /* sign extension */
    v = (__int128)u;
    if (ext < nsz) {
        __int128 lo = sgn ? -((__int128)1 << (8 * ext - 1)) : 0;
        __int128 hi = sgn ? ((__int128)1 << (8 * ext - 1)) - 1 : ((__int128)1 << (8 * ext)) - 1;
        if (v < lo || v > hi)
            return RX_ERR_INVAL;
    }
    rx_be_put(out, u, ext);
    return RX_OK;
}

static void rx_x32_get(int kind, const unsigned char *in, size_t ext, unsigned char *nat,
                       size_t nsz)
{
    switch (kind) {
    case RX_X32_RAW: memcpy(nat, in, ext); return;
    case RX_X32_SWAP: rx_swap_copy(nat, in, ext); return;
    case RX_X32_LDBL: {
        _Float128 q;
        rx_swap_copy((unsigned char *)&q, in, 16);
        long double ld = (long double)q;
        memset(nat, 0, nsz);
        memcpy(nat, &ld, sizeof ld < nsz ? sizeof ld : nsz);
        return;
    }
    default: break;
    }
    unsigned __int128 u = rx_be_get(in, ext);
    if (kind == RX_X32_SINT && ext < 16 && (u >> (8 * ext - 1)) & 1)
        u |= ~(unsigned __int128)0 << (8 * ext);
    memcpy(nat, &u, nsz);
}

/* External bytes of one element of dt; 0 with *ok = 0 if some basic has no
 * external32 form. */
static size_t rx_x32_elem_size(const rx_dtype_t *dt, int *ok)
{
    size_t n = 0;
    *ok = 1;
    for (int r = 0; r < dt->nruns; r++) {
        rx_x32_t x = rx_x32_of(dt->runs[r].basic);
        if (x.kind == RX_X32_NONE)
            *ok = 0;
        n += dt->runs[r].count * ((size_t)x.ext * x.parts + x.iext);
    }
    return n;
}

/* Convert count elements between the native packed form and external32;
 * to_ext: direction. RX_ERR_INVAL when a value does not fit. */
static int rx_x32_convert(const rx_dtype_t *dt, size_t count, unsigned char *nat,
                          unsigned char *ext, int to_ext)
{
    for (size_t e = 0; e < count; e++)
        for (int r = 0; r < dt->nruns; r++) {
            int b = dt->runs[r].basic;
            rx_x32_t x = rx_x32_of(b);
            size_t nsz = rx_x32_native(b, &x), isz = x.ikind ? (b == 66 || b == 67 ? nsz : sizeof(int)) : 0;
            for (size_t k = 0; k < dt->runs[r].count; k++) {
                for (int p = 0; p < x.parts; p++) {
                    if (to_ext) {
                        if (rx_x32_put(x.kind, nat, nsz, ext, x.ext) != RX_OK)
                            return RX_ERR_INVAL;
                    } else {
                        rx_x32_get(x.kind, ext, x.ext, nat, nsz);
                    }
                    nat += nsz;
                    ext += x.ext;
                }
                if (x.ikind) {
                    if (to_ext) {
                        if (rx_x32_put(x.ikind, nat, isz, ext, x.iext) != RX_OK)
                            return RX_ERR_INVAL;
                    } else {
                        rx_x32_get(x.ikind, ext, x.iext, nat, isz);
                    }
                    nat += isz;
                    ext += x.iext;
                }
            }
        }
    return RX_OK;
}

/* Arguments shared by the three calls; *esize: external bytes of count. */
static int rx_x32_args(const char *datarep, MPI_Count count, MPI_Datatype datatype, rx_dtype_t **dtp,
                       size_t *esize, const char *fn)
{
    if (!datarep)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "datarep is NULL");
    if (strcmp(datarep, "external32") != 0)
        return rx_mpi_err(NULL, MPI_ERR_UNSUPPORTED_DATAREP, fn, "data representation \"%s\" "
                          "(only \"external32\" is defined)", datarep);
    if (count < 0)
        return rx_mpi_err(NULL, MPI_ERR_COUNT, fn, "negative count %lld", (long long)count);
    RX_GET_DTYPE(dt, NULL, datatype, fn);
    if (rx_mpi_data_class(datarep, (uint64_t)count, dt) == MPI_ERR_COUNT) /* buffers: later */
        return rx_mpi_data_err(NULL, MPI_ERR_COUNT, (uint64_t)count, dt, fn);
    int ok;
    size_t one = rx_x32_elem_size(dt, &ok);
    if (!ok)
        return rx_mpi_err(NULL, MPI_ERR_TYPE, fn, "the datatype holds a value without an "
                          "external32 form");
    if (one && (uint64_t)count > SIZE_MAX / one)
        return rx_mpi_err(NULL, MPI_ERR_COUNT, fn, "count %lld of this type overflows",
                          (long long)count);
    *dtp = dt;
    *esize = one * (size_t)count;
    return MPI_SUCCESS;
}

/* The external buffer of `size` bytes has n bytes from *position on, and
 * the buffers are there if anything moves. */
static int rx_x32_room(size_t n, int64_t size, const int64_t *position, const void *a,
                       const void *b, const char *fn)
{
    if (!position || *position < 0 || size < 0)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "position NULL or negative, or size negative");
    if (*position > size || n > (uint64_t)(size - *position))
        return rx_mpi_err(NULL, MPI_ERR_TRUNCATE, fn, "%zu bytes, %lld left in the buffer", n,
                          (long long)(size - *position));
    if (n && (!a || !b))
        return rx_mpi_err(NULL, MPI_ERR_BUFFER, fn, "NULL buffer");
    return MPI_SUCCESS;
}

/* The calls' bodies, shared by the int forms (MPI_Aint sizes and positions)
 * and the _c forms (MPI_Count ones): position is read and written through
 * an int64_t copy, NULL when the caller passed none. */
static int rx_x32_size(const char *datarep, MPI_Count incount, MPI_Datatype datatype,
                       int64_t *size, const char *fn)
{
    RX_CHECK_INIT(fn);
    rx_dtype_t *dt;
    size_t n;
    int rc = rx_x32_args(datarep, incount, datatype, &dt, &n, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!size)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "size is NULL");
    *size = (int64_t)n;
    return MPI_SUCCESS;
}

static int rx_x32_pack(const char *datarep, const void *inbuf, MPI_Count incount,
                       MPI_Datatype datatype, void *outbuf, int64_t outsize, int64_t *position,
                       const char *fn)
{
    RX_CHECK_INIT(fn);
    rx_dtype_t *dt;
    size_t n;
    int rc = rx_x32_args(datarep, incount, datatype, &dt, &n, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = rx_x32_room(n, outsize, position, inbuf, outbuf, fn)) != MPI_SUCCESS)
        return rc;
    size_t wire = (size_t)incount * dt->wire;
    unsigned char *tmp = malloc(wire ? wire : 1);
    if (!tmp)
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    rx_dtype_pack(dt, inbuf, (size_t)incount, tmp);
    rc = rx_x32_convert(dt, (size_t)incount, tmp, (unsigned char *)outbuf + *position, 1);
    free(tmp);
    if (rc != RX_OK)
        return rx_mpi_err(NULL, MPI_ERR_CONVERSION, fn, "a value does not fit its external32 "
                          "size (MPI_LONG and MPI_UNSIGNED_LONG have 4 bytes there)");
    *position += (int64_t)n;
    return MPI_SUCCESS;
}

static int rx_x32_unpack(const char *datarep, const void *inbuf, int64_t insize,
                         int64_t *position, void *outbuf, MPI_Count outcount,
                         MPI_Datatype datatype, const char *fn)
{
    RX_CHECK_INIT(fn);
    rx_dtype_t *dt;
    size_t n;
    int rc = rx_x32_args(datarep, outcount, datatype, &dt, &n, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = rx_x32_room(n, insize, position, inbuf, outbuf, fn)) != MPI_SUCCESS)
        return rc;
    size_t wire = (size_t)outcount * dt->wire;
    unsigned char *tmp = malloc(wire ? wire : 1);
    if (!tmp)
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    rx_x32_convert(dt, (size_t)outcount, tmp, (unsigned char *)inbuf + *position, 0);
    rx_dtype_unpack(dt, tmp, wire, outbuf);
    free(tmp);
    *position += (int64_t)n;
    return MPI_SUCCESS;
}

/* Run call with pos, an int64_t copy of *position (pos_arg: &pos, or NULL
 * for a NULL position), and store pos back when it succeeded. */
#define RX_X32_WITH_POSITION(position, call)               \
    do {                                                   \
        int64_t pos = (position) ? *(position) : 0;        \
        int64_t *pos_arg = (position) ? &pos : NULL;       \
        int rc_ = (call);                                  \
        if (rc_ == MPI_SUCCESS)                            \
            *(position) = pos;                             \
        return rc_;                                        \
    } while (0)

#define RX_PACK_EXTERNAL_SIZE_PARAMS(C, D, A) \
    (const char datarep[], C incount, MPI_Datatype datatype, A *size)
RX_COUNT_FORMS(Pack_external_size, RX_PACK_EXTERNAL_SIZE_PARAMS, {
    int64_t n;
    int rc = rx_x32_size(datarep, incount, datatype, size ? &n : NULL, fn);
    if (rc == MPI_SUCCESS)
        *size = n;
    return rc;
})

#define RX_PACK_EXTERNAL_PARAMS(C, D, A)                                                 \
    (const char datarep[], const void *inbuf, C incount, MPI_Datatype datatype, void *outbuf, \
     A outsize, A *position)
RX_COUNT_FORMS(Pack_external, RX_PACK_EXTERNAL_PARAMS,
               RX_X32_WITH_POSITION(position, rx_x32_pack(datarep, inbuf, incount, datatype,
                                                          outbuf, outsize, pos_arg, fn));)

#define RX_UNPACK_EXTERNAL_PARAMS(C, D, A)                                                \
    (const char datarep[], const void *inbuf, A insize, A *position, void *outbuf, C outcount, \
     MPI_Datatype datatype)
RX_COUNT_FORMS(Unpack_external, RX_UNPACK_EXTERNAL_PARAMS,
               RX_X32_WITH_POSITION(position, rx_x32_unpack(datarep, inbuf, insize, pos_arg,
                                                            outbuf, outcount, datatype, fn));)
