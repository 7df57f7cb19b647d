/* SPDX-License-Identifier: MIT
 * Freeing while in use, across threads: the main thread frees a
 * communicator and a derived datatype while nonblocking operations that use
 * them, started by worker threads, are still in flight; the operations
 * complete with the right data. Meanwhile the other threads keep traffic
 * going on their own communicators. */
#include "thrtest.h"

#define ROUNDS 40
#define CNT 3000
static MPI_Comm work[THR_MAX];
static MPI_Comm victim;
static MPI_Datatype vtype;
static MPI_Request reqs[THR_MAX][2];
static pthread_barrier_t started, freed;
static int *sendv[THR_MAX], *recvv[THR_MAX];

static void body(int t)
{
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    for (int round = 0; round < ROUNDS; round++) {
        if (t == 0) {
            RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &victim));
            RXT_MPI(MPI_Type_vector(CNT, 1, 2, MPI_INT, &vtype));
            RXT_MPI(MPI_Type_commit(&vtype));
        }
        pthread_barrier_wait(&started);
        if (t > 0) {
            for (int i = 0; i < 2 * CNT; i++)
                sendv[t][i] = i % 2 ? -1 : rxt_rank * 100000 + t * 1000 + round + i;
            memset(recvv[t], 0, sizeof(int) * 2 * CNT);
            MPI_Irecv(recvv[t], 1, vtype, left, t, victim, &reqs[t][0]);
            MPI_Isend(sendv[t], 1, vtype, right, t, victim, &reqs[t][1]);
        }
        pthread_barrier_wait(&started);
        if (t == 0) { /* both freed while the others' operations may still run */
            MPI_Comm_free(&victim);
            MPI_Type_free(&vtype);
        }
        pthread_barrier_wait(&freed);
        if (t > 0) {
            MPI_Waitall(2, reqs[t], MPI_STATUSES_IGNORE);
            for (int i = 0; i < 2 * CNT; i += 2)
                THR_CHECK(recvv[t][i] == left * 100000 + t * 1000 + round + i && recvv[t][i + 1] == 0,
                          "thread %d round %d: [%d] = %d", t, round, i, recvv[t][i]);
            int x = t, y = -1; /* and traffic on the thread's own communicator */
            MPI_Sendrecv(&x, 1, MPI_INT, right, 0, &y, 1, MPI_INT, left, 0, work[t],
                         MPI_STATUS_IGNORE);
            THR_CHECK(y == t, "thread %d: %d on own communicator", t, y);
        }
        pthread_barrier_wait(&freed);
        if (t == 0)
            MPI_Barrier(MPI_COMM_WORLD);
        pthread_barrier_wait(&freed);
    }
}

int main(int argc, char **argv)
{
    thr_init(&argc, &argv, "thr_free");
    if (thr_n < 2)
        thr_n = 2;
    for (int t = 0; t < thr_n; t++) {
        RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &work[t]));
        sendv[t] = malloc(sizeof(int) * 2 * CNT);
        recvv[t] = malloc(sizeof(int) * 2 * CNT);
    }
    pthread_barrier_init(&started, NULL, (unsigned)thr_n);
    pthread_barrier_init(&freed, NULL, (unsigned)thr_n);
    thr_run(body);
    for (int t = 0; t < thr_n; t++) {
        MPI_Comm_free(&work[t]);
        free(sendv[t]);
        free(recvv[t]);
    }
    return thr_finish();
}
