/* SPDX-License-Identifier: MIT
 * MPI-IO basics: open and close with each access mode, delete, sizes, group,
 * info, atomicity, handle conversion; explicit-offset and individual-pointer
 * reads and writes of contiguous data (seek, positions, byte offsets, short
 * reads at the end of the file); errors (missing file, existing file with
 * MPI_MODE_EXCL, bad access modes, writes to read-only files, reads of
 * write-only files) and file error handlers. */
#include "iotest.h"

static int handler_calls, handler_code;
static MPI_File handler_file;

static void on_file_error(MPI_File *fh, int *code, ...)
{
    handler_calls++;
    handler_code = *code;
    handler_file = *fh;
}

static void test_open_modes(void)
{
    const char *p = iot_path("modes");
    MPI_File fh;
    /* missing file, bad modes */
    int rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    RXT_CHECK(iot_class(rc) == MPI_ERR_NO_SUCH_FILE, "open of a missing file: class %d",
              iot_class(rc));
    RXT_CHECK(fh == MPI_FILE_NULL, "fh after a failed open");
    rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    RXT_CHECK(iot_class(rc) == MPI_ERR_AMODE, "RDONLY|WRONLY: class %d", iot_class(rc));
    rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
    RXT_CHECK(iot_class(rc) == MPI_ERR_AMODE, "no access mode: class %d", iot_class(rc));
    rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
    RXT_CHECK(iot_class(rc) == MPI_ERR_AMODE, "RDONLY|CREATE: class %d", iot_class(rc));
    rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL, MPI_INFO_NULL, &fh);
    RXT_CHECK(iot_class(rc) == MPI_ERR_AMODE, "RDWR|SEQUENTIAL: class %d", iot_class(rc));

    /* create, then EXCL on the existing file */
    RXT_MPI(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_EXCL,
                          MPI_INFO_NULL, &fh));
    int amode = 0;
    RXT_MPI(MPI_File_get_amode(fh, &amode));
    RXT_CHECK(amode == (MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_EXCL), "amode %#x", amode);
    MPI_Group g, wg;
    int cmp;
    RXT_MPI(MPI_File_get_group(fh, &g));
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_compare(g, wg, &cmp);
    RXT_CHECK(cmp == MPI_IDENT, "file group vs world group: %d", cmp);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    MPI_Fint f = MPI_File_c2f(fh);
    RXT_CHECK(MPI_File_f2c(f) == fh, "c2f / f2c round trip");
    RXT_MPI(MPI_File_close(&fh));
    RXT_CHECK(fh == MPI_FILE_NULL, "fh after close");
    rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_EXCL,
                       MPI_INFO_NULL, &fh);
    RXT_CHECK(iot_class(rc) == MPI_ERR_FILE_EXISTS, "EXCL on an existing file: class %d",
              iot_class(rc));

    /* read-only: writes refused; write-only: reads refused */
    int v = 7;
    MPI_Status st;
    RXT_MPI(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    rc = MPI_File_write_at(fh, 0, &v, 1, MPI_INT, &st);
    RXT_CHECK(iot_class(rc) == MPI_ERR_READ_ONLY || iot_class(rc) == MPI_ERR_ACCESS,
              "write to a read-only file: class %d", iot_class(rc));
    RXT_MPI(MPI_File_close(&fh));
    RXT_MPI(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
    rc = MPI_File_read_at(fh, 0, &v, 1, MPI_INT, &st);
    RXT_CHECK(iot_class(rc) == MPI_ERR_ACCESS, "read of a write-only file: class %d",
              iot_class(rc));
    RXT_MPI(MPI_File_close(&fh));

    /* delete: then it is missing */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rxt_rank == 0) {
        RXT_MPI(MPI_File_delete(p, MPI_INFO_NULL));
        rc = MPI_File_delete(p, MPI_INFO_NULL);
        RXT_CHECK(iot_class(rc) == MPI_ERR_NO_SUCH_FILE, "delete twice: class %d", iot_class(rc));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    struct stat sb;
    RXT_CHECK(stat(p, &sb) != 0, "file still there after MPI_File_delete");

    /* DELETE_ON_CLOSE */
    const char *q = iot_path("doc");
    RXT_MPI(MPI_File_open(MPI_COMM_WORLD, q,
                          MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE,
                          MPI_INFO_NULL, &fh));
    RXT_MPI(MPI_File_write_at(fh, rxt_rank, "x", 1, MPI_CHAR, &st));
    RXT_MPI(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    RXT_CHECK(stat(q, &sb) != 0, "DELETE_ON_CLOSE file still there");
}

static void test_sizes_info(void)
{
    const char *p = iot_path("sizes");
    MPI_File fh;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "access_style", "read_mostly");
    RXT_MPI(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, info, &fh));
    MPI_Info_free(&info);
    MPI_Offset sz = -1;
    RXT_MPI(MPI_File_get_size(fh, &sz));
    RXT_CHECK(sz == 0, "new file size %lld", (long long)sz);
    MPI_Barrier(MPI_COMM_WORLD); /* collective size calls need not wait for the others */
    RXT_MPI(MPI_File_set_size(fh, 1000));
    RXT_MPI(MPI_File_get_size(fh, &sz));
    RXT_CHECK(sz == 1000, "size after set_size(1000): %lld", (long long)sz);
    MPI_Barrier(MPI_COMM_WORLD); /* collective size calls need not wait for the others */
    RXT_MPI(MPI_File_set_size(fh, 10));
    RXT_MPI(MPI_File_get_size(fh, &sz));
    RXT_CHECK(sz == 10, "size after set_size(10): %lld", (long long)sz);
    MPI_Barrier(MPI_COMM_WORLD); /* collective size calls need not wait for the others */
    RXT_MPI(MPI_File_preallocate(fh, 4096));
    RXT_MPI(MPI_File_get_size(fh, &sz));
    RXT_CHECK(sz == 4096, "size after preallocate(4096): %lld", (long long)sz);
    MPI_Barrier(MPI_COMM_WORLD); /* collective size calls need not wait for the others */
    RXT_MPI(MPI_File_preallocate(fh, 100)); /* never shrinks */
    RXT_MPI(MPI_File_get_size(fh, &sz));
    RXT_CHECK(sz == 4096, "size after preallocate(100): %lld", (long long)sz);
    MPI_Barrier(MPI_COMM_WORLD); /* collective size calls need not wait for the others */
    MPI_Info used;
    RXT_MPI(MPI_File_get_info(fh, &used));
    RXT_CHECK(used != MPI_INFO_NULL, "get_info gave MPI_INFO_NULL");
    MPI_Info_free(&used);
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_nodes", "1");
    RXT_MPI(MPI_File_set_info(fh, info));
    MPI_Info_free(&info);
    int flag = -1;
    RXT_MPI(MPI_File_get_atomicity(fh, &flag));
    RXT_CHECK(flag == 0, "default atomicity %d", flag);
    RXT_MPI(MPI_File_set_atomicity(fh, 1));
    RXT_MPI(MPI_File_get_atomicity(fh, &flag));
    RXT_CHECK(flag == 1, "atomicity after set 1: %d", flag);
    RXT_MPI(MPI_File_sync(fh));
    RXT_MPI(MPI_File_close(&fh));
}

/* Explicit offsets and individual pointers, contiguous data. */
static void test_contig(void)
{
    const char *p = iot_path("contig");
    MPI_File fh;
    enum { N = 1000 };
    int out[N], in[N];
    MPI_Status st;
    int count;
    for (int i = 0; i < N; i++)
        out[i] = rxt_rank * N + i;
    RXT_MPI(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh));
    RXT_MPI(MPI_File_write_at(fh, (MPI_Offset)rxt_rank * N * sizeof(int), out, N, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &count);
    RXT_CHECK(count == N, "write_at count %d", count);
    RXT_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    RXT_MPI(MPI_File_sync(fh));
    /* read the next rank's block */
    int peer = (rxt_rank + 1) % rxt_size;
    memset(in, 0, sizeof in);
    RXT_MPI(MPI_File_read_at(fh, (MPI_Offset)peer * N * sizeof(int), in, N, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &count);
    RXT_CHECK(count == N, "read_at count %d", count);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += in[i] != peer * N + i;
    RXT_CHECK(!bad, "%d ints of rank %d's block differ", bad, peer);

    /* individual pointer: seek, read, position, byte offset */
    RXT_MPI(MPI_File_seek(fh, (MPI_Offset)peer * N * sizeof(int) + 40, MPI_SEEK_SET));
    RXT_MPI(MPI_File_read(fh, in, 10, MPI_INT, &st));
    RXT_CHECK(in[0] == peer * N + 10 && in[9] == peer * N + 19, "read after seek: %d %d", in[0],
              in[9]);
    MPI_Offset pos = -1, byte = -1;
    RXT_MPI(MPI_File_get_position(fh, &pos));
    RXT_CHECK(pos == (MPI_Offset)peer * N * 4 + 80, "position %lld", (long long)pos);
    RXT_MPI(MPI_File_seek(fh, -8, MPI_SEEK_CUR));
    RXT_MPI(MPI_File_read(fh, in, 1, MPI_INT, &st));
    RXT_CHECK(in[0] == peer * N + 18, "read after SEEK_CUR -8: %d", in[0]);
    RXT_MPI(MPI_File_get_byte_offset(fh, 12, &byte));
    RXT_CHECK(byte == 12, "byte offset of 12 in the default view: %lld", (long long)byte);
    RXT_MPI(MPI_File_seek(fh, -4, MPI_SEEK_END));
    RXT_MPI(MPI_File_read(fh, in, 1, MPI_INT, &st));
    RXT_CHECK(in[0] == (rxt_size - 1) * N + N - 1, "last int %d", in[0]);
    /* at the end of the file: a short read, then nothing */
    RXT_MPI(MPI_File_seek(fh, -8, MPI_SEEK_END));
    RXT_MPI(MPI_File_read(fh, in, 10, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &count);
    RXT_CHECK(count == 2, "short read count %d", count);
    RXT_MPI(MPI_File_read(fh, in, 10, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &count);
    RXT_CHECK(count == 0, "read at the end count %d", count);
    RXT_MPI(MPI_File_read_at(fh, (MPI_Offset)rxt_size * N * 4 + 100, in, 3, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &count);
    RXT_CHECK(count == 0, "read past the end count %d", count);
    /* individual pointers are per process: write through them collectively */
    MPI_Barrier(MPI_COMM_WORLD);
    RXT_MPI(MPI_File_seek(fh, (MPI_Offset)rxt_rank * N * sizeof(int), MPI_SEEK_SET));
    for (int i = 0; i < N; i++)
        out[i] = -(rxt_rank * N + i);
    RXT_MPI(MPI_File_write_all(fh, out, N / 2, MPI_INT, &st));
    RXT_MPI(MPI_File_write_all(fh, out + N / 2, N / 2, MPI_INT, &st));
    RXT_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    RXT_MPI(MPI_File_sync(fh));
    RXT_MPI(MPI_File_read_at_all(fh, (MPI_Offset)peer * N * sizeof(int), in, N, MPI_INT, &st));
    bad = 0;
    for (int i = 0; i < N; i++)
        bad += in[i] != -(peer * N + i);
    RXT_CHECK(!bad, "%d ints differ after write_all", bad);
    RXT_MPI(MPI_File_close(&fh));
    if (rxt_rank == 0) {
        static int whole[4 * N];
        long size = iot_slurp(p, whole, sizeof whole);
        RXT_CHECK(size == (long)(rxt_size * N * sizeof(int)), "file size %ld", size);
        bad = 0;
        for (int i = 0; i < rxt_size * N && i < 4 * N; i++)
            bad += whole[i] != -i;
        RXT_CHECK(!bad, "%d ints of the file differ", bad);
    }
}

/* MPI_MODE_SEQUENTIAL: shared-pointer access only */
static void test_sequential(void)
{
    const char *p = iot_path("seq");
    MPI_File fh;
    MPI_Status st;
    RXT_MPI(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_SEQUENTIAL,
                          MPI_INFO_NULL, &fh));
    int v = rxt_rank;
#ifndef OPEN_MPI /* Open MPI 4.1 (OMPIO) lets explicit offsets through under SEQUENTIAL */
    RXT_CHECK(MPI_File_write_at(fh, 0, &v, 1, MPI_INT, &st) != MPI_SUCCESS,
              "write_at under MPI_MODE_SEQUENTIAL succeeded");
#endif
    RXT_MPI(MPI_File_write_ordered(fh, &v, 1, MPI_INT, &st));
    RXT_MPI(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rxt_rank == 0) {
        int all[64];
        long size = iot_slurp(p, all, sizeof all);
        RXT_CHECK(size == (long)sizeof(int) * rxt_size, "sequential file size %ld", size);
        for (int r = 0; r < rxt_size && r < 64; r++)
            RXT_CHECK(all[r] == r, "sequential int %d: %d", r, all[r]);
    }
}

static void test_errhandlers(void)
{
    MPI_Errhandler eh, got;
    /* files start with MPI_ERRORS_RETURN, and MPI_FILE_NULL has it too */
    RXT_MPI(MPI_File_get_errhandler(MPI_FILE_NULL, &got));
    RXT_CHECK(got == MPI_ERRORS_RETURN, "MPI_FILE_NULL's handler is not MPI_ERRORS_RETURN");
    MPI_Errhandler_free(&got);
    RXT_MPI(MPI_File_create_errhandler(on_file_error, &eh));
    const char *p = iot_path("errh");
    MPI_File fh;
    RXT_MPI(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh));
    RXT_MPI(MPI_File_get_errhandler(fh, &got));
    RXT_CHECK(got == MPI_ERRORS_RETURN, "a new file's handler is not MPI_ERRORS_RETURN");
    MPI_Errhandler_free(&got);
    RXT_MPI(MPI_File_set_errhandler(fh, eh));
    RXT_MPI(MPI_File_call_errhandler(fh, MPI_ERR_IO));
    RXT_CHECK(handler_calls == 1 && handler_code == MPI_ERR_IO && handler_file == fh,
              "call_errhandler: calls %d code %d", handler_calls, handler_code);
    int v;
    MPI_Status st;
    int rc = MPI_File_read_at(fh, 0, &v, -1, MPI_INT, &st);
    RXT_CHECK(rc != MPI_SUCCESS && handler_calls == 2 && handler_file == fh,
              "negative count: rc %d, handler calls %d", rc, handler_calls);
    RXT_MPI(MPI_File_close(&fh));
    /* MPI_File_open's errors go to MPI_FILE_NULL's handler */
    RXT_MPI(MPI_File_set_errhandler(MPI_FILE_NULL, eh));
    rc = MPI_File_open(MPI_COMM_WORLD, iot_path("nothere"), MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    RXT_CHECK(rc != MPI_SUCCESS && handler_calls == 3 && handler_file == MPI_FILE_NULL,
              "open error: rc %d handler calls %d", rc, handler_calls);
    RXT_MPI(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
    MPI_Errhandler_free(&eh);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "io_basic");
    iot_setup();
    test_open_modes();
    test_sizes_info();
    test_contig();
    test_sequential();
    test_errhandlers();
    iot_cleanup();
    return rxt_finish();
}
