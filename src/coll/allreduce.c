/* SPDX-License-Identifier: MIT
 * Allreduce by recursive doubling. With p not a power of two, the first
 * 2 * (p - p2) ranks fold pairwise first and get the result back at the end.
 * Each exchange combines the lower rank range first, so the result is the
 * rank-ordered reduction for non-commutative ops too. */
#include "coll.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

int rx_coll_allreduce(const void *sbuf, void *rbuf, size_t count, const rx_dtype_t *dt,
                      const rx_opobj_t *op, rx_comm_t *c)
{
    int p = c->size, me = c->rank, tag = rx_coll_tag(c), rc = RX_OK;
    size_t bytes = count * (size_t)dt->extent;
    if (sbuf != rbuf)
        memcpy(rbuf, sbuf, bytes);
    if (p == 1)
        return RX_OK;
    char *acc = rbuf, *tmp = malloc(bytes ? bytes : 1);
    if (!tmp)
        return RX_ERR_NOMEM;
    int p2 = 1;
    while (p2 * 2 <= p)
        p2 *= 2;
    int rem = p - p2, newrank;
    if (me < 2 * rem) {
        if (me % 2 == 0) {
            rc = rx_coll_send(acc, bytes, me + 1, tag, c);
            newrank = -1;
        } else {
            rc = rx_coll_recv(tmp, bytes, me - 1, tag, c);
            rx_opobj_apply(op, dt, tmp, acc, count);
            newrank = me / 2;
        }
    } else {
        newrank = me - rem;
    }
    for (int mask = 1; rc == RX_OK && newrank >= 0 && mask < p2; mask <<= 1) {
        int nd = newrank ^ mask;
        int dst = nd < rem ? nd * 2 + 1 : nd + rem;
        rc = rx_coll_sendrecv(acc, bytes, dst, tmp, bytes, dst, tag, c);
        if (rc != RX_OK)
            break;
        if (nd < newrank) {
            rx_opobj_apply(op, dt, tmp, acc, count);
        } else {
            rx_opobj_apply(op, dt, acc, tmp, count);
            char *t = acc;
            acc = tmp;
            tmp = t;
        }
    }
    if (rc == RX_OK && me < 2 * rem) {
        if (me % 2 == 0)
            rc = rx_coll_recv(acc, bytes, me + 1, tag, c);
        else
            rc = rx_coll_send(acc, bytes, me - 1, tag, c);
    }
    if (acc != rbuf) {
        memcpy(rbuf, acc, bytes);
        tmp = acc;
    }
    free(tmp);
    return rc;
}
