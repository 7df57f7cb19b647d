/* SPDX-License-Identifier: MIT
 * MPI_Sendrecv (ring, receive buffer larger than the message, MPI_PROC_NULL ends of
 * a chain, a rank with itself) and MPI_Sendrecv_replace (ring shifts from 0 B to
 * 1 MiB, every byte checked, also with MPI_ANY_SOURCE / MPI_ANY_TAG). */
#include "rxtest.h"

static int right, left;

static void check_ring(void)
{
    enum { N = 300 };
    int out[N], in[2 * N];
    for (int i = 0; i < N; i++)
        out[i] = rxt_rank * 100000 + i;
    for (int i = 0; i < 2 * N; i++)
        in[i] = -1;
    MPI_Status st;
    RXT_MPI(MPI_Sendrecv(out, N, MPI_INT, right, 3, in, 2 * N, MPI_INT, left, 3, MPI_COMM_WORLD,
                         &st));
    int cnt = -1;
    MPI_Get_count(&st, MPI_INT, &cnt);
    RXT_CHECK(cnt == N && st.MPI_SOURCE == left && st.MPI_TAG == 3,
              "ring status: count %d source %d tag %d", cnt, st.MPI_SOURCE, st.MPI_TAG);
    for (int i = 0; i < N; i++)
        RXT_CHECK(in[i] == left * 100000 + i, "ring int %d: %d", i, in[i]);
    RXT_CHECK(in[N] == -1, "ring sendrecv wrote past the message");

    /* The other way round, doubles, different send and receive tags. */
    double d[4] = { rxt_rank + 0.5, 1.25, -2.0, 1e300 }, dr[4] = { 0 };
    RXT_MPI(MPI_Sendrecv(d, 4, MPI_DOUBLE, left, 20 + rxt_rank, dr, 4, MPI_DOUBLE, right,
                         20 + right, MPI_COMM_WORLD, &st));
    RXT_CHECK(dr[0] == right + 0.5 && dr[1] == 1.25 && dr[2] == -2.0 && dr[3] == 1e300,
              "reverse ring doubles: %g %g %g %g", dr[0], dr[1], dr[2], dr[3]);
    RXT_CHECK(st.MPI_SOURCE == right && st.MPI_TAG == 20 + right, "reverse ring status %d %d",
              st.MPI_SOURCE, st.MPI_TAG);
}

static void check_chain(void)
{
    /* A chain 0 -> 1 -> ... -> n-1: the ends talk to MPI_PROC_NULL. */
    int dst = rxt_rank + 1 < rxt_size ? rxt_rank + 1 : MPI_PROC_NULL;
    int src = rxt_rank > 0 ? rxt_rank - 1 : MPI_PROC_NULL;
    int out = 500 + rxt_rank, in = -7;
    MPI_Status st;
    RXT_MPI(MPI_Sendrecv(&out, 1, MPI_INT, dst, 4, &in, 1, MPI_INT, src, 4, MPI_COMM_WORLD, &st));
    int cnt = -1;
    MPI_Get_count(&st, MPI_INT, &cnt);
    if (src == MPI_PROC_NULL) {
        RXT_CHECK(in == -7, "receive from MPI_PROC_NULL changed the buffer to %d", in);
        RXT_CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && cnt == 0,
                  "receive from MPI_PROC_NULL: source %d tag %d count %d", st.MPI_SOURCE,
                  st.MPI_TAG, cnt);
    } else {
        RXT_CHECK(in == 500 + src && st.MPI_SOURCE == src && cnt == 1,
                  "chain: got %d from %d count %d", in, st.MPI_SOURCE, cnt);
    }
}

static void check_self(void)
{
    size_t n = 100000;
    unsigned char *a = malloc(n), *b = malloc(n);
    rxt_fill(a, n, 99 + (uint64_t)rxt_rank);
    MPI_Status st;
    /* (not MPI_ANY_SOURCE: the left neighbour may already send its next message) */
    RXT_MPI(MPI_Sendrecv(a, (int)n, MPI_BYTE, rxt_rank, 8, b, (int)n, MPI_BYTE, rxt_rank,
                         MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    RXT_CHECK(st.MPI_SOURCE == rxt_rank && st.MPI_TAG == 8, "self sendrecv status %d %d",
              st.MPI_SOURCE, st.MPI_TAG);
    long bad = rxt_verify(b, n, 99 + (uint64_t)rxt_rank);
    RXT_CHECK(bad < 0, "self sendrecv: byte %ld differs", bad);
    free(a);
    free(b);
}

static void check_replace(void)
{
    static const int sizes[] = { 0, 1, 7, 4096, 70000, 1 << 20 };
    unsigned char *buf = malloc((1 << 20) + 8);
    for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int n = sizes[i];
        for (int any = 0; any < 2; any++) {
            rxt_fill(buf, (size_t)n, (uint64_t)n * 31 + (uint64_t)rxt_rank);
            memset(buf + n, 0xC3, 8);
            MPI_Status st;
            RXT_MPI(MPI_Sendrecv_replace(buf, n, MPI_BYTE, right, 30 + any,
                                         any ? MPI_ANY_SOURCE : left, any ? MPI_ANY_TAG : 30,
                                         MPI_COMM_WORLD, &st));
            int cnt = -1;
            MPI_Get_count(&st, MPI_BYTE, &cnt);
            RXT_CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 30 + any && cnt == n,
                      "replace %d B: source %d tag %d count %d", n, st.MPI_SOURCE, st.MPI_TAG,
                      cnt);
            long bad = rxt_verify(buf, (size_t)n, (uint64_t)n * 31 + (uint64_t)left);
            RXT_CHECK(bad < 0, "replace %d B (any=%d): byte %ld differs", n, any, bad);
            for (int k = 0; k < 8; k++)
                RXT_CHECK(buf[n + k] == 0xC3, "replace %d B wrote past the buffer", n);
        }
    }
    free(buf);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "p2p_sendrecv");
    right = (rxt_rank + 1) % rxt_size;
    left = (rxt_rank + rxt_size - 1) % rxt_size;
    check_ring();
    check_chain();
    check_self();
    check_replace();
    return rxt_finish();
}
