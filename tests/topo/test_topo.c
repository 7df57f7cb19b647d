/* SPDX-License-Identifier: MIT
 * rdmx-topo library tests: published sizes, routing, simulator validation, loaders, placement.
 * Usage: test_topo CASE [DATADIR]; each case exits non-zero on the first failed check. */
#include "check.h"
#include "topo/place.h"
#include "topo/route.h"
#include "topo/sim.h"
#include "topo/topo.h"
#include "util/status.h"
#include "util/timer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *datadir = ".";

static rx_topo_t *fabric(const char *spec)
{
    rx_topo_t *t = NULL;
    int rc = rx_topo_from_spec(spec, &t);
    if (rc) {
        fprintf(stderr, "FAIL: fabric %s: %s\n", spec, rx_status_string(rc));
        exit(1);
    }
    return t;
}

static rx_sim_result_t run_pattern(rx_topo_t *t, int pattern, long shift, uint32_t k, int algo, uint64_t seed,
                                   uint64_t bytes, int full)
{
    rx_pattern_opts_t po = {.pattern = pattern, .nranks = t->nnodes, .bytes = bytes, .shift = shift, .k = k,
                            .seed = seed};
    rx_workload_t w;
    rx_sim_opts_t o;
    rx_sim_result_t r;
    rx_sim_opts_default(&o);
    o.algo = algo;
    o.seed = seed;
    o.barrier = 1;
    o.full_solve = full;
    if (rx_workload_pattern(t, &po, &w) || rx_sim_run(t, &w, &o, &r)) {
        fprintf(stderr, "FAIL: simulation of %s failed\n", rx_pattern_name(pattern));
        exit(1);
    }
    rx_workload_free(&w);
    return r;
}

static void test_sizes(void)
{
    rx_topo_info_t in;
    rx_topo_t *t = fabric("dragonfly:a=8,p=4,h=4,g=33");
    rx_topo_analyze(t, &in);
    CHECK(in.nodes == 1056, "dragonfly nodes %u", in.nodes);
    CHECK(in.radix_max == 15 && in.radix_min == 15, "dragonfly radix %d", in.radix_max);
    CHECK(in.switches == 264, "dragonfly routers %u", in.switches);
    CHECK(in.diameter == 5, "dragonfly diameter %d", in.diameter);
    rx_topo_free(t);
    t = fabric("radix:48,3");
    rx_topo_analyze(t, &in);
    CHECK(in.nodes == 27648, "48-port 3-level hosts %u", in.nodes);
    CHECK(in.switches == 2880, "48-port 3-level switches %u", in.switches);
    CHECK(in.radix_max == 48 && in.radix_min == 48, "radix %d..%d", in.radix_min, in.radix_max);
    CHECK(fabs(in.bisection_ratio - 1) < 1e-9, "full bisection %g", in.bisection_ratio);
    rx_topo_free(t);
    static const int kn[][2] = {{2, 3}, {4, 3}, {8, 2}, {16, 3}, {3, 4}};
    for (size_t i = 0; i < sizeof kn / sizeof kn[0]; i++) {
        int k = kn[i][0], n = kn[i][1];
        char spec[32];
        snprintf(spec, sizeof spec, "kary:%d,%d", k, n);
        t = fabric(spec);
        rx_topo_analyze(t, &in);
        CHECK(in.nodes == (uint32_t)pow(k, n), "%s nodes %u", spec, in.nodes);
        CHECK(in.switches == (uint32_t)(n * pow(k, n - 1)), "%s switches %u", spec, in.switches);
        CHECK(in.diameter == 2 * n, "%s diameter %d", spec, in.diameter);
        rx_topo_free(t);
    }
    /* SimGrid's tuple for a 2:1 tapered two-level tree and its untapered twin */
    t = fabric("xgft:2;16,16;1,8");
    rx_topo_analyze(t, &in);
    CHECK(fabs(in.bisection_ratio - 0.5) < 1e-9, "tapered bisection ratio %g", in.bisection_ratio);
    double tapered = in.bisection_bw;
    rx_topo_free(t);
    t = fabric("xgft:2;16,16;1,16");
    rx_topo_analyze(t, &in);
    CHECK(fabs(in.bisection_bw - 2 * tapered) < 1e-3, "untapered %g vs 2 x tapered %g", in.bisection_bw, tapered);
    rx_topo_free(t);
}

/* Every route is a chain of links from src to dst. */
static void check_routes(const char *spec, int algo)
{
    rx_topo_t *t = fabric(spec);
    rx_router_t r = {.t = t, .algo = algo, .seed = 7};
    uint32_t path[RX_ROUTE_MAXHOPS];
    int bad = 0;
    for (uint32_t s = 0; s < t->nnodes; s++) {
        for (uint32_t d = 0; d < t->nnodes; d++) {
            int n;
            if (s == d)
                continue;
            if (rx_route(&r, s, d, s * 31 + d, path, &n)) {
                bad++;
                continue;
            }
            uint32_t cur = s;
            for (int i = 0; i < n; i++) {
                if (t->l[path[i]].src != cur)
                    bad++;
                cur = t->l[path[i]].dst;
            }
            if (cur != d)
                bad++;
            int globals = 0;
            for (int i = 0; i < n; i++)
                globals += t->family == RX_TOPO_DRAGONFLY && t->l[path[i]].cls == RX_LC_GLOBAL;
            if (t->family == RX_TOPO_FATTREE && n != rx_route_distance(t, s, d))
                bad++; /* up*-down* routes are shortest */
            if (algo == RX_ROUTE_MINIMAL && n > 5)
                bad++;
            if (algo == RX_ROUTE_VALIANT && t->v[s].group != t->v[d].group && globals != 2)
                bad++;
        }
    }
    CHECK(bad == 0, "%s routing %s: %d bad routes", spec, rx_route_name(algo), bad);
    rx_topo_free(t);
}

static void test_routing(void)
{
    check_routes("kary:4,3", RX_ROUTE_DMODK);
    check_routes("kary:4,3", RX_ROUTE_ECMP);
    check_routes("xgft:3;4,4,2;1,2,2;1,1,1", RX_ROUTE_DMODK);
    check_routes("dragonfly:a=4,p=2,h=2,g=9", RX_ROUTE_MINIMAL);
    check_routes("dragonfly:a=4,p=2,h=2,g=9,arrangement=relative", RX_ROUTE_MINIMAL);
    check_routes("dragonfly:a=4,p=2,h=2,g=9", RX_ROUTE_VALIANT);
    check_routes("dragonfly:a=4,p=2,h=2,g=5", RX_ROUTE_VALIANT); /* two links between each pair of groups */
    check_routes("dragonfly:a=4,p=2,h=2,g=9", RX_ROUTE_UGAL);
    char spec[512];
    snprintf(spec, sizeof spec, "slurm:%s/slurm-tree.conf", datadir);
    check_routes(spec, RX_ROUTE_DMODK);
    snprintf(spec, sizeof spec, "ibnet:%s/ibnet-small.txt", datadir);
    check_routes(spec, RX_ROUTE_ECMP);
}

static void test_fattree_sim(void)
{
    /* D-mod-k on a full-bisection tree: every shift permutation at line rate, one flow per link */
    const char *specs[] = {"kary:4,3", "kary:8,2", "radix:8,3"};
    for (int i = 0; i < 3; i++) {
        rx_topo_t *t = fabric(specs[i]);
        int bad = 0;
        for (uint32_t s = 1; s < t->nnodes; s++) {
            rx_sim_result_t r = run_pattern(t, RX_PAT_SHIFT, s, 1, RX_ROUTE_DMODK, 1, 1 << 20, 0);
            if (r.max_link_flows_all != 1 || fabs(r.sat_throughput - 1) > 1e-9)
                bad++;
            rx_sim_result_free(&r);
        }
        CHECK(bad == 0, "%s: %d shifts not contention-free under D-mod-k", specs[i], bad);
        rx_topo_free(t);
    }
    /* ECMP hashing on random permutations: collisions cost throughput */
    rx_topo_t *t = fabric("kary:16,2");
    double sum = 0;
    uint32_t worst = 0;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        rx_sim_result_t r = run_pattern(t, RX_PAT_PERMUTATION, 0, 1, RX_ROUTE_ECMP, seed, 1 << 20, 0);
        sum += r.sat_throughput;
        if (r.max_link_flows > worst)
            worst = r.max_link_flows;
        rx_sim_result_free(&r);
    }
    CHECK(worst > 1, "ECMP permutations never collided");
    CHECK(sum / 4 > 0.45 && sum / 4 < 0.8, "ECMP random permutation throughput %.3f, expected near 1-1/e", sum / 4);
    rx_topo_free(t);
    /* all-to-all on a 2:1 tapered tree: bounded below by max((N-1)m/b, (N/2)m/(tau b)) */
    t = fabric("xgft:2;8,8;1,4");
    uint64_t m = 1 << 20;
    rx_sim_result_t r = run_pattern(t, RX_PAT_ALLTOALL, 0, 1, RX_ROUTE_DMODK, 1, m, 0);
    double N = t->nnodes, b = RX_TOPO_DEFAULT_BW, tau = 0.5;
    double bound = fmax((N - 1) * m / b, N / 2 * m / (tau * b));
    CHECK(r.time >= bound * (1 - 1e-9), "tapered all-to-all %.6g below the bound %.6g", r.time, bound);
    /* phases run one after the other, so intra-leaf phases cannot hide under crossing ones: within 2.2x */
    CHECK(r.time <= bound * 2.2, "tapered all-to-all %.6g far above the bound %.6g", r.time, bound);
    rx_sim_result_free(&r);
    rx_topo_free(t);
}

static void test_dragonfly_sim(void)
{
    rx_topo_t *t = fabric("dragonfly:a=8,p=4,h=4,g=33");
    double ap = t->df.a * t->df.p, u[4], adv[4];
    int algos[4] = {RX_ROUTE_MINIMAL, RX_ROUTE_VALIANT, RX_ROUTE_UGAL, RX_ROUTE_UGAL_L};
    for (int i = 0; i < 4; i++) {
        rx_sim_result_t r = run_pattern(t, RX_PAT_UNIFORM, 0, 16, algos[i], 3, 1 << 20, 0);
        u[i] = r.sat_throughput;
        rx_sim_result_free(&r);
        r = run_pattern(t, RX_PAT_ADVERSARIAL, 0, 8, algos[i], 3, 256 << 10, 0);
        adv[i] = r.sat_throughput;
        rx_sim_result_free(&r);
        printf("%-8s uniform %.4f adversarial %.4f\n", rx_route_name(algos[i]), u[i], adv[i]);
    }
    CHECK(u[0] > 0.85, "uniform, minimal: %.3f, expected near 1", u[0]);
    CHECK(u[1] > 0.45 && u[1] < 0.7, "uniform, Valiant: %.3f, expected near 0.5", u[1]);
    CHECK(adv[0] < 1.2 / ap && adv[0] > 0.8 / ap, "adversarial, minimal: %.4f, expected near 1/(a p) = %.4f", adv[0],
          1 / ap);
    CHECK(adv[1] > 0.4 && adv[1] < 0.6, "adversarial, Valiant: %.3f, expected near 0.5", adv[1]);
    CHECK(u[2] > 0.85 * fmax(u[0], u[1]), "uniform, UGAL %.3f not close to the better %.3f", u[2], fmax(u[0], u[1]));
    CHECK(adv[2] > 0.85 * fmax(adv[0], adv[1]), "adversarial, UGAL %.3f not close to the better %.3f", adv[2],
          fmax(adv[0], adv[1]));
    /* UGAL-L sees only the source router's queues: near the better of the two as well (Jiang et al.,
     * ISCA 2009: close to minimal on uniform traffic, to Valiant on the worst case) */
    CHECK(u[3] > 0.85 * fmax(u[0], u[1]), "uniform, UGAL-L %.3f not close to the better %.3f", u[3], fmax(u[0], u[1]));
    CHECK(adv[3] > 0.85 * fmax(adv[0], adv[1]), "adversarial, UGAL-L %.3f not close to the better %.3f", adv[3],
          fmax(adv[0], adv[1]));
    rx_topo_free(t);
}

/* The incremental solver gives the same answers as re-solving everything at every event. */
static void test_incremental(void)
{
    struct { const char *spec; int pat, algo, barrier; uint32_t k; } c[] = {
        {"dragonfly:a=4,p=2,h=2,g=9", RX_PAT_UNIFORM, RX_ROUTE_MINIMAL, 1, 4},
        {"dragonfly:a=4,p=2,h=2,g=9", RX_PAT_ALLTOALL, RX_ROUTE_VALIANT, 1, 1},
        {"dragonfly:a=4,p=2,h=2,g=9", RX_PAT_ALLTOALL, RX_ROUTE_MINIMAL, 0, 1},
        {"dragonfly:a=4,p=2,h=2,g=9", RX_PAT_HALO3D, RX_ROUTE_MINIMAL, 0, 1},
        {"kary:4,3", RX_PAT_PERMUTATION, RX_ROUTE_ECMP, 1, 1},
        {"xgft:2;8,8;1,4", RX_PAT_ALLTOALL, RX_ROUTE_DMODK, 0, 1},
        /* many flows per global link with unequal paths: the filling re-enters links whose offer
         * grew, over levels reached by several links at once. (Adaptive routing of transfers that
         * start while others run, under rank synchronisation, follows link loads that the last
         * bits of the rates order: not comparable at 1e-9; one-phase uniform traffic routes
         * everything at time 0.) */
        {"dragonfly:a=4,p=2,h=2,g=9", RX_PAT_ADVERSARIAL, RX_ROUTE_UGAL, 1, 4},
        {"dragonfly:a=4,p=2,h=2,g=9", RX_PAT_ADVERSARIAL, RX_ROUTE_VALIANT, 0, 4},
        {"dragonfly:a=4,p=2,h=2,g=9", RX_PAT_ALLTOALL, RX_ROUTE_UGAL, 1, 1},
        {"dragonfly:a=4,p=2,h=2,g=9", RX_PAT_ALLTOALL, RX_ROUTE_UGAL_L, 1, 1},
        {"dragonfly:a=4,p=2,h=2,g=9", RX_PAT_UNIFORM, RX_ROUTE_UGAL, 0, 6},
        {"xgft:3;4,4,4;1,2,2", RX_PAT_UNIFORM, RX_ROUTE_ECMP, 1, 5},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        rx_topo_t *t = fabric(c[i].spec);
        double tm[2];
        for (int full = 0; full < 2; full++) {
            rx_pattern_opts_t po = {.pattern = c[i].pat, .nranks = t->nnodes, .bytes = 100000, .k = c[i].k,
                                    .seed = 5, .iterations = 2};
            rx_workload_t w;
            rx_sim_opts_t o;
            rx_sim_result_t r;
            rx_sim_opts_default(&o);
            o.algo = c[i].algo;
            o.barrier = c[i].barrier;
            o.full_solve = full;
            CHECK(!rx_workload_pattern(t, &po, &w) && !rx_sim_run(t, &w, &o, &r), "case %zu", i);
            tm[full] = r.time;
            rx_sim_result_free(&r);
            rx_workload_free(&w);
        }
        CHECK(fabs(tm[0] - tm[1]) <= 1e-9 * tm[1], "case %zu (%s %s): incremental %.12g vs full %.12g", i,
              c[i].spec, rx_pattern_name(c[i].pat), tm[0], tm[1]);
        rx_topo_free(t);
    }
}

static int collect(const char *name, void *arg)
{
    char *buf = arg;
    strcat(buf, name);
    strcat(buf, " ");
    return 0;
}

static void test_hostlist_loaders(void)
{
    char buf[1024] = "";
    CHECK(!rx_hostlist_expand("cn[001-003,7],gpu[1-2]x[0-1],login", collect, buf), "expand");
    CHECK(!strcmp(buf, "cn001 cn002 cn003 cn7 gpu1x0 gpu1x1 gpu2x0 gpu2x1 login "), "got \"%s\"", buf);
    CHECK(rx_hostlist_expand("cn[1-", collect, buf) == RX_ERR_INVAL, "unclosed bracket accepted");
    CHECK(rx_hostlist_expand("cn[3-1]", collect, buf) == RX_ERR_INVAL, "reversed range accepted");
    char path[512];
    rx_topo_t *t;
    rx_topo_info_t in;
    snprintf(path, sizeof path, "%s/slurm-tree.conf", datadir);
    CHECK(!rx_topo_load_slurm(path, &t), "load %s", path);
    rx_topo_analyze(t, &in);
    CHECK(in.nodes == 16 && in.switches == 7 && in.diameter == 6, "tree: %u nodes %u switches diameter %d", in.nodes,
          in.switches, in.diameter);
    CHECK(fabs(in.bisection_bw - 2 * RX_TOPO_DEFAULT_BW) < 1, "tree bisection %g (two aggregation uplinks)",
          in.bisection_bw);
    CHECK(!strcmp(t->v[4].name, "cn005"), "node 4 is %s", t->v[4].name);
    rx_topo_free(t);
    snprintf(path, sizeof path, "%s/slurm-block.conf", datadir);
    CHECK(!rx_topo_load_slurm(path, &t), "load %s", path);
    CHECK(t->nnodes == 16 && t->nverts == 19, "block: %u nodes, %u vertices", t->nnodes, t->nverts);
    rx_topo_free(t);
    snprintf(path, sizeof path, "%s/slurm-bad.conf", datadir);
    CHECK(rx_topo_load_slurm(path, &t) == RX_ERR_INVAL, "malformed hostlist accepted");
    snprintf(path, sizeof path, "%s/slurm-badswitch.conf", datadir);
    CHECK(rx_topo_load_slurm(path, &t) == RX_ERR_NOTFOUND, "unknown switch accepted");
    snprintf(path, sizeof path, "%s/ibnet-small.txt", datadir);
    CHECK(!rx_topo_load_ibnet(path, &t), "load %s", path);
    CHECK(t->nnodes == 4 && t->nverts == 7 && t->nlinks == 12, "ibnet: %u nodes %u vertices %u links", t->nnodes,
          t->nverts, t->nlinks);
    CHECK(!strcmp(t->v[2].name, "node03"), "node 2 is %s", t->v[2].name);
    CHECK(fabs(t->l[rx_topo_inject(t, 2)].bw - 25e9) < 1, "4xHDR link %g B/s", t->l[rx_topo_inject(t, 2)].bw);
    CHECK(fabs(t->l[rx_topo_inject(t, 0)].bw - 12.5e9) < 1, "4xEDR link %g B/s", t->l[rx_topo_inject(t, 0)].bw);
    rx_topo_free(t);
    snprintf(path, sizeof path, "%s/ibnet-bad.txt", datadir);
    CHECK(rx_topo_load_ibnet(path, &t) == RX_ERR_INVAL, "malformed ibnetdiscover accepted");
}

static void test_schedule(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/allreduce-rd-16.sched", datadir);
    rx_workload_t w;
    CHECK(!rx_workload_schedule(path, 16, &w), "load %s", path);
    CHECK(w.nranks == 16 && w.nrounds == 4, "%u ranks %u rounds", w.nranks, w.nrounds);
    rx_topo_t *t = fabric("kary:4,2");
    rx_sim_opts_t o;
    rx_sim_result_t r;
    rx_sim_opts_default(&o);
    CHECK(!rx_sim_run(t, &w, &o, &r), "simulate the allreduce");
    /* four rounds of 8-byte exchanges: latency-bound, 2 or 4 links of 100 ns each, plus the reductions */
    CHECK(r.time > 4 * 2e-7 && r.time < 4 * 4e-7 + 1e-7, "allreduce time %g", r.time);
    CHECK(r.flows == 64, "allreduce flows %llu", (unsigned long long)r.flows);
    rx_sim_result_free(&r);
    rx_workload_free(&w);
    /* a schedule whose receives never match must be reported, not hang */
    FILE *f = tmpfile();
    CHECK(f != NULL, "tmpfile");
    snprintf(path, sizeof path, "/tmp/rdmx-topo-test-%d.sched", (int)getpid());
    f = fopen(path, "w");
    fprintf(f, "nranks 2\nrank 0\nround send 1 8\nrank 1\nround recv 0 8\nround recv 0 8\nend\n");
    fclose(f);
    CHECK(!rx_workload_schedule(path, 0, &w), "load the deadlocking schedule");
    CHECK(rx_sim_run(t, &w, &o, &r) == RX_ERR_INVAL, "deadlock not reported");
    rx_workload_free(&w);
    remove(path);
    rx_topo_free(t);
}

static void test_place(void)
{
    rx_topo_t *t = fabric("kary:4,3");
    rx_pattern_opts_t po = {.pattern = RX_PAT_HALO3D, .nranks = 64, .bytes = 1 << 20, .dims = {4, 4, 4}};
    rx_workload_t w;
    rx_commat_t m;
    CHECK(!rx_workload_pattern(t, &po, &w) && !rx_commat_from_workload(&w, &m), "halo matrix");
    uint32_t map[4][64];
    rx_place_score_t sc[4];
    for (int i = 0; i < 4; i++) {
        CHECK(!rx_place_map(t, &m, i, NULL, 0, 1, map[i]), "method %d", i);
        CHECK(!rx_place_score(t, &m, map[i], RX_ROUTE_DMODK, &sc[i]), "score %d", i);
        unsigned char seen[64] = {0};
        int dup = 0;
        for (int r = 0; r < 64; r++)
            dup += seen[map[i][r]]++ != 0;
        CHECK(dup == 0, "%s puts two ranks on one node", rx_place_method_name(i));
    }
    printf("halo 4x4x4 on kary:4,3, hop-bytes: linear %g random %g bestfit %g scotch %g\n",
           sc[0].hop_bytes, sc[1].hop_bytes, sc[2].hop_bytes, sc[3].hop_bytes);
    CHECK(sc[RX_PLACE_SCOTCH].hop_bytes <= sc[RX_PLACE_LINEAR].hop_bytes, "scotch %g above linear %g",
          sc[RX_PLACE_SCOTCH].hop_bytes, sc[RX_PLACE_LINEAR].hop_bytes);
    CHECK(sc[RX_PLACE_SCOTCH].hop_bytes < 0.8 * sc[RX_PLACE_RANDOM].hop_bytes, "scotch %g not well below random %g",
          sc[RX_PLACE_SCOTCH].hop_bytes, sc[RX_PLACE_RANDOM].hop_bytes);
    rx_topo_free(t);
    t = fabric("kary:8,2");
    CHECK(sc[RX_PLACE_LINEAR].hop_bytes < sc[RX_PLACE_RANDOM].hop_bytes, "linear %g not below random %g",
          sc[RX_PLACE_LINEAR].hop_bytes, sc[RX_PLACE_RANDOM].hop_bytes);
    rx_commat_free(&m);
    rx_workload_free(&w);
    /* fragmented free nodes: best fit takes the fullest leaf switches under the lowest common switch */
    uint32_t *fr, nfree;
    CHECK(!rx_place_parse_free(t, "3-7,8-15,17,20-23,40-47", &fr, &nfree), "free list");
    CHECK(nfree == 26, "free nodes %u", nfree);
    m = (rx_commat_t){.n = 8};
    uint32_t bf[8];
    CHECK(!rx_place_map(t, &m, RX_PLACE_BESTFIT, fr, nfree, 1, bf), "bestfit");
    CHECK(bf[0] == 8 && bf[7] == 15, "bestfit chose %u..%u, expected the free leaf 8..15", bf[0], bf[7]);
    CHECK(rx_place_map(t, &(rx_commat_t){.n = 27}, RX_PLACE_BESTFIT, fr, nfree, 1, bf) == RX_ERR_INVAL,
          "27 ranks on 26 nodes accepted");
    free(fr);
    char hf[128];
    snprintf(hf, sizeof hf, "/tmp/rdmx-topo-test-%d.hosts", (int)getpid());
    CHECK(!rx_place_write_hostfile(t, bf, 8, hf), "hostfile");
    FILE *f = fopen(hf, "r");
    char line[64];
    CHECK(f && fgets(line, sizeof line, f) && !strcmp(line, "n8\n"), "hostfile first line");
    if (f)
        fclose(f);
    remove(hf);
    rx_topo_free(t);
}

/* Performance targets (label slow): 1,024-node dragonfly all-to-all, 4,096-rank graph mapping. */
static void test_perf(void)
{
    rx_topo_t *t = fabric("dragonfly:a=8,p=4,h=4,g=32");
    double t0 = rx_time_now();
    rx_sim_result_t r = run_pattern(t, RX_PAT_ALLTOALL, 0, 1, RX_ROUTE_MINIMAL, 1, 64 << 10, 0);
    double el = rx_time_now() - t0;
    printf("all-to-all, 1024-node dragonfly, minimal: %llu flows in %.2f s\n", (unsigned long long)r.flows, el);
    CHECK(r.flows == 1024 * 1023, "flows %llu", (unsigned long long)r.flows);
    /* the 10 s target is measured by docs/performance-topo.md's command, not
     * asserted here: a shared CI machine's timing is no test of behaviour */
    printf("  (target under 10 s on a quiet core: %s)\n", el < 10 ? "met here" : "not met here");
    rx_sim_result_free(&r);
    rx_topo_free(t);
    t = fabric("kary:16,3");
    rx_pattern_opts_t po = {.pattern = RX_PAT_HALO3D, .nranks = 4096, .bytes = 1 << 20};
    rx_workload_t w;
    rx_commat_t m;
    CHECK(!rx_workload_pattern(t, &po, &w) && !rx_commat_from_workload(&w, &m), "halo matrix");
    static uint32_t map[4096];
    t0 = rx_time_now();
    CHECK(!rx_place_map(t, &m, RX_PLACE_SCOTCH, NULL, 0, 1, map), "scotch 4096");
    el = rx_time_now() - t0;
    printf("graph mapping of 4096 ranks: %.2f s\n", el);
    printf("  (target under 5 s on a quiet core: %s)\n", el < 5 ? "met here" : "not met here");
    rx_commat_free(&m);
    rx_workload_free(&w);
    rx_topo_free(t);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_topo sizes|routing|fattree|dragonfly|incremental|loaders|schedule|place|perf "
                        "[DATADIR]\n");
        return 2;
    }
    if (argc > 2)
        datadir = argv[2];
    static const struct { const char *name; void (*fn)(void); } cases[] = {
        {"sizes", test_sizes},       {"routing", test_routing},         {"fattree", test_fattree_sim},
        {"dragonfly", test_dragonfly_sim}, {"incremental", test_incremental}, {"loaders", test_hostlist_loaders},
        {"schedule", test_schedule}, {"place", test_place},            {"perf", test_perf},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (strcmp(argv[1], cases[i].name))
            continue;
        cases[i].fn();
        if (failures)
            fprintf(stderr, "%d check(s) failed\n", failures);
        else
            printf("%s: ok\n", argv[1]);
        return failures ? 1 : 0;
    }
    fprintf(stderr, "unknown case %s\n", argv[1]);
    return 2;
}
