/* SPDX-License-Identifier: MIT
 * The MPI_ERROR field of a status is written only by the calls that return several
 * statuses, and only when they fail with MPI_ERR_IN_STATUS (MPI-4.1 3.2.5): a ring
 * exchange through MPI_Recv, MPI_Probe, MPI_Iprobe, MPI_Mprobe + MPI_Mrecv,
 * MPI_Improbe + MPI_Imrecv + MPI_Wait, MPI_Irecv + MPI_Test, MPI_Waitall, MPI_Testall,
 * MPI_Waitany, MPI_Waitsome and MPI_Sendrecv (and MPI_PROC_NULL receives, and waits on
 * MPI_REQUEST_NULL) leaves the field as the program set it. Then MPI_Waitall with a
 * truncated receive and a good one fails with MPI_ERR_IN_STATUS and sets both fields
 * (MPI_ERR_TRUNCATE's class, MPI_SUCCESS). */
#include "rxtest.h"

#define MARK MPI_ERR_DIMS

/* The peers write the field where the standard says they may not: MPICH 4.0.2 in
 * MPI_Probe, MPI_Iprobe, MPI_Mprobe, MPI_Improbe and MPI_Waitall; Open MPI 4.1 in
 * MPI_Waitall, MPI_Testall and MPI_Waitsome (and its MPI_Waitall returns MPI_SUCCESS
 * for a truncated receive). Those checks are rdmx's only. */
#if defined(MPICH_VERSION)
#define PEER_PROBE_WRITES 1
#else
#define PEER_PROBE_WRITES 0
#endif
#if defined(MPICH_VERSION) || defined(OPEN_MPI)
#define PEER_MULTI_WRITES 1
#else
#define PEER_MULTI_WRITES 0
#endif

static void mark(MPI_Status *st, int n)
{
    for (int i = 0; i < n; i++)
        st[i].MPI_ERROR = MARK;
}

static void check_marks(const MPI_Status *st, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        RXT_CHECK(st[i].MPI_ERROR == MARK, "%s: status %d's MPI_ERROR was changed to %d", what, i,
                  st[i].MPI_ERROR);
}

/* sends are nonblocking: at one rank they go to the rank itself */
static MPI_Request sends[16];
static int nsends;

static void post(const int *buf, int n, int right, int tag)
{
    RXT_MPI(MPI_Isend(buf, n, MPI_INT, right, tag, MPI_COMM_WORLD, &sends[nsends++]));
}

static void test_single(int right, int left)
{
    MPI_Status st[2];
    MPI_Message msg;
    MPI_Request r[2];
    int out = rxt_rank, in = -1, flag = 0, idx = -1, n = 0, ind[2];

    post(&out, 1, right, 1);
    mark(st, 1);
    RXT_MPI(MPI_Probe(left, 1, MPI_COMM_WORLD, st));
    if (!PEER_PROBE_WRITES)
        check_marks(st, 1, "MPI_Probe");
    mark(st, 1);
    do
        RXT_MPI(MPI_Iprobe(left, 1, MPI_COMM_WORLD, &flag, st));
    while (!flag);
    if (!PEER_PROBE_WRITES)
        check_marks(st, 1, "MPI_Iprobe");
    mark(st, 1);
    RXT_MPI(MPI_Recv(&in, 1, MPI_INT, left, 1, MPI_COMM_WORLD, st));
    check_marks(st, 1, "MPI_Recv");

    post(&out, 1, right, 2);
    mark(st, 2);
    RXT_MPI(MPI_Mprobe(left, 2, MPI_COMM_WORLD, &msg, &st[0]));
    RXT_MPI(MPI_Mrecv(&in, 1, MPI_INT, &msg, &st[1]));
    check_marks(st + PEER_PROBE_WRITES, 2 - PEER_PROBE_WRITES, "MPI_Mprobe + MPI_Mrecv");

    post(&out, 1, right, 3);
    mark(st, 2);
    flag = 0;
    do
        RXT_MPI(MPI_Improbe(left, 3, MPI_COMM_WORLD, &flag, &msg, &st[0]));
    while (!flag);
    RXT_MPI(MPI_Imrecv(&in, 1, MPI_INT, &msg, &r[0]));
    RXT_MPI(MPI_Wait(&r[0], &st[1]));
    check_marks(st + PEER_PROBE_WRITES, 2 - PEER_PROBE_WRITES,
                "MPI_Improbe + MPI_Imrecv + MPI_Wait");

    RXT_MPI(MPI_Irecv(&in, 1, MPI_INT, left, 4, MPI_COMM_WORLD, &r[0]));
    post(&out, 1, right, 4);
    mark(st, 1);
    flag = 0;
    do
        RXT_MPI(MPI_Test(&r[0], &flag, st));
    while (!flag);
    check_marks(st, 1, "MPI_Test");
    mark(st, 1);
    RXT_MPI(MPI_Wait(&r[0], st)); /* a null request: an empty status */
    check_marks(st, 1, "MPI_Wait on MPI_REQUEST_NULL");

    /* the multiple-completion calls, all requests succeeding */
    int in2[2];
    const char *names[] = {"MPI_Waitall", "MPI_Testall", "MPI_Waitany", "MPI_Waitsome"};
    for (int form = 0; form < 4; form++) {
        RXT_MPI(MPI_Irecv(&in2[0], 1, MPI_INT, left, 10 + form, MPI_COMM_WORLD, &r[0]));
        RXT_MPI(MPI_Irecv(&in2[1], 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r[1]));
        post(&out, 1, right, 10 + form);
        mark(st, 2);
        switch (form) {
        case 0: RXT_MPI(MPI_Waitall(2, r, st)); break;
        case 1:
            flag = 0;
            do
                RXT_MPI(MPI_Testall(2, r, &flag, st));
            while (!flag);
            break;
        case 2:
            RXT_MPI(MPI_Waitany(2, r, &idx, &st[0]));
            RXT_MPI(MPI_Waitany(2, r, &idx, &st[1]));
            break;
        default:
            for (int done = 0; done < 2; done += n)
                RXT_MPI(MPI_Waitsome(2, r, &n, ind, &st[done]));
        }
        if (!PEER_MULTI_WRITES || form == 2)
            check_marks(st, 2, names[form]);
    }
    mark(st, 1);
    RXT_MPI(MPI_Sendrecv(&out, 1, MPI_INT, right, 20, &in, 1, MPI_INT, left, 20, MPI_COMM_WORLD,
                         st));
    check_marks(st, 1, "MPI_Sendrecv");
    mark(st, 1);
    RXT_MPI(MPI_Recv(&in, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, st));
    check_marks(st, 1, "MPI_Recv from MPI_PROC_NULL");
    RXT_MPI(MPI_Waitall(nsends, sends, MPI_STATUSES_IGNORE));
    nsends = 0;
}

/* Waitall with one truncated receive: MPI_ERR_IN_STATUS, and every field set. */
static __attribute__((unused)) void test_in_status(int right, int left)
{
    int out[2] = {rxt_rank, rxt_rank}, in[2], small = -1;
    MPI_Request r[2];
    MPI_Status st[2];
    RXT_MPI(MPI_Irecv(&small, 1, MPI_INT, left, 30, MPI_COMM_WORLD, &r[0]));
    RXT_MPI(MPI_Irecv(in, 2, MPI_INT, left, 31, MPI_COMM_WORLD, &r[1]));
    post(out, 2, right, 30);
    post(out, 2, right, 31);
    mark(st, 2);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Waitall(2, r, st), cls = -1, c0 = -1;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Error_class(rc, &cls);
    RXT_CHECK(cls == MPI_ERR_IN_STATUS, "Waitall with a truncated receive: class %d", cls);
    MPI_Error_class(st[0].MPI_ERROR, &c0);
    RXT_CHECK(c0 == MPI_ERR_TRUNCATE, "truncated receive's status: class %d", c0);
    /* complete, so MPI_SUCCESS; MPICH 4.0.2 says MPI_ERR_PENDING */
    RXT_CHECK(st[1].MPI_ERROR == MPI_SUCCESS ||
                  (PEER_PROBE_WRITES && st[1].MPI_ERROR == MPI_ERR_PENDING),
              "good receive's status: %d", st[1].MPI_ERROR);
    RXT_MPI(MPI_Waitall(nsends, sends, MPI_STATUSES_IGNORE));
    nsends = 0;
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "status_error_field");
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    test_single(right, left);
#ifndef OPEN_MPI
    test_in_status(right, left);
#endif
    return rxt_finish();
}
