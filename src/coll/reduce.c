/* SPDX-License-Identifier: MIT
 * Reduce along a binomial tree. Partial results always cover a contiguous
 * range of ranks and are combined lower range first, so non-commutative ops
 * get exactly the rank order the standard requires; for them the tree is
 * rooted at rank 0 and the result forwarded to root. */
#include "coll.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

int rx_coll_reduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                   const rx_opobj_t *op, int root, rx_comm_t *c)
{
    int p = c->size, tag = rx_coll_tag(c), rc = RX_OK;
    size_t bytes = count * (size_t)dt->extent;
    int tree_root = op->commute ? root : 0;
    int rel = (c->rank - tree_root + p) % p;
    char *acc = malloc(bytes ? bytes : 1), *tmp = malloc(bytes ? bytes : 1);
    if (!acc || !tmp) {
        free(acc);
        free(tmp);
        return RX_ERR_NOMEM;
    }
    memcpy(acc, sbuf, bytes);
    for (int mask = 1; mask < p; mask <<= 1) {
        if (rel & mask) {
            rc = rx_coll_send(acc, bytes, (rel - mask + tree_root) % p, tag, c);
            break;
        }
        if (rel + mask < p) {
            if ((rc = rx_coll_recv(tmp, bytes, (rel + mask + tree_root) % p, tag, c)) != RX_OK)
                break;
            /* acc holds ranks [rel, rel+mask), tmp the next range: acc op tmp */
            rx_opobj_apply(op, dt, acc, tmp, count);
            char *t = acc;
            acc = tmp;
            tmp = t;
        }
    }
    if (rc == RX_OK && tree_root != root) {
        if (c->rank == tree_root)
            rc = rx_coll_send(acc, bytes, root, tag, c);
        else if (c->rank == root)
            rc = rx_coll_recv(acc, bytes, tree_root, tag, c);
    }
    if (rc == RX_OK && c->rank == root)
        memcpy(rbuf, acc, bytes);
    free(acc);
    free(tmp);
    return rc;
}
