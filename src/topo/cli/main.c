/* SPDX-License-Identifier: MIT
 * rdmx-topo: fabric models, routing, flow-level simulation and rank placement from the command line.
 * See docs/topo.md. */
#include "topo/output.h"
#include "topo/place.h"
#include "topo/route.h"
#include "topo/sim.h"
#include "topo/topo.h"
#include "util/config.h"
#include "util/log.h"
#include "util/status.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void rx_usage(FILE *f)
{
    fprintf(f,
            "usage: rdmx-topo COMMAND [options]\n"
            "commands:\n"
            "  info      -t FABRIC                         sizes, radix, distances, bisection\n"
            "  route     -t FABRIC SRC DST [--routing R]    the links of one route (SRC, DST: node names or ids)\n"
            "  sim       -t FABRIC (--pattern P | --schedule FILE | --algo ALGO) [options]\n"
            "  schedule  --algo ALGO -n RANKS --bytes B [-o FILE]\n"
            "  place     -t FABRIC (--matrix FILE | --pattern P) -n RANKS [options]\n"
            "fabric (-t): kary:K,N  radix:PORTS,LEVELS  xgft:H;m1,..;w1,..[;p1,..]\n"
            "             dragonfly:a=A,p=P,h=H[,g=G][,arrangement=absolute|relative]\n"
            "             slurm:topology.conf  ibnet:ibnetdiscover.out\n"
            "common:  --link CLASS:BW (e.g. host:100G, global:25G)  --link lat:CLASS:TIME (e.g. lat:all:100ns)\n"
            "sim:     -n RANKS  --bytes B  --routing dmodk|ecmp|minimal|valiant|ugal|ugal-l  --seed S\n"
            "         --algo ALGO (a collective built in memory, as rdmx-topo schedule writes it)\n"
            "         --algo allreduce-innet (reduction in the switches of one aggregation tree) with\n"
            "           --innet-bw BW (per switch, default the host link rate) --innet-lat TIME (per switch and\n"
            "           operation, 200ns)  --innet-chunk B (bytes per operation, 256)  --innet-window N (8)\n"
            "         --pattern alltoall|alltoall-xor|shift|permutation|uniform|halo3d|adversarial\n"
            "         --shift S  --flows K (uniform)  --grid XxYxZ (halo3d)  --iterations I\n"
            "         --sync phase|rank  --compute-bw BW  --placement linear|random|bestfit|scotch|spread|auto|hostfile:FILE\n"
            "         --free LIST  --csv FILE  --svg FILE  --png FILE  --top N\n"
            "         --svg-view auto|links|aggregate (links: both directions of every cable, switches named;\n"
            "           aggregate: per group pair or per level; auto: aggregate above 4000 directed links)\n"
            "         --full-solve (re-solve all flows at every event: the reference for the incremental solver)\n"
            "         --threads T (phase-synchronised runs: phases simulated at once; default one per CPU)\n"
            "         --no-reuse (simulate every phase, also those identical to an earlier one)\n"
            "         --job KEY=VAL,... (repeatable: several jobs on one fabric, each job's slowdown against\n"
            "           running alone; keys pattern|algo|schedule|matrix, n, bytes, grid, iterations, shift,\n"
            "           flows, sync, placement=linear|random|bestfit|scotch|spread|auto; jobs take free nodes in turn)\n"
            "place:   --method linear|random|bestfit|scotch|spread|auto|all  --free LIST (node ids \"0-63,128-191\" or\n"
            "         a hostlist of node names)  --hostfile FILE  --simulate\n"
            "         --job KEY=VAL,... (repeatable: jobs already running, placed first; the busiest-link\n"
            "           scores add their traffic)\n");
    fprintf(f, "schedule and sim --algo ALGO: ");
    rx_schedule_names(f);
    fprintf(f, "\n");
}

enum {
    O_PATTERN = 256, O_SCHEDULE, O_BYTES, O_ROUTING, O_SEED, O_SHIFT, O_FLOWS, O_GRID, O_ITER, O_SYNC, O_CBW,
    O_PLACEMENT, O_FREE, O_CSV, O_SVG, O_PNG, O_TOP, O_LINK, O_ALGO, O_MATRIX, O_METHOD, O_HOSTFILE, O_SIMULATE, O_FULL,
    O_THREADS, O_NOREUSE, O_JOB, O_SVGVIEW, O_INNET_BW, O_INNET_LAT, O_INNET_CHUNK, O_INNET_WINDOW,
};

static const struct option rx_opts[] = {
    {"topology", required_argument, 0, 't'}, {"ranks", required_argument, 0, 'n'},
    {"output", required_argument, 0, 'o'},   {"pattern", required_argument, 0, O_PATTERN},
    {"schedule", required_argument, 0, O_SCHEDULE}, {"bytes", required_argument, 0, O_BYTES},
    {"routing", required_argument, 0, O_ROUTING},   {"seed", required_argument, 0, O_SEED},
    {"shift", required_argument, 0, O_SHIFT},       {"flows", required_argument, 0, O_FLOWS},
    {"grid", required_argument, 0, O_GRID},         {"iterations", required_argument, 0, O_ITER},
    {"sync", required_argument, 0, O_SYNC},         {"compute-bw", required_argument, 0, O_CBW},
    {"placement", required_argument, 0, O_PLACEMENT}, {"free", required_argument, 0, O_FREE},
    {"csv", required_argument, 0, O_CSV},           {"svg", required_argument, 0, O_SVG},
    {"png", required_argument, 0, O_PNG},           {"top", required_argument, 0, O_TOP},
    {"link", required_argument, 0, O_LINK},         {"algo", required_argument, 0, O_ALGO},
    {"matrix", required_argument, 0, O_MATRIX},     {"method", required_argument, 0, O_METHOD},
    {"hostfile", required_argument, 0, O_HOSTFILE}, {"simulate", no_argument, 0, O_SIMULATE},
    {"full-solve", no_argument, 0, O_FULL},       {"threads", required_argument, 0, O_THREADS},
    {"no-reuse", no_argument, 0, O_NOREUSE},       {"job", required_argument, 0, O_JOB},
    {"svg-view", required_argument, 0, O_SVGVIEW}, {"innet-bw", required_argument, 0, O_INNET_BW},
    {"innet-lat", required_argument, 0, O_INNET_LAT}, {"innet-chunk", required_argument, 0, O_INNET_CHUNK},
    {"innet-window", required_argument, 0, O_INNET_WINDOW},
    {"help", no_argument, 0, 'h'},                  {0, 0, 0, 0},
};

typedef struct rx_cli {
    const char *fabric, *pattern, *schedule, *routing, *sync, *placement, *free_list, *csv, *svg, *png, *out;
    const char *algo, *matrix, *method, *hostfile, *links[16], *jobs[16];
    int nlinks, top, simulate, have_shift, full_solve, threads, no_reuse, njobs, svg_view;
    uint32_t nranks, flows, iterations, grid[3];
    uint64_t bytes, seed;
    long shift;
    double compute_bw;
    rx_innet_opts_t innet;
} rx_cli_t;

static int rx_parse_u(const char *s, uint64_t *v)
{
    long long x;
    if (rx_parse_size(s, &x) || x < 0)
        return -1;
    *v = (uint64_t)x;
    return 0;
}

/* XxYxZ, each at least 1, at most 2^24 points in all */
static int rx_parse_grid(const char *s, uint32_t g[3])
{
    uint64_t prod = 1;
    for (int i = 0; i < 3; i++) {
        char *end;
        if (!isdigit((unsigned char)*s))
            return -1;
        errno = 0;
        unsigned long v = strtoul(s, &end, 10);
        if (errno || v == 0 || v > (1u << 24) || *end != (i < 2 ? 'x' : 0))
            return -1;
        g[i] = (uint32_t)v;
        prod *= v;
        s = end + 1;
    }
    return prod > (1u << 24) ? -1 : 0;
}

static int rx_cli_parse(int argc, char **argv, rx_cli_t *c)
{
    int o;
    uint64_t v;
    while ((o = getopt_long(argc, argv, "t:n:o:h", rx_opts, NULL)) != -1) {
        switch (o) {
        case 't': c->fabric = optarg; break;
        case 'n':
            if (rx_parse_u(optarg, &v) || v == 0 || v > (1u << 24))
                goto bad;
            c->nranks = (uint32_t)v;
            break;
        case 'o': c->out = optarg; break;
        case O_PATTERN: c->pattern = optarg; break;
        case O_SCHEDULE: c->schedule = optarg; break;
        case O_BYTES: /* 0 is refused, not taken as "the default" */
            if (rx_parse_u(optarg, &c->bytes) || c->bytes == 0)
                goto bad;
            break;
        case O_ROUTING: c->routing = optarg; break;
        case O_SEED:
            if (rx_parse_u(optarg, &c->seed))
                goto bad;
            break;
        case O_SHIFT: {
            char *end;
            c->shift = strtol(optarg, &end, 10);
            if (*end)
                goto bad;
            c->have_shift = 1;
            break;
        }
        case O_FLOWS:
            if (rx_parse_u(optarg, &v) || v == 0 || v > 4096)
                goto bad;
            c->flows = (uint32_t)v;
            break;
        case O_GRID:
            if (rx_parse_grid(optarg, c->grid))
                goto bad;
            break;
        case O_ITER:
            if (rx_parse_u(optarg, &v) || v == 0 || v > 1000000)
                goto bad;
            c->iterations = (uint32_t)v;
            break;
        case O_SYNC: c->sync = optarg; break;
        case O_CBW:
            if (rx_topo_parse_bw(optarg, &c->compute_bw))
                goto bad;
            break;
        case O_PLACEMENT: c->placement = optarg; break;
        case O_FREE: c->free_list = optarg; break;
        case O_CSV: c->csv = optarg; break;
        case O_SVG: c->svg = optarg; break;
        case O_PNG: c->png = optarg; break;
        case O_TOP:
            if (rx_parse_u(optarg, &v) || v == 0 || v > 1000000)
                goto bad;
            c->top = (int)v;
            break;
        case O_LINK:
            if (c->nlinks == 16)
                goto bad;
            c->links[c->nlinks++] = optarg;
            break;
        case O_ALGO: c->algo = optarg; break;
        case O_MATRIX: c->matrix = optarg; break;
        case O_METHOD: c->method = optarg; break;
        case O_HOSTFILE: c->hostfile = optarg; break;
        case O_SIMULATE: c->simulate = 1; break;
        case O_FULL: c->full_solve = 1; break;
        case O_NOREUSE: c->no_reuse = 1; break;
        case O_SVGVIEW:
            if (!strcmp(optarg, "auto"))
                c->svg_view = RX_SVG_AUTO;
            else if (!strcmp(optarg, "links"))
                c->svg_view = RX_SVG_LINKS;
            else if (!strcmp(optarg, "aggregate"))
                c->svg_view = RX_SVG_AGGREGATE;
            else
                goto bad;
            break;
        case O_JOB:
            if (c->njobs == 16)
                goto bad;
            c->jobs[c->njobs++] = optarg;
            break;
        case O_INNET_BW:
            if (rx_topo_parse_bw(optarg, &c->innet.agg_bw) || !(c->innet.agg_bw > 0))
                goto bad;
            break;
        case O_INNET_LAT:
            if (rx_topo_parse_time(optarg, &c->innet.agg_lat) || !(c->innet.agg_lat >= 0))
                goto bad;
            break;
        case O_INNET_CHUNK:
            if (rx_parse_u(optarg, &c->innet.chunk) || c->innet.chunk == 0)
                goto bad;
            break;
        case O_INNET_WINDOW:
            if (rx_parse_u(optarg, &v) || v == 0 || v > 1000000)
                goto bad;
            c->innet.window = (uint32_t)v;
            break;
        case O_THREADS:
            if (rx_parse_u(optarg, &v) || v == 0 || v > 64)
                goto bad;
            c->threads = (int)v;
            break;
        case 'h': rx_usage(stdout); exit(0);
        default: rx_usage(stderr); return RX_ERR_INVAL;
        }
        continue;
    bad:
        rx_log_error("rdmx-topo: bad value \"%s\" for an option", optarg);
        return RX_ERR_INVAL;
    }
    return RX_OK;
}

static int rx_cli_fabric(const rx_cli_t *c, rx_topo_t **t)
{
    if (!c->fabric) {
        rx_log_error("rdmx-topo: give the fabric with -t (see --help)");
        return RX_ERR_INVAL;
    }
    int rc = rx_topo_from_spec(c->fabric, t);
    for (int i = 0; !rc && i < c->nlinks; i++)
        rc = rx_topo_apply_link_opt(*t, c->links[i]);
    return rc;
}

static int rx_cmd_info(rx_cli_t *c)
{
    rx_topo_t *t;
    int rc = rx_cli_fabric(c, &t);
    if (rc)
        return rc;
    rx_topo_info_t in;
    rc = rx_topo_analyze(t, &in);
    if (!rc)
        rx_topo_info_print(t, &in, stdout);
    rx_topo_free(t);
    return rc;
}

static int rx_cmd_route(rx_cli_t *c, int argc, char **argv)
{
    if (optind + 2 != argc) {
        rx_log_error("rdmx-topo route: give SRC and DST (node names or ids)");
        return RX_ERR_INVAL;
    }
    rx_topo_t *t;
    int rc = rx_cli_fabric(c, &t);
    if (rc)
        return rc;
    rx_router_t r = {.t = t, .seed = c->seed};
    uint32_t s = 0, d = 0;
    if (c->routing)
        rc = rx_route_parse(t, c->routing, &r.algo);
    uint32_t path[RX_ROUTE_MAXHOPS];
    int n = 0;
    for (int i = 0; i < 2 && !rc; i++)
        if (rx_topo_node_lookup(t, argv[optind + i], i ? &d : &s)) {
            rx_log_error("rdmx-topo route: \"%s\" is neither a node name nor a node id below %u", argv[optind + i],
                         t->nnodes);
            rc = RX_ERR_INVAL;
        }
    if (!rc && s == d) {
        rx_log_error("rdmx-topo route: SRC and DST are the same node");
        rc = RX_ERR_INVAL;
    }
    if (!rc)
        rc = rx_route(&r, s, d, 0, path, &n);
    for (int i = 0; !rc && i < n; i++) {
        char nm[160];
        printf("%s %s\n", rx_topo_link_name(t, path[i], nm, sizeof nm), rx_topo_class_name(t, t->l[path[i]].cls));
    }
    rx_topo_free(t);
    return rc;
}

static int rx_cmd_schedule(rx_cli_t *c)
{
    if (!c->algo || !c->nranks) {
        rx_log_error("rdmx-topo schedule: give --algo and -n");
        return RX_ERR_INVAL;
    }
    FILE *f = c->out ? fopen(c->out, "w") : stdout;
    if (!f) {
        rx_log_error("%s: cannot create", c->out);
        return RX_ERR_IO;
    }
    int rc = rx_schedule_generate(f, c->algo, c->nranks, c->bytes);
    if (c->out && fclose(f))
        rc = RX_ERR_IO;
    return rc;
}

/* The workload of `sim` and `place --simulate`. */
static int rx_cli_workload(rx_cli_t *c, const rx_topo_t *t, rx_workload_t *w)
{
    if (!!c->schedule + !!c->pattern + !!c->algo + !!c->matrix > 1) {
        rx_log_error("rdmx-topo: give one of --pattern, --schedule, --algo and --matrix");
        return RX_ERR_INVAL;
    }
    if (c->schedule)
        return rx_workload_schedule(c->schedule, c->nranks, w);
    if (c->matrix) { /* a traced matrix (RDMX_TRACE) as one phase */
        rx_commat_t m;
        int rc = rx_commat_load(c->matrix, c->nranks, &m);
        if (!rc)
            rc = rx_commat_workload(&m, w);
        rx_commat_free(&m);
        return rc;
    }
    if (c->algo)
        return rx_workload_collective(c->algo, c->nranks ? c->nranks : t->nnodes, c->bytes, w);
    if (!c->pattern) {
        rx_log_error("rdmx-topo: give --pattern, --schedule, --algo or --matrix");
        return RX_ERR_INVAL;
    }
    rx_pattern_opts_t po = {.nranks = c->nranks ? c->nranks : t->nnodes, .bytes = c->bytes ? c->bytes : 1 << 20,
                            .shift = c->have_shift ? c->shift : 1, .k = c->flows, .iterations = c->iterations,
                            .seed = c->seed};
    memcpy(po.dims, c->grid, sizeof po.dims);
    int rc = rx_pattern_parse(c->pattern, &po.pattern);
    return rc ? rc : rx_workload_pattern(t, &po, w);
}

/* One --job KEY=VAL,... into a copy of the command line (buf keeps the strings). */
static int rx_job_parse(const rx_cli_t *base, const char *spec, rx_cli_t *jc, char *buf, size_t len)
{
    *jc = *base;
    jc->pattern = jc->schedule = jc->algo = jc->matrix = jc->sync = NULL;
    jc->placement = "linear";
    jc->nranks = 0;
    jc->bytes = 0;
    jc->have_shift = 0;
    memset(jc->grid, 0, sizeof jc->grid);
    if (strlen(spec) >= len) {
        rx_log_error("rdmx-topo: --job \"%s\": too long", spec);
        return RX_ERR_INVAL;
    }
    strcpy(buf, spec);
    char *save;
    for (char *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        uint64_t v;
        if (!eq || !eq[1])
            goto bad;
        *eq = 0;
        const char *k = kv, *val = eq + 1;
        if (!strcmp(k, "pattern")) jc->pattern = val;
        else if (!strcmp(k, "algo")) jc->algo = val;
        else if (!strcmp(k, "schedule")) jc->schedule = val;
        else if (!strcmp(k, "matrix") || !strcmp(k, "trace")) jc->matrix = val;
        else if (!strcmp(k, "placement")) jc->placement = val;
        else if (!strcmp(k, "sync")) jc->sync = val;
        else if (!strcmp(k, "n")) {
            if (rx_parse_u(val, &v) || v == 0 || v > (1u << 24))
                goto bad;
            jc->nranks = (uint32_t)v;
        } else if (!strcmp(k, "bytes")) {
            if (rx_parse_u(val, &jc->bytes) || !jc->bytes)
                goto bad;
        } else if (!strcmp(k, "grid")) {
            if (rx_parse_grid(val, jc->grid))
                goto bad;
        } else if (!strcmp(k, "iterations")) {
            if (rx_parse_u(val, &v) || v == 0 || v > 1000000)
                goto bad;
            jc->iterations = (uint32_t)v;
        } else if (!strcmp(k, "flows")) {
            if (rx_parse_u(val, &v) || v == 0 || v > 4096)
                goto bad;
            jc->flows = (uint32_t)v;
        } else if (!strcmp(k, "shift")) {
            char *end;
            jc->shift = strtol(val, &end, 10);
            if (*end)
                goto bad;
            jc->have_shift = 1;
        } else
            goto bad;
        continue;
    bad:
        rx_log_error("rdmx-topo: --job \"%s\": bad or unknown \"%s\" (pattern, algo, schedule, matrix, n, bytes, "
                     "grid, iterations, flows, shift, sync, placement)", spec, kv);
        return RX_ERR_INVAL;
    }
    if (!!jc->pattern + !!jc->algo + !!jc->schedule + !!jc->matrix != 1) {
        rx_log_error("rdmx-topo: --job \"%s\": give one of pattern, algo, schedule, matrix", spec);
        return RX_ERR_INVAL;
    }
    if (jc->sync && strcmp(jc->sync, "phase") && strcmp(jc->sync, "rank")) {
        rx_log_error("rdmx-topo: --job \"%s\": sync=phase or sync=rank", spec);
        return RX_ERR_INVAL;
    }
    return RX_OK;
}

/* Several jobs on one fabric: each placed on the nodes the jobs before it left free, simulated
 * alone on its placement, then all at once; the slowdown is the shared time over the alone one. */
static int rx_cmd_jobs(rx_cli_t *c, rx_topo_t *t, rx_sim_opts_t *o)
{
    uint32_t nj = (uint32_t)c->njobs, *fr = NULL, nfree = 0, *first = NULL, *all = NULL;
    rx_workload_t w[16] = {{0}}, shared = {0};
    const rx_workload_t *wp[16];
    uint32_t *map[16] = {0};
    uint8_t bar[16];
    double alone[16];
    char buf[16][512], desc[16][200];
    int rc = c->free_list ? rx_place_parse_free(t, c->free_list, &fr, &nfree) : RX_OK;
    if (!rc && !c->free_list) {
        if (!(fr = malloc(t->nnodes * sizeof *fr)))
            rc = RX_ERR_NOMEM;
        for (uint32_t i = 0; !rc && i < t->nnodes; i++)
            fr[nfree++] = i;
    }
    for (uint32_t j = 0; j < nj && !rc; j++) {
        rx_cli_t jc;
        int method;
        if ((rc = rx_job_parse(c, c->jobs[j], &jc, buf[j], sizeof buf[j])))
            break;
        if ((rc = rx_place_method_parse(jc.placement, &method)))
            break;
        if (!jc.nranks && jc.grid[0])
            jc.nranks = jc.grid[0] * jc.grid[1] * jc.grid[2];
        if (!jc.nranks && !jc.schedule && !jc.matrix)
            jc.nranks = nfree;
        if ((rc = rx_cli_workload(&jc, t, &w[j])))
            break;
        wp[j] = &w[j];
        bar[j] = jc.sync ? !strcmp(jc.sync, "phase") : !!jc.pattern;
        snprintf(desc[j], sizeof desc[j], "%s, placement %s", w[j].desc, jc.placement);
        rx_commat_t m = {0};
        if (method == RX_PLACE_SCOTCH || method == RX_PLACE_AUTO)
            rc = rx_commat_from_workload(&w[j], &m);
        m.n = w[j].nranks;
        if (!rc && !(map[j] = malloc(w[j].nranks * sizeof *map[j])))
            rc = RX_ERR_NOMEM;
        int chosen = -1;
        if (!rc && method == RX_PLACE_AUTO) { /* judged by the job's own simulated time, alone */
            rx_sim_opts_t oj = *o;
            oj.barrier = bar[j];
            rc = rx_place_best(t, &m, &w[j], &oj, fr, nfree, o->seed + j, map[j], &chosen);
            if (!rc)
                snprintf(desc[j], sizeof desc[j], "%s, placement auto (%s)", w[j].desc, rx_place_method_name(chosen));
        } else if (!rc)
            rc = rx_place_map(t, &m, method, fr, nfree, o->seed + j, map[j]);
        rx_commat_free(&m);
        /* the job's nodes are taken: the next job places on what is left, in order */
        if (!rc) {
            unsigned char *taken = calloc(t->nnodes, 1);
            if (!taken) {
                rc = RX_ERR_NOMEM;
                break;
            }
            for (uint32_t i = 0; i < w[j].nranks; i++)
                taken[map[j][i]] = 1;
            uint32_t k = 0;
            for (uint32_t i = 0; i < nfree; i++)
                if (!taken[fr[i]])
                    fr[k++] = fr[i];
            nfree = k;
            free(taken);
        }
        if (!rc) {
            rx_sim_opts_t oj = *o;
            rx_sim_result_t r;
            oj.barrier = bar[j];
            oj.rank_node = map[j];
            oj.progress = 0;
            if (!(rc = rx_sim_run(t, &w[j], &oj, &r))) {
                alone[j] = r.time;
                rx_sim_result_free(&r);
            }
        }
    }
    if (!rc)
        rc = rx_workload_jobs(wp, nj, &shared, &first);
    if (!rc && !(all = malloc(shared.nranks * sizeof *all)))
        rc = RX_ERR_NOMEM;
    for (uint32_t j = 0; !rc && j < nj; j++)
        memcpy(all + first[j], map[j], w[j].nranks * sizeof *all);
    rx_sim_result_t res;
    if (!rc) {
        o->rank_node = all;
        o->njobs = nj;
        o->job_first = first;
        o->job_barrier = bar;
        rc = rx_sim_run(t, &shared, o, &res);
    }
    if (!rc) {
        printf("fabric            %s\n", t->desc);
        printf("routing           %s\n", rx_route_name(o->algo));
        for (uint32_t j = 0; j < nj; j++)
            printf("job %-2u            %s (%s synchronisation): alone %.6g s, shared %.6g s, slowdown %.4f\n", j + 1,
                   desc[j], bar[j] ? "phase" : "rank", alone[j], res.job_time[j],
                   alone[j] > 0 ? res.job_time[j] / alone[j] : 0);
        rx_sim_print(t, &res, c->top ? c->top : 5, stdout);
        if (c->csv)
            rc = rx_sim_write_csv(t, &res, c->csv);
        if (!rc && c->svg)
            rc = rx_sim_write_svg(t, &res, "several jobs", c->svg, c->svg_view);
        rx_sim_result_free(&res);
    }
    rx_workload_free(&shared);
    for (uint32_t j = 0; j < nj; j++) {
        rx_workload_free(&w[j]);
        free(map[j]);
    }
    free(first);
    free(all);
    free(fr);
    return rc;
}

/* the figures, the CSV, SVG and PNG of a simulation; releases res */
static int rx_sim_outputs(rx_cli_t *c, rx_topo_t *t, rx_sim_result_t *res, const char *title)
{
    int rc = RX_OK;
    rx_sim_print(t, res, c->top ? c->top : 5, stdout);
    if (c->csv)
        rc = rx_sim_write_csv(t, res, c->csv);
    if (!rc && (c->svg || c->png)) {
        char svg[4096];
        snprintf(svg, sizeof svg, "%s", c->svg ? c->svg : c->png);
        if (!c->svg)
            snprintf(svg + strlen(svg), sizeof svg - strlen(svg), ".svg");
        rc = rx_sim_write_svg(t, res, title, svg, c->svg_view);
        if (!rc && c->png) {
            pid_t pid = fork();
            if (pid == 0) {
                execlp("rsvg-convert", "rsvg-convert", "-o", c->png, svg, (char *)NULL);
                _exit(127);
            }
            int st = 0;
            if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
                rx_log_error("rdmx-topo: PNG needs rsvg-convert (Debian package librsvg2-bin); the SVG is %s", svg);
                rc = RX_ERR_UNSUPPORTED;
            }
            if (!c->svg)
                unlink(svg);
        }
    }
    rx_sim_result_free(res);
    return rc;
}

/* sim --algo allreduce-innet: the aggregation-tree model, on the same placement options (methods
 * that look at traffic see the ring allreduce's, the host-based algorithm it replaces) */
static int rx_cmd_innet(rx_cli_t *c, rx_topo_t *t, rx_sim_opts_t *o)
{
    uint32_t n = c->nranks ? c->nranks : t->nnodes, *map = NULL;
    uint64_t bytes = c->bytes ? c->bytes : 1 << 20;
    rx_workload_t w = {0};
    int rc = RX_OK;
    if (c->placement && !(rc = rx_workload_collective("allreduce-ring", n, bytes, &w)))
        rc = rx_place_from_option(t, &w, c->placement, c->free_list, o->seed, o, &map);
    else if (!c->placement && n > t->nnodes) {
        rx_log_error("rdmx-topo: %u ranks on %u nodes: give a --placement", n, t->nnodes);
        rc = RX_ERR_INVAL;
    }
    rx_sim_result_t res;
    rx_innet_info_t in;
    if (!rc)
        rc = rx_innet_allreduce(t, n, bytes, map, &c->innet, o, &res, &in);
    if (!rc) {
        char rn[64];
        printf("fabric            %s\n", t->desc);
        printf("workload          allreduce in the network, %u ranks, %llu bytes\n", n, (unsigned long long)bytes);
        printf("aggregation tree  root %s, %u switch levels, %u switches\n", rx_topo_vertex_name(t, in.root, rn, sizeof rn),
               in.depth + 1, in.switches);
        printf("operations        %llu of %.6g bytes, window %u, round trip %.6g s, stage %.6g s, tree rate %.6g B/s\n",
               (unsigned long long)in.ops, in.op_bytes, c->innet.window, in.t_op, in.stage, in.rate_cap);
        rc = rx_sim_outputs(c, t, &res, "allreduce in the network");
    }
    free(map);
    rx_workload_free(&w);
    return rc;
}

static int rx_cmd_sim(rx_cli_t *c)
{
    rx_topo_t *t;
    int rc = rx_cli_fabric(c, &t);
    if (rc)
        return rc;
    rx_workload_t w = {0};
    rx_sim_opts_t o;
    rx_sim_opts_default(&o);
    o.seed = c->seed ? c->seed : 1;
    if (c->compute_bw > 0)
        o.compute_bw = c->compute_bw;
    o.barrier = c->schedule || c->algo ? 0 : 1;
    o.full_solve = c->full_solve;
    o.threads = c->threads;
    o.no_memo = c->no_reuse;
    o.progress = 1;
    if (c->sync && !strcmp(c->sync, "phase"))
        o.barrier = 1;
    else if (c->sync && !strcmp(c->sync, "rank"))
        o.barrier = 0;
    else if (c->sync) {
        rx_log_error("rdmx-topo: --sync phase or rank");
        rc = RX_ERR_INVAL;
    }
    if (!rc && c->routing)
        rc = rx_route_parse(t, c->routing, &o.algo);
    if (!rc && c->njobs) {
        if (c->pattern || c->schedule || c->algo || c->placement) {
            rx_log_error("rdmx-topo: with --job, give each job's workload and placement in its --job");
            rc = RX_ERR_INVAL;
        } else
            rc = rx_cmd_jobs(c, t, &o);
        rx_topo_free(t);
        return rc;
    }
    if (!rc && c->algo && !strcmp(c->algo, "allreduce-innet")) {
        if (c->pattern || c->schedule || c->matrix) {
            rx_log_error("rdmx-topo: give one of --pattern, --schedule, --algo and --matrix");
            rc = RX_ERR_INVAL;
        } else
            rc = rx_cmd_innet(c, t, &o);
        rx_topo_free(t);
        return rc;
    }
    if (!rc)
        rc = rx_cli_workload(c, t, &w);
    uint32_t *map = NULL;
    if (!rc && c->placement) {
        rc = rx_place_from_option(t, &w, c->placement, c->free_list, o.seed, &o, &map);
        o.rank_node = map;
    }
    rx_sim_result_t res;
    if (!rc)
        rc = rx_sim_run(t, &w, &o, &res);
    if (!rc) {
        printf("fabric            %s\n", t->desc);
        printf("workload          %s (%s synchronisation)\n", w.desc, o.barrier ? "phase" : "rank");
        printf("routing           %s\n", rx_route_name(o.algo));
        char title[320];
        snprintf(title, sizeof title, "%s, routing %s", w.desc, rx_route_name(o.algo));
        rc = rx_sim_outputs(c, t, &res, title);
    }
    free(map);
    rx_workload_free(&w);
    rx_topo_free(t);
    return rc;
}


/* place --job SPEC...: the jobs already running, placed in turn on the free list; what they leave
 * free, and the bytes they put on each link (static routing), for scoring the new job. */
static int rx_place_background(rx_cli_t *c, rx_topo_t *t, const rx_place_opts_t *po, uint32_t **frp, uint32_t *nfp,
                               double **bgp)
{
    uint32_t *fr = NULL, nfree = 0, used = 0;
    double *bg = calloc(t->nlinks, sizeof *bg), busiest = 0;
    int rc = bg ? RX_OK : RX_ERR_NOMEM;
    if (!rc && c->free_list)
        rc = rx_place_parse_free(t, c->free_list, &fr, &nfree);
    else if (!rc) {
        if (!(fr = malloc(t->nnodes * sizeof *fr)))
            rc = RX_ERR_NOMEM;
        for (uint32_t i = 0; !rc && i < t->nnodes; i++)
            fr[nfree++] = i;
    }
    for (int j = 0; j < c->njobs && !rc; j++) {
        rx_cli_t jc;
        char buf[512];
        int method;
        rx_workload_t w = {0};
        rx_commat_t m = {0};
        uint32_t *map = NULL;
        if (!(rc = rx_job_parse(c, c->jobs[j], &jc, buf, sizeof buf)) && !(rc = rx_place_method_parse(jc.placement, &method))) {
            if (!jc.nranks && jc.grid[0])
                jc.nranks = jc.grid[0] * jc.grid[1] * jc.grid[2];
            rc = rx_cli_workload(&jc, t, &w);
        }
        if (!rc)
            rc = rx_commat_from_workload(&w, &m);
        if (!rc && !(map = malloc(m.n * sizeof *map)))
            rc = RX_ERR_NOMEM;
        if (!rc)
            rc = rx_place_map(t, &m, method, fr, nfree, po->seed + (uint64_t)j, map);
        if (!rc)
            rc = rx_place_link_bytes(t, &m, map, po->sim.algo, bg, NULL);
        if (!rc) {
            unsigned char *taken = calloc(t->nnodes, 1);
            if (!taken)
                rc = RX_ERR_NOMEM;
            for (uint32_t i = 0; !rc && i < m.n; i++)
                taken[map[i]] = 1;
            uint32_t k = 0;
            for (uint32_t i = 0; !rc && i < nfree; i++)
                if (!taken[fr[i]])
                    fr[k++] = fr[i];
            if (!rc) {
                used += nfree - k;
                nfree = k;
            }
            free(taken);
        }
        free(map);
        rx_commat_free(&m);
        rx_workload_free(&w);
    }
    for (uint32_t l = 0; !rc && l < t->nlinks; l++)
        if (t->l[l].cls != RX_LC_HOST && bg[l] / t->l[l].bw > busiest)
            busiest = bg[l] / t->l[l].bw;
    if (!rc)
        printf("background  %d running jobs on %u nodes; busiest fabric link %.6g s of their traffic\n", c->njobs,
               used, busiest);
    if (rc) {
        free(fr);
        free(bg);
        return rc;
    }
    *frp = fr;
    *nfp = nfree;
    *bgp = bg;
    return RX_OK;
}

static int rx_cmd_place(rx_cli_t *c)
{
    rx_topo_t *t;
    int rc = rx_cli_fabric(c, &t);
    if (rc)
        return rc;
    rx_place_opts_t po = {.seed = c->seed ? c->seed : 1, .simulate = c->simulate, .hostfile = c->hostfile,
                          .free_list = c->free_list, .method = c->method ? c->method : "all"};
    rx_workload_t w = {0};
    rx_sim_opts_default(&po.sim);
    if (c->routing)
        rc = rx_route_parse(t, c->routing, &po.sim.algo);
    uint32_t *fr = NULL, nfree = 0;
    double *bg = NULL;
    if (!rc && c->njobs) {
        rc = rx_place_background(c, t, &po, &fr, &nfree, &bg);
        po.free_nodes = fr;
        po.nfree = nfree;
        po.background = bg;
    }
    rx_commat_t m = {0};
    if (!rc && c->matrix)
        rc = rx_commat_load(c->matrix, c->nranks, &m);
    else if (!rc) {
        rc = rx_cli_workload(c, t, &w);
        if (!rc)
            rc = rx_commat_from_workload(&w, &m);
    }
    if (!rc && c->simulate && !w.round)
        rc = rx_commat_workload(&m, &w);
    if (!rc)
        rc = rx_place_run(t, &m, w.round ? &w : NULL, &po, stdout);
    free(fr);
    free(bg);
    rx_commat_free(&m);
    rx_workload_free(&w);
    rx_topo_free(t);
    return rc;
}

int main(int argc, char **argv)
{
    rx_log_set_prefix("rdmx-topo");
    rx_log_init();
    if (argc < 2) {
        rx_usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        rx_usage(stdout);
        return 0;
    }
    rx_cli_t c = {0};
    rx_innet_opts_default(&c.innet);
    int rc = rx_cli_parse(argc - 1, argv + 1, &c);
    if (rc)
        return 2;
    argc--;
    argv++;
    if (!strcmp(cmd, "info"))
        rc = rx_cmd_info(&c);
    else if (!strcmp(cmd, "route"))
        rc = rx_cmd_route(&c, argc, argv);
    else if (!strcmp(cmd, "sim"))
        rc = rx_cmd_sim(&c);
    else if (!strcmp(cmd, "schedule"))
        rc = rx_cmd_schedule(&c);
    else if (!strcmp(cmd, "place"))
        rc = rx_cmd_place(&c);
    else {
        rx_log_error("rdmx-topo: unknown command \"%s\"", cmd);
        rx_usage(stderr);
        return 2;
    }
    if (rc)
        fprintf(stderr, "rdmx-topo: %s failed: %s\n", cmd, rx_status_string(rc));
    return rc ? 1 : 0;
}
