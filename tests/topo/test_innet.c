/* SPDX-License-Identifier: MIT
 * In-network allreduce (src/topo/innet.c): times on a 2-ary 2-tree computed by hand from the model
 * of docs/topo.md, the tree it builds, bad input, and its place against the ring allreduce: far
 * ahead for small vectors at 512 ranks, behind for large ones where the window of operations, not
 * the links, sets its rate. Usage: test_innet */
#include "check.h"
#include "topo/sim.h"
#include "topo/topo.h"
#include "util/status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int near(double a, double b) { return fabs(a - b) <= 1e-9 * fabs(b); }

static rx_topo_t *fabric(const char *spec)
{
    rx_topo_t *t = NULL;
    if (rx_topo_from_spec(spec, &t)) {
        fprintf(stderr, "FAIL: fabric %s\n", spec);
        exit(1);
    }
    return t;
}

static double innet(rx_topo_t *t, uint32_t n, uint64_t bytes, const uint32_t *map, uint64_t chunk, uint32_t window,
                    rx_innet_info_t *in)
{
    rx_innet_opts_t o;
    rx_sim_opts_t so;
    rx_sim_result_t r;
    rx_innet_opts_default(&o);
    rx_sim_opts_default(&so);
    if (chunk)
        o.chunk = chunk;
    if (window)
        o.window = window;
    int rc = rx_innet_allreduce(t, n, bytes, map, &o, &so, &r, in);
    CHECK(rc == RX_OK, "innet %u ranks %llu bytes: %s", n, (unsigned long long)bytes, rx_status_string(rc));
    if (rc)
        return -1;
    double time = r.time;
    rx_sim_result_free(&r);
    return time;
}

/* kary:2,2: nodes n0,n1 on leaf s0, n2,n3 on s1, both leaves under s2 and s3; 100 ns and
 * 12.5 GB/s per link, a switch adds 200 ns and c / 12.5 GB/s per operation of c bytes. */
static void test_hand(void)
{
    rx_topo_t *t = fabric("kary:2,2");
    rx_innet_info_t in;
    rx_innet_opts_t o;
    rx_sim_opts_t so;
    rx_sim_result_t r;
    const double L = 100e-9, A = 200e-9, BW = 12.5e9;
    /* 8 bytes, one operation: host hop, leaf, up hop, root, down hop, host hop */
    double hop = L + 8 / BW, sw = A + 8 / BW;
    double want = hop + sw + hop + sw + hop + hop;
    CHECK(near(innet(t, 4, 8, NULL, 0, 0, &in), want), "8 bytes: %.9g, want %.9g", innet(t, 4, 8, NULL, 0, 0, &in),
          want);
    CHECK(in.root == t->nnodes + 2 && in.depth == 1 && in.switches == 3 && in.ops == 1,
          "tree: root %u depth %u switches %u ops %llu", in.root, in.depth, in.switches, (unsigned long long)in.ops);
    /* 1000 bytes in operations of at most 256: 4 of 250, 2 in flight: the window runs dry, so
     * T = T_op + floor(3 / 2) T_op + (3 mod 2) s */
    hop = L + 250 / BW;
    sw = A + 250 / BW;
    double top = 4 * hop + 2 * sw, s = 250 / BW;
    want = top + top + s;
    CHECK(near(innet(t, 4, 1000, NULL, 256, 2, &in), want), "window-bound: %.9g, want %.9g", innet(t, 4, 1000, NULL, 256, 2, &in), want);
    CHECK(near(in.t_op, top) && near(in.stage, s) && near(in.rate_cap, 2 * 250 / top), "op %.9g stage %.9g rate %.9g",
          in.t_op, in.stage, in.rate_cap);
    /* a window wide enough: one operation per stage time after the first */
    want = top + 3 * s;
    CHECK(near(innet(t, 4, 1000, NULL, 256, 1000, &in), want), "stage-bound: %.9g, want %.9g", innet(t, 4, 1000, NULL, 256, 1000, &in), want);
    /* two ranks under one leaf: the leaf is the root and reduces alone */
    want = 2 * hop + sw;
    CHECK(near(innet(t, 2, 1000, NULL, 256, 1000, &in) - 3 * s, want), "one leaf: %.9g, want %.9g",
          innet(t, 2, 1000, NULL, 256, 1000, &in) - 3 * s, want);
    CHECK(in.root == t->nnodes && in.depth == 0 && in.switches == 1, "one-leaf tree: root %u depth %u", in.root, in.depth);
    /* two ranks per node: combined and handed out on the node (10 GB/s reduce, 20 GB/s copy) */
    uint32_t map[4] = {0, 0, 2, 2};
    hop = L + 8 / BW;
    sw = A + 8 / BW;
    want = 8 / 10e9 + 8 / 20e9 + 4 * hop + 2 * sw;
    CHECK(near(innet(t, 4, 8, map, 0, 0, &in), want), "two per node: %.9g, want %.9g", innet(t, 4, 8, map, 0, 0, &in), want);
    /* link loads: the vector once up and once down every tree link, nothing elsewhere */
    rx_innet_opts_default(&o);
    rx_sim_opts_default(&so);
    CHECK(rx_innet_allreduce(t, 4, 1000, NULL, &o, &so, &r, &in) == RX_OK, "loads");
    uint32_t used = 0;
    for (uint32_t i = 0; i < t->nlinks; i++) {
        CHECK(r.link_bytes[i] == 0 || r.link_bytes[i] == 1000, "link %u carries %g", i, r.link_bytes[i]);
        used += r.link_bytes[i] > 0;
    }
    CHECK(used == 12, "%u links used, want 8 host and 4 switch links", used);
    CHECK(r.net_bytes == 4000 && r.senders == 4, "fabric bytes %g senders %u", r.net_bytes, r.senders);
    rx_sim_result_free(&r);
    /* bad input is refused, not simulated */
    CHECK(rx_innet_allreduce(t, 4, 0, NULL, &o, &so, &r, &in) == RX_ERR_INVAL, "0 bytes");
    CHECK(rx_innet_allreduce(t, 0, 8, NULL, &o, &so, &r, &in) == RX_ERR_INVAL, "0 ranks");
    CHECK(rx_innet_allreduce(t, 5, 8, NULL, &o, &so, &r, &in) == RX_ERR_INVAL, "more ranks than nodes");
    o.window = 0;
    CHECK(rx_innet_allreduce(t, 4, 8, NULL, &o, &so, &r, &in) == RX_ERR_INVAL, "window 0");
    rx_innet_opts_default(&o);
    o.chunk = 0;
    CHECK(rx_innet_allreduce(t, 4, 8, NULL, &o, &so, &r, &in) == RX_ERR_INVAL, "chunk 0");
    rx_topo_free(t);
}

static double ring(rx_topo_t *t, uint32_t n, uint64_t bytes)
{
    rx_workload_t w;
    rx_sim_opts_t o;
    rx_sim_result_t r;
    rx_sim_opts_default(&o);
    o.barrier = 0;
    o.progress = 0;
    if (rx_workload_collective("allreduce-ring", n, bytes, &w) || rx_sim_run(t, &w, &o, &r)) {
        fprintf(stderr, "FAIL: ring allreduce %u ranks %llu bytes\n", n, (unsigned long long)bytes);
        exit(1);
    }
    rx_workload_free(&w);
    double time = r.time;
    rx_sim_result_free(&r);
    return time;
}

static void test_versus_ring(void)
{
    rx_topo_t *t = fabric("kary:8,3");
    rx_innet_info_t in;
    struct { uint64_t bytes; int wins; } c[] = {{1024, 1}, {16 << 20, 0}};
    for (int i = 0; i < 2; i++) {
        double a = innet(t, 512, c[i].bytes, NULL, 0, 0, &in), b = ring(t, 512, c[i].bytes);
        printf("512 ranks, %llu bytes: in the network %.6g s, ring %.6g s\n", (unsigned long long)c[i].bytes, a, b);
        if (c[i].wins)
            CHECK(a * 10 < b, "small vector: in the network %.6g s not far below the ring's %.6g s", a, b);
        else
            CHECK(a > b, "large vector: in the network %.6g s below the ring's %.6g s with a window of 8 x 256 B", a, b);
    }
    /* the same tree streaming large operations: the links set the rate, each byte crosses each
     * tree link once per direction against the ring's 2 (p - 1) / p, and it wins again */
    double a = innet(t, 512, 16 << 20, NULL, 64 << 10, 16, &in), b = ring(t, 512, 16 << 20);
    CHECK(a < b, "streaming: in the network %.6g s not below the ring's %.6g s", a, b);
    CHECK(in.rate_cap > 0.9 * 12.5e9, "streaming tree rate %.6g B/s, want near the link rate", in.rate_cap);
    rx_topo_free(t);
}

int main(void)
{
    test_hand();
    test_versus_ring();
    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    else
        printf("innet: ok\n");
    return failures ? 1 : 0;
}
