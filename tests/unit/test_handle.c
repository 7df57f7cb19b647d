/* SPDX-License-Identifier: MIT
 * Handle tables and the request pool: a freed object's handle never names
 * another object, slots come back late and in order, full tables refuse,
 * retired handles stay reachable only to their holders, and every handle is a
 * non-negative int of its kind. */
#include "core/handle.h"
#include "core/request.h"
#include "mpi.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int errs;
#define CHECK(cond, ...)                                                                          \
    do {                                                                                          \
        if (!(cond) && errs++ < 20) {                                                             \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                       \
            fprintf(stderr, __VA_ARGS__);                                                         \
            fputc('\n', stderr);                                                                  \
        }                                                                                         \
    } while (0)

static int objs[8];

/* Predefined handles keep their include/mpi.h values; null and garbage fail. */
static void t_predefined(void)
{
    rx_htab_t t = {.kind = RX_KIND_COMM};
    CHECK(rx_htab_set(&t, 1, &objs[1]) == 0 && rx_htab_set(&t, 2, &objs[2]) == 0, "set");
    CHECK(rx_htab_get(&t, MPI_COMM_WORLD) == &objs[1], "MPI_COMM_WORLD");
    CHECK(rx_htab_get(&t, MPI_COMM_SELF) == &objs[2], "MPI_COMM_SELF");
    CHECK(RX_HANDLE_KIND(MPI_COMM_WORLD) == RX_KIND_COMM, "kind of MPI_COMM_WORLD");
    int bad[] = {MPI_COMM_NULL, 0, -1, INT_MIN, INT_MAX, MPI_GROUP_EMPTY, MPI_INT,
                 MPI_COMM_WORLD | (1 << RX_HTAB_INDEX_BITS), MPI_COMM_WORLD | (int)RX_HTAB_RETIRED,
                 RX_HANDLE(RX_KIND_COMM, 3), RX_HANDLE(RX_KIND_COMM, RX_HTAB_MAX_INDEX)};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(rx_htab_get(&t, bad[i]) == NULL && rx_htab_get_held(&t, bad[i]) == NULL,
              "handle %#x names an object", (unsigned)bad[i]);
    rx_htab_free(&t);
    CHECK(rx_htab_get(&t, MPI_COMM_WORLD) == NULL, "lookup after rx_htab_free");
}

/* A freed handle fails at once and keeps failing whatever comes after it. */
static void t_stale(void)
{
    rx_htab_t t = {.kind = RX_KIND_DATATYPE};
    int a = rx_htab_add(&t, &objs[0], 40);
    CHECK(a >= 40, "first id %d", a);
    int ha = RX_HANDLE(RX_KIND_DATATYPE, a);
    CHECK(rx_htab_get(&t, ha) == &objs[0], "live handle");
    CHECK(rx_htab_get(&t, RX_HANDLE(RX_KIND_OP, a)) == NULL, "same id, other kind");
    rx_htab_del(&t, a);
    CHECK(rx_htab_get(&t, ha) == NULL, "freed handle still names an object");
    int b = rx_htab_add(&t, &objs[1], 40);
    int hb = RX_HANDLE(RX_KIND_DATATYPE, b);
    CHECK(hb != ha, "the next object got the freed handle %#x", (unsigned)ha);
    CHECK(rx_htab_get(&t, ha) == NULL && rx_htab_get(&t, hb) == &objs[1], "after reuse");
    rx_htab_del(&t, a); /* stale: must not free b */
    CHECK(rx_htab_get(&t, hb) == &objs[1], "deleting a stale id freed a live object");
    rx_htab_free(&t);
}

/* Freed slots wait in a FIFO: a slot comes back only while RX_HTAB_REUSE_MIN
 * freed ones wait, and they come back in the order they were freed. */
static void t_fifo(void)
{
    rx_htab_t t = {.kind = RX_KIND_GROUP};
    enum { N = RX_HTAB_REUSE_MIN + 50 };
    static int ids[N];
    for (int i = 0; i < N; i++)
        ids[i] = rx_htab_add(&t, &objs[0], 1);
    for (int i = 0; i < N; i++)
        rx_htab_del(&t, ids[i]);
    for (int i = 0; i <= N - RX_HTAB_REUSE_MIN; i++) {
        int id = rx_htab_add(&t, &objs[1], 1);
        unsigned slot = (unsigned)id & RX_HTAB_INDEX_MASK;
        CHECK(slot == ((unsigned)ids[i] & RX_HTAB_INDEX_MASK), "reuse %d took slot %u, not %u",
              i, slot, (unsigned)ids[i] & RX_HTAB_INDEX_MASK);
        CHECK(id != ids[i], "slot reused with the same generation");
    }
    int fresh = rx_htab_add(&t, &objs[2], 1);
    CHECK(((unsigned)fresh & RX_HTAB_INDEX_MASK) == N + 1, "with %d waiting a fresh slot, got %#x",
          RX_HTAB_REUSE_MIN - 1, (unsigned)fresh);
    rx_htab_free(&t);
}

/* 10^6 create/free cycles next to a few long-lived objects: the table stays
 * small, live objects keep their handles, and no recently freed handle
 * resolves. */
static void t_cycles(void)
{
    rx_htab_t t = {.kind = RX_KIND_DATATYPE};
    int keep[3];
    for (int i = 0; i < 3; i++)
        keep[i] = rx_htab_add(&t, &objs[i], 40);
    enum { RECENT = 4096 };
    static int recent[RECENT];
    int nrecent = 0;
    for (int c = 0; c < 1000000; c++) {
        int id = rx_htab_add(&t, &objs[5], 40);
        if (id < 0) {
            CHECK(0, "add failed at cycle %d", c);
            break;
        }
        int h = RX_HANDLE(RX_KIND_DATATYPE, id);
        CHECK(h > 0, "handle %#x is not a positive int", (unsigned)h);
        CHECK(RX_HANDLE_KIND(h) == RX_KIND_DATATYPE, "kind lost in %#x", (unsigned)h);
        rx_htab_del(&t, id);
        recent[nrecent++ % RECENT] = h;
        if (c % 997 == 0)
            for (int k = 0; k < RECENT && k < nrecent; k++)
                CHECK(rx_htab_get(&t, recent[k]) == NULL, "freed %#x resolves at cycle %d",
                      (unsigned)recent[k], c);
    }
    for (int i = 0; i < 3; i++)
        CHECK(rx_htab_get(&t, RX_HANDLE(RX_KIND_DATATYPE, keep[i])) == &objs[i], "kept %d", i);
    CHECK(t.n <= 40 + 3 + RX_HTAB_REUSE_MIN + 1, "table grew to %d slots", t.n);
    rx_htab_free(&t);
}

/* A full table refuses (no wrap into a live handle); one free makes room. */
static void t_full(void)
{
    rx_htab_t t = {.kind = RX_KIND_KEYVAL};
    int n = 0, last = -1;
    for (;;) {
        int id = rx_htab_add(&t, &objs[0], 1);
        if (id < 0)
            break;
        last = id;
        n++;
        if (n > RX_HTAB_MAX_INDEX + 10)
            break;
    }
    CHECK(n == RX_HTAB_MAX_INDEX, "%d objects fit, expected %d", n, RX_HTAB_MAX_INDEX);
    CHECK(rx_htab_add(&t, &objs[1], 1) == -1, "full table accepted another object");
    rx_htab_del(&t, last);
    int id = rx_htab_add(&t, &objs[1], 1);
    CHECK(id >= 0 && id != last && ((unsigned)id & RX_HTAB_INDEX_MASK) ==
                                        ((unsigned)last & RX_HTAB_INDEX_MASK),
          "after one free: %#x (freed %#x)", (unsigned)id, (unsigned)last);
    CHECK(rx_htab_get(&t, RX_HANDLE(RX_KIND_KEYVAL, last)) == NULL, "freed handle resolves");
    rx_htab_free(&t);
}

/* Retired: the application's lookups fail, holders' lookups succeed. */
static void t_retire(void)
{
    rx_htab_t t = {.kind = RX_KIND_ERRHANDLER};
    int id = rx_htab_add(&t, &objs[3], 4), h = RX_HANDLE(RX_KIND_ERRHANDLER, id);
    rx_htab_retire(&t, id);
    CHECK(rx_htab_get(&t, h) == NULL, "retired handle accepted");
    CHECK(rx_htab_get_held(&t, h) == &objs[3], "holder lost a retired object");
    rx_htab_revive(&t, h);
    CHECK(rx_htab_get(&t, h) == &objs[3], "revived handle refused");
    rx_htab_retire(&t, h);
    rx_htab_del(&t, id);
    CHECK(rx_htab_get_held(&t, h) == NULL, "deleted retired object still held");
    rx_htab_free(&t);
}

/* Requests: a released request's handle fails even when its slot is busy
 * again (until its 64 generations wrap: the pool's 1,023 first free slots
 * take turns, so not before 64 * 1,023 further requests); 10^6 cycles;
 * MPI_Request_free'd requests are not the application's. */
static void t_requests(void)
{
    rx_req_t *r = rx_req_alloc(RX_REQ_SEND);
    CHECK(r != NULL, "alloc");
    int h = RX_HANDLE(RX_KIND_REQUEST, r->index);
    CHECK(rx_req_of_handle(h) == r, "live request");
    CHECK(rx_req_of_handle(RX_HANDLE(RX_KIND_COMM, r->index)) == NULL, "other kind");
    CHECK(rx_req_of_handle(MPI_REQUEST_NULL) == NULL, "MPI_REQUEST_NULL");
    r->user_freed = 1;
    CHECK(rx_req_of_handle(h) == NULL, "a freed request in flight is still the application's");
    CHECK(rx_req_lookup(r->index) == r, "internal lookup of a request in flight");
    rx_req_release(r);
    CHECK(rx_req_of_handle(h) == NULL && rx_req_lookup(RX_HANDLE_INDEX(h)) == NULL, "released");
    int first = h;
    for (int c = 0; c < 1000000; c++) {
        rx_req_t *q = rx_req_alloc(RX_REQ_RECV);
        if (!q) {
            CHECK(0, "alloc failed at cycle %d", c);
            break;
        }
        int hq = RX_HANDLE(RX_KIND_REQUEST, q->index);
        CHECK(hq > 0 && hq != h && RX_HANDLE_KIND(hq) == RX_KIND_REQUEST, "cycle %d: %#x after %#x",
              c, (unsigned)hq, (unsigned)h);
        CHECK(rx_req_of_handle(h) == NULL, "previous request %#x resolves", (unsigned)h);
        CHECK(((unsigned)hq & 0xfffff) != ((unsigned)h & 0xfffff), "slot reused at once (%#x)",
              (unsigned)hq);
        if (c < 64 * 1023 - 1)
            CHECK(rx_req_lookup(RX_HANDLE_INDEX(first)) == NULL, "the first request resolves");
        rx_req_release(q);
        h = hq;
    }
    CHECK(rx_req_live_count() == 0, "%d requests left live", rx_req_live_count());
    rx_req_pool_fini();
}

int main(void)
{
    t_predefined();
    t_stale();
    t_fifo();
    t_cycles();
    t_full();
    t_retire();
    t_requests();
    if (errs) {
        fprintf(stderr, "test_handle: %d failures\n", errs);
        return 1;
    }
    printf("test_handle: ok\n");
    return 0;
}
