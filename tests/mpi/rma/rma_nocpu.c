/* SPDX-License-Identifier: MIT
 * Passive-target progress without the target's CPU: rank 0 computes without
 * any MPI call while every other rank locks rank 0's window, puts, gets,
 * fetch-and-adds and compare-and-swaps, unlocks, and finally adds one to a
 * "done" counter in the window under a lock of its own. Rank 0 computes until
 * it sees every origin's addition in its own memory — which can only happen
 * if the origins' epochs completed while it made no MPI call — or gives up
 * after GIVE_UP_S seconds (the failure). It then finds the origins' data.
 * The times are printed, never checked. argv[1]: allocate, create or
 * allocmem. */
#include "rxtest.h"

#define GIVE_UP_S 30.0
#define SLOT 64 /* int64 elements per origin */
/* window layout (int64): [0] counter, [1] compare-and-swap, [2 ..] one SLOT
 * per rank, then the done counter and the go flag: origins start once they
 * read go = 1, which rank 0 stores after its last MPI call, so none of their
 * work can ride on progress rank 0 makes inside MPI_Barrier */
#define DONE_AT(size) (2 + (size) * SLOT)
#define GO_AT(size) (DONE_AT(size) + 1)

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "rma_nocpu");
    rxt_need_ranks(2);
    const char *flavor = argc > 1 ? argv[1] : "allocate";
    MPI_Aint bytes = (MPI_Aint)(GO_AT(rxt_size) + 1) * 8;
    int64_t *base, *mem = NULL;
    MPI_Win win;
    if (!strcmp(flavor, "allocate")) {
        RXT_MPI(MPI_Win_allocate(bytes, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    } else {
        if (!strcmp(flavor, "allocmem"))
            RXT_MPI(MPI_Alloc_mem(bytes, MPI_INFO_NULL, &base));
        else
            base = mem = malloc((size_t)bytes);
        RXT_MPI(MPI_Win_create(base, bytes, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    }
    memset(base, 0, (size_t)bytes);
    MPI_Barrier(MPI_COMM_WORLD);

    if (rxt_rank == 0) {
        /* compute: no MPI call, not even MPI_Wtime; only a load of our own
         * window memory between rounds */
        double t0 = now();
        volatile double x = 1.0;
        int64_t *done = &base[DONE_AT(rxt_size)];
        __atomic_store_n(&base[GO_AT(rxt_size)], 1, __ATOMIC_RELEASE);
        while (__atomic_load_n(done, __ATOMIC_ACQUIRE) < rxt_size - 1 && now() - t0 < GIVE_UP_S)
            for (int i = 0; i < 10000; i++)
                x = x * 1.0000001 + 1e-9;
        double loop = now() - t0, worst = 0;
        int64_t seen = __atomic_load_n(done, __ATOMIC_ACQUIRE);
        for (int r = 1; r < rxt_size; r++) {
            double t;
            RXT_MPI(MPI_Recv(&t, 1, MPI_DOUBLE, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            if (t > worst)
                worst = t;
        }
        printf("rma_nocpu: %s: target computed %.3f s without MPI calls; %lld of %d origins "
               "done meanwhile; their epochs took up to %.6f s\n", flavor, loop, (long long)seen,
               rxt_size - 1, worst);
        RXT_CHECK(seen == rxt_size - 1,
                  "only %lld of %d origins finished while the target made no MPI call for %.0f s",
                  (long long)seen, rxt_size - 1, loop);
    } else {
        double t0 = now();
        int64_t v[SLOT], back[SLOT], old = 0, one = 1, cmp = 0, res = -1;
        for (int i = 0; i < SLOT; i++)
            v[i] = rxt_rank * 1000 + i;
        for (int64_t go = 0; !go;) {
            RXT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
            RXT_MPI(MPI_Get(&go, 1, MPI_INT64_T, 0, GO_AT(rxt_size), 1, MPI_INT64_T, win));
            RXT_MPI(MPI_Win_unlock(0, win));
        }
        RXT_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        RXT_MPI(MPI_Put(v, SLOT, MPI_INT64_T, 0, 2 + rxt_rank * SLOT, SLOT, MPI_INT64_T, win));
        RXT_MPI(MPI_Win_unlock(0, win));
        RXT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        RXT_MPI(MPI_Get(back, SLOT, MPI_INT64_T, 0, 2 + rxt_rank * SLOT, SLOT, MPI_INT64_T, win));
        RXT_MPI(MPI_Fetch_and_op(&one, &old, MPI_INT64_T, 0, 0, MPI_SUM, win));
        int64_t mine = rxt_rank;
        RXT_MPI(MPI_Compare_and_swap(&mine, &cmp, &res, MPI_INT64_T, 0, 1, win));
        RXT_MPI(MPI_Win_unlock(0, win));
        double t = now() - t0;
        for (int i = 0; i < SLOT; i++)
            RXT_CHECK(back[i] == v[i], "get[%d] = %lld, expected %lld", i, (long long)back[i],
                      (long long)v[i]);
        RXT_CHECK(old >= 0 && old < rxt_size - 1, "fetch_and_op returned %lld", (long long)old);
        int64_t ignored;
        RXT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        RXT_MPI(MPI_Fetch_and_op(&one, &ignored, MPI_INT64_T, 0, DONE_AT(rxt_size), MPI_SUM, win));
        RXT_MPI(MPI_Win_unlock(0, win));
        RXT_MPI(MPI_Send(&t, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rxt_rank == 0) {
        RXT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        RXT_CHECK(base[0] == rxt_size - 1, "counter %lld, expected %d", (long long)base[0],
                  rxt_size - 1);
        RXT_CHECK(base[1] >= 1 && base[1] < rxt_size, "compare-and-swap left %lld",
                  (long long)base[1]);
        for (int r = 1; r < rxt_size; r++)
            for (int i = 0; i < SLOT; i++)
                RXT_CHECK(base[2 + r * SLOT + i] == r * 1000 + i, "slot of rank %d [%d] = %lld", r,
                          i, (long long)base[2 + r * SLOT + i]);
        RXT_MPI(MPI_Win_unlock(0, win));
    }
    RXT_MPI(MPI_Win_free(&win));
    if (!strcmp(flavor, "allocmem"))
        RXT_MPI(MPI_Free_mem(base));
    free(mem);
    return rxt_finish();
}
