/* SPDX-License-Identifier: MIT
 * Ordering stress: at least 100,000 messages (argv[1]; default 100000) of random sizes
 * (mostly small, some up to 64 KiB) and random tags, from every other rank to rank 0,
 * which receives them with a deterministic random mix of
 *   MPI_ANY_SOURCE + MPI_ANY_TAG, source + MPI_ANY_TAG, source + tag,
 *   MPI_ANY_SOURCE + tag,
 * and checks each against the matching rules: the message received is the oldest
 * not yet received message of the reported source that the receive could match
 * (non-overtaking), with the right tag, size and every byte. Deterministic seed.
 *
 * Senders post windows of W Isends and wait for each window before the next; the
 * receiver only names (source, tag) pairs whose oldest candidate lies in a window
 * the sender must already have posted, so the program cannot deadlock. */
#include "rxtest.h"

enum { W = 64, NTAG = 8, MAXSZ = 65536 };
static const uint64_t SEED = 20240611;

static int msg_size(uint64_t *rng)
{
    int p = (int)(rxt_mix(rng) % 100);
    uint64_t v = rxt_mix(rng);
    return p < 70 ? (int)(v % 257) : p < 95 ? (int)(v % 4097) : (int)(v % (MAXSZ + 1));
}

/* Sender s's message i: tag and size, generated identically on both sides. */
static void gen_seq(int s, int n, int *tag, int *size)
{
    uint64_t rng = SEED * 1000003 + (uint64_t)s;
    for (int i = 0; i < n; i++) {
        tag[i] = (int)(rxt_mix(&rng) % NTAG);
        size[i] = msg_size(&rng);
    }
}

static uint64_t content_seed(int s, int i) { return ((uint64_t)s << 40) ^ (uint64_t)i ^ SEED; }

static int per_sender(int total, int s) /* s in 1..size-1 */
{
    int n = rxt_size - 1;
    return total / n + (s - 1 < total % n ? 1 : 0);
}

static void sender(int total)
{
    int n = per_sender(total, rxt_rank);
    int *tag = malloc(sizeof(int) * (size_t)n), *size = malloc(sizeof(int) * (size_t)n);
    gen_seq(rxt_rank, n, tag, size);
    unsigned char *buf = malloc((size_t)W * MAXSZ);
    MPI_Request rq[W];
    for (int base = 0; base < n; base += W) {
        int k = n - base < W ? n - base : W;
        for (int j = 0; j < k; j++) {
            int i = base + j;
            unsigned char *b = buf + (size_t)j * MAXSZ;
            rxt_fill(b, (size_t)size[i], content_seed(rxt_rank, i));
            RXT_MPI(MPI_Isend(b, size[i], MPI_BYTE, 0, tag[i], MPI_COMM_WORLD, &rq[j]));
        }
        RXT_MPI(MPI_Waitall(k, rq, MPI_STATUSES_IGNORE));
    }
    free(tag);
    free(size);
    free(buf);
}

typedef struct {
    int n, *tag, *size;
    int *list[NTAG], len[NTAG], pos[NTAG]; /* indices by tag; pos: next unreceived */
    int left;
} src_t;

static int head_of(const src_t *s) /* oldest unreceived message, or -1 */
{
    int h = -1;
    for (int t = 0; t < NTAG; t++)
        if (s->pos[t] < s->len[t] && (h < 0 || s->list[t][s->pos[t]] < h))
            h = s->list[t][s->pos[t]];
    return h;
}

static void receiver(int total)
{
    int ns = rxt_size;
    src_t *src = calloc((size_t)ns, sizeof(src_t));
    for (int s = 1; s < ns; s++) {
        src_t *x = &src[s];
        x->n = x->left = per_sender(total, s);
        x->tag = malloc(sizeof(int) * (size_t)x->n);
        x->size = malloc(sizeof(int) * (size_t)x->n);
        gen_seq(s, x->n, x->tag, x->size);
        for (int t = 0; t < NTAG; t++)
            x->list[t] = malloc(sizeof(int) * (size_t)x->n);
        for (int i = 0; i < x->n; i++)
            x->list[x->tag[i]][x->len[x->tag[i]]++] = i;
    }
    unsigned char *buf = malloc(MAXSZ + 1);
    uint64_t rng = SEED ^ 0xABCDEF;
    int remaining = total, kinds[4] = { 0 };
    while (remaining > 0) {
        int kind = (int)(rxt_mix(&rng) % 10), want_src = MPI_ANY_SOURCE, want_tag = MPI_ANY_TAG;
        kind = kind < 4 ? 0 : kind < 6 ? 1 : kind < 8 ? 2 : 3;
        if (kind > 0) {
            /* a sender with messages left, and one of its messages in the window
             * of its oldest unreceived one */
            int s = 1 + (int)(rxt_mix(&rng) % (uint64_t)(ns - 1));
            while (src[s].left == 0)
                s = s % (ns - 1) + 1;
            /* a tag whose oldest unreceived message lies in the head's window (the
             * head's own tag always does) */
            int h = head_of(&src[s]), wend = (h / W + 1) * W, t = (int)(rxt_mix(&rng) % NTAG);
            const src_t *x = &src[s];
            while (x->pos[t] >= x->len[t] || x->list[t][x->pos[t]] >= wend)
                t = (t + 1) % NTAG;
            if (kind == 1 || kind == 2)
                want_src = s;
            if (kind >= 2)
                want_tag = t;
        }
        kinds[kind]++;
        MPI_Status st;
        RXT_MPI(MPI_Recv(buf, MAXSZ + 1, MPI_BYTE, want_src, want_tag, MPI_COMM_WORLD, &st));
        int s = st.MPI_SOURCE, t = st.MPI_TAG, cnt = -1;
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        if (s < 1 || s >= ns || t < 0 || t >= NTAG || src[s].pos[t] >= src[s].len[t])
            RXT_FATAL("receive %d: impossible source %d / tag %d", total - remaining, s, t);
        src_t *x = &src[s];
        int expect = want_tag == MPI_ANY_TAG ? head_of(x) : x->list[t][x->pos[t]];
        int got = x->list[t][x->pos[t]]; /* the oldest tag-t message: what arrived if in order */
        RXT_CHECK(want_src == MPI_ANY_SOURCE || want_src == s, "receive from %d got source %d",
                  want_src, s);
        RXT_CHECK(want_tag == MPI_ANY_TAG || want_tag == t, "receive for tag %d got tag %d",
                  want_tag, t);
        RXT_CHECK(got == expect, "source %d: received a tag-%d message, but message %d (tag %d) "
                  "is older and matches the receive (non-overtaking)", s, t, expect,
                  x->tag[expect]);
        RXT_CHECK(cnt == x->size[got], "source %d message %d: %d bytes, want %d", s, got, cnt,
                  x->size[got]);
        if (cnt == x->size[got]) {
            long bad = rxt_verify(buf, (size_t)cnt, content_seed(s, got));
            RXT_CHECK(bad < 0, "source %d message %d (%d B, tag %d): byte %ld differs", s, got,
                      cnt, t, bad);
        }
        x->pos[t]++;
        x->left--;
        remaining--;
        if (rxt_errs > 50)
            RXT_FATAL("too many errors, stopping");
    }
    printf("p2p_order_stress: %d messages from %d senders (receives: %d any/any, %d src/any, "
           "%d src/tag, %d any/tag)\n", total, ns - 1, kinds[0], kinds[1], kinds[2], kinds[3]);
    for (int s = 1; s < ns; s++) {
        for (int t = 0; t < NTAG; t++)
            free(src[s].list[t]);
        free(src[s].tag);
        free(src[s].size);
    }
    free(src);
    free(buf);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "p2p_order_stress");
    rxt_need_ranks(2);
    int total = argc > 1 ? atoi(argv[1]) : 100000;
    if (total < rxt_size)
        total = rxt_size;
    double t0 = MPI_Wtime();
    if (rxt_rank == 0)
        receiver(total);
    else
        sender(total);
    if (rxt_rank == 0)
        printf("p2p_order_stress: %.2f s\n", MPI_Wtime() - t0);
    return rxt_finish();
}
