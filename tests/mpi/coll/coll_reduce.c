/* SPDX-License-Identifier: MIT
 * MPI_Reduce (every root) and MPI_Allreduce with every predefined operation on the
 * types it applies to, checked against a serial reference computed by every rank:
 * MAX MIN SUM PROD on integers and floating point, LAND LOR LXOR on integers and
 * MPI_C_BOOL, BAND BOR BXOR on integers and MPI_BYTE, SUM PROD on complex, MINLOC
 * MAXLOC on the pair types (ties: the smaller index wins). Counts 0, 1, 13 and
 * 20011; values chosen so that every result is exact in any order of evaluation.
 * (MPI_IN_PLACE: coll_inplace.c.) */
#include "rxtest.h"

#include <complex.h>

enum { O_MAX, O_MIN, O_SUM, O_PROD, O_LAND, O_LOR, O_LXOR, O_BAND, O_BOR, O_BXOR, O_COUNT };
static const char *oname[O_COUNT] = { "MPI_MAX", "MPI_MIN", "MPI_SUM",  "MPI_PROD", "MPI_LAND",
                                      "MPI_LOR", "MPI_LXOR", "MPI_BAND", "MPI_BOR", "MPI_BXOR" };
static MPI_Op mop(int o)
{
    MPI_Op t[O_COUNT] = { MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND,
                          MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR };
    return t[o];
}
enum { OPS_INT = 0x3FF, OPS_FLT = 0x00F, OPS_BOOL = 0x070, OPS_BYTE = 0x380, OPS_CPLX = 0x00C };

/* The value rank r contributes at element i for operation o. */
static long long gen(int o, int i, int r, int is_signed)
{
    switch (o) {
    case O_MAX: case O_MIN: case O_SUM:
        return (i * 7 + r * 13 + o) % 11 - (is_signed ? 5 : 0);
    case O_PROD: /* at most one factor 2 per element (8 ranks): small, exact */
        return (i + r) % 8 == 0 ? 2 : (is_signed && (i * 3 + r) % 5 == 0) ? -1 : 1;
    case O_LAND: case O_LOR: case O_LXOR:
        return (i + r * 3) % 5 == 0 ? 0 : (i + r) % 3 + 1;
    default: {
        uint64_t s = (uint64_t)i * 131 + (uint64_t)r;
        return (long long)rxt_mix(&s);
    }
    }
}

typedef struct {
    const char *name;
    MPI_Datatype t;
    size_t size;
    int ops;
    void (*fill)(void *b, int n, int o, int r);
    void (*ref)(void *b, int n, int o);       /* reduction over ranks 0..size-1 */
    long (*diff)(const void *a, const void *b, int n); /* first differing element */
} tdesc;

#define COMBINE_ARITH(T, a, v, o)                                                                  \
    (o == O_MAX ? (v > a ? v : a) : o == O_MIN ? (v < a ? v : a) : o == O_SUM ? (T)(a + v)        \
     : o == O_PROD ? (T)(a * v) : a)
#define COMBINE_LOGIC(T, a, v, o)                                                                  \
    (o == O_LAND ? (T)(a && v) : o == O_LOR ? (T)(a || v) : o == O_LXOR ? (T)(!a != !v) : a)
#define COMBINE_BITS(T, a, v, o)                                                                   \
    (o == O_BAND ? (T)(a & v) : o == O_BOR ? (T)(a | v) : o == O_BXOR ? (T)(a ^ v) : a)

#define DEF_COMMON(N, T, SIGNED)                                                                   \
    static void fill_##N(void *b, int n, int o, int r)                                             \
    {                                                                                              \
        for (int i = 0; i < n; i++)                                                                \
            ((T *)b)[i] = (T)gen(o, i, r, SIGNED);                                                 \
    }                                                                                              \
    static long diff_##N(const void *a, const void *b, int n)                                      \
    {                                                                                              \
        for (int i = 0; i < n; i++)                                                                \
            if (!(((const T *)a)[i] == ((const T *)b)[i]))                                         \
                return i;                                                                          \
        return -1;                                                                                 \
    }
#define DEF_INT(N, T, SIGNED)                                                                      \
    DEF_COMMON(N, T, SIGNED)                                                                       \
    static void ref_##N(void *b, int n, int o)                                                     \
    {                                                                                              \
        T *x = b;                                                                                  \
        fill_##N(b, n, o, 0);                                                                      \
        for (int r = 1; r < rxt_size; r++)                                                         \
            for (int i = 0; i < n; i++) {                                                          \
                T v = (T)gen(o, i, r, SIGNED), a = x[i];                                           \
                x[i] = o <= O_PROD ? COMBINE_ARITH(T, a, v, o)                                     \
                       : o <= O_LXOR ? COMBINE_LOGIC(T, a, v, o) : COMBINE_BITS(T, a, v, o);      \
            }                                                                                      \
    }
#define DEF_LOGIC(N, T)                                                                            \
    DEF_COMMON(N, T, 0)                                                                            \
    static void ref_##N(void *b, int n, int o)                                                     \
    {                                                                                              \
        T *x = b;                                                                                  \
        fill_##N(b, n, o, 0);                                                                      \
        for (int r = 1; r < rxt_size; r++)                                                         \
            for (int i = 0; i < n; i++) {                                                          \
                T v = (T)gen(o, i, r, 0), a = x[i];                                                \
                x[i] = COMBINE_LOGIC(T, a, v, o);                                                  \
            }                                                                                      \
    }
#define DEF_FLT(N, T)                                                                              \
    DEF_COMMON(N, T, 1)                                                                            \
    static void ref_##N(void *b, int n, int o)                                                     \
    {                                                                                              \
        T *x = b;                                                                                  \
        fill_##N(b, n, o, 0);                                                                      \
        for (int r = 1; r < rxt_size; r++)                                                         \
            for (int i = 0; i < n; i++) {                                                          \
                T v = (T)gen(o, i, r, 1), a = x[i];                                                \
                x[i] = COMBINE_ARITH(T, a, v, o);                                                  \
            }                                                                                      \
    }
#define DEF_CPLX(N, T)                                                                             \
    static void fill_##N(void *b, int n, int o, int r)                                             \
    {                                                                                              \
        for (int i = 0; i < n; i++)                                                                \
            ((T *)b)[i] = (T)(gen(O_SUM, i, r, 1) % 3) + (T)((i + r) % 2 ? 1 : -1) * I;            \
        (void)o;                                                                                   \
    }                                                                                              \
    static long diff_##N(const void *a, const void *b, int n)                                      \
    {                                                                                              \
        for (int i = 0; i < n; i++)                                                                \
            if (((const T *)a)[i] != ((const T *)b)[i])                                            \
                return i;                                                                          \
        return -1;                                                                                 \
    }                                                                                              \
    static void ref_##N(void *b, int n, int o)                                                     \
    {                                                                                              \
        T *x = b, *v = malloc(sizeof(T) * (size_t)(n + 1));                                        \
        fill_##N(b, n, o, 0);                                                                      \
        for (int r = 1; r < rxt_size; r++) {                                                       \
            fill_##N(v, n, o, r);                                                                  \
            for (int i = 0; i < n; i++)                                                            \
                x[i] = o == O_SUM ? x[i] + v[i] : x[i] * v[i];                                     \
        }                                                                                          \
        free(v);                                                                                   \
    }

DEF_INT(char, signed char, 1)
DEF_INT(uchar, unsigned char, 0)
DEF_INT(short, short, 1)
DEF_INT(ushort, unsigned short, 0)
DEF_INT(int, int, 1)
DEF_INT(unsigned, unsigned, 0)
DEF_INT(long, long, 1)
DEF_INT(ulong, unsigned long, 0)
DEF_INT(llong, long long, 1)
DEF_INT(ullong, unsigned long long, 0)
DEF_INT(i8, int8_t, 1)
DEF_INT(i16, int16_t, 1)
DEF_INT(i32, int32_t, 1)
DEF_INT(i64, int64_t, 1)
DEF_INT(u8, uint8_t, 0)
DEF_INT(u16, uint16_t, 0)
DEF_INT(u32, uint32_t, 0)
DEF_INT(u64, uint64_t, 0)
DEF_LOGIC(bool, _Bool)
DEF_FLT(float, float)
DEF_FLT(double, double)
DEF_FLT(ldouble, long double)
DEF_CPLX(fcplx, float _Complex)
DEF_CPLX(dcplx, double _Complex)

#define D(N, T, MT, OPS) { #MT, MT, sizeof(T), OPS, fill_##N, ref_##N, diff_##N }
static const tdesc *types(int *n)
{
    static tdesc t[32];
    tdesc all[] = {
        D(char, signed char, MPI_SIGNED_CHAR, OPS_INT), D(uchar, unsigned char, MPI_UNSIGNED_CHAR, OPS_INT),
        D(uchar, unsigned char, MPI_BYTE, OPS_BYTE), /* (MPI_CHAR is no reduction type) */
        D(short, short, MPI_SHORT, OPS_INT), D(ushort, unsigned short, MPI_UNSIGNED_SHORT, OPS_INT),
        D(int, int, MPI_INT, OPS_INT), D(unsigned, unsigned, MPI_UNSIGNED, OPS_INT),
        D(long, long, MPI_LONG, OPS_INT), D(ulong, unsigned long, MPI_UNSIGNED_LONG, OPS_INT),
        D(llong, long long, MPI_LONG_LONG, OPS_INT),
        D(ullong, unsigned long long, MPI_UNSIGNED_LONG_LONG, OPS_INT),
        D(i8, int8_t, MPI_INT8_T, OPS_INT), D(i16, int16_t, MPI_INT16_T, OPS_INT),
        D(i32, int32_t, MPI_INT32_T, OPS_INT), D(i64, int64_t, MPI_INT64_T, OPS_INT),
        D(u8, uint8_t, MPI_UINT8_T, OPS_INT), D(u16, uint16_t, MPI_UINT16_T, OPS_INT),
        D(u32, uint32_t, MPI_UINT32_T, OPS_INT), D(u64, uint64_t, MPI_UINT64_T, OPS_INT),
        D(bool, _Bool, MPI_C_BOOL, OPS_BOOL), D(float, float, MPI_FLOAT, OPS_FLT),
        D(double, double, MPI_DOUBLE, OPS_FLT), D(ldouble, long double, MPI_LONG_DOUBLE, OPS_FLT),
        D(fcplx, float _Complex, MPI_C_FLOAT_COMPLEX, OPS_CPLX),
        D(dcplx, double _Complex, MPI_C_DOUBLE_COMPLEX, OPS_CPLX),
    };
    *n = (int)(sizeof all / sizeof all[0]);
    memcpy(t, all, sizeof all);
    return t;
}

static const int counts[] = { 0, 1, 13, 20011 };

static void check_op(const tdesc *d, int o, int count, int all_roots)
{
    size_t bytes = d->size * (size_t)(count + 1);
    void *in = malloc(bytes), *out = malloc(bytes), *ref = malloc(bytes);
    d->fill(in, count, o, rxt_rank);
    d->ref(ref, count, o);
    for (int root = 0; root < rxt_size; root++) {
        /* every root for the key types; one rotating root for the others */
        if (!all_roots && root != (o + count) % rxt_size)
            continue;
        memset(out, 0, bytes);
        RXT_MPI(MPI_Reduce(in, out, count, d->t, mop(o), root, MPI_COMM_WORLD));
        if (rxt_rank == root) {
            long bad = d->diff(out, ref, count);
            RXT_CHECK(bad < 0, "MPI_Reduce %s %s count %d root %d: element %ld differs", d->name,
                      oname[o], count, root, bad);
        }
    }
    memset(out, 0, bytes);
    RXT_MPI(MPI_Allreduce(in, out, count, d->t, mop(o), MPI_COMM_WORLD));
    long bad = d->diff(out, ref, count);
    RXT_CHECK(bad < 0, "MPI_Allreduce %s %s count %d: element %ld differs", d->name, oname[o],
              count, bad);
    free(in);
    free(out);
    free(ref);
}

/* MINLOC / MAXLOC on every pair type; values repeat across ranks (ties), the index
 * is the rank, so the expected index is the smallest rank holding the extreme. */
#define CHECK_LOC(MT, VT)                                                                          \
    do {                                                                                           \
        typedef struct { VT v; int i; } P;                                                         \
        for (int ci = 0; ci < 4; ci++) {                                                           \
            int n = counts[ci] > 1000 ? 1000 : counts[ci];                                         \
            P *in = malloc(sizeof(P) * (size_t)(n + 1)), *out = malloc(sizeof(P) * (size_t)(n + 1)); \
            for (int i = 0; i < n; i++) {                                                          \
                in[i].v = (VT)((i * 5 + rxt_rank * 3) % 7);                                        \
                in[i].i = rxt_rank;                                                                \
            }                                                                                      \
            for (int loc = 0; loc < 2; loc++) {                                                    \
                for (int root = 0; root <= rxt_size; root++) {                                     \
                    if (root < rxt_size)                                                           \
                        RXT_MPI(MPI_Reduce(in, out, n, MT, loc ? MPI_MAXLOC : MPI_MINLOC, root,    \
                                           MPI_COMM_WORLD));                                       \
                    else                                                                           \
                        RXT_MPI(MPI_Allreduce(in, out, n, MT, loc ? MPI_MAXLOC : MPI_MINLOC,       \
                                              MPI_COMM_WORLD));                                    \
                    if (root < rxt_size && rxt_rank != root)                                       \
                        continue;                                                                  \
                    for (int i = 0; i < n; i++) {                                                  \
                        VT best = (VT)(i * 5 % 7);                                                 \
                        int bi = 0;                                                                \
                        for (int r = 1; r < rxt_size; r++) {                                       \
                            VT v = (VT)((i * 5 + r * 3) % 7);                                      \
                            if (loc ? v > best : v < best) {                                       \
                                best = v;                                                          \
                                bi = r;                                                            \
                            }                                                                      \
                        }                                                                          \
                        if (out[i].v != best || out[i].i != bi) {                                  \
                            RXT_CHECK(0, "%s %s count %d root %d: element %d is (%g,%d), want "    \
                                      "(%g,%d)", loc ? "MPI_MAXLOC" : "MPI_MINLOC", #MT, n, root,  \
                                      i, (double)out[i].v, out[i].i, (double)best, bi);            \
                            break;                                                                 \
                        }                                                                          \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
            free(in);                                                                              \
            free(out);                                                                             \
        }                                                                                          \
    } while (0)

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "coll_reduce");
    int nt;
    const tdesc *t = types(&nt);
    /* Every type, op and count at up to 4 ranks; at more ranks (slow when
     * oversubscribed) the key types only. Every root, and the large count, for the
     * key types; a rotating root for the others. */
    for (int k = 0; k < nt; k++) {
        MPI_Datatype ty = t[k].t;
        int key = ty == MPI_INT ||
                  (rxt_size <= 4 && (ty == MPI_DOUBLE || ty == MPI_UNSIGNED_LONG_LONG));
        if (rxt_size > 4 && !key && ty != MPI_C_BOOL && ty != MPI_BYTE && ty != MPI_DOUBLE &&
            ty != MPI_UNSIGNED_LONG_LONG && ty != MPI_C_DOUBLE_COMPLEX)
            continue;
        for (int o = 0; o < O_COUNT; o++) {
            if (!(t[k].ops & (1 << o)))
                continue;
            for (int c = 0; c < 4; c++)
                if (counts[c] < 1000 || key)
                    check_op(&t[k], o, counts[c], key);
        }
    }
    CHECK_LOC(MPI_FLOAT_INT, float);
    CHECK_LOC(MPI_DOUBLE_INT, double);
    CHECK_LOC(MPI_LONG_INT, long);
    CHECK_LOC(MPI_2INT, int);
    CHECK_LOC(MPI_SHORT_INT, short);
    CHECK_LOC(MPI_LONG_DOUBLE_INT, long double);
    return rxt_finish();
}
