/* SPDX-License-Identifier: MIT
 * The shared-memory ring must never take stale payload for a record. After
 * the first lap the consumer polls sequence words at positions that were
 * inside an earlier record's payload; payload words equal to the sequence
 * number it expects there (small integers are common in application data)
 * must not be delivered as a message. First exactly: a lap of full-size
 * records whose every word is the sequence number the consumer will expect
 * after the next lap's first record, for every size of that record; then
 * random sizes with payload words near the sequence numbers to come. */
#include "tl/shm/shm.h"
#include "util/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RING = 16384 };

static size_t got_n, failed;

static void handler(void *arg, int src, const rx_am_hdr_t *hdr, const void *payload, size_t len)
{
    (void)arg;
    (void)src;
    (void)payload;
    if (hdr->type != 1 || (size_t)hdr->tag != got_n || len != (size_t)hdr->src) {
        if (failed++ < 5)
            printf("message %zu: not a sent record (type %u, tag %d, len %zu)\n", got_n,
                   hdr->type, hdr->tag, len);
    }
    got_n++;
}

static unsigned char *data;
static rx_shm_ring_ctl_t *ctl;
static rx_shm_rank_ctl_t *peer;
static rx_shm_t *shm;
static rx_tl_t *tl;
static size_t sent;

/* A fresh, zeroed ring from world rank 1 to us. */
static void ring_reset(void)
{
    memset(data, 0, RING);
    memset(ctl, 0, sizeof *ctl);
    shm->tx[1] = (rx_shm_tx_t){.data = data, .ctl = ctl, .peer_ctl = peer, .seq = 1};
    shm->rx[0] = (rx_shm_rx_t){.data = data, .ctl = ctl, .seq = 1, .world_src = 1};
    got_n = sent = 0;
}

static void send_one(const void *payload, size_t len)
{
    rx_am_hdr_t hdr = {.type = 1, .src = (int32_t)len, .tag = (int32_t)sent};
    int rc;
    while ((rc = tl->ops->am_send(tl, 1, &hdr, payload, len)) == RX_ERR_AGAIN)
        tl->ops->progress(tl);
    if (rc != RX_OK) {
        printf("am_send failed: %d\n", rc);
        exit(1);
    }
    sent++;
}

static void drain(void)
{
    for (int idle = 0; idle < 4;)
        idle = tl->ops->progress(tl) ? 0 : idle + 1;
}

int main(void)
{
    data = aligned_alloc(4096, RING);
    ctl = aligned_alloc(64, sizeof *ctl);
    peer = aligned_alloc(64, sizeof *peer);
    memset(peer, 0, sizeof *peer);
    shm = calloc(1, sizeof *shm);
    shm->tx = calloc(2, sizeof *shm->tx);
    shm->rx = calloc(1, sizeof *shm->rx);
    shm->ring_size = RING;
    shm->handler = handler;
    shm->nrx = 1;
    ring_reset();
    if (rx_tl_shm_ops_for_test(shm, &tl) != RX_OK) {
        printf("cannot build the transport\n");
        return 1;
    }
    const size_t big = tl->max_am_payload, per_lap = RING / rx_shm_rec_size(big);
    uint32_t *words = malloc(big);

    /* records 1..per_lap fill the ring exactly; record per_lap + 1 starts the
     * second lap; the consumer then looks for per_lap + 2 inside record 1 */
    size_t exact_cases = 0;
    for (size_t small = 0; small + sizeof(rx_shm_rec_t) < rx_shm_rec_size(big) && !failed;
         small += 8) {
        ring_reset();
        for (size_t w = 0; w < big / 4; w++)
            words[w] = (uint32_t)per_lap + 2;
        for (size_t k = 0; k < per_lap; k++)
            send_one(words, big);
        drain();
        send_one(words, small);
        drain();
        if (got_n != sent) {
            printf("second lap, first record of %zu bytes: %zu delivered, %zu sent\n", small,
                   got_n, sent);
            failed++;
        }
        exact_cases++;
    }

    /* random sizes; every payload word names a sequence number of the next
     * few laps, so stale words match often if anything polls them */
    ring_reset();
    uint64_t rng = 88172645463325252ull;
    for (size_t m = 0; m < 100000 && !failed; m++) {
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        size_t len = rng % 4 == 0 ? (rng >> 8) % (big + 1) : (rng >> 8) % 200;
        for (size_t w = 0; w < len / 4; w++)
            words[w] = shm->tx[1].seq + 1 + (uint32_t)((rng >> 20) + w) % 64;
        send_one(words, len);
        if ((rng >> 40) % 3 == 0)
            tl->ops->progress(tl);
    }
    drain();
    if (got_n != sent) {
        printf("random sizes: %zu delivered, %zu sent\n", got_n, sent);
        failed++;
    }
    printf("ring_stale: %zu exact cases, %zu random messages, %zu failed\n", exact_cases, sent,
           failed);
    tl->ops->fini(tl);
    free(words);
    free(data);
    free(ctl);
    free(peer);
    return failed != 0;
}
