/* SPDX-License-Identifier: MIT
 * Runtime start-up and shutdown: bootstrap, node layout, wait policy and the
 * per-peer choice of transport (the one place that decides it, from the
 * transport registry's order). */
#define _GNU_SOURCE
#include "rt.h"
#include "boot/boot.h"
#include "comm.h"
#include "request.h"
#include "util/config.h"
#include "util/log.h"
#include "util/status.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

rx_rt_t rx_rt;
int (*rx_req_error_class)(int rx_status);

/* Ranks on one node share a kernel and a network namespace (test "hosts" in
 * namespaces share a hostname but must talk over the network). */
static void rx_node_key(char *buf, size_t len)
{
    struct stat st;
    unsigned long long ns = 0;
    if (stat("/proc/self/ns/net", &st) == 0)
        ns = (unsigned long long)st.st_ino;
    const char *over = getenv("RDMX_NODE_NAME");
    snprintf(buf, len, "%s:%llx", over && *over ? over : rx_rt.hostname, ns);
}

static int rx_node_layout(void)
{
    char key[64], mine[320], other[320];
    rx_node_key(mine, sizeof mine);
    snprintf(key, sizeof key, "rdmx.node.%d", rx_rt.rank);
    int rc = rx_boot_put(key, mine);
    if (rc == RX_OK)
        rc = rx_boot_fence();
    if (rc != RX_OK)
        return rc;
    rx_rt.node_of = malloc(sizeof(int) * (size_t)rx_rt.peers_max);
    rx_rt.local_ranks = malloc(sizeof(int) * (size_t)rx_rt.size);
    char (*keys)[320] = malloc(sizeof *keys * (size_t)rx_rt.size);
    if (!rx_rt.node_of || !rx_rt.local_ranks || !keys) {
        free(keys);
        return RX_ERR_NOMEM;
    }
    rx_rt.nnodes = 0;
    rx_rt.local_size = 0;
    for (int r = 0; r < rx_rt.size; r++) {
        if (r == rx_rt.rank) {
            snprintf(other, sizeof other, "%s", mine);
        } else {
            snprintf(key, sizeof key, "rdmx.node.%d", r);
            if ((rc = rx_boot_get(key, other, sizeof other)) != RX_OK) {
                rx_log_error("bootstrap: no node key for rank %d", r);
                free(keys);
                return rc;
            }
        }
        snprintf(keys[r], sizeof keys[r], "%s", other);
        int n;
        for (n = 0; n < r; n++)
            if (!strcmp(keys[n], other))
                break;
        rx_rt.node_of[r] = n < r ? rx_rt.node_of[n] : rx_rt.nnodes++;
    }
    for (int r = 0; r < rx_rt.size; r++) {
        if (rx_rt.node_of[r] == rx_rt.node_of[rx_rt.rank]) {
            if (r == rx_rt.rank)
                rx_rt.local_rank = rx_rt.local_size;
            rx_rt.local_ranks[rx_rt.local_size++] = r;
        }
    }
    free(keys);
    return RX_OK;
}

/* CPUs the node offers: online CPUs, capped by a cgroup v2 quota and by
 * the CPUs rdmx-run gave this node's ranks (RDMX_NODE_CPUS: its own CPU
 * set, less cores kept for offload threads). */
static int rx_node_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    const char *given = getenv("RDMX_NODE_CPUS");
    if (given && atol(given) > 0 && atol(given) < n)
        n = atol(given);
    FILE *f = fopen("/sys/fs/cgroup/cpu.max", "r");
    if (f) {
        char quota[32];
        long long period;
        if (fscanf(f, "%31s %lld", quota, &period) == 2 && strcmp(quota, "max") && period > 0) {
            long q = (long)((atoll(quota) + period - 1) / period);
            if (q > 0 && q < n)
                n = q;
        }
        fclose(f);
    }
    return n > 0 ? (int)n : 1;
}

static void rx_pick_wait_mode(void)
{
    const char *m = rx_config()->WAIT;
    int cpus = rx_node_cpus();
    rx_rt.oversubscribed = rx_rt.local_size > cpus;
    if (!strcmp(m, "spin"))
        rx_rt.wait_mode = RX_WAIT_SPIN;
    else if (!strcmp(m, "yield"))
        rx_rt.wait_mode = RX_WAIT_YIELD;
    else if (!strcmp(m, "block"))
        rx_rt.wait_mode = RX_WAIT_BLOCK;
    else {
        if (strcmp(m, "auto"))
            rx_log_warn("RDMX_WAIT=\"%s\" unknown (spin, yield, block, auto); using auto", m);
        rx_rt.wait_mode = rx_rt.local_size > cpus ? RX_WAIT_BLOCK : RX_WAIT_SPIN;
    }
    /* When oversubscribed, the rank we wait for is likely waiting for our CPU:
     * every spin delays it, so yield at once and sleep soon. */
    long long sc = rx_config()->SPIN_COUNT;
    if (sc <= 0)
        sc = rx_rt.wait_mode == RX_WAIT_SPIN ? 1000 : rx_rt.local_size > cpus ? 1 : 2000;
    rx_rt.spin_count = sc > (1 << 30) ? (1 << 30) : (int)sc;
    long long yc = rx_config()->YIELD_COUNT;
    rx_rt.yield_count = yc < 0 ? 0 : yc > (1 << 30) ? (1 << 30) : (int)yc;
    if (rx_rt.rank == 0)
        rx_log_info("waits: %s (%d local ranks, %d CPUs)",
                    rx_rt.wait_mode == RX_WAIT_SPIN ? "spin" :
                    rx_rt.wait_mode == RX_WAIT_YIELD ? "yield" : "block",
                    rx_rt.local_size, cpus);
}

/* The one transport waits may sleep on: the only one reaching another rank,
 * when it has a doorbell (RX_TL_CAP_WAKE); NULL when several do or it has
 * none (waits then sleep in short slices). */
static rx_tl_t *rx_pick_wake_tl(void)
{
    rx_tl_t *only = NULL;
    for (int t = 0; t < rx_rt.ntl; t++) {
        int others = 0;
        for (int r = 0; r < rx_rt.size && !others; r++)
            others = r != rx_rt.rank && rx_rt.tls[t]->reaches[r];
        if (!others)
            continue;
        if (only)
            return NULL;
        only = rx_rt.tls[t];
    }
    return only && (only->caps & RX_TL_CAP_WAKE) ? only : NULL;
}

int rx_init(rx_am_handler_t handler, void *arg)
{
    rx_boot_info_t bi;
    char prefix[32];
    rx_log_init();
    int rc = rx_config_load();
    if (rc != RX_OK)
        return rc;
    if ((rc = rx_boot_init(&bi)) != RX_OK)
        return rc;
    rx_rt.rank = bi.rank;
    rx_rt.size = bi.size;
    rx_rt.nprocs = bi.size;
    rx_rt.peers_max = bi.size + RX_DYN_PEERS_MAX;
    rx_rt.appnum = bi.appnum;
    rx_rt.singleton = bi.singleton;
    snprintf(rx_rt.jobid, sizeof rx_rt.jobid, "%s", bi.jobid);
    snprintf(prefix, sizeof prefix, "rdmx[%d]", rx_rt.rank);
    rx_log_set_prefix(prefix);
    gethostname(rx_rt.hostname, sizeof rx_rt.hostname - 1);
    if ((rc = rx_node_layout()) != RX_OK)
        return rc;
    rx_pick_wait_mode();

    rx_tl_job_t job = {
        .rank = rx_rt.rank, .size = rx_rt.size, .peers_max = rx_rt.peers_max,
        .local_rank = rx_rt.local_rank, .local_size = rx_rt.local_size,
        .local_ranks = rx_rt.local_ranks, .jobid = rx_rt.jobid,
        .node_of = rx_rt.node_of, .nnodes = rx_rt.nnodes,
        .block_waits = rx_rt.wait_mode == RX_WAIT_BLOCK,
        .am_handler = handler, .am_arg = arg,
    };
    /* the registry's transports, in per-peer preference order */
    if ((rc = rx_tl_open_all(&job, rx_rt.tls, RX_TL_MAX, &rx_rt.ntl)) != RX_OK)
        return rc;
    rx_rt.wake_tl = rx_pick_wake_tl();
    /* per-peer choice: the first transport that reaches the peer */
    rx_rt.peer_tl = calloc((size_t)rx_rt.peers_max, sizeof *rx_rt.peer_tl);
    if (!rx_rt.peer_tl)
        return RX_ERR_NOMEM;
    for (int r = 0; r < rx_rt.size; r++) {
        rx_rt.peer_tl[r] = rx_tl_reaching(rx_rt.tls, rx_rt.ntl, r, 0, 0);
        if (!rx_rt.peer_tl[r]) {
            rx_log_error("rank %d runs on another node and no network transport reaches it "
                         "(RDMX_OFI=off)", r);
            return RX_ERR_UNSUPPORTED;
        }
    }
    rx_rt.main_thread = pthread_self();
    rx_rt.initialized = 1;
    return RX_OK;
}

int rx_finalize(void)
{
    int rc = rx_boot_fence();
    for (int i = rx_rt.ntl - 1; i >= 0; i--)
        rx_rt.tls[i]->ops->fini(rx_rt.tls[i]);
    rx_rt.ntl = 0;
    rx_rt.wake_tl = NULL;
    free(rx_rt.peer_tl);
    free(rx_rt.node_of);
    free(rx_rt.local_ranks);
    rx_rt.peer_tl = NULL;
    rx_rt.node_of = rx_rt.local_ranks = NULL;
    rx_req_pool_fini();
    int frc = rx_boot_finalize();
    rx_rt.finalized = 1;
    return rc != RX_OK ? rc : frc;
}
