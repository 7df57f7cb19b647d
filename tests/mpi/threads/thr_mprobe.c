/* SPDX-License-Identifier: MIT
 * Matched probes from several threads on one communicator: all threads
 * MPI_Mprobe (or loop on MPI_Improbe) for any message, then MPI_Mrecv (or
 * MPI_Imrecv) it with the probed count. Each message is consumed by exactly
 * one thread, with its size and contents intact - what MPI_Probe + MPI_Recv
 * cannot promise across threads. */
#include "thrtest.h"

#define M 60
static atomic_int seen[THR_MAX][M];

static int size_of(int t, int i) { return (t * 131 + i * 977) % 30000; }

static void body(int t)
{
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    unsigned char *rb = malloc(30000);
    MPI_Request sreq[M];
    unsigned char **sb = malloc(sizeof *sb * M);
    for (int i = 0; i < M; i++) {
        int n = size_of(t, i);
        sb[i] = malloc((size_t)n + 1);
        rxt_fill(sb[i], (size_t)n, (uint64_t)rxt_rank << 32 | (uint64_t)t << 16 | (uint64_t)i);
        MPI_Isend(sb[i], n, MPI_BYTE, right, t * M + i, MPI_COMM_WORLD, &sreq[i]);
    }
    for (int i = 0; i < M; i++) {
        MPI_Message msg;
        MPI_Status st;
        if ((i + t) % 2 == 0) {
            MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &msg, &st);
        } else {
            int flag = 0;
            while (!flag)
                MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st);
        }
        int n = -1;
        MPI_Get_count(&st, MPI_BYTE, &n);
        int tg = st.MPI_TAG, st_t = tg / M, st_i = tg % M;
        THR_CHECK(st.MPI_SOURCE == left && tg >= 0 && st_t < thr_n && n == size_of(st_t, st_i),
                  "thread %d: probed source %d tag %d count %d", t, st.MPI_SOURCE, tg, n);
        if (n < 0 || n > 30000)
            n = 30000;
        MPI_Status rs;
        if (i % 3 == 0) {
            MPI_Request r;
            MPI_Imrecv(rb, n, MPI_BYTE, &msg, &r);
            MPI_Wait(&r, &rs);
        } else {
            MPI_Mrecv(rb, n, MPI_BYTE, &msg, &rs);
        }
        THR_CHECK(msg == MPI_MESSAGE_NULL, "thread %d: message handle not reset", t);
        THR_CHECK(rs.MPI_TAG == tg && rs.MPI_SOURCE == left, "thread %d: received tag %d, probed %d",
                  t, rs.MPI_TAG, tg);
        long bad = rxt_verify(rb, (size_t)n, (uint64_t)left << 32 | (uint64_t)st_t << 16 |
                                                 (uint64_t)st_i);
        THR_CHECK(bad < 0, "thread %d: tag %d byte %ld differs", t, tg, bad);
        if (tg >= 0 && st_t < thr_n)
            THR_CHECK(atomic_fetch_add(&seen[st_t][st_i], 1) == 0, "tag %d received twice", tg);
    }
    MPI_Waitall(M, sreq, MPI_STATUSES_IGNORE);
    for (int i = 0; i < M; i++)
        free(sb[i]);
    free(sb);
    free(rb);
}

int main(int argc, char **argv)
{
    thr_init(&argc, &argv, "thr_mprobe");
    thr_run(body);
    for (int t = 0; t < thr_n; t++)
        for (int i = 0; i < M; i++)
            THR_CHECK(atomic_load(&seen[t][i]) == 1, "tag %d received %d times", t * M + i,
                      atomic_load(&seen[t][i]));
    return thr_finish();
}
