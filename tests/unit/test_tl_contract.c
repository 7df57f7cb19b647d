/* SPDX-License-Identifier: MIT
 * The transport contract (src/tl/tl.h), checked the same way against every
 * transport the runtime opened: self, shm (ranks on one node) and ofi (with
 * RDMX_OFI=all over tcp on loopback). Run by rdmx-run with 1 or 2 ranks; each
 * transport talks to the rank it reaches (itself for self).
 *   - am_send: order and payload of every size from 0 to max_am_payload (self:
 *     to 4 MiB) from unaligned buffers, RX_ERR_INVAL above the maximum;
 *   - a full queue: a burst without progress (the shm ring must say
 *     RX_ERR_AGAIN), then retries after progress lose and reorder nothing;
 *   - get / put / get_nb / put_nb / getv of registered memory, several sizes,
 *     unaligned, flush;
 *   - atomics: every advertised (op, type), fetching and not, exact results,
 *     and one counter hit 100 times;
 *   - what a transport does not offer answers RX_ERR_UNSUPPORTED;
 *   - finalize closes every descriptor and leaves nothing in /dev/shm. */
#include "boot/boot.h"
#include "core/rt.h"
#include "tl/tl.h"
#include "util/status.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int me, np, fails, cur;
static const char *cur_name = "";

#define CHECK(cond, ...)                                                  \
    do {                                                                  \
        if (!(cond)) {                                                    \
            if (fails++ < 30) {                                           \
                printf("rank %d, %s: ", me, cur_name);                    \
                printf(__VA_ARGS__);                                      \
                printf("\n");                                             \
            }                                                             \
        }                                                                 \
    } while (0)

enum { MSG_DATA = 1, MSG_LAST = 2 };

static unsigned char pat(uint64_t seq, size_t i, int src)
{
    return (unsigned char)(seq * 131 + i * 7 + (size_t)src * 29 + (i >> 8));
}

/* What the handler expects next from the peer on the transport under test. */
static struct {
    int src;
    uint64_t next;
    int last;
} want;

static void handler(void *arg, int world_src, const rx_am_hdr_t *hdr, const void *payload,
                    size_t len)
{
    (void)arg;
    const unsigned char *p = payload;
    CHECK(world_src == want.src, "message from %d, expected %d", world_src, want.src);
    CHECK((int)hdr->ctx == cur, "message of transport %u while testing %d", hdr->ctx, cur);
    CHECK((uint64_t)(uint32_t)hdr->tag == want.next, "message %u arrived as number %llu",
          (unsigned)hdr->tag, (unsigned long long)want.next);
    CHECK(hdr->src == world_src && hdr->flags == 0x5a && hdr->rsvd == 0xbeef,
          "header fields changed");
    CHECK(hdr->cookie == (((uint64_t)(uint32_t)hdr->tag << 32) | len),
          "message %u: length %zu, cookie %llx", (unsigned)hdr->tag, len,
          (unsigned long long)hdr->cookie);
    for (size_t i = 0; i < len; i++)
        if (p[i] != pat((uint32_t)hdr->tag, i, world_src)) {
            CHECK(0, "message %u of %zu bytes: byte %zu wrong", (unsigned)hdr->tag, len, i);
            break;
        }
    if (hdr->type == MSG_LAST)
        want.last = 1;
    want.next = (uint64_t)(uint32_t)hdr->tag + 1;
}

static rx_am_hdr_t hdr_for(int type, uint64_t seq, size_t len)
{
    return (rx_am_hdr_t){.type = (uint8_t)type, .flags = 0x5a, .rsvd = 0xbeef,
                         .ctx = (uint32_t)cur, .src = me, .tag = (int32_t)(uint32_t)seq,
                         .cookie = (seq << 32) | len};
}

static void fill(unsigned char *p, uint64_t seq, size_t len)
{
    for (size_t i = 0; i < len; i++)
        p[i] = pat(seq, i, me);
}

static int send_retry(rx_tl_t *tl, int peer, const rx_am_hdr_t *h, const void *p, size_t len)
{
    int rc;
    while ((rc = tl->ops->am_send(tl, peer, h, p, len)) == RX_ERR_AGAIN)
        tl->ops->progress(tl);
    return rc;
}

static void drain_until_last(rx_tl_t *tl)
{
    for (long spins = 0; !want.last && spins < 200000000L; spins++)
        tl->ops->progress(tl);
    CHECK(want.last, "the last message never came (got %llu)", (unsigned long long)want.next);
    want.last = 0;
}

/* Sizes 0..64 one by one, then around powers of two, then the maximum. */
static size_t sizes(size_t max, size_t *out)
{
    size_t n = 0;
    for (size_t s = 0; s <= 64 && s <= max; s++)
        out[n++] = s;
    for (size_t p = 128; p < max; p *= 2) {
        out[n++] = p - 1;
        out[n++] = p;
        if (p + 1 < max)
            out[n++] = p + 1;
    }
    if (max > 64)
        out[n++] = max;
    return n;
}

static void check_am(rx_tl_t *tl, int peer, uint64_t *seq)
{
    size_t max = tl->max_am_payload > ((size_t)4 << 20) ? (size_t)4 << 20 : tl->max_am_payload;
    size_t list[200], n = sizes(max, list);
    unsigned char *buf = malloc(max + 8);
    for (size_t k = 0; k < n; k++) {
        unsigned char *p = buf + (k % 8); /* unaligned sources too */
        fill(p, *seq, list[k]);
        rx_am_hdr_t h = hdr_for(MSG_DATA, *seq, list[k]);
        int rc = send_retry(tl, peer, &h, p, list[k]);
        CHECK(rc == RX_OK, "am_send of %zu bytes: %s", list[k], rx_status_string(rc));
        (*seq)++;
    }
    rx_am_hdr_t h = hdr_for(MSG_DATA, *seq, 0);
    int rc = tl->ops->am_send(tl, peer, &h, buf, tl->max_am_payload + 1);
    CHECK(rc == RX_ERR_INVAL, "am_send above max_am_payload: %s", rx_status_string(rc));
    h = hdr_for(MSG_LAST, *seq, 0);
    CHECK(send_retry(tl, peer, &h, NULL, 0) == RX_OK, "last message");
    (*seq)++;
    drain_until_last(tl);
    free(buf);
}

/* Burst without progress until the transport has no room; the fence keeps
 * the peer from draining meanwhile. */
static void check_full_queue(rx_tl_t *tl, int peer, uint64_t *seq)
{
    size_t len = tl->max_am_payload < 4096 ? tl->max_am_payload : 4096;
    unsigned char *buf = malloc(len);
    int again = 0, rc = RX_OK;
    for (int k = 0; k < 4096; k++) {
        fill(buf, *seq, len);
        rx_am_hdr_t h = hdr_for(MSG_DATA, *seq, len);
        if ((rc = tl->ops->am_send(tl, peer, &h, buf, len)) == RX_ERR_AGAIN) {
            again = 1;
            break;
        }
        CHECK(rc == RX_OK, "burst am_send: %s", rx_status_string(rc));
        (*seq)++;
    }
    if (!strcmp(tl->name, "shm"))
        CHECK(again, "4096 messages of %zu bytes fit a ring that is never drained", len);
    rx_boot_fence();
    for (int k = 0; k < 64; k++) { /* the refused one first, then more */
        fill(buf, *seq, len);
        rx_am_hdr_t h = hdr_for(MSG_DATA, *seq, len);
        CHECK(send_retry(tl, peer, &h, buf, len) == RX_OK, "am_send after AGAIN");
        (*seq)++;
    }
    rx_am_hdr_t h = hdr_for(MSG_LAST, *seq, 0);
    CHECK(send_retry(tl, peer, &h, NULL, 0) == RX_OK, "last message");
    (*seq)++;
    drain_until_last(tl);
    free(buf);
}

/* The peer's rkeys, exchanged through the bootstrap. */
typedef struct {
    rx_rkey_t mem, put, amo;
} keys_t;

static void exchange(const keys_t *mine, keys_t *theirs, int peer)
{
    char key[64];
    snprintf(key, sizeof key, "tlc.%d.%d", cur, me);
    CHECK(rx_boot_put_bin(key, mine, sizeof *mine) == RX_OK, "bootstrap put");
    rx_boot_fence();
    snprintf(key, sizeof key, "tlc.%d.%d", cur, peer);
    CHECK(rx_boot_get_bin(key, theirs, sizeof *theirs) == RX_OK, "bootstrap get");
}

#define REGION ((size_t)1 << 20)
static const size_t rma_sizes[] = {1, 7, 8, 63, 4095, 4096, 4097, 65537, 300001};
#define NRMA (sizeof rma_sizes / sizeof *rma_sizes)

static void get_nb_done(void *arg, int status)
{
    *(int *)arg = status == RX_OK ? 1 : -1;
}

static void check_rma(rx_tl_t *tl, int peer)
{
    unsigned char *mem = malloc(REGION + 64), *putm = calloc(1, REGION + 64);
    unsigned char *loc = malloc(REGION + 64);
    for (size_t i = 0; i < REGION; i++)
        mem[i] = pat(7, i, me);
    keys_t mine, theirs;
    CHECK(tl->ops->mem_reg(tl, mem, REGION, &mine.mem) == RX_OK, "mem_reg");
    CHECK(tl->ops->mem_reg(tl, putm, REGION, &mine.put) == RX_OK, "mem_reg");
    /* one-sided operations must complete while this rank waits in a fence */
    tl->ops->rma_expose(tl);
    exchange(&mine, &theirs, peer);
    int cg = !!(tl->caps & RX_TL_CAP_GET), cp = !!(tl->caps & RX_TL_CAP_PUT);
    uint64_t off = 3;
    for (size_t k = 0; k < NRMA; k++, off += rma_sizes[k - 1] + 5) {
        size_t len = rma_sizes[k];
        unsigned char *dst = loc + 1 + k % 7;
        memset(dst, 0, len);
        int rc = tl->ops->get(tl, peer, dst, len, &theirs.mem, off);
        if (!cg) {
            CHECK(rc == RX_ERR_UNSUPPORTED, "get without RX_TL_CAP_GET: %s", rx_status_string(rc));
            continue;
        }
        CHECK(rc == RX_OK, "get of %zu bytes: %s", len, rx_status_string(rc));
        for (size_t i = 0; rc == RX_OK && i < len; i++)
            if (dst[i] != pat(7, off + i, peer)) {
                CHECK(0, "get of %zu bytes at %llu: byte %zu wrong", len,
                      (unsigned long long)off, i);
                break;
            }
        /* the same by get_nb: done from progress, or not offered */
        int done = 0;
        memset(dst, 0, len);
        rc = tl->ops->get_nb(tl, peer, dst, len, &theirs.mem, off, get_nb_done, &done);
        if (rc == RX_OK) {
            for (long s = 0; !done && s < 200000000L; s++)
                tl->ops->progress(tl);
            CHECK(done == 1, "get_nb of %zu bytes did not complete", len);
            for (size_t i = 0; done == 1 && i < len; i++)
                if (dst[i] != pat(7, off + i, peer)) {
                    CHECK(0, "get_nb of %zu bytes: byte %zu wrong", len, i);
                    break;
                }
        } else {
            CHECK(rc == RX_ERR_UNSUPPORTED, "get_nb: %s", rx_status_string(rc));
        }
    }
    /* puts (alternately put_nb) into the peer's second region */
    off = 5;
    for (size_t k = 0; k < NRMA; k++, off += rma_sizes[k - 1] + 3) {
        size_t len = rma_sizes[k];
        unsigned char *src = loc + 1 + k % 5;
        for (size_t i = 0; i < len; i++)
            src[i] = pat(9, off + i, me);
        int rc = k % 2 ? tl->ops->put_nb(tl, peer, src, len, &theirs.put, off) : RX_ERR_UNSUPPORTED;
        if (k % 2 && rc != RX_OK)
            CHECK(rc == RX_ERR_UNSUPPORTED, "put_nb: %s", rx_status_string(rc));
        if (rc == RX_OK) /* issued: the source stays until flush */
            CHECK(tl->ops->flush(tl, peer) == RX_OK, "flush after put_nb");
        else
            rc = tl->ops->put(tl, peer, src, len, &theirs.put, off);
        if (!cp)
            CHECK(rc == RX_ERR_UNSUPPORTED, "put without RX_TL_CAP_PUT: %s", rx_status_string(rc));
        else
            CHECK(rc == RX_OK, "put of %zu bytes: %s", len, rx_status_string(rc));
    }
    CHECK(tl->ops->flush(tl, -1) == RX_OK, "flush of every peer");
    rx_boot_fence();
    off = 5;
    for (size_t k = 0; cp && k < NRMA; k++, off += rma_sizes[k - 1] + 3)
        for (size_t i = 0; i < rma_sizes[k]; i++)
            if (putm[off + i] != pat(9, off + i, peer)) {
                CHECK(0, "put of %zu bytes at %llu: byte %zu wrong here", rma_sizes[k],
                      (unsigned long long)off, i);
                break;
            }
    /* getv: three local pieces from two remote ones */
    struct iovec lv[3] = {{loc + 1, 10}, {loc + 100, 5000}, {loc + 9000, 3}};
    uint64_t raddr = theirs.mem.addr;
    struct iovec rv[2] = {{(void *)(uintptr_t)(raddr + 11), 4000},
                          {(void *)(uintptr_t)(raddr + 70001), 1013}};
    int rc = tl->ops->getv(tl, peer, lv, 3, rv, 2, &theirs.mem);
    if (tl->caps & RX_TL_CAP_GETV) {
        CHECK(rc == RX_OK, "getv: %s", rx_status_string(rc));
        size_t at = 0;
        for (int p = 0; p < 3 && rc == RX_OK; p++)
            for (size_t i = 0; i < lv[p].iov_len; i++, at++) {
                size_t roff = at < 4000 ? 11 + at : 70001 + (at - 4000);
                if (((unsigned char *)lv[p].iov_base)[i] != pat(7, roff, peer)) {
                    CHECK(0, "getv: byte %zu wrong", at);
                    p = 3;
                    break;
                }
            }
    } else {
        CHECK(rc == RX_ERR_UNSUPPORTED, "getv without RX_TL_CAP_GETV: %s", rx_status_string(rc));
    }
    rx_boot_fence(); /* the peer is done reading before the memory goes */
    tl->ops->mem_release(tl, mem, REGION);
    tl->ops->mem_release(tl, putm, REGION);
    free(mem);
    free(putm);
    free(loc);
}

static const size_t amt_size[RX_TL_AMT_NTYPES] = {1, 1, 2, 2, 4, 4, 8, 8, 4, 8};

/* The value an element holds after op with operand b on old value a, both
 * small non-negative integers (exact in every type). */
static long long amo_expect(int op, long long a, long long b)
{
    switch (op) {
    case RX_TL_AMO_SUM: return a + b;
    case RX_TL_AMO_PROD: return a * b;
    case RX_TL_AMO_MIN: return a < b ? a : b;
    case RX_TL_AMO_MAX: return a > b ? a : b;
    case RX_TL_AMO_LAND: return a && b;
    case RX_TL_AMO_LOR: return a || b;
    case RX_TL_AMO_LXOR: return !a != !b;
    case RX_TL_AMO_BAND: return a & b;
    case RX_TL_AMO_BOR: return a | b;
    case RX_TL_AMO_BXOR: return a ^ b;
    case RX_TL_AMO_WRITE: return b;
    case RX_TL_AMO_CSWAP: return b; /* compare equals the old value below */
    default: return a;                /* READ */
    }
}

static void put_val(void *p, int type, long long v)
{
    switch (type) {
    case RX_TL_AMT_FLOAT: *(float *)p = (float)v; break;
    case RX_TL_AMT_DOUBLE: *(double *)p = (double)v; break;
    default: memcpy(p, &v, amt_size[type]); break; /* little-endian low bytes */
    }
}

static long long get_val(const void *p, int type)
{
    long long v = 0;
    switch (type) {
    case RX_TL_AMT_FLOAT: return (long long)*(const float *)p;
    case RX_TL_AMT_DOUBLE: return (long long)*(const double *)p;
    default: memcpy(&v, p, amt_size[type]); return v;
    }
}

#define SLOT(op, type, fetch) (((op) * RX_TL_AMT_NTYPES + (type)) * 2 + (fetch))
#define NSLOT (RX_TL_AMO_NOPS * RX_TL_AMT_NTYPES * 2 + 1)
#define COUNTER (NSLOT - 1)
enum { A0 = 12, B0 = 5 };

static void check_atomics(rx_tl_t *tl, int peer)
{
    uint64_t *amo = calloc(NSLOT, sizeof *amo);
    uint64_t *operand = calloc(NSLOT, sizeof *operand); /* unchanged until the flush */
    for (int op = 0; op < RX_TL_AMO_NOPS; op++)
        for (int t = 0; t < RX_TL_AMT_NTYPES; t++)
            for (int f = 0; f < 2; f++)
                put_val(&amo[SLOT(op, t, f)], t, A0);
    keys_t mine = {0}, theirs;
    CHECK(tl->ops->mem_reg(tl, amo, NSLOT * sizeof *amo, &mine.amo) == RX_OK, "mem_reg");
    exchange(&mine, &theirs, peer);
    int offered = !!(tl->caps & RX_TL_CAP_ATOMIC), tried = 0;
    for (int op = 0; op < RX_TL_AMO_NOPS; op++)
        for (int t = 0; t < RX_TL_AMT_NTYPES; t++) {
            int adv = offered && (tl->amo_types[op] & (1u << t));
            for (int f = 0; f < 2; f++) {
                if ((op == RX_TL_AMO_CSWAP || op == RX_TL_AMO_READ) && !f)
                    continue; /* always fetch */
                uint64_t *opd = &operand[SLOT(op, t, f)], compare = 0, old = 0;
                put_val(opd, t, B0);
                put_val(&compare, t, A0);
                put_val(&old, t, 99);
                int rc = tl->ops->atomic(tl, peer, op, t, 1, opd,
                                         op == RX_TL_AMO_CSWAP ? &compare : NULL,
                                         f ? &old : NULL, &theirs.amo,
                                         SLOT(op, t, f) * sizeof(uint64_t));
                if (!adv) {
                    CHECK(rc == RX_ERR_UNSUPPORTED, "atomic op %d type %d not advertised: %s",
                          op, t, rx_status_string(rc));
                    continue;
                }
                tried++;
                CHECK(rc == RX_OK, "atomic op %d type %d: %s", op, t, rx_status_string(rc));
                if (f)
                    CHECK(get_val(&old, t) == A0, "atomic op %d type %d fetched %lld", op, t,
                          get_val(&old, t));
            }
        }
    /* one counter, 100 fetching increments in a row: each sees the last */
    int cnt = offered && (tl->amo_types[RX_TL_AMO_SUM] & (1u << RX_TL_AMT_U64));
    for (uint64_t k = 0; cnt && k < 100; k++) {
        uint64_t one = 1, old = ~0ull;
        int rc = tl->ops->atomic(tl, peer, RX_TL_AMO_SUM, RX_TL_AMT_U64, 1, &one, NULL, &old,
                                 &theirs.amo, COUNTER * sizeof(uint64_t));
        CHECK(rc == RX_OK && old == k, "increment %llu fetched %llu", (unsigned long long)k,
              (unsigned long long)old);
    }
    CHECK(tl->ops->flush(tl, peer) == RX_OK, "flush after atomics");
    rx_boot_fence();
    /* the results here, applied by the peer */
    for (int op = 0; offered && op < RX_TL_AMO_NOPS; op++)
        for (int t = 0; t < RX_TL_AMT_NTYPES; t++)
            for (int f = 0; f < 2 && (tl->amo_types[op] & (1u << t)); f++) {
                if ((op == RX_TL_AMO_CSWAP || op == RX_TL_AMO_READ) && !f)
                    continue;
                long long got = get_val(&amo[SLOT(op, t, f)], t);
                CHECK(got == amo_expect(op, A0, B0), "atomic op %d type %d %s: %lld, not %lld",
                      op, t, f ? "fetching" : "", got, amo_expect(op, A0, B0));
            }
    if (cnt)
        CHECK(amo[COUNTER] == 100, "counter %llu after 100 increments",
              (unsigned long long)amo[COUNTER]);
    if (offered)
        CHECK(tried > 0, "RX_TL_CAP_ATOMIC without any (op, type)");
    rx_boot_fence();
    tl->ops->mem_release(tl, amo, NSLOT * sizeof *amo);
    free(amo);
    free(operand);
}

/* TLC_VERBOSE=1: say where a hanging run is */
static void phase(const char *what)
{
    if (getenv("TLC_VERBOSE"))
        fprintf(stderr, "rank %d, %s: %s\n", me, cur_name, what);
}

static int count_fds(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n - 1; /* the directory's own */
}

static int count_shm(const char *prefix)
{
    int n = 0;
    DIR *d = opendir("/dev/shm");
    for (struct dirent *e; d && (e = readdir(d));)
        n += !strncmp(e->d_name, prefix, strlen(prefix));
    if (d)
        closedir(d);
    return n;
}

int main(void)
{
    /* the launcher's bootstrap descriptor (PMI_FD) goes at finalize */
    const char *pmi_fd = getenv("PMI_FD");
    int fds0 = count_fds() - (pmi_fd && fcntl(atoi(pmi_fd), F_GETFD) != -1);
    int rc = rx_init(handler, NULL);
    if (rc != RX_OK) {
        printf("rx_init: %s\n", rx_status_string(rc));
        return 1;
    }
    me = rx_rt.rank;
    np = rx_rt.size;
    char jobid[sizeof rx_rt.jobid];
    snprintf(jobid, sizeof jobid, "%s", rx_rt.jobid);
    int nshm = 0, nofi = 0;
    for (cur = 0; cur < rx_rt.ntl; cur++) {
        rx_tl_t *tl = rx_rt.tls[cur];
        int peer = me;
        for (int r = 0; r < np; r++)
            if (r != me && tl->reaches[r]) {
                peer = r;
                break;
            }
        cur_name = tl->name;
        nshm += !strcmp(tl->name, "shm");
        nofi += !strcmp(tl->name, "ofi");
        CHECK(tl->ops && tl->reaches[peer] && tl->max_am_payload >= 256 &&
              tl->eager_limit <= tl->max_am_payload, "instance fields");
        want.src = peer;
        want.next = 0;
        want.last = 0;
        uint64_t seq = 0;
        rx_boot_fence();
        phase("active messages");
        check_am(tl, peer, &seq);
        rx_boot_fence();
        phase("full queue");
        check_full_queue(tl, peer, &seq);
        rx_boot_fence();
        phase("get and put");
        check_rma(tl, peer);
        phase("atomics");
        check_atomics(tl, peer);
        rx_boot_fence();
        for (int k = 0; k < 1000; k++)
            CHECK(tl->ops->progress(tl) == 0, "a message nobody sent");
        printf("rank %d: %s checked (caps %#x, max_am_payload %zu)\n", me, tl->name, tl->caps,
               tl->max_am_payload);
    }
    const char *want_tls = getenv("TLC_EXPECT"); /* e.g. "self,shm,ofi" */
    if (want_tls) {
        cur_name = "runtime";
        CHECK((strstr(want_tls, "shm") != NULL) == (nshm == 1), "shm %sopened",
              nshm ? "" : "not ");
        CHECK((strstr(want_tls, "ofi") != NULL) == (nofi == 1), "ofi %sopened",
              nofi ? "" : "not ");
    }
    cur_name = "finalize";
    rc = rx_finalize();
    CHECK(rc == RX_OK, "rx_finalize: %s", rx_status_string(rc));
    char prefix[80];
    snprintf(prefix, sizeof prefix, "%s-", jobid);
    CHECK(count_shm(prefix) == 0, "%d segments of this job left in /dev/shm", count_shm(prefix));
    CHECK(count_fds() == fds0, "%d descriptors open after finalize, %d before", count_fds(), fds0);
    if (fails)
        printf("rank %d: %d failures\n", me, fails);
    else
        printf("rank %d: No Errors\n", me);
    return fails != 0;
}
