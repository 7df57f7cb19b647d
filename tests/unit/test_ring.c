/* SPDX-License-Identifier: MIT
 * The shared-memory ring in one process: a producer and a consumer side over
 * the same ring memory. Random sizes force wrap records and full rings; every
 * byte and header is checked, in order. */
#include "tl/shm/shm.h"
#include "util/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static size_t expect_n, got_n, failed;
static unsigned char expect_byte(size_t msg, size_t i) { return (unsigned char)(msg * 31 + i * 7); }

static void handler(void *arg, int src, const rx_am_hdr_t *hdr, const void *payload, size_t len)
{
    (void)arg;
    (void)src;
    const unsigned char *p = payload;
    if ((size_t)hdr->tag != got_n || hdr->cookie != got_n * 3 || len != (size_t)hdr->src) {
        if (failed++ < 5)
            printf("message %zu: header mismatch (tag %d, len %zu)\n", got_n, hdr->tag, len);
    }
    for (size_t i = 0; i < len; i++)
        if (p[i] != expect_byte(got_n, i)) {
            if (failed++ < 5)
                printf("message %zu: byte %zu wrong\n", got_n, i);
            break;
        }
    got_n++;
}

int main(void)
{
    const uint32_t ring = 16384;
    unsigned char *data = aligned_alloc(4096, ring);
    rx_shm_ring_ctl_t *ctl = aligned_alloc(64, sizeof *ctl);
    rx_shm_rank_ctl_t *peer = aligned_alloc(64, sizeof *peer);
    memset(data, 0, ring);
    memset(ctl, 0, sizeof *ctl);
    memset(peer, 0, sizeof *peer);

    rx_shm_t *shm = NULL;
    rx_tl_t *tl = NULL;
    /* build a transport over this memory: world ranks 0 (us, sender) and 1 */
    shm = calloc(1, sizeof *shm);
    shm->tx = calloc(2, sizeof *shm->tx);
    shm->rx = calloc(1, sizeof *shm->rx);
    shm->ring_size = ring;
    shm->handler = handler;
    shm->tx[1] = (rx_shm_tx_t){.data = data, .ctl = ctl, .peer_ctl = peer, .seq = 1};
    shm->rx[0] = (rx_shm_rx_t){.data = data, .ctl = ctl, .seq = 1, .world_src = 1};
    shm->nrx = 1;
    if (rx_tl_shm_ops_for_test(shm, &tl) != RX_OK) {
        printf("cannot build the transport\n");
        return 1;
    }
    unsigned char buf[8192];
    rx_am_hdr_t big = {0};
    if (tl->max_am_payload >= sizeof buf || tl->ops->am_send(tl, 1, &big, buf, tl->max_am_payload + 1) != RX_ERR_INVAL) {
        printf("an oversized payload must be refused\n");
        return 1;
    }
    size_t again = 0;
    const size_t total = 200000;
    while (expect_n < total) {
        size_t len = next_rand() % 4 == 0 ? next_rand() % (tl->max_am_payload + 1) : next_rand() % 100;
        for (size_t i = 0; i < len; i++)
            buf[i] = expect_byte(expect_n, i);
        rx_am_hdr_t hdr = {.type = 1, .src = (int32_t)len, .tag = (int32_t)expect_n,
                           .cookie = expect_n * 3};
        int rc;
        while ((rc = tl->ops->am_send(tl, 1, &hdr, buf, len)) == RX_ERR_AGAIN) {
            again++;
            tl->ops->progress(tl); /* drain to make room */
        }
        if (rc != RX_OK) {
            printf("am_send failed: %d\n", rc);
            return 1;
        }
        expect_n++;
        if (next_rand() % 3 == 0)
            tl->ops->progress(tl);
    }
    while (got_n < expect_n)
        if (!tl->ops->progress(tl))
            break;
    if (got_n != expect_n) {
        printf("received %zu of %zu messages\n", got_n, expect_n);
        failed++;
    }
    printf("ring: %zu messages, %zu full-ring retries, %zu failed\n", got_n, again, failed);
    tl->ops->fini(tl);
    free(data);
    free(ctl);
    free(peer);
    return failed != 0 || again == 0;
}
