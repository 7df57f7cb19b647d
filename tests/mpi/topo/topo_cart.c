/* SPDX-License-Identifier: MIT
 * Process topologies against what the standard specifies: MPI_Dims_create
 * (balanced, non-increasing, fixed entries kept, ties as MPICH breaks them,
 * many dimensions quickly, errors), Cartesian grids in
 * 1, 2 and 3 dimensions with and without periods (row-major ranks, coords,
 * Cart_rank wrapping periodic coordinates, Cart_shift giving MPI_PROC_NULL at
 * non-periodic borders), ranks left out of a smaller grid, Cart_sub, Topo_test,
 * a duplicate keeping its topology, and distributed graphs (adjacent and
 * general creation, weights, neighbour lists). */
#include "rxtest.h"

static void check_dims(void)
{
    struct { int n, nd, in[3], out[3]; } c[] = {
        {12, 2, {0, 0}, {4, 3}},    {16, 3, {0, 0, 0}, {4, 2, 2}}, {6, 3, {0, 0, 0}, {3, 2, 1}},
        {7, 2, {0, 0}, {7, 1}},     {24, 3, {0, 3, 0}, {4, 3, 2}}, {1, 3, {0, 0, 0}, {1, 1, 1}},
        {36, 2, {0, 0}, {6, 6}},    {8, 3, {2, 0, 0}, {2, 2, 2}},  {30, 3, {0, 0, 0}, {5, 3, 2}},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        int d[3];
        memcpy(d, c[i].in, sizeof d);
        RXT_MPI(MPI_Dims_create(c[i].n, c[i].nd, d));
        for (int k = 0; k < c[i].nd; k++)
            RXT_CHECK(d[k] == c[i].out[k], "Dims_create(%d, %d) dim %d = %d, want %d", c[i].n,
                      c[i].nd, k, d[k], c[i].out[k]);
    }
    /* ties in the spread go to the smaller sum, then to larger leading
     * factors (MPICH's and Open MPI's choice in these cases); the last one
     * has 13 prime factors over 16 dimensions and must not take long */
    struct { int n, nd, out[16]; } t[] = {
        {20, 4, {5, 2, 2, 1}},
        {360, 3, {10, 6, 6}},
        {42, 4, {7, 3, 2, 1}},
        {10080, 4, {12, 12, 10, 7}},
        {2095133040, 16, {19, 17, 13, 11, 7, 5, 3, 3, 3, 3, 2, 2, 2, 2, 1, 1}},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        int d[16] = {0};
        RXT_MPI(MPI_Dims_create(t[i].n, t[i].nd, d));
        for (int k = 0; k < t[i].nd; k++)
            RXT_CHECK(d[k] == t[i].out[k], "Dims_create(%d, %d) dim %d = %d, want %d", t[i].n,
                      t[i].nd, k, d[k], t[i].out[k]);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int bad[2] = {5, 0};
    RXT_EXPECT_CLASS(MPI_ERR_DIMS, MPI_Dims_create(12, 2, bad));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void check_grid(int nd, const int *dims, const int *periods)
{
    int n = 1;
    for (int k = 0; k < nd; k++)
        n *= dims[k];
    if (n > rxt_size)
        return;
    MPI_Comm cart;
    RXT_MPI(MPI_Cart_create(MPI_COMM_WORLD, nd, dims, periods, 0, &cart));
    if (rxt_rank >= n) {
        RXT_CHECK(cart == MPI_COMM_NULL, "rank %d outside a %d-rank grid got a communicator", rxt_rank, n);
        return;
    }
    int st, r, nd2, gd[3], gp[3], gc[3], cc[3];
    RXT_MPI(MPI_Topo_test(cart, &st));
    RXT_CHECK(st == MPI_CART, "Topo_test %d", st);
    RXT_MPI(MPI_Comm_rank(cart, &r));
    RXT_CHECK(r == rxt_rank, "identity order: rank %d in the grid, %d in world", r, rxt_rank);
    RXT_MPI(MPI_Cartdim_get(cart, &nd2));
    RXT_MPI(MPI_Cart_get(cart, 3, gd, gp, gc));
    /* row-major: the last coordinate varies fastest */
    int rem = r;
    for (int k = nd - 1; k >= 0; k--) {
        cc[k] = rem % dims[k];
        rem /= dims[k];
    }
    RXT_CHECK(nd2 == nd, "Cartdim_get %d", nd2);
    for (int k = 0; k < nd; k++)
        RXT_CHECK(gd[k] == dims[k] && !gp[k] == !periods[k] && gc[k] == cc[k],
                  "Cart_get dim %d: %d/%d/%d", k, gd[k], gp[k], gc[k]);
    for (int q = 0; q < n; q++) {
        int qc[3], back;
        RXT_MPI(MPI_Cart_coords(cart, q, 3, qc));
        RXT_MPI(MPI_Cart_rank(cart, qc, &back));
        RXT_CHECK(back == q, "Cart_rank(Cart_coords(%d)) = %d", q, back);
    }
    for (int k = 0; k < nd; k++)
        for (int disp = -2; disp <= 2; disp++) {
            int src, dst, want[2];
            RXT_MPI(MPI_Cart_shift(cart, k, disp, &src, &dst));
            for (int s = 0; s < 2; s++) {
                int x[3];
                memcpy(x, cc, sizeof x);
                x[k] += s ? -disp : disp;
                if (x[k] < 0 || x[k] >= dims[k]) {
                    if (!periods[k]) {
                        want[s] = MPI_PROC_NULL;
                        continue;
                    }
                    x[k] = ((x[k] % dims[k]) + dims[k]) % dims[k];
                }
                int q = 0;
                for (int j = 0; j < nd; j++)
                    q = q * dims[j] + x[j];
                want[s] = q;
            }
            RXT_CHECK(dst == want[0] && src == want[1],
                      "Cart_shift(dim %d, disp %d) = (%d, %d), want (%d, %d)", k, disp, src, dst,
                      want[1], want[0]);
        }
    if (nd >= 1 && periods[0]) { /* periodic coordinates wrap in Cart_rank */
        int x[3] = {cc[0] - dims[0], nd > 1 ? cc[1] : 0, nd > 2 ? cc[2] : 0}, back;
        RXT_MPI(MPI_Cart_rank(cart, x, &back));
        RXT_CHECK(back == r, "Cart_rank with wrapped coordinate: %d", back);
    }
    if (nd >= 2) { /* keep dimension 1: rows of the grid */
        int remain[3] = {0, 1, 0}, sr, ss, snd;
        MPI_Comm sub;
        RXT_MPI(MPI_Cart_sub(cart, remain, &sub));
        RXT_MPI(MPI_Comm_size(sub, &ss));
        RXT_MPI(MPI_Comm_rank(sub, &sr));
        RXT_MPI(MPI_Cartdim_get(sub, &snd));
        RXT_CHECK(ss == dims[1] && sr == cc[1] && snd == 1, "Cart_sub: size %d rank %d ndims %d",
                  ss, sr, snd);
        int sum = 0;
        RXT_MPI(MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, sub));
        int want = 0;
        for (int j = 0; j < dims[1]; j++) {
            int x[3];
            memcpy(x, cc, sizeof x);
            x[1] = j;
            int q = 0;
            for (int m = 0; m < nd; m++)
                q = q * dims[m] + x[m];
            want += q;
        }
        RXT_CHECK(sum == want, "Cart_sub members: sum of ranks %d, want %d", sum, want);
        MPI_Comm_free(&sub);
    }
    MPI_Comm dup;
    RXT_MPI(MPI_Comm_dup(cart, &dup));
    RXT_MPI(MPI_Topo_test(dup, &st));
    RXT_CHECK(st == MPI_CART, "a duplicate keeps the topology (%d)", st);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&cart);
}

static void check_dist_graph(void)
{
    int p = rxt_size, me = rxt_rank;
    /* ring with a chord: i -> i+1 (weight i+1) and i -> i+2 */
    int dst[2] = {(me + 1) % p, (me + 2) % p}, w[2] = {me + 1, 100 + me};
    int src[2] = {(me + p - 1) % p, (me + p - 2) % p}, sw[2] = {src[0] + 1, 100 + src[1]};
    MPI_Comm g1, g2;
    RXT_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, src, sw, 2, dst, w, MPI_INFO_NULL, 0,
                                           &g1));
    /* the same graph, each rank declaring the edges out of itself */
    int deg = 2;
    RXT_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &me, &deg, dst, w, MPI_INFO_NULL, 0, &g2));
    int st, in, out, wt;
    RXT_MPI(MPI_Topo_test(g2, &st));
    RXT_CHECK(st == MPI_DIST_GRAPH, "Topo_test %d", st);
    RXT_MPI(MPI_Dist_graph_neighbors_count(g2, &in, &out, &wt));
    RXT_CHECK(in == 2 && out == 2 && wt, "counts in %d out %d weighted %d", in, out, wt);
    int s[2], swt[2], d[2], dwt[2];
    RXT_MPI(MPI_Dist_graph_neighbors(g2, 2, s, swt, 2, d, dwt));
    /* the order of a general graph's lists is the runtime's: compare as sets */
    for (int i = 0; i < 2; i++) {
        int found = 0, foundd = 0;
        for (int j = 0; j < 2; j++) {
            found |= s[j] == src[i] && swt[j] == sw[i];
            foundd |= d[j] == dst[i] && dwt[j] == w[i];
        }
        RXT_CHECK(found && foundd, "edge %d missing: in (%d,%d) (%d,%d), out (%d,%d) (%d,%d)", i,
                  s[0], swt[0], s[1], swt[1], d[0], dwt[0], d[1], dwt[1]);
    }
    RXT_MPI(MPI_Dist_graph_neighbors(g1, 2, s, swt, 2, d, dwt));
    RXT_CHECK(s[0] == src[0] && s[1] == src[1] && d[0] == dst[0] && d[1] == dst[1] &&
              swt[1] == sw[1] && dwt[0] == w[0], "adjacent lists keep their order");
    MPI_Comm_free(&g1);
    MPI_Comm_free(&g2);
    /* unweighted, empty for all but rank 0 which declares a star into itself */
    MPI_Comm g3;
    int n = me == 0 ? p : 0, *srcs = malloc(sizeof(int) * (size_t)p), *degs = malloc(sizeof(int) * (size_t)p),
        *dsts = malloc(sizeof(int) * (size_t)p);
    for (int i = 0; i < p; i++) {
        srcs[i] = i;
        degs[i] = 1;
        dsts[i] = 0;
    }
    RXT_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, n, srcs, degs, dsts, MPI_UNWEIGHTED, MPI_INFO_NULL,
                                  0, &g3));
    RXT_MPI(MPI_Dist_graph_neighbors_count(g3, &in, &out, &wt));
    RXT_CHECK(in == (me == 0 ? p : 0) && out == 1 && !wt, "star: in %d out %d weighted %d", in, out,
              wt);
    MPI_Comm_free(&g3);
    free(srcs);
    free(degs);
    free(dsts);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "topo_cart");
    check_dims();
    int d1[1] = {rxt_size}, p1[1] = {1}, np1[1] = {0};
    check_grid(1, d1, p1);
    check_grid(1, d1, np1);
    int d2[2] = {0, 0}, p2[2] = {1, 0};
    MPI_Dims_create(rxt_size, 2, d2);
    check_grid(2, d2, p2);
    int d3[3] = {0, 0, 0}, p3[3] = {0, 1, 1};
    MPI_Dims_create(rxt_size, 3, d3);
    check_grid(3, d3, p3);
    if (rxt_size >= 3) { /* a grid smaller than the communicator */
        int ds[2] = {1, rxt_size - 1}, ps[2] = {1, 1};
        check_grid(2, ds, ps);
    }
    check_dist_graph();
    return rxt_finish();
}
