/* SPDX-License-Identifier: MIT
 * MPI-4.1 buffers for buffered sends (§3.6): a communicator's own buffer
 * (MPI_Comm_attach_buffer and its _c form, detach, flush, iflush) serves the
 * buffered sends on that communicator only, the process buffer the others;
 * MPI_BUFFER_AUTOMATIC for both; the error classes. Messages are larger than
 * the eager limit, so that each stays in its buffer until the receiver
 * takes it: at 2 or more ranks "the buffer is full" and "the flush is not
 * done yet" are then facts the test can check, not races. */
#include "rxtest.h"

enum { LEN = 16384, K = 4 }; /* 64 KiB messages */
#define MSG_BYTES ((int)(LEN * sizeof(int)))
#define SLOT (MSG_BYTES + MPI_BSEND_OVERHEAD)

static int right, left, pending_ok; /* pending_ok: a message to right stays pending */

static void fill(int *m, int k) { for (int i = 0; i < LEN; i++) m[i] = rxt_rank * 1000000 + k * LEN + i; }

static void expect_from_left(const int *m, int k, const char *what)
{
    RXT_CHECK(m[0] == left * 1000000 + k * LEN && m[LEN - 1] == left * 1000000 + k * LEN + LEN - 1,
              "%s: message %d starts %d", what, k, m[0]);
}

static void recv_k(MPI_Comm c, int tag, const char *what)
{
    int *in = malloc(sizeof(int) * LEN);
    for (int k = 0; k < K; k++) {
        RXT_MPI(MPI_Recv(in, LEN, MPI_INT, left, tag + k, c, MPI_STATUS_IGNORE));
        expect_from_left(in, k, what);
    }
    free(in);
}

static void errors(void)
{
    char small[64];
    int one = 1;
    RXT_EXPECT_CLASS(MPI_ERR_BUFFER, MPI_Bsend(&one, 1, MPI_INT, right, 1, MPI_COMM_WORLD));
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Comm_attach_buffer(MPI_COMM_NULL, small, 64));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Comm_attach_buffer(MPI_COMM_WORLD, small, -1));
    RXT_EXPECT_CLASS(MPI_ERR_BUFFER, MPI_Comm_attach_buffer(MPI_COMM_WORLD, NULL, 64));
    RXT_MPI(MPI_Comm_attach_buffer(MPI_COMM_WORLD, small, 64));
    RXT_EXPECT_CLASS(MPI_ERR_BUFFER, MPI_Comm_attach_buffer(MPI_COMM_WORLD, small, 64));
    RXT_EXPECT_CLASS(MPI_ERR_BUFFER, MPI_Comm_attach_buffer_c(MPI_COMM_WORLD, MPI_BUFFER_AUTOMATIC, 0));
    /* a message larger than the buffer */
    int *m = calloc(LEN, sizeof(int));
    RXT_EXPECT_CLASS(MPI_ERR_BUFFER, MPI_Bsend(m, LEN, MPI_INT, right, 1, MPI_COMM_WORLD));
    free(m);
    void *addr = NULL;
    int size = -1;
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Comm_detach_buffer(MPI_COMM_WORLD, &addr, NULL));
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Comm_detach_buffer(MPI_COMM_NULL, &addr, &size));
    RXT_MPI(MPI_Comm_detach_buffer(MPI_COMM_WORLD, &addr, &size));
    RXT_CHECK(addr == small && size == 64, "detached %p %d, attached %p 64", addr, size,
              (void *)small);
    /* nothing attached: a NULL buffer of size 0 */
    addr = small;
    RXT_MPI(MPI_Comm_detach_buffer(MPI_COMM_WORLD, &addr, &size));
    RXT_CHECK(addr == NULL && size == 0, "detach without a buffer: %p %d", addr, size);
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Comm_flush_buffer(MPI_COMM_NULL));
    MPI_Request r;
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Comm_iflush_buffer(MPI_COMM_NULL, &r));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Comm_iflush_buffer(MPI_COMM_WORLD, NULL));
    RXT_MPI(MPI_Comm_flush_buffer(MPI_COMM_WORLD)); /* none attached: nothing to wait for */
    /* a buffer larger than an int: the int detach refuses it, the _c one returns it (no
     * message is sent, so its memory is never touched) */
    MPI_Count big = (MPI_Count)INT32_MAX + 1, bsize = 0;
    RXT_MPI(MPI_Comm_attach_buffer_c(MPI_COMM_WORLD, small, big));
    RXT_EXPECT_CLASS(MPI_ERR_COUNT, MPI_Comm_detach_buffer(MPI_COMM_WORLD, &addr, &size));
    RXT_MPI(MPI_Comm_detach_buffer_c(MPI_COMM_WORLD, &addr, &bsize));
    RXT_CHECK(addr == small && bsize == big, "detach_c: %p %lld", addr, (long long)bsize);
}

/* K messages on c's own buffer while the process buffer holds one message. */
static void comm_buffer_first(void)
{
    MPI_Comm c, d;
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    RXT_MPI(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
    RXT_MPI(MPI_Comm_set_errhandler(d, MPI_ERRORS_RETURN));
    char *pbuf = malloc(SLOT), *cbuf = malloc((size_t)K * SLOT);
    RXT_MPI(MPI_Buffer_attach(pbuf, SLOT));
    RXT_MPI(MPI_Comm_attach_buffer(c, cbuf, K * SLOT));
    int *m = malloc(sizeof(int) * LEN * (K + 2));
    for (int k = 0; k < K; k++) {
        fill(m + k * LEN, k);
        RXT_MPI(MPI_Bsend(m + k * LEN, LEN, MPI_INT, right, 10 + k, c));
    }
    /* c's buffer is full now; another communicator uses the process buffer */
    fill(m + K * LEN, 0);
    RXT_MPI(MPI_Bsend(m + K * LEN, LEN, MPI_INT, right, 20, d));
    if (pending_ok) {
        RXT_EXPECT_CLASS(MPI_ERR_BUFFER, MPI_Bsend(m, LEN, MPI_INT, right, 21, c));
        RXT_EXPECT_CLASS(MPI_ERR_BUFFER, MPI_Bsend(m, LEN, MPI_INT, right, 21, d));
    }
    /* a duplicate of c does not share c's buffer: it has the process buffer */
    MPI_Comm cc;
    RXT_MPI(MPI_Comm_dup(c, &cc));
    if (pending_ok)
        RXT_EXPECT_CLASS(MPI_ERR_BUFFER, MPI_Bsend(m, LEN, MPI_INT, right, 22, cc));
    RXT_MPI(MPI_Comm_free(&cc));
    /* the copies went out from the buffers: the program may change its data */
    memset(m, 0, sizeof(int) * LEN * (K + 1));
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* every rank checked before any receives */
    recv_k(c, 10, "communicator buffer");
    int *in = malloc(sizeof(int) * LEN);
    RXT_MPI(MPI_Recv(in, LEN, MPI_INT, left, 20, d, MPI_STATUS_IGNORE));
    expect_from_left(in, 0, "process buffer");
    RXT_MPI(MPI_Comm_flush_buffer(c));
    void *addr;
    int size;
    RXT_MPI(MPI_Comm_detach_buffer(c, &addr, &size));
    RXT_CHECK(addr == cbuf && size == K * SLOT, "comm detach: %p %d", addr, size);
    RXT_MPI(MPI_Buffer_detach(&addr, &size));
    RXT_CHECK(addr == pbuf && size == SLOT, "process detach: %p %d", addr, size);
    free(in);
    free(m);
    free(pbuf);
    free(cbuf);
    RXT_MPI(MPI_Comm_free(&c));
    RXT_MPI(MPI_Comm_free(&d));
}

/* The iflush request completes only once the receiver took every message. */
static void iflush(void)
{
    MPI_Comm c;
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    char *cbuf = malloc((size_t)K * SLOT);
    RXT_MPI(MPI_Comm_attach_buffer_c(c, cbuf, (MPI_Count)K * SLOT));
    int *m = malloc(sizeof(int) * LEN);
    for (int k = 0; k < K; k++) {
        fill(m, k);
        RXT_MPI(MPI_Bsend(m, LEN, MPI_INT, right, 30 + k, c));
    }
    MPI_Request r;
    RXT_MPI(MPI_Comm_iflush_buffer(c, &r));
    int flag = -1;
    RXT_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
    if (pending_ok)
        RXT_CHECK(flag == 0, "iflush complete before the messages were received");
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* every rank tested before any receives */
    recv_k(c, 30, "iflush");
    if (!flag)
        RXT_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    /* flushed: the whole buffer takes K messages again */
    for (int k = 0; k < K; k++) {
        fill(m, k);
        RXT_MPI(MPI_Bsend(m, LEN, MPI_INT, right, 40 + k, c));
    }
    recv_k(c, 40, "after iflush");
    void *addr;
    MPI_Count size;
    RXT_MPI(MPI_Comm_detach_buffer_c(c, &addr, &size));
    RXT_CHECK(addr == cbuf && size == (MPI_Count)K * SLOT, "detach_c: %p %lld", addr,
              (long long)size);
    free(m);
    free(cbuf);
    RXT_MPI(MPI_Comm_free(&c));
}

/* MPI_BUFFER_AUTOMATIC: any number of messages at once, for a communicator
 * and for the process. */
static void automatic(void)
{
    enum { N = 12 };
    MPI_Comm c;
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    RXT_MPI(MPI_Comm_attach_buffer(c, MPI_BUFFER_AUTOMATIC, 0));
    RXT_MPI(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, -5)); /* the size is ignored */
    int *m = malloc(sizeof(int) * LEN);
    for (int k = 0; k < N; k++) {
        fill(m, k % K);
        RXT_MPI(MPI_Bsend(m, LEN, MPI_INT, right, 50 + k, c));
        MPI_Request r;
        RXT_MPI(MPI_Ibsend(m, LEN, MPI_INT, right, 50 + k, MPI_COMM_WORLD, &r));
        RXT_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
    memset(m, 0, sizeof(int) * LEN);
    for (int k = 0; k < N; k++) {
        RXT_MPI(MPI_Recv(m, LEN, MPI_INT, left, 50 + k, c, MPI_STATUS_IGNORE));
        expect_from_left(m, k % K, "automatic communicator buffer");
        RXT_MPI(MPI_Recv(m, LEN, MPI_INT, left, 50 + k, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        expect_from_left(m, k % K, "automatic process buffer");
    }
    void *addr = NULL;
    int size = -1;
    RXT_MPI(MPI_Comm_detach_buffer(c, &addr, &size));
    RXT_CHECK(addr == MPI_BUFFER_AUTOMATIC, "comm detach gave %p, not MPI_BUFFER_AUTOMATIC", addr);
    RXT_MPI(MPI_Buffer_detach(&addr, &size));
    RXT_CHECK(addr == MPI_BUFFER_AUTOMATIC, "process detach gave %p", addr);
    /* a communicator freed with its buffer attached: the buffer goes with it */
    RXT_MPI(MPI_Comm_attach_buffer(c, MPI_BUFFER_AUTOMATIC, 0));
    fill(m, 1);
    RXT_MPI(MPI_Bsend(m, LEN, MPI_INT, right, 70, c));
    RXT_MPI(MPI_Recv(m, LEN, MPI_INT, left, 70, c, MPI_STATUS_IGNORE));
    expect_from_left(m, 1, "before free");
    RXT_MPI(MPI_Comm_free(&c));
    free(m);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "bsend_buffers");
    RXT_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    right = (rxt_rank + 1) % rxt_size;
    left = (rxt_rank + rxt_size - 1) % rxt_size;
    pending_ok = rxt_size > 1;
    errors();
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    comm_buffer_first();
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    iflush();
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    automatic();
    return rxt_finish();
}
