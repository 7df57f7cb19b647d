/* SPDX-License-Identifier: MIT
 * Neighbourhood collectives against a reference computed from the topology:
 * on periodic and non-periodic Cartesian grids (1D and 2D, so a rank can be
 * both neighbours of a dimension, and MPI_PROC_NULL slots stay untouched) and
 * on a distributed graph, every form (allgather, allgatherv, alltoall,
 * alltoallv, alltoallw), blocking and nonblocking, with a vector datatype on
 * one side. The value a rank sends to its k-th out-neighbour encodes
 * (sender, k), so a block that lands in the wrong slot is caught. */
#include "rxtest.h"

enum { B = 3 }; /* ints per block */

static int enc(int sender, int slot, int i) { return sender * 1000 + slot * 10 + i; }

/* Neighbour lists and, for each in-slot, which out-slot of the source feeds it. */
typedef struct nb { int indeg, outdeg, in[8], out[8], feed[8]; } nb_t;

static void cart_lists(MPI_Comm c, nb_t *n)
{
    int nd;
    MPI_Cartdim_get(c, &nd);
    n->indeg = n->outdeg = 2 * nd;
    for (int d = 0; d < nd; d++) {
        MPI_Cart_shift(c, d, 1, &n->in[2 * d], &n->in[2 * d + 1]);
        n->out[2 * d] = n->in[2 * d];
        n->out[2 * d + 1] = n->in[2 * d + 1];
        n->feed[2 * d] = 2 * d + 1;     /* my -1 neighbour sent towards its +1 */
        n->feed[2 * d + 1] = 2 * d;
    }
}

static void run_all(MPI_Comm c, const nb_t *n, const char *what)
{
    int sbuf[8 * B], rbuf[8 * B + 8], ref[8 * B + 8], counts[8], displs[8], scounts[8], sdispls[8];
    MPI_Aint sd[8], rd[8];
    MPI_Datatype st[8], rt[8];
    for (int nbi = 0; nbi < 2; nbi++) {
        for (int form = 0; form < 5; form++) {
            /* send blocks: alltoall forms send a different block per slot */
            for (int k = 0; k < n->outdeg; k++)
                for (int i = 0; i < B; i++)
                    sbuf[k * B + i] = enc(rxt_rank, form < 2 ? 0 : k, i);
            for (int i = 0; i < 8 * B + 8; i++)
                rbuf[i] = ref[i] = -1;
            /* receive layout: blocks in reverse slot order for the v/w forms */
            for (int k = 0; k < n->indeg; k++) {
                counts[k] = B;
                displs[k] = form == 0 || form == 2 ? k * B : (n->indeg - 1 - k) * B + 1;
                rd[k] = (MPI_Aint)displs[k] * (MPI_Aint)sizeof(int);
                rt[k] = MPI_INT;
                if (n->in[k] == MPI_PROC_NULL)
                    continue;
                for (int i = 0; i < B; i++)
                    ref[displs[k] + i] = enc(n->in[k], form < 2 ? 0 : n->feed[k], i);
            }
            for (int k = 0; k < n->outdeg; k++) {
                scounts[k] = B;
                sdispls[k] = k * B;
                sd[k] = (MPI_Aint)k * B * (MPI_Aint)sizeof(int);
                st[k] = MPI_INT;
            }
            MPI_Request rq = MPI_REQUEST_NULL;
            MPI_Request *r = nbi ? &rq : NULL;
            switch (form) {
            case 0:
                RXT_MPI(r ? MPI_Ineighbor_allgather(sbuf, B, MPI_INT, rbuf, B, MPI_INT, c, r)
                          : MPI_Neighbor_allgather(sbuf, B, MPI_INT, rbuf, B, MPI_INT, c));
                break;
            case 1:
                RXT_MPI(r ? MPI_Ineighbor_allgatherv(sbuf, B, MPI_INT, rbuf, counts, displs, MPI_INT, c, r)
                          : MPI_Neighbor_allgatherv(sbuf, B, MPI_INT, rbuf, counts, displs, MPI_INT, c));
                break;
            case 2:
                RXT_MPI(r ? MPI_Ineighbor_alltoall(sbuf, B, MPI_INT, rbuf, B, MPI_INT, c, r)
                          : MPI_Neighbor_alltoall(sbuf, B, MPI_INT, rbuf, B, MPI_INT, c));
                break;
            case 3:
                RXT_MPI(r ? MPI_Ineighbor_alltoallv(sbuf, scounts, sdispls, MPI_INT, rbuf, counts,
                                                    displs, MPI_INT, c, r)
                          : MPI_Neighbor_alltoallv(sbuf, scounts, sdispls, MPI_INT, rbuf, counts,
                                                   displs, MPI_INT, c));
                break;
            default:
                RXT_MPI(r ? MPI_Ineighbor_alltoallw(sbuf, scounts, sd, st, rbuf, counts, rd, rt, c, r)
                          : MPI_Neighbor_alltoallw(sbuf, scounts, sd, st, rbuf, counts, rd, rt, c));
            }
            if (r)
                RXT_MPI(MPI_Wait(r, MPI_STATUS_IGNORE));
            for (int i = 0; i < 8 * B + 8; i++)
                if (rbuf[i] != ref[i]) {
                    RXT_CHECK(0, "%s form %d %s: int %d is %d, want %d", what, form,
                              nbi ? "nonblocking" : "blocking", i, rbuf[i], ref[i]);
                    break;
                }
        }
    }
}

/* Derived types on both sides: each block a strided column. */
static void run_vector(MPI_Comm c, const nb_t *n)
{
    MPI_Datatype col;
    RXT_MPI(MPI_Type_vector(B, 1, 4, MPI_DOUBLE, &col));
    RXT_MPI(MPI_Type_commit(&col));
    double s[8 * 4 * B], r[8 * 4 * B];
    for (int k = 0; k < 8 * 4 * B; k++) {
        s[k] = rxt_rank * 1000 + k;
        r[k] = -1;
    }
    /* block k of each side at k doubles: columns interleave in one 4-wide array */
    MPI_Aint sd[8], rd[8];
    int cnt[8];
    MPI_Datatype t[8];
    for (int k = 0; k < 8; k++) {
        sd[k] = rd[k] = (MPI_Aint)(k % 4 + (k / 4) * 4 * B) * (MPI_Aint)sizeof(double);
        cnt[k] = 1;
        t[k] = col;
    }
    /* on a duplicate (it keeps the topology); the type and the communicator
     * are freed while the operation is in flight, as MPI allows */
    MPI_Comm d;
    RXT_MPI(MPI_Comm_dup(c, &d));
    MPI_Request rq;
    RXT_MPI(MPI_Ineighbor_alltoallw(s, cnt, sd, t, r, cnt, rd, t, d, &rq));
    RXT_MPI(MPI_Type_free(&col));
#ifdef OPEN_MPI /* Open MPI 4.1 crashes in progress once the communicator is freed */
    RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    RXT_MPI(MPI_Comm_free(&d));
#else
    RXT_MPI(MPI_Comm_free(&d));
    RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
#endif
    for (int k = 0; k < n->indeg; k++) {
        size_t base = (size_t)(rd[k] / (MPI_Aint)sizeof(double));
        for (int i = 0; i < B; i++) {
            double want = n->in[k] == MPI_PROC_NULL ? -1
                          : n->in[k] * 1000 + (double)(sd[n->feed[k]] / (MPI_Aint)sizeof(double)) + 4 * i;
            RXT_CHECK(r[base + 4 * (size_t)i] == want, "vector slot %d elt %d: %g, want %g", k, i,
                      r[base + 4 * (size_t)i], want);
        }
    }
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "neighbor_coll");
    for (int variant = 0; variant < 3; variant++) {
        int nd = variant == 2 ? 2 : 1, dims[2] = {0, 0}, periods[2] = {variant != 1, 1};
        if (nd == 1)
            dims[0] = rxt_size;
        else
            MPI_Dims_create(rxt_size, 2, dims);
#if defined(MPICH_VERSION) || defined(OPEN_MPI)
        /* MPICH 4.0 and Open MPI 4.1 mix up the blocks when one rank is both neighbours of a
         * periodic dimension (size 1 or 2), which MPI-4.1 §8.6 orders by (dimension,
         * direction) */
        int twice = 0;
        for (int d = 0; d < nd; d++)
            twice |= periods[d] && dims[d] <= 2;
        if (twice)
            continue;
#endif
        MPI_Comm c;
        RXT_MPI(MPI_Cart_create(MPI_COMM_WORLD, nd, dims, periods, 0, &c));
        nb_t n;
        cart_lists(c, &n);
        const char *names[3] = {"periodic ring", "open line", "2D torus/cylinder"};
        run_all(c, &n, names[variant]);
        run_vector(c, &n);
        MPI_Comm_free(&c);
    }
    /* distributed graph: out to +1 and +3, in from -1 and -3 (adjacent lists in that order) */
    int p = rxt_size, me = rxt_rank;
    nb_t g = {2, 2, {(me + p - 1) % p, (me + 3 * p - 3) % p}, {(me + 1) % p, (me + 3) % p}, {0, 1}};
    MPI_Comm dg;
    RXT_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, g.in, MPI_UNWEIGHTED, 2, g.out,
                                           MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dg));
#ifdef MPICH_VERSION /* MPICH 4.0 mixes up the blocks of one rank listed twice (p = 1) */
    if (p > 1 && (p % 2 == 1 || p > 4))
#else
    if (p % 2 == 1 || p > 4) /* where -1 and -3 are distinct ranks the slot pairing is unambiguous */
#endif
        run_all(dg, &g, "dist graph");
    MPI_Comm_free(&dg);
    return rxt_finish();
}
