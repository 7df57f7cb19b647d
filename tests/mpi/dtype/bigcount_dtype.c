/* SPDX-License-Identifier: MIT
 * MPI-4 large counts in datatypes (the _c constructors, envelopes, packing):
 *   - MPI_Type_contiguous_c of 2^31 + 8 bytes: size, extent, envelope (one large count)
 *     and contents; one element of it sent from rank 0 to rank 1 (or to itself), every
 *     byte checked, MPI_Get_elements_c counting its bytes;
 *   - MPI_Type_vector_c of two blocks of 2^30 + 4 bytes 2^30 + 8 apart (2^31 + 8 bytes
 *     of data in an extent beyond 2^31): MPI_Pack_size_c, MPI_Pack_c and MPI_Unpack_c
 *     of one element, positions and bytes checked;
 *   - every other _c constructor with small arguments builds the type its int form
 *     builds (same size, extent, true extent, packed bytes), and its envelope is the
 *     MPI-4.1 one: the counts are large counts (MPI_Type_get_envelope_c / _contents_c);
 *   - the int MPI_Type_get_envelope refuses a type with large counts (MPI_ERR_TYPE).
 * Memory: at most two buffers of about 2 GiB at once in the job. */
#include "rxtest.h"

#define BIG (((MPI_Count)1 << 31) + 8)
#define HALF (((MPI_Count)1 << 30) + 4)

static void check_envelope(MPI_Datatype t, MPI_Count ni, MPI_Count na, MPI_Count nc,
                           MPI_Count nt, int comb, const char *what)
{
    MPI_Count a = -1, b = -1, c = -1, d = -1;
    int k = -1;
    RXT_MPI(MPI_Type_get_envelope_c(t, &a, &b, &c, &d, &k));
    RXT_CHECK(a == ni && b == na && c == nc && d == nt && k == comb,
              "%s: envelope_c %lld %lld %lld %lld combiner %d, want %lld %lld %lld %lld %d", what,
              (long long)a, (long long)b, (long long)c, (long long)d, k, (long long)ni,
              (long long)na, (long long)nc, (long long)nt, comb);
}

/* t (a _c constructor's) and u (the int form's) describe the same layout. */
static void same_layout(MPI_Datatype t, MPI_Datatype u, const char *what)
{
    RXT_MPI(MPI_Type_commit(&t)); /* the handles stay the same */
    RXT_MPI(MPI_Type_commit(&u));
    MPI_Count s1, s2, lb1, lb2, e1, e2, tl1, tl2, te1, te2;
    RXT_MPI(MPI_Type_size_c(t, &s1));
    RXT_MPI(MPI_Type_size_c(u, &s2));
    RXT_MPI(MPI_Type_get_extent_c(t, &lb1, &e1));
    RXT_MPI(MPI_Type_get_extent_c(u, &lb2, &e2));
    RXT_MPI(MPI_Type_get_true_extent_c(t, &tl1, &te1));
    RXT_MPI(MPI_Type_get_true_extent_c(u, &tl2, &te2));
    RXT_CHECK(s1 == s2 && lb1 == lb2 && e1 == e2 && tl1 == tl2 && te1 == te2,
              "%s: size %lld/%lld lb %lld/%lld extent %lld/%lld true %lld+%lld/%lld+%lld", what,
              (long long)s1, (long long)s2, (long long)lb1, (long long)lb2, (long long)e1,
              (long long)e2, (long long)tl1, (long long)te1, (long long)tl2, (long long)te2);
    /* the same bytes packed from the same memory */
    char src[4096], p1[4096], p2[4096];
    for (int i = 0; i < 4096; i++)
        src[i] = (char)(i * 7 + 1);
    MPI_Count pos1 = 0;
    int pos2 = 0;
    RXT_CHECK(e1 + lb1 <= 4096 && lb1 >= 0, "%s: layout beyond the test buffer", what);
    if (e1 + lb1 > 4096 || lb1 < 0)
        return;
    RXT_MPI(MPI_Pack_c(src, 1, t, p1, sizeof p1, &pos1, MPI_COMM_WORLD));
    RXT_MPI(MPI_Pack(src, 1, u, p2, sizeof p2, &pos2, MPI_COMM_WORLD));
    RXT_CHECK(pos1 == pos2 && memcmp(p1, p2, (size_t)pos2) == 0, "%s: packed %lld vs %d bytes",
              what, (long long)pos1, pos2);
}

static void test_constructors(void)
{
    MPI_Datatype t, u;
    MPI_Count c[8];
    int ii[8];
    MPI_Aint aa[8];
    MPI_Datatype tt[4];

    RXT_MPI(MPI_Type_vector_c(3, 2, 5, MPI_INT, &t));
    RXT_MPI(MPI_Type_vector(3, 2, 5, MPI_INT, &u));
    same_layout(t, u, "vector_c");
    check_envelope(t, 0, 0, 3, 1, MPI_COMBINER_VECTOR, "vector_c");
    RXT_MPI(MPI_Type_get_contents_c(t, 0, 0, 3, 1, ii, aa, c, tt));
    RXT_CHECK(c[0] == 3 && c[1] == 2 && c[2] == 5 && tt[0] == MPI_INT, "vector_c contents");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int n1, n2, n3, comb;
    /* MPICH refuses it too, with MPI_ERR_OTHER */
    RXT_EXPECT_EITHER(MPI_ERR_TYPE, MPI_ERR_OTHER, MPI_Type_get_envelope(t, &n1, &n2, &n3, &comb));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    check_envelope(u, 3, 0, 0, 1, MPI_COMBINER_VECTOR, "vector (int form)");
    MPI_Type_free(&t);
    MPI_Type_free(&u);

    RXT_MPI(MPI_Type_create_hvector_c(3, 2, 24, MPI_INT, &t));
    RXT_MPI(MPI_Type_create_hvector(3, 2, 24, MPI_INT, &u));
    same_layout(t, u, "hvector_c");
    check_envelope(t, 0, 0, 3, 1, MPI_COMBINER_HVECTOR, "hvector_c");
    MPI_Type_free(&t);
    MPI_Type_free(&u);

    MPI_Count bl[3] = {1, 3, 2}, dp[3] = {0, 4, 10};
    int bli[3] = {1, 3, 2}, dpi[3] = {0, 4, 10};
    MPI_Aint ad[3] = {0, 16, 40};
    MPI_Count adc[3] = {0, 16, 40}; /* the _c forms take byte displacements as MPI_Count */
    RXT_MPI(MPI_Type_indexed_c(3, bl, dp, MPI_INT, &t));
    RXT_MPI(MPI_Type_indexed(3, bli, dpi, MPI_INT, &u));
    same_layout(t, u, "indexed_c");
    check_envelope(t, 0, 0, 7, 1, MPI_COMBINER_INDEXED, "indexed_c");
    RXT_MPI(MPI_Type_get_contents_c(t, 0, 0, 7, 1, ii, aa, c, tt));
    RXT_CHECK(c[0] == 3 && c[1] == 1 && c[3] == 2 && c[4] == 0 && c[6] == 10,
              "indexed_c contents %lld %lld %lld %lld %lld", (long long)c[0], (long long)c[1],
              (long long)c[3], (long long)c[4], (long long)c[6]);
    MPI_Type_free(&t);
    MPI_Type_free(&u);

    RXT_MPI(MPI_Type_create_hindexed_c(3, bl, adc, MPI_INT, &t));
    RXT_MPI(MPI_Type_create_hindexed(3, bli, ad, MPI_INT, &u));
    same_layout(t, u, "hindexed_c");
    check_envelope(t, 0, 0, 7, 1, MPI_COMBINER_HINDEXED, "hindexed_c");
    MPI_Type_free(&t);
    MPI_Type_free(&u);

    RXT_MPI(MPI_Type_create_indexed_block_c(3, 2, dp, MPI_INT, &t));
    RXT_MPI(MPI_Type_create_indexed_block(3, 2, dpi, MPI_INT, &u));
    same_layout(t, u, "indexed_block_c");
    check_envelope(t, 0, 0, 5, 1, MPI_COMBINER_INDEXED_BLOCK, "indexed_block_c");
    MPI_Type_free(&t);
    MPI_Type_free(&u);

    RXT_MPI(MPI_Type_create_hindexed_block_c(3, 2, adc, MPI_INT, &t));
    RXT_MPI(MPI_Type_create_hindexed_block(3, 2, ad, MPI_INT, &u));
    same_layout(t, u, "hindexed_block_c");
    check_envelope(t, 0, 0, 5, 1, MPI_COMBINER_HINDEXED_BLOCK, "hindexed_block_c");
    MPI_Type_free(&t);
    MPI_Type_free(&u);

    MPI_Datatype st[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
    RXT_MPI(MPI_Type_create_struct_c(3, bl, adc, st, &t));
    RXT_MPI(MPI_Type_create_struct(3, bli, ad, st, &u));
    same_layout(t, u, "struct_c");
    check_envelope(t, 0, 0, 7, 3, MPI_COMBINER_STRUCT, "struct_c");
    MPI_Type_free(&t);
    MPI_Type_free(&u);

    MPI_Count sz[2] = {6, 8}, sub[2] = {2, 3}, stt[2] = {1, 4};
    int szi[2] = {6, 8}, subi[2] = {2, 3}, stti[2] = {1, 4};
    RXT_MPI(MPI_Type_create_subarray_c(2, sz, sub, stt, MPI_ORDER_C, MPI_INT, &t));
    RXT_MPI(MPI_Type_create_subarray(2, szi, subi, stti, MPI_ORDER_C, MPI_INT, &u));
    same_layout(t, u, "subarray_c");
    check_envelope(t, 2, 0, 6, 1, MPI_COMBINER_SUBARRAY, "subarray_c");
    RXT_MPI(MPI_Type_get_contents_c(t, 2, 0, 6, 1, ii, aa, c, tt));
    RXT_CHECK(ii[0] == 2 && ii[1] == MPI_ORDER_C && c[0] == 6 && c[3] == 3 && c[5] == 4,
              "subarray_c contents");
    MPI_Type_free(&t);
    MPI_Type_free(&u);

    MPI_Count gs[2] = {8, 6};
    int gsi[2] = {8, 6}, dist[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC},
        darg[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, ps[2] = {2, 2};
    RXT_MPI(MPI_Type_create_darray_c(4, 3, 2, gs, dist, darg, ps, MPI_ORDER_C, MPI_INT, &t));
    RXT_MPI(MPI_Type_create_darray(4, 3, 2, gsi, dist, darg, ps, MPI_ORDER_C, MPI_INT, &u));
    same_layout(t, u, "darray_c");
    check_envelope(t, 3 * 2 + 4, 0, 2, 1, MPI_COMBINER_DARRAY, "darray_c");
    MPI_Type_free(&t);
    MPI_Type_free(&u);

    RXT_MPI(MPI_Type_create_resized_c(MPI_INT, -4, 12, &t));
    RXT_MPI(MPI_Type_create_resized(MPI_INT, -4, 12, &u));
    MPI_Count lb, ext;
    RXT_MPI(MPI_Type_get_extent_c(t, &lb, &ext));
    RXT_CHECK(lb == -4 && ext == 12, "resized_c: lb %lld extent %lld", (long long)lb,
              (long long)ext);
    check_envelope(t, 0, 0, 2, 1, MPI_COMBINER_RESIZED, "resized_c");
    check_envelope(u, 0, 2, 0, 1, MPI_COMBINER_RESIZED, "resized (int form)");
    MPI_Type_free(&t);
    MPI_Type_free(&u);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RXT_EXPECT_CLASS(MPI_ERR_COUNT, MPI_Type_contiguous_c(-1, MPI_INT, &t));
    RXT_EXPECT_CLASS(MPI_ERR_TYPE, MPI_Type_vector_c(1, 1, 1, MPI_DATATYPE_NULL, &t));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Type_contiguous_c(1, MPI_INT, NULL));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* One element of a contiguous type of 2^31 + 8 bytes, rank 0 to rank 1. */
static void test_big_contiguous(void)
{
    MPI_Datatype big;
    RXT_MPI(MPI_Type_contiguous_c(BIG, MPI_BYTE, &big));
    RXT_MPI(MPI_Type_commit(&big));
    MPI_Count size, lb, ext, c[1];
    RXT_MPI(MPI_Type_size_c(big, &size));
    RXT_MPI(MPI_Type_get_extent_c(big, &lb, &ext));
    RXT_CHECK(size == BIG && lb == 0 && ext == BIG, "contiguous_c: size %lld extent %lld",
              (long long)size, (long long)ext);
    int isz = 0;
    RXT_MPI(MPI_Type_size(big, &isz));
    RXT_CHECK(isz == MPI_UNDEFINED, "MPI_Type_size of %lld bytes gave %d", (long long)BIG, isz);
    check_envelope(big, 0, 0, 1, 1, MPI_COMBINER_CONTIGUOUS, "contiguous_c");
    int ii[1];
    MPI_Aint aa[1];
    MPI_Datatype tt[1];
    RXT_MPI(MPI_Type_get_contents_c(big, 0, 0, 1, 1, ii, aa, c, tt));
    RXT_CHECK(c[0] == BIG && tt[0] == MPI_BYTE, "contiguous_c contents %lld", (long long)c[0]);
    if (rxt_rank < 2) {
        unsigned char *buf = rxt_big_alloc((size_t)BIG);
        if (!buf)
            RXT_FATAL("no memory for %lld bytes", (long long)BIG);
        int to = rxt_size == 1 ? 0 : 1;
        MPI_Status st;
        if (rxt_rank == 0)
            rxt_fill(buf, (size_t)BIG, 11);
        if (rxt_size == 1) {
            /* to itself: a nonblocking receive first, into a second buffer */
            unsigned char *in = rxt_big_alloc((size_t)BIG);
            if (!in)
                RXT_FATAL("no memory for %lld bytes", (long long)BIG);
            MPI_Request r;
            RXT_MPI(MPI_Irecv_c(in, 1, big, 0, 3, MPI_COMM_WORLD, &r));
            RXT_MPI(MPI_Send_c(buf, 1, big, 0, 3, MPI_COMM_WORLD));
            RXT_MPI(MPI_Wait(&r, &st));
            free(buf);
            buf = in;
        } else if (rxt_rank == 0) {
            RXT_MPI(MPI_Send_c(buf, 1, big, to, 3, MPI_COMM_WORLD));
        } else {
            memset(buf, 0, (size_t)BIG);
            RXT_MPI(MPI_Recv_c(buf, 1, big, 0, 3, MPI_COMM_WORLD, &st));
        }
        if (rxt_rank == to) {
            MPI_Count n = 0, e = 0;
            RXT_MPI(MPI_Get_count_c(&st, big, &n));
            RXT_MPI(MPI_Get_elements_c(&st, big, &e));
            RXT_CHECK(n == 1 && e == BIG, "count %lld elements %lld", (long long)n, (long long)e);
            long bad = rxt_verify(buf, (size_t)BIG, 11);
            RXT_CHECK(bad < 0, "one element of contiguous_c: byte %ld differs", bad);
        }
        free(buf);
    }
    MPI_Type_free(&big);
}

/* Pack and unpack one element of a vector of 2^31 + 8 bytes with a hole. */
static void test_big_vector_pack(void)
{
    if (rxt_rank != 0)
        return;
    MPI_Datatype vec;
    RXT_MPI(MPI_Type_vector_c(2, HALF, HALF + 4, MPI_BYTE, &vec));
    RXT_MPI(MPI_Type_commit(&vec));
    MPI_Count size, lb, ext, need;
    RXT_MPI(MPI_Type_size_c(vec, &size));
    RXT_MPI(MPI_Type_get_extent_c(vec, &lb, &ext));
    RXT_MPI(MPI_Pack_size_c(1, vec, MPI_COMM_WORLD, &need));
    RXT_CHECK(size == BIG && ext == 2 * HALF + 4 && need >= BIG,
              "vector_c: size %lld extent %lld pack size %lld", (long long)size, (long long)ext,
              (long long)need);
    unsigned char *mem = rxt_big_alloc((size_t)ext), *packed = rxt_big_alloc((size_t)need);
    if (!mem || !packed)
        RXT_FATAL("no memory for %lld + %lld bytes", (long long)ext, (long long)need);
    rxt_fill(mem, (size_t)ext, 21);
    MPI_Count pos = 0;
    RXT_MPI(MPI_Pack_c(mem, 1, vec, packed, need, &pos, MPI_COMM_WORLD));
    RXT_CHECK(pos == BIG, "Pack_c position %lld, want %lld", (long long)pos, (long long)BIG);
    /* the packed form is the two blocks one after the other */
    RXT_CHECK(memcmp(packed, mem, 4096) == 0 &&
                  memcmp(packed + HALF - 4096, mem + HALF - 4096, 4096) == 0 &&
                  memcmp(packed + HALF, mem + HALF + 4, 4096) == 0 &&
                  memcmp(packed + BIG - 4096, mem + ext - 4096, 4096) == 0,
              "Pack_c: the blocks are not where they belong");
    unsigned char hole[4];
    memcpy(hole, mem + HALF, 4);
    memset(mem, 0, (size_t)ext);
    pos = 0;
    RXT_MPI(MPI_Unpack_c(packed, need, &pos, mem, 1, vec, MPI_COMM_WORLD));
    RXT_CHECK(pos == BIG, "Unpack_c position %lld", (long long)pos);
    free(packed);
    /* the blocks hold the pattern again, the 4-byte hole zeros */
    RXT_CHECK(mem[HALF] == 0 && mem[HALF + 3] == 0, "Unpack_c wrote into the hole");
    memcpy(mem + HALF, hole, 4);
    long bad = rxt_verify(mem, (size_t)ext, 21);
    RXT_CHECK(bad < 0, "Unpack_c: byte %ld differs", bad);
    free(mem);
    MPI_Type_free(&vec);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "bigcount_dtype");
    test_constructors();
    test_big_contiguous();
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    test_big_vector_pack();
    return rxt_finish();
}
