/* SPDX-License-Identifier: MIT
 * Every collective against a serial reference: counts 0, 1, 13 (prime) and a large one,
 * every root, MPI_IN_PLACE, predefined ops on plain and pair types, a non-commutative user
 * op (composition of affine maps, which only the rank order gets right), v- and w-forms.
 * With the argument "nb" every call is the nonblocking form followed by MPI_Wait. The
 * testlist runs it under several RDMX_COLL_* settings so that each algorithm is covered. */
#include "rxtest.h"

#define LARGE 40009 /* vector collectives: above every size crossover */
#define BLOCK 2003  /* per-rank blocks of the gather / all-to-all family */
#define P 1009      /* modulus of the affine maps */

static int nb;
static MPI_Comm comm;
static int me, np;

#define RUN(blocking, nonblocking)                                                                \
    do {                                                                                          \
        if (nb) {                                                                                 \
            MPI_Request rq_;                                                                      \
            RXT_MPI(nonblocking);                                                                 \
            RXT_MPI(MPI_Wait(&rq_, MPI_STATUS_IGNORE));                                           \
        } else {                                                                                  \
            RXT_MPI(blocking);                                                                    \
        }                                                                                         \
    } while (0)

static int val(int r, int i) { return r * 1000 + (i % 997); }

/* (a, b) is x -> a x + b mod P; inout = in o inout (in is the lower rank range). */
static void affine(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    int *x = in, *y = inout;
    for (int i = 0; i < *len; i++) {
        int a = (int)((long)x[2 * i] * y[2 * i] % P);
        int b = (int)(((long)x[2 * i] * y[2 * i + 1] + x[2 * i + 1]) % P);
        y[2 * i] = a;
        y[2 * i + 1] = b;
    }
}

static void aff_val(int r, int i, int *ab)
{
    ab[0] = 1 + (r * 7 + i) % (P - 1);
    ab[1] = (r * 13 + i * 3) % P;
}

/* Reference: composition over ranks lo..hi-1 in order. */
static void aff_ref(int lo, int hi, int i, int *ab)
{
    ab[0] = 1;
    ab[1] = 0;
    for (int r = hi - 1; r >= lo; r--) {
        int x[2], len = 1;
        aff_val(r, i, x);
        affine(x, ab, &len, NULL);
    }
}

static MPI_Op aff_op;

static void t_bcast(int n)
{
    int *b = malloc(sizeof(int) * (size_t)(n + 1));
    for (int root = 0; root < np; root++) {
        for (int i = 0; i < n; i++)
            b[i] = me == root ? val(root, i) : -1;
        RUN(MPI_Bcast(b, n, MPI_INT, root, comm), MPI_Ibcast(b, n, MPI_INT, root, comm, &rq_));
        for (int i = 0; i < n; i++)
            RXT_CHECK(b[i] == val(root, i), "bcast n=%d root=%d [%d]=%d", n, root, i, b[i]);
    }
    /* a pair type: travels packed */
    struct { double d; int i; } *di = malloc(sizeof *di * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        di[i].d = me == 0 ? i * 0.5 : -1;
        di[i].i = me == 0 ? i : -1;
    }
    RUN(MPI_Bcast(di, n, MPI_DOUBLE_INT, 0, comm), MPI_Ibcast(di, n, MPI_DOUBLE_INT, 0, comm, &rq_));
    for (int i = 0; i < n; i++)
        RXT_CHECK(di[i].d == i * 0.5 && di[i].i == i, "bcast double_int n=%d [%d]", n, i);
    free(di);
    free(b);
}

static void t_reduce(int n)
{
    int *s = malloc(sizeof(int) * 2 * (size_t)(n + 1)), *r = malloc(sizeof(int) * 2 * (size_t)(n + 1));
    for (int root = 0; root < np; root++) {
        int inplace = root % 2 == 1 && me == root;
        for (int i = 0; i < n; i++)
            (inplace ? r : s)[i] = val(me, i);
        RUN(MPI_Reduce(inplace ? MPI_IN_PLACE : s, r, n, MPI_INT, MPI_SUM, root, comm),
            MPI_Ireduce(inplace ? MPI_IN_PLACE : s, r, n, MPI_INT, MPI_SUM, root, comm, &rq_));
        if (me == root)
            for (int i = 0; i < n; i++) {
                int want = 0;
                for (int q = 0; q < np; q++)
                    want += val(q, i);
                RXT_CHECK(r[i] == want, "reduce sum n=%d root=%d [%d]=%d want %d", n, root, i, r[i], want);
            }
        for (int i = 0; i < n; i++)
            aff_val(me, i, s + 2 * i);
        RUN(MPI_Reduce(s, r, n, MPI_2INT, aff_op, root, comm),
            MPI_Ireduce(s, r, n, MPI_2INT, aff_op, root, comm, &rq_));
        if (me == root)
            for (int i = 0; i < n; i++) {
                int want[2];
                aff_ref(0, np, i, want);
                RXT_CHECK(r[2 * i] == want[0] && r[2 * i + 1] == want[1],
                          "reduce affine n=%d root=%d [%d]", n, root, i);
            }
    }
    free(s);
    free(r);
}

static void t_allreduce(int n)
{
    int *s = malloc(sizeof(int) * 2 * (size_t)(n + 1)), *r = malloc(sizeof(int) * 2 * (size_t)(n + 1));
    for (int inplace = 0; inplace < 2; inplace++) {
        for (int i = 0; i < n; i++)
            (inplace ? r : s)[i] = val(me, i);
        RUN(MPI_Allreduce(inplace ? MPI_IN_PLACE : s, r, n, MPI_INT, MPI_SUM, comm),
            MPI_Iallreduce(inplace ? MPI_IN_PLACE : s, r, n, MPI_INT, MPI_SUM, comm, &rq_));
        for (int i = 0; i < n; i++) {
            int want = 0;
            for (int q = 0; q < np; q++)
                want += val(q, i);
            RXT_CHECK(r[i] == want, "allreduce sum n=%d inplace=%d [%d]=%d want %d", n, inplace, i, r[i], want);
        }
        for (int i = 0; i < n; i++)
            aff_val(me, i, (inplace ? r : s) + 2 * i);
        RUN(MPI_Allreduce(inplace ? MPI_IN_PLACE : s, r, n, MPI_2INT, aff_op, comm),
            MPI_Iallreduce(inplace ? MPI_IN_PLACE : s, r, n, MPI_2INT, aff_op, comm, &rq_));
        for (int i = 0; i < n; i++) {
            int want[2];
            aff_ref(0, np, i, want);
            RXT_CHECK(r[2 * i] == want[0] && r[2 * i + 1] == want[1],
                      "allreduce affine n=%d inplace=%d [%d]=(%d,%d) want (%d,%d)", n, inplace, i,
                      r[2 * i], r[2 * i + 1], want[0], want[1]);
        }
    }
    /* MINLOC on a pair type, MAX on doubles, BXOR on unsigned */
    struct { double d; int i; } *a = malloc(sizeof *a * (size_t)(n + 1)), *b = malloc(sizeof *b * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        a[i].d = (double)((me * 5 + i) % np);
        a[i].i = me;
    }
    RUN(MPI_Allreduce(a, b, n, MPI_DOUBLE_INT, MPI_MINLOC, comm),
        MPI_Iallreduce(a, b, n, MPI_DOUBLE_INT, MPI_MINLOC, comm, &rq_));
    for (int i = 0; i < n; i++) {
        double wd = 1e9;
        int wi = -1;
        for (int q = 0; q < np; q++)
            if ((double)((q * 5 + i) % np) < wd) {
                wd = (double)((q * 5 + i) % np);
                wi = q;
            }
        RXT_CHECK(b[i].d == wd && b[i].i == wi, "minloc n=%d [%d]=(%g,%d) want (%g,%d)", n, i, b[i].d, b[i].i, wd, wi);
    }
    free(a);
    free(b);
    unsigned *u = malloc(sizeof(unsigned) * (size_t)(n + 1)), *v = malloc(sizeof(unsigned) * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        u[i] = (unsigned)(me + 1) * 2654435761u ^ (unsigned)i;
    RUN(MPI_Allreduce(u, v, n, MPI_UNSIGNED, MPI_BXOR, comm),
        MPI_Iallreduce(u, v, n, MPI_UNSIGNED, MPI_BXOR, comm, &rq_));
    for (int i = 0; i < n; i++) {
        unsigned w = 0;
        for (int q = 0; q < np; q++)
            w ^= (unsigned)(q + 1) * 2654435761u ^ (unsigned)i;
        RXT_CHECK(v[i] == w, "bxor n=%d [%d]", n, i);
    }
    free(u);
    free(v);
    free(s);
    free(r);
}

static void t_scan(int n)
{
    int *s = malloc(sizeof(int) * 2 * (size_t)(n + 1)), *r = malloc(sizeof(int) * 2 * (size_t)(n + 1));
    for (int ex = 0; ex < 2; ex++) {
        for (int inplace = 0; inplace < 2; inplace++) {
            for (int i = 0; i < n; i++)
                aff_val(me, i, (inplace ? r : s) + 2 * i);
            const void *sb = inplace ? MPI_IN_PLACE : s;
            if (ex)
                RUN(MPI_Exscan(sb, r, n, MPI_2INT, aff_op, comm),
                    MPI_Iexscan(sb, r, n, MPI_2INT, aff_op, comm, &rq_));
            else
                RUN(MPI_Scan(sb, r, n, MPI_2INT, aff_op, comm),
                    MPI_Iscan(sb, r, n, MPI_2INT, aff_op, comm, &rq_));
            if (ex && me == 0)
                continue;
            for (int i = 0; i < n; i++) {
                int want[2];
                aff_ref(0, ex ? me : me + 1, i, want);
                RXT_CHECK(r[2 * i] == want[0] && r[2 * i + 1] == want[1],
                          "%sscan n=%d inplace=%d [%d]", ex ? "ex" : "", n, inplace, i);
            }
        }
        for (int i = 0; i < n; i++)
            s[i] = val(me, i);
        if (ex)
            RUN(MPI_Exscan(s, r, n, MPI_INT, MPI_SUM, comm), MPI_Iexscan(s, r, n, MPI_INT, MPI_SUM, comm, &rq_));
        else
            RUN(MPI_Scan(s, r, n, MPI_INT, MPI_SUM, comm), MPI_Iscan(s, r, n, MPI_INT, MPI_SUM, comm, &rq_));
        if (!(ex && me == 0))
            for (int i = 0; i < n; i++) {
                int want = 0;
                for (int q = 0; q < (ex ? me : me + 1); q++)
                    want += val(q, i);
                RXT_CHECK(r[i] == want, "%sscan sum n=%d [%d]", ex ? "ex" : "", n, i);
            }
    }
    free(s);
    free(r);
}

static void t_reduce_scatter(int n)
{
    int *cnt = malloc(sizeof(int) * (size_t)np), total = 0;
    for (int i = 0; i < np; i++)
        total += cnt[i] = n ? (n + i) % 5 + (i == 1 ? n : 0) : 0;
    int m = total > n * np ? total : n * np;
    int *s = malloc(sizeof(int) * 2 * (size_t)(m + 1)), *r = malloc(sizeof(int) * 2 * (size_t)(m + 1));
    for (int inplace = 0; inplace < 2; inplace++) {
        int *in = inplace ? r : s;
        for (int i = 0; i < n * np; i++)
            in[i] = val(me, i);
        RUN(MPI_Reduce_scatter_block(inplace ? MPI_IN_PLACE : s, r, n, MPI_INT, MPI_SUM, comm),
            MPI_Ireduce_scatter_block(inplace ? MPI_IN_PLACE : s, r, n, MPI_INT, MPI_SUM, comm, &rq_));
        for (int i = 0; i < n; i++) {
            int want = 0;
            for (int q = 0; q < np; q++)
                want += val(q, me * n + i);
            RXT_CHECK(r[i] == want, "reduce_scatter_block n=%d inplace=%d [%d]", n, inplace, i);
        }
        for (int i = 0; i < total; i++)
            aff_val(me, i, in + 2 * i);
        RUN(MPI_Reduce_scatter(inplace ? MPI_IN_PLACE : s, r, cnt, MPI_2INT, aff_op, comm),
            MPI_Ireduce_scatter(inplace ? MPI_IN_PLACE : s, r, cnt, MPI_2INT, aff_op, comm, &rq_));
        int off = 0;
        for (int q = 0; q < me; q++)
            off += cnt[q];
        for (int i = 0; i < cnt[me]; i++) {
            int want[2];
            aff_ref(0, np, off + i, want);
            RXT_CHECK(r[2 * i] == want[0] && r[2 * i + 1] == want[1],
                      "reduce_scatter affine n=%d inplace=%d [%d]", n, inplace, i);
        }
    }
    free(cnt);
    free(s);
    free(r);
}

static void t_gather_scatter(int n)
{
    int *s = malloc(sizeof(int) * (size_t)(n * np + 1)), *r = malloc(sizeof(int) * (size_t)(n * np + 1));
    int *cnt = malloc(sizeof(int) * (size_t)np), *dsp = malloc(sizeof(int) * (size_t)np), tot = 0;
    for (int q = 0; q < np; q++) {
        cnt[q] = n ? (n * (q + 1)) % (n + 1) : 0;
        tot += cnt[q];
    }
    /* displacements in reverse rank order with gaps of one */
    for (int q = np - 1, o = 0; q >= 0; q--) {
        dsp[q] = o;
        o += cnt[q] + 1;
    }
    int *rv = malloc(sizeof(int) * (size_t)(tot + np + 1));
    for (int root = 0; root < np; root++) {
        int inplace = root % 2 == 0 && me == root;
        for (int i = 0; i < n; i++)
            s[i] = val(me, i);
        for (int i = 0; i < n * np; i++)
            r[i] = -1;
        if (inplace)
            for (int i = 0; i < n; i++)
                r[root * n + i] = val(root, i);
        RUN(MPI_Gather(inplace ? MPI_IN_PLACE : s, n, MPI_INT, r, n, MPI_INT, root, comm),
            MPI_Igather(inplace ? MPI_IN_PLACE : s, n, MPI_INT, r, n, MPI_INT, root, comm, &rq_));
        if (me == root)
            for (int i = 0; i < n * np; i++)
                RXT_CHECK(r[i] == val(i / n, i % n), "gather n=%d root=%d [%d]", n, root, i);
        /* gatherv */
        for (int i = 0; i < cnt[me]; i++)
            s[i] = val(me, i);
        for (int i = 0; i < tot + np; i++)
            rv[i] = -7;
        RUN(MPI_Gatherv(s, cnt[me], MPI_INT, rv, cnt, dsp, MPI_INT, root, comm),
            MPI_Igatherv(s, cnt[me], MPI_INT, rv, cnt, dsp, MPI_INT, root, comm, &rq_));
        if (me == root)
            for (int q = 0; q < np; q++) {
                for (int i = 0; i < cnt[q]; i++)
                    RXT_CHECK(rv[dsp[q] + i] == val(q, i), "gatherv n=%d root=%d q=%d [%d]", n, root, q, i);
                RXT_CHECK(rv[dsp[q] + cnt[q]] == -7, "gatherv wrote a gap");
            }
        /* scatter, root in place on odd roots */
        inplace = root % 2 == 1 && me == root;
        if (me == root)
            for (int i = 0; i < n * np; i++)
                s[i] = val(i / n, i % n) + 5;
        for (int i = 0; i < n; i++)
            r[i] = -1;
        RUN(MPI_Scatter(s, n, MPI_INT, inplace ? MPI_IN_PLACE : r, n, MPI_INT, root, comm),
            MPI_Iscatter(s, n, MPI_INT, inplace ? MPI_IN_PLACE : r, n, MPI_INT, root, comm, &rq_));
        if (!inplace)
            for (int i = 0; i < n; i++)
                RXT_CHECK(r[i] == val(me, i) + 5, "scatter n=%d root=%d [%d]", n, root, i);
        if (me == root)
            for (int q = 0; q < np; q++)
                for (int i = 0; i < cnt[q]; i++)
                    rv[dsp[q] + i] = val(q, i) + 9;
        RUN(MPI_Scatterv(rv, cnt, dsp, MPI_INT, r, cnt[me], MPI_INT, root, comm),
            MPI_Iscatterv(rv, cnt, dsp, MPI_INT, r, cnt[me], MPI_INT, root, comm, &rq_));
        for (int i = 0; i < cnt[me]; i++)
            RXT_CHECK(r[i] == val(me, i) + 9, "scatterv n=%d root=%d [%d]", n, root, i);
    }
    free(rv);
    free(cnt);
    free(dsp);
    free(s);
    free(r);
}

static void t_allgather_alltoall(int n)
{
    int *s = malloc(sizeof(int) * (size_t)(n * np + 1)), *r = malloc(sizeof(int) * (size_t)(n * np + 1));
    for (int inplace = 0; inplace < 2; inplace++) {
        for (int i = 0; i < n * np; i++)
            r[i] = -1;
        for (int i = 0; i < n; i++)
            (inplace ? r + me * n : s)[i] = val(me, i);
        RUN(MPI_Allgather(inplace ? MPI_IN_PLACE : s, n, MPI_INT, r, n, MPI_INT, comm),
            MPI_Iallgather(inplace ? MPI_IN_PLACE : s, n, MPI_INT, r, n, MPI_INT, comm, &rq_));
        for (int i = 0; i < n * np; i++)
            RXT_CHECK(r[i] == val(i / n, i % n), "allgather n=%d inplace=%d [%d]", n, inplace, i);
        /* alltoall: block q of rank me carries val(me * np + q, i) */
        int *in = inplace ? r : s;
        for (int i = 0; i < n * np; i++)
            in[i] = val(me * np + i / n, i % n);
        RUN(MPI_Alltoall(inplace ? MPI_IN_PLACE : s, n, MPI_INT, r, n, MPI_INT, comm),
            MPI_Ialltoall(inplace ? MPI_IN_PLACE : s, n, MPI_INT, r, n, MPI_INT, comm, &rq_));
        for (int i = 0; i < n * np; i++)
            RXT_CHECK(r[i] == val((i / n) * np + me, i % n), "alltoall n=%d inplace=%d [%d]", n, inplace, i);
    }
    /* v and w forms: rank q sends (q + d) % 3 + n/2 elements to rank d */
    int *sc = malloc(sizeof(int) * 6 * (size_t)np), *sd = sc + np, *rc = sd + np, *rd = rc + np;
    int *sdb = rd + np, *rdb = sdb + np;
    int so = 0, ro = 0;
    for (int q = 0; q < np; q++) {
        sc[q] = (me + q) % 3 + n / 2;
        rc[q] = (q + me) % 3 + n / 2;
        sd[q] = so;
        rd[q] = ro;
        sdb[q] = so * (int)sizeof(int);
        rdb[q] = ro * (int)sizeof(int);
        so += sc[q];
        ro += rc[q];
    }
    int *sv = malloc(sizeof(int) * (size_t)(so + 1)), *rvv = malloc(sizeof(int) * (size_t)(ro + 1));
    for (int w = 0; w < 2; w++) {
        for (int q = 0; q < np; q++)
            for (int i = 0; i < sc[q]; i++)
                sv[sd[q] + i] = val(me * np + q, i);
        MPI_Datatype ty[64];
        for (int q = 0; q < np && q < 64; q++)
            ty[q] = MPI_INT;
        if (w)
            RUN(MPI_Alltoallw(sv, sc, sdb, ty, rvv, rc, rdb, ty, comm),
                MPI_Ialltoallw(sv, sc, sdb, ty, rvv, rc, rdb, ty, comm, &rq_));
        else
            RUN(MPI_Alltoallv(sv, sc, sd, MPI_INT, rvv, rc, rd, MPI_INT, comm),
                MPI_Ialltoallv(sv, sc, sd, MPI_INT, rvv, rc, rd, MPI_INT, comm, &rq_));
        for (int q = 0; q < np; q++)
            for (int i = 0; i < rc[q]; i++)
                RXT_CHECK(rvv[rd[q] + i] == val(q * np + me, i), "alltoall%s n=%d q=%d [%d]", w ? "w" : "v", n, q, i);
    }
    /* allgatherv with the receive counts of alltoallv */
    int *agc = malloc(sizeof(int) * 2 * (size_t)np), *agd = agc + np, tot = 0;
    for (int q = 0; q < np; q++) {
        agc[q] = q % 3 + n / 3;
        agd[q] = tot;
        tot += agc[q];
    }
    int *ag = malloc(sizeof(int) * (size_t)(tot + 1));
    for (int i = 0; i < agc[me]; i++)
        sv[i] = val(me, i);
    RUN(MPI_Allgatherv(sv, agc[me], MPI_INT, ag, agc, agd, MPI_INT, comm),
        MPI_Iallgatherv(sv, agc[me], MPI_INT, ag, agc, agd, MPI_INT, comm, &rq_));
    for (int q = 0; q < np; q++)
        for (int i = 0; i < agc[q]; i++)
            RXT_CHECK(ag[agd[q] + i] == val(q, i), "allgatherv n=%d q=%d [%d]", n, q, i);
    free(ag);
    free(agc);
    free(sv);
    free(rvv);
    free(sc);
    free(s);
    free(r);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "coll_all");
    nb = argc > 1 && !strcmp(argv[1], "nb");
    comm = MPI_COMM_WORLD;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &np);
    RXT_MPI(MPI_Op_create(affine, 0, &aff_op));
    int commute = 1;
    RXT_MPI(MPI_Op_commutative(aff_op, &commute));
    RXT_CHECK(commute == 0, "Op_commutative of a non-commutative op");
    RXT_MPI(MPI_Op_commutative(MPI_SUM, &commute));
    RXT_CHECK(commute == 1, "Op_commutative(MPI_SUM)");
    /* a blocking collective first, as most programs make one: nonblocking
     * calls take the node-shared direct paths only once the node-shared
     * state exists (they never block to make it) */
    RXT_MPI(MPI_Barrier(comm));
    static const int counts[] = {0, 1, 13, LARGE};
    for (int k = 0; k < 4; k++) {
        int n = counts[k];
        t_bcast(n);
        t_allreduce(n);
        t_reduce(n);
        t_scan(n);
        t_reduce_scatter(n > 1000 ? n / np : n);
    }
    static const int blocks[] = {0, 1, 13, BLOCK};
    for (int k = 0; k < 4; k++) {
        t_gather_scatter(blocks[k]);
        t_allgather_alltoall(blocks[k]);
    }
    RXT_MPI(MPI_Barrier(comm));
    if (nb) {
        MPI_Request rq;
        RXT_MPI(MPI_Ibarrier(comm, &rq));
        RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    }
    RXT_MPI(MPI_Op_free(&aff_op));
    return rxt_finish();
}
