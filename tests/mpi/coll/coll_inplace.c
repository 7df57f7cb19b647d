/* SPDX-License-Identifier: MIT
 * MPI_IN_PLACE in the basic collectives, at every root: MPI_Reduce (the root's
 * receive buffer is its input), MPI_Allreduce, MPI_Gather (the root's own block is
 * already in place) and MPI_Allgather (every rank's block is). */
#include "rxtest.h"

static const int counts[] = { 1, 13, 20011 };

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "coll_inplace");
    for (unsigned c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        int n = counts[c];
        size_t tot = (size_t)n * (size_t)rxt_size;
        int *b = malloc(sizeof(int) * (tot + 1));
        for (int root = 0; root < rxt_size; root++) {
            for (int i = 0; i < n; i++)
                b[i] = rxt_rank * 3 + i;
            RXT_MPI(MPI_Reduce(rxt_rank == root ? MPI_IN_PLACE : b, b, n, MPI_INT, MPI_SUM, root,
                               MPI_COMM_WORLD));
            if (rxt_rank == root)
                for (int i = 0; i < n; i++)
                    if (b[i] != 3 * rxt_size * (rxt_size - 1) / 2 + rxt_size * i) {
                        RXT_CHECK(0, "Reduce(MPI_IN_PLACE) count %d root %d: element %d is %d", n,
                                  root, i, b[i]);
                        break;
                    }

            for (size_t k = 0; k <= tot; k++)
                b[k] = -1;
            for (int i = 0; i < n; i++)
                b[(size_t)rxt_rank * (size_t)n + (size_t)i] = rxt_rank * 100 + i;
            if (rxt_rank == root)
                RXT_MPI(MPI_Gather(MPI_IN_PLACE, n, MPI_INT, b, n, MPI_INT, root,
                                   MPI_COMM_WORLD));
            else
                RXT_MPI(MPI_Gather(b + (size_t)rxt_rank * (size_t)n, n, MPI_INT, NULL, 0,
                                   MPI_INT, root, MPI_COMM_WORLD));
            if (rxt_rank == root)
                for (size_t k = 0; k < tot; k++)
                    if (b[k] != (int)(k / (size_t)n) * 100 + (int)(k % (size_t)n)) {
                        RXT_CHECK(0, "Gather(MPI_IN_PLACE) count %d root %d: element %zu is %d",
                                  n, root, k, b[k]);
                        break;
                    }
        }
        for (int i = 0; i < n; i++)
            b[i] = rxt_rank - i;
        RXT_MPI(MPI_Allreduce(MPI_IN_PLACE, b, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
        for (int i = 0; i < n; i++)
            if (b[i] != rxt_size - 1 - i) {
                RXT_CHECK(0, "Allreduce(MPI_IN_PLACE) count %d: element %d is %d", n, i, b[i]);
                break;
            }
        for (size_t k = 0; k <= tot; k++)
            b[k] = -1;
        for (int i = 0; i < n; i++)
            b[(size_t)rxt_rank * (size_t)n + (size_t)i] = rxt_rank * 100 + i;
        RXT_MPI(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, b, n, MPI_INT, MPI_COMM_WORLD));
        for (size_t k = 0; k < tot; k++)
            if (b[k] != (int)(k / (size_t)n) * 100 + (int)(k % (size_t)n)) {
                RXT_CHECK(0, "Allgather(MPI_IN_PLACE) count %d: element %zu is %d", n, k, b[k]);
                break;
            }
        RXT_CHECK(b[tot] == -1, "Allgather(MPI_IN_PLACE) wrote past the buffer");
        free(b);
    }
    return rxt_finish();
}
