/* SPDX-License-Identifier: MIT
 * Eager messages whose payload is made of small integers near the number of
 * messages sent so far: on a shared-memory ring these equal the sequence
 * numbers the receiver polls for, and a receiver that took such a stale
 * payload word (left on the ring by an earlier lap) for a newly published
 * record read garbage headers ("unknown message type") or lost messages. Both
 * directions of a ring of ranks, sizes cycling so record boundaries move
 * from lap to lap; every word is checked. */
#include "rxtest.h"

enum { ITERS = 1500, MAXN = 4000, WINDOW = 64 };
static const int sizes[] = {4000, 1, 2000, 37, 3000, 500, 3999, 8, 1200};
#define NSIZES (int)(sizeof sizes / sizeof sizes[0])

/* Word w of message number c (counted per sender and destination). */
static int32_t word(int c, int w) { return c + 1 + (w / 16) % WINDOW; }

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "p2p_stale_words");
    int p = rxt_size, me = rxt_rank;
    int right = (me + 1) % p, left = (me + p - 1) % p;
    int32_t *sr = malloc(sizeof(int32_t) * MAXN), *sl = malloc(sizeof(int32_t) * MAXN);
    int32_t *rr = malloc(sizeof(int32_t) * MAXN), *rl = malloc(sizeof(int32_t) * MAXN);
    /* messages sent to / received from each neighbour (the same one at 2 ranks) */
    int *sent = calloc((size_t)p, sizeof *sent), *got = calloc((size_t)p, sizeof *got);
    for (int it = 0; it < ITERS && rxt_errs < RXT_MAX_REPORTS; it++) {
        int n = sizes[it % NSIZES], m = sizes[(it * 5 + 3) % NSIZES];
        for (int w = 0; w < n; w++)
            sr[w] = word(sent[right], w);
        sent[right]++;
        for (int w = 0; w < m; w++)
            sl[w] = word(sent[left], w);
        sent[left]++;
        MPI_Request rq[4];
        /* the right neighbour's message to us precedes its right-to-left one when they
         * are the same rank (2 ranks): post in that order */
        RXT_MPI(MPI_Irecv(rl, MAXN, MPI_INT32_T, left, 0, MPI_COMM_WORLD, &rq[0]));
        RXT_MPI(MPI_Irecv(rr, MAXN, MPI_INT32_T, right, 1, MPI_COMM_WORLD, &rq[1]));
        RXT_MPI(MPI_Isend(sr, n, MPI_INT32_T, right, 0, MPI_COMM_WORLD, &rq[2]));
        RXT_MPI(MPI_Isend(sl, m, MPI_INT32_T, left, 1, MPI_COMM_WORLD, &rq[3]));
        MPI_Status st[4];
        RXT_MPI(MPI_Waitall(4, rq, st));
        /* what the neighbours sent us this iteration, by the same rule */
        int from_left = sizes[it % NSIZES], from_right = sizes[(it * 5 + 3) % NSIZES];
        int cl = -1, cr = -1;
        MPI_Get_count(&st[0], MPI_INT32_T, &cl);
        MPI_Get_count(&st[1], MPI_INT32_T, &cr);
        RXT_CHECK(cl == from_left && cr == from_right,
                  "iteration %d: counts %d from the left, %d from the right, want %d %d", it, cl,
                  cr, from_left, from_right);
        int c = got[left]++;
        for (int w = 0; w < from_left && w < cl; w++)
            if (rl[w] != word(c, w)) {
                RXT_CHECK(0, "iteration %d: word %d from the left is %d, want %d", it, w, rl[w],
                          word(c, w));
                break;
            }
        c = got[right]++;
        for (int w = 0; w < from_right && w < cr; w++)
            if (rr[w] != word(c, w)) {
                RXT_CHECK(0, "iteration %d: word %d from the right is %d, want %d", it, w, rr[w],
                          word(c, w));
                break;
            }
    }
    free(sr), free(sl), free(rr), free(rl), free(sent), free(got);
    return rxt_finish();
}
