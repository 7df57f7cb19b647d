/* SPDX-License-Identifier: MIT
 * MPI-IO file views: displacement and etype, interleaved vector filetypes
 * with noncontiguous memory types, holes left untouched, get_view, and
 * block-distributed 2-D and 3-D arrays written collectively through
 * subarray views and read back through another decomposition (and through
 * darray views). Every layout is checked byte for byte in the file. */
#include "iotest.h"

#define REGION 4096 /* bytes of the file given to each rank in the hole test */

static void test_disp_etype(void)
{
    const char *p = iot_path("disp");
    MPI_File fh;
    MPI_Status st;
    RXT_MPI(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh));
    MPI_Offset disp = 100 + 40 * rxt_rank;
    RXT_MPI(MPI_File_set_view(fh, disp, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    int v[5] = {rxt_rank * 10, rxt_rank * 10 + 1, rxt_rank * 10 + 2, rxt_rank * 10 + 3,
                rxt_rank * 10 + 4};
    RXT_MPI(MPI_File_write_at(fh, 5, v, 5, MPI_INT, &st)); /* ints 5..9 after disp */
    MPI_Offset byte = 0, pos = -1;
    RXT_MPI(MPI_File_get_byte_offset(fh, 5, &byte));
    RXT_CHECK(byte == disp + 20, "byte offset of etype 5: %lld", (long long)byte);
    RXT_MPI(MPI_File_write(fh, v, 3, MPI_INT, &st));
    RXT_MPI(MPI_File_get_position(fh, &pos));
    RXT_CHECK(pos == 3, "position after 3 ints: %lld", (long long)pos);
    MPI_Aint ext = 0;
    RXT_MPI(MPI_File_get_type_extent(fh, MPI_DOUBLE, &ext));
    RXT_CHECK(ext == sizeof(double), "file extent of MPI_DOUBLE %ld", (long)ext);
    RXT_MPI(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rxt_rank == 0) {
        static int whole[1024];
        long size = iot_slurp(p, whole, sizeof whole);
        RXT_CHECK(size == 100 + 40 * (rxt_size - 1) + 40, "file size %ld", size);
        for (int r = 0; r < rxt_size; r++) {
            int *at = (int *)((char *)whole + 100 + 40 * r);
            for (int i = 0; i < 5; i++)
                RXT_CHECK(at[5 + i] == r * 10 + i, "rank %d int %d: %d", r, 5 + i, at[5 + i]);
            for (int i = 0; i < 3; i++) /* through the individual pointer */
                    RXT_CHECK(at[i] == r * 10 + i, "rank %d int %d: %d", r, i, at[i]);
        }
    }
}

/* Blocks of B ints round robin over the ranks; memory holds the data at
 * every other int. */
static void test_interleaved(void)
{
    enum { B = 3, K = 5, TILES = 2 };
    const char *p = iot_path("interleaved");
    MPI_File fh;
    MPI_Status st;
    MPI_Datatype vec, ftype, mtype;
    MPI_Type_vector(K, B, B * rxt_size, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)K * B * rxt_size * sizeof(int), &ftype);
    MPI_Type_commit(&ftype);
    MPI_Type_free(&vec);
    MPI_Type_vector(K * B * TILES, 1, 2, MPI_INT, &mtype);
    MPI_Type_commit(&mtype);
    int mem[2 * K * B * TILES];
    for (int i = 0; i < K * B * TILES; i++) {
        mem[2 * i] = rxt_rank * 1000000 + i;
        mem[2 * i + 1] = -1;
    }
    RXT_MPI(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh));
    RXT_MPI(MPI_File_set_view(fh, (MPI_Offset)rxt_rank * B * sizeof(int), MPI_INT, ftype,
                              "native", MPI_INFO_NULL));
    MPI_Type_free(&ftype); /* the view keeps its own */
    RXT_MPI(MPI_File_write_all(fh, mem, 1, mtype, &st));
    int count = -1;
    MPI_Get_count(&st, mtype, &count);
    RXT_CHECK(count == 1, "write_all count %d", count);
    MPI_Offset pos;
    RXT_MPI(MPI_File_get_position(fh, &pos));
    RXT_CHECK(pos == K * B * TILES, "position %lld", (long long)pos);

    /* get_view gives the view back, derived types as new handles */
    MPI_Offset disp;
    MPI_Datatype et, ft;
    char rep[MPI_MAX_DATAREP_STRING];
    RXT_MPI(MPI_File_get_view(fh, &disp, &et, &ft, rep));
    MPI_Aint lb, ext;
    int size;
    MPI_Type_get_extent(ft, &lb, &ext);
    MPI_Type_size(ft, &size);
    RXT_CHECK(disp == (MPI_Offset)rxt_rank * B * 4 && et == MPI_INT && strcmp(rep, "native") == 0,
              "get_view: disp %lld rep %s", (long long)disp, rep);
    RXT_CHECK(ext == (MPI_Aint)K * B * rxt_size * 4 && size == K * B * 4,
              "filetype extent %ld size %d", (long)ext, size);
    MPI_Type_free(&ft);

    RXT_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    RXT_MPI(MPI_File_sync(fh));
    /* read back through the view into contiguous memory */
    int back[K * B * TILES];
    memset(back, 0, sizeof back);
    RXT_MPI(MPI_File_read_at_all(fh, 0, back, K * B * TILES, MPI_INT, &st));
    int bad = 0;
    for (int i = 0; i < K * B * TILES; i++)
        bad += back[i] != rxt_rank * 1000000 + i;
    RXT_CHECK(!bad, "%d ints read back through the view differ", bad);
    /* partway into a tile: etype offset 4 is the second int of block 1 */
    RXT_MPI(MPI_File_read_at(fh, 4, back, 2, MPI_INT, &st));
    RXT_CHECK(back[0] == rxt_rank * 1000000 + 4 && back[1] == rxt_rank * 1000000 + 5,
              "read at etype 4: %d %d", back[0], back[1]);
    RXT_MPI(MPI_File_close(&fh));
    MPI_Type_free(&mtype);
    if (rxt_rank == 0) {
        static int whole[K * B * TILES * 8];
        long fsize = iot_slurp(p, whole, sizeof whole);
        long n = (long)K * B * TILES * rxt_size;
        RXT_CHECK(fsize == n * 4, "file size %ld, expected %ld", fsize, n * 4);
        bad = 0;
        for (long i = 0; i < n && i < (long)(sizeof whole / 4); i++) {
            long block = i / B, owner = block % rxt_size;
            long local = (block / rxt_size) * B + i % B;
            bad += whole[i] != owner * 1000000 + local;
        }
        RXT_CHECK(!bad, "%d ints of the interleaved file differ", bad);
    }
}

/* Writes through a filetype with holes leave the holes as they were. */
static void test_holes(void)
{
    const char *p = iot_path("holes");
    MPI_File fh;
    MPI_Status st;
    RXT_MPI(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh));
    static unsigned char fill[REGION];
    memset(fill, 0xee, sizeof fill);
    RXT_MPI(MPI_File_write_at(fh, (MPI_Offset)rxt_rank * REGION, fill, REGION, MPI_BYTE, &st));
    RXT_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    RXT_MPI(MPI_File_sync(fh));
    /* ints 0 and 2 of every 4 */
    MPI_Datatype v, ftype;
    MPI_Type_vector(2, 1, 2, MPI_INT, &v);
    MPI_Type_create_resized(v, 0, 16, &ftype);
    MPI_Type_commit(&ftype);
    MPI_Type_free(&v);
    RXT_MPI(MPI_File_set_view(fh, (MPI_Offset)rxt_rank * REGION + 8, MPI_INT, ftype, "native",
                              MPI_INFO_NULL));
    int data[64];
    for (int i = 0; i < 64; i++)
        data[i] = rxt_rank * 100 + i;
    RXT_MPI(MPI_File_write_at_all(fh, 0, data, 64, MPI_INT, &st));
    RXT_MPI(MPI_File_close(&fh));
    MPI_Type_free(&ftype);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rxt_rank == 0) {
        static unsigned char whole[REGION * 8];
        long size = iot_slurp(p, whole, sizeof whole);
        RXT_CHECK(size == (long)REGION * rxt_size, "file size %ld", size);
        int bad = 0;
        for (int r = 0; r < rxt_size && r < 8; r++) {
            unsigned char *reg = whole + (size_t)r * REGION;
            for (int b = 0; b < REGION; b++) {
                int k = b - 8, in_data = k >= 0 && k < 32 * 16 && (k % 16) / 4 % 2 == 0;
                if (in_data) {
                    int idx = (k / 16) * 2 + (k % 16) / 8, val;
                    memcpy(&val, reg + 8 + (k / 4) * 4, 4);
                    bad += b % 4 == 0 && val != r * 100 + idx;
                } else {
                    bad += reg[b] != 0xee;
                }
            }
        }
        RXT_CHECK(!bad, "%d bytes or ints of the hole test differ", bad);
    }
}

/* value of global element (i, j, k) */
static double g3(int i, int j, int k, int ny, int nx) { return (double)((i * ny + j) * nx + k); }

/* A 2-D array by a 2-D process grid (local blocks with a ghost layer in
 * memory), read back by row blocks and by a cyclic darray. */
static void test_array2d(void)
{
    enum { NY = 12, NX = 10 };
    const char *p = iot_path("array2d");
    int dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2];
    MPI_Dims_create(rxt_size, 2, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    int crank;
    MPI_Comm_rank(cart, &crank);
    MPI_Cart_coords(cart, crank, 2, coords);
    int gs[2] = {NY, NX}, ls[2], st0[2];
    for (int d = 0; d < 2; d++) { /* uneven blocks: the first ones one larger */
        int q = gs[d] / dims[d], r = gs[d] % dims[d];
        ls[d] = q + (coords[d] < r);
        st0[d] = coords[d] * q + (coords[d] < r ? coords[d] : r);
    }
    MPI_Datatype ftype, mtype;
    MPI_Type_create_subarray(2, gs, ls, st0, MPI_ORDER_C, MPI_DOUBLE, &ftype);
    MPI_Type_commit(&ftype);
    int ms[2] = {ls[0] + 2, ls[1] + 2}, one[2] = {1, 1};
    MPI_Type_create_subarray(2, ms, ls, one, MPI_ORDER_C, MPI_DOUBLE, &mtype);
    MPI_Type_commit(&mtype);
    double *local = malloc(sizeof(double) * (size_t)ms[0] * ms[1]);
    for (int i = 0; i < ms[0]; i++)
        for (int j = 0; j < ms[1]; j++)
            local[i * ms[1] + j] = (i == 0 || j == 0 || i == ms[0] - 1 || j == ms[1] - 1)
                                       ? -1.0
                                       : g3(0, st0[0] + i - 1, st0[1] + j - 1, NY, NX);
    MPI_File fh;
    MPI_Status st;
    RXT_MPI(MPI_File_open(cart, p, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh));
    RXT_MPI(MPI_File_set_view(fh, 0, MPI_DOUBLE, ftype, "native", MPI_INFO_NULL));
    RXT_MPI(MPI_File_write_all(fh, local, 1, mtype, &st));
    RXT_MPI(MPI_File_sync(fh));
    MPI_Barrier(cart);
    RXT_MPI(MPI_File_sync(fh));

    /* rows in blocks over the ranks, through a subarray view */
    int rows = NY / rxt_size + (crank < NY % rxt_size);
    int row0 = crank * (NY / rxt_size) + (crank < NY % rxt_size ? crank : NY % rxt_size);
    int rs[2] = {rows, NX}, r0[2] = {row0, 0};
    MPI_Datatype rtype;
    MPI_Type_create_subarray(2, gs, rs, r0, MPI_ORDER_C, MPI_DOUBLE, &rtype);
    MPI_Type_commit(&rtype);
    RXT_MPI(MPI_File_set_view(fh, 0, MPI_DOUBLE, rtype, "native", MPI_INFO_NULL));
    double *back = calloc((size_t)NY * NX, sizeof(double));
    RXT_MPI(MPI_File_read_all(fh, back, rows * NX, MPI_DOUBLE, &st));
    int count = -1, bad = 0;
    MPI_Get_count(&st, MPI_DOUBLE, &count);
    RXT_CHECK(count == rows * NX, "row read count %d", count);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < NX; j++)
            bad += back[i * NX + j] != g3(0, row0 + i, j, NY, NX);
    RXT_CHECK(!bad, "%d elements of the row blocks differ", bad);

    /* cyclic(2) x block over a 1 x size grid, through a darray view */
    int gsz[2] = {NY, NX}, distr[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK};
    int darg[2] = {2, MPI_DISTRIBUTE_DFLT_DARG}, psz[2] = {rxt_size, 1};
    MPI_Datatype dtype;
    MPI_Type_create_darray(rxt_size, crank, 2, gsz, distr, darg, psz, MPI_ORDER_C, MPI_DOUBLE,
                           &dtype);
    MPI_Type_commit(&dtype);
    int dsize;
    MPI_Type_size(dtype, &dsize);
    RXT_MPI(MPI_File_set_view(fh, 0, MPI_DOUBLE, dtype, "native", MPI_INFO_NULL));
    int n = dsize / (int)sizeof(double);
    RXT_MPI(MPI_File_read_all(fh, back, n, MPI_DOUBLE, &st));
    bad = 0;
    int e = 0;
    for (int i = 0; i < NY; i++)
        if ((i / 2) % rxt_size == crank)
            for (int j = 0; j < NX; j++, e++)
                bad += e >= n || back[e] != g3(0, i, j, NY, NX);
    RXT_CHECK(!bad && e == n, "%d darray elements differ (%d of %d)", bad, e, n);
    RXT_MPI(MPI_File_close(&fh));
    if (crank == 0) {
        double whole[NY * NX];
        long size = iot_slurp(p, whole, sizeof whole);
        RXT_CHECK(size == (long)sizeof whole, "file size %ld", size);
        bad = 0;
        for (int i = 0; i < NY * NX; i++)
            bad += whole[i] != (double)i;
        RXT_CHECK(!bad, "%d elements of the 2-D file differ", bad);
    }
    MPI_Type_free(&ftype);
    MPI_Type_free(&mtype);
    MPI_Type_free(&rtype);
    MPI_Type_free(&dtype);
    free(local);
    free(back);
    MPI_Comm_free(&cart);
}

/* A 3-D array by a 3-D process grid in Fortran order, read back in C order
 * slabs of the slowest dimension by write-independent reads. */
static void test_array3d(void)
{
    enum { NZ = 6, NY = 5, NX = 7 };
    const char *p = iot_path("array3d");
    int dims[3] = {0, 0, 0}, coords[3], c = rxt_rank;
    MPI_Dims_create(rxt_size, 3, dims);
    for (int d = 2; d >= 0; d--) {
        coords[d] = c % dims[d];
        c /= dims[d];
    }
    /* Fortran order: sizes listed fastest first */
    int gs[3] = {NX, NY, NZ}, ls[3], s0[3], gc[3] = {NZ, NY, NX};
    for (int d = 0; d < 3; d++) { /* dimension d of C order is index 2 - d of Fortran order */
        int q = gc[d] / dims[d], r = gc[d] % dims[d];
        ls[2 - d] = q + (coords[d] < r);
        s0[2 - d] = coords[d] * q + (coords[d] < r ? coords[d] : r);
    }
    MPI_Datatype ftype;
    MPI_Type_create_subarray(3, gs, ls, s0, MPI_ORDER_FORTRAN, MPI_DOUBLE, &ftype);
    MPI_Type_commit(&ftype);
    int n = ls[0] * ls[1] * ls[2];
    double *local = malloc(sizeof(double) * (size_t)(n ? n : 1));
    int e = 0;
    for (int k = 0; k < ls[2]; k++) /* Fortran order: x fastest */
        for (int j = 0; j < ls[1]; j++)
            for (int i = 0; i < ls[0]; i++)
                local[e++] = g3(s0[2] + k, s0[1] + j, s0[0] + i, NY, NX);
    MPI_File fh;
    MPI_Status st;
    RXT_MPI(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh));
    RXT_MPI(MPI_File_set_view(fh, 0, MPI_DOUBLE, ftype, "native", MPI_INFO_NULL));
    RXT_MPI(MPI_File_write_at_all(fh, 0, local, n, MPI_DOUBLE, &st));
    RXT_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    RXT_MPI(MPI_File_sync(fh));
    RXT_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    double slab[NY * NX];
    int bad = 0;
    for (int z = rxt_rank; z < NZ; z += rxt_size) {
        RXT_MPI(MPI_File_read_at(fh, (MPI_Offset)z * NY * NX * sizeof(double), slab, NY * NX,
                                 MPI_DOUBLE, &st));
        for (int i = 0; i < NY * NX; i++)
            bad += slab[i] != g3(z, i / NX, i % NX, NY, NX);
    }
    RXT_CHECK(!bad, "%d elements of the 3-D file differ", bad);
    RXT_MPI(MPI_File_close(&fh));
    MPI_Type_free(&ftype);
    free(local);
}

static void test_view_errors(void)
{
    MPI_File fh;
    RXT_MPI(MPI_File_open(MPI_COMM_WORLD, iot_path("viewerr"), MPI_MODE_RDWR | MPI_MODE_CREATE,
                          MPI_INFO_NULL, &fh));
    int rc = MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "no-such-representation", MPI_INFO_NULL);
    RXT_CHECK(rc != MPI_SUCCESS, "an unknown data representation was accepted");
    rc = MPI_File_set_view(fh, 0, MPI_INT, MPI_DATATYPE_NULL, "native", MPI_INFO_NULL);
    RXT_CHECK(rc != MPI_SUCCESS, "MPI_DATATYPE_NULL as filetype was accepted");
    RXT_MPI(MPI_File_close(&fh));
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "io_view");
    iot_setup();
    test_disp_etype();
    test_interleaved();
    test_holes();
    test_array2d();
    test_array3d();
    test_view_errors();
    iot_cleanup();
    return rxt_finish();
}
