/* SPDX-License-Identifier: MIT
 * The optional sized Fortran types (MPI_INTEGER1..16, MPI_REAL4..16,
 * MPI_COMPLEX8..32, MPI_LOGICAL1..8, MPI_2REAL, MPI_2DOUBLE_PRECISION):
 * sizes, names, MPI_Type_match_size, and reductions over them checked
 * against serial sums; the MPI_Count queries (Type_size_x,
 * Type_get_extent_x, Type_get_true_extent_x, Get_elements_x), also on an
 * uncommitted type and on one larger than an int can count. Run by CTest
 * only, not under the peers: Debian's MPICH has several of these optional
 * types as MPI_DATATYPE_NULL, and Open MPI 4.1 sums MPI_REAL16 as x87 long
 * double where gfortran's REAL(16) is IEEE binary128 (as here). */
#include "rxtest.h"

#include <complex.h>
#include <string.h>

static void check_sizes(void)
{
    /* optional types: the peers lack some, so each is checked where defined */
#define T(x, s) {x, s, #x},
    struct { MPI_Datatype t; int size; const char *name; } ts[] = {
        T(MPI_INTEGER1, 1) T(MPI_INTEGER2, 2) T(MPI_INTEGER4, 4) T(MPI_INTEGER8, 8)
#ifdef MPI_INTEGER16
        T(MPI_INTEGER16, 16)
#endif
        T(MPI_REAL4, 4) T(MPI_REAL8, 8) T(MPI_REAL16, 16)
        T(MPI_COMPLEX8, 8) T(MPI_COMPLEX16, 16) T(MPI_COMPLEX32, 32)
#ifdef MPI_LOGICAL1
        T(MPI_LOGICAL1, 1) T(MPI_LOGICAL2, 2) T(MPI_LOGICAL4, 4) T(MPI_LOGICAL8, 8)
#endif
        T(MPI_2REAL, 8) T(MPI_2DOUBLE_PRECISION, 16)
    };
#undef T
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
        int s;
        MPI_Count sx, lb, ext;
        char name[MPI_MAX_OBJECT_NAME];
        int len;
        RXT_MPI(MPI_Type_size(ts[i].t, &s));
        RXT_MPI(MPI_Type_size_x(ts[i].t, &sx));
        RXT_MPI(MPI_Type_get_extent_x(ts[i].t, &lb, &ext));
        RXT_MPI(MPI_Type_get_name(ts[i].t, name, &len));
        RXT_CHECK(s == ts[i].size && sx == ts[i].size && lb == 0 && ext == ts[i].size,
                  "%s: size %d / %lld, lb %lld, extent %lld, want %d", ts[i].name, s,
                  (long long)sx, (long long)lb, (long long)ext, ts[i].size);
        RXT_CHECK(strcmp(name, ts[i].name) == 0, "name %s, want %s", name, ts[i].name);
    }
    struct { int cls, size; MPI_Datatype want; } m[] = {
        {MPI_TYPECLASS_INTEGER, 1, MPI_INTEGER1}, {MPI_TYPECLASS_INTEGER, 8, MPI_INTEGER8},
        {MPI_TYPECLASS_REAL, 4, MPI_REAL4}, {MPI_TYPECLASS_REAL, 8, MPI_REAL8},
        {MPI_TYPECLASS_COMPLEX, 16, MPI_COMPLEX16},
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        MPI_Datatype t;
        RXT_MPI(MPI_Type_match_size(m[i].cls, m[i].size, &t));
        int s;
        MPI_Type_size(t, &s);
        RXT_CHECK(t == m[i].want || s == m[i].size, "Type_match_size(%d, %d): size %d", m[i].cls,
                  m[i].size, s);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Datatype t;
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Type_match_size(MPI_TYPECLASS_REAL, 3, &t));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void check_reductions(void)
{
    int me = rxt_rank, p = rxt_size;
    long long isum = (long long)p * (p - 1) / 2;
    int8_t i1 = (int8_t)me, o1;
    RXT_MPI(MPI_Allreduce(&i1, &o1, 1, MPI_INTEGER1, MPI_SUM, MPI_COMM_WORLD));
    RXT_CHECK(o1 == (int8_t)isum, "INTEGER1 sum %d", o1);
#ifdef MPI_INTEGER16
    __int128 big = ((__int128)1 << 80) * (me + 1), obig;
    RXT_MPI(MPI_Allreduce(&big, &obig, 1, MPI_INTEGER16, MPI_SUM, MPI_COMM_WORLD));
    RXT_CHECK(obig == ((__int128)1 << 80) * (isum + p), "INTEGER16 sum wrong (high part %lld)",
              (long long)(obig >> 80));
#endif
    _Float128 q = (_Float128)me + (_Float128)0.25, oq;
    RXT_MPI(MPI_Allreduce(&q, &oq, 1, MPI_REAL16, MPI_SUM, MPI_COMM_WORLD));
    RXT_CHECK(oq == (_Float128)isum + (_Float128)0.25 * p, "REAL16 sum %g", (double)oq);
    double _Complex c = me + 1.0 * I, oc;
    RXT_MPI(MPI_Allreduce(&c, &oc, 1, MPI_COMPLEX16, MPI_SUM, MPI_COMM_WORLD));
    RXT_CHECK(creal(oc) == (double)isum && cimag(oc) == p, "COMPLEX16 sum %g%+gi", creal(oc),
              cimag(oc));
#ifdef MPI_LOGICAL1
    int8_t l1 = me != 1, ol1; /* false only at rank 1 */
    RXT_MPI(MPI_Allreduce(&l1, &ol1, 1, MPI_LOGICAL1, MPI_LAND, MPI_COMM_WORLD));
    RXT_CHECK(ol1 == (p < 2), "LOGICAL1 and %d", ol1);
#endif
    struct { float v, i; } r2 = {(float)((me * 7) % p), (float)me}, or2;
    RXT_MPI(MPI_Allreduce(&r2, &or2, 1, MPI_2REAL, MPI_MAXLOC, MPI_COMM_WORLD));
    float best = -1, at = 0;
    for (int r = 0; r < p; r++)
        if ((float)((r * 7) % p) > best)
            best = (float)((r * 7) % p), at = (float)r;
    RXT_CHECK(or2.v == best && or2.i == at, "2REAL maxloc %g at %g, want %g at %g", or2.v,
              or2.i, best, at);
}

static void check_counts(void)
{
    MPI_Datatype big, huge;
    RXT_MPI(MPI_Type_contiguous(1 << 20, MPI_DOUBLE, &big)); /* 8 MiB */
    RXT_MPI(MPI_Type_contiguous(1 << 10, big, &huge));       /* 8 GiB, never committed */
    MPI_Count s, lb, ext, tlb, text;
    RXT_MPI(MPI_Type_size_x(huge, &s));
    RXT_MPI(MPI_Type_get_extent_x(huge, &lb, &ext));
    RXT_MPI(MPI_Type_get_true_extent_x(huge, &tlb, &text));
    RXT_CHECK(s == (MPI_Count)8 << 30 && lb == 0 && ext == s && tlb == 0 && text == s,
              "8 GiB type: size %lld extent %lld true extent %lld", (long long)s, (long long)ext,
              (long long)text);
    int si;
    RXT_MPI(MPI_Type_size(huge, &si));
    RXT_CHECK(si == MPI_UNDEFINED, "MPI_Type_size of 8 GiB gave %d", si);
    MPI_Type_free(&huge);
    MPI_Type_free(&big);
    /* Get_elements_x on a received message */
    int me = rxt_rank, buf[6] = {1, 2, 3, 4, 5, 6};
    MPI_Status st;
    (void)me;
    RXT_MPI(MPI_Sendrecv(buf, 5, MPI_INT, 0, 3, buf + 1, 5, MPI_INT, 0, 3, MPI_COMM_SELF, &st));
    MPI_Count n;
    RXT_MPI(MPI_Get_elements_x(&st, MPI_INT, &n));
    RXT_CHECK(n == 5, "Get_elements_x %lld, want 5", (long long)n);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "dtype_sized");
    check_sizes();
    check_reductions();
    check_counts();
    return rxt_finish();
}
