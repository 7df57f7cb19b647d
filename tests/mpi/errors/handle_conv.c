/* SPDX-License-Identifier: MIT
 * C / Fortran handle and status conversion: for every handle kind, c2f then f2c gives
 * back the same handle, and the converted handle works in a call (null handles stay
 * null); MPI_Status_c2f / f2c (and the f08 forms) carry source, tag,
 * error, count and the cancelled flag both ways. */
#include "rxtest.h"

/* MPICH 4.0.2 has the f08 status calls in its Fortran library only, Open MPI 4.1
 * neither those nor MPI_F_STATUS_SIZE (a Fortran status fits in 16 integers). */
#ifdef RDMX
#define HAVE_F08_STATUS 1
#endif
#ifndef MPI_F_STATUS_SIZE
#define MPI_F_STATUS_SIZE 16
#endif

static void test_handles(void)
{
    MPI_Comm comm = MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_WORLD));
    int size = -1;
    RXT_CHECK(comm == MPI_COMM_WORLD, "MPI_COMM_WORLD does not convert back");
    RXT_MPI(MPI_Comm_size(comm, &size));
    RXT_CHECK(size == rxt_size, "size through a converted communicator: %d", size);
    RXT_CHECK(MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_NULL)) == MPI_COMM_NULL, "MPI_COMM_NULL");

    MPI_Group g, g2;
    RXT_MPI(MPI_Comm_group(MPI_COMM_WORLD, &g));
    g2 = MPI_Group_f2c(MPI_Group_c2f(g));
    RXT_MPI(MPI_Group_size(g2, &size));
    RXT_CHECK(g2 == g && size == rxt_size, "group: size %d", size);
    RXT_MPI(MPI_Group_free(&g2));
    RXT_CHECK(MPI_Group_f2c(MPI_Group_c2f(MPI_GROUP_NULL)) == MPI_GROUP_NULL, "MPI_GROUP_NULL");

    MPI_Datatype t, t2;
    RXT_MPI(MPI_Type_contiguous(3, MPI_INT, &t));
    RXT_MPI(MPI_Type_commit(&t));
    t2 = MPI_Type_f2c(MPI_Type_c2f(t));
    RXT_MPI(MPI_Type_size(t2, &size));
    RXT_CHECK(t2 == t && size == 3 * (int)sizeof(int), "datatype: size %d", size);
    RXT_MPI(MPI_Type_free(&t2));
    RXT_CHECK(MPI_Type_f2c(MPI_Type_c2f(MPI_DOUBLE)) == MPI_DOUBLE, "MPI_DOUBLE");

    MPI_Op op = MPI_Op_f2c(MPI_Op_c2f(MPI_SUM));
    int one = 1, sum = 0;
    RXT_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, op, MPI_COMM_WORLD));
    RXT_CHECK(op == MPI_SUM && sum == rxt_size, "op: sum %d", sum);

    MPI_Errhandler eh = MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRORS_RETURN)), got;
    RXT_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
    RXT_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    RXT_CHECK(eh == MPI_ERRORS_RETURN && got == MPI_ERRORS_RETURN, "error handler");
    RXT_MPI(MPI_Errhandler_free(&got));

    MPI_Info info, info2;
    RXT_MPI(MPI_Info_create(&info));
    info2 = MPI_Info_f2c(MPI_Info_c2f(info));
    RXT_MPI(MPI_Info_set(info2, "k", "v"));
    int nkeys = 0;
    RXT_MPI(MPI_Info_get_nkeys(info, &nkeys));
    RXT_CHECK(info2 == info && nkeys == 1, "info: nkeys %d", nkeys);
    RXT_MPI(MPI_Info_free(&info2));
    RXT_CHECK(MPI_Info_f2c(MPI_Info_c2f(MPI_INFO_NULL)) == MPI_INFO_NULL, "MPI_INFO_NULL");

    int *base;
    MPI_Win win, win2;
    RXT_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    win2 = MPI_Win_f2c(MPI_Win_c2f(win));
    RXT_MPI(MPI_Win_get_group(win2, &g));
    RXT_MPI(MPI_Group_size(g, &size));
    RXT_CHECK(win2 == win && size == rxt_size, "window: group size %d", size);
    RXT_MPI(MPI_Group_free(&g));
    RXT_MPI(MPI_Win_free(&win2));

    /* requests and messages: a self message */
    int x = 41, y = 0;
    MPI_Request r, r2;
    RXT_MPI(MPI_Isend(&x, 1, MPI_INT, rxt_rank, 8, MPI_COMM_WORLD, &r));
    r2 = MPI_Request_f2c(MPI_Request_c2f(r));
    MPI_Message m, m2;
    RXT_MPI(MPI_Mprobe(rxt_rank, 8, MPI_COMM_WORLD, &m, MPI_STATUS_IGNORE));
    m2 = MPI_Message_f2c(MPI_Message_c2f(m));
    RXT_CHECK(m2 == m, "message does not convert back");
    RXT_MPI(MPI_Mrecv(&y, 1, MPI_INT, &m2, MPI_STATUS_IGNORE));
    RXT_MPI(MPI_Wait(&r2, MPI_STATUS_IGNORE));
    RXT_CHECK(r2 == MPI_REQUEST_NULL && y == 41, "request / message: got %d", y);
    RXT_CHECK(MPI_Request_f2c(MPI_Request_c2f(MPI_REQUEST_NULL)) == MPI_REQUEST_NULL,
              "MPI_REQUEST_NULL");
    RXT_CHECK(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NULL)) == MPI_MESSAGE_NULL,
              "MPI_MESSAGE_NULL");
}

static void check_status(const MPI_Status *st, int src, int tag, int count, const char *what)
{
    int n = -1, flag = -1;
    RXT_MPI(MPI_Get_count(st, MPI_INT, &n));
    RXT_MPI(MPI_Test_cancelled(st, &flag));
    RXT_CHECK(st->MPI_SOURCE == src && st->MPI_TAG == tag && n == count && !flag,
              "%s: source %d tag %d count %d cancelled %d", what, st->MPI_SOURCE, st->MPI_TAG, n,
              flag);
}

static void test_status(void)
{
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    int out[5] = {1, 2, 3, 4, 5}, in[5];
    MPI_Status st, back;
    RXT_MPI(MPI_Sendrecv(out, 5, MPI_INT, right, 21, in, 5, MPI_INT, left, 21, MPI_COMM_WORLD,
                         &st));
    MPI_Fint f[MPI_F_STATUS_SIZE];
    RXT_MPI(MPI_Status_c2f(&st, f));
    memset(&back, 0xff, sizeof back);
    RXT_MPI(MPI_Status_f2c(f, &back));
    check_status(&back, left, 21, 5, "c2f / f2c");
#ifdef HAVE_F08_STATUS
    RXT_CHECK(f[MPI_F_SOURCE] == left && f[MPI_F_TAG] == 21, "Fortran status: source %d tag %d",
              (int)f[MPI_F_SOURCE], (int)f[MPI_F_TAG]);
    MPI_F08_status f08;
    RXT_MPI(MPI_Status_c2f08(&st, &f08));
    RXT_CHECK(f08.MPI_SOURCE == left && f08.MPI_TAG == 21, "f08 status: source %d tag %d",
              (int)f08.MPI_SOURCE, (int)f08.MPI_TAG);
    memset(&back, 0xff, sizeof back);
    RXT_MPI(MPI_Status_f082c(&f08, &back));
    check_status(&back, left, 21, 5, "c2f08 / f082c");
    MPI_Fint f2[MPI_F_STATUS_SIZE];
    RXT_MPI(MPI_Status_f082f(&f08, f2));
    MPI_F08_status f08b;
    RXT_MPI(MPI_Status_f2f08(f2, &f08b));
    RXT_MPI(MPI_Status_f082c(&f08b, &back));
    check_status(&back, left, 21, 5, "f082f / f2f08");
#endif
#ifdef RDMX
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Status_f2c(MPI_F_STATUS_IGNORE, &back));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Status_c2f(MPI_STATUS_IGNORE, f));
#endif
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "handle_conv");
    test_handles();
    test_status();
    return rxt_finish();
}
