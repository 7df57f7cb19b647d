/* SPDX-License-Identifier: MIT
 * MPI_Probe and MPI_Iprobe: with MPI_ANY_SOURCE / MPI_ANY_TAG, the status names a
 * message (source, tag, count) that the following receive with exactly that source
 * and tag then gets; Iprobe says "nothing" when nothing can be there; probing
 * MPI_PROC_NULL returns at once with the empty PROC_NULL status. Rank 0 is the
 * receiver; every other rank sends messages of several sizes and tags. */
#include "rxtest.h"

enum { PER = 12 };

static int msg_size(int src, int i) { return (i * 977 + src * 131) % (i % 3 == 2 ? 90000 : 300); }
static int msg_tag(int src, int i) { return (i * 7 + src) % 5; }
static uint64_t msg_seed(int src, int i) { return (uint64_t)src * 1000 + (uint64_t)i; }

static void receiver(MPI_Comm comm)
{
    int nsend = rxt_size - 1, total = nsend * PER;
    int *next = calloc((size_t)rxt_size, sizeof(int));
    unsigned char *buf = malloc(100000);
    for (int m = 0; m < total; m++) {
        MPI_Status st;
        int flag = 0, cnt = -1;
        if (m % 2) {
            RXT_MPI(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &st));
        } else {
            do
                RXT_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, &st));
            while (!flag);
        }
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        int s = st.MPI_SOURCE;
        if (s < 1 || s >= rxt_size || next[s] >= PER)
            RXT_FATAL("probe reported source %d", s);
        /* Per-source order: the probed message is that source's next one. */
        int i = next[s];
        RXT_CHECK(st.MPI_TAG == msg_tag(s, i) && cnt == msg_size(s, i),
                  "probe of source %d message %d: tag %d count %d, want %d %d", s, i, st.MPI_TAG,
                  cnt, msg_tag(s, i), msg_size(s, i));
        /* Probing again with the exact source and tag finds the same message. */
        MPI_Status st2;
        RXT_MPI(MPI_Probe(s, st.MPI_TAG, comm, &st2));
        int cnt2 = -1;
        MPI_Get_count(&st2, MPI_BYTE, &cnt2);
        RXT_CHECK(st2.MPI_SOURCE == s && st2.MPI_TAG == st.MPI_TAG && cnt2 == cnt,
                  "second probe differs: %d %d %d vs %d %d %d", st2.MPI_SOURCE, st2.MPI_TAG,
                  cnt2, s, st.MPI_TAG, cnt);
        if (cnt < 0 || cnt > 100000)
            RXT_FATAL("probe count %d", cnt);
        RXT_MPI(MPI_Recv(buf, cnt, MPI_BYTE, s, st.MPI_TAG, comm, &st2));
        long bad = rxt_verify(buf, (size_t)cnt, msg_seed(s, i));
        RXT_CHECK(bad < 0, "message %d of %d (%d B) received after probe: byte %ld differs", i, s,
                  cnt, bad);
        next[s]++;
    }
    free(next);
    free(buf);
}

static void sender(MPI_Comm comm)
{
    unsigned char *buf = malloc(100000);
    for (int i = 0; i < PER; i++) {
        int n = msg_size(rxt_rank, i);
        rxt_fill(buf, (size_t)n, msg_seed(rxt_rank, i));
        RXT_MPI(MPI_Send(buf, n, MPI_BYTE, 0, msg_tag(rxt_rank, i), comm));
    }
    free(buf);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "p2p_probe");
    MPI_Comm comm;
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));

    /* Nothing has been sent on this new communicator: Iprobe must say so. */
    int flag = -1;
    MPI_Status st;
    RXT_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, &st));
    RXT_CHECK(flag == 0, "Iprobe on a fresh communicator found a message from %d", st.MPI_SOURCE);

    /* MPI_PROC_NULL: at once, source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0. */
    int cnt = -1;
    RXT_MPI(MPI_Probe(MPI_PROC_NULL, 3, comm, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    RXT_CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && cnt == 0,
              "Probe(MPI_PROC_NULL): source %d tag %d count %d", st.MPI_SOURCE, st.MPI_TAG, cnt);
    flag = 0;
    RXT_MPI(MPI_Iprobe(MPI_PROC_NULL, MPI_ANY_TAG, comm, &flag, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    RXT_CHECK(flag && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && cnt == 0,
              "Iprobe(MPI_PROC_NULL): flag %d source %d tag %d count %d", flag, st.MPI_SOURCE,
              st.MPI_TAG, cnt);

    /* A message to oneself is visible to Iprobe (after it has been sent) and stays
     * until received; a probe for another tag does not see it. */
    int v = 5, w = 0;
    MPI_Request r;
    RXT_MPI(MPI_Isend(&v, 1, MPI_INT, rxt_rank, 40, comm, &r));
    RXT_MPI(MPI_Probe(rxt_rank, 40, comm, &st));
    RXT_MPI(MPI_Iprobe(rxt_rank, 41, comm, &flag, &st));
    RXT_CHECK(flag == 0, "Iprobe for tag 41 matched the tag-40 self message");
    RXT_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, &st));
    RXT_CHECK(flag && st.MPI_SOURCE == rxt_rank && st.MPI_TAG == 40,
              "Iprobe after Probe: flag %d source %d tag %d", flag, st.MPI_SOURCE, st.MPI_TAG);
    RXT_MPI(MPI_Recv(&w, 1, MPI_INT, rxt_rank, 40, comm, MPI_STATUS_IGNORE));
    RXT_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    RXT_CHECK(w == 5, "self message after probe: %d", w);

    RXT_MPI(MPI_Barrier(comm));
    if (rxt_rank == 0)
        receiver(comm);
    else
        sender(comm);
    MPI_Comm_free(&comm);
    return rxt_finish();
}
