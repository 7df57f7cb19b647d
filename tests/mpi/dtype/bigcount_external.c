/* SPDX-License-Identifier: MIT
 * The large-count forms MPI_Pack_external_c / MPI_Unpack_external_c /
 * MPI_Pack_external_size_c with "external32": the size of ints and doubles,
 * the big-endian bytes they pack to, equal to what the int forms pack, a
 * round trip through Unpack_external_c with the position advancing, and the
 * int forms' error classes (another representation, a negative count, a
 * buffer too small, a NULL position). */
#include "rxtest.h"

#include <string.h>

static void pack_and_back(void)
{
    int iv[3] = {0x01020304, -2, 7};
    double dv = 1.0;
    MPI_Count sz = -1;
    RXT_MPI(MPI_Pack_external_size_c("external32", 3, MPI_INT, &sz));
    RXT_CHECK(sz == 12, "external32 size of 3 ints %lld, want 12", (long long)sz);
    RXT_MPI(MPI_Pack_external_size_c("external32", 1, MPI_DOUBLE, &sz));
    RXT_CHECK(sz == 8, "external32 size of a double %lld, want 8", (long long)sz);

    unsigned char wide[64], narrow[64];
    MPI_Count pos = 0;
    RXT_MPI(MPI_Pack_external_c("external32", iv, 3, MPI_INT, wide, sizeof wide, &pos));
    RXT_MPI(MPI_Pack_external_c("external32", &dv, 1, MPI_DOUBLE, wide, sizeof wide, &pos));
    RXT_CHECK(pos == 20, "position after packing %lld, want 20", (long long)pos);
    static const unsigned char want[20] = {1, 2, 3, 4, 0xff, 0xff, 0xff, 0xfe, 0, 0, 0, 7,
                                           0x3f, 0xf0, 0, 0, 0, 0, 0, 0};
    RXT_CHECK(memcmp(wide, want, sizeof want) == 0, "Pack_external_c bytes differ from "
              "external32");
    MPI_Aint apos = 0;
    RXT_MPI(MPI_Pack_external("external32", iv, 3, MPI_INT, narrow, sizeof narrow, &apos));
    RXT_MPI(MPI_Pack_external("external32", &dv, 1, MPI_DOUBLE, narrow, sizeof narrow, &apos));
    RXT_CHECK(apos == 20 && memcmp(wide, narrow, 20) == 0, "the int and _c forms pack "
              "differently");

    int back[3] = {0, 0, 0};
    double dback = 0;
    pos = 0;
    RXT_MPI(MPI_Unpack_external_c("external32", wide, 20, &pos, back, 3, MPI_INT));
    RXT_CHECK(pos == 12, "position after unpacking the ints %lld, want 12", (long long)pos);
    RXT_MPI(MPI_Unpack_external_c("external32", wide, 20, &pos, &dback, 1, MPI_DOUBLE));
    RXT_CHECK(pos == 20, "position after unpacking %lld, want 20", (long long)pos);
    RXT_CHECK(back[0] == iv[0] && back[1] == iv[1] && back[2] == iv[2] && dback == dv,
              "round trip: %d %d %d %g", back[0], back[1], back[2], dback);
}

static void errors(void)
{
    int iv[2] = {1, 2};
    unsigned char buf[8];
    MPI_Count sz, pos = 0;
    MPI_Aint asz;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RXT_EXPECT_CLASS(MPI_ERR_UNSUPPORTED_DATAREP,
                     MPI_Pack_external_size_c("native", 2, MPI_INT, &sz));
    RXT_EXPECT_CLASS(MPI_ERR_COUNT, MPI_Pack_external_size_c("external32", -1, MPI_INT, &sz));
    RXT_EXPECT_CLASS(MPI_ERR_COUNT, MPI_Pack_external_size("external32", -1, MPI_INT,
                                                           &asz));
    RXT_EXPECT_CLASS(MPI_ERR_TRUNCATE,
                     MPI_Pack_external_c("external32", iv, 2, MPI_INT, buf, 4, &pos));
    RXT_CHECK(pos == 0, "a failed pack moved the position to %lld", (long long)pos);
    RXT_EXPECT_CLASS(MPI_ERR_ARG,
                     MPI_Pack_external_c("external32", iv, 2, MPI_INT, buf, 8, NULL));
    RXT_EXPECT_CLASS(MPI_ERR_TRUNCATE,
                     MPI_Unpack_external_c("external32", buf, 4, &pos, iv, 2, MPI_INT));
    RXT_EXPECT_CLASS(MPI_ERR_TYPE,
                     MPI_Unpack_external_c("external32", buf, 8, &pos, iv, 2, MPI_DATATYPE_NULL));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "bigcount_external");
    pack_and_back();
    errors();
    return rxt_finish();
}
