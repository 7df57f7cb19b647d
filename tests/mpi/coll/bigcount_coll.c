/* SPDX-License-Identifier: MIT
 * MPI-4 large counts in collectives (the _c forms):
 *   - MPI_Bcast_c of 2^31 + 8 bytes (a count no int holds), every byte checked at every
 *     rank (at most two ranks take part: 2 GiB + 8 B each);
 *   - every other blocking and nonblocking _c collective with small counts, whose count
 *     arrays are MPI_Count and displacements MPI_Aint (a displacement array read as int
 *     would place the blocks wrongly): results against serial references;
 *   - a non-commutative MPI_User_function_c made by MPI_Op_create_c in MPI_Allreduce_c;
 *   - MPI_Reduce_local_c, and argument errors the same as the int forms'. */
#include "rxtest.h"

#define BIG (((MPI_Count)1 << 31) + 8)

/* MPICH 4.0.2's neighbourhood alltoallv/w on a periodic ring of one or two ranks, where
 * both neighbours are the same process, deliver each block to the slot of the direction
 * it left by instead of the one it arrives from (MPI-4.1 8.6): checked elsewhere. */
#ifdef MPICH_VERSION
#define CHECK_NBR_SAME_PEER 0
#else
#define CHECK_NBR_SAME_PEER 1
#endif

static void test_big_bcast(void)
{
    MPI_Comm two;
    RXT_MPI(MPI_Comm_split(MPI_COMM_WORLD, rxt_rank < 2 ? 0 : MPI_UNDEFINED, rxt_rank, &two));
    if (two == MPI_COMM_NULL)
        return;
    unsigned char *buf = rxt_big_alloc((size_t)BIG);
    if (!buf)
        RXT_FATAL("no memory for %lld bytes", (long long)BIG);
    if (rxt_rank == 0)
        rxt_fill(buf, (size_t)BIG, 5);
    else
        memset(buf, 0, (size_t)BIG);
    RXT_MPI(MPI_Bcast_c(buf, BIG, MPI_BYTE, 0, two));
    long bad = rxt_verify(buf, (size_t)BIG, 5);
    RXT_CHECK(bad < 0, "Bcast_c of %lld bytes: byte %ld differs", (long long)BIG, bad);
    free(buf);
    RXT_MPI(MPI_Comm_free(&two));
}

static int twice_calls, twice_len_ok = 1;

/* inoutvec = invec: the first operand wins (associative, not commutative) */
static void first_wins(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
    long long *a = in, *b = inout;
    twice_calls++;
    if (*len < 1 || *len > 64 || *dt != MPI_LONG_LONG)
        twice_len_ok = 0;
    for (MPI_Count i = 0; i < *len; i++)
        b[i] = a[i];
}

/* value of element i of rank r's contribution */
static long long val(int r, long long i) { return (long long)r * 1000 + i; }

static void test_reductions(void)
{
    enum { N = 64 };
    int p = rxt_size, me = rxt_rank;
    long long in[N], out[N], want[N];
    MPI_Request rq;
    for (int nb = 0; nb < 2; nb++) {
        for (int i = 0; i < N; i++)
            in[i] = val(me, i);
        /* allreduce */
        RXT_MPI(nb ? MPI_Iallreduce_c(in, out, N, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD, &rq)
                   : MPI_Allreduce_c(in, out, N, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD));
        if (nb)
            RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        for (int i = 0; i < N; i++) {
            want[i] = 0;
            for (int r = 0; r < p; r++)
                want[i] += val(r, i);
            RXT_CHECK(out[i] == want[i], "allreduce_c nb=%d [%d] %lld want %lld", nb, i, out[i],
                      want[i]);
        }
        /* reduce to the last rank */
        memset(out, 0, sizeof out);
        RXT_MPI(nb ? MPI_Ireduce_c(in, out, N, MPI_LONG_LONG, MPI_SUM, p - 1, MPI_COMM_WORLD, &rq)
                   : MPI_Reduce_c(in, out, N, MPI_LONG_LONG, MPI_SUM, p - 1, MPI_COMM_WORLD));
        if (nb)
            RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        if (me == p - 1)
            for (int i = 0; i < N; i++)
                RXT_CHECK(out[i] == want[i], "reduce_c nb=%d [%d] %lld", nb, i, out[i]);
        /* scan and exscan */
        RXT_MPI(nb ? MPI_Iscan_c(in, out, N, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD, &rq)
                   : MPI_Scan_c(in, out, N, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD));
        if (nb)
            RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        for (int i = 0; i < N; i++) {
            long long w = 0;
            for (int r = 0; r <= me; r++)
                w += val(r, i);
            RXT_CHECK(out[i] == w, "scan_c nb=%d [%d] %lld want %lld", nb, i, out[i], w);
        }
        RXT_MPI(nb ? MPI_Iexscan_c(in, out, N, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD, &rq)
                   : MPI_Exscan_c(in, out, N, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD));
        if (nb)
            RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        for (int i = 0; me > 0 && i < N; i++) {
            long long w = 0;
            for (int r = 0; r < me; r++)
                w += val(r, i);
            RXT_CHECK(out[i] == w, "exscan_c nb=%d [%d] %lld want %lld", nb, i, out[i], w);
        }
        /* reduce_scatter with MPI_Count counts: rank r gets r + 1 elements */
        MPI_Count rc[64];
        long long total = 0;
        for (int r = 0; r < p; r++)
            total += rc[r] = r + 1;
        long long *sin = malloc(sizeof *sin * (size_t)total), rout[64];
        for (long long i = 0; i < total; i++)
            sin[i] = val(me, i);
        RXT_MPI(nb ? MPI_Ireduce_scatter_c(sin, rout, rc, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD,
                                           &rq)
                   : MPI_Reduce_scatter_c(sin, rout, rc, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD));
        if (nb)
            RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        long long off = (long long)me * (me + 1) / 2;
        for (int i = 0; i <= me; i++) {
            long long w = 0;
            for (int r = 0; r < p; r++)
                w += val(r, off + i);
            RXT_CHECK(rout[i] == w, "reduce_scatter_c nb=%d [%d] %lld want %lld", nb, i,
                      rout[i], w);
        }
        free(sin);
        /* reduce_scatter_block */
        long long *bin = malloc(sizeof *bin * 3 * (size_t)p), bout[3];
        for (int i = 0; i < 3 * p; i++)
            bin[i] = val(me, i);
        RXT_MPI(nb ? MPI_Ireduce_scatter_block_c(bin, bout, 3, MPI_LONG_LONG, MPI_SUM,
                                                 MPI_COMM_WORLD, &rq)
                   : MPI_Reduce_scatter_block_c(bin, bout, 3, MPI_LONG_LONG, MPI_SUM,
                                                MPI_COMM_WORLD));
        if (nb)
            RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        for (int i = 0; i < 3; i++) {
            long long w = 0;
            for (int r = 0; r < p; r++)
                w += val(r, 3 * me + i);
            RXT_CHECK(bout[i] == w, "reduce_scatter_block_c nb=%d [%d] %lld", nb, i, bout[i]);
        }
        free(bin);
    }
    /* a large-count user function that keeps the lowest rank's value */
    MPI_Op twice;
    RXT_MPI(MPI_Op_create_c(first_wins, 0, &twice));
    long long u[N], v[N];
    for (int i = 0; i < N; i++)
        u[i] = me + i;
    RXT_MPI(MPI_Allreduce_c(u, v, N, MPI_LONG_LONG, twice, MPI_COMM_WORLD));
    for (int i = 0; i < N; i++) /* a non-commutative op combines in rank order */
        RXT_CHECK(v[i] == i, "Op_create_c allreduce [%d] %lld want %d", i, v[i], i);
    RXT_CHECK((p == 1 || twice_calls > 0) && twice_len_ok, "the MPI_User_function_c was %s",
              twice_calls ? "given a wrong count" : "not called");
    RXT_MPI(MPI_Op_free(&twice));
    long long a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40};
    RXT_MPI(MPI_Reduce_local_c(a, b, 4, MPI_LONG_LONG, MPI_SUM));
    RXT_CHECK(b[0] == 11 && b[3] == 44, "reduce_local_c %lld %lld", b[0], b[3]);
}

/* Movement collectives: rank r sends blocks of r + 1 ints; receive displacements leave
 * a gap of one element after each block, in MPI_Aint. */
static void test_movement(void)
{
    int p = rxt_size, me = rxt_rank;
    MPI_Count *cnt = malloc(sizeof *cnt * (size_t)p), *scnt = malloc(sizeof *scnt * (size_t)p);
    MPI_Aint *dsp = malloc(sizeof *dsp * (size_t)p), *sdsp = malloc(sizeof *sdsp * (size_t)p);
    MPI_Aint *bdsp = malloc(sizeof *bdsp * (size_t)p), *rbdsp = malloc(sizeof *rbdsp * (size_t)p);
    MPI_Datatype *types = malloc(sizeof *types * (size_t)p);
    MPI_Aint end = 0;
    for (int r = 0; r < p; r++) {
        cnt[r] = r + 1;
        dsp[r] = end;
        end += cnt[r] + 1;
        types[r] = MPI_INT;
    }
    int *mine = malloc(sizeof(int) * (size_t)(me + 1) * (size_t)p);
    int *all = malloc(sizeof(int) * (size_t)end * (size_t)(p + 1));
    for (int nb = 0; nb < 2; nb++) {
        MPI_Request rq = MPI_REQUEST_NULL;
        for (int i = 0; i <= me; i++)
            mine[i] = me * 100 + i;
        /* gatherv to root 0 and allgatherv */
        for (int form = 0; form < 2; form++) {
            for (MPI_Aint i = 0; i < end; i++)
                all[i] = -1;
            if (form == 0)
                RXT_MPI(nb ? MPI_Igatherv_c(mine, me + 1, MPI_INT, all, cnt, dsp, MPI_INT, 0,
                                            MPI_COMM_WORLD, &rq)
                           : MPI_Gatherv_c(mine, me + 1, MPI_INT, all, cnt, dsp, MPI_INT, 0,
                                           MPI_COMM_WORLD));
            else
                RXT_MPI(nb ? MPI_Iallgatherv_c(mine, me + 1, MPI_INT, all, cnt, dsp, MPI_INT,
                                               MPI_COMM_WORLD, &rq)
                           : MPI_Allgatherv_c(mine, me + 1, MPI_INT, all, cnt, dsp, MPI_INT,
                                              MPI_COMM_WORLD));
            RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            if (form == 1 || me == 0)
                for (int r = 0; r < p; r++) {
                    for (int i = 0; i <= r; i++)
                        RXT_CHECK(all[dsp[r] + i] == r * 100 + i, "%s nb=%d block %d [%d] %d",
                                  form ? "allgatherv_c" : "gatherv_c", nb, r, i, all[dsp[r] + i]);
                    RXT_CHECK(all[dsp[r] + r + 1] == -1, "gap after block %d written", r);
                }
        }
        /* scatterv from the last rank */
        for (MPI_Aint i = 0; i < end; i++)
            all[i] = (int)i * 3;
        int got[64];
        RXT_MPI(nb ? MPI_Iscatterv_c(all, cnt, dsp, MPI_INT, got, me + 1, MPI_INT, p - 1,
                                     MPI_COMM_WORLD, &rq)
                   : MPI_Scatterv_c(all, cnt, dsp, MPI_INT, got, me + 1, MPI_INT, p - 1,
                                    MPI_COMM_WORLD));
        RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        for (int i = 0; i <= me; i++)
            RXT_CHECK(got[i] == (int)(dsp[me] + i) * 3, "scatterv_c nb=%d [%d] %d", nb, i, got[i]);
        /* uniform gather, scatter, allgather, alltoall with 2 ints per rank */
        int two[2] = {me, -me}, *g = all;
        for (int k = 0; k < 4; k++) {
            for (int i = 0; i < 2 * p; i++)
                g[i] = -7;
            int sb[128];
            for (int i = 0; i < 2 * p; i++)
                sb[i] = me * 1000 + i;
            int out[2] = {-7, -7};
            switch (k) {
            case 0: RXT_MPI(nb ? MPI_Igather_c(two, 2, MPI_INT, g, 2, MPI_INT, 0, MPI_COMM_WORLD, &rq)
                               : MPI_Gather_c(two, 2, MPI_INT, g, 2, MPI_INT, 0, MPI_COMM_WORLD));
                    break;
            case 1: RXT_MPI(nb ? MPI_Iallgather_c(two, 2, MPI_INT, g, 2, MPI_INT, MPI_COMM_WORLD, &rq)
                               : MPI_Allgather_c(two, 2, MPI_INT, g, 2, MPI_INT, MPI_COMM_WORLD));
                    break;
            case 2: RXT_MPI(nb ? MPI_Iscatter_c(sb, 2, MPI_INT, out, 2, MPI_INT, 0, MPI_COMM_WORLD,
                                                &rq)
                               : MPI_Scatter_c(sb, 2, MPI_INT, out, 2, MPI_INT, 0, MPI_COMM_WORLD));
                    break;
            case 3: RXT_MPI(nb ? MPI_Ialltoall_c(sb, 2, MPI_INT, g, 2, MPI_INT, MPI_COMM_WORLD, &rq)
                               : MPI_Alltoall_c(sb, 2, MPI_INT, g, 2, MPI_INT, MPI_COMM_WORLD));
                    break;
            }
            RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            for (int r = 0; r < p; r++) {
                if ((k == 0 && me == 0) || k == 1)
                    RXT_CHECK(g[2 * r] == r && g[2 * r + 1] == -r, "k=%d nb=%d from %d: %d %d",
                              k, nb, r, g[2 * r], g[2 * r + 1]);
                if (k == 3)
                    RXT_CHECK(g[2 * r] == r * 1000 + 2 * me && g[2 * r + 1] == r * 1000 + 2 * me + 1,
                              "alltoall_c nb=%d from %d: %d", nb, r, g[2 * r]);
            }
            if (k == 2)
                RXT_CHECK(out[0] == 2 * me && out[1] == 2 * me + 1, "scatter_c nb=%d: %d %d", nb,
                          out[0], out[1]);
        }
        /* alltoallv and alltoallw: to rank r, r + 1 ints; from rank r, me + 1 ints at dsp */
        int *sbuf = malloc(sizeof(int) * (size_t)end), *rbuf = all;
        for (int r = 0; r < p; r++) {
            scnt[r] = me + 1;
            sdsp[r] = dsp[r];
            bdsp[r] = dsp[r] * (MPI_Aint)sizeof(int);
        }
        for (MPI_Aint i = 0; i < end; i++)
            sbuf[i] = me * 10000 + (int)i;
        for (int w = 0; w < 2; w++) {
            /* the receive layout: from rank r, me + 1 ints at r * (me + 2) */
            MPI_Count *rcnt = scnt;
            MPI_Aint *rdsp = malloc(sizeof *rdsp * (size_t)p);
            for (int r = 0; r < p; r++) {
                rdsp[r] = (MPI_Aint)r * (me + 2);
                rbdsp[r] = rdsp[r] * (MPI_Aint)sizeof(int);
            }
            for (int i = 0; i < p * (me + 2); i++)
                rbuf[i] = -1;
            if (!w)
                RXT_MPI(nb ? MPI_Ialltoallv_c(sbuf, cnt, sdsp, MPI_INT, rbuf, rcnt, rdsp, MPI_INT,
                                              MPI_COMM_WORLD, &rq)
                           : MPI_Alltoallv_c(sbuf, cnt, sdsp, MPI_INT, rbuf, rcnt, rdsp, MPI_INT,
                                             MPI_COMM_WORLD));
            else
                RXT_MPI(nb ? MPI_Ialltoallw_c(sbuf, cnt, bdsp, types, rbuf, rcnt, rbdsp, types,
                                              MPI_COMM_WORLD, &rq)
                           : MPI_Alltoallw_c(sbuf, cnt, bdsp, types, rbuf, rcnt, rbdsp, types,
                                             MPI_COMM_WORLD));
            RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            for (int r = 0; r < p; r++)
                for (int i = 0; i <= me; i++)
                    RXT_CHECK(rbuf[rdsp[r] + i] == r * 10000 + (int)dsp[me] + i,
                              "alltoall%c_c nb=%d from %d [%d]: %d", w ? 'w' : 'v', nb, r, i,
                              rbuf[rdsp[r] + i]);
            free(rdsp);
        }
        free(sbuf);
    }
    free(cnt);
    free(scnt);
    free(dsp);
    free(sdsp);
    free(bdsp);
    free(rbdsp);
    free(types);
    free(mine);
    free(all);
}

/* Neighbourhood _c forms on a periodic ring (Cartesian, 1 dimension). */
static void test_neighbor(void)
{
    int p = rxt_size, me = rxt_rank, dims[1] = {p}, periods[1] = {1};
    MPI_Comm ring;
    RXT_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    int left = (me + p - 1) % p, right = (me + 1) % p;
    MPI_Count c2[2] = {2, 2};
    MPI_Aint d2[2] = {0, 3}, b2[2] = {0, 3 * sizeof(int)};
    MPI_Datatype t2[2] = {MPI_INT, MPI_INT};
    for (int nb = 0; nb < 2; nb++) {
        for (int k = 0; k < 5; k++) {
            int s[6] = {me * 10, me * 10 + 1, -9, me * 10 + 3, me * 10 + 4, -9}, r[6];
            for (int i = 0; i < 6; i++)
                r[i] = -1;
            MPI_Request rq = MPI_REQUEST_NULL;
            switch (k) {
            case 0: RXT_MPI(nb ? MPI_Ineighbor_allgather_c(s, 2, MPI_INT, r, 2, MPI_INT, ring, &rq)
                               : MPI_Neighbor_allgather_c(s, 2, MPI_INT, r, 2, MPI_INT, ring));
                    break;
            case 1: RXT_MPI(nb ? MPI_Ineighbor_allgatherv_c(s, 2, MPI_INT, r, c2, d2, MPI_INT,
                                                            ring, &rq)
                               : MPI_Neighbor_allgatherv_c(s, 2, MPI_INT, r, c2, d2, MPI_INT,
                                                           ring));
                    break;
            case 2: RXT_MPI(nb ? MPI_Ineighbor_alltoall_c(s, 2, MPI_INT, r, 2, MPI_INT, ring, &rq)
                               : MPI_Neighbor_alltoall_c(s, 2, MPI_INT, r, 2, MPI_INT, ring));
                    break;
            case 3: RXT_MPI(nb ? MPI_Ineighbor_alltoallv_c(s, c2, d2, MPI_INT, r, c2, d2, MPI_INT,
                                                           ring, &rq)
                               : MPI_Neighbor_alltoallv_c(s, c2, d2, MPI_INT, r, c2, d2, MPI_INT,
                                                          ring));
                    break;
            case 4: RXT_MPI(nb ? MPI_Ineighbor_alltoallw_c(s, c2, b2, t2, r, c2, b2, t2, ring,
                                                           &rq)
                               : MPI_Neighbor_alltoallw_c(s, c2, b2, t2, r, c2, b2, t2, ring));
                    break;
            }
            RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            /* in-neighbours: left then right; offsets 0 and 2 (uniform) or 0 and 3 */
            int o1 = (k == 0 || k == 2) ? 2 : 3;
            if (k == 0 || k == 1) {
                RXT_CHECK(r[0] == left * 10 && r[1] == left * 10 + 1, "nbr k=%d nb=%d left %d %d",
                          k, nb, r[0], r[1]);
                RXT_CHECK(r[o1] == right * 10 && r[o1 + 1] == right * 10 + 1,
                          "nbr k=%d nb=%d right %d %d", k, nb, r[o1], r[o1 + 1]);
            } else if (k == 2) {
                /* uniform blocks of 2: block 0 to left, block 1 (s[2], s[3]) to right */
                RXT_CHECK(r[0] == -9 && r[1] == left * 10 + 3, "nbr alltoall nb=%d left %d %d", nb,
                          r[0], r[1]);
                RXT_CHECK(r[2] == right * 10 && r[3] == right * 10 + 1,
                          "nbr alltoall nb=%d right %d %d", nb, r[2], r[3]);
            } else if (CHECK_NBR_SAME_PEER || p > 2) {
                RXT_CHECK(r[0] == left * 10 + 3 && r[1] == left * 10 + 4,
                          "nbr k=%d nb=%d left %d %d", k, nb, r[0], r[1]);
                RXT_CHECK(r[3] == right * 10 && r[4] == right * 10 + 1,
                          "nbr k=%d nb=%d right %d %d", k, nb, r[3], r[4]);
            }
        }
    }
    RXT_MPI(MPI_Comm_free(&ring));
}

static void test_errors(void)
{
    int x[4] = {0};
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RXT_EXPECT_CLASS(MPI_ERR_COUNT, MPI_Bcast_c(x, -1, MPI_INT, 0, MPI_COMM_WORLD));
    RXT_EXPECT_CLASS(MPI_ERR_ROOT, MPI_Bcast_c(x, 1, MPI_INT, rxt_size, MPI_COMM_WORLD));
    /* MPICH checks the operation against the type first */
    RXT_EXPECT_EITHER(MPI_ERR_TYPE, MPI_ERR_OP, MPI_Allreduce_c(x, x + 1, 1, MPI_DATATYPE_NULL,
                                                                MPI_SUM, MPI_COMM_WORLD));
    RXT_EXPECT_CLASS(MPI_ERR_OP, MPI_Reduce_local_c(x, x + 1, 1, MPI_INT, MPI_OP_NULL));
    MPI_Request rq;
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Ibcast_c(x, 1, MPI_INT, 0, MPI_COMM_WORLD, NULL));
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Iallgather_c(x, 1, MPI_INT, x + 1, 1, MPI_INT,
                                                    MPI_COMM_NULL, &rq));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "bigcount_coll");
    test_big_bcast();
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    test_reductions();
    test_movement();
    test_neighbor();
    test_errors();
    return rxt_finish();
}
