/* SPDX-License-Identifier: MIT
 * A target whose one-sided answers wait for ring space keeps sending them
 * promptly while it blocks in another call. Rank 0 reads NGET blocks of 64 KiB
 * from rank 1 and then stays out of MPI, so rank 1's answers fill the ring
 * towards rank 0 and the rest queue; rank 1 then sends rank 0 NMSG eager
 * messages, more than the ring holds, so they queue too, and blocks in a
 * receive. Rank 0 comes back and collects its
 * reads at a slow pace: one test of the requests every POLL_MS, outside MPI
 * in between, so rank 1 falls asleep before each ring-full is taken. Run with
 * one-sided operations by messages and blocking waits (RDMX_RMA_EMULATE=1
 * RDMX_WAIT=block under rdmx): a target that lost sight of its queued answers
 * once the point-to-point queue had drained slept 20 ms before each of the
 * ~86 ring-fulls (about 1.7 s) instead of 200 us (NGET * POLL_MS / 3, about
 * 0.2 s). The bound checked is loose: LIMIT_S. */
#include "rxtest.h"

#define BLOCK (64 << 10)
#define NGET 256
#define NMSG 64
#define MSG (16 << 10)
#define POLL_MS 2
#define LIMIT_S 0.9

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "rma_backlog");
    rxt_need_ranks(2);
    size_t len = (size_t)BLOCK * NGET;
    char *mem = malloc(rxt_rank == 1 ? len : 1), *got = malloc(rxt_rank == 0 ? len : 1);
    if (!mem || !got)
        RXT_FATAL("out of memory");
    if (rxt_rank == 1)
        rxt_fill(mem, len, 7);
    MPI_Win win;
    RXT_MPI(MPI_Win_create(mem, rxt_rank == 1 ? (MPI_Aint)len : 0, 1, MPI_INFO_NULL,
                           MPI_COMM_WORLD, &win));
    int token = 0;
    static char msg[NMSG][MSG];
    if (rxt_rank == 0) {
        MPI_Request req[NGET];
        RXT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win));
        for (int i = 0; i < NGET; i++)
            RXT_MPI(MPI_Rget(got + (size_t)i * BLOCK, BLOCK, MPI_BYTE, 1, (MPI_Aint)i * BLOCK,
                             BLOCK, MPI_BYTE, win, &req[i]));
        /* after the reads on the same path: rank 1 has seen them all when it
         * receives this */
        RXT_MPI(MPI_Send(&token, 1, MPI_INT, 1, 1, MPI_COMM_WORLD));
        rxt_sleep_ms(300); /* out of MPI: rank 1's answers pile up */
        double t0 = MPI_Wtime();
        for (int i = 0; i < NMSG; i++) {
            RXT_MPI(MPI_Recv(msg[i], MSG, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            RXT_CHECK(msg[i][0] == (char)i && msg[i][MSG - 1] == (char)i, "message %d differs", i);
        }
        for (int done = 0;;) {
            RXT_MPI(MPI_Testall(NGET, req, &done, MPI_STATUSES_IGNORE));
            if (done)
                break;
            rxt_sleep_ms(POLL_MS);
        }
        RXT_MPI(MPI_Win_unlock(1, win));
        double t = MPI_Wtime() - t0;
        RXT_MPI(MPI_Send(&token, 1, MPI_INT, 1, 3, MPI_COMM_WORLD));
        long bad = rxt_verify(got, len, 7);
        RXT_CHECK(bad < 0, "byte %ld of the reads differs", bad);
        RXT_CHECK(t < LIMIT_S, "the reads took %.3f s to complete after rank 0 came back (limit %g s)",
                  t, LIMIT_S);
        printf("rma_backlog: %d reads of %d bytes completed %.3f s after rank 0 came back\n", NGET,
               BLOCK, t);
    } else if (rxt_rank == 1) {
        RXT_MPI(MPI_Recv(&token, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MPI_Request req[NMSG];
        for (int i = 0; i < NMSG; i++) {
            memset(msg[i], i, MSG);
            RXT_MPI(MPI_Isend(msg[i], MSG, MPI_BYTE, 0, 2, MPI_COMM_WORLD, &req[i]));
        }
        RXT_MPI(MPI_Waitall(NMSG, req, MPI_STATUSES_IGNORE));
        RXT_MPI(MPI_Recv(&token, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
    RXT_MPI(MPI_Win_free(&win));
    free(mem);
    free(got);
    return rxt_finish();
}
