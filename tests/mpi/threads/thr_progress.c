/* SPDX-License-Identifier: MIT
 * A wait in one thread moves another thread's messages. Thread 1 starts a
 * rendezvous-sized MPI_Isend to the next rank and then waits on a flag
 * without calling MPI; thread 0 waits in MPI_Recv for a reply the previous
 * rank sends only once its own receive of that large message is complete.
 * The job completes only if thread 0's waiting progresses thread 1's send. */
#include "thrtest.h"

#define BIG (4 << 20)
static atomic_int go_wait, send_started;
static unsigned char *big_out, *big_in;
static MPI_Request big_req;

static void body(int t)
{
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    if (t == 1) {
        rxt_fill(big_out, BIG, (uint64_t)rxt_rank + 1);
        MPI_Isend(big_out, BIG, MPI_BYTE, right, 1, MPI_COMM_WORLD, &big_req);
        atomic_store(&send_started, 1);
        while (!atomic_load(&go_wait)) /* no MPI call here */
            rxt_sleep_ms(1);
        MPI_Wait(&big_req, MPI_STATUS_IGNORE);
        return;
    }
    if (t != 0)
        return;
    while (!atomic_load(&send_started))
        rxt_sleep_ms(1);
    MPI_Recv(big_in, BIG, MPI_BYTE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    long bad = rxt_verify(big_in, BIG, (uint64_t)left + 1);
    THR_CHECK(bad < 0, "large message byte %ld differs", bad);
    int token = rxt_rank, got = -1;
    MPI_Sendrecv(&token, 1, MPI_INT, right, 2, &got, 1, MPI_INT, left, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    THR_CHECK(got == left, "token %d from %d", got, left);
    atomic_store(&go_wait, 1);
}

int main(int argc, char **argv)
{
    thr_init(&argc, &argv, "thr_progress");
    if (thr_n < 2)
        thr_n = 2;
    big_out = malloc(BIG);
    big_in = malloc(BIG);
    thr_run(body);
    free(big_out);
    free(big_in);
    return thr_finish();
}
