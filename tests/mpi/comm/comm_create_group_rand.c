/* SPDX-License-Identifier: MIT
 * MPI_Comm_create_group over random subsets of MPI_COMM_WORLD, one after another with
 * the same tag: every rank draws the same subset per round (same seed) and only its
 * members call (srand(round), rand() % 2: sequences that hung), so a member of one
 * round may start the next while others still agree on the previous one. The new communicator's Barrier and an Allreduce of world ranks
 * must work and give the subset's sum; MPI_COMM_WORLD is not synchronised meanwhile.
 * Before the agreement ran on parent ranks, 4 ranks hung within about 80 rounds. */
#include "rxtest.h"

#define ROUNDS 300

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "comm_create_group_rand");
    MPI_Group world;
    RXT_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    int *ranks = malloc(sizeof(int) * (size_t)rxt_size);
    for (int round = 0; round < ROUNDS; round++) {
        int n = 0, in = 0, want = 0;
        srand((unsigned)round);
        for (int r = 0; r < rxt_size; r++)
            if (rand() % 2) {
                ranks[n++] = r;
                want += r;
                in |= r == rxt_rank;
            }
        MPI_Group g;
        RXT_MPI(MPI_Group_incl(world, n, ranks, &g));
        if (in) {
            MPI_Comm c;
            RXT_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, g, 7, &c));
            RXT_MPI(MPI_Barrier(c));
            int sum = -1;
            RXT_MPI(MPI_Allreduce(&rxt_rank, &sum, 1, MPI_INT, MPI_SUM, c));
            RXT_CHECK(sum == want, "round %d: sum of the subset's ranks %d, want %d", round, sum,
                      want);
            RXT_MPI(MPI_Comm_free(&c));
        }
        RXT_MPI(MPI_Group_free(&g));
    }
    free(ranks);
    RXT_MPI(MPI_Group_free(&world));
    return rxt_finish();
}
