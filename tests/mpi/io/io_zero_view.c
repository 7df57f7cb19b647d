/* SPDX-License-Identifier: MIT
 * A filetype of no data is a valid view (PnetCDF sets one on processes with
 * nothing to write): rank 0 views 4 bytes at displacement 1000 of the file
 * (hindexed), the others a filetype of size 0, in turn MPI_Type_contiguous(0)
 * and a hindexed block of length 0; MPI_File_set_view succeeds everywhere,
 * rank 0's independent and collective writes land at 1000, the others
 * access nothing and report a position at the displacement. rdmx
 * refused the empty filetype with MPI_ERR_TYPE at every process, and rank 0,
 * left with the default view, wrote at 0. */
#include "iotest.h"

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "io_zero_view");
    iot_setup();
    const char *p = iot_path("zero");
    for (int kind = 0; kind < 2; kind++) {
        MPI_File fh;
        RXT_MPI(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
        MPI_Datatype ft;
        int bl = rxt_rank == 0 ? 4 : 0;
        MPI_Aint disp = 1000;
        if (rxt_rank != 0 && kind == 0)
            RXT_MPI(MPI_Type_contiguous(0, MPI_BYTE, &ft));
        else
            RXT_MPI(MPI_Type_create_hindexed(1, &bl, &disp, MPI_BYTE, &ft));
        RXT_MPI(MPI_Type_commit(&ft));
        RXT_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, ft, "native", MPI_INFO_NULL));
        RXT_MPI(MPI_Type_free(&ft));
        MPI_Status st;
        int n = -1;
        char out[4] = {'A', 'B', 'C', (char)('D' + kind)}, in[4] = {0};
        if (rxt_rank == 0) {
            RXT_MPI(MPI_File_write_at(fh, 0, out, 4, MPI_BYTE, &st));
            RXT_MPI(MPI_Get_count(&st, MPI_BYTE, &n));
            RXT_CHECK(n == 4, "kind %d: rank 0 wrote %d bytes", kind, n);
        } else {
            /* nothing to access: a count of 0 (what data a larger count would move through a
             * view of no data the standard leaves open; ROMIO reports the count asked) */
            RXT_MPI(MPI_File_write_at(fh, 0, out, 0, MPI_BYTE, &st));
            RXT_MPI(MPI_File_read_at(fh, 0, in, 0, MPI_BYTE, &st));
            MPI_Offset pos = -1, byte = -1;
            RXT_MPI(MPI_File_get_position(fh, &pos));
            RXT_MPI(MPI_File_get_byte_offset(fh, 0, &byte));
            RXT_CHECK(pos == 0 && byte == 0, "kind %d: position %lld, byte offset %lld", kind,
                      (long long)pos, (long long)byte);
        }
        /* a collective write: rank 0's 4 bytes again, the others none */
        RXT_MPI(MPI_File_write_at_all(fh, 0, out, rxt_rank == 0 ? 4 : 0, MPI_BYTE, &st));
        RXT_MPI(MPI_File_close(&fh));
        RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
        if (rxt_rank == 0) {
            char whole[1100];
            long size = iot_slurp(p, whole, sizeof whole);
            RXT_CHECK(size == 1004 && !memcmp(whole + 1000, out, 4),
                      "kind %d: file of %ld bytes (1004 expected), bytes at 1000 %.4s", kind, size,
                      size >= 1004 ? whole + 1000 : "");
        }
        RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    iot_cleanup();
    return rxt_finish();
}
