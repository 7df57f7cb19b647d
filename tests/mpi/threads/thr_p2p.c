/* SPDX-License-Identifier: MIT
 * Point-to-point from T threads at once, every byte checked. Thread t of
 * rank r sends to thread t of rank r+1 and receives from rank r-1 (ring),
 * with blocking, nonblocking and combined calls, at eager and rendezvous
 * sizes. Mode "sep": each thread on its own duplicate of MPI_COMM_WORLD;
 * "shared": all on MPI_COMM_WORLD, the thread told apart by the tag;
 * "anysrc": shared, receives with MPI_ANY_SOURCE (only the left neighbour
 * sends to a rank). */
#include "thrtest.h"

static const char *mode = "sep";
static MPI_Comm comms[THR_MAX];
static const size_t sizes[] = {0, 1, 8, 100, 4096, 20000, 100000, 600000};
#define NSIZES (sizeof sizes / sizeof sizes[0])
#define ROUNDS 6

static uint64_t seed_of(int src, int t, int round, int k) { return (uint64_t)src << 40 | (uint64_t)t << 32 | (uint64_t)round << 8 | (uint64_t)k; }

static void body(int t)
{
    MPI_Comm c = strcmp(mode, "sep") == 0 ? comms[t] : MPI_COMM_WORLD;
    int tag = strcmp(mode, "sep") == 0 ? 7 : t;
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    int src = strcmp(mode, "anysrc") == 0 ? MPI_ANY_SOURCE : left;
    size_t max = sizes[NSIZES - 1];
    unsigned char *sb = malloc(max), *rb = malloc(max);
    for (int round = 0; round < ROUNDS; round++) {
        for (size_t k = 0; k < NSIZES; k++) {
            size_t n = sizes[k];
            int kind = (round + (int)k) % 3;
            rxt_fill(sb, n, seed_of(rxt_rank, t, round, (int)k));
            memset(rb, 0xee, n);
            MPI_Status st;
            if (kind == 0) {
                MPI_Request rq[2];
                MPI_Irecv(rb, (int)n, MPI_BYTE, src, tag, c, &rq[0]);
                MPI_Isend(sb, (int)n, MPI_BYTE, right, tag, c, &rq[1]);
                MPI_Status sts[2];
                MPI_Waitall(2, rq, sts);
                st = sts[0];
            } else if (kind == 1) {
                MPI_Sendrecv(sb, (int)n, MPI_BYTE, right, tag, rb, (int)n, MPI_BYTE, src, tag, c,
                             &st);
            } else if (rxt_size == 1) {
                MPI_Request r;
                MPI_Isend(sb, (int)n, MPI_BYTE, right, tag, c, &r);
                MPI_Recv(rb, (int)n, MPI_BYTE, src, tag, c, &st);
                MPI_Wait(&r, MPI_STATUS_IGNORE);
            } else if (rxt_rank % 2 == 0) {
                MPI_Send(sb, (int)n, MPI_BYTE, right, tag, c);
                MPI_Recv(rb, (int)n, MPI_BYTE, src, tag, c, &st);
            } else {
                MPI_Request r;
                MPI_Irecv(rb, (int)n, MPI_BYTE, src, tag, c, &r);
                MPI_Send(sb, (int)n, MPI_BYTE, right, tag, c);
                MPI_Wait(&r, &st);
            }
            int cnt = -1;
            MPI_Get_count(&st, MPI_BYTE, &cnt);
            THR_CHECK(cnt == (int)n && st.MPI_SOURCE == left && st.MPI_TAG == tag,
                      "thread %d size %zu: count %d source %d tag %d", t, n, cnt, st.MPI_SOURCE,
                      st.MPI_TAG);
            long bad = rxt_verify(rb, n, seed_of(left, t, round, (int)k));
            THR_CHECK(bad < 0, "thread %d round %d size %zu: byte %ld differs", t, round, n, bad);
        }
    }
    free(sb);
    free(rb);
}

int main(int argc, char **argv)
{
    thr_init(&argc, &argv, "thr_p2p");
    if (argc > 2)
        mode = argv[2];
    for (int i = 0; i < thr_n; i++)
        RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comms[i]));
    thr_run(body);
    for (int i = 0; i < thr_n; i++)
        MPI_Comm_free(&comms[i]);
    return thr_finish();
}
