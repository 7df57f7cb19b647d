/* SPDX-License-Identifier: MIT
 * Fat-tree generators: extended generalized fat-trees XGFT(h; m1..mh; w1..wh) — the tuple SimGrid's
 * FAT_TREE cluster takes — and the k-ary n-tree and radix-k shortcuts built on it.
 *
 * A level-l element is labelled (D, U): D numbers the subtree it serves (digits d_{l+1..h}, radix m),
 * U which of the parallel copies it is (digits u_1..u_l, radix w). Its index in the level is
 * D * W[l] + U. The parent through up-port k of (D', U') at level l-1 is (D' / m_l, U' + W[l-1] * k);
 * the child through down-port c of (D, U) is (c + m_l * D, U mod W[l-1]). Ports of a level-l switch
 * are its m_l down-ports in child order, then its w_{l+1} up-ports; routing indexes them directly. */
#include "topo.h"
#include "util/log.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

int rx_topo_gen_xgft(const rx_fattree_params_t *pin, rx_topo_t **out)
{
    rx_fattree_params_t p = *pin;
    int h = p.levels;
    if (h < 1 || h > RX_FT_MAXLEVEL) {
        rx_log_error("rdmx-topo: fat-tree levels must be 1..%d", RX_FT_MAXLEVEL);
        return RX_ERR_INVAL;
    }
    p.M[0] = p.W[0] = 1;
    for (int l = 1; l <= h; l++) {
        if (p.down[l - 1] < 1 || p.up[l - 1] < 1 || p.par[l - 1] < 1) {
            rx_log_error("rdmx-topo: fat-tree port counts must be positive");
            return RX_ERR_INVAL;
        }
        p.M[l] = p.M[l - 1] * (uint64_t)p.down[l - 1];
        p.W[l] = p.W[l - 1] * (uint64_t)p.up[l - 1];
    }
    uint64_t total = 0;
    for (int l = 0; l <= h; l++) {
        p.nlev[l] = p.M[h] / p.M[l] * p.W[l];
        p.first[l] = total;
        total += p.nlev[l];
    }
    if (total > (1u << 26)) {
        rx_log_error("rdmx-topo: fat-tree too large (%llu vertices)", (unsigned long long)total);
        return RX_ERR_INVAL;
    }
    rx_topo_t *t;
    int rc = rx_topo_new(&t);
    if (rc)
        return rc;
    t->family = RX_TOPO_FATTREE;
    for (int l = 0; l <= h && !rc; l++)
        for (uint64_t i = 0; i < p.nlev[l] && !rc; i++)
            rc = rx_topo_add_vertex(t, l ? RX_TOPO_SWITCH : RX_TOPO_NODE, l, (uint32_t)i, NULL, NULL);
    for (int l = 1; l <= h && !rc; l++) {
        uint64_t m = (uint64_t)p.down[l - 1];
        int cls = l == 1 ? RX_LC_HOST : l - 1;
        for (uint64_t ci = 0; ci < p.nlev[l - 1] && !rc; ci++) {
            uint64_t D = ci / p.W[l - 1], U = ci % p.W[l - 1];
            for (uint64_t k = 0; k < (uint64_t)p.up[l - 1] && !rc; k++) {
                uint64_t pi = (D / m) * p.W[l] + U + p.W[l - 1] * k;
                rc = rx_topo_add_cable(t, (uint32_t)(p.first[l - 1] + ci), (uint32_t)(p.first[l] + pi), cls,
                                       p.par[l - 1], 0, 0);
            }
        }
    }
    if (!rc)
        rc = rx_topo_finalize(t);
    if (rc) {
        rx_topo_free(t);
        return rc;
    }
    t->ft = p;
    int n = snprintf(t->desc, sizeof t->desc, "xgft:%d;", h);
    for (int pass = 0; pass < 3; pass++) {
        const int *v = pass == 0 ? p.down : pass == 1 ? p.up : p.par;
        for (int l = 0; l < h && n < (int)sizeof t->desc; l++)
            n += snprintf(t->desc + n, sizeof t->desc - n, "%d%s", v[l], l + 1 < h ? "," : pass < 2 ? ";" : "");
    }
    *out = t;
    return RX_OK;
}

int rx_topo_gen_kary(int k, int n, rx_topo_t **out)
{
    if (k < 2 || n < 1 || n > RX_FT_MAXLEVEL) {
        rx_log_error("rdmx-topo: k-ary n-tree needs k >= 2 and 1 <= n <= %d", RX_FT_MAXLEVEL);
        return RX_ERR_INVAL;
    }
    rx_fattree_params_t p = {.levels = n};
    for (int l = 0; l < n; l++) {
        p.down[l] = k;
        p.up[l] = l ? k : 1;
        p.par[l] = 1;
    }
    int rc = rx_topo_gen_xgft(&p, out);
    if (!rc)
        snprintf((*out)->desc, sizeof (*out)->desc, "kary:%d,%d (%d-ary %d-tree)", k, n, k, n);
    return rc;
}

int rx_topo_gen_radix(int radix, int n, rx_topo_t **out)
{
    if (radix < 4 || radix % 2 || n < 1 || n > RX_FT_MAXLEVEL) {
        rx_log_error("rdmx-topo: radix fat-tree needs an even port count >= 4 and 1..%d levels", RX_FT_MAXLEVEL);
        return RX_ERR_INVAL;
    }
    /* every switch but the top spends half its ports down and half up; the top spends all down */
    rx_fattree_params_t p = {.levels = n};
    for (int l = 0; l < n; l++) {
        p.down[l] = l + 1 < n ? radix / 2 : radix;
        p.up[l] = l ? radix / 2 : 1;
        p.par[l] = 1;
    }
    int rc = rx_topo_gen_xgft(&p, out);
    if (!rc)
        snprintf((*out)->desc, sizeof (*out)->desc, "radix:%d,%d (%d-level fat-tree of %d-port switches)", radix, n,
                 n, radix);
    return rc;
}
