/* SPDX-License-Identifier: MIT
 * Persistent requests: Send_init / Ssend_init / Rsend_init / Bsend_init /
 * Recv_init started many times around a ring (Start and Startall), the buffer
 * contents changing between starts; eager and rendezvous sizes; a derived
 * datatype freed right after Recv_init; MPI_PROC_NULL peers; Wait on an
 * inactive request returning at once with an empty status; Test; errors for
 * starting an active request. The large-count forms (Send_init_c ...
 * Recv_init_c) run the same rounds at eager and rendezvous sizes, and give
 * the int forms' error classes. */
#include "rxtest.h"

static int left, right;

/* wide: the requests made by the _c forms */
static void ring_rounds(int n, int mode, int wide)
{
    int *s = malloc(sizeof(int) * (size_t)n), *r = malloc(sizeof(int) * (size_t)n);
    MPI_Request q[2];
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Count nc = n;
    if (wide)
        RXT_MPI(MPI_Recv_init_c(r, nc, MPI_INT, left, 3, w, &q[0]));
    else
        RXT_MPI(MPI_Recv_init(r, n, MPI_INT, left, 3, w, &q[0]));
    switch (mode * 2 + wide) {
    case 0: RXT_MPI(MPI_Send_init(s, n, MPI_INT, right, 3, w, &q[1])); break;
    case 1: RXT_MPI(MPI_Send_init_c(s, nc, MPI_INT, right, 3, w, &q[1])); break;
    case 2: RXT_MPI(MPI_Ssend_init(s, n, MPI_INT, right, 3, w, &q[1])); break;
    case 3: RXT_MPI(MPI_Ssend_init_c(s, nc, MPI_INT, right, 3, w, &q[1])); break;
    case 4: RXT_MPI(MPI_Rsend_init(s, n, MPI_INT, right, 3, w, &q[1])); break;
    case 5: RXT_MPI(MPI_Rsend_init_c(s, nc, MPI_INT, right, 3, w, &q[1])); break;
    case 6: RXT_MPI(MPI_Bsend_init(s, n, MPI_INT, right, 3, w, &q[1])); break;
    default: RXT_MPI(MPI_Bsend_init_c(s, nc, MPI_INT, right, 3, w, &q[1]));
    }
    for (int round = 0; round < 20; round++) {
        for (int i = 0; i < n; i++)
            s[i] = rxt_rank * 100000 + round * 1000 + i % 1000;
        if (mode == 2) { /* ready mode: the receive must be posted before the send starts */
            RXT_MPI(MPI_Start(&q[0]));
            RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
            RXT_MPI(MPI_Start(&q[1]));
        } else {
            RXT_MPI(MPI_Startall(2, q));
        }
        MPI_Status st[2];
        RXT_MPI(MPI_Waitall(2, q, st));
        RXT_CHECK(q[0] != MPI_REQUEST_NULL && q[1] != MPI_REQUEST_NULL,
                  "persistent requests stay allocated after completion");
        RXT_CHECK(st[0].MPI_SOURCE == left && st[0].MPI_TAG == 3, "status source %d tag %d",
                  st[0].MPI_SOURCE, st[0].MPI_TAG);
        for (int i = 0; i < n; i++)
            if (r[i] != left * 100000 + round * 1000 + i % 1000) {
                RXT_CHECK(0, "mode %d%s n %d round %d: int %d is %d", mode, wide ? " (_c)" : "",
                          n, round, i, r[i]);
                break;
            }
    }
    /* inactive: Wait returns at once with an empty status */
    MPI_Status st;
    st.MPI_SOURCE = 77;
    RXT_MPI(MPI_Wait(&q[0], &st));
    RXT_CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE, "inactive wait: source %d", st.MPI_SOURCE);
    RXT_MPI(MPI_Request_free(&q[0]));
    RXT_MPI(MPI_Request_free(&q[1]));
    RXT_CHECK(q[0] == MPI_REQUEST_NULL, "Request_free resets the handle");
    free(s);
    free(r);
}

static void derived_and_special(void)
{
    double s[30], r[30];
    MPI_Datatype v;
    RXT_MPI(MPI_Type_vector(10, 1, 3, MPI_DOUBLE, &v));
    RXT_MPI(MPI_Type_commit(&v));
    MPI_Request q[2];
    RXT_MPI(MPI_Recv_init(r, 1, v, left, 4, MPI_COMM_WORLD, &q[0]));
    RXT_MPI(MPI_Send_init(s, 1, v, right, 4, MPI_COMM_WORLD, &q[1]));
    RXT_MPI(MPI_Type_free(&v)); /* the requests keep what they need */
    for (int round = 0; round < 5; round++) {
        for (int i = 0; i < 30; i++) {
            s[i] = rxt_rank + round * 0.5 + i;
            r[i] = -1;
        }
        RXT_MPI(MPI_Startall(2, q));
        int flag = 0;
        while (!flag)
            RXT_MPI(MPI_Test(&q[0], &flag, MPI_STATUS_IGNORE));
        RXT_MPI(MPI_Wait(&q[1], MPI_STATUS_IGNORE));
        for (int i = 0; i < 30; i++) {
            double want = i % 3 ? -1 : left + round * 0.5 + i;
            if (r[i] != want) {
                RXT_CHECK(0, "vector round %d: index %d is %g, want %g", round, i, r[i], want);
                break;
            }
        }
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RXT_MPI(MPI_Start(&q[0]));
#ifndef OPEN_MPI /* Open MPI 4.1 starts an active request again without an error */
    RXT_EXPECT_CLASS(MPI_ERR_REQUEST, MPI_Start(&q[0]));
#endif
    /* the _c forms check their arguments as the int forms do */
    MPI_Request bad = MPI_REQUEST_NULL;
    RXT_EXPECT_CLASS(MPI_ERR_COUNT, MPI_Send_init(s, -1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD,
                                                  &bad));
    RXT_EXPECT_CLASS(MPI_ERR_COUNT, MPI_Send_init_c(s, -1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD,
                                                    &bad));
    RXT_EXPECT_CLASS(MPI_ERR_TAG, MPI_Ssend_init_c(s, 1, MPI_DOUBLE, right, -5, MPI_COMM_WORLD,
                                                   &bad));
    RXT_EXPECT_CLASS(MPI_ERR_RANK, MPI_Rsend_init_c(s, 1, MPI_DOUBLE, rxt_size, 0,
                                                    MPI_COMM_WORLD, &bad));
    RXT_EXPECT_CLASS(MPI_ERR_TYPE, MPI_Bsend_init_c(s, 1, MPI_DATATYPE_NULL, right, 0,
                                                    MPI_COMM_WORLD, &bad));
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Recv_init_c(r, 1, MPI_DOUBLE, left, 0, MPI_COMM_NULL,
                                                   &bad));
    RXT_CHECK(bad == MPI_REQUEST_NULL, "a failed init made a request");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    RXT_MPI(MPI_Start(&q[1]));
    RXT_MPI(MPI_Waitall(2, q, MPI_STATUSES_IGNORE));
    MPI_Request_free(&q[0]);
    MPI_Request_free(&q[1]);
    /* MPI_PROC_NULL: completes at once */
    MPI_Request p;
    MPI_Status st;
    RXT_MPI(MPI_Recv_init(r, 5, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &p));
    RXT_MPI(MPI_Start(&p));
    RXT_MPI(MPI_Wait(&p, &st));
#ifndef MPICH_VERSION /* MPICH 4.0 reports MPI_ANY_SOURCE */
    RXT_CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "PROC_NULL source %d", st.MPI_SOURCE);
#endif
    MPI_Request_free(&p);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "persist_basic");
    left = (rxt_rank + rxt_size - 1) % rxt_size;
    right = (rxt_rank + 1) % rxt_size;
    int bsize = 4 * (100000 * 4 + MPI_BSEND_OVERHEAD);
    void *bbuf = malloc((size_t)bsize);
    MPI_Buffer_attach(bbuf, bsize);
    int sizes[3] = {1, 1000, 100000};
    for (int m = 0; m < 4; m++) {
#ifdef OPEN_MPI /* Open MPI 4.1's persistent Bsend sends the data of its first Start again */
        if (m == 3)
            continue;
#endif
        for (int k = 0; k < 3; k++)
            ring_rounds(sizes[k], m, 0);
        ring_rounds(sizes[1], m, 1); /* eager */
        ring_rounds(sizes[2], m, 1); /* rendezvous */
    }
    derived_and_special();
    MPI_Buffer_detach(&bbuf, &bsize);
    free(bbuf);
    return rxt_finish();
}
