/* SPDX-License-Identifier: MIT
 * Synchronous mode completes only when the receive has been matched.
 *   - MPI_Issend: rank 0 tests its request many times while rank 1 cannot have
 *     posted the receive (rank 1 posts it only after a "go" message on another tag,
 *     sent by rank 0 after its tests): every Test must say "not complete". Eager and
 *     rendezvous sizes both.
 *   - MPI_Ssend (blocking): rank 1 sleeps 300 ms after the "go" before receiving;
 *     the Ssend must take at least ~200 ms.
 *   - Issend to oneself stays incomplete until the self receive is posted.
 * Pairs (0,1), (2,3), ... run this; an odd last rank only does the self part. */
#include "rxtest.h"

enum { TAG_DATA = 1, TAG_GO = 2 };
static const int sizes[] = { 0, 8, 5000, 100000, 1 << 20 };

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "p2p_ssend");
    unsigned char *buf = malloc(1 << 20);
    int flag = -1;
    MPI_Request r;

    /* Self: incomplete until the receive exists. */
    for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int n = sizes[i];
        rxt_fill(buf, (size_t)n, (uint64_t)n);
        RXT_MPI(MPI_Issend(buf, n, MPI_BYTE, 0, TAG_DATA, MPI_COMM_SELF, &r));
        for (int t = 0; t < 100; t++) {
            RXT_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
            RXT_CHECK(flag == 0, "self Issend of %d B complete before the receive (test %d)", n, t);
            if (flag)
                break;
        }
        unsigned char *in = malloc((size_t)n + 1);
        RXT_MPI(MPI_Recv(in, n, MPI_BYTE, 0, TAG_DATA, MPI_COMM_SELF, MPI_STATUS_IGNORE));
        if (!flag)
            RXT_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        RXT_CHECK(rxt_verify(in, (size_t)n, (uint64_t)n) < 0, "self Issend %d B: data differs", n);
        free(in);
    }

    int peer = rxt_rank ^ 1;
    if (peer < rxt_size) {
        for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            int n = sizes[i];
            if (rxt_rank % 2 == 0) {
                rxt_fill(buf, (size_t)n, 77 + (uint64_t)n);
                RXT_MPI(MPI_Issend(buf, n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &r));
                for (int t = 0; t < 200; t++) {
                    RXT_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
                    RXT_CHECK(flag == 0, "Issend of %d B complete before the receive was "
                                         "posted (test %d)", n, t);
                    if (flag)
                        break;
                    if (t % 20 == 0)
                        rxt_sleep_ms(1);
                }
                RXT_MPI(MPI_Send(NULL, 0, MPI_BYTE, peer, TAG_GO, MPI_COMM_WORLD));
                RXT_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
            } else {
                RXT_MPI(MPI_Recv(NULL, 0, MPI_BYTE, peer, TAG_GO, MPI_COMM_WORLD,
                                 MPI_STATUS_IGNORE));
                RXT_MPI(MPI_Recv(buf, n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD,
                                 MPI_STATUS_IGNORE));
                long bad = rxt_verify(buf, (size_t)n, 77 + (uint64_t)n);
                RXT_CHECK(bad < 0, "Issend %d B: byte %ld differs", n, bad);
            }
        }
        /* Blocking Ssend against a receiver that waits 300 ms after "go". */
        for (int n = 8; n <= (1 << 20); n += (1 << 20) - 8) {
            if (rxt_rank % 2 == 0) {
                RXT_MPI(MPI_Send(NULL, 0, MPI_BYTE, peer, TAG_GO, MPI_COMM_WORLD));
                double t0 = MPI_Wtime();
                RXT_MPI(MPI_Ssend(buf, n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD));
                double dt = MPI_Wtime() - t0;
                RXT_CHECK(dt >= 0.2, "Ssend of %d B returned after %.3f s, before the receiver "
                                     "(sleeping 0.3 s) posted its receive", n, dt);
            } else {
                RXT_MPI(MPI_Recv(NULL, 0, MPI_BYTE, peer, TAG_GO, MPI_COMM_WORLD,
                                 MPI_STATUS_IGNORE));
                rxt_sleep_ms(300);
                RXT_MPI(MPI_Recv(buf, n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD,
                                 MPI_STATUS_IGNORE));
            }
        }
    }
    free(buf);
    return rxt_finish();
}
