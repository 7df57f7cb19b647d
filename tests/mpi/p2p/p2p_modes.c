/* SPDX-License-Identifier: MIT
 * Every send mode around a ring, at sizes below and above the eager limits:
 * MPI_Send, Isend, Ssend, Issend, Rsend and Irsend (to a receive posted beforehand:
 * the receiver says "ready" first), Bsend and Ibsend (the send buffer is overwritten
 * as soon as the call / its wait returns: the data must have been copied), and
 * MPI_Buffer_detach, which must wait until buffered messages have left the buffer
 * (it is scribbled over right after the detach returns). */
#include "rxtest.h"

enum { M_SEND, M_ISEND, M_SSEND, M_ISSEND, M_RSEND, M_IRSEND, M_BSEND, M_IBSEND, M_COUNT };
static const char *mode_name[M_COUNT] = { "MPI_Send",  "MPI_Isend",  "MPI_Ssend", "MPI_Issend",
                                          "MPI_Rsend", "MPI_Irsend", "MPI_Bsend", "MPI_Ibsend" };
static const int sizes[] = { 0, 1, 1000, 40000, 1 << 20 };
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))
#define MAXSIZE (1 << 20)
#define TAG_READY 100

static int left, right;

static uint64_t seed_of(int mode, int size, int from)
{
    return ((uint64_t)mode << 40) ^ ((uint64_t)size << 8) ^ (uint64_t)from;
}

static void one_transfer(int mode, int size, unsigned char *sbuf, unsigned char *rbuf)
{
    MPI_Request rr, sr = MPI_REQUEST_NULL, ready;
    MPI_Status st;
    rxt_fill(sbuf, (size_t)size, seed_of(mode, size, rxt_rank));
    memset(rbuf, 0xA5, (size_t)size + 16);
    RXT_MPI(MPI_Irecv(rbuf, size, MPI_BYTE, left, mode, MPI_COMM_WORLD, &rr));
    if (mode == M_RSEND || mode == M_IRSEND) {
        /* Ready mode is only legal once the receive is posted: tell the sender. */
        RXT_MPI(MPI_Isend(NULL, 0, MPI_BYTE, left, TAG_READY, MPI_COMM_WORLD, &ready));
        RXT_MPI(MPI_Recv(NULL, 0, MPI_BYTE, right, TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        RXT_MPI(MPI_Wait(&ready, MPI_STATUS_IGNORE));
    }
    switch (mode) {
    case M_SEND: RXT_MPI(MPI_Send(sbuf, size, MPI_BYTE, right, mode, MPI_COMM_WORLD)); break;
    case M_SSEND: RXT_MPI(MPI_Ssend(sbuf, size, MPI_BYTE, right, mode, MPI_COMM_WORLD)); break;
    case M_RSEND: RXT_MPI(MPI_Rsend(sbuf, size, MPI_BYTE, right, mode, MPI_COMM_WORLD)); break;
    case M_BSEND: RXT_MPI(MPI_Bsend(sbuf, size, MPI_BYTE, right, mode, MPI_COMM_WORLD)); break;
    case M_ISEND: RXT_MPI(MPI_Isend(sbuf, size, MPI_BYTE, right, mode, MPI_COMM_WORLD, &sr)); break;
    case M_ISSEND:
        RXT_MPI(MPI_Issend(sbuf, size, MPI_BYTE, right, mode, MPI_COMM_WORLD, &sr));
        break;
    case M_IRSEND:
        RXT_MPI(MPI_Irsend(sbuf, size, MPI_BYTE, right, mode, MPI_COMM_WORLD, &sr));
        break;
    case M_IBSEND:
        RXT_MPI(MPI_Ibsend(sbuf, size, MPI_BYTE, right, mode, MPI_COMM_WORLD, &sr));
        break;
    }
    RXT_MPI(MPI_Wait(&sr, MPI_STATUS_IGNORE));
    RXT_CHECK(sr == MPI_REQUEST_NULL, "%s: request not MPI_REQUEST_NULL after MPI_Wait",
              mode_name[mode]);
    /* The send buffer is the user's again: the message must not change with it. */
    memset(sbuf, 0x5A, (size_t)size);
    RXT_MPI(MPI_Wait(&rr, &st));
    int count = -1;
    MPI_Get_count(&st, MPI_BYTE, &count);
    RXT_CHECK(st.MPI_SOURCE == left && st.MPI_TAG == mode && count == size,
              "%s %d B: status source %d tag %d count %d", mode_name[mode], size, st.MPI_SOURCE,
              st.MPI_TAG, count);
    long bad = rxt_verify(rbuf, (size_t)size, seed_of(mode, size, left));
    RXT_CHECK(bad < 0, "%s %d B: byte %ld differs", mode_name[mode], size, bad);
    for (int i = 0; i < 16; i++)
        RXT_CHECK(rbuf[size + i] == 0xA5, "%s %d B: wrote past the message", mode_name[mode],
                  size);
}

/* Buffered sends still in flight when MPI_Buffer_detach is called: detach returns
 * the buffer only after the messages have left it. The receives are posted late
 * (after a sleep) and before the detach, so rendezvous-sized messages can finish. */
static void check_detach(void)
{
    enum { K = 4 };
    static const int ksz[K] = { 8, 3000, 65536, 300000 };
    int total = 0;
    for (int k = 0; k < K; k++)
        total += ksz[k] + MPI_BSEND_OVERHEAD;
    unsigned char *bbuf = malloc((size_t)total), *s = malloc(300000), *r[K];
    RXT_MPI(MPI_Buffer_attach(bbuf, total));
    for (int k = 0; k < K; k++) {
        rxt_fill(s, (size_t)ksz[k], 7000 + (uint64_t)k * 100 + (uint64_t)rxt_rank);
        RXT_MPI(MPI_Bsend(s, ksz[k], MPI_BYTE, right, 50 + k, MPI_COMM_WORLD));
    }
    memset(s, 0, 300000);
    rxt_sleep_ms(50);
    MPI_Request rq[K];
    for (int k = 0; k < K; k++) {
        r[k] = malloc((size_t)ksz[k]);
        RXT_MPI(MPI_Irecv(r[k], ksz[k], MPI_BYTE, left, 50 + k, MPI_COMM_WORLD, &rq[k]));
    }
    void *addr = NULL;
    int size = -1;
    RXT_MPI(MPI_Buffer_detach(&addr, &size));
    RXT_CHECK(addr == bbuf && size == total, "MPI_Buffer_detach gave %p/%d, attached %p/%d", addr,
              size, (void *)bbuf, total);
    memset(bbuf, 0xEE, (size_t)total);
    RXT_MPI(MPI_Waitall(K, rq, MPI_STATUSES_IGNORE));
    for (int k = 0; k < K; k++) {
        long bad = rxt_verify(r[k], (size_t)ksz[k], 7000 + (uint64_t)k * 100 + (uint64_t)left);
        RXT_CHECK(bad < 0, "buffered message %d (%d B) detached too early: byte %ld differs", k,
                  ksz[k], bad);
        free(r[k]);
    }
    free(bbuf);
    free(s);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "p2p_modes");
    rxt_need_ranks(2);
    right = (rxt_rank + 1) % rxt_size;
    left = (rxt_rank + rxt_size - 1) % rxt_size;
    unsigned char *sbuf = malloc(MAXSIZE), *rbuf = malloc(MAXSIZE + 16);
    /* Room for every buffered message of the loop: one that has not left the buffer
     * yet still occupies it when the next Bsend comes (the user sizes the buffer). */
    int bsize = 0;
    for (int i = 0; i < NSIZES; i++)
        bsize += 2 * (sizes[i] + MPI_BSEND_OVERHEAD);
    void *battach = malloc((size_t)bsize);
    RXT_MPI(MPI_Buffer_attach(battach, bsize));
    for (int m = 0; m < M_COUNT; m++)
        for (int i = 0; i < NSIZES; i++)
            one_transfer(m, sizes[i], sbuf, rbuf);
    void *a;
    int asz;
    RXT_MPI(MPI_Buffer_detach(&a, &asz));
    RXT_CHECK(a == battach && asz == bsize, "first detach gave %p/%d", a, asz);
    free(battach);
    check_detach();
    free(sbuf);
    free(rbuf);
    return rxt_finish();
}
