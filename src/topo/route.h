/* SPDX-License-Identifier: MIT
 * Routing on a fabric: the list of links a flow crosses from one node to another, computed per flow.
 *
 * Fat-trees: up to the nearest common ancestor, then the unique way down. The up-port is chosen
 * by D-mod-k (digit of the destination: deterministic, contention-free for shifts on full trees)
 * or by ECMP (a seeded hash of source and destination, the same for every flow of the pair).
 * Dragonflies: minimal (local, global, local), Valiant (minimal to a random intermediate group,
 * then minimal to the destination; traffic inside a group stays minimal), UGAL (per flow, minimal
 * or the better of two Valiant candidates, comparing hops times the flow count of the most loaded
 * router-to-router link, as a global-knowledge UGAL does), UGAL-L (the same choice on what the source
 * router sees: hops times the flows queued on the path's first router output). Generic (loaded) fabrics: shortest
 * paths, ties broken by destination (dmodk) or by hash (ecmp). */
#ifndef RX_TOPO_ROUTE_H
#define RX_TOPO_ROUTE_H

#include "topo.h"

#define RX_ROUTE_MAXHOPS 24

enum rx_route_algo {
    RX_ROUTE_DEFAULT = 0, /* dmodk on trees and generic fabrics, minimal on dragonflies */
    RX_ROUTE_DMODK,
    RX_ROUTE_ECMP,
    RX_ROUTE_MINIMAL,
    RX_ROUTE_VALIANT,
    RX_ROUTE_UGAL,   /* global: the most loaded router link of each candidate path */
    RX_ROUTE_UGAL_L, /* local: the source router's output link of each candidate path */
    RX_ROUTE_NALGOS
};
/* Whether routes depend on the pair of nodes only (not on the flow or the load). */
static inline int rx_route_pair_only(int algo)
{
    return algo != RX_ROUTE_VALIANT && algo != RX_ROUTE_UGAL && algo != RX_ROUTE_UGAL_L;
}

typedef struct rx_router {
    rx_topo_t *t;
    int algo;
    uint64_t seed;
    const uint32_t *load; /* active flows per link (UGAL reads it; may be NULL): link l's count is */
    uint32_t load_stride; /* load[l * load_stride] (0 taken as 1) */
} rx_router_t;

/* Parses "dmodk", "ecmp", "minimal", "valiant", "ugal", "ugal-l"; checks the algorithm fits the fabric. */
int rx_route_parse(const rx_topo_t *t, const char *name, int *algo);
const char *rx_route_name(int algo);
/* Path of a flow from node src to node dst (src != dst): links in order, *nhops of them.
 * flow_id salts the random choices (Valiant intermediate) so that flows of one pair can differ. */
int rx_route(const rx_router_t *r, uint32_t src, uint32_t dst, uint64_t flow_id, uint32_t *path, int *nhops);
/* Builds the shortest-path tables of a generic fabric (done by rx_route on first use). */
int rx_route_prepare(rx_topo_t *t);
/* Hop count between two nodes along shortest paths (any family). */
int rx_route_distance(rx_topo_t *t, uint32_t src, uint32_t dst);

static inline uint64_t rx_hash64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

#endif
