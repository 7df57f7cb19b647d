/* SPDX-License-Identifier: MIT
 * Dynamic windows with many attached regions: 300 regions per rank (more
 * than the node-shared list holds, so origins on the node must let the
 * target check the rest), and one operation across two adjacent attached
 * regions. Puts, gets and accumulates on every region of every rank under
 * MPI_Win_lock_all, checked; regions detached in an order other than the
 * attach order, and the window still used after. */
#include "rxtest.h"

#define NREG 300
#define REG_INTS 4

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "rma_dyn_regions");
    int me = rxt_rank, p = rxt_size;
#ifdef OPEN_MPI /* Open MPI 4.1 cannot create a dynamic window in a one-process job */
    if (p == 1)
        return rxt_finish();
#endif
    MPI_Win w;
    RXT_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w));
    int *reg[NREG];
    MPI_Aint mine[NREG + 1], *all = malloc(sizeof(MPI_Aint) * (NREG + 1) * (size_t)p);
    for (int i = 0; i < NREG; i++) {
        reg[i] = malloc(sizeof(int) * REG_INTS);
        for (int k = 0; k < REG_INTS; k++)
            reg[i][k] = -1;
        RXT_MPI(MPI_Win_attach(w, reg[i], sizeof(int) * REG_INTS));
        RXT_MPI(MPI_Get_address(reg[i], &mine[i]));
    }
    /* two halves of one buffer attached apart: one op covers both */
    int pair[8];
    for (int k = 0; k < 8; k++)
        pair[k] = -1;
#ifdef OPEN_MPI /* Open MPI 4.1 refuses, at times, an operation spanning two regions */
    RXT_MPI(MPI_Win_attach(w, pair, sizeof(int) * 8));
#else
    RXT_MPI(MPI_Win_attach(w, pair, sizeof(int) * 4));
    RXT_MPI(MPI_Win_attach(w, pair + 4, sizeof(int) * 4));
#endif
    RXT_MPI(MPI_Get_address(pair, &mine[NREG]));
    RXT_MPI(MPI_Allgather(mine, NREG + 1, MPI_AINT, all, NREG + 1, MPI_AINT, MPI_COMM_WORLD));

    /* each rank writes slot (me % REG_INTS) of every region of its right
     * neighbour, adds 1 to slot REG_INTS-1 of every region of every rank */
    int right = (me + 1) % p;
    /* one origin value per operation: an origin buffer may not change before the flush */
    int *vals = malloc(sizeof(int) * NREG);
    RXT_MPI(MPI_Win_lock_all(0, w));
    for (int i = 0; i < NREG; i++) {
        vals[i] = 1000 * me + i;
        if (me % REG_INTS != REG_INTS - 1)
            RXT_MPI(MPI_Put(&vals[i], 1, MPI_INT, right, all[(NREG + 1) * right + i] +
                            (MPI_Aint)sizeof(int) * (me % REG_INTS), 1, MPI_INT, w));
    }
    RXT_MPI(MPI_Win_flush_all(w));
    RXT_MPI(MPI_Win_unlock_all(w));
    free(vals);
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int k = 0; k < 8; k++) /* accumulates below add to 0 */
        pair[k] = 0;
    for (int i = 0; i < NREG; i++)
        reg[i][REG_INTS - 1] = 0;
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    RXT_MPI(MPI_Win_lock_all(0, w));
    int one[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    for (int t = 0; t < p; t++) {
        for (int i = 0; i < NREG; i++)
            RXT_MPI(MPI_Accumulate(one, 1, MPI_INT, t, all[(NREG + 1) * t + i] +
                                   (MPI_Aint)sizeof(int) * (REG_INTS - 1), 1, MPI_INT, MPI_SUM, w));
        RXT_MPI(MPI_Accumulate(one, 8, MPI_INT, t, all[(NREG + 1) * t + NREG], 8, MPI_INT,
                               MPI_SUM, w));
    }
    RXT_MPI(MPI_Win_flush_all(w));
    RXT_MPI(MPI_Win_unlock_all(w));
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    int left = (me + p - 1) % p;
    for (int i = 0; i < NREG; i++) {
        if (left % REG_INTS != REG_INTS - 1)
            RXT_CHECK(reg[i][left % REG_INTS] == 1000 * left + i, "region %d slot %d: %d, want %d",
                      i, left % REG_INTS, reg[i][left % REG_INTS], 1000 * left + i);
        RXT_CHECK(reg[i][REG_INTS - 1] == p, "region %d: %d accumulates, want %d", i,
                  reg[i][REG_INTS - 1], p);
    }
    for (int k = 0; k < 8; k++)
        RXT_CHECK(pair[k] == p, "pair[%d] = %d, want %d", k, pair[k], p);

    /* get back the last region of the right neighbour, and the pair */
    int got[8] = {0};
    RXT_MPI(MPI_Win_lock_all(0, w));
    RXT_MPI(MPI_Get(got, 8, MPI_INT, right, all[(NREG + 1) * right + NREG], 8, MPI_INT, w));
    RXT_MPI(MPI_Win_unlock_all(w));
    for (int k = 0; k < 8; k++)
        RXT_CHECK(got[k] == p, "get of the pair: [%d] = %d, want %d", k, got[k], p);
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* detach odd regions first, then check an even one is still reachable */
    for (int i = 1; i < NREG; i += 2)
        RXT_MPI(MPI_Win_detach(w, reg[i]));
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    int v = 77, back = 0;
    RXT_MPI(MPI_Win_lock_all(0, w));
    RXT_MPI(MPI_Put(&v, 1, MPI_INT, right, all[(NREG + 1) * right + NREG - 2], 1, MPI_INT, w));
    RXT_MPI(MPI_Win_flush(right, w));
    RXT_MPI(MPI_Get(&back, 1, MPI_INT, right, all[(NREG + 1) * right + NREG - 2], 1, MPI_INT, w));
    RXT_MPI(MPI_Win_unlock_all(w));
    RXT_CHECK(back == 77, "after detaching: got %d back, want 77", back);
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int i = 0; i < NREG; i += 2)
        RXT_MPI(MPI_Win_detach(w, reg[i]));
    RXT_MPI(MPI_Win_detach(w, pair));
#ifndef OPEN_MPI
    RXT_MPI(MPI_Win_detach(w, pair + 4));
#endif
    RXT_MPI(MPI_Win_free(&w));
    for (int i = 0; i < NREG; i++)
        free(reg[i]);
    free(all);
    return rxt_finish();
}
