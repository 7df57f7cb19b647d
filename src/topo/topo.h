/* SPDX-License-Identifier: MIT
 * rdmx-topo fabric model: vertices (compute nodes first, then switches) joined by directed links.
 *
 * A cable is two directed links (full duplex); each has its own bandwidth and latency so that
 * flows in opposite directions never share capacity. Compute nodes are vertices 0..nnodes-1, so
 * a node id is also its vertex id. Generated families (fat-trees, dragonflies) keep their
 * parameters so routing and analysis can use closed forms; loaded fabrics are "generic" and are
 * routed on shortest paths.
 *
 * Lifecycle: rx_topo_new() (or a generator/loader, which call it) -> rx_topo_add_vertex /
 * rx_topo_add_cable -> rx_topo_finalize() (builds the per-vertex port tables) -> use -> rx_topo_free().
 * Depends on src/util only. */
#ifndef RX_TOPO_H
#define RX_TOPO_H

#include <stdint.h>
#include <stdio.h>

enum rx_topo_family { RX_TOPO_GENERIC = 0, RX_TOPO_FATTREE, RX_TOPO_DRAGONFLY };
enum rx_topo_vkind { RX_TOPO_NODE = 0, RX_TOPO_SWITCH };
/* Link classes: a fabric defines bandwidth and latency per class (RX_TOPO_NCLASS at most). */
enum { RX_LC_HOST = 0, RX_LC_L1, RX_LC_L2, RX_LC_L3, RX_LC_L4, RX_LC_L5, RX_LC_L6, RX_LC_L7, RX_TOPO_NCLASS };
#define RX_LC_LOCAL RX_LC_L1  /* dragonfly: router-to-router inside a group */
#define RX_LC_GLOBAL RX_LC_L2 /* dragonfly: between groups */

#define RX_FT_MAXLEVEL 8

enum rx_df_arrangement { RX_DF_ABSOLUTE = 0, RX_DF_RELATIVE };

typedef struct rx_topo_link {
    uint32_t src, dst; /* vertex ids */
    uint32_t rev;      /* the link of the same cable in the other direction */
    uint8_t cls;       /* RX_LC_* */
    double bw;         /* bytes per second */
    double lat;        /* seconds */
} rx_topo_link_t;

typedef struct rx_topo_vertex {
    uint32_t port0;  /* first outgoing link in rx_topo_t.out (ports in the order they were added) */
    uint32_t nports;
    uint8_t kind;    /* RX_TOPO_NODE / RX_TOPO_SWITCH */
    uint8_t level;   /* fat-tree level (0 = node); dragonfly: 0 node, 1 router; loaded: 0/1 */
    uint32_t group;  /* dragonfly group, fat-tree index within its level */
    char *name;      /* may be NULL for generated fabrics */
} rx_topo_vertex_t;

typedef struct rx_fattree_params {
    int levels;                 /* h */
    int down[RX_FT_MAXLEVEL];   /* m_l: children of a level-l switch, l = 1..h (index l-1) */
    int up[RX_FT_MAXLEVEL];     /* w_l: parents of a level-(l-1) element (index l-1); up[0] is per node */
    int par[RX_FT_MAXLEVEL];    /* parallel cables per parent/child pair at level l (bandwidth multiplier) */
    /* derived */
    uint64_t M[RX_FT_MAXLEVEL + 1]; /* M[l] = prod_{j<=l} m_j */
    uint64_t W[RX_FT_MAXLEVEL + 1]; /* W[l] = prod_{j<=l} w_j */
    uint64_t nlev[RX_FT_MAXLEVEL + 1]; /* vertices at level l */
    uint64_t first[RX_FT_MAXLEVEL + 1]; /* first vertex id of level l */
} rx_fattree_params_t;

typedef struct rx_dragonfly_params {
    int a, p, h, g;
    int arrangement; /* RX_DF_ABSOLUTE (consecutive) or RX_DF_RELATIVE (palm tree) */
    /* derived: global links from group s to group d are glinks[gidx[s*g+d] .. gidx[s*g+d+1]) */
    uint32_t *gidx;
    uint32_t *glinks;
    uint32_t *local; /* local[r*a + j]: link from router r to router j of its group (UINT32_MAX for j == r) */
} rx_dragonfly_params_t;

typedef struct rx_topo {
    int family;
    char desc[160];
    uint32_t nnodes, nverts, nlinks;
    uint32_t vcap, lcap;
    rx_topo_vertex_t *v;
    rx_topo_link_t *l;
    uint32_t *out;        /* outgoing link ids, grouped per vertex (CSR) */
    double cls_bw[RX_TOPO_NCLASS], cls_lat[RX_TOPO_NCLASS];
    int cls_used[RX_TOPO_NCLASS];
    rx_fattree_params_t ft;
    rx_dragonfly_params_t df;
    /* generic fabrics: next-hop tables from shortest paths, built on demand (route.c) */
    uint16_t *dist;       /* dist[sw_index * nnodes + node] hops from switch to node */
    uint32_t *node_sw;    /* node -> its (first) switch vertex */
} rx_topo_t;

/* Defaults: 100 Gb/s links (12.5e9 B/s), 100 ns per link. */
#define RX_TOPO_DEFAULT_BW 12.5e9
#define RX_TOPO_DEFAULT_LAT 1e-7

int rx_topo_new(rx_topo_t **out);
void rx_topo_free(rx_topo_t *t);
/* Adds a vertex and returns its id in *id. Nodes must all be added before any switch. */
int rx_topo_add_vertex(rx_topo_t *t, int kind, int level, uint32_t group, const char *name, uint32_t *id);
/* Adds a cable a<->b: two links; mult multiplies the class bandwidth (parallel cables). bw/lat <= 0 take the class values. */
int rx_topo_add_cable(rx_topo_t *t, uint32_t a, uint32_t b, int cls, double mult, double bw, double lat);
/* Groups the outgoing links per vertex; call once after all cables are added. */
int rx_topo_finalize(rx_topo_t *t);
/* Sets the bandwidth (B/s) and/or latency (s) of one link class on every link of it (<= 0: unchanged). */
void rx_topo_set_class(rx_topo_t *t, int cls, double bw, double lat);
const char *rx_topo_class_name(const rx_topo_t *t, int cls);
/* Outgoing link of vertex v to vertex w, or UINT32_MAX. */
uint32_t rx_topo_link_between(const rx_topo_t *t, uint32_t v, uint32_t w);
/* Resolves a node given by name (loaded fabrics keep their host names; generated nodes are
 * "n0", "n1", ...) or by decimal id. RX_ERR_NOTFOUND if it names no node. */
int rx_topo_node_lookup(const rx_topo_t *t, const char *s, uint32_t *id);
/* Injection link of a node (its first port). */
static inline uint32_t rx_topo_inject(const rx_topo_t *t, uint32_t node) { return t->out[t->v[node].port0]; }
static inline uint32_t rx_topo_eject(const rx_topo_t *t, uint32_t node) { return t->l[rx_topo_inject(t, node)].rev; }

/* Generators (gen_fattree.c, gen_dragonfly.c). */
int rx_topo_gen_xgft(const rx_fattree_params_t *p, rx_topo_t **out);
int rx_topo_gen_kary(int k, int n, rx_topo_t **out);
/* Fat-tree of radix-port switches with n levels (Al-Fares for n = 3: k^3/4 hosts, 5k^2/4 switches). */
int rx_topo_gen_radix(int radix, int n, rx_topo_t **out);
int rx_topo_gen_dragonfly(int a, int p, int h, int g, int arrangement, rx_topo_t **out);

/* Parses a fabric specification (see docs/topo.md, "Fabric specifications"):
 *   kary:K,N   radix:PORTS,LEVELS   xgft:H;m1,..,mh;w1,..,wh[;p1,..,ph]
 *   dragonfly:a=A,p=P,h=H,g=G[,arrangement=absolute|relative]
 *   slurm:FILE   ibnet:FILE
 * followed by optional ",bw=CLASS:VALUE" options are not part of the spec: see rx_topo_apply_link_opt. */
int rx_topo_from_spec(const char *spec, rx_topo_t **out);
/* "host:100G" / "global:25G" / "l2:50Gb" / "lat:global:1us" style overrides of a class. */
int rx_topo_apply_link_opt(rx_topo_t *t, const char *opt);

/* Loaders (load_slurm.c, load_ibnet.c). Errors are logged as FILE:LINE: message. */
int rx_topo_load_slurm(const char *path, rx_topo_t **out);
int rx_topo_load_ibnet(const char *path, rx_topo_t **out);
/* Expands a Slurm hostlist ("n[1-4,7],gpu01") calling fn(name) for each host; RX_ERR_INVAL if malformed. */
int rx_hostlist_expand(const char *expr, int (*fn)(const char *name, void *arg), void *arg);

/* Analysis (analysis.c). */
typedef struct rx_topo_info {
    uint32_t nodes, switches, cables;
    int radix_min, radix_max;  /* switch ports (cables), min and max */
    int diameter;              /* node-to-node hops (links), max */
    double avg_distance;       /* node-to-node hops, mean over ordered pairs of distinct nodes */
    double bisection_bw;       /* B/s, one direction, across the worst balanced cut */
    int bisection_exact;       /* 1: closed form for the family; 0: computed bound (see docs) */
    double injection_bw;       /* B/s per node */
    double bisection_ratio;    /* bisection_bw / (nodes/2 * injection_bw) */
    int sampled;               /* distances computed from a sample of sources */
} rx_topo_info_t;
int rx_topo_analyze(rx_topo_t *t, rx_topo_info_t *info);
void rx_topo_info_print(const rx_topo_t *t, const rx_topo_info_t *info, FILE *f);

/* Unit helpers: "100G" (bits/s, as link speeds are quoted) or "12.5GB" (bytes/s) -> bytes/s;
 * "100ns", "1us", "2ms", "0.5s" -> seconds. Return 0 on success. */
int rx_topo_parse_bw(const char *s, double *out);
int rx_topo_parse_time(const char *s, double *out);

#endif
