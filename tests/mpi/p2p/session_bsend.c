/* SPDX-License-Identifier: MIT
 * MPI-4.1 session buffers for buffered sends (§3.6): a buffer attached to a
 * session serves the communicators derived from it (made from its process
 * set's group, and their duplicates) unless a communicator has its own;
 * flush, iflush, detach and their error classes (of a valid session); MPI_Session_finalize lets
 * go of a buffer still attached. Sessions only, never MPI_Init. Messages
 * are larger than the eager limit: each stays in its buffer until the
 * receiver takes it, so "the buffer is full" is a fact at 2 or more ranks. */
#include "rxtest.h"

enum { LEN = 16384, K = 3 };
#define SLOT ((int)(LEN * sizeof(int)) + MPI_BSEND_OVERHEAD)

static int rank, size, right, left;

static void fill(int *m, int k) { for (int i = 0; i < LEN; i++) m[i] = rank * 1000000 + k * LEN + i; }

static void recv_k(MPI_Comm c, int tag, int n, const char *what)
{
    int *in = malloc(sizeof(int) * LEN);
    for (int k = 0; k < n; k++) {
        RXT_MPI(MPI_Recv(in, LEN, MPI_INT, left, tag + k, c, MPI_STATUS_IGNORE));
        RXT_CHECK(in[0] == left * 1000000 + k * LEN && in[LEN - 1] == left * 1000000 + k * LEN + LEN - 1,
                  "%s: message %d starts %d", what, k, in[0]);
    }
    free(in);
}

static void send_k(MPI_Comm c, int tag, int n)
{
    int *m = malloc(sizeof(int) * LEN);
    for (int k = 0; k < n; k++) {
        fill(m, k);
        RXT_MPI(MPI_Bsend(m, LEN, MPI_INT, right, tag + k, c));
    }
    free(m);
}

static MPI_Comm comm_of(MPI_Session s, const char *tag)
{
    MPI_Group g;
    RXT_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    MPI_Comm c;
    RXT_MPI(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    RXT_MPI(MPI_Group_free(&g));
    return c;
}

/* (An invalid session handle is an error without an object, raised on the
 * initial error handler, MPI_ERRORS_ARE_FATAL: not checked here.) */
static void errors(MPI_Session s, MPI_Comm c)
{
    char small[64];
    int one = 1;
    RXT_EXPECT_CLASS(MPI_ERR_BUFFER, MPI_Bsend(&one, 1, MPI_INT, right, 1, c));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Session_attach_buffer(s, small, -1));
    RXT_EXPECT_CLASS(MPI_ERR_BUFFER, MPI_Session_attach_buffer(s, NULL, 64));
    RXT_MPI(MPI_Session_attach_buffer(s, small, 64));
    RXT_EXPECT_CLASS(MPI_ERR_BUFFER, MPI_Session_attach_buffer_c(s, small, 64));
    void *addr = NULL;
    int n = -1;
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Session_detach_buffer(s, &addr, NULL));
    RXT_MPI(MPI_Session_detach_buffer(s, &addr, &n));
    RXT_CHECK(addr == small && n == 64, "detach: %p %d", addr, n);
    RXT_MPI(MPI_Session_detach_buffer(s, &addr, &n));
    RXT_CHECK(addr == NULL && n == 0, "detach without a buffer: %p %d", addr, n);
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Session_iflush_buffer(s, NULL));
    MPI_Count big = (MPI_Count)INT32_MAX + 1, bn = 0;
    RXT_MPI(MPI_Session_attach_buffer_c(s, small, big));
    RXT_EXPECT_CLASS(MPI_ERR_COUNT, MPI_Session_detach_buffer(s, &addr, &n));
    RXT_MPI(MPI_Session_detach_buffer_c(s, &addr, &bn));
    RXT_CHECK(addr == small && bn == big, "detach_c: %p %lld", addr, (long long)bn);
}

int main(void)
{
    rxt_arm_watchdog();
    rxt_name = "session_bsend";
    MPI_Session s;
    RXT_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    MPI_Comm c = comm_of(s, "org.rdmx.session_bsend.a"), other = MPI_COMM_NULL;
    RXT_MPI(MPI_Comm_rank(c, &rank));
    RXT_MPI(MPI_Comm_size(c, &size));
    rxt_rank = rank;
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    errors(s, c);

    /* the session's buffer serves c and its duplicate, K messages in all */
    char *sbuf = malloc((size_t)K * SLOT), *cbuf = malloc(SLOT);
    RXT_MPI(MPI_Session_attach_buffer(s, sbuf, K * SLOT));
    MPI_Comm d;
    RXT_MPI(MPI_Comm_dup(c, &d));
    send_k(c, 10, K - 1);
    send_k(d, 20, 1);
    if (size > 1) {
        int *m = calloc(LEN, sizeof(int));
        RXT_EXPECT_CLASS(MPI_ERR_BUFFER, MPI_Bsend(m, LEN, MPI_INT, right, 29, d));
        /* a communicator's own buffer comes first */
        RXT_MPI(MPI_Comm_attach_buffer(d, cbuf, SLOT));
        fill(m, 0);
        RXT_MPI(MPI_Bsend(m, LEN, MPI_INT, right, 21, d));
        free(m);
    }
    MPI_Request r;
    RXT_MPI(MPI_Session_iflush_buffer(s, &r));
    int flag = -1;
    RXT_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
    if (size > 1)
        RXT_CHECK(flag == 0, "session iflush complete before the messages were received");
    RXT_MPI(MPI_Barrier(c));
    recv_k(c, 10, K - 1, "session buffer");
    recv_k(d, 20, 1, "session buffer, duplicate");
    if (size > 1) {
        recv_k(d, 21, 1, "communicator buffer");
        RXT_MPI(MPI_Comm_flush_buffer(d));
        void *addr;
        int n;
        RXT_MPI(MPI_Comm_detach_buffer(d, &addr, &n));
        RXT_CHECK(addr == cbuf && n == SLOT, "comm detach %p %d", addr, n);
    }
    if (!flag)
        RXT_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    /* flushed: the buffer takes K messages again */
    send_k(c, 30, K);
    recv_k(c, 30, K, "after iflush");
    RXT_MPI(MPI_Session_flush_buffer(s));
    void *addr;
    int n;
    RXT_MPI(MPI_Session_detach_buffer(s, &addr, &n));
    RXT_CHECK(addr == sbuf && n == K * SLOT, "session detach %p %d", addr, n);

    /* another session's communicators do not see this session's buffer */
    MPI_Session s2;
    RXT_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s2));
    other = comm_of(s2, "org.rdmx.session_bsend.b");
    RXT_MPI(MPI_Session_attach_buffer(s, MPI_BUFFER_AUTOMATIC, 0));
    int one = 1;
    RXT_EXPECT_CLASS(MPI_ERR_BUFFER, MPI_Bsend(&one, 1, MPI_INT, right, 40, other));
    send_k(c, 41, K + 2); /* automatic: no limit */
    recv_k(c, 41, K + 2, "automatic session buffer");
    /* a group made from the session's group still derives from the session */
    MPI_Group g, rev;
    RXT_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    int *ranks = malloc(sizeof(int) * (size_t)size);
    for (int i = 0; i < size; i++)
        ranks[i] = size - 1 - i;
    RXT_MPI(MPI_Group_incl(g, size, ranks, &rev));
    free(ranks);
    MPI_Comm e;
    RXT_MPI(MPI_Comm_create_from_group(rev, "org.rdmx.session_bsend.c", MPI_INFO_NULL,
                                       MPI_ERRORS_RETURN, &e));
    RXT_MPI(MPI_Group_free(&rev));
    RXT_MPI(MPI_Group_free(&g));
    int er, eright, eleft;
    RXT_MPI(MPI_Comm_rank(e, &er));
    eright = (er + 1) % size;
    eleft = (er + size - 1) % size;
    int in = -1;
    RXT_MPI(MPI_Bsend(&rank, 1, MPI_INT, eright, 45, e));
    RXT_MPI(MPI_Recv(&in, 1, MPI_INT, eleft, 45, e, MPI_STATUS_IGNORE));
    RXT_CHECK(in == size - 1 - eleft, "group_incl communicator: got %d from %d", in, eleft);
    RXT_MPI(MPI_Comm_free(&e));

    int errs = 0;
    RXT_MPI(MPI_Allreduce(&rxt_errs, &errs, 1, MPI_INT, MPI_SUM, c));
    if (rank == 0)
        printf(errs ? " Found %d errors\n" : " No Errors\n", errs);
    fflush(stdout);
    RXT_MPI(MPI_Comm_free(&other));
    RXT_MPI(MPI_Comm_free(&d));
    RXT_MPI(MPI_Comm_free(&c));
    RXT_MPI(MPI_Session_finalize(&s2));
    RXT_MPI(MPI_Session_finalize(&s)); /* detaches the automatic buffer */
    free(sbuf);
    free(cbuf);
    return errs ? 1 : 0;
}
