/* SPDX-License-Identifier: MIT
 * The MPI-1 functions removed in MPI-3.0 that MPICH still provides: MPI_Address,
 * MPI_Type_extent / _lb / _ub, MPI_Type_hvector / _hindexed / _struct, and
 * MPI_Errhandler_create / _set / _get. Each is checked against the call that replaced
 * it: the types built by the old constructors have the same extent, size and layout
 * (a ring exchange through them), and the handler set the old way is called by
 * MPI_Comm_call_errhandler. Open MPI 4.1 hides the prototypes unless
 * OMPI_OMIT_MPI1_COMPAT_DECLS is 0 (its library keeps the functions). */
#define OMPI_OMIT_MPI1_COMPAT_DECLS 0
#include "rxtest.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static int calls, last_code;

static void handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    calls++;
    last_code = *code;
}

static void same_shape(MPI_Datatype a, MPI_Datatype b, const char *what)
{
    MPI_Aint lb_a, ext_a, lb_b, ext_b, lb_old = -1, ub_old = -1, ext_old = -1;
    int size_a, size_b;
    RXT_MPI(MPI_Type_get_extent(a, &lb_a, &ext_a));
    RXT_MPI(MPI_Type_get_extent(b, &lb_b, &ext_b));
    RXT_MPI(MPI_Type_size(a, &size_a));
    RXT_MPI(MPI_Type_size(b, &size_b));
    RXT_MPI(MPI_Type_extent(a, &ext_old));
    RXT_MPI(MPI_Type_lb(a, &lb_old));
    RXT_MPI(MPI_Type_ub(a, &ub_old));
    RXT_CHECK(lb_a == lb_b && ext_a == ext_b && size_a == size_b,
              "%s: lb %ld extent %ld size %d, the new constructor's %ld %ld %d", what, (long)lb_a,
              (long)ext_a, size_a, (long)lb_b, (long)ext_b, size_b);
    RXT_CHECK(ext_old == ext_a && lb_old == lb_a && ub_old == lb_a + ext_a,
              "%s: MPI_Type_extent / lb / ub %ld %ld %ld, want %ld %ld %ld", what, (long)ext_old,
              (long)lb_old, (long)ub_old, (long)ext_a, (long)lb_a, (long)(lb_a + ext_a));
}

/* send through the old type, receive through the new one */
static void exchange(MPI_Datatype old, MPI_Datatype new, int nints, const char *what)
{
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    int *sb = malloc(sizeof(int) * (size_t)nints), *rb = malloc(sizeof(int) * (size_t)nints);
    int *want = malloc(sizeof(int) * (size_t)nints);
    for (int i = 0; i < nints; i++) {
        sb[i] = 1000 * rxt_rank + i;
        rb[i] = want[i] = -1;
    }
    RXT_MPI(MPI_Sendrecv(sb, 1, new, right, 0, want, 1, new, left, 0, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE));
    RXT_MPI(MPI_Sendrecv(sb, 1, old, right, 1, rb, 1, new, left, 1, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE));
    for (int i = 0; i < nints; i++)
        RXT_CHECK(rb[i] == want[i], "%s: int %d is %d, want %d", what, i, rb[i], want[i]);
    free(sb);
    free(rb);
    free(want);
}

/* commit, compare and free a type of the old constructor and one of the new */
static void check_pair(MPI_Datatype o, MPI_Datatype n, int nints, const char *what)
{
    RXT_MPI(MPI_Type_commit(&o));
    RXT_MPI(MPI_Type_commit(&n));
    same_shape(o, n, what);
    exchange(o, n, nints, what);
    RXT_MPI(MPI_Type_free(&o));
    RXT_MPI(MPI_Type_free(&n));
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "mpi1_removed");
    int buf[64];
    MPI_Aint a0 = 0, a1 = 0, n0 = 0, n1 = 0;
    RXT_MPI(MPI_Address(&buf[0], &a0));
    RXT_MPI(MPI_Address(&buf[5], &a1));
    RXT_MPI(MPI_Get_address(&buf[0], &n0));
    RXT_MPI(MPI_Get_address(&buf[5], &n1));
    RXT_CHECK(a0 == n0 && a1 - a0 == 5 * (MPI_Aint)sizeof(int), "MPI_Address: %ld %ld",
              (long)a0, (long)(a1 - a0));

    MPI_Datatype o, n;
    RXT_MPI(MPI_Type_hvector(3, 2, 5 * sizeof(int), MPI_INT, &o));
    RXT_MPI(MPI_Type_create_hvector(3, 2, 5 * sizeof(int), MPI_INT, &n));
    check_pair(o, n, 16, "hvector");

    int bl[3] = {1, 3, 2};
    MPI_Aint disp[3] = {4 * sizeof(int), 0, 10 * sizeof(int)};
    RXT_MPI(MPI_Type_hindexed(3, bl, disp, MPI_INT, &o));
    RXT_MPI(MPI_Type_create_hindexed(3, bl, disp, MPI_INT, &n));
    check_pair(o, n, 12, "hindexed");

    MPI_Datatype types[3] = {MPI_INT, MPI_INT, MPI_INT};
    RXT_MPI(MPI_Type_struct(3, bl, disp, types, &o));
    RXT_MPI(MPI_Type_create_struct(3, bl, disp, types, &n));
    check_pair(o, n, 12, "struct");

    MPI_Comm dup;
    MPI_Errhandler eh, got = MPI_ERRHANDLER_NULL;
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    RXT_MPI(MPI_Errhandler_create(handler, &eh));
    RXT_MPI(MPI_Errhandler_set(dup, eh));
    RXT_MPI(MPI_Errhandler_get(dup, &got));
    RXT_CHECK(got == eh, "MPI_Errhandler_get gave another handler");
    RXT_MPI(MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER));
    RXT_CHECK(calls == 1 && last_code == MPI_ERR_OTHER, "handler: %d calls, code %d", calls,
              last_code);
    RXT_MPI(MPI_Errhandler_free(&got));
    RXT_MPI(MPI_Errhandler_free(&eh));
    RXT_MPI(MPI_Comm_free(&dup));
    return rxt_finish();
}
