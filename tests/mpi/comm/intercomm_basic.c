/* SPDX-License-Identifier: MIT
 * Intercommunicators: MPI_Intercomm_create (even/odd and unequal halves),
 * sizes, MPI_Comm_test_inter, the local and remote groups, compare,
 * point-to-point both ways in every send mode with wildcards (the source
 * is the sender's rank in the remote group), probes and matched probes,
 * MPI_PROC_NULL; MPI_Intercomm_merge with both high orders, dup, split and
 * create on an intercommunicator, names and attributes, creation from
 * groups, and the calls an intercommunicator refuses. */
#include "intercomm.h"

static void check_groups(const rxt_inter_t *t)
{
    int flag = 0, n, cmp;
    RXT_MPI(MPI_Comm_test_inter(t->inter, &flag));
    RXT_CHECK(flag, "MPI_Comm_test_inter gives 0 on an intercommunicator");
    RXT_MPI(MPI_Comm_test_inter(t->local, &flag));
    RXT_CHECK(!flag, "MPI_Comm_test_inter gives 1 on an intracommunicator");
    RXT_CHECK(t->lsize == t->n[t->color] && t->rsize == t->n[!t->color],
              "sizes %d/%d, expected %d/%d", t->lsize, t->rsize, t->n[t->color], t->n[!t->color]);
    MPI_Group wg, lg, rg, own;
    RXT_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    RXT_MPI(MPI_Comm_group(t->inter, &lg));
    RXT_MPI(MPI_Comm_remote_group(t->inter, &rg));
    RXT_MPI(MPI_Comm_group(t->local, &own));
    RXT_MPI(MPI_Group_compare(lg, own, &cmp));
    RXT_CHECK(cmp == MPI_IDENT, "MPI_Comm_group is not the local group (%d)", cmp);
    RXT_MPI(MPI_Group_size(rg, &n));
    RXT_CHECK(n == t->rsize, "remote group of %d, expected %d", n, t->rsize);
    for (int i = 0; i < n; i++) {
        int w;
        RXT_MPI(MPI_Group_translate_ranks(rg, 1, &i, wg, &w));
        RXT_CHECK(w == rxt_remote_world(t, i), "remote rank %d is world %d, expected %d", i, w,
                  rxt_remote_world(t, i));
    }
    RXT_MPI(MPI_Group_rank(rg, &n));
    RXT_CHECK(n == MPI_UNDEFINED, "the caller is in the remote group (%d)", n);
    MPI_Group_free(&wg);
    MPI_Group_free(&lg);
    MPI_Group_free(&rg);
    MPI_Group_free(&own);
    RXT_MPI(MPI_Comm_compare(t->inter, t->inter, &cmp));
    RXT_CHECK(cmp == MPI_IDENT, "compare with itself %d", cmp);
    RXT_MPI(MPI_Comm_compare(t->inter, t->local, &cmp));
    RXT_CHECK(cmp == MPI_UNEQUAL, "inter vs intra %d", cmp);
    MPI_Comm d;
    RXT_MPI(MPI_Comm_dup(t->inter, &d));
    RXT_MPI(MPI_Comm_compare(t->inter, d, &cmp));
    RXT_CHECK(cmp == MPI_CONGRUENT, "inter vs its dup %d", cmp);
    RXT_MPI(MPI_Comm_test_inter(d, &flag));
    RXT_CHECK(flag, "the dup is not an intercommunicator");
    RXT_MPI(MPI_Comm_free(&d));
}

static int val(int from, int to, int k) { return 100000 * from + 100 * to + k; }

/* Each process sends one message to every remote process in mode `mode`
 * and receives one from every remote process with wildcards. */
static void p2p_mode(const rxt_inter_t *t, int mode)
{
    int me = rxt_rank, n = t->rsize;
    int *in = calloc((size_t)n * 4, sizeof(int)), *out = malloc(sizeof(int) * (size_t)n * 4);
    MPI_Request *rq = malloc(sizeof *rq * (size_t)n * 2);
    for (int j = 0; j < n; j++)
        for (int k = 0; k < 4; k++)
            out[4 * j + k] = val(me, rxt_remote_world(t, j), k);
    for (int j = 0; j < n; j++)
        RXT_MPI(MPI_Irecv(in + 4 * j, 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, t->inter, &rq[j]));
    if (mode == 2) /* ready mode: every receive of the job is posted */
        RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int j = 0; j < n; j++) {
        int *b = out + 4 * j, tag = 10 + t->lrank;
        switch (mode) {
        case 0: RXT_MPI(MPI_Send(b, 4, MPI_INT, j, tag, t->inter)); rq[n + j] = MPI_REQUEST_NULL; break;
        case 1: RXT_MPI(MPI_Issend(b, 4, MPI_INT, j, tag, t->inter, &rq[n + j])); break;
        case 2: RXT_MPI(MPI_Rsend(b, 4, MPI_INT, j, tag, t->inter)); rq[n + j] = MPI_REQUEST_NULL; break;
        case 3: RXT_MPI(MPI_Bsend(b, 4, MPI_INT, j, tag, t->inter)); rq[n + j] = MPI_REQUEST_NULL; break;
        default: RXT_MPI(MPI_Isend(b, 4, MPI_INT, j, tag, t->inter, &rq[n + j])); break;
        }
    }
    MPI_Status *st = malloc(sizeof *st * (size_t)n * 2);
    RXT_MPI(MPI_Waitall(2 * n, rq, st));
    /* the wildcards must not take the next step's messages */
    RXT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    int *seen = calloc((size_t)n, sizeof(int));
    for (int j = 0; j < n; j++) {
        int src = st[j].MPI_SOURCE, cnt;
        MPI_Get_count(&st[j], MPI_INT, &cnt);
        RXT_CHECK(src >= 0 && src < n && st[j].MPI_TAG == 10 + src && cnt == 4,
                  "mode %d: source %d tag %d count %d", mode, src, st[j].MPI_TAG, cnt);
        if (src < 0 || src >= n)
            continue;
        seen[src]++;
        for (int k = 0; k < 4; k++)
            RXT_CHECK(in[4 * j + k] == val(rxt_remote_world(t, src), me, k),
                      "mode %d: from remote %d word %d = %d", mode, src, k, in[4 * j + k]);
    }
    for (int j = 0; j < n; j++)
        RXT_CHECK(seen[j] == 1, "mode %d: %d messages from remote %d", mode, seen[j], j);
    free(seen);
    free(st);
    free(rq);
    free(out);
    free(in);
}

static void p2p_probe(const rxt_inter_t *t)
{
    /* remote rank 0 of each group sends to every remote process; the
     * receivers probe, then receive with the probed source */
    int x[2] = {rxt_rank, 7}, y[2];
    if (t->lrank == 0)
        for (int j = 0; j < t->rsize; j++)
            RXT_MPI(MPI_Send(x, 2, MPI_INT, j, 5, t->inter));
    MPI_Status st;
    RXT_MPI(MPI_Probe(MPI_ANY_SOURCE, 5, t->inter, &st));
    RXT_CHECK(st.MPI_SOURCE == 0, "probe source %d", st.MPI_SOURCE);
    int flag = 0;
    while (!flag)
        RXT_MPI(MPI_Iprobe(0, MPI_ANY_TAG, t->inter, &flag, &st));
    RXT_MPI(MPI_Recv(y, 2, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, t->inter, &st));
    RXT_CHECK(y[0] == rxt_remote_world(t, 0) && y[1] == 7, "probed message %d %d", y[0], y[1]);
    if (t->lrank == 0)
        for (int j = 0; j < t->rsize; j++)
            RXT_MPI(MPI_Send(x, 2, MPI_INT, j, 6, t->inter));
    MPI_Message msg;
    RXT_MPI(MPI_Mprobe(MPI_ANY_SOURCE, 6, t->inter, &msg, &st));
    RXT_CHECK(st.MPI_SOURCE == 0, "mprobe source %d", st.MPI_SOURCE);
    y[0] = -1;
    RXT_MPI(MPI_Mrecv(y, 2, MPI_INT, &msg, &st));
    RXT_CHECK(y[0] == rxt_remote_world(t, 0), "matched message %d", y[0]);
    /* MPI_PROC_NULL */
    RXT_MPI(MPI_Send(x, 2, MPI_INT, MPI_PROC_NULL, 1, t->inter));
    RXT_MPI(MPI_Recv(y, 2, MPI_INT, MPI_PROC_NULL, 1, t->inter, &st));
    RXT_CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "MPI_PROC_NULL receive source %d", st.MPI_SOURCE);
    /* a rank beyond the remote group is refused */
    RXT_MPI(MPI_Comm_set_errhandler(t->inter, MPI_ERRORS_RETURN));
    RXT_EXPECT_CLASS(MPI_ERR_RANK, MPI_Send(x, 2, MPI_INT, t->rsize, 1, t->inter));
}

static void check_merge(const rxt_inter_t *t, int high0, int high1)
{
    MPI_Comm m;
    int high = t->color ? high1 : high0, r, n;
    RXT_MPI(MPI_Intercomm_merge(t->inter, high, &m));
    RXT_MPI(MPI_Comm_rank(m, &r));
    RXT_MPI(MPI_Comm_size(m, &n));
    RXT_CHECK(n == rxt_size, "merged size %d", n);
    /* the low group first; with equal flags either order, the same everywhere */
    int first = high0 != high1 ? (high0 ? 1 : 0) : -1;
    int *w = malloc(sizeof(int) * (size_t)n);
    RXT_MPI(MPI_Allgather(&rxt_rank, 1, MPI_INT, w, 1, MPI_INT, m));
    if (first < 0)
        first = w[0] == t->m[0][0] ? 0 : 1;
    int k = 0;
    for (int g = first, i = 0; i < 2; i++, g = !g)
        for (int j = 0; j < t->n[g]; j++, k++)
            RXT_CHECK(w[k] == t->m[g][j], "high %d/%d: merged rank %d is world %d, expected %d",
                      high0, high1, k, w[k], t->m[g][j]);
    free(w);
    int flag;
    RXT_MPI(MPI_Comm_test_inter(m, &flag));
    RXT_CHECK(!flag, "the merged communicator is an intercommunicator");
    RXT_MPI(MPI_Comm_free(&m));
}

/* Split by colour (local rank parity, key reversed) across both groups. */
static void check_split(const rxt_inter_t *t)
{
    MPI_Comm s;
    int color = t->lrank % 2;
    RXT_MPI(MPI_Comm_split(t->inter, color, -t->lrank, &s));
    int nl = (t->lsize + 1 - color) / 2, nr = (t->rsize + 1 - color) / 2;
    if (nr == 0) {
        RXT_CHECK(s == MPI_COMM_NULL, "colour %d with no remote member gave a communicator", color);
        return;
    }
    RXT_CHECK(s != MPI_COMM_NULL, "colour %d gave MPI_COMM_NULL", color);
    if (s == MPI_COMM_NULL)
        return;
    int r, n, rn, flag;
    RXT_MPI(MPI_Comm_test_inter(s, &flag));
    RXT_MPI(MPI_Comm_rank(s, &r));
    RXT_MPI(MPI_Comm_size(s, &n));
    RXT_MPI(MPI_Comm_remote_size(s, &rn));
    RXT_CHECK(flag && n == nl && rn == nr, "split: inter %d size %d remote %d, expected %d %d",
              flag, n, rn, nl, nr);
    /* reversed keys: the highest old rank of the colour comes first */
    int expect = 0;
    for (int x = t->lrank + 1; x < t->lsize; x++)
        expect += x % 2 == color;
    RXT_CHECK(r == expect, "split rank %d, expected %d", r, expect);
    /* talk across: each sends its world rank to remote rank 0 */
    MPI_Request sq;
    RXT_MPI(MPI_Isend(&rxt_rank, 1, MPI_INT, 0, 3, s, &sq));
    for (int j = 0; r == 0 && j < rn; j++) {
        int w, ok = 0;
        RXT_MPI(MPI_Recv(&w, 1, MPI_INT, MPI_ANY_SOURCE, 3, s, MPI_STATUS_IGNORE));
        for (int i = color; i < t->rsize; i += 2)
            ok |= rxt_remote_world(t, i) == w;
        RXT_CHECK(ok, "split: world rank %d is no remote member of colour %d", w, color);
    }
    RXT_MPI(MPI_Wait(&sq, MPI_STATUS_IGNORE));
    RXT_MPI(MPI_Comm_free(&s));
}

/* MPI_Comm_create with the even local ranks: the remote side's group is
 * its even ranks too. */
static void check_create(const rxt_inter_t *t)
{
    MPI_Group g, sub;
    RXT_MPI(MPI_Comm_group(t->inter, &g));
    int n = (t->lsize + 1) / 2, *r = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        r[i] = 2 * i;
    RXT_MPI(MPI_Group_incl(g, n, r, &sub));
    MPI_Comm c;
    RXT_MPI(MPI_Comm_create(t->inter, sub, &c));
    if (t->lrank % 2) {
        RXT_CHECK(c == MPI_COMM_NULL, "a process outside the group got a communicator");
    } else {
        int rs, sz;
        RXT_MPI(MPI_Comm_remote_size(c, &rs));
        RXT_MPI(MPI_Comm_size(c, &sz));
        RXT_CHECK(rs == (t->rsize + 1) / 2 && sz == n, "create: size %d remote %d", sz, rs);
        for (int j = 0; j < rs; j++) { /* one message each way between every pair */
            int y = -1;
            RXT_MPI(MPI_Sendrecv(&rxt_rank, 1, MPI_INT, j, 4, &y, 1, MPI_INT, j, 4, c,
                                 MPI_STATUS_IGNORE));
            RXT_CHECK(y == rxt_remote_world(t, 2 * j), "create: remote %d is world rank %d", j, y);
        }
        RXT_MPI(MPI_Comm_free(&c));
    }
    free(r);
    MPI_Group_free(&sub);
    MPI_Group_free(&g);
}

static void check_misc(const rxt_inter_t *t)
{
    RXT_MPI(MPI_Comm_set_name(t->inter, "bridge"));
    char name[MPI_MAX_OBJECT_NAME];
    int len, key, flag, *v;
    RXT_MPI(MPI_Comm_get_name(t->inter, name, &len));
    RXT_CHECK(strcmp(name, "bridge") == 0, "name '%s'", name);
    RXT_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL));
    static int value = 42;
    RXT_MPI(MPI_Comm_set_attr(t->inter, key, &value));
    MPI_Comm d;
    RXT_MPI(MPI_Comm_dup(t->inter, &d));
    RXT_MPI(MPI_Comm_get_attr(d, key, &v, &flag));
    RXT_CHECK(flag && *v == 42, "the dup lost the attribute (flag %d)", flag);
    RXT_MPI(MPI_Comm_free(&d));
    RXT_MPI(MPI_Comm_delete_attr(t->inter, key));
    RXT_MPI(MPI_Comm_free_keyval(&key));
    RXT_MPI(MPI_Comm_set_errhandler(t->inter, MPI_ERRORS_RETURN));
    int x = 1, y;
    (void)x;
    (void)y;
#ifndef OPEN_MPI /* Open MPI 4.1 calls a NULL scan function on intercommunicators */
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Scan(&x, &y, 1, MPI_INT, MPI_SUM, t->inter));
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Exscan(&x, &y, 1, MPI_INT, MPI_SUM, t->inter));
#endif
#ifdef RDMX /* MPICH and Open MPI answer the remote size of an intracommunicator */
    RXT_MPI(MPI_Comm_set_errhandler(t->local, MPI_ERRORS_RETURN));
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Comm_remote_size(t->local, &x));
#endif
}

#if defined(RDMX) || MPI_VERSION >= 4
static void check_from_groups(const rxt_inter_t *t)
{
    MPI_Group wg, lg, rg;
    RXT_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    RXT_MPI(MPI_Group_incl(wg, t->n[t->color], t->m[t->color], &lg));
    RXT_MPI(MPI_Group_incl(wg, t->n[!t->color], t->m[!t->color], &rg));
    MPI_Comm ic;
    RXT_MPI(MPI_Intercomm_create_from_groups(lg, 0, rg, 0, "rxt.from_groups", MPI_INFO_NULL,
                                             MPI_ERRORS_RETURN, &ic));
    int rs, r;
    RXT_MPI(MPI_Comm_remote_size(ic, &rs));
    RXT_MPI(MPI_Comm_rank(ic, &r));
    RXT_CHECK(rs == t->rsize && r == t->lrank, "from groups: remote %d rank %d", rs, r);
    int sum = 0, one = rxt_rank;
    RXT_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, ic));
    int expect = 0;
    for (int j = 0; j < t->rsize; j++)
        expect += rxt_remote_world(t, j);
    RXT_CHECK(sum == expect, "allreduce on the intercommunicator from groups %d, expected %d",
              sum, expect);
    RXT_MPI(MPI_Comm_free(&ic));
    MPI_Group_free(&lg);
    MPI_Group_free(&rg);
    MPI_Group_free(&wg);
}
#else
static void check_from_groups(const rxt_inter_t *t) { (void)t; }
#endif

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "intercomm_basic");
    rxt_need_ranks(2);
    int bsize = 1 << 16;
    void *bbuf = malloc((size_t)bsize);
    RXT_MPI(MPI_Buffer_attach(bbuf, bsize));
    for (int part = 0; part < RXT_NPARTS; part++) {
        rxt_inter_t t;
        rxt_inter_make(part, &t);
        check_groups(&t);
        for (int mode = 0; mode < 5; mode++)
            p2p_mode(&t, mode);
        p2p_probe(&t);
        check_merge(&t, 0, 1);
        check_merge(&t, 1, 0);
        check_merge(&t, 0, 0);
        check_merge(&t, 1, 1);
        check_split(&t);
        check_create(&t);
        check_misc(&t);
        check_from_groups(&t);
        rxt_inter_free(&t);
    }
    RXT_MPI(MPI_Buffer_detach(&bbuf, &bsize));
    free(bbuf);
    return rxt_finish();
}
