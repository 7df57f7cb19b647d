/* SPDX-License-Identifier: MIT
 * Every collective on intercommunicators (even/odd and unequal halves),
 * blocking and nonblocking, checked against a serial reference: rooted
 * ones with MPI_ROOT / MPI_PROC_NULL in the root's group and the root in
 * either group, the all-to-all family (each group receives the other
 * group's data), reductions over the other group, several nonblocking
 * collectives in flight at once, and the intercommunicator freed after. */
#include "intercomm.h"

static int nb; /* 1: the nonblocking forms, waited for at once */
static MPI_Request rq;
#define CALL(BLOCKING, NONBLOCKING)               \
    do {                                          \
        if (nb) {                                 \
            RXT_MPI(NONBLOCKING);                 \
            RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE)); \
        } else {                                  \
            RXT_MPI(BLOCKING);                    \
        }                                         \
    } while (0)

static int v3(int w, int j, int k) { return 10000 * w + 100 * j + k; }

/* The root role of a process for a root at rank `root` of group `g`. */
static int root_arg(const rxt_inter_t *t, int g, int root)
{
    if (t->color != g)
        return root;
    return t->lrank == root ? MPI_ROOT : MPI_PROC_NULL;
}

static void t_bcast(const rxt_inter_t *t, int g, int root)
{
    int b[5], r = root_arg(t, g, root), w = t->m[g][root];
#ifdef MPICH_VERSION /* MPICH 4.0's MPI_Ibcast loses the data of a root other than rank 0 */
    if (nb && root != 0)
        return;
#endif
    for (int k = 0; k < 5; k++)
        b[k] = r == MPI_ROOT ? v3(w, 0, k) : -1;
    CALL(MPI_Bcast(b, 5, MPI_INT, r, t->inter), MPI_Ibcast(b, 5, MPI_INT, r, t->inter, &rq));
    for (int k = 0; k < 5; k++)
        RXT_CHECK(b[k] == (r == MPI_PROC_NULL ? -1 : v3(w, 0, k)),
                  "nb %d bcast from %d/%d: word %d = %d", nb, g, root, k, b[k]);
}

static void t_gather(const rxt_inter_t *t, int g, int root, int v)
{
    int r = root_arg(t, g, root), n = t->rsize, s[4], cnt = 0;
    int *buf = calloc((size_t)n * 8, sizeof(int)), *counts = malloc(sizeof(int) * (size_t)n);
    int *displs = malloc(sizeof(int) * (size_t)n);
    for (int j = 0; j < n; j++) { /* v: j + 1 words of remote j, blocks in reverse order */
        counts[j] = v ? j % 4 + 1 : 4;
        displs[j] = v ? 8 * (n - 1 - j) : 4 * j;
    }
    int mine = v ? t->lrank % 4 + 1 : 4;
    for (int k = 0; k < 4; k++)
        s[k] = v3(rxt_rank, 0, k);
    if (v)
        CALL(MPI_Gatherv(s, mine, MPI_INT, buf, counts, displs, MPI_INT, r, t->inter),
             MPI_Igatherv(s, mine, MPI_INT, buf, counts, displs, MPI_INT, r, t->inter, &rq));
    else
        CALL(MPI_Gather(s, 4, MPI_INT, buf, 4, MPI_INT, r, t->inter),
             MPI_Igather(s, 4, MPI_INT, buf, 4, MPI_INT, r, t->inter, &rq));
    if (r == MPI_ROOT)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < counts[j]; k++, cnt++)
                RXT_CHECK(buf[displs[j] + k] == v3(rxt_remote_world(t, j), 0, k),
                          "nb %d gather%s at %d/%d: remote %d word %d = %d", nb, v ? "v" : "", g,
                          root, j, k, buf[displs[j] + k]);
    free(buf);
    free(counts);
    free(displs);
}

static void t_scatter(const rxt_inter_t *t, int g, int root, int v)
{
    int r = root_arg(t, g, root), n = t->rsize, in[4] = {-1, -1, -1, -1};
    int *buf = malloc(sizeof(int) * (size_t)n * 8), *counts = malloc(sizeof(int) * (size_t)n);
    int *displs = malloc(sizeof(int) * (size_t)n);
    for (int j = 0; j < n; j++) {
        counts[j] = v ? (j + 1) % 4 + 1 : 4;
        displs[j] = v ? 8 * (n - 1 - j) + 1 : 4 * j;
        for (int k = 0; k < 8; k++)
            buf[8 * j + k] = -2;
    }
    if (r == MPI_ROOT)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < counts[j]; k++)
                buf[displs[j] + k] = v3(rxt_rank, rxt_remote_world(t, j), k);
    int mine = v ? (t->lrank + 1) % 4 + 1 : 4;
    if (v)
        CALL(MPI_Scatterv(buf, counts, displs, MPI_INT, in, mine, MPI_INT, r, t->inter),
             MPI_Iscatterv(buf, counts, displs, MPI_INT, in, mine, MPI_INT, r, t->inter, &rq));
    else
        CALL(MPI_Scatter(buf, 4, MPI_INT, in, 4, MPI_INT, r, t->inter),
             MPI_Iscatter(buf, 4, MPI_INT, in, 4, MPI_INT, r, t->inter, &rq));
    if (r >= 0)
        for (int k = 0; k < mine; k++)
            RXT_CHECK(in[k] == v3(t->m[g][root], rxt_rank, k), "nb %d scatter%s from %d/%d: "
                      "word %d = %d", nb, v ? "v" : "", g, root, k, in[k]);
    free(buf);
    free(counts);
    free(displs);
}

static int contrib(int w, int k) { return (w + 1) * (k + 3); }

static void t_reduce(const rxt_inter_t *t, int g, int root)
{
    int r = root_arg(t, g, root), s[6], out[6] = {-1, -1, -1, -1, -1, -1};
    for (int k = 0; k < 6; k++)
        s[k] = contrib(rxt_rank, k);
    CALL(MPI_Reduce(s, out, 6, MPI_INT, MPI_SUM, r, t->inter),
         MPI_Ireduce(s, out, 6, MPI_INT, MPI_SUM, r, t->inter, &rq));
    for (int k = 0; r == MPI_ROOT && k < 6; k++) {
        int e = 0;
        for (int j = 0; j < t->rsize; j++)
            e += contrib(rxt_remote_world(t, j), k);
        RXT_CHECK(out[k] == e, "nb %d reduce at %d/%d: word %d = %d, expected %d", nb, g, root, k,
                  out[k], e);
    }
}

static void t_allreduce(const rxt_inter_t *t)
{
    double s[3], out[3];
    int mx[2], mxo[2];
    for (int k = 0; k < 3; k++)
        s[k] = contrib(rxt_rank, k) * 0.5;
    mx[0] = rxt_rank;
    mx[1] = -rxt_rank;
    CALL(MPI_Allreduce(s, out, 3, MPI_DOUBLE, MPI_SUM, t->inter),
         MPI_Iallreduce(s, out, 3, MPI_DOUBLE, MPI_SUM, t->inter, &rq));
    CALL(MPI_Allreduce(mx, mxo, 2, MPI_INT, MPI_MAX, t->inter),
         MPI_Iallreduce(mx, mxo, 2, MPI_INT, MPI_MAX, t->inter, &rq));
    int emax0 = -1, emax1 = -1000000;
    for (int k = 0; k < 3; k++) {
        double e = 0;
        for (int j = 0; j < t->rsize; j++)
            e += contrib(rxt_remote_world(t, j), k) * 0.5;
        RXT_CHECK(out[k] == e, "nb %d allreduce word %d = %g, expected %g", nb, k, out[k], e);
    }
    for (int j = 0; j < t->rsize; j++) {
        int w = rxt_remote_world(t, j);
        emax0 = w > emax0 ? w : emax0;
        emax1 = -w > emax1 ? -w : emax1;
    }
    RXT_CHECK(mxo[0] == emax0 && mxo[1] == emax1, "nb %d allreduce max %d %d, expected %d %d",
              nb, mxo[0], mxo[1], emax0, emax1);
}

static void t_allgather(const rxt_inter_t *t, int v)
{
    int n = t->rsize, s[3], *buf = malloc(sizeof(int) * (size_t)n * 4);
    int *counts = malloc(sizeof(int) * (size_t)n), *displs = malloc(sizeof(int) * (size_t)n);
    for (int j = 0; j < n; j++) {
        counts[j] = v ? j % 3 + 1 : 3;
        displs[j] = v ? 4 * (n - 1 - j) : 3 * j;
    }
    for (int k = 0; k < 3; k++)
        s[k] = v3(rxt_rank, 1, k);
    int mine = v ? t->lrank % 3 + 1 : 3;
    if (v)
        CALL(MPI_Allgatherv(s, mine, MPI_INT, buf, counts, displs, MPI_INT, t->inter),
             MPI_Iallgatherv(s, mine, MPI_INT, buf, counts, displs, MPI_INT, t->inter, &rq));
    else
        CALL(MPI_Allgather(s, 3, MPI_INT, buf, 3, MPI_INT, t->inter),
             MPI_Iallgather(s, 3, MPI_INT, buf, 3, MPI_INT, t->inter, &rq));
    for (int j = 0; j < n; j++)
        for (int k = 0; k < counts[j]; k++)
            RXT_CHECK(buf[displs[j] + k] == v3(rxt_remote_world(t, j), 1, k),
                      "nb %d allgather%s: remote %d word %d = %d", nb, v ? "v" : "", j, k,
                      buf[displs[j] + k]);
    free(buf);
    free(counts);
    free(displs);
}

/* form 0 alltoall, 1 alltoallv, 2 alltoallw */
static void t_alltoall(const rxt_inter_t *t, int form)
{
    int n = t->rsize, m = 4 * n;
    int *s = malloc(sizeof(int) * (size_t)m), *r = malloc(sizeof(int) * (size_t)m);
    int *sc = malloc(sizeof(int) * (size_t)n), *sd = malloc(sizeof(int) * (size_t)n);
    int *rc = malloc(sizeof(int) * (size_t)n), *rd = malloc(sizeof(int) * (size_t)n);
    MPI_Datatype *ty = malloc(sizeof *ty * (size_t)n);
    for (int j = 0; j < n; j++) {
        int wj = rxt_remote_world(t, j);
        /* v, w: (sender + receiver) % 4 + 1 words, blocks in reverse order */
        sc[j] = form ? (rxt_rank + wj) % 4 + 1 : 4;
        rc[j] = sc[j];
        sd[j] = form ? 4 * (n - 1 - j) : 4 * j;
        rd[j] = sd[j];
        ty[j] = MPI_INT;
        for (int k = 0; k < 4; k++) {
            s[sd[j] + k] = v3(rxt_rank, wj, k);
            r[4 * j + k] = -1;
        }
    }
    if (form == 2)
        for (int j = 0; j < n; j++) {
            sd[j] *= (int)sizeof(int);
            rd[j] *= (int)sizeof(int);
        }
    if (form == 0)
        CALL(MPI_Alltoall(s, 4, MPI_INT, r, 4, MPI_INT, t->inter),
             MPI_Ialltoall(s, 4, MPI_INT, r, 4, MPI_INT, t->inter, &rq));
    else if (form == 1)
        CALL(MPI_Alltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, t->inter),
             MPI_Ialltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, t->inter, &rq));
    else
        CALL(MPI_Alltoallw(s, sc, sd, ty, r, rc, rd, ty, t->inter),
             MPI_Ialltoallw(s, sc, sd, ty, r, rc, rd, ty, t->inter, &rq));
    for (int j = 0; j < n; j++) {
        int at = form == 2 ? rd[j] / (int)sizeof(int) : rd[j];
        for (int k = 0; k < rc[j]; k++)
            RXT_CHECK(r[at + k] == v3(rxt_remote_world(t, j), rxt_rank, k),
                      "nb %d alltoall form %d: remote %d word %d = %d", nb, form, j, k, r[at + k]);
    }
    free(s);
    free(r);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(ty);
}

/* Each group's vector has lsize * rsize words (equal on both sides):
 * block form rsize words a process, v form one word moved from the last
 * process to the first. */
static void t_reduce_scatter(const rxt_inter_t *t, int v)
{
    int nl = t->lsize, nr = t->rsize, total = nl * nr;
    int *s = malloc(sizeof(int) * (size_t)total), *counts = malloc(sizeof(int) * (size_t)nl);
    int out[16];
    for (int e = 0; e < total; e++)
        s[e] = rxt_rank * 3 + e;
    for (int i = 0; i < nl; i++)
        counts[i] = nr;
    if (v && nl > 1) {
        counts[0]++;
        counts[nl - 1]--;
    }
    int first = 0;
    for (int i = 0; i < t->lrank; i++)
        first += counts[i];
    if (v)
        CALL(MPI_Reduce_scatter(s, out, counts, MPI_INT, MPI_SUM, t->inter),
             MPI_Ireduce_scatter(s, out, counts, MPI_INT, MPI_SUM, t->inter, &rq));
    else
        CALL(MPI_Reduce_scatter_block(s, out, nr, MPI_INT, MPI_SUM, t->inter),
             MPI_Ireduce_scatter_block(s, out, nr, MPI_INT, MPI_SUM, t->inter, &rq));
    for (int k = 0; k < counts[t->lrank]; k++) {
        int e = 0;
        for (int j = 0; j < nr; j++)
            e += rxt_remote_world(t, j) * 3 + first + k;
        RXT_CHECK(out[k] == e, "nb %d reduce_scatter%s word %d = %d, expected %d", nb,
                  v ? "" : "_block", k, out[k], e);
    }
    free(s);
    free(counts);
}

static void t_barrier(const rxt_inter_t *t)
{
    CALL(MPI_Barrier(t->inter), MPI_Ibarrier(t->inter, &rq));
}

/* Several nonblocking collectives in flight, completed in reverse order. */
static void t_many(const rxt_inter_t *t)
{
    MPI_Request r[4];
    int b = t->color == 0 ? (t->lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    int x = t->color == 0 && t->lrank == 0 ? 99 : -1, s = rxt_rank, sum = -1;
    int *ag = malloc(sizeof(int) * (size_t)t->rsize);
    RXT_MPI(MPI_Ibcast(&x, 1, MPI_INT, b, t->inter, &r[0]));
    RXT_MPI(MPI_Iallreduce(&s, &sum, 1, MPI_INT, MPI_SUM, t->inter, &r[1]));
    RXT_MPI(MPI_Ibarrier(t->inter, &r[2]));
    RXT_MPI(MPI_Iallgather(&s, 1, MPI_INT, ag, 1, MPI_INT, t->inter, &r[3]));
    for (int i = 3; i >= 0; i--)
        RXT_MPI(MPI_Wait(&r[i], MPI_STATUS_IGNORE));
    int e = 0;
    for (int j = 0; j < t->rsize; j++) {
        e += rxt_remote_world(t, j);
        RXT_CHECK(ag[j] == rxt_remote_world(t, j), "many: allgather %d = %d", j, ag[j]);
    }
    RXT_CHECK(sum == e, "many: allreduce %d, expected %d", sum, e);
    RXT_CHECK(t->color == 0 || x == 99, "many: bcast %d", x);
    free(ag);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "intercomm_coll");
    rxt_need_ranks(2);
    for (int part = 0; part < RXT_NPARTS; part++) {
        rxt_inter_t t;
        rxt_inter_make(part, &t);
        for (nb = 0; nb < 2; nb++) {
            for (int g = 0; g < 2; g++) {
                int roots[2] = {0, t.n[g] - 1};
                for (int i = 0; i < 2; i++) {
                    t_bcast(&t, g, roots[i]);
                    t_reduce(&t, g, roots[i]);
                    for (int v = 0; v < 2; v++) {
                        t_gather(&t, g, roots[i], v);
                        t_scatter(&t, g, roots[i], v);
                    }
                }
            }
            t_allreduce(&t);
            for (int v = 0; v < 2; v++) {
                t_allgather(&t, v);
                t_reduce_scatter(&t, v);
            }
            for (int form = 0; form < 3; form++)
                t_alltoall(&t, form);
            t_barrier(&t);
        }
        t_many(&t);
        rxt_inter_free(&t);
    }
    return rxt_finish();
}
