/* SPDX-License-Identifier: MIT
 * Slurm hostlist expressions: "tux[0-3,7],gpu[01-02]-ib,login" — comma-separated items, each with
 * any number of bracketed range lists; zero padding of a range's first bound is kept. */
#include "topo.h"
#include "util/status.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Expands prefix + item (which may hold further brackets). */
static int rx_hl_item(char *out, size_t olen, const char *item, int (*fn)(const char *, void *), void *arg)
{
    const char *lb = strchr(item, '[');
    if (!lb) {
        if (olen + strlen(item) >= 256)
            return RX_ERR_INVAL;
        strcpy(out + olen, item);
        return fn(out, arg);
    }
    const char *rb = strchr(lb, ']');
    if (!rb || rb == lb + 1 || (size_t)(lb - item) + olen >= 256)
        return RX_ERR_INVAL;
    memcpy(out + olen, item, (size_t)(lb - item));
    size_t base = olen + (size_t)(lb - item);
    const char *p = lb + 1;
    while (p < rb) {
        const char *q = p;
        while (q < rb && isdigit((unsigned char)*q))
            q++;
        if (q == p)
            return RX_ERR_INVAL;
        int width = (int)(q - p);
        long lo = strtol(p, NULL, 10), hi = lo;
        if (*q == '-') {
            const char *r = q + 1;
            while (r < rb && isdigit((unsigned char)*r))
                r++;
            if (r == q + 1)
                return RX_ERR_INVAL;
            hi = strtol(q + 1, NULL, 10);
            q = r;
        }
        if (hi < lo || hi - lo > 1000000 || (q < rb && *q != ','))
            return RX_ERR_INVAL;
        for (long v = lo; v <= hi; v++) {
            int n = snprintf(out + base, 256 - base, "%0*ld", width, v);
            if (n < 0 || base + (size_t)n >= 256)
                return RX_ERR_INVAL;
            int rc = rx_hl_item(out, base + (size_t)n, rb + 1, fn, arg);
            if (rc)
                return rc;
        }
        p = q < rb ? q + 1 : q;
    }
    return RX_OK;
}

int rx_hostlist_expand(const char *expr, int (*fn)(const char *name, void *arg), void *arg)
{
    char out[256];
    const char *p = expr;
    if (!*p)
        return RX_ERR_INVAL;
    /* one item may hold a bracketed list of thousands of numbers: it is copied whole */
    char *item = malloc(strlen(expr) + 1);
    if (!item)
        return RX_ERR_NOMEM;
    int rc = RX_OK;
    while (*p && !rc) {
        /* an item ends at a comma outside brackets */
        size_t n = 0;
        int depth = 0;
        while (p[n] && (depth || p[n] != ',') && depth >= 0) {
            if (p[n] == '[')
                depth++;
            else if (p[n] == ']')
                depth--;
            n++;
        }
        if (depth || n == 0) {
            rc = RX_ERR_INVAL;
            break;
        }
        memcpy(item, p, n);
        item[n] = 0;
        rc = rx_hl_item(out, 0, item, fn, arg);
        p += n;
        if (*p == ',')
            p++;
    }
    free(item);
    return rc;
}
