/* SPDX-License-Identifier: MIT
 * Every rank puts keys, fences, and reads every rank's keys back, in two
 * rounds (the second overwrites the first). Runs as a singleton, under
 * rdmx-run and under MPICH's hydra. Exits 0 and rank 0 prints "No Errors" on
 * success; prints what differs and exits 1 otherwise. */
#include "boot/boot.h"
#include "util/log.h"
#include "util/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int errors;

#define CHECK(cond, ...)                                                                          \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            fprintf(stderr, "boot_kvs: " __VA_ARGS__);                                            \
            fputc('\n', stderr);                                                                  \
            errors++;                                                                             \
        }                                                                                         \
    } while (0)

/* A value of 1..1000 printable characters, different per rank and round; it
 * contains '=' and every other printable character but space. */
static void make_value(int rank, int round, char *v)
{
    int len = 1 + (rank * 97 + round * 13) % 1000;
    for (int j = 0; j < len; j++)
        v[j] = (char)('!' + (rank * 7 + round * 3 + j) % 94);
    v[len] = 0;
}

static void make_bin(int rank, int round, unsigned char *b, size_t n)
{
    for (size_t j = 0; j < n; j++)
        b[j] = (unsigned char)(rank * 131 + round * 17 + j * 29);
}

static void round_trip(const rx_boot_info_t *info, int round)
{
    char key[64], val[1024], got[1024];
    unsigned char bin[200], gotbin[200];
    int rc;

    snprintf(key, sizeof key, "r%d-text", info->rank);
    make_value(info->rank, round, val);
    CHECK((rc = rx_boot_put(key, val)) == RX_OK, "put %s: %s", key, rx_status_string(rc));
    snprintf(key, sizeof key, "r%d-bin", info->rank);
    make_bin(info->rank, round, bin, sizeof bin);
    CHECK((rc = rx_boot_put_bin(key, bin, sizeof bin)) == RX_OK, "put_bin %s: %s", key,
          rx_status_string(rc));
    CHECK((rc = rx_boot_fence()) == RX_OK, "fence: %s", rx_status_string(rc));

    for (int p = 0; p < info->size; p++) {
        snprintf(key, sizeof key, "r%d-text", p);
        make_value(p, round, val);
        rc = rx_boot_get(key, got, sizeof got);
        CHECK(rc == RX_OK && !strcmp(got, val), "round %d: rank %d reads %s: %s%s", round,
              info->rank, key, rx_status_string(rc), rc == RX_OK ? " (wrong value)" : "");
        snprintf(key, sizeof key, "r%d-bin", p);
        make_bin(p, round, bin, sizeof bin);
        rc = rx_boot_get_bin(key, gotbin, sizeof gotbin);
        CHECK(rc == RX_OK && !memcmp(bin, gotbin, sizeof bin), "round %d: rank %d reads %s: %s", round,
              info->rank, key, rx_status_string(rc));
    }
    rc = rx_boot_get("no-such-key", got, sizeof got);
    CHECK(rc == RX_ERR_NOTFOUND, "a missing key gives %s", rx_status_string(rc));
    /* a too-small buffer is refused, not overrun */
    snprintf(key, sizeof key, "r%d-text", info->rank);
    make_value(info->rank, round, val);
    if (strlen(val) > 4)
        CHECK(rx_boot_get(key, got, 4) == RX_ERR_TRUNCATE, "short buffer not refused");
}

int main(void)
{
    rx_log_init();
    rx_boot_info_t info;
    int rc = rx_boot_init(&info);
    if (rc != RX_OK) {
        fprintf(stderr, "boot_kvs: rx_boot_init: %s\n", rx_status_string(rc));
        return 1;
    }
    const char *env_size = getenv("PMI_SIZE"), *env_rank = getenv("PMI_RANK");
    if (env_size)
        CHECK(info.size == atoi(env_size) && info.rank == atoi(env_rank), "rank/size %d/%d differ from PMI_*",
              info.rank, info.size);
    else
        CHECK(info.singleton && info.size == 1 && info.rank == 0, "not a singleton without PMI_FD");
    CHECK(info.local_size == info.size && info.local_rank == info.rank, "local rank %d of %d",
          info.local_rank, info.local_size);
    CHECK(info.jobid[0] && strlen(info.jobid) < sizeof info.jobid, "empty job id");
    const char *jobid = getenv("RDMX_JOBID");
    if (jobid && !*jobid)
        jobid = NULL;
    if (jobid)
        CHECK(!strcmp(jobid, info.jobid), "job id %s, RDMX_JOBID %s", info.jobid, jobid);

    round_trip(&info, 1);
    round_trip(&info, 2);

    if (jobid || info.singleton) {
        /* rdmx-run and the singleton keep a put invisible until the fence */
        char got[16];
        CHECK(rx_boot_put("late", "1") == RX_OK, "put late");
        CHECK(rx_boot_get("late", got, sizeof got) == RX_ERR_NOTFOUND, "a put was visible before the fence");
        CHECK(rx_boot_fence() == RX_OK, "last fence");
        CHECK(rx_boot_get("late", got, sizeof got) == RX_OK && !strcmp(got, "1"), "late put lost");
    }
    CHECK((rc = rx_boot_finalize()) == RX_OK, "finalize: %s", rx_status_string(rc));
    if (errors)
        return 1;
    if (info.rank == 0)
        printf("No Errors\n");
    return 0;
}
