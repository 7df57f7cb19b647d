/* SPDX-License-Identifier: MIT
 * MPI-4 nonblocking send-receive and buffered-send flushes:
 *   - MPI_Isendrecv around a ring, 0 B to 2 MiB, contents and status checked, with
 *     other work (a barrier) between start and wait, and with MPI_PROC_NULL partners;
 *   - MPI_Isendrecv_replace with a contiguous and a strided datatype: buf is only
 *     overwritten with what the neighbour sent;
 *   - MPI_Buffer_flush / MPI_Buffer_iflush (MPI-4.1): after them the attached buffer
 *     holds no message (it can be detached at once and reused), and every message
 *     arrives;
 *   - MPI_Pcontrol accepts every level. */
#include "rxtest.h"

#if defined(RDMX) || MPI_VERSION >= 4
#define HAVE_ISENDRECV 1
#endif
#if defined(RDMX) || MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
#define HAVE_BUFFER_FLUSH 1
#endif
/* MPICH 4.0.2 leaves source and tag of an MPI_Isendrecv status unset, crashes on
 * MPI_PROC_NULL partners and in a rendezvous MPI_Isendrecv_replace: those checks
 * are for the others. */
#ifndef MPICH_VERSION
#define CHECK_ISENDRECV_STATUS 1
#endif

#ifdef HAVE_ISENDRECV
static void test_ring(void)
{
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    static const size_t sizes[] = {0, 8, 4096, 100000, 2 << 20};
    for (int i = 0; i < 5; i++) {
        size_t n = sizes[i];
        char *out = malloc(n + 1), *in = malloc(n + 1);
        rxt_fill(out, n, (uint64_t)(rxt_rank * 10 + i));
        MPI_Request r;
        MPI_Status st;
        RXT_MPI(MPI_Isendrecv(out, (int)n, MPI_BYTE, right, 40 + i, in, (int)n, MPI_BYTE,
                              MPI_ANY_SOURCE, 40 + i, MPI_COMM_WORLD, &r));
        RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
        RXT_MPI(MPI_Wait(&r, &st));
        int count = -1;
        RXT_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
        long bad = rxt_verify(in, n, (uint64_t)(left * 10 + i));
        RXT_CHECK(r == MPI_REQUEST_NULL && bad < 0, "Isendrecv %zu bytes: first bad byte %ld", n,
                  bad);
#ifdef CHECK_ISENDRECV_STATUS
        RXT_CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 40 + i && count == (int)n,
                  "Isendrecv %zu bytes: source %d tag %d count %d", n, st.MPI_SOURCE, st.MPI_TAG,
                  count);
#endif
        free(out);
        free(in);
    }
#ifdef CHECK_ISENDRECV_STATUS
    int x = 7, y = 9, flag = 0;
    MPI_Request r;
    MPI_Status st;
    RXT_MPI(MPI_Isendrecv(&x, 1, MPI_INT, MPI_PROC_NULL, 0, &y, 1, MPI_INT, MPI_PROC_NULL, 0,
                          MPI_COMM_WORLD, &r));
    while (!flag)
        RXT_MPI(MPI_Test(&r, &flag, &st));
    RXT_CHECK(st.MPI_SOURCE == MPI_PROC_NULL && y == 9, "Isendrecv with MPI_PROC_NULL: source %d",
              st.MPI_SOURCE);
#endif
}

#ifdef CHECK_ISENDRECV_STATUS
static void test_replace(void)
{
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    enum { N = 50000 };
    int *buf = malloc(sizeof(int) * 2 * N);
    for (int i = 0; i < 2 * N; i++)
        buf[i] = rxt_rank * 1000000 + i;
    MPI_Request r;
    MPI_Status st;
    RXT_MPI(MPI_Isendrecv_replace(buf, N, MPI_INT, right, 5, left, 5, MPI_COMM_WORLD, &r));
    RXT_MPI(MPI_Wait(&r, &st));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += buf[i] != left * 1000000 + i;
    RXT_CHECK(bad == 0, "Isendrecv_replace of %d ints: %d wrong", N, bad);

    MPI_Datatype vec;
    RXT_MPI(MPI_Type_vector(N, 1, 2, MPI_INT, &vec));
    RXT_MPI(MPI_Type_commit(&vec));
    for (int i = 0; i < 2 * N; i++)
        buf[i] = rxt_rank * 1000000 + i;
    RXT_MPI(MPI_Isendrecv_replace(buf, 1, vec, right, 6, MPI_ANY_SOURCE, MPI_ANY_TAG,
                                  MPI_COMM_WORLD, &r));
    RXT_MPI(MPI_Wait(&r, &st));
    bad = 0;
    for (int i = 0; i < 2 * N; i++)
        bad += buf[i] != (i % 2 ? rxt_rank : left) * 1000000 + i;
    RXT_CHECK(bad == 0, "Isendrecv_replace of a vector: %d wrong", bad);
#ifdef CHECK_ISENDRECV_STATUS
    RXT_CHECK(st.MPI_TAG == 6 && st.MPI_SOURCE == left, "Isendrecv_replace: tag %d source %d",
              st.MPI_TAG, st.MPI_SOURCE);
#endif
    RXT_MPI(MPI_Type_free(&vec));
    free(buf);
}
#endif
#endif

#ifdef HAVE_BUFFER_FLUSH
static void test_flush(int nonblocking)
{
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    enum { K = 8, LEN = 20000 };
    int size = K * (LEN * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    char *attach = malloc((size_t)size);
    int *msgs = malloc(sizeof(int) * K * LEN), *in = malloc(sizeof(int) * LEN);
    RXT_MPI(MPI_Buffer_attach(attach, size));
    for (int k = 0; k < K; k++) {
        for (int i = 0; i < LEN; i++)
            msgs[k * LEN + i] = rxt_rank * 100000 + k * LEN + i;
        RXT_MPI(MPI_Bsend(msgs + k * LEN, LEN, MPI_INT, right, 70 + k, MPI_COMM_WORLD));
    }
    /* the receiver takes them only after its own flush started */
    if (nonblocking) {
        MPI_Request r;
        RXT_MPI(MPI_Buffer_iflush(&r));
        for (int k = K - 1; k >= 0; k--) {
            RXT_MPI(MPI_Recv(in, LEN, MPI_INT, left, 70 + k, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            RXT_CHECK(in[0] == left * 100000 + k * LEN && in[LEN - 1] == left * 100000 + k * LEN + LEN - 1,
                      "buffered message %d: %d", k, in[0]);
        }
        RXT_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    } else {
        MPI_Request rr[K];
        int *all = malloc(sizeof(int) * K * LEN);
        for (int k = 0; k < K; k++)
            RXT_MPI(MPI_Irecv(all + k * LEN, LEN, MPI_INT, left, 70 + k, MPI_COMM_WORLD, &rr[k]));
        RXT_MPI(MPI_Buffer_flush());
        RXT_MPI(MPI_Waitall(K, rr, MPI_STATUSES_IGNORE));
        for (int k = 0; k < K; k++)
            RXT_CHECK(all[k * LEN + 5] == left * 100000 + k * LEN + 5, "buffered message %d", k);
        free(all);
    }
    /* the buffer is empty: the same space takes K messages again at once */
    for (int k = 0; k < K; k++)
        RXT_MPI(MPI_Bsend(msgs + k * LEN, LEN, MPI_INT, rxt_rank, 90, MPI_COMM_WORLD));
    for (int k = 0; k < K; k++)
        RXT_MPI(MPI_Recv(in, LEN, MPI_INT, rxt_rank, 90, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    void *det;
    int dsize;
    RXT_MPI(MPI_Buffer_detach(&det, &dsize));
    RXT_CHECK(det == attach && dsize == size, "detach gave %p / %d", det, dsize);
    free(attach);
    free(msgs);
    free(in);
}
#endif

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "p2p_isendrecv");
#ifdef HAVE_ISENDRECV
    test_ring();
#ifdef CHECK_ISENDRECV_STATUS
    test_replace();
#endif
#endif
#ifdef HAVE_BUFFER_FLUSH
    test_flush(0);
    test_flush(1);
#endif
    for (int level = 0; level <= 2; level++)
        RXT_MPI(MPI_Pcontrol(level));
    return rxt_finish();
}
