/* SPDX-License-Identifier: MIT
 * MPI-4.1 status accessors and MPI_Type_get_value_index:
 *   - MPI_Status_get_source / _tag / _error read what a receive filled in (ring
 *     exchange), MPI_Status_set_* write what the getters then read;
 *   - MPI_Type_get_value_index gives the predefined pair types and MPI_DATATYPE_NULL
 *     for a pair that has none; the pair it gives works in MPI_MAXLOC;
 *   - NULL or ignored statuses are MPI_ERR_ARG. */
#include "rxtest.h"

#if defined(RDMX) || MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
static void test_status(void)
{
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    int out = rxt_rank, in = -1, v = -9;
    MPI_Status st;
    RXT_MPI(MPI_Sendrecv(&out, 1, MPI_INT, right, 40 + rxt_rank, &in, 1, MPI_INT, left,
                         MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    RXT_MPI(MPI_Status_get_source(&st, &v));
    RXT_CHECK(v == left && v == st.MPI_SOURCE, "get_source %d, want %d", v, left);
    RXT_MPI(MPI_Status_get_tag(&st, &v));
    RXT_CHECK(v == 40 + left, "get_tag %d, want %d", v, 40 + left);
    RXT_MPI(MPI_Status_set_source(&st, 77));
    RXT_MPI(MPI_Status_set_tag(&st, 78));
    RXT_MPI(MPI_Status_set_error(&st, MPI_ERR_TRUNCATE));
    int s, t, e;
    RXT_MPI(MPI_Status_get_source(&st, &s));
    RXT_MPI(MPI_Status_get_tag(&st, &t));
    RXT_MPI(MPI_Status_get_error(&st, &e));
    RXT_CHECK(s == 77 && t == 78 && e == MPI_ERR_TRUNCATE && st.MPI_TAG == 78,
              "after set: %d %d %d", s, t, e);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Status_get_tag(MPI_STATUS_IGNORE, &v));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Status_set_error(NULL, 0));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void test_value_index(void)
{
    static const MPI_Datatype pairs[][3] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT}, {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
        {MPI_LONG, MPI_INT, MPI_LONG_INT},   {MPI_INT, MPI_INT, MPI_2INT},
        {MPI_SHORT, MPI_INT, MPI_SHORT_INT}, {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
        {MPI_DOUBLE, MPI_DOUBLE, MPI_DATATYPE_NULL}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        MPI_Datatype t = MPI_BYTE;
        RXT_MPI(MPI_Type_get_value_index(pairs[i][0], pairs[i][1], &t));
        RXT_CHECK(t == pairs[i][2], "pair %zu: got another type", i);
    }
    MPI_Datatype di;
    RXT_MPI(MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &di));
    struct { double v; int i; } in = {rxt_rank == 0 ? 5.0 : (double)rxt_rank, rxt_rank}, out;
    RXT_MPI(MPI_Allreduce(&in, &out, 1, di, MPI_MAXLOC, MPI_COMM_WORLD));
    double best = 5.0;
    int at = 0;
    for (int r = 1; r < rxt_size; r++)
        if ((double)r > best)
            best = r, at = r;
    RXT_CHECK(out.v == best && out.i == at, "MAXLOC %g at %d, want %g at %d", out.v, out.i,
              best, at);
}
#endif

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "status_access");
#if defined(RDMX) || MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
    test_status();
    test_value_index();
#else
    if (rxt_rank == 0)
        printf("status_access: MPI-4.1 functions not in this MPI, skipped\n");
#endif
    return rxt_finish();
}
