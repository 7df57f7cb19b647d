/* SPDX-License-Identifier: MIT
 * Every predefined C datatype sent and received with values of its type (around a
 * ring, so between two processes whenever there are two): integers of every width
 * and sign, float/double/long double, MPI_WCHAR, MPI_C_BOOL, the C complex types,
 * MPI_INT8_T..MPI_UINT64_T, MPI_AINT/MPI_OFFSET/MPI_COUNT, MPI_BYTE/MPI_PACKED and
 * the value-index pair types. MPI_Type_size is the size of the data (for pair types
 * without the padding of the C struct), MPI_Get_count gives the element count, and
 * MPI_UNDEFINED when the byte count is not a multiple of the type size. */
#include "rxtest.h"

#include <complex.h>
#include <stdbool.h>
#include <wchar.h>

enum { N = 37 };
static int left, right;

#define GEN_INT(T, i, r) ((T)((i) * 37 + (r) * 11 + 1 - ((i) % 2) * 60))
#define GEN_UINT(T, i, r) ((T)((i) * 37u + (unsigned)(r) * 11u + 200u))
#define GEN_WIDE(T, i, r) ((T)(((long long)(i) << 40) + (long long)(r) * 3 + (i)))
#define GEN_FLT(T, i, r) ((T)(i) / (T)3 + (T)(r) - (T)7.25)
#define GEN_BOOL(T, i, r) ((T)(((i) + (r)) % 3 == 0))
#define GEN_WCHAR(T, i, r) ((T)(L'A' + (i) + (r) * 1000))
#define GEN_CPLX(T, i, r) ((T)((double)(i) / 3.0 + (r)) + (T)(-(double)(i) / 7.0) * I)
#define EQ_PLAIN(a, b) ((a) == (b))
#define EQ_CPLX(a, b) (creall(a) == creall(b) && cimagl(a) == cimagl(b))

#define CHECK_TYPE(MPIT, T, GEN, EQ, DATASIZE)                                                     \
    do {                                                                                           \
        T s[N], r[N];                                                                              \
        for (int i = 0; i < N; i++)                                                                \
            s[i] = GEN(T, i, rxt_rank);                                                            \
        memset(r, 0, sizeof r);                                                                    \
        run_one(#MPIT, MPIT, s, r, (int)(DATASIZE));                                               \
        for (int i = 0; i < N; i++) {                                                              \
            T e = GEN(T, i, left);                                                                 \
            if (!EQ(r[i], e)) {                                                                    \
                RXT_CHECK(0, "%s element %d differs", #MPIT, i);                                   \
                break;                                                                             \
            }                                                                                      \
        }                                                                                          \
    } while (0)

#define CHECK_PAIR(MPIT, VT)                                                                       \
    do {                                                                                           \
        struct { VT v; int i; } s[N], r[N];                                                        \
        for (int i = 0; i < N; i++) {                                                              \
            s[i].v = (VT)(i * 3 - 50 + rxt_rank);                                                  \
            s[i].i = rxt_rank * 1000 + i;                                                          \
        }                                                                                          \
        memset(r, 0, sizeof r);                                                                    \
        run_one(#MPIT, MPIT, s, r, (int)(sizeof(VT) + sizeof(int)));                              \
        for (int i = 0; i < N; i++)                                                                \
            if (r[i].v != (VT)(i * 3 - 50 + left) || r[i].i != left * 1000 + i) {                  \
                RXT_CHECK(0, "%s element %d differs", #MPIT, i);                                   \
                break;                                                                             \
            }                                                                                      \
    } while (0)

static void run_one(const char *name, MPI_Datatype t, const void *s, void *r, int datasize)
{
    int sz = -1, cnt = -1;
    RXT_MPI(MPI_Type_size(t, &sz));
    RXT_CHECK(sz == datasize, "MPI_Type_size(%s) = %d, want %d", name, sz, datasize);
    MPI_Status st;
    RXT_MPI(MPI_Sendrecv(s, N, t, right, 1, r, N, t, left, 1, MPI_COMM_WORLD, &st));
    RXT_MPI(MPI_Get_count(&st, t, &cnt));
    RXT_CHECK(cnt == N, "MPI_Get_count(%s) = %d, want %d", name, cnt, N);
}

static void check_get_count(void)
{
    unsigned char s[24], r[32];
    for (int i = 0; i < 24; i++)
        s[i] = (unsigned char)i;
    MPI_Status st;
    struct { MPI_Datatype t; const char *name; int bytes, want; } c[] = {
        { MPI_INT, "MPI_INT", 7, MPI_UNDEFINED },     { MPI_SHORT, "MPI_SHORT", 7, MPI_UNDEFINED },
        { MPI_CHAR, "MPI_CHAR", 7, 7 },               { MPI_INT, "MPI_INT", 8, 2 },
        { MPI_DOUBLE, "MPI_DOUBLE", 12, MPI_UNDEFINED }, { MPI_DOUBLE_INT, "MPI_DOUBLE_INT", 24, 2 },
        { MPI_SHORT_INT, "MPI_SHORT_INT", 24, 4 },    { MPI_2INT, "MPI_2INT", 12, MPI_UNDEFINED },
        { MPI_BYTE, "MPI_BYTE", 0, 0 },               { MPI_INT, "MPI_INT", 0, 0 },
    };
    for (unsigned k = 0; k < sizeof c / sizeof c[0]; k++) {
        int cnt = -5;
        RXT_MPI(MPI_Sendrecv(s, c[k].bytes, MPI_BYTE, right, 2, r, 32, MPI_BYTE, left, 2,
                             MPI_COMM_WORLD, &st));
        RXT_MPI(MPI_Get_count(&st, c[k].t, &cnt));
        RXT_CHECK(cnt == c[k].want, "%d bytes as %s: MPI_Get_count %d, want %d", c[k].bytes,
                  c[k].name, cnt, c[k].want);
    }
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "dtype_p2p");
    right = (rxt_rank + 1) % rxt_size;
    left = (rxt_rank + rxt_size - 1) % rxt_size;

    CHECK_TYPE(MPI_CHAR, char, GEN_INT, EQ_PLAIN, sizeof(char));
    CHECK_TYPE(MPI_SIGNED_CHAR, signed char, GEN_INT, EQ_PLAIN, 1);
    CHECK_TYPE(MPI_UNSIGNED_CHAR, unsigned char, GEN_UINT, EQ_PLAIN, 1);
    CHECK_TYPE(MPI_BYTE, unsigned char, GEN_UINT, EQ_PLAIN, 1);
    CHECK_TYPE(MPI_PACKED, unsigned char, GEN_UINT, EQ_PLAIN, 1);
    CHECK_TYPE(MPI_SHORT, short, GEN_INT, EQ_PLAIN, sizeof(short));
    CHECK_TYPE(MPI_UNSIGNED_SHORT, unsigned short, GEN_UINT, EQ_PLAIN, sizeof(short));
    CHECK_TYPE(MPI_INT, int, GEN_INT, EQ_PLAIN, sizeof(int));
    CHECK_TYPE(MPI_UNSIGNED, unsigned, GEN_UINT, EQ_PLAIN, sizeof(unsigned));
    CHECK_TYPE(MPI_LONG, long, GEN_WIDE, EQ_PLAIN, sizeof(long));
    CHECK_TYPE(MPI_UNSIGNED_LONG, unsigned long, GEN_WIDE, EQ_PLAIN, sizeof(long));
    CHECK_TYPE(MPI_LONG_LONG, long long, GEN_WIDE, EQ_PLAIN, sizeof(long long));
    CHECK_TYPE(MPI_LONG_LONG_INT, long long, GEN_WIDE, EQ_PLAIN, sizeof(long long));
    CHECK_TYPE(MPI_UNSIGNED_LONG_LONG, unsigned long long, GEN_WIDE, EQ_PLAIN, 8);
    CHECK_TYPE(MPI_FLOAT, float, GEN_FLT, EQ_PLAIN, sizeof(float));
    CHECK_TYPE(MPI_DOUBLE, double, GEN_FLT, EQ_PLAIN, sizeof(double));
    CHECK_TYPE(MPI_LONG_DOUBLE, long double, GEN_FLT, EQ_PLAIN, sizeof(long double));
    CHECK_TYPE(MPI_WCHAR, wchar_t, GEN_WCHAR, EQ_PLAIN, sizeof(wchar_t));
    CHECK_TYPE(MPI_C_BOOL, _Bool, GEN_BOOL, EQ_PLAIN, sizeof(_Bool));
    CHECK_TYPE(MPI_INT8_T, int8_t, GEN_INT, EQ_PLAIN, 1);
    CHECK_TYPE(MPI_INT16_T, int16_t, GEN_INT, EQ_PLAIN, 2);
    CHECK_TYPE(MPI_INT32_T, int32_t, GEN_INT, EQ_PLAIN, 4);
    CHECK_TYPE(MPI_INT64_T, int64_t, GEN_WIDE, EQ_PLAIN, 8);
    CHECK_TYPE(MPI_UINT8_T, uint8_t, GEN_UINT, EQ_PLAIN, 1);
    CHECK_TYPE(MPI_UINT16_T, uint16_t, GEN_UINT, EQ_PLAIN, 2);
    CHECK_TYPE(MPI_UINT32_T, uint32_t, GEN_UINT, EQ_PLAIN, 4);
    CHECK_TYPE(MPI_UINT64_T, uint64_t, GEN_WIDE, EQ_PLAIN, 8);
    CHECK_TYPE(MPI_AINT, MPI_Aint, GEN_WIDE, EQ_PLAIN, sizeof(MPI_Aint));
    CHECK_TYPE(MPI_OFFSET, MPI_Offset, GEN_WIDE, EQ_PLAIN, sizeof(MPI_Offset));
    CHECK_TYPE(MPI_COUNT, MPI_Count, GEN_WIDE, EQ_PLAIN, sizeof(MPI_Count));
    CHECK_TYPE(MPI_C_COMPLEX, float _Complex, GEN_CPLX, EQ_CPLX, sizeof(float _Complex));
    CHECK_TYPE(MPI_C_FLOAT_COMPLEX, float _Complex, GEN_CPLX, EQ_CPLX, sizeof(float _Complex));
    CHECK_TYPE(MPI_C_DOUBLE_COMPLEX, double _Complex, GEN_CPLX, EQ_CPLX, sizeof(double _Complex));
    CHECK_TYPE(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex, GEN_CPLX, EQ_CPLX,
               sizeof(long double _Complex));
    CHECK_PAIR(MPI_FLOAT_INT, float);
    CHECK_PAIR(MPI_DOUBLE_INT, double);
    CHECK_PAIR(MPI_LONG_INT, long);
    CHECK_PAIR(MPI_2INT, int);
    CHECK_PAIR(MPI_SHORT_INT, short);
    CHECK_PAIR(MPI_LONG_DOUBLE_INT, long double);
    check_get_count();
    return rxt_finish();
}
