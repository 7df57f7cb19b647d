/* SPDX-License-Identifier: MIT
 * Communicator creation from several threads at once, each from its own
 * parent: MPI_Comm_dup, MPI_Comm_split, MPI_Comm_create and
 * MPI_Comm_create_group. The new communicators must get distinct context
 * ids: right after creation every thread exchanges messages carrying its
 * thread id on the same tag on its new communicator, so two communicators
 * sharing an id would receive each other's messages. */
#include "thrtest.h"

#define ROUNDS 25
static MPI_Comm parents[THR_MAX];

static void body(int t)
{
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    MPI_Group wg;
    MPI_Comm_group(parents[t], &wg);
    for (int round = 0; round < ROUNDS; round++) {
        MPI_Comm nc = MPI_COMM_NULL;
        switch ((round + t) % 4) {
        case 0: MPI_Comm_dup(parents[t], &nc); break;
        case 1: MPI_Comm_split(parents[t], 1, rxt_rank, &nc); break;
        case 2: MPI_Comm_create(parents[t], wg, &nc); break;
        default: MPI_Comm_create_group(parents[t], wg, 5, &nc); break;
        }
        THR_CHECK(nc != MPI_COMM_NULL, "thread %d round %d: no communicator", t, round);
        if (nc == MPI_COMM_NULL)
            continue;
        int out[2] = {t, round}, in[2] = {-1, -1};
        MPI_Sendrecv(out, 2, MPI_INT, right, 0, in, 2, MPI_INT, left, 0, nc, MPI_STATUS_IGNORE);
        THR_CHECK(in[0] == t && in[1] == round,
                  "thread %d round %d: received thread %d round %d's message", t, round, in[0],
                  in[1]);
        int sum = 0;
        MPI_Allreduce(&out[0], &sum, 1, MPI_INT, MPI_SUM, nc);
        THR_CHECK(sum == t * rxt_size, "thread %d: allreduce %d", t, sum);
        MPI_Comm_free(&nc);
    }
    MPI_Group_free(&wg);
}

int main(int argc, char **argv)
{
    thr_init(&argc, &argv, "thr_create");
    for (int t = 0; t < thr_n; t++)
        RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &parents[t]));
    thr_run(body);
    for (int t = 0; t < thr_n; t++)
        MPI_Comm_free(&parents[t]);
    return thr_finish();
}
