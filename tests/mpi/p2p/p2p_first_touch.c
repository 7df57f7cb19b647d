/* SPDX-License-Identifier: MIT
 * The first thousands of messages between two ranks of a node take no page
 * faults: the shared-memory rings are mapped with their page tables filled
 * (src/tl/shm/shm.h, rx_shm_map_flags), so the first timed loop of a program
 * is not slower than the next. Each process used to fault once per page of
 * its two rings (about 130 times for 256 KiB rings) inside the first 20,000
 * round trips; a few faults remain for the program's own first touches. Ranks
 * 0 and 1 ping-pong 0- and 64-byte messages; the others wait. Checks rdmx's
 * shared-memory mapping, so the peers are not run (only=rdmx). */
#include "rxtest.h"

#include <sys/resource.h>

enum { ROUNDS = 20000, MAX_FAULTS = 48 };

static long faults(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt + u.ru_majflt;
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "p2p_first_touch");
    char buf[64] = {0};
    int peer = rxt_rank == 0 ? 1 : 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rxt_size >= 2 && rxt_rank < 2) {
        /* one message each way first: whatever the library sets up on first use */
        for (int i = 0; i < 2; i++) {
            if (rxt_rank == 0) {
                RXT_MPI(MPI_Send(buf, 0, MPI_CHAR, peer, 1, MPI_COMM_WORLD));
                RXT_MPI(MPI_Recv(buf, 0, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            } else {
                RXT_MPI(MPI_Recv(buf, 0, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                RXT_MPI(MPI_Send(buf, 0, MPI_CHAR, peer, 1, MPI_COMM_WORLD));
            }
        }
        long f0 = faults();
        for (int i = 0; i < ROUNDS; i++) {
            int n = i & 1 ? 64 : 0;
            if (rxt_rank == 0) {
                buf[0] = (char)i;
                RXT_MPI(MPI_Send(buf, n, MPI_CHAR, peer, 2, MPI_COMM_WORLD));
                RXT_MPI(MPI_Recv(buf, n, MPI_CHAR, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                RXT_CHECK(!n || buf[0] == (char)(i + 1), "round %d: answer %d", i, buf[0]);
            } else {
                RXT_MPI(MPI_Recv(buf, n, MPI_CHAR, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                RXT_CHECK(!n || buf[0] == (char)i, "round %d: got %d", i, buf[0]);
                buf[0] = (char)(i + 1);
                RXT_MPI(MPI_Send(buf, n, MPI_CHAR, peer, 2, MPI_COMM_WORLD));
            }
        }
        long f = faults() - f0;
        RXT_CHECK(f <= MAX_FAULTS, "%d round trips took %ld page faults (at most %d expected)",
                  ROUNDS, f, MAX_FAULTS);
    }
    return rxt_finish();
}
