/* SPDX-License-Identifier: MIT
 * Matched probes: MPI_Mprobe / MPI_Improbe with MPI_Mrecv / MPI_Imrecv
 *   - sizes 0 B to 4 MiB (eager and rendezvous), named and wildcard source and tag,
 *     contents checked, the status count from the probe used to size the buffer;
 *   - a matched message is out of the queue: a later receive or probe with the same
 *     source and tag gets the next message, the matched one only comes by Mrecv;
 *   - a derived datatype received through Mrecv (eager and rendezvous);
 *   - MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC, received as an empty message;
 *   - truncation and a null message are errors (MPI_ERRORS_RETURN). */
#include "rxtest.h"

static const size_t sizes[] = {0, 1, 100, 4096, 65536, 1 << 20, 4 << 20};
#define NSIZES (int)(sizeof sizes / sizeof sizes[0])

static void test_sizes(int wildcard, int nonblocking)
{
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    for (int i = 0; i < NSIZES; i++) {
        size_t n = sizes[i];
        char *out = malloc(n + 1), *in = NULL;
        rxt_fill(out, n, (uint64_t)(rxt_rank * 100 + i));
        MPI_Request sr, rr;
        RXT_MPI(MPI_Isend(out, (int)n, MPI_BYTE, right, i, MPI_COMM_WORLD, &sr));
        MPI_Message msg = MPI_MESSAGE_NULL;
        MPI_Status st;
        int src = wildcard ? MPI_ANY_SOURCE : left, tag = wildcard ? MPI_ANY_TAG : i;
        if (nonblocking) {
            int flag = 0;
            while (!flag)
                RXT_MPI(MPI_Improbe(src, tag, MPI_COMM_WORLD, &flag, &msg, &st));
        } else {
            RXT_MPI(MPI_Mprobe(src, tag, MPI_COMM_WORLD, &msg, &st));
        }
        int count = -1;
        RXT_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
        RXT_CHECK(st.MPI_SOURCE == left && st.MPI_TAG == i && count == (int)n,
                  "probe of %zu bytes: source %d tag %d count %d", n, st.MPI_SOURCE, st.MPI_TAG,
                  count);
        in = malloc((size_t)(count > 0 ? count : 1));
        if (nonblocking) {
            RXT_MPI(MPI_Imrecv(in, count, MPI_BYTE, &msg, &rr));
            RXT_MPI(MPI_Wait(&rr, &st));
        } else {
            RXT_MPI(MPI_Mrecv(in, count, MPI_BYTE, &msg, &st));
        }
        RXT_CHECK(msg == MPI_MESSAGE_NULL, "message handle not MPI_MESSAGE_NULL after receive");
        RXT_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
        long bad = rxt_verify(in, n, (uint64_t)(left * 100 + i));
        RXT_CHECK(count == (int)n && st.MPI_SOURCE == left && bad < 0,
                  "%s%s of %zu bytes: count %d source %d first bad byte %ld",
                  nonblocking ? "Imrecv" : "Mrecv", wildcard ? " (wildcards)" : "", n, count,
                  st.MPI_SOURCE, bad);
        RXT_MPI(MPI_Wait(&sr, MPI_STATUS_IGNORE));
        free(out);
        free(in);
    }
}

/* Message A is matched, then B (same source and tag) overtakes it through
 * MPI_Recv; A still arrives intact through MPI_Mrecv. */
static void test_dequeued(size_t n)
{
    if (rxt_size < 2)
        return;
    int go = 0;
    char *a = malloc(n), *b = malloc(n);
    if (rxt_rank == 0) {
        rxt_fill(a, n, 11);
        rxt_fill(b, n, 22);
        MPI_Request r[2];
        RXT_MPI(MPI_Isend(a, (int)n, MPI_BYTE, 1, 9, MPI_COMM_WORLD, &r[0]));
        RXT_MPI(MPI_Recv(&go, 1, MPI_INT, 1, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        RXT_MPI(MPI_Isend(b, (int)n, MPI_BYTE, 1, 9, MPI_COMM_WORLD, &r[1]));
        RXT_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    } else if (rxt_rank == 1) {
        MPI_Message msg;
        MPI_Status st;
        RXT_MPI(MPI_Mprobe(0, 9, MPI_COMM_WORLD, &msg, &st));
        int flag = 1;
        RXT_MPI(MPI_Iprobe(0, 9, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        RXT_CHECK(!flag, "a matched message of %zu bytes is still seen by MPI_Iprobe", n);
        RXT_MPI(MPI_Send(&go, 1, MPI_INT, 0, 10, MPI_COMM_WORLD));
        RXT_MPI(MPI_Recv(b, (int)n, MPI_BYTE, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        RXT_CHECK(rxt_verify(b, n, 22) < 0, "MPI_Recv after a matched probe got the wrong message");
        RXT_MPI(MPI_Mrecv(a, (int)n, MPI_BYTE, &msg, MPI_STATUS_IGNORE));
        RXT_CHECK(rxt_verify(a, n, 11) < 0, "MPI_Mrecv got the wrong data (%zu bytes)", n);
    }
    free(a);
    free(b);
}

/* Every other int of 2 * count: a vector type on both sides. */
static void test_typed(int count)
{
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    MPI_Datatype vec;
    RXT_MPI(MPI_Type_vector(count, 1, 2, MPI_INT, &vec));
    RXT_MPI(MPI_Type_commit(&vec));
    int *out = malloc(sizeof(int) * 2 * (size_t)count), *in = malloc(sizeof(int) * 2 * (size_t)count);
    for (int i = 0; i < 2 * count; i++) {
        out[i] = rxt_rank * 1000000 + i;
        in[i] = -1;
    }
    MPI_Request sr;
    RXT_MPI(MPI_Isend(out, 1, vec, right, 3, MPI_COMM_WORLD, &sr));
    MPI_Message msg;
    MPI_Status st;
    RXT_MPI(MPI_Mprobe(left, 3, MPI_COMM_WORLD, &msg, &st));
    int n = -1;
    RXT_MPI(MPI_Get_count(&st, vec, &n));
    RXT_CHECK(n == 1, "probe count in vector elements: %d", n);
    RXT_MPI(MPI_Mrecv(in, 1, vec, &msg, &st));
    RXT_MPI(MPI_Wait(&sr, MPI_STATUS_IGNORE));
    int bad = 0;
    for (int i = 0; i < 2 * count; i++)
        bad += in[i] != (i % 2 ? -1 : left * 1000000 + i);
    RXT_CHECK(bad == 0, "vector of %d ints through Mrecv: %d wrong", count, bad);
    RXT_MPI(MPI_Type_free(&vec));
    free(out);
    free(in);
}

static void test_special(void)
{
    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Status st;
    int flag = 0, count = -1, x = 5;
    RXT_MPI(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &st));
    RXT_CHECK(msg == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL,
              "Mprobe of MPI_PROC_NULL: source %d", st.MPI_SOURCE);
    RXT_MPI(MPI_Mrecv(&x, 1, MPI_INT, &msg, &st));
    RXT_MPI(MPI_Get_count(&st, MPI_INT, &count));
    RXT_CHECK(msg == MPI_MESSAGE_NULL && st.MPI_SOURCE == MPI_PROC_NULL && count == 0 && x == 5,
              "Mrecv of MPI_MESSAGE_NO_PROC: source %d count %d", st.MPI_SOURCE, count);
    RXT_MPI(MPI_Improbe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st));
    RXT_CHECK(flag && msg == MPI_MESSAGE_NO_PROC, "Improbe of MPI_PROC_NULL: flag %d", flag);
    MPI_Request r;
    RXT_MPI(MPI_Imrecv(&x, 1, MPI_INT, &msg, &r));
    RXT_MPI(MPI_Wait(&r, &st));
    RXT_CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "Imrecv of MPI_MESSAGE_NO_PROC: source %d",
              st.MPI_SOURCE);
    RXT_MPI(MPI_Improbe(rxt_rank, 12345, MPI_COMM_WORLD, &flag, &msg, &st));
    RXT_CHECK(!flag, "Improbe without a message: flag %d", flag);

    /* truncation: 8 ints into room for 4 */
    int big[8] = {1, 2, 3, 4, 5, 6, 7, 8}, small[4];
    MPI_Request sr;
    RXT_MPI(MPI_Isend(big, 8, MPI_INT, rxt_rank, 4, MPI_COMM_WORLD, &sr));
    RXT_MPI(MPI_Mprobe(rxt_rank, 4, MPI_COMM_WORLD, &msg, &st));
    RXT_EXPECT_CLASS(MPI_ERR_TRUNCATE, MPI_Mrecv(small, 4, MPI_INT, &msg, &st));
    RXT_MPI(MPI_Wait(&sr, MPI_STATUS_IGNORE));
#ifndef OPEN_MPI /* Open MPI 4.1 reports this on MPI_COMM_NULL, whose handler is fatal */
    msg = MPI_MESSAGE_NULL;
    RXT_EXPECT_EITHER(MPI_ERR_REQUEST, MPI_ERR_ARG, MPI_Mrecv(small, 4, MPI_INT, &msg, &st));
#endif
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "p2p_mprobe");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int wild = 0; wild < 2; wild++)
        for (int nb = 0; nb < 2; nb++) {
            test_sizes(wild, nb);
            RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
        }
    test_dequeued(64);
    test_dequeued(2 << 20);
    test_typed(10);
    test_typed(300000);
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    test_special();
    return rxt_finish();
}
