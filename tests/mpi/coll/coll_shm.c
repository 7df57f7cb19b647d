/* SPDX-License-Identifier: MIT
 * The node-shared-memory collectives: Bcast (the ring, one entry to many
 * chunks), Gather, Scatter, Allgather and Alltoall, at sizes around the
 * inline limit, the ring chunk and the slot, every root, MPI_IN_PLACE, on
 * world, a dup and a split; ranks that describe the same data with
 * different layouts (odd ranks use an int with a 4-byte gap, which must be
 * packed) take the same path; back-to-back broadcasts with rotating roots
 * wrap the ring many times, interleaved with other collectives and a second
 * communicator; communicators freed and duplicated again reuse handles.
 * Blocks around the crossover to the single-copy path (16 KiB blocks for
 * allgather and alltoall, 32 KiB for bcast) and beyond the slot take it
 * where cross-memory attach works; testlist also runs this with it off
 * (RDMX_SHM_CMA=off: the slot, ring and schedule paths), with the shm path
 * off and with each collective forced to it. */
#include "rxtest.h"

/* elements (ints) per block */
static const int counts[] = { 0, 1, 11, 12, 13, 1021, 4095, 4096, 4097, 16411, 40009 };
static const int bcast_counts[] = { 0, 1, 13, 2047, 2048, 2049, 4096, 4097,
                                    8191, 8192, 8193, 16411, 262139, 262147, 300007 };

static MPI_Datatype gapint; /* one int, extent 8 */

static int val(int src, int dst, int i) { return src * 1000003 + dst * 7919 + i; }

/* Layout of rank r: even ranks plain ints, odd ranks gap ints. */
static MPI_Datatype type_of(int r) { return r % 2 ? gapint : MPI_INT; }
static int stride_of(int r) { return r % 2 ? 2 : 1; }

static int *alloc_ints(size_t n) { return calloc(n ? n : 1, sizeof(int)); }

static void test_bcast(MPI_Comm comm, int n, const char *cn)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    int st = stride_of(me);
    int *b = alloc_ints((size_t)n * (size_t)st);
    for (int root = 0; root < p; root++) {
        for (int i = 0; i < n; i++)
            b[(size_t)i * st] = me == root ? val(root, 0, i) : -1;
        RXT_MPI(MPI_Bcast(b, n, type_of(me), root, comm));
        for (int i = 0; i < n; i++)
            if (b[(size_t)i * st] != val(root, 0, i)) {
                RXT_CHECK(0, "%s Bcast n=%d root=%d: element %d is %d", cn, n, root, i,
                          b[(size_t)i * st]);
                break;
            }
    }
    free(b);
}

static void check_blocks(const int *b, int p, int n, int me, int a2a, const char *what,
                         const char *cn)
{
    for (int r = 0; r < p; r++)
        for (int i = 0; i < n; i++)
            if (b[(size_t)r * n + i] != val(r, a2a ? me : 0, i)) {
                RXT_CHECK(0, "%s %s n=%d: block %d element %d is %d", cn, what, n, r, i,
                          b[(size_t)r * n + i]);
                return;
            }
}

static void test_move(MPI_Comm comm, int n, const char *cn)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    size_t tot = (size_t)n * (size_t)p;
    int st = stride_of(me);
    int *s = alloc_ints(tot * (size_t)st), *r = alloc_ints(tot);

    /* allgather: odd ranks send gap ints */
    for (int i = 0; i < n; i++)
        s[(size_t)i * st] = val(me, 0, i);
    memset(r, 0xff, tot * sizeof(int));
    RXT_MPI(MPI_Allgather(s, n, type_of(me), r, n, MPI_INT, comm));
    check_blocks(r, p, n, me, 0, "Allgather", cn);
    memset(r, 0xff, tot * sizeof(int));
    for (int i = 0; i < n; i++)
        r[(size_t)me * n + i] = val(me, 0, i);
    RXT_MPI(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, r, n, MPI_INT, comm));
    check_blocks(r, p, n, me, 0, "Allgather(IN_PLACE)", cn);

    /* alltoall: block d of my input goes to rank d */
    for (int d = 0; d < p; d++)
        for (int i = 0; i < n; i++)
            s[((size_t)d * n + i) * st] = val(me, d, i);
    memset(r, 0xff, tot * sizeof(int));
    RXT_MPI(MPI_Alltoall(s, n, type_of(me), r, n, MPI_INT, comm));
    check_blocks(r, p, n, me, 1, "Alltoall", cn);
    for (int d = 0; d < p; d++)
        for (int i = 0; i < n; i++)
            r[(size_t)d * n + i] = val(me, d, i);
    RXT_MPI(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, r, n, MPI_INT, comm));
    check_blocks(r, p, n, me, 1, "Alltoall(IN_PLACE)", cn);

    for (int root = 0; root < p; root++) {
        /* gather, then gather in place at the root */
        for (int i = 0; i < n; i++)
            s[(size_t)i * st] = val(me, 0, i);
        memset(r, 0xff, tot * sizeof(int));
        RXT_MPI(MPI_Gather(s, n, type_of(me), r, n, MPI_INT, root, comm));
        if (me == root)
            check_blocks(r, p, n, me, 0, "Gather", cn);
        memset(r, 0xff, tot * sizeof(int));
        for (int i = 0; i < n; i++)
            r[(size_t)me * n + i] = val(me, 0, i);
        if (me == root)
            RXT_MPI(MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, r, n, MPI_INT, root, comm));
        else
            RXT_MPI(MPI_Gather(s, n, type_of(me), NULL, 0, MPI_INT, root, comm));
        if (me == root)
            check_blocks(r, p, n, me, 0, "Gather(IN_PLACE)", cn);

        /* scatter: the root's blocks are val(d, 0, i) for rank d */
        for (int d = 0; d < p; d++)
            for (int i = 0; i < n; i++)
                r[(size_t)d * n + i] = val(d, 0, i);
        for (int i = 0; i < n; i++)
            s[(size_t)i * st] = -1;
        RXT_MPI(MPI_Scatter(r, n, MPI_INT, s, n, type_of(me), root, comm));
        for (int i = 0; i < n; i++)
            if (s[(size_t)i * st] != val(me, 0, i)) {
                RXT_CHECK(0, "%s Scatter n=%d root=%d: element %d is %d", cn, n, root, i,
                          s[(size_t)i * st]);
                break;
            }
        if (me == root) {
            RXT_MPI(MPI_Scatter(r, n, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, root, comm));
            check_blocks(r, p, n, me, 0, "Scatter(IN_PLACE) root buffer", cn);
        } else {
            RXT_MPI(MPI_Scatter(NULL, 0, MPI_INT, s, n, type_of(me), root, comm));
        }
    }
    free(s);
    free(r);
}

/* Many small broadcasts with rotating roots on two communicators, other
 * collectives in between: the ring wraps and roots change under way. */
static void test_ring(MPI_Comm a, MPI_Comm b)
{
    for (int it = 0; it < 300; it++) {
        MPI_Comm c = it % 3 == 2 ? b : a;
        int me, p;
        MPI_Comm_rank(c, &me);
        MPI_Comm_size(c, &p);
        int root = (it * 7) % p, v[3] = { -1, -1, -1 }, n = 1 + it % 3;
        if (me == root)
            for (int k = 0; k < n; k++)
                v[k] = it * 10 + k;
        RXT_MPI(MPI_Bcast(v, n, MPI_INT, root, c));
        for (int k = 0; k < n; k++)
            RXT_CHECK(v[k] == it * 10 + k, "ring Bcast %d root %d: element %d is %d", it, root, k,
                      v[k]);
        if (it % 11 == 5) {
            int x = me, sum = 0;
            RXT_MPI(MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, c));
            RXT_CHECK(sum == p * (p - 1) / 2, "ring Allreduce %d: %d", it, sum);
        }
        if (it % 13 == 7) {
            int *all = alloc_ints((size_t)p), x = it + me;
            RXT_MPI(MPI_Allgather(&x, 1, MPI_INT, all, 1, MPI_INT, c));
            for (int r = 0; r < p; r++)
                RXT_CHECK(all[r] == it + r, "ring Allgather %d: block %d is %d", it, r, all[r]);
            free(all);
        }
    }
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "coll_shm");
    MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &gapint);
    MPI_Type_commit(&gapint);

    MPI_Comm dup, half;
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    RXT_MPI(MPI_Comm_split(MPI_COMM_WORLD, rxt_rank % 2, rxt_size - rxt_rank, &half));
    struct { MPI_Comm c; const char *name; } comms[] = {
        { MPI_COMM_WORLD, "world" }, { dup, "dup" }, { half, "split" } };
    for (unsigned k = 0; k < sizeof comms / sizeof comms[0]; k++) {
        for (unsigned i = 0; i < sizeof counts / sizeof counts[0]; i++)
            test_move(comms[k].c, counts[i], comms[k].name);
        for (unsigned i = 0; i < sizeof bcast_counts / sizeof bcast_counts[0]; i++)
            test_bcast(comms[k].c, bcast_counts[i], comms[k].name);
    }
    test_ring(MPI_COMM_WORLD, dup);
    test_ring(half, dup);
    RXT_MPI(MPI_Comm_free(&half));
    RXT_MPI(MPI_Comm_free(&dup));

    /* freed communicators' handles come back: fresh state each time */
    for (int round = 0; round < 4; round++) {
        MPI_Comm c;
        RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        test_move(c, 13, "redup");
        test_bcast(c, 4097, "redup");
        test_ring(c, MPI_COMM_WORLD);
        RXT_MPI(MPI_Comm_free(&c));
    }
    MPI_Type_free(&gapint);
    return rxt_finish();
}
