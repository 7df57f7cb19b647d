/* SPDX-License-Identifier: MIT
 * One-sided communication from several threads: (1) each thread its own
 * window (over its own duplicate) and passive-target lock epochs with puts,
 * gets and accumulates to the next rank; (2) all threads putting to disjoint
 * parts of one window inside one MPI_Win_lock_all epoch, each flushing its
 * own operations; (3) MPI_Fetch_and_op counters hit by every thread of every
 * rank, with exact totals. */
#include "thrtest.h"

#define N 512
#define ITERS 30
static MPI_Comm comms[THR_MAX];
static MPI_Win own_win[THR_MAX], shared_win, counter_win;
static long *own_base[THR_MAX], *shared_base, *counter_base;

/* MPICH 4.0.2 (Debian 12) sends the operations on windows made by
 * MPI_Win_allocate to every target of the node at rank 0's memory, threads
 * or not (a lock_all epoch of MPI_Fetch_and_op to alternating targets puts
 * every update on rank 0); its MPI_Win_create windows are right, so the test
 * uses those there. */
static void win_make(MPI_Aint bytes, MPI_Comm c, long **base, MPI_Win *w)
{
#ifdef MPICH_VERSION
    RXT_MPI(MPI_Alloc_mem(bytes, MPI_INFO_NULL, base));
    RXT_MPI(MPI_Win_create(*base, bytes, sizeof(long), MPI_INFO_NULL, c, w));
#else
    RXT_MPI(MPI_Win_allocate(bytes, sizeof(long), MPI_INFO_NULL, c, base, w));
#endif
}

static void win_done(MPI_Win *w, long *base)
{
    MPI_Win_free(w);
#ifdef MPICH_VERSION
    MPI_Free_mem(base);
#else
    (void)base;
#endif
}

static void body(int t)
{
    int right = (rxt_rank + 1) % rxt_size;
    long buf[N], back[N];
    for (int it = 0; it < ITERS; it++) {
        for (int i = 0; i < N; i++)
            buf[i] = (long)rxt_rank << 32 | (long)t << 20 | (long)it << 10 | i;
        MPI_Win w = own_win[t];
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, w);
        MPI_Put(buf, N, MPI_LONG, right, 0, N, MPI_LONG, w);
        MPI_Win_flush(right, w);
        MPI_Get(back, N, MPI_LONG, right, 0, N, MPI_LONG, w);
        MPI_Win_unlock(right, w);
        for (int i = 0; i < N; i += 31)
            THR_CHECK(back[i] == buf[i], "thread %d iter %d: got back %ld, put %ld", t, it,
                      back[i], buf[i]);
        long one = 1;
        MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w);
        MPI_Accumulate(&one, 1, MPI_LONG, right, N, 1, MPI_LONG, MPI_SUM, w);
        MPI_Win_unlock(right, w);
        /* the shared window, inside the epoch main opened for all threads */
        for (int i = 0; i < 8; i++)
            buf[i] = (long)rxt_rank * 1000000 + t * 1000 + it * 8 + i;
        MPI_Put(buf, 8, MPI_LONG, right, (MPI_Aint)(t * 8), 8, MPI_LONG, shared_win);
        MPI_Win_flush(right, shared_win);
        long old;
        MPI_Fetch_and_op(&one, &old, MPI_LONG, it % rxt_size, 0, MPI_SUM, counter_win);
        MPI_Win_flush(it % rxt_size, counter_win);
    }
}

int main(int argc, char **argv)
{
    thr_init(&argc, &argv, "thr_rma");
    for (int t = 0; t < thr_n; t++) {
        RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]));
        win_make(sizeof(long) * (N + 1), comms[t], &own_base[t], &own_win[t]);
        memset(own_base[t], 0, sizeof(long) * (N + 1));
    }
    win_make(sizeof(long) * 8 * THR_MAX, MPI_COMM_WORLD, &shared_base, &shared_win);
    win_make(sizeof(long), MPI_COMM_WORLD, &counter_base, &counter_win);
    memset(shared_base, 0, sizeof(long) * 8 * THR_MAX);
    *counter_base = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, shared_win);
    MPI_Win_lock_all(0, counter_win);
    thr_run(body);
    MPI_Win_unlock_all(counter_win);
    MPI_Win_unlock_all(shared_win);
    MPI_Barrier(MPI_COMM_WORLD);
    int left = (rxt_rank + rxt_size - 1) % rxt_size;
    for (int t = 0; t < thr_n; t++) {
        MPI_Win_lock(MPI_LOCK_SHARED, rxt_rank, 0, own_win[t]);
        long last = (long)left << 32 | (long)t << 20 | (long)(ITERS - 1) << 10;
        THR_CHECK(own_base[t][5] == (last | 5), "own window %d: %ld", t, own_base[t][5]);
        THR_CHECK(own_base[t][N] == ITERS, "own window %d: accumulated %ld, want %d", t,
                  own_base[t][N], ITERS);
        MPI_Win_unlock(rxt_rank, own_win[t]);
        for (int i = 0; i < 8; i++)
            THR_CHECK(shared_base[t * 8 + i] == (long)left * 1000000 + t * 1000 + (ITERS - 1) * 8 + i,
                      "shared window thread %d [%d] = %ld", t, i, shared_base[t * 8 + i]);
    }
    /* counter of rank k: ITERS/size-ish hits from every thread of every rank */
    long want = 0;
    for (int it = 0; it < ITERS; it++)
        if (it % rxt_size == rxt_rank)
            want += (long)thr_n * rxt_size;
    MPI_Win_lock(MPI_LOCK_SHARED, rxt_rank, 0, counter_win);
    THR_CHECK(*counter_base == want, "counter %ld, want %ld", *counter_base, want);
    MPI_Win_unlock(rxt_rank, counter_win);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int t = 0; t < thr_n; t++) {
        win_done(&own_win[t], own_base[t]);
        MPI_Comm_free(&comms[t]);
    }
    win_done(&shared_win, shared_base);
    win_done(&counter_win, counter_base);
    return thr_finish();
}
