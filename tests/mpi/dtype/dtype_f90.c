/* SPDX-License-Identifier: MIT
 * MPI_Type_create_f90_integer / _real / _complex (MPI-4.1 19.1.9):
 *   - the type of SELECTED_INT_KIND(r) / SELECTED_REAL_KIND(p, r) has the size of that
 *     Fortran kind (gfortran: integers of 1, 2, 4, 8, 16 bytes, reals of 4, 8, 16);
 *   - asking twice gives the same handle (the types are predefined: MPI_Type_free
 *     refuses them);
 *   - the envelope is MPI_COMBINER_F90_INTEGER / _REAL / _COMPLEX with r, or p and r;
 *   - a range no kind has is MPI_ERR_ARG;
 *   - the types move data and reduce (sum of F90 reals and integers across ranks). */
#include "rxtest.h"

static void check_size(MPI_Datatype t, int want, const char *what)
{
    int size = -1;
    RXT_MPI(MPI_Type_size(t, &size));
    RXT_CHECK(size == want, "%s: size %d, want %d", what, size, want);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "dtype_f90");
    static const struct { int r, size; } ints[] = {{1, 1}, {2, 1}, {3, 2}, {4, 2}, {5, 4},
                                                   {9, 4}, {10, 8}, {18, 8}};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        MPI_Datatype t, u;
        RXT_MPI(MPI_Type_create_f90_integer(ints[i].r, &t));
        RXT_MPI(MPI_Type_create_f90_integer(ints[i].r, &u));
        RXT_CHECK(t == u, "f90_integer(%d): two handles", ints[i].r);
        char what[32];
        snprintf(what, sizeof what, "f90_integer(%d)", ints[i].r);
        check_size(t, ints[i].size, what);
        int ni, na, nt, comb, got[1];
        RXT_MPI(MPI_Type_get_envelope(t, &ni, &na, &nt, &comb));
        RXT_CHECK(comb == MPI_COMBINER_F90_INTEGER && ni == 1 && na == 0 && nt == 0,
                  "%s: combiner %d ni %d na %d nt %d", what, comb, ni, na, nt);
        RXT_MPI(MPI_Type_get_contents(t, 1, 0, 0, got, NULL, NULL));
        RXT_CHECK(got[0] == ints[i].r, "%s: contents %d", what, got[0]);
    }
    static const struct { int p, r, size; } reals[] = {
        {6, MPI_UNDEFINED, 4}, {MPI_UNDEFINED, 37, 4}, {6, 37, 4}, {7, MPI_UNDEFINED, 8},
        {15, 307, 8}, {MPI_UNDEFINED, 308, 16}, {16, 10, 16}};
    for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++) {
#ifdef MPICH_VERSION
        if (reals[i].size == 16)
            continue; /* MPICH 4.0.2's table of real kinds ends at REAL(8) */
#endif
        MPI_Datatype t, c;
        char what[48];
        snprintf(what, sizeof what, "f90_real(%d, %d)", reals[i].p, reals[i].r);
        RXT_MPI(MPI_Type_create_f90_real(reals[i].p, reals[i].r, &t));
        check_size(t, reals[i].size, what);
        RXT_MPI(MPI_Type_create_f90_complex(reals[i].p, reals[i].r, &c));
        check_size(c, 2 * reals[i].size, what);
        int ni, na, nt, comb, got[2];
        RXT_MPI(MPI_Type_get_envelope(c, &ni, &na, &nt, &comb));
        RXT_CHECK(comb == MPI_COMBINER_F90_COMPLEX && ni == 2 && na == 0 && nt == 0,
                  "%s complex: combiner %d ni %d", what, comb, ni);
        RXT_MPI(MPI_Type_get_contents(c, 2, 0, 0, got, NULL, NULL));
        RXT_CHECK(got[0] == reals[i].p && got[1] == reals[i].r, "%s: contents %d %d", what,
                  got[0], got[1]);
    }

    /* data through them: a sum of reals of kind 8 and integers of range 9 */
    MPI_Datatype r8, i4;
    RXT_MPI(MPI_Type_create_f90_real(15, 307, &r8));
    RXT_MPI(MPI_Type_create_f90_integer(9, &i4));
    double x[3] = {rxt_rank + 0.5, 2.0 * rxt_rank, -1.0}, y[3];
    int32_t a[2] = {rxt_rank, 7}, b[2];
    RXT_MPI(MPI_Allreduce(x, y, 3, r8, MPI_SUM, MPI_COMM_WORLD));
    RXT_MPI(MPI_Allreduce(a, b, 2, i4, MPI_SUM, MPI_COMM_WORLD));
    double s = 0;
    for (int r = 0; r < rxt_size; r++)
        s += r;
    RXT_CHECK(y[0] == s + 0.5 * rxt_size && y[1] == 2 * s && y[2] == -rxt_size,
              "f90 real sum %g %g %g", y[0], y[1], y[2]);
    RXT_CHECK(b[0] == (int)s && b[1] == 7 * rxt_size, "f90 integer sum %d %d", b[0], b[1]);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Datatype t;
    /* MPICH answers MPI_ERR_OTHER where the standard says MPI_ERR_ARG */
    RXT_EXPECT_EITHER(MPI_ERR_ARG, MPI_ERR_OTHER, MPI_Type_create_f90_integer(39, &t));
    RXT_EXPECT_EITHER(MPI_ERR_ARG, MPI_ERR_OTHER, MPI_Type_create_f90_real(34, MPI_UNDEFINED, &t));
    RXT_EXPECT_EITHER(MPI_ERR_ARG, MPI_ERR_OTHER,
                      MPI_Type_create_f90_complex(MPI_UNDEFINED, 5000, &t));
#ifdef RDMX
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Type_create_f90_integer(39, &t));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Type_create_f90_real(MPI_UNDEFINED, MPI_UNDEFINED, &t));
#endif
    /* MPICH lets a program free them (and then reuses a dangling handle) */
#ifndef MPICH_VERSION
    RXT_EXPECT_CLASS(MPI_ERR_TYPE, MPI_Type_free(&r8));
#endif
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    return rxt_finish();
}
