/* SPDX-License-Identifier: MIT
 * Non-contiguous point-to-point at every size class: each rank sends to its
 * right neighbour (itself at one rank) count elements of a send type and
 * receives into a different receive type with the same type signature —
 * vectors with short and long blocks, more blocks than one I/O-vector call
 * takes (1,024), indexed types with negative displacements, structs with
 * gaps, resized types with count > 1, negative strides, and contiguous on one
 * side only. The expected receive buffer is built independently of the
 * transfer: the sender's buffer is regenerated locally, packed with MPI_Pack
 * by the send type and unpacked with MPI_Unpack by the receive type into a
 * buffer filled like the receive buffer, so bytes outside the receive type's
 * map must stay as they were. Modes: Isend/Irecv posted first, Send with the
 * receive posted late (unexpected messages), Ssend/Recv, and a send type freed
 * while its send is in flight. The testlist runs it with settings that force
 * every transfer through I/O vectors, force packing, and turn cross-memory
 * attach off. */
#include "rxtest.h"

enum { MODES = 4 };

typedef struct span {
    char *mem, *buf; /* buf: the address passed to MPI (inside mem) */
    size_t len;
} span_t;

/* Memory for count elements of t, lower bounds below buf included. */
static span_t span_alloc(MPI_Datatype t, int count)
{
    MPI_Aint lb, ext, tlb, text;
    RXT_MPI(MPI_Type_get_extent(t, &lb, &ext));
    RXT_MPI(MPI_Type_get_true_extent(t, &tlb, &text));
    MPI_Aint last = (MPI_Aint)(count > 0 ? count - 1 : 0) * ext;
    MPI_Aint lo = tlb < tlb + last ? tlb : tlb + last;
    MPI_Aint hi = tlb + text > tlb + text + last ? tlb + text : tlb + text + last;
    span_t s;
    s.len = (size_t)(hi - lo) + 128;
    s.mem = malloc(s.len);
    if (!s.mem)
        RXT_FATAL("out of memory for %zu bytes", s.len);
    s.buf = s.mem + 64 - lo;
    return s;
}

static void fill(span_t *s, uint64_t seed) { rxt_fill(s->mem, s->len, seed); }

typedef struct tcase {
    const char *name;
    MPI_Datatype send, recv;
    int scount, rcount;
} tcase_t;

static MPI_Datatype commit(MPI_Datatype t)
{
    RXT_MPI(MPI_Type_commit(&t));
    return t;
}

static MPI_Datatype vec(int n, int bl, int stride, MPI_Datatype old)
{
    MPI_Datatype t;
    RXT_MPI(MPI_Type_vector(n, bl, stride, old, &t));
    return commit(t);
}

static MPI_Datatype contig(int n, MPI_Datatype old)
{
    MPI_Datatype t;
    RXT_MPI(MPI_Type_contiguous(n, old, &t));
    return commit(t);
}

/* Doubles at varying lengths and displacements, some below the buffer. */
static MPI_Datatype indexed_neg(int n)
{
    int *bl = malloc(sizeof(int) * (size_t)n), *disp = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) {
        bl[i] = 1 + (i * 7) % 40;
        disp[i] = (i - n / 2) * 48;
    }
    MPI_Datatype t;
    RXT_MPI(MPI_Type_indexed(n, bl, disp, MPI_DOUBLE, &t));
    free(bl);
    free(disp);
    return commit(t);
}

/* {int, gap, double[k], gap, char[3]} resized to leave a gap after it too. */
static MPI_Datatype struct_gaps(int k)
{
    int bl[3] = {1, k, 3};
    MPI_Aint disp[3] = {0, 16, 16 + 8 * (MPI_Aint)k + 8};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, s, t;
    RXT_MPI(MPI_Type_create_struct(3, bl, disp, types, &s));
    RXT_MPI(MPI_Type_create_resized(s, -8, disp[2] + 64, &t));
    RXT_MPI(MPI_Type_free(&s));
    return commit(t);
}

/* A vector resized to less than its span: consecutive elements interleave. */
static MPI_Datatype resized_vec(int n, int bl, int stride)
{
    MPI_Datatype v, t;
    RXT_MPI(MPI_Type_vector(n, bl, stride, MPI_INT, &v));
    RXT_MPI(MPI_Type_create_resized(v, 0, (MPI_Aint)bl * 4, &t));
    RXT_MPI(MPI_Type_free(&v));
    return commit(t);
}

static MPI_Datatype hvec_neg(int n, int bl)
{
    MPI_Datatype t;
    RXT_MPI(MPI_Type_create_hvector(n, bl, -(MPI_Aint)(bl * 8 + 40), MPI_DOUBLE, &t));
    return commit(t);
}

static int ncases;
static tcase_t cases[64];

static void add(const char *name, MPI_Datatype s, int sc, MPI_Datatype r, int rc)
{
    cases[ncases++] = (tcase_t){name, s, r, sc, rc};
}

static void build_cases(void)
{
    MPI_Datatype d = MPI_DOUBLE;
    /* size classes: eager (< 16 KiB), rendezvous, large (cooperative copy) */
    int ns[3] = {64, 3000, 40000};
    for (int k = 0; k < 3; k++) {
        int n = ns[k];
        add("vector 1-double blocks -> contiguous", vec(n, 1, 3, d), 1, contig(n, d), 1);
        add("contiguous -> vector 1-double blocks", contig(n, d), 1, vec(n, 1, 5, d), 1);
        add("vector 128-double blocks -> other vector", vec(n / 32 + 1, 128, 131, d), 1,
            vec(n / 32 + 1, 128, 200, d), 1);
        add("vector 64-double blocks -> doubles", vec(n / 16 + 1, 64, 70, d), 1, d,
            (n / 16 + 1) * 64);
    }
    /* more blocks than one getv call takes, long and short */
    add("3000 blocks of 512 B -> 1500 of 1 KiB", vec(3000, 64, 65, d), 1, vec(1500, 128, 129, d), 1);
    add("5000 blocks of 8 B -> 2500 of 16 B", vec(5000, 1, 2, d), 1, vec(2500, 2, 3, d), 1);
    add("indexed negative -> vector", indexed_neg(500), 1, vec(2046, 5, 7, d), 1); /* 10,230 doubles */
    add("vector -> indexed negative", vec(2046, 5, 9, d), 1, indexed_neg(500), 1);
    add("indexed negative x3 -> same", indexed_neg(300), 3, indexed_neg(300), 3);
    add("struct with gaps x4000 -> same", struct_gaps(7), 4000, struct_gaps(7), 4000);
    add("struct with gaps x40 -> same", struct_gaps(300), 40, struct_gaps(300), 40);
    add("resized vector x700 -> contiguous ints", resized_vec(8, 40, 50), 700, MPI_INT, 700 * 320);
    add("ints -> resized vector x700", MPI_INT, 700 * 320, resized_vec(8, 40, 50), 700);
    add("hvector negative stride -> vector", hvec_neg(400, 20), 1, vec(200, 40, 41, d), 1);
    add("vector x5 with gaps -> hvector negative x5", vec(100, 30, 31, d), 5, hvec_neg(150, 20), 5);
}

/* Expected receive buffer: the peer's send buffer (regenerated) packed by
 * the send type and unpacked by the receive type over the initial fill. */
static void expect(const tcase_t *c, int src, uint64_t rseed, span_t *out)
{
    span_t s = span_alloc(c->send, c->scount);
    fill(&s, 1000u + (uint64_t)src);
    int psize, pos = 0;
    RXT_MPI(MPI_Pack_size(c->scount, c->send, MPI_COMM_WORLD, &psize));
    char *packed = malloc((size_t)psize + 1);
    RXT_MPI(MPI_Pack(s.buf, c->scount, c->send, packed, psize, &pos, MPI_COMM_WORLD));
    *out = span_alloc(c->recv, c->rcount);
    fill(out, rseed);
    int upos = 0;
    RXT_MPI(MPI_Unpack(packed, pos, &upos, out->buf, c->rcount, c->recv, MPI_COMM_WORLD));
    free(packed);
    free(s.mem);
}

/* Returns once the left neighbour has started its send: its message (sent
 * earlier on the same pair) is then on its way ahead of this token. */
static void handshake(int left, int right)
{
    RXT_MPI(MPI_Sendrecv(NULL, 0, MPI_BYTE, right, 99, NULL, 0, MPI_BYTE, left, 99,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

static void run_case(const tcase_t *c, int mode)
{
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    span_t s = span_alloc(c->send, c->scount), r = span_alloc(c->recv, c->rcount);
    uint64_t rseed = 77u + (uint64_t)mode;
    fill(&s, 1000u + (uint64_t)rxt_rank);
    fill(&r, rseed);
    MPI_Request q[2];
    MPI_Status st;
    int tag = 10 + mode;
    switch (mode) {
    case 0: /* receive posted first */
        RXT_MPI(MPI_Irecv(r.buf, c->rcount, c->recv, left, tag, MPI_COMM_WORLD, &q[0]));
        RXT_MPI(MPI_Isend(s.buf, c->scount, c->send, right, tag, MPI_COMM_WORLD, &q[1]));
        RXT_MPI(MPI_Waitall(2, q, MPI_STATUSES_IGNORE));
        break;
    case 1: /* the message arrives before its receive is posted */
        RXT_MPI(MPI_Isend(s.buf, c->scount, c->send, right, tag, MPI_COMM_WORLD, &q[1]));
        handshake(left, right);
        rxt_sleep_ms(2);
        RXT_MPI(MPI_Recv(r.buf, c->rcount, c->recv, left, tag, MPI_COMM_WORLD, &st));
        RXT_MPI(MPI_Wait(&q[1], MPI_STATUS_IGNORE));
        break;
    case 2: /* synchronous send, blocking receive */
        RXT_MPI(MPI_Irecv(r.buf, c->rcount, c->recv, left, tag, MPI_COMM_WORLD, &q[0]));
        RXT_MPI(MPI_Ssend(s.buf, c->scount, c->send, right, tag, MPI_COMM_WORLD));
        RXT_MPI(MPI_Wait(&q[0], &st));
        break;
    case 3: { /* the send's type is freed while the send is in flight */
        MPI_Datatype dup;
        RXT_MPI(MPI_Type_dup(c->send, &dup));
        RXT_MPI(MPI_Type_commit(&dup));
        RXT_MPI(MPI_Isend(s.buf, c->scount, dup, right, tag, MPI_COMM_WORLD, &q[1]));
        RXT_MPI(MPI_Type_free(&dup));
        handshake(left, right);
        RXT_MPI(MPI_Recv(r.buf, c->rcount, c->recv, left, tag, MPI_COMM_WORLD, &st));
        RXT_MPI(MPI_Wait(&q[1], MPI_STATUS_IGNORE));
        break;
    }
    }
    span_t e;
    expect(c, left, rseed, &e);
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < r.len; i++)
        if (r.mem[i] != e.mem[i] && !bad++)
            first = i;
    RXT_CHECK(!bad, "%s, mode %d: %zu of %zu bytes differ, first at %zd from the buffer",
              c->name, mode, bad, r.len, (ssize_t)(r.mem + first - r.buf));
    if (mode != 0) {
        int count, ssize;
        MPI_Aint rsz;
        RXT_MPI(MPI_Type_size(c->send, &ssize));
        RXT_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
        rsz = (MPI_Aint)ssize * c->scount;
        RXT_CHECK(count == rsz, "%s, mode %d: %d bytes received, %ld sent", c->name, mode, count,
                  (long)rsz);
    }
    free(e.mem);
    free(s.mem);
    free(r.mem);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "dtype_layout");
    build_cases();
    for (int i = 0; i < ncases; i++) {
        int ss, rs;
        RXT_MPI(MPI_Type_size(cases[i].send, &ss));
        RXT_MPI(MPI_Type_size(cases[i].recv, &rs));
        if ((long)ss * cases[i].scount != (long)rs * cases[i].rcount)
            RXT_FATAL("case %s: %ld bytes sent, %ld received", cases[i].name,
                      (long)ss * cases[i].scount, (long)rs * cases[i].rcount);
        for (int m = 0; m < MODES; m++)
            run_case(&cases[i], m);
    }
    for (int i = 0; i < ncases; i++) {
        if (cases[i].send != MPI_DOUBLE && cases[i].send != MPI_INT)
            RXT_MPI(MPI_Type_free(&cases[i].send));
        if (cases[i].recv != MPI_DOUBLE && cases[i].recv != MPI_INT)
            RXT_MPI(MPI_Type_free(&cases[i].recv));
    }
    return rxt_finish();
}
