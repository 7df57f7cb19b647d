/* SPDX-License-Identifier: MIT
 * RDMX_TRACE: run with RDMX_TRACE=FILE (argument 1 names the same file).
 * Every rank sends its right neighbour three 100-byte messages and one of
 * 100,000 bytes (rendezvous), its left neighbour two of 10 bytes; then rank 0
 * broadcasts 100,000 bytes five times (a collective, counted as the messages
 * of its algorithm). After MPI_Finalize rank 0 reads the matrix: the
 * point-to-point pairs must show at least the exact sends above, every rank but
 * 0 must have received at least the 500,000 broadcast bytes, and nothing may
 * name a rank outside the job. rdmx-specific (the file is rdmx's). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    static char big[100000], small[3][100], tiny[2][10], rbig[100000], rs[3][100], rt[2][10];
    MPI_Request rq[12];
    int n = 0;
    for (int i = 0; i < 3; i++)
        MPI_Irecv(rs[i], 100, MPI_BYTE, left, 1, MPI_COMM_WORLD, &rq[n++]);
    MPI_Irecv(rbig, sizeof rbig, MPI_BYTE, left, 2, MPI_COMM_WORLD, &rq[n++]);
    for (int i = 0; i < 2; i++)
        MPI_Irecv(rt[i], 10, MPI_BYTE, right, 3, MPI_COMM_WORLD, &rq[n++]);
    for (int i = 0; i < 3; i++)
        MPI_Isend(small[i], 100, MPI_BYTE, right, 1, MPI_COMM_WORLD, &rq[n++]);
    MPI_Isend(big, sizeof big, MPI_BYTE, right, 2, MPI_COMM_WORLD, &rq[n++]);
    for (int i = 0; i < 2; i++)
        MPI_Isend(tiny[i], 10, MPI_BYTE, left, 3, MPI_COMM_WORLD, &rq[n++]);
    MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
    for (int i = 0; i < 5; i++)
        MPI_Bcast(big, sizeof big, MPI_BYTE, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    if (rank != 0)
        return 0;
    const char *path = argc > 1 ? argv[1] : "trace.txt";
    FILE *f = fopen(path, "r");
    if (!f) {
        printf(" Found 1 errors: cannot open %s\n", path);
        return 1;
    }
    unsigned long long *m = calloc((size_t)size * size * 2, sizeof *m), *in = calloc((size_t)size, sizeof *in);
    char line[256];
    int errs = 0, lines = 0;
    if (!fgets(line, sizeof line, f) || strcmp(line, "# rdmx traffic matrix v1\n")) {
        printf("bad first line\n");
        errs++;
    }
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        int s, d;
        unsigned long long msgs, bytes;
        if (sscanf(line, "%d %d %llu %llu", &s, &d, &msgs, &bytes) != 4 || s < 0 || d < 0 ||
            s >= size || d >= size || msgs == 0) {
            printf("bad line: %s", line);
            errs++;
            continue;
        }
        m[2 * (s * size + d)] += msgs;
        m[2 * (s * size + d) + 1] += bytes;
        in[d] += bytes;
        lines++;
    }
    fclose(f);
    for (int s = 0; s < size; s++) {
        int r = (s + 1) % size, l = (s + size - 1) % size;
        unsigned long long want_r = 4, want_rb = 100300, want_l = 2, want_lb = 20;
        if (r == l) {
            want_r += want_l;
            want_rb += want_lb;
        }
        if (m[2 * (s * size + r)] < want_r || m[2 * (s * size + r) + 1] < want_rb) {
            printf("%d -> %d: %llu messages %llu bytes, want at least %llu / %llu\n", s, r,
                   m[2 * (s * size + r)], m[2 * (s * size + r) + 1], want_r, want_rb);
            errs++;
        }
        if (m[2 * (s * size + l)] < want_l || m[2 * (s * size + l) + 1] < want_lb) {
            printf("%d -> %d: too little\n", s, l);
            errs++;
        }
        if (s != 0 && in[s] < 500000 + 100000 + 10) {
            printf("rank %d received %llu bytes, the broadcasts alone are 500000\n", s, in[s]);
            errs++;
        }
    }
    printf(errs ? " Found %d errors\n" : " No Errors\n", errs);
    free(m);
    free(in);
    return errs ? 1 : 0;
}
