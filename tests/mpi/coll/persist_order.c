/* SPDX-License-Identifier: MIT
 * Persistent collectives started in different orders on different ranks
 * (MPI-4.1 §6.13: the init calls are ordered as every collective call is,
 * the starts need not be). Every rank makes the same requests in the same
 * order, then each round starts them one by one in an order of its own
 * (reversed, rotated by the rank, shuffled by round), with blocking and
 * nonblocking collectives and point-to-point traffic of the same
 * communicator in between, and checks every result: a broadcast and a
 * barrier (MPICH's p_order case), small allreduces (the size the node path
 * serves), a large allreduce, an alltoall, neighbourhood exchanges on a
 * periodic ring, and reductions on an intercommunicator. */
#include "rxtest.h"

#if defined(RDMX) || MPI_VERSION >= 4

#define ROUNDS 30
#define BIG 50000 /* doubles of the large allreduce */

enum { BCAST, BARRIER, ALLRED1, ALLRED2, ALLRED_BIG, ALLTOALL, NB_ALLTOALL, INTER_ALLRED, NREQ };

static int me, np;

/* This round's start order for this rank: a permutation of 0..n-1. */
static void start_order(int *ord, int n, int round)
{
    for (int i = 0; i < n; i++)
        ord[i] = i;
    switch ((me + round) % 3) {
    case 0: /* reversed */
        for (int i = 0; i < n / 2; i++) {
            int t = ord[i];
            ord[i] = ord[n - 1 - i];
            ord[n - 1 - i] = t;
        }
        break;
    case 1: /* rotated by the rank */
        for (int i = 0; i < n; i++)
            ord[i] = (i + me) % n;
        break;
    default: { /* shuffled by rank and round */
        unsigned s = 2654435761u * (unsigned)(me + 1) + 40503u * (unsigned)round;
        for (int i = n - 1; i > 0; i--) {
            s = s * 1103515245u + 12345u;
            int j = (int)((s >> 16) % (unsigned)(i + 1)), t = ord[i];
            ord[i] = ord[j];
            ord[j] = t;
        }
    }
    }
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "persist_order");
    me = rxt_rank;
    np = rxt_size;

    int bval = -1, a1 = 0, r1 = 0;
    long long a2[3], r2[3];
    double *abig = malloc(sizeof(double) * BIG), *rbig = malloc(sizeof(double) * BIG);
    int *ta = malloc(sizeof(int) * (size_t)np), *tr = malloc(sizeof(int) * (size_t)np);
    int nba[2], nbr[2];
    int ia = 0, ir = 0;

    MPI_Comm ring, inter = MPI_COMM_NULL, half = MPI_COMM_NULL;
    int dims[1] = {np}, periods[1] = {1};
    RXT_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    if (np >= 2) { /* two groups: even and odd ranks */
        RXT_MPI(MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half));
        RXT_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, me % 2 ? 0 : 1, 7, &inter));
    }

    MPI_Request q[NREQ];
    int n = 0;
    RXT_MPI(MPI_Bcast_init(&bval, 1, MPI_INT, np - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &q[n++]));
    RXT_MPI(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &q[n++]));
    RXT_MPI(MPI_Allreduce_init(&a1, &r1, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                               &q[n++]));
    RXT_MPI(MPI_Allreduce_init(a2, r2, 3, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL,
                               &q[n++]));
    RXT_MPI(MPI_Allreduce_init(abig, rbig, BIG, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD,
                               MPI_INFO_NULL, &q[n++]));
    RXT_MPI(MPI_Alltoall_init(ta, 1, MPI_INT, tr, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                              &q[n++]));
    RXT_MPI(MPI_Neighbor_alltoall_init(nba, 1, MPI_INT, nbr, 1, MPI_INT, ring, MPI_INFO_NULL,
                                       &q[n++]));
    if (inter != MPI_COMM_NULL)
        RXT_MPI(MPI_Allreduce_init(&ia, &ir, 1, MPI_INT, MPI_SUM, inter, MPI_INFO_NULL, &q[n++]));

    int ord[NREQ];
    for (int round = 0; round < ROUNDS; round++) {
        if (me == np - 1)
            bval = 1000 + round;
        a1 = me + round;
        for (int k = 0; k < 3; k++)
            a2[k] = (long long)(me * 3 + k) * (round + 1) - (k == 1 ? 1000000 : 0);
        for (int i = 0; i < BIG; i++)
            abig[i] = (double)(me + 1) * (i % 97) + round;
        for (int p = 0; p < np; p++)
            ta[p] = me * 10000 + p * 100 + round;
        nba[0] = me * 100 + round;       /* to the left neighbour */
        nba[1] = me * 100 + round + 50;  /* to the right one */
        ia = (me + 1) * (round + 1);

        start_order(ord, n, round);
        for (int i = 0; i < n; i++)
            RXT_MPI(MPI_Start(&q[ord[i]]));
        if (round % 4 == 1) { /* other traffic of the communicator meanwhile */
            int x = me, sum = 0;
            RXT_MPI(MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
            RXT_CHECK(sum == np * (np - 1) / 2, "round %d: blocking allreduce %d", round, sum);
            int to = (me + 1) % np, from = (me + np - 1) % np, got = -1;
            RXT_MPI(MPI_Sendrecv(&x, 1, MPI_INT, to, 3, &got, 1, MPI_INT, from, 3,
                                 MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            RXT_CHECK(got == from, "round %d: sendrecv got %d", round, got);
        }
        MPI_Request ib = MPI_REQUEST_NULL;
        int bx = me == 0 ? round : -1;
        if (round % 4 == 3)
            RXT_MPI(MPI_Ibcast(&bx, 1, MPI_INT, 0, MPI_COMM_WORLD, &ib));
        if (round % 2)
            RXT_MPI(MPI_Waitall(n, q, MPI_STATUSES_IGNORE));
        else /* complete them in the start order */
            for (int i = 0; i < n; i++)
                RXT_MPI(MPI_Wait(&q[ord[i]], MPI_STATUS_IGNORE));
        RXT_MPI(MPI_Wait(&ib, MPI_STATUS_IGNORE));
        if (round % 4 == 3)
            RXT_CHECK(bx == round, "round %d: ibcast %d", round, bx);

        RXT_CHECK(bval == 1000 + round, "round %d: bcast %d", round, bval);
        int want1 = np * (np - 1) / 2 + np * round;
        RXT_CHECK(r1 == want1, "round %d: allreduce %d, expected %d", round, r1, want1);
        for (int k = 0; k < 3; k++) {
            long long w = (long long)((np - 1) * 3 + k) * (round + 1) - (k == 1 ? 1000000 : 0);
            RXT_CHECK(r2[k] == w, "round %d: allreduce max[%d] %lld, expected %lld", round, k,
                      r2[k], w);
        }
        for (int i = 0; i < BIG; i += 997) {
            double w = (double)np * (np + 1) / 2 * (i % 97) + (double)np * round;
            RXT_CHECK(rbig[i] == w, "round %d: big allreduce [%d] %g, expected %g", round, i,
                      rbig[i], w);
        }
        for (int p = 0; p < np; p++)
            RXT_CHECK(tr[p] == p * 10000 + me * 100 + round, "round %d: alltoall from %d: %d",
                      round, p, tr[p]);
        int left = (me + np - 1) % np, right = (me + 1) % np;
        RXT_CHECK(nbr[0] == left * 100 + round + 50 && nbr[1] == right * 100 + round,
                  "round %d: neighbours %d %d", round, nbr[0], nbr[1]);
        if (inter != MPI_COMM_NULL) { /* the sum over the other group */
            int w = 0;
            for (int p = 0; p < np; p++)
                if (p % 2 != me % 2)
                    w += (p + 1) * (round + 1);
            RXT_CHECK(ir == w, "round %d: intercomm allreduce %d, expected %d", round, ir, w);
        }
    }
    for (int i = 0; i < n; i++)
        RXT_MPI(MPI_Request_free(&q[i]));
    RXT_MPI(MPI_Comm_free(&ring));
    if (inter != MPI_COMM_NULL) {
        RXT_MPI(MPI_Comm_free(&inter));
        RXT_MPI(MPI_Comm_free(&half));
    }
    free(abig);
    free(rbig);
    free(ta);
    free(tr);
    return rxt_finish();
}

#else
int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "persist_order");
    if (rxt_rank == 0)
        printf("persist_order: MPI %d.%d has no persistent collectives\n", MPI_VERSION,
               MPI_SUBVERSION);
    return rxt_finish();
}
#endif
