/* SPDX-License-Identifier: MIT
 * Gather and allgather: linear gather at the root; ring allgather. */
#include "coll.h"
#include "util/status.h"

#include <string.h>

int rx_coll_gather(const void *sbuf, size_t bytes, void *rbuf, int root, rx_comm_t *c)
{
    int tag = rx_coll_tag(c), rc = RX_OK;
    if (c->rank != root)
        return rx_coll_send(sbuf, bytes, root, tag, c);
    for (int r = 0; r < c->size && rc == RX_OK; r++) {
        char *dst = (char *)rbuf + (size_t)r * bytes;
        if (r == root) {
            if (sbuf)
                memmove(dst, sbuf, bytes);
        } else {
            rc = rx_coll_recv(dst, bytes, r, tag, c);
        }
    }
    return rc;
}

int rx_coll_allgather(const void *sbuf, size_t bytes, void *rbuf, rx_comm_t *c)
{
    int p = c->size, me = c->rank, tag = rx_coll_tag(c), rc = RX_OK;
    char *out = rbuf;
    if (sbuf)
        memmove(out + (size_t)me * bytes, sbuf, bytes);
    int right = (me + 1) % p, left = (me - 1 + p) % p;
    for (int k = 0; k < p - 1 && rc == RX_OK; k++) {
        int sblk = (me - k + p) % p, rblk = (me - k - 1 + p) % p;
        rc = rx_coll_sendrecv(out + (size_t)sblk * bytes, bytes, right,
                              out + (size_t)rblk * bytes, bytes, left, tag, c);
    }
    return rc;
}
