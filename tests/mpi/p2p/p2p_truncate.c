/* SPDX-License-Identifier: MIT
 * A message longer than the receive buffer: under MPI_ERRORS_RETURN the receive
 * returns an error of class MPI_ERR_TRUNCATE (MPI_Recv, MPI_Wait; MPI_Waitall says
 * MPI_ERR_IN_STATUS with the class in that request's status), nothing is written
 * past the buffer (guard bytes), the sender completes normally, and the next message
 * is received intact. Eager and rendezvous sizes, receive posted before or after. */
#include "rxtest.h"

enum { GUARD = 4096 };
static const int msg_sizes[] = { 50, 100, 100000, 1 << 20 };
static int left, right;

static void check_guard(const unsigned char *b, int cap, const char *what, int n)
{
    for (int i = 0; i < GUARD; i++)
        if (b[cap + i] != 0xE7) {
            RXT_CHECK(0, "%s, %d B into %d: byte %d past the buffer overwritten", what, n, cap, i);
            return;
        }
}

static int class_of(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

static void one(MPI_Comm comm, int n, int cap, int how, unsigned char *s, unsigned char *r)
{
    static const char *hows[] = { "MPI_Recv posted late", "MPI_Irecv+MPI_Wait posted first",
                                  "MPI_Waitall posted first" };
    MPI_Request sr, rr[2];
    MPI_Status st[2];
    int ok = -1;
    rxt_fill(s, (size_t)n, (uint64_t)n + 17 * (uint64_t)how);
    memset(r, 0xE7, (size_t)cap + GUARD);
    if (how > 0) {
        RXT_MPI(MPI_Irecv(r, cap, MPI_BYTE, left, 1, comm, &rr[0]));
        RXT_MPI(MPI_Irecv(&ok, 1, MPI_INT, left, 2, comm, &rr[1]));
    }
    RXT_MPI(MPI_Barrier(comm));
    RXT_MPI(MPI_Isend(s, n, MPI_BYTE, right, 1, comm, &sr));
    int rc, cls;
    if (how > 0) {
        int one = 1;
        RXT_MPI(MPI_Send(&one, 1, MPI_INT, right, 2, comm));
    }
    if (how == 0) {
        rc = MPI_Recv(r, cap, MPI_BYTE, left, 1, comm, &st[0]);
        cls = class_of(rc);
    } else if (how == 1) {
        rc = MPI_Wait(&rr[0], &st[0]);
        cls = class_of(rc);
        RXT_MPI(MPI_Wait(&rr[1], &st[1]));
        RXT_CHECK(ok == 1, "%s: message after the truncated one holds %d", hows[how], ok);
    } else {
        st[0].MPI_ERROR = st[1].MPI_ERROR = -1;
        rc = MPI_Waitall(2, rr, st);
        RXT_CHECK(class_of(rc) == MPI_ERR_IN_STATUS, "%s %d B into %d: Waitall class %s, want "
                  "MPI_ERR_IN_STATUS", hows[how], n, cap, rxt_class_name(class_of(rc)));
        cls = class_of(st[0].MPI_ERROR);
        /* The other request either completed (MPI_SUCCESS) or is still pending
         * (MPI_ERR_PENDING: it stays active and is waited for again). */
        int c1 = class_of(st[1].MPI_ERROR);
        RXT_CHECK(c1 == MPI_SUCCESS || c1 == MPI_ERR_PENDING,
                  "%s: the good request's status error has class %s", hows[how],
                  rxt_class_name(c1));
        if (c1 == MPI_ERR_PENDING)
            RXT_MPI(MPI_Wait(&rr[1], MPI_STATUS_IGNORE));
        RXT_CHECK(ok == 1, "%s: message after the truncated one holds %d", hows[how], ok);
    }
    RXT_CHECK(cls == MPI_ERR_TRUNCATE, "%s %d B into %d: class %s (%d), want MPI_ERR_TRUNCATE",
              hows[how], n, cap, rxt_class_name(cls), cls);
    check_guard(r, cap, hows[how], n);
    RXT_MPI(MPI_Wait(&sr, MPI_STATUS_IGNORE)); /* the sender sees no error */
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "p2p_truncate");
    right = (rxt_rank + 1) % rxt_size;
    left = (rxt_rank + rxt_size - 1) % rxt_size;
    MPI_Comm comm;
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    RXT_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    /* World too: this test is about truncation; which handler a failing MPI_Wait
     * invokes (the request's communicator's, per the standard) is errhandler.c's
     * question, and MPICH 4.0 raises it on world. */
    RXT_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    unsigned char *s = malloc(1 << 20), *r = malloc((1 << 20) + GUARD);
    for (unsigned i = 0; i < sizeof msg_sizes / sizeof msg_sizes[0]; i++)
        for (int how = 0; how < 3; how++) {
            int n = msg_sizes[i];
            one(comm, n, n == 50 ? 0 : n / 2, how, s, r);
        }
    /* After all that, messages still arrive intact. */
    rxt_fill(s, 300000, 31337 + (uint64_t)rxt_rank);
    RXT_MPI(MPI_Sendrecv(s, 300000, MPI_BYTE, right, 3, r, 300000, MPI_BYTE, left, 3, comm,
                         MPI_STATUS_IGNORE));
    RXT_CHECK(rxt_verify(r, 300000, 31337 + (uint64_t)left) < 0,
              "message after the truncations differs");
    free(s);
    free(r);
    MPI_Comm_free(&comm);
    return rxt_finish();
}
