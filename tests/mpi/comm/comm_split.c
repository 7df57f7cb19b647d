/* SPDX-License-Identifier: MIT
 * MPI_Comm_split: colors, keys (reversed, equal keys broken by the old rank),
 * MPI_UNDEFINED giving MPI_COMM_NULL, the membership of each new communicator
 * (checked by communicating in it) and splits of splits. */
#include "rxtest.h"

/* Expected position of world rank `r` among the members of its color under a key
 * function: count the members that sort before it by (key, world rank). */
typedef int (*key_fn)(int rank, int size);
typedef int (*color_fn)(int rank, int size);

static void expected(int r, color_fn color, key_fn key, int *rank, int *size)
{
    *rank = 0;
    *size = 0;
    for (int q = 0; q < rxt_size; q++) {
        if (color(q, rxt_size) != color(r, rxt_size))
            continue;
        (*size)++;
        int kq = key(q, rxt_size), kr = key(r, rxt_size);
        if (kq < kr || (kq == kr && q < r))
            (*rank)++;
    }
}

static void check_split_comm(const char *what, color_fn color, key_fn key)
{
    MPI_Comm c = MPI_COMM_NULL;
    int mycolor = color(rxt_rank, rxt_size);
    RXT_MPI(MPI_Comm_split(MPI_COMM_WORLD, mycolor, key(rxt_rank, rxt_size), &c));
    if (mycolor == MPI_UNDEFINED) {
        RXT_CHECK(c == MPI_COMM_NULL, "%s: MPI_UNDEFINED color did not give MPI_COMM_NULL", what);
        return;
    }
    if (c == MPI_COMM_NULL) {
        RXT_CHECK(0, "%s: color %d gave MPI_COMM_NULL", what, mycolor);
        return;
    }
    int r = -1, s = -1, er, es;
    RXT_MPI(MPI_Comm_rank(c, &r));
    RXT_MPI(MPI_Comm_size(c, &s));
    expected(rxt_rank, color, key, &er, &es);
    RXT_CHECK(r == er && s == es, "%s: rank %d size %d, want rank %d size %d", what, r, s, er,
              es);

    /* Membership by communication: each member learns every member's world rank and
     * color in communicator order; they must be exactly the expected ones. */
    int mine[2] = { rxt_rank, mycolor };
    int *all = malloc(sizeof(int) * 2 * (size_t)s);
    RXT_MPI(MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, c));
    for (int i = 0; i < s; i++) {
        int q = all[2 * i], qr, qs;
        RXT_CHECK(all[2 * i + 1] == mycolor, "%s: member %d has color %d, mine %d", what, i,
                  all[2 * i + 1], mycolor);
        if (q < 0 || q >= rxt_size) {
            RXT_CHECK(0, "%s: member %d reports world rank %d", what, i, q);
            continue;
        }
        expected(q, color, key, &qr, &qs);
        RXT_CHECK(qr == i, "%s: world rank %d is member %d, want %d", what, q, i, qr);
    }
    free(all);

    /* A ring on the new communicator, while a world message with the same tag is
     * pending (see check_split): each must match only in its own context. */
    int right = (r + 1) % s, left = (r - 1 + s) % s, got = -1;
    RXT_MPI(MPI_Sendrecv(&r, 1, MPI_INT, right, 9, &got, 1, MPI_INT, left, 9, c,
                         MPI_STATUS_IGNORE));
    RXT_CHECK(got == left, "%s: ring on split got %d from left %d", what, got, left);

    /* Split again by parity inside the new communicator. */
    MPI_Comm cc = MPI_COMM_NULL;
    RXT_MPI(MPI_Comm_split(c, r % 2, -r, &cc));
    int r2 = -1, s2 = -1;
    RXT_MPI(MPI_Comm_rank(cc, &r2));
    RXT_MPI(MPI_Comm_size(cc, &s2));
    int same = r % 2 == 0 ? (s + 1) / 2 : s / 2; /* members with my parity */
    int higher = (s - 1 - r) / 2;                /* same parity, larger rank: they sort first */
    RXT_CHECK(s2 == same && r2 == higher, "%s: nested split rank %d size %d, want %d %d", what,
              r2, s2, higher, same);
    RXT_MPI(MPI_Comm_free(&cc));
    RXT_MPI(MPI_Comm_free(&c));
}

/* The new communicator has its own matching context: a world receive with the same
 * tag stays posted while the split's ring runs, and gets the world message. */
static void check_split(const char *what, color_fn color, key_fn key)
{
    int wgot = -1, wmsg = -100 - rxt_rank;
    int wpeer = (rxt_rank + 1) % rxt_size, wfrom = (rxt_rank - 1 + rxt_size) % rxt_size;
    MPI_Request wr;
    RXT_MPI(MPI_Irecv(&wgot, 1, MPI_INT, wfrom, 9, MPI_COMM_WORLD, &wr));
    check_split_comm(what, color, key);
    RXT_MPI(MPI_Send(&wmsg, 1, MPI_INT, wpeer, 9, MPI_COMM_WORLD));
    RXT_MPI(MPI_Wait(&wr, MPI_STATUS_IGNORE));
    RXT_CHECK(wgot == -100 - wfrom, "%s: world message got %d want %d", what, wgot,
              -100 - wfrom);
}

static int color_all(int r, int n) { (void)r; (void)n; return 0; }
static int color_mod3(int r, int n) { (void)n; return r % 3; }
static int color_undef_odd(int r, int n) { (void)n; return r % 2 ? MPI_UNDEFINED : 7; }
static int color_halves(int r, int n) { return r < n / 2 ? 100 : 5; }
static int color_single(int r, int n) { (void)n; return r; }
static int key_rank(int r, int n) { (void)n; return r; }
static int key_reverse(int r, int n) { return n - r; }
static int key_equal(int r, int n) { (void)r; (void)n; return 42; }
static int key_scrambled(int r, int n) { return (r * 7 + 3) % (n + 1) - n / 2; }

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "comm_split");
    check_split("one color, rank keys", color_all, key_rank);
    check_split("one color, reversed keys", color_all, key_reverse);
    check_split("one color, equal keys", color_all, key_equal);
    check_split("mod 3, scrambled keys", color_mod3, key_scrambled);
    check_split("odd ranks undefined", color_undef_odd, key_reverse);
    check_split("halves, large color first", color_halves, key_equal);
    check_split("a communicator per rank", color_single, key_rank);

    /* All ranks MPI_UNDEFINED: everybody gets MPI_COMM_NULL. */
    MPI_Comm none = MPI_COMM_WORLD;
    RXT_MPI(MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, rxt_rank, &none));
    RXT_CHECK(none == MPI_COMM_NULL, "all-undefined split did not give MPI_COMM_NULL");
    return rxt_finish();
}
