/* SPDX-License-Identifier: MIT
 * Barrier by dissemination: ceil(log2 p) rounds, any p. */
#include "coll.h"
#include "util/status.h"

int rx_coll_barrier(rx_comm_t *c)
{
    int p = c->size, me = c->rank, tag = rx_coll_tag(c);
    char s = 0, r;
    for (int d = 1; d < p; d <<= 1) {
        int rc = rx_coll_sendrecv(&s, 0, (me + d) % p, &r, 0, (me - d + p) % p, tag, c);
        if (rc != RX_OK)
            return rc;
    }
    return RX_OK;
}
