/* SPDX-License-Identifier: MIT
 * Wildcard receives in several threads on one communicator: every rank's T
 * threads each send M numbered messages with their thread id as the tag to
 * the next rank, whose T threads receive T*M messages with MPI_ANY_SOURCE
 * and MPI_ANY_TAG between them. Every message must arrive exactly once, and
 * within one receiving thread the messages of one tag in send order (a
 * thread's receives match in the order it posts them). */
#include "thrtest.h"

#define M 300
static atomic_int seen[THR_MAX][M];

static void body(int t)
{
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    int last[THR_MAX];
    for (int i = 0; i < THR_MAX; i++)
        last[i] = -1;
    MPI_Request sreq[M];
    int out[M][4];
    for (int i = 0; i < M; i++) {
        out[i][0] = rxt_rank;
        out[i][1] = t;
        out[i][2] = i;
        out[i][3] = (rxt_rank * 1000 + t) ^ i;
        MPI_Isend(out[i], 4, MPI_INT, right, t, MPI_COMM_WORLD, &sreq[i]);
    }
    for (int i = 0; i < M; i++) {
        int in[4];
        MPI_Status st;
        MPI_Recv(in, 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        int tg = st.MPI_TAG, sq = in[2];
        THR_CHECK(st.MPI_SOURCE == left && in[0] == left && tg == in[1] && tg >= 0 &&
                      tg < thr_n && sq >= 0 && sq < M && in[3] == ((left * 1000 + tg) ^ sq),
                  "thread %d: message source %d tag %d payload %d %d %d %d", t, st.MPI_SOURCE,
                  tg, in[0], in[1], in[2], in[3]);
        if (tg < 0 || tg >= thr_n || sq < 0 || sq >= M)
            continue;
        THR_CHECK(sq > last[tg], "thread %d: tag %d message %d after %d", t, tg, sq, last[tg]);
        last[tg] = sq;
        int n = atomic_fetch_add(&seen[tg][sq], 1);
        THR_CHECK(n == 0, "tag %d message %d received twice", tg, sq);
    }
    MPI_Waitall(M, sreq, MPI_STATUSES_IGNORE);
}

int main(int argc, char **argv)
{
    thr_init(&argc, &argv, "thr_wildcard");
    thr_run(body);
    for (int t = 0; t < thr_n; t++)
        for (int i = 0; i < M; i++)
            THR_CHECK(atomic_load(&seen[t][i]) == 1, "tag %d message %d received %d times", t, i,
                      atomic_load(&seen[t][i]));
    return thr_finish();
}
