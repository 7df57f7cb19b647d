/* SPDX-License-Identifier: MIT
 * A buffer of exactly the sum of count + MPI_BSEND_OVERHEAD over the messages
 * holds them all (MPI-4.1 §3.6.1), whatever their sizes: odd byte counts,
 * messages above the eager limit so that each stays in the buffer until the
 * neighbour takes it, then a 1-byte message in a 1 + MPI_BSEND_OVERHEAD
 * buffer (MPICH's pt2pt/scancel; rdmx charged each message a multiple of 16
 * bytes and refused both). */
#include "rxtest.h"

#include <stdlib.h>

static const int sizes[] = {40001, 50003, 60007, 1, 13};
enum { NMSG = sizeof sizes / sizeof *sizes };

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "bsend_exact");
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    /* MPICH 4.0.2 charges each message more than count + MPI_BSEND_OVERHEAD
     * (MPIR_Bsend_isend: "Insufficient space in Bsend buffer") */
    int slack = 0;
#ifdef MPICH_VERSION
    slack = 64;
#endif
    int total = 0;
    for (int i = 0; i < NMSG; i++)
        total += sizes[i] + MPI_BSEND_OVERHEAD + slack;
    char *attach = malloc(total), *msg = malloc(sizes[2]), *in = malloc(sizes[2]);
    RXT_CHECK(attach && msg && in, "out of memory");
    for (int round = 0; round < 3; round++) {
        RXT_MPI(MPI_Buffer_attach(attach, total));
        for (int i = 0; i < NMSG; i++) {
            for (int j = 0; j < sizes[i]; j++)
                msg[j] = (char)(rxt_rank * 31 + i * 7 + j + round);
            RXT_MPI(MPI_Bsend(msg, sizes[i], MPI_CHAR, right, i, MPI_COMM_WORLD));
        }
        for (int i = 0; i < NMSG; i++) {
            MPI_Status st;
            int n = -1, bad = 0;
            RXT_MPI(MPI_Recv(in, sizes[2], MPI_CHAR, left, i, MPI_COMM_WORLD, &st));
            RXT_MPI(MPI_Get_count(&st, MPI_CHAR, &n));
            for (int j = 0; j < n && !bad; j++)
                bad = in[j] != (char)(left * 31 + i * 7 + j + round);
            RXT_CHECK(n == sizes[i] && !bad, "round %d, message %d: %d bytes, data %s", round, i, n,
                      bad ? "wrong" : "right");
        }
        void *back;
        int size;
        RXT_MPI(MPI_Buffer_detach(&back, &size));
        RXT_CHECK(back == attach && size == total, "detach gave %p %d", back, size);
    }
    /* one byte in 1 + MPI_BSEND_OVERHEAD */
    RXT_MPI(MPI_Buffer_attach(attach, 1 + MPI_BSEND_OVERHEAD + slack));
    char one = (char)rxt_rank, got = -1;
    MPI_Request r;
    RXT_MPI(MPI_Ibsend(&one, 1, MPI_CHAR, right, 99, MPI_COMM_WORLD, &r));
    RXT_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    RXT_MPI(MPI_Recv(&got, 1, MPI_CHAR, left, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    RXT_CHECK(got == (char)left, "1-byte buffered message: %d", got);
    void *back;
    int size;
    RXT_MPI(MPI_Buffer_detach(&back, &size));
    free(attach);
    free(msg);
    free(in);
    return rxt_finish();
}
