/* SPDX-License-Identifier: MIT
 * Reduction ops: rx_op_valid against the standard's table, rx_op_apply against reference code. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "op/op.h"
#include "dtype/basic.h"

static int checks, failed;

#define CHECK(cond, ...)                             \
    do {                                             \
        checks++;                                    \
        if (!(cond)) {                               \
            failed++;                                \
            fprintf(stderr, "FAIL: " __VA_ARGS__);   \
            fputc('\n', stderr);                     \
        }                                            \
    } while (0)

/* ---- the expected table, written out from MPI-4.0 section 6.9.2 ---- */

enum grp { G_NONE, G_CINT, G_FINT, G_MULTI, G_FLOAT, G_CPLX, G_LOGIC, G_BYTE, G_PAIR };

/* ext: a group whose ops rdmx may accept in addition to the standard's (the
 * check then accepts either answer for those ops): basic.h files MPI_AINT,
 * MPI_OFFSET, MPI_COUNT and MPI_WCHAR with the C integers. MPI_CHAR is a
 * deliberate C integer (as in MPICH) and is checked strictly. */
static const struct { const char *name; enum grp g, ext; } expect[RX_BASIC_COUNT] = {
    [1] = {"MPI_CHAR", G_CINT, 0},
    [2] = {"MPI_SIGNED_CHAR", G_CINT, 0},
    [3] = {"MPI_UNSIGNED_CHAR", G_CINT, 0},
    [4] = {"MPI_BYTE", G_BYTE, 0},
    [5] = {"MPI_SHORT", G_CINT, 0},
    [6] = {"MPI_UNSIGNED_SHORT", G_CINT, 0},
    [7] = {"MPI_INT", G_CINT, 0},
    [8] = {"MPI_UNSIGNED", G_CINT, 0},
    [9] = {"MPI_LONG", G_CINT, 0},
    [10] = {"MPI_UNSIGNED_LONG", G_CINT, 0},
    [11] = {"MPI_LONG_LONG", G_CINT, 0},
    [12] = {"MPI_UNSIGNED_LONG_LONG", G_CINT, 0},
    [13] = {"MPI_FLOAT", G_FLOAT, 0},
    [14] = {"MPI_DOUBLE", G_FLOAT, 0},
    [15] = {"MPI_LONG_DOUBLE", G_FLOAT, 0},
    [16] = {"MPI_WCHAR", G_NONE, G_CINT},
    [17] = {"MPI_C_BOOL", G_LOGIC, 0},
    [18] = {"MPI_INT8_T", G_CINT, 0},
    [19] = {"MPI_INT16_T", G_CINT, 0},
    [20] = {"MPI_INT32_T", G_CINT, 0},
    [21] = {"MPI_INT64_T", G_CINT, 0},
    [22] = {"MPI_UINT8_T", G_CINT, 0},
    [23] = {"MPI_UINT16_T", G_CINT, 0},
    [24] = {"MPI_UINT32_T", G_CINT, 0},
    [25] = {"MPI_UINT64_T", G_CINT, 0},
    [26] = {"MPI_C_FLOAT_COMPLEX", G_CPLX, 0},
    [27] = {"MPI_C_DOUBLE_COMPLEX", G_CPLX, 0},
    [28] = {"MPI_C_LONG_DOUBLE_COMPLEX", G_CPLX, 0},
    [29] = {"MPI_AINT", G_MULTI, G_CINT},
    [30] = {"MPI_OFFSET", G_MULTI, G_CINT},
    [31] = {"MPI_COUNT", G_MULTI, G_CINT},
    [32] = {"MPI_PACKED", G_NONE, 0},
    [33] = {"MPI_FLOAT_INT", G_PAIR, 0},
    [34] = {"MPI_DOUBLE_INT", G_PAIR, 0},
    [35] = {"MPI_LONG_INT", G_PAIR, 0},
    [36] = {"MPI_2INT", G_PAIR, 0},
    [37] = {"MPI_SHORT_INT", G_PAIR, 0},
    [38] = {"MPI_LONG_DOUBLE_INT", G_PAIR, 0},
    [39] = {"MPI_CXX_BOOL", G_LOGIC, 0},
    [40] = {"MPI_CXX_FLOAT_COMPLEX", G_CPLX, 0},
    [41] = {"MPI_CXX_DOUBLE_COMPLEX", G_CPLX, 0},
    [42] = {"MPI_CXX_LONG_DOUBLE_COMPLEX", G_CPLX, 0},
    [43] = {"MPI_INTEGER", G_FINT, 0},
    [44] = {"MPI_REAL", G_FLOAT, 0},
    [45] = {"MPI_DOUBLE_PRECISION", G_FLOAT, 0},
    [46] = {"MPI_LOGICAL", G_LOGIC, 0},
    [47] = {"MPI_CHARACTER", G_NONE, 0},
    [48] = {"MPI_COMPLEX", G_CPLX, 0},
    [49] = {"MPI_DOUBLE_COMPLEX", G_CPLX, 0},
    [50] = {"MPI_2INTEGER", G_PAIR, 0},
    [51] = {"MPI_INTEGER1", G_FINT, 0},
    [52] = {"MPI_INTEGER2", G_FINT, 0},
    [53] = {"MPI_INTEGER4", G_FINT, 0},
    [54] = {"MPI_INTEGER8", G_FINT, 0},
    [55] = {"MPI_INTEGER16", G_FINT, 0},
    [56] = {"MPI_REAL4", G_FLOAT, 0},
    [57] = {"MPI_REAL8", G_FLOAT, 0},
    [58] = {"MPI_REAL16", G_FLOAT, 0},
    [59] = {"MPI_COMPLEX8", G_CPLX, 0},
    [60] = {"MPI_COMPLEX16", G_CPLX, 0},
    [61] = {"MPI_COMPLEX32", G_CPLX, 0},
    [62] = {"MPI_LOGICAL1", G_LOGIC, 0},
    [63] = {"MPI_LOGICAL2", G_LOGIC, 0},
    [64] = {"MPI_LOGICAL4", G_LOGIC, 0},
    [65] = {"MPI_LOGICAL8", G_LOGIC, 0},
    [66] = {"MPI_2REAL", G_PAIR, 0},
    [67] = {"MPI_2DOUBLE_PRECISION", G_PAIR, 0},
};

static int std_valid(int op, enum grp g)
{
    switch (op) {
    case RX_OP_MAX: case RX_OP_MIN:
        return g == G_CINT || g == G_FINT || g == G_MULTI || g == G_FLOAT;
    case RX_OP_SUM: case RX_OP_PROD:
        return g == G_CINT || g == G_FINT || g == G_MULTI || g == G_FLOAT || g == G_CPLX;
    case RX_OP_LAND: case RX_OP_LOR: case RX_OP_LXOR:
        return g == G_CINT || g == G_LOGIC;
    case RX_OP_BAND: case RX_OP_BOR: case RX_OP_BXOR:
        return g == G_CINT || g == G_FINT || g == G_MULTI || g == G_BYTE;
    case RX_OP_MINLOC: case RX_OP_MAXLOC:
        return g == G_PAIR;
    case RX_OP_REPLACE: case RX_OP_NO_OP:
        return 1;
    default:
        return 0;
    }
}

static const char *const op_names[RX_OP_PREDEFINED_COUNT] = {
    "MPI_OP_NULL", "MPI_MAX", "MPI_MIN", "MPI_SUM", "MPI_PROD", "MPI_LAND", "MPI_BAND", "MPI_LOR",
    "MPI_BOR", "MPI_LXOR", "MPI_BXOR", "MPI_MINLOC", "MPI_MAXLOC", "MPI_REPLACE", "MPI_NO_OP",
};

static void check_table(void)
{
    int extensions = 0;
    for (int op = -1; op <= RX_OP_PREDEFINED_COUNT + 1; op++)
        for (int id = -1; id <= RX_BASIC_COUNT + 1; id++) {
            int v = rx_op_valid(op, id);
            if (id < 1 || id >= RX_BASIC_COUNT || op < 1 || op >= RX_OP_PREDEFINED_COUNT) {
                CHECK(v == 0, "rx_op_valid(%d, %d) = %d out of range", op, id, v);
                continue;
            }
            int s = std_valid(op, expect[id].g);
            int x = expect[id].ext ? (s || std_valid(op, expect[id].ext)) : s;
            CHECK(v == s || v == x, "rx_op_valid(%s, %s) = %d, expected %d", op_names[op],
                  expect[id].name, v, s);
            extensions += v && !s;
        }
    printf("op: %d (op, type) pairs accepted beyond the standard's table "
           "(MPI_AINT/OFFSET/COUNT logical ops, MPI_WCHAR)\n", extensions);

    /* the IDs of the hand-written table are those of basic.h */
#define NAME_CHECK(ID, CTYPE, MPI_NAME, CLASS) \
    CHECK(strcmp(expect[ID].name, #MPI_NAME) == 0, "ID %d: %s vs %s", ID, expect[ID].name, #MPI_NAME);
    RX_BASIC_LIST(NAME_CHECK)
#undef NAME_CHECK

    for (int op = 0; op < RX_OP_PREDEFINED_COUNT; op++)
        CHECK(strcmp(rx_op_name(op), op_names[op]) == 0, "rx_op_name(%d) = %s", op, rx_op_name(op));
    CHECK(rx_op_name(-1) != NULL && rx_op_name(RX_OP_PREDEFINED_COUNT) != NULL, "rx_op_name out of range");
}

/* ---- reference code ---- */

/* Integers (and bools) carried as their value modulo 2^64. */
static int ref_int(int op, int is_signed, uint64_t a, uint64_t b, uint64_t *r)
{
    int gt = is_signed ? (int64_t)a > (int64_t)b : a > b;
    int lt = is_signed ? (int64_t)a < (int64_t)b : a < b;
    switch (op) {
    case RX_OP_MAX: *r = gt ? a : b; break;
    case RX_OP_MIN: *r = lt ? a : b; break;
    case RX_OP_SUM: *r = a + b; break;
    case RX_OP_PROD: *r = a * b; break;
    case RX_OP_LAND: *r = a != 0 && b != 0; break;
    case RX_OP_LOR: *r = a != 0 || b != 0; break;
    case RX_OP_LXOR: *r = (a != 0) != (b != 0); break;
    case RX_OP_BAND: *r = a & b; break;
    case RX_OP_BOR: *r = a | b; break;
    case RX_OP_BXOR: *r = a ^ b; break;
    default: return 0;
    }
    return 1;
}

/* Equal, or both NaN; +0 and -0 differ. */
static int same_fp(long double a, long double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return a == b && !signbit(a) == !signbit(b);
}

/* MAX/MIN with NaN propagation: a NaN operand wins, `in` first. */
static long double ref_fmax(long double a, long double b, int want_max)
{
    if (isnan(a))
        return a;
    if (isnan(b))
        return b;
    if (want_max)
        return a > b ? a : b;
    return a < b ? a : b;
}

static int nan_f(float x) { return isnan(x); }
static int nan_d(double x) { return isnan(x); }
static int nan_ld(long double x) { return isnan(x); }
static int nan_int(long long x) { (void)x; return 0; }
#define T_ISNAN(x) _Generic((x), float: nan_f, double: nan_d, long double: nan_ld, default: nan_int)(x)

static int same_f(float a, float b) { return same_fp(a, b); }
static int same_d(double a, double b) { return same_fp(a, b); }
static int same_ld(long double a, long double b) { return same_fp(a, b); }
static int same_ll(long long a, long long b) { return a == b; }
#define T_SAME(x, y) \
    _Generic((x), float: same_f, double: same_d, long double: same_ld, default: same_ll)(x, y)

/* MINLOC/MAXLOC by the standard's definition, NaN beating numbers: which
 * operand's value results (0: a = in, 1: b = inout; b on ties) and the index. */
static int ref_loc(int op, long double av, int an, int ai, long double bv, int bn, int bi,
                   int *which, int *idx)
{
    int a_wins, b_wins;
    if (op != RX_OP_MINLOC && op != RX_OP_MAXLOC)
        return 0;
    if (an || bn) {
        a_wins = an && !bn;
        b_wins = bn && !an;
    } else if (op == RX_OP_MINLOC) {
        a_wins = av < bv;
        b_wins = bv < av;
    } else {
        a_wins = av > bv;
        b_wins = bv > av;
    }
    if (a_wins) {
        *which = 0, *idx = ai;
    } else if (b_wins) {
        *which = 1, *idx = bi;
    } else {
        *which = 1, *idx = ai < bi ? ai : bi;
    }
    return 1;
}

static volatile long double nan_seed; /* set to NaN in main; volatile keeps conversions at run time */

/* ---- the generic driver ---- */

#define NELEM 1000 /* > 3 blocks of 256 bytes for 1-byte types, plus a tail */
#define MAXSZ 32

typedef int ref_fn(int op, const void *a, const void *b, void *out);
typedef int same_fn(const void *x, const void *y);

/* in[k] and inout[k] run through all pairs of seeds; every valid op is
 * applied to count NELEM-1 (the last element must stay untouched) and
 * count 0, and compared element by element with the reference. */
static void run_type(int id, const char *name, size_t size, const void *seeds, int ns,
                     ref_fn *ref, same_fn *same)
{
    static _Alignas(64) unsigned char a[NELEM * MAXSZ], b[NELEM * MAXSZ], r[NELEM * MAXSZ];
    _Alignas(64) unsigned char e[MAXSZ];
    const unsigned char *s = seeds;

    if (size > MAXSZ) {
        CHECK(0, "%s: element size %zu", name, size);
        return;
    }
    for (int k = 0; k < NELEM; k++) {
        memcpy(a + k * size, s + (size_t)(k % ns) * size, size);
        memcpy(b + k * size, s + (size_t)((k / ns + k) % ns) * size, size);
    }
    for (int op = 1; op < RX_OP_PREDEFINED_COUNT; op++) {
        if (!rx_op_valid(op, id))
            continue;
        memcpy(r, b, NELEM * size);
        rx_op_apply(op, id, a, r, NELEM - 1);
        int bad = -1, noref = 0;
        for (int k = 0; k < NELEM - 1 && bad < 0; k++) {
            if (!ref(op, a + k * size, b + k * size, e)) {
                noref = 1;
                break;
            }
            if (!same(r + k * size, e))
                bad = k;
        }
        CHECK(!noref, "%s %s: valid but no reference", op_names[op], name);
        CHECK(bad < 0, "%s %s: element %d differs from reference", op_names[op], name, bad);
        CHECK(same(r + (NELEM - 1) * size, b + (NELEM - 1) * size),
              "%s %s: element past count was written", op_names[op], name);
        memcpy(r, b, size);
        rx_op_apply(op, id, a, r, 0);
        CHECK(same(r, b), "%s %s: count 0 wrote", op_names[op], name);
    }
}

static const long long int_seeds[] = {
    0, 1, -1, 2, -2, 3, 7, 100, -100, 127, -128, 128, 255, 256, 32767, -32768, 65535, 65536,
    INT_MAX, INT_MIN, (long long)UINT_MAX, 0x5a5a5a5a5a5a5a5all, LLONG_MAX, LLONG_MIN,
    0x123456789ll, -0x0f0f0f0f0f0fll,
};
#define N_INT_SEEDS ((int)(sizeof int_seeds / sizeof int_seeds[0]))

static const long double flt_seeds[] = {
    0.0L, -0.0L, 1.0L, -1.0L, 1.5L, -2.25L, 3.0L, 0.5L, 1e30L, -1e30L, 1e-40L, 1e300L,
    INFINITY, -INFINITY, 0 /* NaN, set at run time */,
};
#define N_FLT_SEEDS ((int)(sizeof flt_seeds / sizeof flt_seeds[0]))

/* finite values whose sums and products are exact in every complex type */
static const long double cpx_seeds[][2] = {
    {0, 0}, {-0.0L, 0}, {1, 0}, {0, 1}, {-1, -1}, {0.5L, -2.25L}, {3, 1024},
    {-2.25L, 0.5L}, {1024, -3}, {1.5L, 1.5L}, {-0.0L, -0.0L}, {2, -0.5L},
};
#define N_CPX_SEEDS ((int)(sizeof cpx_seeds / sizeof cpx_seeds[0]))

static const struct { long double v; int i; } pair_seeds[] = {
    {0, 0}, {0, 3}, {1, 1}, {1, 7}, {-1, 2}, {-1, -5}, {5, 9}, {5, 4},
    {-3, 0}, {100, 2}, {-100, 8}, {2, 6}, {INT_MAX, 1}, {INT_MIN, 11},
};
#define N_PAIR_SEEDS ((int)(sizeof pair_seeds / sizeof pair_seeds[0]))

/* Per-type glue: a reference, a comparison and seeds, by kind of C type.
 * REF_BODY sees the operands a, b (type T) and op, and stores into r or
 * returns 0 where it has no reference; FILL fills s[] and sets n. */
#define T_GLUE(ID, T, NSEEDS, REF_BODY, SAME_EXPR, FILL)                          \
    static int ref_##ID(int op, const void *pa, const void *pb, void *out)        \
    {                                                                             \
        T a, b, r;                                                                \
        memcpy(&a, pa, sizeof a);                                                 \
        memcpy(&b, pb, sizeof b);                                                 \
        if (op == RX_OP_REPLACE || op == RX_OP_NO_OP) {                           \
            r = op == RX_OP_REPLACE ? a : b;                                      \
        } else {                                                                  \
            REF_BODY                                                              \
        }                                                                         \
        memcpy(out, &r, sizeof r);                                                \
        return 1;                                                                 \
    }                                                                             \
    static int same_##ID(const void *px, const void *py)                          \
    {                                                                             \
        T x, y;                                                                   \
        memcpy(&x, px, sizeof x);                                                 \
        memcpy(&y, py, sizeof y);                                                 \
        return SAME_EXPR;                                                         \
    }                                                                             \
    static void test_##ID(const char *name)                                       \
    {                                                                             \
        T s[NSEEDS];                                                              \
        int n = 0;                                                                \
        memset(s, 0, sizeof s);                                                   \
        FILL                                                                      \
        run_type(ID, name, sizeof(T), s, n, ref_##ID, same_##ID);                 \
    }

#define T_INT(ID, T)                                                              \
    T_GLUE(ID, T, N_INT_SEEDS,                                                    \
           uint64_t v;                                                            \
           if (!ref_int(op, (T)-1 < (T)1, (uint64_t)a, (uint64_t)b, &v))          \
               return 0;                                                          \
           r = sizeof(T) > 8 ? (T)(int64_t)v : (T)v;,                             \
           x == y,                                                                \
           /* wider than the 64-bit reference: seeds whose results fit 64 bits */ \
           for (; n < N_INT_SEEDS; n++)                                           \
               s[n] = sizeof(T) > 8 ? (T)(int32_t)(uint32_t)int_seeds[n]          \
                                    : (T)(unsigned long long)int_seeds[n];)

#define T_FLT(ID, T)                                                              \
    T_GLUE(ID, T, N_FLT_SEEDS,                                                    \
           switch (op) {                                                          \
           case RX_OP_MAX: r = (T)ref_fmax(a, b, 1); break;                       \
           case RX_OP_MIN: r = (T)ref_fmax(a, b, 0); break;                       \
           case RX_OP_SUM: r = a + b; break;                                      \
           case RX_OP_PROD: r = a * b; break;                                     \
           default: return 0;                                                     \
           },                                                                     \
           same_fp(x, y),                                                         \
           for (; n < N_FLT_SEEDS; n++)                                           \
               s[n] = (T)(n == N_FLT_SEEDS - 1 ? nan_seed : flt_seeds[n]);)

/* complex: (x + iy)(u + iv) = (xu - yv) + i(xv + yu), done on the parts */
#define T_CPX(ID, T)                                                              \
    T_GLUE(ID, T, N_CPX_SEEDS,                                                    \
           switch (op) {                                                          \
           case RX_OP_SUM:                                                        \
               __real__ r = __real__ a + __real__ b;                              \
               __imag__ r = __imag__ a + __imag__ b;                              \
               break;                                                             \
           case RX_OP_PROD:                                                       \
               __real__ r = __real__ a * __real__ b - __imag__ a * __imag__ b;    \
               __imag__ r = __real__ a * __imag__ b + __imag__ a * __real__ b;    \
               break;                                                             \
           default: return 0;                                                     \
           },                                                                     \
           same_fp(__real__ x, __real__ y) && same_fp(__imag__ x, __imag__ y),    \
           for (; n < N_CPX_SEEDS; n++) {                                         \
               __real__ s[n] = cpx_seeds[n][0];                                   \
               __imag__ s[n] = cpx_seeds[n][1];                                   \
           })

/* pairs: floating value types also get NaN and -0 seeds */
#define T_PAIR(ID, T)                                                             \
    T_GLUE(ID, T, N_PAIR_SEEDS + 3,                                               \
           int which;                                                             \
           int idx;                                                               \
           if (!ref_loc(op, a.v, T_ISNAN(a.v), a.i, b.v, T_ISNAN(b.v), b.i,       \
                        &which, &idx))                                            \
               return 0;                                                          \
           r.v = which ? b.v : a.v;                                               \
           r.i = idx;,                                                            \
           T_SAME(x.v, y.v) && x.i == y.i,                                        \
           for (; n < N_PAIR_SEEDS; n++) {                                        \
               s[n].v = (__typeof__(s[n].v))pair_seeds[n].v;                      \
               s[n].i = pair_seeds[n].i;                                          \
           }                                                                      \
           if ((__typeof__(s[0].v))0.5 != 0) {                                    \
               s[n].v = (__typeof__(s[n].v))nan_seed;                             \
               s[n++].i = 3;                                                     \
               s[n].v = (__typeof__(s[n].v))nan_seed;                             \
               s[n++].i = 1;                                                     \
               s[n].v = (__typeof__(s[n].v))-0.0;                                 \
               s[n++].i = 4;                                                      \
           })

#define T_KIND_CINT T_INT
#define T_KIND_FINT T_INT
#define T_KIND_BYTE T_INT
#define T_KIND_NONE T_INT
#define T_KIND_LOGIC T_INT
#define T_KIND_FLOAT T_FLT
#define T_KIND_CPLX T_CPX
#define T_KIND_PAIR T_PAIR
#define T_GEN(ID, CTYPE, MPI_NAME, CLASS) T_KIND_##CLASS(ID, CTYPE)
RX_BASIC_LIST(T_GEN)

static void (*const type_tests[RX_BASIC_COUNT])(const char *) = {
#define T_ENTRY(ID, CTYPE, MPI_NAME, CLASS) [ID] = test_##ID,
    RX_BASIC_LIST(T_ENTRY)
#undef T_ENTRY
};

/* ---- known answers, independent of both the kernels and the reference ---- */

static void check_known(void)
{
    unsigned u[2] = {UINT_MAX, 5}, ui[2] = {1, 7};
    rx_op_apply(RX_OP_SUM, 8, ui, u, 2);
    CHECK(u[0] == 0 && u[1] == 12, "MPI_UNSIGNED sum wrap: %u %u", u[0], u[1]);

    signed char c[1] = {-128}, ci[1] = {-1};
    rx_op_apply(RX_OP_SUM, 2, ci, c, 1);
    CHECK(c[0] == 127, "MPI_SIGNED_CHAR -128 + -1 = %d", c[0]);

    double _Complex z[1] = {3.0 + 4.0 * I}, zi[1] = {1.0 + 2.0 * I};
    rx_op_apply(RX_OP_PROD, 27, zi, z, 1);
    CHECK(creal(z[0]) == -5.0 && cimag(z[0]) == 10.0, "(1+2i)(3+4i) = %g%+gi", creal(z[0]),
          cimag(z[0]));

    rx_2int_t p[3] = {{4, 9}, {4, 2}, {7, 0}}, pi[3] = {{4, 3}, {4, 5}, {-7, 8}};
    rx_op_apply(RX_OP_MINLOC, 36, pi, p, 3);
    CHECK(p[0].v == 4 && p[0].i == 3 && p[1].v == 4 && p[1].i == 2 && p[2].v == -7 && p[2].i == 8,
          "MPI_2INT minloc ties");
    rx_double_int_t q[1] = {{2.5, 6}}, qi[1] = {{2.5, 1}};
    rx_op_apply(RX_OP_MAXLOC, 34, qi, q, 1);
    CHECK(q[0].v == 2.5 && q[0].i == 1, "MPI_DOUBLE_INT maxloc tie");

    bool l[4] = {true, true, false, false}, li[4] = {true, false, true, false};
    rx_op_apply(RX_OP_LXOR, 17, li, l, 4);
    CHECK(!l[0] && l[1] && l[2] && !l[3], "MPI_C_BOOL lxor");
    int lg[3] = {5, 0, -3}, lgi[3] = {-1, 9, 0};
    rx_op_apply(RX_OP_LAND, 46, lgi, lg, 3);
    CHECK(lg[0] == 1 && lg[1] == 0 && lg[2] == 0, "MPI_LOGICAL land 0/1");

    double m[2] = {1.0, (double)nan_seed}, mi[2] = {(double)nan_seed, 1.0};
    rx_op_apply(RX_OP_MAX, 14, mi, m, 2);
    CHECK(isnan(m[0]) && isnan(m[1]), "MPI_DOUBLE max propagates NaN");

    unsigned char by[1] = {0xf0}, byi[1] = {0x3c};
    rx_op_apply(RX_OP_BXOR, 4, byi, by, 1);
    CHECK(by[0] == 0xcc, "MPI_BYTE bxor");

    char ch[2] = {'y', 'z'}, chi[2] = {'x', 'w'};
    rx_op_apply(RX_OP_REPLACE, 47, chi, ch, 1); /* MPI_CHARACTER: REPLACE only */
    CHECK(ch[0] == 'x' && ch[1] == 'z', "MPI_CHARACTER replace");
    long long big[1] = {4}, bigi[1] = {1};
    rx_op_apply(RX_OP_NO_OP, 11, bigi, big, 1);
    CHECK(big[0] == 4, "MPI_NO_OP changed inout");
}

/* ---- optional timing: 1 MiB double SUM, kernel vs a plain loop ---- */

static void plain_sum(const double *in, double *inout, size_t n)
{
    for (size_t i = 0; i < n; i++)
        inout[i] = in[i] + inout[i];
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void bench(void)
{
    enum { N = (1 << 20) / sizeof(double), ITERS = 2000 };
    double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    if (!a || !b) {
        fprintf(stderr, "bench: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < N; i++)
        a[i] = (double)i * 0.5, b[i] = 1.0;
    for (int rep = 0; rep < 3; rep++) {
        double t0 = now();
        for (int it = 0; it < ITERS; it++)
            rx_op_apply(RX_OP_SUM, 14, a, b, N);
        double t1 = now();
        for (int it = 0; it < ITERS; it++)
            plain_sum(a, b, N);
        double t2 = now();
        printf("1 MiB double SUM: rx_op_apply %.2f GB/s, plain loop %.2f GB/s\n",
               (double)ITERS * N * 8 / (t1 - t0) / 1e9, (double)ITERS * N * 8 / (t2 - t1) / 1e9);
    }
    free(a);
    free(b);
}

int main(int argc, char **argv)
{
    nan_seed = NAN;
    check_table();
    for (int id = 1; id < RX_BASIC_COUNT; id++)
        if (type_tests[id])
            type_tests[id](expect[id].name);
    check_known();
    printf("op: %d checks, %d failed\n", checks, failed);
    if (argc > 1 && strcmp(argv[1], "--bench") == 0)
        bench();
    return failed ? 1 : 0;
}
