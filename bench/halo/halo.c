/* SPDX-License-Identifier: MIT
 * 3D halo exchange with 6 neighbours on a periodic Cartesian grid of ranks;
 * faces described by derived datatypes (vector or subarray), Isend/Irecv. */
#include "../common/bench_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIN_DEFAULT 1024L
#define MAX_DEFAULT (1L << 20)

/* Each rank owns n^3 doubles with a halo of one plane on every side:
 * (n+2)^3 elements, x fastest. A face is n x n doubles. */
struct halo {
    int subarray; /* face types: 0 = vector / hvector, 1 = subarray */
    MPI_Comm cart;
    int rank, nbr[6]; /* neighbour across face f: dimension f/2, low side if f is even */
    int n;
    double *a;
    MPI_Datatype send_t[6], recv_t[6];
    size_t send_off[6], recv_off[6]; /* element offsets of the typed buffers */
    MPI_Request reqs[12];
    MPI_Status stats[12];
};

static size_t idx(int n, int i, int j, int k)
{
    size_t e = (size_t)n + 2;
    return (size_t)i + e * ((size_t)j + e * (size_t)k);
}

/* Plane of dimension d that a face f touches: the halo plane (0 or n+1) or
 * the first / last interior plane (1 or n). */
static int plane(int n, int f, int halo)
{
    int low = (f % 2) == 0;
    if (halo)
        return low ? 0 : n + 1;
    return low ? 1 : n;
}

/* The three strided layouts of a face: x-faces (i fixed) are single
 * elements with stride n+2 in j and (n+2)^2 in k; y-faces (j fixed) are rows
 * of n in i with stride (n+2)^2; z-faces (k fixed) rows with stride n+2. */
static MPI_Datatype vector_face(int n, int d)
{
    MPI_Datatype t, col;
    int e = n + 2;

    if (d == 0) {
        MPI_Type_vector(n, 1, e, MPI_DOUBLE, &col);
        MPI_Type_create_hvector(n, 1, (MPI_Aint)e * e * (MPI_Aint)sizeof(double), col, &t);
        MPI_Type_free(&col);
    } else if (d == 1) {
        MPI_Type_vector(n, n, e * e, MPI_DOUBLE, &t);
    } else {
        MPI_Type_vector(n, n, e, MPI_DOUBLE, &t);
    }
    MPI_Type_commit(&t);
    return t;
}

static MPI_Datatype subarray_face(int n, int d, int at)
{
    /* C order: sizes are (z, y, x), the last one fastest */
    int sizes[3] = {n + 2, n + 2, n + 2};
    int sub[3] = {n, n, n}, start[3] = {1, 1, 1};
    int axis = 2 - d;
    MPI_Datatype t;

    sub[axis] = 1;
    start[axis] = at;
    MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    return t;
}

static void build_types(struct halo *h)
{
    int n = h->n;

    for (int f = 0; f < 6; f++) {
        int d = f / 2, sp = plane(n, f, 0), rp = plane(n, f, 1);
        if (h->subarray) {
            h->send_t[f] = subarray_face(n, d, sp);
            h->recv_t[f] = subarray_face(n, d, rp);
            h->send_off[f] = h->recv_off[f] = 0;
        } else {
            int c[3] = {1, 1, 1};
            h->send_t[f] = vector_face(n, d);
            MPI_Type_dup(h->send_t[f], &h->recv_t[f]);
            c[d] = sp;
            h->send_off[f] = idx(n, c[0], c[1], c[2]);
            c[d] = rp;
            h->recv_off[f] = idx(n, c[0], c[1], c[2]);
        }
    }
}

static void free_types(struct halo *h)
{
    for (int f = 0; f < 6; f++) {
        MPI_Type_free(&h->send_t[f]);
        MPI_Type_free(&h->recv_t[f]);
    }
}

/* Face f's interior plane goes to the neighbour across f with tag f; it
 * arrives in that neighbour's halo on the opposite side (face f ^ 1), so the
 * halo of face f is filled by the neighbour across f with tag f ^ 1. With two
 * ranks along a dimension both neighbours are the same rank, and with one
 * rank the neighbour is the rank itself: the tags keep the faces apart. */
static void exchange(struct halo *h)
{
    for (int f = 0; f < 6; f++)
        MPI_Irecv(h->a + h->recv_off[f], 1, h->recv_t[f], h->nbr[f], f ^ 1, h->cart,
                  &h->reqs[f]);
    for (int f = 0; f < 6; f++)
        MPI_Isend(h->a + h->send_off[f], 1, h->send_t[f], h->nbr[f], f, h->cart,
                  &h->reqs[6 + f]);
    MPI_Waitall(12, h->reqs, h->stats);
}

static double loop(void *ctx, long n, double *per_iter)
{
    struct halo *h = ctx;
    double t0 = rx_bench_now(), t = t0;

    for (long i = 0; i < n; i++) {
        exchange(h);
        if (per_iter != NULL) {
            double t1 = rx_bench_now();
            per_iter[i] = t1 - t;
            t = t1;
        }
    }
    return rx_bench_now() - t0;
}

/* A value no other cell of any rank holds, exact in a double. */
static double cell_value(int n, int rank, int i, int j, int k)
{
    double e = n + 2;
    return ((rank * e + i) * e + j) * e + k;
}

static void fill(struct halo *h)
{
    int n = h->n;
    size_t total = idx(n, 0, 0, n + 2);

    for (size_t c = 0; c < total; c++)
        h->a[c] = -1.0;
    for (int k = 1; k <= n; k++)
        for (int j = 1; j <= n; j++)
            for (int i = 1; i <= n; i++)
                h->a[idx(n, i, j, k)] = cell_value(n, h->rank, i, j, k);
}

/* After one exchange every halo face holds the neighbour's opposite
 * interior plane, cell by cell. */
static void verify(struct halo *h)
{
    int n = h->n;

    fill(h);
    MPI_Barrier(h->cart);
    exchange(h);
    for (int f = 0; f < 6; f++) {
        int d = f / 2, src = plane(n, f ^ 1, 0);
        for (int v = 1; v <= n; v++)
            for (int u = 1; u <= n; u++) {
                int c[3], s[3];
                /* (u, v) run over the two dimensions other than d */
                c[d] = plane(n, f, 1);
                s[d] = src;
                c[(d + 1) % 3] = s[(d + 1) % 3] = u;
                c[(d + 2) % 3] = s[(d + 2) % 3] = v;
                if (h->a[idx(n, c[0], c[1], c[2])] !=
                    cell_value(n, h->nbr[f], s[0], s[1], s[2]))
                    rx_bench_fail("halo face", (long)n * n * 8,
                                  (long)idx(n, c[0], c[1], c[2]) * 8);
            }
    }
}

int main(int argc, char **argv)
{
    static const struct rx_bench_counts counts = {1000, 100, 100, 10};
    struct rx_bench_opts o;
    struct halo h;
    int np, dims[3] = {0, 0, 0}, periods[3] = {1, 1, 1};
    long min, max;
    int nmax;
    char name[32];

    MPI_Init(&argc, &argv);
    rx_bench_parse(argc, argv, &o, "halo", "vector | subarray");
    memset(&h, 0, sizeof(h));
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (strcmp(o.mode, "subarray") == 0) {
        h.subarray = 1;
    } else if (strcmp(o.mode, "vector") != 0) {
        fprintf(stderr, "halo: unknown mode '%s'\n", o.mode);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Dims_create(np, 3, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &h.cart);
    MPI_Comm_rank(h.cart, &h.rank);
    for (int d = 0; d < 3; d++)
        MPI_Cart_shift(h.cart, d, 1, &h.nbr[2 * d], &h.nbr[2 * d + 1]);

    min = o.min_size >= 0 ? o.min_size : MIN_DEFAULT;
    max = o.max_size >= 0 ? o.max_size : MAX_DEFAULT;
    if (min < 8)
        min = 8;
    nmax = (int)lround(sqrt((double)max / 8.0));
    if (nmax < 1)
        nmax = 1;
    h.a = rx_bench_buffer(&o, idx(nmax, 0, 0, nmax + 2) * sizeof(double));

    snprintf(name, sizeof(name), "halo3d-%s", o.mode);
    if (h.rank == 0) {
        rx_bench_header(&o, "halo", name, np, "us", "lower", "avg_of_max_us");
        printf("# grid %dx%dx%d periodic; size = bytes of one face (n x n doubles, n = "
               "round(sqrt(nominal / 8))); value = time of one 6-face exchange\n",
               dims[0], dims[1], dims[2]);
    }
    for (long s = min; s <= max; s *= 2) {
        long iters;
        double *per, t;

        h.n = (int)lround(sqrt((double)s / 8.0));
        if (h.n < 1)
            h.n = 1;
        build_types(&h);
        fill(&h);
        iters = rx_bench_plan(&o, h.cart, (size_t)h.n * (size_t)h.n * 8, &counts, loop, &h);
        per = rx_bench_alloc((size_t)iters * sizeof(double));
        MPI_Barrier(h.cart);
        loop(&h, iters, per);
        t = rx_bench_avg_of_max(h.cart, per, iters);
        free(per);
        verify(&h);
        free_types(&h);
        if (h.rank == 0) {
            printf("%ld %.3f\n", (long)h.n * h.n * 8, t * 1e6);
            fflush(stdout);
        }
    }
    rx_bench_buffer_free(&o, h.a);
    MPI_Comm_free(&h.cart);
    MPI_Finalize();
    return 0;
}
