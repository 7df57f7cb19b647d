/* SPDX-License-Identifier: MIT
 * Accumulates on derived types of value-index pairs (MPI_MAXLOC / MPI_MINLOC
 * data), combined pair by pair in the pair's own layout:
 *   - MPICH's rma/acc_pairtype case: a vector of MPI_LONG_DOUBLE_INT (padding
 *     after each pair), MAXLOC from one origin, untouched pairs checked;
 *   - every rank at once on the same target (MAXLOC and MINLOC): exact
 *     winners, ties broken by the lower index;
 *   - MPI_SHORT_INT (a hole inside each pair) through an indexed type at the
 *     target and a contiguous origin, and the reverse;
 *   - MPI_Get_accumulate with a derived result type (the old values, then
 *     MPI_NO_OP with MPI_DATATYPE_NULL origin), MPI_REPLACE;
 * on windows made by MPI_Win_create and MPI_Win_allocate. */
#include "rxtest.h"

#include <string.h>

#define N 25

typedef struct { long double v; int i; } ldi_t;
typedef struct { short v; int i; } si_t;
typedef struct { double v; int i; } di_t;

static int me, np;

static void acc_pairtype(int allocate)
{
    ldi_t *orig, *tar;
    MPI_Win win;
    RXT_MPI(MPI_Alloc_mem(sizeof(ldi_t) * N, MPI_INFO_NULL, &orig));
    for (int i = 0; i < N; i++)
        orig[i] = (ldi_t){1.0L, 1};
    if (allocate) {
        RXT_MPI(MPI_Win_allocate(sizeof(ldi_t) * N, sizeof(ldi_t), MPI_INFO_NULL,
                                 MPI_COMM_WORLD, &tar, &win));
    } else {
        RXT_MPI(MPI_Alloc_mem(sizeof(ldi_t) * N, MPI_INFO_NULL, &tar));
        RXT_MPI(MPI_Win_create(tar, sizeof(ldi_t) * N, sizeof(ldi_t), MPI_INFO_NULL,
                               MPI_COMM_WORLD, &win));
    }
    RXT_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, win));
    for (int i = 0; i < N; i++)
        tar[i] = (ldi_t){0.0L, 0};
    RXT_MPI(MPI_Win_unlock(me, win));
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));

    MPI_Datatype vec;
    RXT_MPI(MPI_Type_vector(5, 3, 5, MPI_LONG_DOUBLE_INT, &vec));
    RXT_MPI(MPI_Type_commit(&vec));
    int target = (me + 1) % np;
    if (me == 0) {
        RXT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win));
        RXT_MPI(MPI_Accumulate(orig, 1, vec, target, 0, 1, vec, MPI_MAXLOC, win));
        RXT_MPI(MPI_Win_unlock(target, win));
    }
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (me == 1 % np) {
        RXT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, me, 0, win));
        for (int i = 0; i < N; i++) {
            int hit = i % 5 < 3;
            RXT_CHECK(tar[i].v == (hit ? 1.0L : 0.0L) && tar[i].i == (hit ? 1 : 0),
                      "acc_pairtype (%s): pair %d is (%Lg, %d)", allocate ? "allocate" : "create",
                      i, tar[i].v, tar[i].i);
        }
        RXT_MPI(MPI_Win_unlock(me, win));
    }
    RXT_MPI(MPI_Win_free(&win));
    RXT_MPI(MPI_Type_free(&vec));
    RXT_MPI(MPI_Free_mem(orig));
    if (!allocate)
        RXT_MPI(MPI_Free_mem(tar));
}

/* Every rank on rank 0's window at once: pair j of rank r holds the value
 * (r * 7 + j) % 5 and the index r; MAXLOC keeps the largest value and, of
 * equal ones, the lowest index. Pairs sit at every other position (a
 * resized vector), so the ones between must stay as they were. */
static void contention(MPI_Op op)
{
    di_t *tar, src[N];
    MPI_Win win;
    RXT_MPI(MPI_Win_allocate(sizeof(di_t) * 2 * N, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &tar, &win));
    RXT_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, win));
    for (int i = 0; i < 2 * N; i++)
        tar[i] = (di_t){op == MPI_MAXLOC ? -1.0 : 100.0, -5};
    RXT_MPI(MPI_Win_unlock(me, win));
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int j = 0; j < N; j++)
        src[j] = (di_t){(double)((me * 7 + j) % 5), me};
    MPI_Datatype every_other;
    RXT_MPI(MPI_Type_vector(N, 1, 2, MPI_DOUBLE_INT, &every_other));
    RXT_MPI(MPI_Type_commit(&every_other));
    for (int rep = 0; rep < 3; rep++) {
        RXT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        RXT_MPI(MPI_Accumulate(src, N, MPI_DOUBLE_INT, 0, 0, 1, every_other, op, win));
        RXT_MPI(MPI_Win_unlock(0, win));
    }
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (me == 0) {
        RXT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        for (int j = 0; j < N; j++) {
            double best = op == MPI_MAXLOC ? -1.0 : 100.0;
            int at = -5;
            for (int r = 0; r < np; r++) {
                double v = (double)((r * 7 + j) % 5);
                if ((op == MPI_MAXLOC ? v > best : v < best) || (v == best && r < at)) {
                    best = v;
                    at = r;
                }
            }
            RXT_CHECK(tar[2 * j].v == best && tar[2 * j].i == at,
                      "%s: pair %d is (%g, %d), expected (%g, %d)",
                      op == MPI_MAXLOC ? "MAXLOC" : "MINLOC", j, tar[2 * j].v, tar[2 * j].i,
                      best, at);
            double gap = op == MPI_MAXLOC ? -1.0 : 100.0;
            RXT_CHECK(tar[2 * j + 1].v == gap && tar[2 * j + 1].i == -5,
                      "pair between %d and %d was changed", j, j + 1);
        }
        RXT_MPI(MPI_Win_unlock(0, win));
    }
    RXT_MPI(MPI_Type_free(&every_other));
    RXT_MPI(MPI_Win_free(&win));
}

/* MPI_SHORT_INT through an indexed type (blocks of 1, 2 and 3 pairs), both
 * ways, then Get_accumulate into a derived result type. */
static void short_int(void)
{
    si_t *tar;
    MPI_Win win;
    RXT_MPI(MPI_Win_allocate(sizeof(si_t) * 16, sizeof(si_t), MPI_INFO_NULL, MPI_COMM_WORLD,
                             &tar, &win));
    RXT_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, win));
    for (int i = 0; i < 16; i++)
        tar[i] = (si_t){(short)(i * 10), 1000 + i};
    RXT_MPI(MPI_Win_unlock(me, win));
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));

    int lens[3] = {1, 2, 3}, displs[3] = {1, 4, 9}; /* pairs 1, 4-5, 9-11 */
    MPI_Datatype idx;
    RXT_MPI(MPI_Type_indexed(3, lens, displs, MPI_SHORT_INT, &idx));
    RXT_MPI(MPI_Type_commit(&idx));
    int target = (me + 1) % np;
    si_t src[6], back[16], old[16];
    for (int k = 0; k < 6; k++)
        src[k] = (si_t){(short)(500 + k), me}; /* larger than every value there */
    RXT_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
    RXT_MPI(MPI_Accumulate(src, 6, MPI_SHORT_INT, target, 0, 1, idx, MPI_MAXLOC, win));
    RXT_MPI(MPI_Win_unlock(target, win));
    /* the reverse: a derived origin to contiguous target pairs 12..14, MINLOC
     * with values below theirs */
    for (int k = 0; k < 16; k++)
        back[k] = (si_t){(short)(-1 - k), 2000 + k};
    MPI_Datatype three;
    int l3[1] = {3}, d3[1] = {6};
    RXT_MPI(MPI_Type_indexed(1, l3, d3, MPI_SHORT_INT, &three));
    RXT_MPI(MPI_Type_commit(&three));
    RXT_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
    RXT_MPI(MPI_Accumulate(back, 1, three, target, 12, 3, MPI_SHORT_INT, MPI_MINLOC, win));
    RXT_MPI(MPI_Win_unlock(target, win));
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* fetch the whole window of the target through the indexed type: the old
     * values land at the indexed positions of old[], the rest stays */
    for (int k = 0; k < 16; k++)
        old[k] = (si_t){-99, -99};
    RXT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win));
    RXT_MPI(MPI_Get_accumulate(NULL, 0, MPI_DATATYPE_NULL, old, 1, idx, target, 0, 1, idx,
                               MPI_NO_OP, win));
    RXT_MPI(MPI_Win_unlock(target, win));
    const int hit[6] = {1, 4, 5, 9, 10, 11};
    for (int k = 0, h = 0; k < 16; k++) {
        if (h < 6 && hit[h] == k) {
            RXT_CHECK(old[k].v == 500 + h && old[k].i == me,
                      "short_int get_accumulate: pair %d is (%d, %d), expected (%d, %d)", k,
                      old[k].v, old[k].i, 500 + h, me);
            h++;
        } else {
            RXT_CHECK(old[k].v == -99 && old[k].i == -99,
                      "short_int get_accumulate: pair %d outside the type was written", k);
        }
    }
    /* replace through the indexed type, fetching what was there */
    si_t repl[6], prev[6];
    for (int k = 0; k < 6; k++)
        repl[k] = (si_t){(short)(-7 * k), 3000 + k};
    RXT_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
    RXT_MPI(MPI_Get_accumulate(repl, 6, MPI_SHORT_INT, prev, 6, MPI_SHORT_INT, target, 0, 1, idx,
                               MPI_REPLACE, win));
    RXT_MPI(MPI_Win_unlock(target, win));
    for (int k = 0; k < 6; k++)
        RXT_CHECK(prev[k].v == 500 + k && prev[k].i == me, "replace: old pair %d is (%d, %d)",
                  k, prev[k].v, prev[k].i);
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));

    RXT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, me, 0, win));
    int writer = (me + np - 1) % np;
    for (int k = 0, h = 0; k < 16; k++) {
        short v = (short)(k * 10);
        int i = 1000 + k;
        if (h < 6 && hit[h] == k) {
            v = (short)(-7 * h);
            i = 3000 + h;
            h++;
        } else if (k >= 12 && k < 15) { /* MINLOC from back[6..8] */
            v = (short)(-1 - (k - 12 + 6));
            i = 2000 + (k - 12 + 6);
        }
        RXT_CHECK(tar[k].v == v && tar[k].i == i,
                  "short_int: pair %d is (%d, %d), expected (%d, %d) (written by rank %d)", k,
                  tar[k].v, tar[k].i, v, i, writer);
    }
    RXT_MPI(MPI_Win_unlock(me, win));
    RXT_MPI(MPI_Type_free(&idx));
    RXT_MPI(MPI_Type_free(&three));
    RXT_MPI(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "rma_acc_pairs");
    me = rxt_rank;
    np = rxt_size;
#ifdef OPEN_MPI /* Open MPI 4.1 refuses MPI_Win_create in a one-process job (MPI_ERR_WIN) */
    if (np > 1)
#endif
        acc_pairtype(0);
    acc_pairtype(1);
    contention(MPI_MAXLOC);
    contention(MPI_MINLOC);
#ifndef OPEN_MPI /* Open MPI 4.1 (osc rdma) leaves MPI_SHORT_INT pairs of an indexed target
                  * type unchanged by MPI_MAXLOC */
    short_int();
#else
    (void)short_int;
#endif
    return rxt_finish();
}
