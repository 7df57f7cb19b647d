/* SPDX-License-Identifier: MIT
 * Broadcast along a binomial tree rooted at root. */
#include "coll.h"
#include "util/status.h"

int rx_coll_bcast(void *buf, size_t bytes, int root, rx_comm_t *c)
{
    int p = c->size, tag = rx_coll_tag(c);
    int rel = (c->rank - root + p) % p;
    int mask = 1, rc;
    while (mask < p) {
        if (rel & mask) {
            if ((rc = rx_coll_recv(buf, bytes, (rel - mask + root) % p, tag, c)) != RX_OK)
                return rc;
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (rel + mask < p &&
            (rc = rx_coll_send(buf, bytes, (rel + mask + root) % p, tag, c)) != RX_OK)
            return rc;
    }
    return RX_OK;
}
