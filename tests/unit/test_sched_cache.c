/* SPDX-License-Identifier: MIT
 * The schedule cache of the collective executor (src/coll/exec.c): a
 * schedule is built once per communicator and set of arguments that shape
 * it, found again by exactly those arguments (every one of them, the node
 * map by content), never for the v-variants, never evicted while a
 * collective reads it, dropped with its communicator; what it hands out is
 * always the schedule a fresh build gives. */
#include "coll/coll.h"
#include "util/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int nfail;
#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            fprintf(stderr, "FAIL line %d: ", __LINE__);                                      \
            fprintf(stderr, __VA_ARGS__);                                                     \
            fputc('\n', stderr);                                                              \
            nfail++;                                                                          \
        }                                                                                     \
    } while (0)

static uint64_t hits(void)
{
    uint64_t h, m;
    rx_coll_sched_cache_stats(&h, &m);
    return h;
}

static uint64_t misses(void)
{
    uint64_t h, m;
    rx_coll_sched_cache_stats(&h, &m);
    return m;
}

/* s is what rx_sched_build makes of a */
static int same_as_fresh(const rx_sched_t *s, const rx_sched_args_t *a)
{
    rx_sched_t f;
    rx_sched_init(&f);
    int ok = rx_sched_build(&f, a) == RX_OK && f.nstep == s->nstep && f.nround == s->nround &&
             f.tmp_bytes == s->tmp_bytes &&
             !memcmp(f.step, s->step, sizeof *f.step * f.nstep) &&
             !memcmp(f.round, s->round, sizeof *f.round * f.nround);
    rx_sched_free(&f);
    return ok;
}

/* get + check against a fresh build + put; the schedule's address */
static const rx_sched_t *use(rx_comm_t *c, const rx_sched_args_t *a)
{
    struct rx_sched_entry *held;
    int rc;
    const rx_sched_t *s = rx_coll_sched_get(c, a, &held, &rc);
    CHECK(rc == RX_OK, "get returned %d", rc);
    if (s)
        CHECK(same_as_fresh(s, a), "cached schedule differs from a fresh build");
    rx_coll_sched_put(held);
    return s;
}

static rx_sched_args_t args(int kind, const char *algo, int p, int rank)
{
    rx_sched_args_t a = {.kind = kind, .algo = rx_sched_algo_find(kind, algo), .p = p,
                         .rank = rank, .unit = 8, .commute = 1, .count = 1000, .bytes = 0};
    if (kind == RX_COLL_BCAST) {
        a.bytes = 1 << 20;
        a.count = 0;
    }
    return a;
}

int main(void)
{
    rx_comm_t c1 = {.handle = 3, .size = 8, .rank = 5}, c2 = {.handle = 3, .size = 8, .rank = 5};
    rx_sched_args_t a = args(RX_COLL_ALLREDUCE, "ring", 8, 5);

    /* a miss builds, the same arguments hit and get the same schedule */
    uint64_t h0 = hits(), m0 = misses();
    const rx_sched_t *s1 = use(&c1, &a), *s2 = use(&c1, &a);
    CHECK(s1 && s1 == s2, "second call did not reuse the schedule");
    CHECK(misses() == m0 + 1 && hits() == h0 + 1, "hits %llu misses %llu",
          (unsigned long long)(hits() - h0), (unsigned long long)(misses() - m0));

    /* every argument that shapes the steps is part of the key */
    rx_sched_args_t v[9];
    for (int i = 0; i < 9; i++)
        v[i] = a;
    v[0].count = 1001;
    v[1].unit = 4;
    v[2].rank = 6;
    v[3].p = 7;
    v[4].commute = 0;
    v[4].algo = rx_sched_algo_find(RX_COLL_ALLREDUCE, "recursive_doubling");
    v[5].algo = rx_sched_algo_find(RX_COLL_ALLREDUCE, "rabenseifner");
    v[6] = args(RX_COLL_BCAST, "scatter_allgather", 8, 5);
    v[7] = v[6];
    v[7].root = 2;
    v[8] = v[6];
    v[8].bytes = 12345;
    for (int i = 0; i < 9; i++) {
        uint64_t m = misses();
        const rx_sched_t *s = use(&c1, &v[i]);
        /* a miss (the schedule may take the evicted one's place) */
        CHECK(s && misses() == m + 1, "variant %d found another schedule", i);
    }

    /* sizes that alternate: every call after the first two of each hits */
    rx_comm_t c3 = {.handle = 9, .size = 4, .rank = 1};
    rx_sched_args_t small = args(RX_COLL_ALLREDUCE, "recursive_doubling", 4, 1), large = small;
    large.count = 1 << 16;
    large.algo = rx_sched_algo_find(RX_COLL_ALLREDUCE, "rabenseifner");
    h0 = hits();
    m0 = misses();
    for (int i = 0; i < 50; i++)
        use(&c3, i % 2 ? &large : &small);
    CHECK(misses() == m0 + 2 && hits() == h0 + 48, "alternating: %llu hits %llu misses",
          (unsigned long long)(hits() - h0), (unsigned long long)(misses() - m0));

    /* the node map counts by content */
    int nodes[8] = {0, 0, 1, 1, 2, 2, 3, 3};
    rx_sched_args_t hr = args(RX_COLL_ALLREDUCE, "hier", 8, 5);
    hr.node_of = nodes;
    const rx_sched_t *sh = use(&c1, &hr);
    nodes[5] = 0; /* rank 5 on another node */
    m0 = misses();
    const rx_sched_t *sh2 = use(&c1, &hr);
    CHECK(sh && sh2 && misses() == m0 + 1, "a changed node map found the old schedule");

    /* v-variants are not cached */
    uint64_t cnt[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    rx_sched_args_t rs = args(RX_COLL_REDUCE_SCATTER, "ring", 8, 5);
    rs.rcounts = cnt;
    rs.count = 36;
    m0 = misses();
    h0 = hits();
    CHECK(use(&c1, &rs) == NULL && misses() == m0 && hits() == h0, "a v-variant was cached");

    /* communicators sharing a handle keep their own entries */
    m0 = misses();
    const rx_sched_t *o = use(&c2, &a);
    CHECK(o && o != s1 && misses() == m0 + 1, "another communicator got c1's schedule");

    /* held entries are not evicted: with every way held the next one is not cached */
    rx_comm_t c4 = {.handle = 10, .size = 16, .rank = 0};
    struct rx_sched_entry *held[9];
    const rx_sched_t *hs[9];
    for (int i = 0; i < 9; i++) {
        rx_sched_args_t b = args(RX_COLL_ALLREDUCE, "recursive_doubling", 16, 0);
        b.count = (uint64_t)i + 1;
        int rc;
        hs[i] = rx_coll_sched_get(&c4, &b, &held[i], &rc);
        CHECK(rc == RX_OK, "get %d returned %d", i, rc);
        if (hs[i])
            CHECK(same_as_fresh(hs[i], &b), "held schedule %d differs", i);
    }
    CHECK(hs[8] == NULL && held[8] == NULL, "a ninth schedule evicted a held one");
    for (int i = 0; i < 8; i++) {
        rx_sched_args_t b = args(RX_COLL_ALLREDUCE, "recursive_doubling", 16, 0);
        b.count = (uint64_t)i + 1;
        CHECK(hs[i] && same_as_fresh(hs[i], &b), "held schedule %d changed", i);
        rx_coll_sched_put(held[i]);
    }
    /* once let go, the least recently used one makes room */
    rx_sched_args_t b9 = args(RX_COLL_ALLREDUCE, "recursive_doubling", 16, 0);
    b9.count = 9;
    CHECK(use(&c4, &b9) != NULL, "no room after the holds ended");

    /* dropping a communicator frees its entries (the leak check sees the rest) */
    rx_coll_sched_cache_drop(&c1);
    m0 = misses();
    CHECK(use(&c1, &a) && misses() == m0 + 1, "dropped entries were still found");
    rx_coll_sched_cache_drop(&c1);
    rx_coll_sched_cache_drop(&c2);
    rx_coll_sched_cache_drop(&c3);
    rx_coll_sched_cache_drop(&c4);
    rx_coll_sched_cache_drop(&c4); /* twice: nothing left to drop */

    printf("%s\n", nfail ? "FAILED" : "ok");
    return nfail ? 1 : 0;
}
