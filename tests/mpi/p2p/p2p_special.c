/* SPDX-License-Identifier: MIT
 * Special peers and sizes: zero-byte messages (NULL buffer, wildcards, status count
 * 0, interleaved with data messages), messages to oneself (Isend+Irecv in both
 * orders, blocking Send to a pre-posted self receive, up to 8 MiB, wildcards), and
 * MPI_PROC_NULL (every send and receive call completes at once; a receive leaves the
 * buffer alone and reports source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0). */
#include "rxtest.h"

static void check_zero_byte(void)
{
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    MPI_Status st;
    int cnt = -1, x = 0xdead, data = 0;
    MPI_Request r[3];
    /* zero-byte, data, zero-byte: order and counts must survive the mix */
    RXT_MPI(MPI_Isend(NULL, 0, MPI_BYTE, right, 1, MPI_COMM_WORLD, &r[0]));
    int v = rxt_rank + 10;
    RXT_MPI(MPI_Isend(&v, 1, MPI_INT, right, 1, MPI_COMM_WORLD, &r[1]));
    RXT_MPI(MPI_Isend(&x, 0, MPI_INT, right, 2, MPI_COMM_WORLD, &r[2]));
    RXT_MPI(MPI_Recv(&data, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    RXT_CHECK(cnt == 0 && data == 0, "first zero-byte message: count %d, buffer %d", cnt, data);
    RXT_MPI(MPI_Recv(&data, 1, MPI_INT, left, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    RXT_CHECK(data == left + 10 && st.MPI_TAG == 1, "data after zero-byte: %d tag %d", data,
              st.MPI_TAG);
    data = 55;
    RXT_MPI(MPI_Recv(&data, 1, MPI_INT, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    RXT_CHECK(cnt == 0 && data == 55 && st.MPI_SOURCE == left,
              "second zero-byte message: count %d, buffer %d, source %d", cnt, data,
              st.MPI_SOURCE);
    RXT_MPI(MPI_Waitall(3, r, MPI_STATUSES_IGNORE));
    /* many zero-byte messages in a row (a transport must not merge or drop them) */
    enum { Z = 500 };
    MPI_Request zs[Z];
    for (int i = 0; i < Z; i++)
        RXT_MPI(MPI_Isend(NULL, 0, MPI_BYTE, right, 100 + i % 3, MPI_COMM_WORLD, &zs[i]));
    for (int i = 0; i < Z; i++) {
        RXT_MPI(MPI_Recv(NULL, 0, MPI_BYTE, left, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
        RXT_CHECK(st.MPI_TAG == 100 + i % 3, "zero-byte message %d has tag %d", i, st.MPI_TAG);
    }
    RXT_MPI(MPI_Waitall(Z, zs, MPI_STATUSES_IGNORE));
}

static void check_self(void)
{
    static const int sizes[] = { 0, 1, 100, 20000, 1 << 20, 8 << 20 };
    unsigned char *a = malloc(8 << 20), *b = malloc((8 << 20) + 4);
    for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t n = (size_t)sizes[i];
        for (int order = 0; order < 3; order++) {
            uint64_t seed = n * 3 + (uint64_t)order + 1000 * (uint64_t)rxt_rank;
            rxt_fill(a, n, seed);
            memset(b, 0x11, n + 4);
            MPI_Request rs, rr;
            MPI_Status st;
            if (order == 0) { /* send first: the receive finds it unexpected */
                RXT_MPI(MPI_Isend(a, (int)n, MPI_BYTE, rxt_rank, 5, MPI_COMM_WORLD, &rs));
                RXT_MPI(MPI_Irecv(b, (int)n, MPI_BYTE, rxt_rank, 5, MPI_COMM_WORLD, &rr));
            } else if (order == 1) { /* receive first, wildcards */
                RXT_MPI(MPI_Irecv(b, (int)n, MPI_BYTE, rxt_rank, MPI_ANY_TAG, MPI_COMM_WORLD,
                                  &rr));
                RXT_MPI(MPI_Isend(a, (int)n, MPI_BYTE, rxt_rank, 5, MPI_COMM_WORLD, &rs));
            } else { /* blocking send to an already posted receive is safe */
                RXT_MPI(MPI_Irecv(b, (int)n, MPI_BYTE, rxt_rank, 5, MPI_COMM_WORLD, &rr));
                RXT_MPI(MPI_Send(a, (int)n, MPI_BYTE, rxt_rank, 5, MPI_COMM_WORLD));
                rs = MPI_REQUEST_NULL;
            }
            RXT_MPI(MPI_Wait(&rr, &st));
            RXT_MPI(MPI_Wait(&rs, MPI_STATUS_IGNORE));
            int cnt = -1;
            MPI_Get_count(&st, MPI_BYTE, &cnt);
            RXT_CHECK(st.MPI_SOURCE == rxt_rank && st.MPI_TAG == 5 && cnt == (int)n,
                      "self %zu B order %d: source %d tag %d count %d", n, order, st.MPI_SOURCE,
                      st.MPI_TAG, cnt);
            long bad = rxt_verify(b, n, seed);
            RXT_CHECK(bad < 0, "self %zu B order %d: byte %ld differs", n, order, bad);
            RXT_CHECK(b[n] == 0x11, "self %zu B wrote past the message", n);
        }
    }
    /* Several self messages in flight at once keep their order. */
    MPI_Request rq[8];
    int v[8], w[8];
    for (int i = 0; i < 8; i++) {
        v[i] = i * i;
        RXT_MPI(MPI_Isend(&v[i], 1, MPI_INT, rxt_rank, 6, MPI_COMM_WORLD, &rq[i]));
    }
    for (int i = 0; i < 8; i++)
        RXT_MPI(MPI_Recv(&w[i], 1, MPI_INT, MPI_ANY_SOURCE, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    RXT_MPI(MPI_Waitall(8, rq, MPI_STATUSES_IGNORE));
    for (int i = 0; i < 8; i++)
        RXT_CHECK(w[i] == i * i, "self message %d out of order: %d", i, w[i]);
    free(a);
    free(b);
}

static void check_proc_null(void)
{
    int buf[4] = { 1, 2, 3, 4 }, cnt = -1, flag = 0;
    MPI_Status st;
    MPI_Request r;
    RXT_MPI(MPI_Send(buf, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
    RXT_MPI(MPI_Ssend(buf, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
    RXT_MPI(MPI_Rsend(buf, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
    RXT_MPI(MPI_Issend(buf, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r));
    RXT_MPI(MPI_Test(&r, &flag, &st));
    RXT_CHECK(flag != 0, "Issend to MPI_PROC_NULL not complete at once");
    st.MPI_TAG = 5;
    RXT_MPI(MPI_Recv(buf, 4, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    RXT_CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && cnt == 0,
              "Recv(MPI_PROC_NULL): source %d tag %d count %d", st.MPI_SOURCE, st.MPI_TAG, cnt);
    RXT_CHECK(buf[0] == 1 && buf[3] == 4, "Recv(MPI_PROC_NULL) changed the buffer");
    RXT_MPI(MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &r));
    flag = 0;
    RXT_MPI(MPI_Test(&r, &flag, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    RXT_CHECK(flag && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && cnt == 0,
              "Irecv(MPI_PROC_NULL): flag %d source %d tag %d count %d", flag, st.MPI_SOURCE,
              st.MPI_TAG, cnt);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "p2p_special");
    check_zero_byte();
    check_self();
    check_proc_null();
    return rxt_finish();
}
