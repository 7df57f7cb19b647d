/* SPDX-License-Identifier: MIT
 * MPI-IO shared file pointers: write_shared records all land once, intact;
 * write_ordered / read_ordered in rank order (exact layout checked);
 * read_shared hands out distinct pieces; nonblocking and split forms;
 * seek_shared and get_position_shared in a view with an etype. */
#include "iotest.h"

enum { REC = 4, NREC = 3 }; /* ints per record, records per rank */

static void test_write_shared(MPI_File fh)
{
    MPI_Status st;
    for (int s = 0; s < NREC; s++) {
        int rec[REC];
        for (int i = 0; i < REC; i++)
            rec[i] = rxt_rank * 100 + s;
        if (s == 1) {
            MPI_Request rq;
            RXT_MPI(MPI_File_iwrite_shared(fh, rec, REC, MPI_INT, &rq));
            RXT_MPI(MPI_Wait(&rq, &st));
        } else {
            RXT_MPI(MPI_File_write_shared(fh, rec, REC, MPI_INT, &st));
        }
        int count = -1;
        MPI_Get_count(&st, MPI_INT, &count);
        RXT_CHECK(count == REC, "write_shared count %d", count);
    }
    RXT_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    RXT_MPI(MPI_File_sync(fh));
    MPI_Offset pos = -1;
    RXT_MPI(MPI_File_get_position_shared(fh, &pos));
    RXT_CHECK(pos == (MPI_Offset)rxt_size * NREC * REC * 4, "shared position %lld", (long long)pos);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rxt_rank == 0) {
        int n = rxt_size * NREC;
        int *all = malloc(sizeof(int) * REC * (size_t)n), *seen = calloc((size_t)n, sizeof(int));
        RXT_MPI(MPI_File_read_at(fh, 0, all, REC * n, MPI_INT, &st));
        for (int r = 0; r < n; r++) {
            int v = all[r * REC], ok = v / 100 < rxt_size && v % 100 < NREC && v >= 0;
            for (int i = 1; i < REC; i++)
                ok &= all[r * REC + i] == v;
            RXT_CHECK(ok, "record %d torn or foreign: %d", r, v);
            if (ok)
                seen[(v / 100) * NREC + v % 100]++;
        }
        for (int r = 0; r < n; r++)
            RXT_CHECK(seen[r] == 1, "record rank %d seq %d seen %d times", r / NREC, r % NREC,
                      seen[r]);
        free(all);
        free(seen);
    }
}

/* rank r writes r + 1 ints of value r, in rank order from the pointer */
static void test_ordered(MPI_File fh)
{
    MPI_Status st;
    int total = rxt_size * (rxt_size + 1) / 2;
    int mine[8];
    for (int i = 0; i < 8; i++)
        mine[i] = rxt_rank;
    RXT_MPI(MPI_File_seek_shared(fh, 4, MPI_SEEK_SET));
    RXT_MPI(MPI_File_write_ordered(fh, mine, rxt_rank + 1, MPI_INT, &st));
    MPI_Offset pos;
    RXT_MPI(MPI_File_get_position_shared(fh, &pos));
    RXT_CHECK(pos == 4 + (MPI_Offset)total * 4, "position after write_ordered %lld",
              (long long)pos);
    MPI_Barrier(MPI_COMM_WORLD); /* before another process's next ordered call moves it */
    /* the split form continues after it */
    RXT_MPI(MPI_File_write_ordered_begin(fh, mine, rxt_rank + 1, MPI_INT));
    RXT_MPI(MPI_File_write_ordered_end(fh, mine, &st));
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    RXT_CHECK(count == rxt_rank + 1, "write_ordered_end count %d", count);
    RXT_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    RXT_MPI(MPI_File_sync(fh));
    if (rxt_rank == 0) {
        int *all = malloc(sizeof(int) * (size_t)(2 * total));
        RXT_MPI(MPI_File_read_at(fh, 4, all, 2 * total, MPI_INT, &st));
        int e = 0, bad = 0;
        for (int rep = 0; rep < 2; rep++)
            for (int r = 0; r < rxt_size; r++)
                for (int i = 0; i <= r; i++)
                    bad += all[e++] != r;
        RXT_CHECK(!bad, "%d ints of the ordered layout differ", bad);
        free(all);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    /* read it back in the same order */
    RXT_MPI(MPI_File_seek_shared(fh, 4, MPI_SEEK_SET));
    int back[8] = {0};
    RXT_MPI(MPI_File_read_ordered(fh, back, rxt_rank + 1, MPI_INT, &st));
    int bad = 0;
    for (int i = 0; i <= rxt_rank; i++)
        bad += back[i] != rxt_rank;
    RXT_CHECK(!bad, "read_ordered: %d ints differ", bad);
    memset(back, 0, sizeof back);
    RXT_MPI(MPI_File_read_ordered_begin(fh, back, rxt_rank + 1, MPI_INT));
    RXT_MPI(MPI_File_read_ordered_end(fh, back, &st));
    bad = 0;
    for (int i = 0; i <= rxt_rank; i++)
        bad += back[i] != rxt_rank;
    RXT_CHECK(!bad, "read_ordered_begin/end: %d ints differ", bad);
}

/* Distinct values 0..N-1 in a view of ints after 8 bytes; read_shared hands
 * each process distinct pairs. */
static void test_read_shared(MPI_File fh)
{
    MPI_Status st;
    int n = 2 * rxt_size;
    RXT_MPI(MPI_File_set_view(fh, 8, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    if (rxt_rank == 0) {
        int *v = malloc(sizeof(int) * (size_t)n);
        for (int i = 0; i < n; i++)
            v[i] = i;
        RXT_MPI(MPI_File_write_at(fh, 0, v, n, MPI_INT, &st));
        free(v);
    }
    RXT_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    RXT_MPI(MPI_File_sync(fh));
    int pair[2] = {-1, -1};
    if (rxt_rank % 2) {
        RXT_MPI(MPI_File_read_shared(fh, pair, 2, MPI_INT, &st));
    } else {
        MPI_Request rq;
        RXT_MPI(MPI_File_iread_shared(fh, pair, 2, MPI_INT, &rq));
        RXT_MPI(MPI_Wait(&rq, &st));
    }
    RXT_CHECK(pair[0] % 2 == 0 && pair[1] == pair[0] + 1, "pair %d %d", pair[0], pair[1]);
    int *all = malloc(sizeof(int) * (size_t)n), *seen = calloc((size_t)n, sizeof(int));
    MPI_Allgather(pair, 2, MPI_INT, all, 2, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < n; i++)
        if (all[i] >= 0 && all[i] < n)
            seen[all[i]]++;
    for (int i = 0; i < n; i++)
        RXT_CHECK(seen[i] == 1, "value %d read %d times", i, seen[i]);
    free(all);
    free(seen);
    MPI_Offset pos;
    MPI_Barrier(MPI_COMM_WORLD);
    RXT_MPI(MPI_File_get_position_shared(fh, &pos));
    RXT_CHECK(pos == n, "shared position in ints %lld, expected %d", (long long)pos, n);
    /* seek_shared may move the pointer as soon as one process enters it */
    MPI_Barrier(MPI_COMM_WORLD);
    /* from the end of the file: the view's last int */
    MPI_Offset size;
    RXT_MPI(MPI_File_get_size(fh, &size));
    RXT_MPI(MPI_File_seek_shared(fh, -1, MPI_SEEK_END));
    RXT_MPI(MPI_File_get_position_shared(fh, &pos));
#ifndef OPEN_MPI /* Open MPI 4.1 (OMPIO) seeks from the end as if the displacement were 0 */
    RXT_CHECK(pos == (size - 8) / 4 - 1, "SEEK_END -1: position %lld, file %lld bytes",
              (long long)pos, (long long)size);
#endif
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "io_shared");
    iot_setup();
    MPI_File fh;
    RXT_MPI(MPI_File_open(MPI_COMM_WORLD, iot_path("shared"), MPI_MODE_RDWR | MPI_MODE_CREATE,
                          MPI_INFO_NULL, &fh));
    test_write_shared(fh);
    test_ordered(fh);
    test_read_shared(fh);
    RXT_MPI(MPI_File_close(&fh));
    iot_cleanup();
    return rxt_finish();
}
