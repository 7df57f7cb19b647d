/* SPDX-License-Identifier: MIT
 * MPI-4 large counts in point-to-point (the _c forms):
 *   - MPI_Send_c / MPI_Recv_c of 2^31 + 8 bytes (a count no int holds) between ranks 0
 *     and 1, every byte checked; MPI_Get_count_c and MPI_Get_elements_c give the count,
 *     MPI_Get_count gives MPI_UNDEFINED;
 *   - the reply by MPI_Isend_c / MPI_Irecv_c (at 1 rank: MPI_Sendrecv_c to itself);
 *   - every other _c form with small counts: Ssend, Rsend, Bsend, Issend, Irsend, Ibsend,
 *     Sendrecv, Sendrecv_replace, Isendrecv, Isendrecv_replace, Mrecv, Imrecv; contents
 *     and statuses checked;
 *   - argument errors are those of the int forms (negative count, bad type, rank, tag).
 * Memory: two buffers of 2 GiB + 8 B in the job. */
#include "rxtest.h"

#define BIG (((MPI_Count)1 << 31) + 8)

static void check_status(const MPI_Status *st, MPI_Count want, int src, int tag)
{
    MPI_Count n = -1, e = -1;
    int ni = 0;
    RXT_MPI(MPI_Get_count_c(st, MPI_BYTE, &n));
    RXT_MPI(MPI_Get_elements_c(st, MPI_BYTE, &e));
    RXT_MPI(MPI_Get_count(st, MPI_BYTE, &ni));
    RXT_CHECK(n == want, "MPI_Get_count_c %lld, want %lld", (long long)n, (long long)want);
    RXT_CHECK(e == want, "MPI_Get_elements_c %lld, want %lld", (long long)e, (long long)want);
    RXT_CHECK(want <= INT32_MAX ? ni == (int)want : ni == MPI_UNDEFINED,
              "MPI_Get_count %d for %lld bytes", ni, (long long)want);
    RXT_CHECK(st->MPI_SOURCE == src && st->MPI_TAG == tag, "source %d tag %d, want %d %d",
              st->MPI_SOURCE, st->MPI_TAG, src, tag);
}

/* 2^31 + 8 bytes there and back (rank 0 <-> 1), or to itself at 1 rank. */
static void test_big(void)
{
    if (rxt_rank > 1)
        return;
    unsigned char *buf = rxt_big_alloc((size_t)BIG);
    if (!buf)
        RXT_FATAL("no memory for %lld bytes", (long long)BIG);
    MPI_Status st;
    if (rxt_size == 1) {
        unsigned char *in = rxt_big_alloc((size_t)BIG);
        if (!in)
            RXT_FATAL("no memory for %lld bytes", (long long)BIG);
        rxt_fill(buf, (size_t)BIG, 1);
        memset(in, 0, (size_t)BIG);
        RXT_MPI(MPI_Sendrecv_c(buf, BIG, MPI_BYTE, 0, 7, in, BIG, MPI_BYTE, 0, 7, MPI_COMM_WORLD,
                               &st));
        check_status(&st, BIG, 0, 7);
        long bad = rxt_verify(in, (size_t)BIG, 1);
        RXT_CHECK(bad < 0, "self Sendrecv_c: byte %ld differs", bad);
        free(in);
        free(buf);
        return;
    }
    int peer = 1 - rxt_rank;
    if (rxt_rank == 0) {
        rxt_fill(buf, (size_t)BIG, 1);
        RXT_MPI(MPI_Send_c(buf, BIG, MPI_BYTE, peer, 1, MPI_COMM_WORLD));
        memset(buf, 0, (size_t)BIG);
        MPI_Request r;
        RXT_MPI(MPI_Irecv_c(buf, BIG, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &r));
        RXT_MPI(MPI_Wait(&r, &st));
        check_status(&st, BIG, peer, 2);
        long bad = rxt_verify(buf, (size_t)BIG, 2);
        RXT_CHECK(bad < 0, "Isend_c/Irecv_c: byte %ld differs", bad);
    } else {
        memset(buf, 0, (size_t)BIG);
        RXT_MPI(MPI_Recv_c(buf, BIG, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &st));
        check_status(&st, BIG, peer, 1);
        long bad = rxt_verify(buf, (size_t)BIG, 1);
        RXT_CHECK(bad < 0, "Send_c/Recv_c: byte %ld differs", bad);
        rxt_fill(buf, (size_t)BIG, 2);
        MPI_Request r;
        RXT_MPI(MPI_Isend_c(buf, BIG, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &r));
        RXT_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
    free(buf);
}

/* Every other _c form around a ring, with small counts. */
static void test_forms(void)
{
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    enum { N = 1000 };
    int out[N], in[N];
    MPI_Status st;
    MPI_Request r[2];
    for (int mode = 0; mode < 7; mode++) {
        for (int i = 0; i < N; i++) {
            out[i] = rxt_rank * 100000 + mode * 1000 + i;
            in[i] = -1;
        }
        int tag = 10 + mode;
        RXT_MPI(MPI_Irecv_c(in, N, MPI_INT, left, tag, MPI_COMM_WORLD, &r[0]));
        RXT_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* every receive is posted: Rsend is legal */
        switch (mode) {
        case 0: RXT_MPI(MPI_Ssend_c(out, N, MPI_INT, right, tag, MPI_COMM_WORLD)); break;
        case 1: RXT_MPI(MPI_Rsend_c(out, N, MPI_INT, right, tag, MPI_COMM_WORLD)); break;
        case 2: {
            MPI_Count need = 0;
            RXT_MPI(MPI_Pack_size_c(N, MPI_INT, MPI_COMM_WORLD, &need));
            MPI_Count size = need + MPI_BSEND_OVERHEAD;
            void *b = malloc((size_t)size), *back;
            RXT_MPI(MPI_Buffer_attach_c(b, size));
            RXT_MPI(MPI_Bsend_c(out, N, MPI_INT, right, tag, MPI_COMM_WORLD));
            RXT_MPI(MPI_Wait(&r[0], &st));
            RXT_MPI(MPI_Buffer_detach_c(&back, &size));
            RXT_CHECK(back == b && size == need + MPI_BSEND_OVERHEAD,
                      "Buffer_detach_c gave %p %lld", back, (long long)size);
            free(b);
            r[0] = MPI_REQUEST_NULL;
            break;
        }
        case 3: RXT_MPI(MPI_Issend_c(out, N, MPI_INT, right, tag, MPI_COMM_WORLD, &r[1]));
                RXT_MPI(MPI_Wait(&r[1], MPI_STATUS_IGNORE)); break;
        case 4: RXT_MPI(MPI_Irsend_c(out, N, MPI_INT, right, tag, MPI_COMM_WORLD, &r[1]));
                RXT_MPI(MPI_Wait(&r[1], MPI_STATUS_IGNORE)); break;
        case 5: {
            MPI_Count need = 0;
            RXT_MPI(MPI_Pack_size_c(N, MPI_INT, MPI_COMM_WORLD, &need));
            int size = (int)need + MPI_BSEND_OVERHEAD;
            void *b = malloc((size_t)size), *back;
            RXT_MPI(MPI_Buffer_attach(b, size));
            RXT_MPI(MPI_Ibsend_c(out, N, MPI_INT, right, tag, MPI_COMM_WORLD, &r[1]));
            RXT_MPI(MPI_Wait(&r[1], MPI_STATUS_IGNORE));
            RXT_MPI(MPI_Wait(&r[0], &st));
            RXT_MPI(MPI_Buffer_detach(&back, &size));
            free(b);
            r[0] = MPI_REQUEST_NULL;
            break;
        }
        case 6: RXT_MPI(MPI_Send_c(out, N, MPI_INT, right, tag, MPI_COMM_WORLD)); break;
        }
        if (r[0] != MPI_REQUEST_NULL)
            RXT_MPI(MPI_Wait(&r[0], &st));
        MPI_Count n = 0;
        RXT_MPI(MPI_Get_count_c(&st, MPI_INT, &n));
        RXT_CHECK(n == N && st.MPI_SOURCE == left && st.MPI_TAG == tag,
                  "mode %d: count %lld source %d tag %d", mode, (long long)n, st.MPI_SOURCE,
                  st.MPI_TAG);
        for (int i = 0; i < N; i++)
            if (in[i] != left * 100000 + mode * 1000 + i) {
                RXT_CHECK(0, "mode %d: element %d is %d", mode, i, in[i]);
                break;
            }
    }

    /* Sendrecv_c, Sendrecv_replace_c, Isendrecv_c, Isendrecv_replace_c */
    for (int form = 0; form < 4; form++) {
        for (int i = 0; i < N; i++) {
            out[i] = rxt_rank * 7 + form + i;
            in[i] = -1;
        }
        int *dst = form % 2 ? out : in;
        switch (form) {
        case 0: RXT_MPI(MPI_Sendrecv_c(out, N, MPI_INT, right, 30, in, N, MPI_INT, left, 30,
                                       MPI_COMM_WORLD, &st)); break;
        case 1: RXT_MPI(MPI_Sendrecv_replace_c(out, N, MPI_INT, right, 31, left, 31,
                                               MPI_COMM_WORLD, &st)); break;
        case 2: RXT_MPI(MPI_Isendrecv_c(out, N, MPI_INT, right, 32, in, N, MPI_INT, left, 32,
                                        MPI_COMM_WORLD, &r[0]));
                RXT_MPI(MPI_Wait(&r[0], &st)); break;
        case 3: RXT_MPI(MPI_Isendrecv_replace_c(out, N, MPI_INT, right, 33, left, 33,
                                                MPI_COMM_WORLD, &r[0]));
                RXT_MPI(MPI_Wait(&r[0], &st)); break;
        }
        MPI_Count n = 0;
        RXT_MPI(MPI_Get_count_c(&st, MPI_INT, &n));
        RXT_CHECK(n == N, "sendrecv form %d: count %lld", form, (long long)n);
        for (int i = 0; i < N; i++)
            if (dst[i] != left * 7 + form + i) {
                RXT_CHECK(0, "sendrecv form %d: element %d is %d", form, i, dst[i]);
                break;
            }
    }

    /* matched probe, then MPI_Mrecv_c / MPI_Imrecv_c */
    for (int form = 0; form < 2; form++) {
        for (int i = 0; i < N; i++) {
            out[i] = rxt_rank + form * 3 + i;
            in[i] = -1;
        }
        RXT_MPI(MPI_Isend_c(out, N, MPI_INT, right, 40 + form, MPI_COMM_WORLD, &r[1]));
        MPI_Message m;
        RXT_MPI(MPI_Mprobe(left, 40 + form, MPI_COMM_WORLD, &m, &st));
        if (form == 0) {
            RXT_MPI(MPI_Mrecv_c(in, N, MPI_INT, &m, &st));
        } else {
            RXT_MPI(MPI_Imrecv_c(in, N, MPI_INT, &m, &r[0]));
            RXT_MPI(MPI_Wait(&r[0], &st));
        }
        RXT_MPI(MPI_Wait(&r[1], MPI_STATUS_IGNORE));
        RXT_CHECK(m == MPI_MESSAGE_NULL, "message handle not reset");
        for (int i = 0; i < N; i++)
            if (in[i] != left + form * 3 + i) {
                RXT_CHECK(0, "mrecv form %d: element %d is %d", form, i, in[i]);
                break;
            }
    }
}

static void test_errors(void)
{
    int x = 0;
    MPI_Request r;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RXT_EXPECT_CLASS(MPI_ERR_COUNT, MPI_Send_c(&x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD));
    RXT_EXPECT_CLASS(MPI_ERR_COUNT, MPI_Isend_c(&x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r));
    RXT_EXPECT_CLASS(MPI_ERR_COUNT, MPI_Recv_c(&x, -((MPI_Count)1 << 40), MPI_INT, 0, 0,
                                               MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    RXT_EXPECT_CLASS(MPI_ERR_TYPE, MPI_Send_c(&x, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD));
    RXT_EXPECT_CLASS(MPI_ERR_RANK, MPI_Send_c(&x, 1, MPI_INT, rxt_size, 0, MPI_COMM_WORLD));
    RXT_EXPECT_CLASS(MPI_ERR_TAG, MPI_Irecv_c(&x, 1, MPI_INT, 0, -5, MPI_COMM_WORLD, &r));
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Send_c(&x, 1, MPI_INT, 0, 0, MPI_COMM_NULL));
    MPI_Status st;
    memset(&st, 0, sizeof st);
    MPI_Count n;
    RXT_EXPECT_CLASS(MPI_ERR_TYPE, MPI_Get_count_c(&st, MPI_DATATYPE_NULL, &n));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "bigcount_p2p");
    test_big();
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    test_forms();
    test_errors();
    return rxt_finish();
}
