/* SPDX-License-Identifier: MIT
 * Dragonfly generator (Kim, Dally, Scott, Abts 2008): g groups of a routers, all-to-all inside a
 * group, p nodes and h global ports per router.
 *
 * Global port q of a group (router q / h, its port q % h) is written q = k*(g-1) + r: the k-th copy
 * of the link to the group at offset r. "absolute" (consecutive) sends offset r to group r, skipping
 * itself; "relative" (palm tree) sends it to group (G + r + 1) mod g. When a*h is not a multiple of
 * g-1 the last partial copy is wired only where both ends exist, so some ports stay unused. */
#include "topo.h"
#include "util/log.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

static int rx_df_target(int arr, int g, int G, int q, int *T, int *qq)
{
    int k = q / (g - 1), r = q % (g - 1);
    if (arr == RX_DF_ABSOLUTE) {
        *T = r < G ? r : r + 1;
        *qq = k * (g - 1) + (G < *T ? G : G - 1);
    } else {
        *T = (G + r + 1) % g;
        *qq = k * (g - 1) + (g - 2 - r);
    }
    return 0;
}

int rx_topo_gen_dragonfly(int a, int p, int h, int g, int arr, rx_topo_t **out)
{
    if (a < 1 || p < 1 || h < 1 || g < 1 || g - 1 > a * h) {
        rx_log_error("rdmx-topo: dragonfly a=%d p=%d h=%d g=%d: need positive values and g <= a*h+1 "
                     "(every pair of groups joined)", a, p, h, g);
        return RX_ERR_INVAL;
    }
    uint64_t nn = (uint64_t)g * a * p, nr = (uint64_t)g * a;
    if (nn + nr > (1u << 24)) {
        rx_log_error("rdmx-topo: dragonfly too large");
        return RX_ERR_INVAL;
    }
    rx_topo_t *t;
    int rc = rx_topo_new(&t);
    if (rc)
        return rc;
    t->family = RX_TOPO_DRAGONFLY;
    t->df.a = a;
    t->df.p = p;
    t->df.h = h;
    t->df.g = g;
    t->df.arrangement = arr;
    t->df.local = malloc(nr * a * sizeof *t->df.local);
    t->df.gidx = calloc((size_t)g * g + 1, sizeof *t->df.gidx);
    if (!t->df.local || !t->df.gidx) {
        rx_topo_free(t);
        return RX_ERR_NOMEM;
    }
    uint32_t N = (uint32_t)nn;
    for (uint32_t n = 0; n < N && !rc; n++)
        rc = rx_topo_add_vertex(t, RX_TOPO_NODE, 0, n / (uint32_t)(a * p), NULL, NULL);
    for (uint32_t r = 0; r < nr && !rc; r++)
        rc = rx_topo_add_vertex(t, RX_TOPO_SWITCH, 1, r / (uint32_t)a, NULL, NULL);
    for (uint32_t n = 0; n < N && !rc; n++)
        rc = rx_topo_add_cable(t, n, N + n / (uint32_t)p, RX_LC_HOST, 1, 0, 0);
    for (uint32_t G = 0; G < (uint32_t)g && !rc; G++) {
        for (int i = 0; i < a && !rc; i++) {
            uint32_t ri = G * a + i;
            t->df.local[ri * a + i] = UINT32_MAX;
            for (int j = i + 1; j < a && !rc; j++) {
                uint32_t rj = G * a + j;
                t->df.local[ri * a + j] = t->nlinks;
                t->df.local[rj * a + i] = t->nlinks + 1;
                rc = rx_topo_add_cable(t, N + ri, N + rj, RX_LC_LOCAL, 1, 0, 0);
            }
        }
    }
    uint32_t first_global = t->nlinks;
    if (g > 1) {
        for (int G = 0; G < g && !rc; G++) {
            for (int q = 0; q < a * h && !rc; q++) {
                int T, qq;
                rx_df_target(arr, g, G, q, &T, &qq);
                if (T < G || qq >= a * h)
                    continue; /* added from the other side, or the partner port does not exist */
                uint32_t ra = (uint32_t)(G * a + q / h), rb = (uint32_t)(T * a + qq / h);
                rc = rx_topo_add_cable(t, N + ra, N + rb, RX_LC_GLOBAL, 1, 0, 0);
            }
        }
    }
    if (!rc)
        rc = rx_topo_finalize(t);
    /* group-pair index of the global links, for minimal and Valiant routing */
    uint32_t ng = t->nlinks - first_global;
    if (!rc && !(t->df.glinks = malloc((ng ? ng : 1) * sizeof *t->df.glinks)))
        rc = RX_ERR_NOMEM;
    if (!rc) {
        uint32_t *cnt = t->df.gidx;
        for (uint32_t i = first_global; i < t->nlinks; i++)
            cnt[t->v[t->l[i].src].group * g + t->v[t->l[i].dst].group + 1]++;
        for (size_t i = 1; i <= (size_t)g * g; i++)
            cnt[i] += cnt[i - 1];
        uint32_t *fill = calloc((size_t)g * g, sizeof *fill);
        if (!fill)
            rc = RX_ERR_NOMEM;
        for (uint32_t i = first_global; !rc && i < t->nlinks; i++) {
            size_t pair = (size_t)t->v[t->l[i].src].group * g + t->v[t->l[i].dst].group;
            t->df.glinks[cnt[pair] + fill[pair]++] = i;
        }
        free(fill);
        for (int s = 0; !rc && s < g; s++)
            for (int d = 0; d < g; d++)
                if (s != d && cnt[s * g + d + 1] == cnt[s * g + d]) {
                    rx_log_error("rdmx-topo: dragonfly groups %d and %d are not joined", s, d);
                    rc = RX_ERR_INVAL;
                }
    }
    if (rc) {
        rx_topo_free(t);
        return rc;
    }
    snprintf(t->desc, sizeof t->desc, "dragonfly:a=%d,p=%d,h=%d,g=%d,arrangement=%s", a, p, h, g,
             arr == RX_DF_ABSOLUTE ? "absolute" : "relative");
    *out = t;
    return RX_OK;
}
