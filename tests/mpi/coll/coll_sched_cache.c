/* SPDX-License-Identifier: MIT
 * Collectives whose sizes, roots and ops alternate from call to call, so
 * that cached schedules (rdmx keeps them per communicator and arguments)
 * are found again, interleaved and held by several nonblocking calls at
 * once: every result is checked against its closed form. Every message
 * stays below the shared-memory eager limit (16 KiB): rendezvous transfers
 * of 3 ranks on 2 cores hang intermittently in the transport (a 40,000
 * long long ring allreduce: both sides of a 106,664-byte rendezvous posted,
 * neither completing; more often with the cooperative copy), with or
 * without the cache; the algorithms at larger sizes are unit.sched's. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int rank, size, fails;

#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        if (!(cond) && fails++ < 10) {                                                        \
            fprintf(stderr, "rank %d: ", rank);                                               \
            fprintf(stderr, __VA_ARGS__);                                                     \
            fputc('\n', stderr);                                                              \
        }                                                                                     \
    } while (0)

static const int counts[] = {1, 3, 1999, 1500, 7, 2000}; /* <= 16,000 bytes of long long */
#define NCOUNTS (int)(sizeof counts / sizeof counts[0])

static void allreduce_round(MPI_Comm comm, int it)
{
    int p, r;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    int n = counts[it % NCOUNTS];
    long long *in = malloc(sizeof *in * (size_t)n), *out = malloc(sizeof *out * (size_t)n);
    for (int i = 0; i < n; i++)
        in[i] = (long long)(r + 1) * (i % 97 + 1) + it;
    MPI_Op op = it % 3 == 2 ? MPI_MAX : MPI_SUM;
    MPI_Allreduce(in, out, n, MPI_LONG_LONG, op, comm);
    for (int i = 0; i < n; i++) {
        long long want = op == MPI_SUM ? (long long)p * (p + 1) / 2 * (i % 97 + 1) + (long long)p * it
                                       : (long long)p * (i % 97 + 1) + it;
        if (out[i] != want) {
            CHECK(0, "allreduce it %d n %d [%d]: %lld, want %lld", it, n, i, out[i], want);
            break;
        }
    }
    free(in);
    free(out);
}

static void bcast_reduce_round(MPI_Comm comm, int it)
{
    int p, r;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    /* the same size comes back with another root */
    int n = counts[(it + 1) % NCOUNTS] * 2, root = (it / NCOUNTS) % p;
    int *b = malloc(sizeof *b * (size_t)n), *o = malloc(sizeof *o * (size_t)n);
    for (int i = 0; i < n; i++)
        b[i] = r == root ? i * 7 + it : -1;
    MPI_Bcast(b, n, MPI_INT, root, comm);
    for (int i = 0; i < n; i++)
        if (b[i] != i * 7 + it) {
            CHECK(0, "bcast it %d n %d root %d [%d]: %d", it, n, root, i, b[i]);
            break;
        }
    for (int i = 0; i < n; i++)
        b[i] = r + i % 5;
    MPI_Reduce(b, o, n, MPI_INT, MPI_SUM, root, comm);
    if (r == root)
        for (int i = 0; i < n; i++)
            if (o[i] != p * (p - 1) / 2 + p * (i % 5)) {
                CHECK(0, "reduce it %d n %d root %d [%d]: %d", it, n, root, i, o[i]);
                break;
            }
    free(b);
    free(o);
}

/* More nonblocking allreduces in flight than a communicator keeps
 * schedules, sizes repeating among them. */
static void nonblocking_round(MPI_Comm comm, int it)
{
    enum { N = 12 };
    int p;
    MPI_Comm_size(comm, &p);
    MPI_Request req[N];
    double *in[N], *out[N];
    int n[N];
    for (int k = 0; k < N; k++) {
        n[k] = counts[(k + it) % NCOUNTS] + k % 4;
        in[k] = malloc(sizeof(double) * (size_t)n[k]);
        out[k] = malloc(sizeof(double) * (size_t)n[k]);
        for (int i = 0; i < n[k]; i++)
            in[k][i] = k + i % 11;
        MPI_Iallreduce(in[k], out[k], n[k], MPI_DOUBLE, MPI_SUM, comm, &req[k]);
    }
    MPI_Waitall(N, req, MPI_STATUSES_IGNORE);
    for (int k = 0; k < N; k++) {
        for (int i = 0; i < n[k]; i++)
            if (out[k][i] != (double)p * (k + i % 11)) {
                CHECK(0, "iallreduce it %d #%d n %d [%d]: %g", it, k, n[k], i, out[k][i]);
                break;
            }
        free(in[k]);
        free(out[k]);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half);
    for (int it = 0; it < 40; it++) {
        MPI_Comm comm = it % 4 == 3 ? half : MPI_COMM_WORLD;
        allreduce_round(comm, it);
        bcast_reduce_round(comm, it);
        if (it % 8 == 0)
            nonblocking_round(comm, it);
    }
    /* a communicator freed and created again (its handle reused) */
    for (int k = 0; k < 3; k++) {
        MPI_Comm d;
        MPI_Comm_split(MPI_COMM_WORLD, 0, k % 2 ? rank : size - rank, &d);
        allreduce_round(d, k);
        bcast_reduce_round(d, k);
        MPI_Comm_free(&d);
    }
    MPI_Comm_free(&half);
    int all;
    MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%s\n", all ? "FAILED" : " No Errors");
    MPI_Finalize();
    return all ? 1 : 0;
}
