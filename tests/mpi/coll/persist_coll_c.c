/* SPDX-License-Identifier: MIT
 * The large-count forms of the persistent v and w collectives (MPI-4.0
 * §6.13 with MPI_Count counts and MPI_Aint displacements): Gatherv_init_c,
 * Scatterv_init_c, Allgatherv_init_c, Alltoallv_init_c, Alltoallw_init_c,
 * Reduce_scatter_init_c and the neighbourhood Allgatherv/Alltoallv/
 * Alltoallw_init_c. Counts differ by rank and peer (zero included), blocks
 * lie in reverse order with gaps that must stay untouched, every request is
 * started in several rounds with new data and the results checked against
 * a serial reference; the argument errors of the init calls. */
#include "rxtest.h"

#if defined(RDMX) || MPI_VERSION >= 4

#define ROUNDS 6
#define GAP (-7) /* what the gaps between received blocks hold */

static int me, np;

static int val(int from, int round, int i) { return from * 100003 + round * 7919 + i; }

/* Elements rank `from` sends to rank `to` in the all-to-all forms (0 for some pairs). */
static int pair_count(int from, int to) { return (from + 2 * to) % 4; }

/* Reverse order with a one-element gap after each block: the displacement of block p. */
static void reverse_layout(const MPI_Count *cnt, int n, MPI_Aint *dsp, MPI_Count *total)
{
    MPI_Aint at = 0;
    for (int p = n - 1; p >= 0; p--) {
        dsp[p] = at;
        at += (MPI_Aint)cnt[p] + 1;
    }
    *total = at;
}

static void check_blocks(const int *buf, const MPI_Count *cnt, const MPI_Aint *dsp, int n,
                         MPI_Count total, int (*want)(int p, int i, int round), int round,
                         const char *what)
{
    char *covered = calloc((size_t)total + 1, 1);
    for (int p = 0; p < n; p++)
        for (MPI_Count i = 0; i < cnt[p]; i++) {
            int got = buf[dsp[p] + i], w = want(p, (int)i, round);
            RXT_CHECK(got == w, "%s round %d: block %d [%lld] = %d, expected %d", what, round, p,
                      (long long)i, got, w);
            covered[dsp[p] + i] = 1;
        }
    for (MPI_Count k = 0; k < total; k++)
        if (!covered[k])
            RXT_CHECK(buf[k] == GAP, "%s round %d: gap at %lld overwritten (%d)", what, round,
                      (long long)k, buf[k]);
    free(covered);
}

static void reset(int *buf, MPI_Count n) { for (MPI_Count k = 0; k < n; k++) buf[k] = GAP; }

static int root_of_all; /* the root of the rooted forms */

static int want_gather(int p, int i, int round) { return val(p, round, i); }
static int want_a2a(int p, int i, int round) { return val(p * 64 + me, round, i); }

static void rooted_and_all(void)
{
    MPI_Count *cnt = malloc(sizeof(MPI_Count) * (size_t)np), total;
    MPI_Aint *dsp = malloc(sizeof(MPI_Aint) * (size_t)np);
    for (int p = 0; p < np; p++)
        cnt[p] = (p * 3 + 1) % 4; /* rank 1 of 4 and rank 5 contribute nothing */
    reverse_layout(cnt, np, dsp, &total);
    int root = root_of_all = np - 1;
    int *s = malloc(sizeof(int) * 4), *gv = malloc(sizeof(int) * (size_t)(total + 1));
    int *agv = malloc(sizeof(int) * (size_t)(total + 1)), *sv = malloc(sizeof(int) * (size_t)total);
    int *scv = malloc(sizeof(int) * 4);
    enum { GV, SCV, AGV, NQ };
    MPI_Request q[NQ];
    RXT_MPI(MPI_Gatherv_init_c(s, cnt[me], MPI_INT, gv, cnt, dsp, MPI_INT, root, MPI_COMM_WORLD,
                               MPI_INFO_NULL, &q[GV]));
    RXT_MPI(MPI_Scatterv_init_c(sv, cnt, dsp, MPI_INT, scv, cnt[me], MPI_INT, root, MPI_COMM_WORLD,
                                MPI_INFO_NULL, &q[SCV]));
    RXT_MPI(MPI_Allgatherv_init_c(s, cnt[me], MPI_INT, agv, cnt, dsp, MPI_INT, MPI_COMM_WORLD,
                                  MPI_INFO_NULL, &q[AGV]));
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < 4; i++)
            s[i] = val(me, round, i), scv[i] = GAP;
        for (int p = 0; p < np; p++)
            for (MPI_Count i = 0; i < cnt[p]; i++)
                sv[dsp[p] + i] = val(p, round, (int)i); /* block p goes to rank p */
        reset(gv, total);
        reset(agv, total);
        RXT_MPI(MPI_Startall(NQ, q));
        RXT_MPI(MPI_Waitall(NQ, q, MPI_STATUSES_IGNORE));
        if (me == root)
            check_blocks(gv, cnt, dsp, np, total, want_gather, round, "gatherv_init_c");
        check_blocks(agv, cnt, dsp, np, total, want_gather, round, "allgatherv_init_c");
        for (int i = 0; i < 4; i++)
            RXT_CHECK(scv[i] == (i < cnt[me] ? val(me, round, i) : GAP),
                      "scatterv_init_c round %d [%d] = %d", round, i, scv[i]);
    }
    for (int k = 0; k < NQ; k++)
        RXT_MPI(MPI_Request_free(&q[k]));
    free(cnt), free(dsp), free(s), free(gv), free(agv), free(sv), free(scv);
}

static void all_to_all(void)
{
    size_t n = (size_t)np;
    MPI_Count *sc = malloc(sizeof(MPI_Count) * n), *rc = malloc(sizeof(MPI_Count) * n), st, rt;
    MPI_Aint *sd = malloc(sizeof(MPI_Aint) * n), *rd = malloc(sizeof(MPI_Aint) * n);
    MPI_Aint *sdb = malloc(sizeof(MPI_Aint) * n), *rdb = malloc(sizeof(MPI_Aint) * n);
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * n);
    for (int p = 0; p < np; p++) {
        sc[p] = pair_count(me, p);
        rc[p] = pair_count(p, me);
        types[p] = MPI_INT;
    }
    reverse_layout(sc, np, sd, &st);
    reverse_layout(rc, np, rd, &rt);
    for (int p = 0; p < np; p++) {
        sdb[p] = sd[p] * (MPI_Aint)sizeof(int);
        rdb[p] = rd[p] * (MPI_Aint)sizeof(int);
    }
    int *s = malloc(sizeof(int) * (size_t)(st + 1)), *rv = malloc(sizeof(int) * (size_t)(rt + 1));
    int *rw = malloc(sizeof(int) * (size_t)(rt + 1));
    enum { V, W, NQ };
    MPI_Request q[NQ];
    RXT_MPI(MPI_Alltoallv_init_c(s, sc, sd, MPI_INT, rv, rc, rd, MPI_INT, MPI_COMM_WORLD,
                                 MPI_INFO_NULL, &q[V]));
    RXT_MPI(MPI_Alltoallw_init_c(s, sc, sdb, types, rw, rc, rdb, types, MPI_COMM_WORLD,
                                 MPI_INFO_NULL, &q[W]));
    for (int round = 0; round < ROUNDS; round++) {
        for (int p = 0; p < np; p++)
            for (MPI_Count i = 0; i < sc[p]; i++)
                s[sd[p] + i] = val(me * 64 + p, round, (int)i);
        reset(rv, rt);
        reset(rw, rt);
        RXT_MPI(MPI_Startall(NQ, q));
        RXT_MPI(MPI_Waitall(NQ, q, MPI_STATUSES_IGNORE));
        check_blocks(rv, rc, rd, np, rt, want_a2a, round, "alltoallv_init_c");
        check_blocks(rw, rc, rd, np, rt, want_a2a, round, "alltoallw_init_c");
    }
    for (int k = 0; k < NQ; k++)
        RXT_MPI(MPI_Request_free(&q[k]));
    free(sc), free(rc), free(sd), free(rd), free(sdb), free(rdb), free(types), free(s), free(rv);
    free(rw);
}

static void reduce_scatter(void)
{
    MPI_Count *rc = malloc(sizeof(MPI_Count) * (size_t)np), total = 0, mine = 0;
    for (int p = 0; p < np; p++) {
        rc[p] = (p + 2) % 3; /* some ranks get nothing */
        if (p < me)
            mine += rc[p];
        total += rc[p];
    }
    int *s = malloc(sizeof(int) * (size_t)(total + 1)), r[3];
    MPI_Request q;
    RXT_MPI(MPI_Reduce_scatter_init_c(s, r, rc, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                                      &q));
    for (int round = 0; round < ROUNDS; round++) {
        for (MPI_Count k = 0; k < total; k++)
            s[k] = val(me, round, (int)k);
        r[0] = r[1] = r[2] = GAP;
        RXT_MPI(MPI_Start(&q));
        RXT_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
        for (int i = 0; i < 3; i++) {
            int want = GAP;
            if (i < rc[me]) {
                want = 0;
                for (int p = 0; p < np; p++)
                    want += val(p, round, (int)(mine + i));
            }
            RXT_CHECK(r[i] == want, "reduce_scatter_init_c round %d [%d] = %d, expected %d",
                      round, i, r[i], want);
        }
    }
    RXT_MPI(MPI_Request_free(&q));
    free(rc), free(s);
}

/* A periodic ring: neighbour 0 is the left one, 1 the right one. Block j of
 * the send side goes to neighbour j; the left neighbour's block 1 and the
 * right neighbour's block 0 arrive. */
static int nb_left, nb_right;
static int want_nb_ag(int j, int i, int round) { return val(j ? nb_right : nb_left, round, i); }
static int want_nb_a2a(int j, int i, int round)
{
    return j == 0 ? val(nb_left * 2 + 1, round, i) : val(nb_right * 2, round, i);
}

static void neighbours(void)
{
    int dims[1] = {np}, periods[1] = {1};
    MPI_Comm ring;
    RXT_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    RXT_MPI(MPI_Cart_shift(ring, 0, 1, &nb_left, &nb_right));
    /* to the left 1 element, to the right 3: from the left 3, from the right 1 */
    MPI_Count sc[2] = {1, 3}, rc[2] = {3, 1}, agc[2] = {2, 2}, st, rt, agt;
    MPI_Aint sd[2], rd[2], agd[2], sdb[2], rdb[2];
    reverse_layout(sc, 2, sd, &st);
    reverse_layout(rc, 2, rd, &rt);
    reverse_layout(agc, 2, agd, &agt);
    for (int j = 0; j < 2; j++) {
        sdb[j] = sd[j] * (MPI_Aint)sizeof(int);
        rdb[j] = rd[j] * (MPI_Aint)sizeof(int);
    }
    MPI_Datatype types[2] = {MPI_INT, MPI_INT};
    int s[8], ag[8], a2av[8], a2aw[8], mine[2];
    enum { AGV, A2AV, A2AW, NQ };
    MPI_Request q[NQ];
    RXT_MPI(MPI_Neighbor_allgatherv_init_c(mine, 2, MPI_INT, ag, agc, agd, MPI_INT, ring,
                                           MPI_INFO_NULL, &q[AGV]));
    RXT_MPI(MPI_Neighbor_alltoallv_init_c(s, sc, sd, MPI_INT, a2av, rc, rd, MPI_INT, ring,
                                          MPI_INFO_NULL, &q[A2AV]));
    RXT_MPI(MPI_Neighbor_alltoallw_init_c(s, sc, sdb, types, a2aw, rc, rdb, types, ring,
                                          MPI_INFO_NULL, &q[A2AW]));
    for (int round = 0; round < ROUNDS; round++) {
        mine[0] = val(me, round, 0);
        mine[1] = val(me, round, 1);
        for (int j = 0; j < 2; j++)
            for (MPI_Count i = 0; i < sc[j]; i++)
                s[sd[j] + i] = val(me * 2 + j, round, (int)i);
        reset(ag, agt);
        reset(a2av, rt);
        reset(a2aw, rt);
        RXT_MPI(MPI_Startall(NQ, q));
        RXT_MPI(MPI_Waitall(NQ, q, MPI_STATUSES_IGNORE));
        check_blocks(ag, agc, agd, 2, agt, want_nb_ag, round, "neighbor_allgatherv_init_c");
#ifdef MPICH_VERSION
        /* MPICH 4.0.2 misplaces the blocks when both neighbours are one rank (1-2 ranks) */
        if (np <= 2)
            continue;
#endif
        check_blocks(a2av, rc, rd, 2, rt, want_nb_a2a, round, "neighbor_alltoallv_init_c");
        check_blocks(a2aw, rc, rd, 2, rt, want_nb_a2a, round, "neighbor_alltoallw_init_c");
    }
    for (int k = 0; k < NQ; k++)
        RXT_MPI(MPI_Request_free(&q[k]));
    RXT_MPI(MPI_Comm_free(&ring));
}

static void errors(void)
{
    int x = 0, y = 0;
    MPI_Count one[64];
    MPI_Aint zero[64] = {0};
    for (int i = 0; i < 64; i++)
        one[i] = 1;
    MPI_Request q;
    RXT_EXPECT_CLASS(MPI_ERR_COUNT, MPI_Gatherv_init_c(&x, -1, MPI_INT, &y, one, zero, MPI_INT, 0,
                                                       MPI_COMM_WORLD, MPI_INFO_NULL, &q));
    RXT_EXPECT_CLASS(MPI_ERR_ROOT, MPI_Scatterv_init_c(&x, one, zero, MPI_INT, &y, 1, MPI_INT, np,
                                                       MPI_COMM_WORLD, MPI_INFO_NULL, &q));
    RXT_EXPECT_CLASS(MPI_ERR_TYPE,
                     MPI_Allgatherv_init_c(&x, 1, MPI_DATATYPE_NULL, &y, one, zero, MPI_INT,
                                           MPI_COMM_WORLD, MPI_INFO_NULL, &q));
    RXT_EXPECT_CLASS(MPI_ERR_OP, MPI_Reduce_scatter_init_c(&x, &y, one, MPI_INT, MPI_OP_NULL,
                                                           MPI_COMM_WORLD, MPI_INFO_NULL, &q));
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Alltoallv_init_c(&x, one, zero, MPI_INT, &y, one, zero,
                                                        MPI_INT, MPI_COMM_NULL, MPI_INFO_NULL,
                                                        &q));
    MPI_Datatype t[64];
    for (int i = 0; i < 64; i++)
        t[i] = MPI_INT;
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Alltoallw_init_c(&x, one, zero, t, &y, one, zero, t,
                                                        MPI_COMM_NULL, MPI_INFO_NULL, &q));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Alltoallw_init_c(&x, one, zero, t, &y, one, zero, t,
                                                       MPI_COMM_WORLD, MPI_INFO_NULL, NULL));
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "persist_coll_c");
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    rooted_and_all();
    all_to_all();
    reduce_scatter();
    neighbours();
    RXT_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    if (np <= 64)
        errors();
    return rxt_finish();
}

#else
int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "persist_coll_c");
    if (rxt_rank == 0)
        printf("persist_coll_c: no MPI-4 large-count persistent collectives, skipped\n");
    return rxt_finish();
}
#endif
