/* SPDX-License-Identifier: MIT
 * Buffered sends: the message is copied into the buffer the program attached
 * and sent from there; the call completes at once. Space is first-fit in the
 * attached buffer, each message charged MPI_BSEND_OVERHEAD as the standard
 * tells programs to reserve. */
#include "mpi_impl.h"

#include <stdlib.h>
#include <string.h>

typedef struct rx_bseg {
    struct rx_bseg *next;
    size_t off, len;
    rx_req_t *req;
} rx_bseg_t;

static char *rx_bbuf;
static size_t rx_bsize;
static rx_bseg_t *rx_bsegs; /* sorted by offset */

static void rx_bsend_reclaim(void)
{
    for (rx_bseg_t **s = &rx_bsegs; *s;) {
        if ((*s)->req->complete) {
            rx_bseg_t *d = *s;
            *s = d->next;
            rx_req_release(d->req);
            free(d);
        } else {
            s = &(*s)->next;
        }
    }
}

/* First gap of len bytes; returns its offset or -1, and where to link. */
static long rx_bsend_fit(size_t len, rx_bseg_t ***link)
{
    size_t at = 0;
    rx_bseg_t **l = &rx_bsegs;
    for (rx_bseg_t *s = rx_bsegs; s; l = &s->next, s = s->next) {
        if (s->off - at >= len) {
            *link = l;
            return (long)at;
        }
        at = s->off + s->len;
    }
    if (rx_bsize - at >= len) {
        *link = l;
        return (long)at;
    }
    return -1;
}

int rx_bsend_start(const void *buf, size_t bytes, int dest, int tag, rx_comm_t *c,
                   rx_req_t **out, const char *fn)
{
    size_t need = (bytes + MPI_BSEND_OVERHEAD + 15) & ~(size_t)15;
    rx_bseg_t **link;
    rx_bsend_reclaim();
    long off = rx_bsend_fit(need, &link);
    if (off < 0) {
        rx_progress();
        rx_bsend_reclaim();
        off = rx_bsend_fit(need, &link);
    }
    if (off < 0)
        return rx_mpi_err(c, MPI_ERR_BUFFER, fn,
                          "attached buffer too small: %zu bytes needed, %zu attached%s", need,
                          rx_bsize, rx_bbuf ? "" : " (no buffer attached)");
    rx_bseg_t *s = malloc(sizeof *s);
    rx_req_t *r = rx_req_alloc(RX_REQ_SEND), *user = rx_req_alloc(RX_REQ_SEND);
    if (!s || !r || !user) {
        free(s);
        rx_req_release(r);
        rx_req_release(user);
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    char *copy = rx_bbuf + off;
    memcpy(copy, buf, bytes);
    rx_req_hold_comm(r, c);
    r->buf = copy;
    r->bytes = bytes;
    r->peer = dest;
    r->tag = tag;
    r->ctx = c->ctx;
    r->is_bsend = 1;
    int rc = rx_p2p_isend(r);
    if (rc != RX_OK) {
        free(s);
        rx_req_release(r);
        rx_req_release(user);
        return rx_mpi_err(c, rx_mpi_class_of(rc), fn, "%s", rx_status_string(rc));
    }
    s->off = (size_t)off;
    s->len = need;
    s->req = r;
    s->next = *link;
    *link = s;
    user->complete = 1;
    user->st_source = MPI_ANY_SOURCE;
    user->st_tag = MPI_ANY_TAG;
    *out = user;
    return MPI_SUCCESS;
}

static int rx_buffer_attach(void *buffer, MPI_Count size, const char *fn)
{
    RX_CHECK_INIT(fn);
    if (size < 0)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "negative size %lld", (long long)size);
    if (!buffer && size > 0)
        return rx_mpi_err(NULL, MPI_ERR_BUFFER, fn, "buffer is NULL");
    if (rx_bbuf)
        return rx_mpi_err(NULL, MPI_ERR_BUFFER, fn, "a buffer is already attached");
    rx_bbuf = buffer;
    rx_bsize = (size_t)size;
    return MPI_SUCCESS;
}

int PMPI_Buffer_attach(void *buffer, int size)
{
    return rx_buffer_attach(buffer, size, "MPI_Buffer_attach");
}
RX_ALIAS(Buffer_attach)

int PMPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
    return rx_buffer_attach(buffer, size, "MPI_Buffer_attach_c");
}
RX_ALIAS(Buffer_attach_c)

/* Blocks until every buffered message has left the buffer. A buffer
 * attached by MPI_Buffer_attach_c may be larger than an int: the int form
 * then reports MPI_ERR_COUNT and keeps it attached. */
static int rx_buffer_detach(void *buffer_addr, MPI_Count *size, MPI_Count max, const char *fn)
{
    RX_CHECK_INIT(fn);
    if (!buffer_addr || !size)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "NULL argument");
    if (rx_bsize > (size_t)max)
        return rx_mpi_err(NULL, MPI_ERR_COUNT, fn, "the attached buffer of %zu bytes is larger "
                          "than an int (MPI_Buffer_detach_c returns it)", rx_bsize);
    RX_WAIT_UNTIL(rx_bsend_idle());
    *(void **)buffer_addr = rx_bbuf;
    *size = (MPI_Count)rx_bsize;
    rx_bbuf = NULL;
    rx_bsize = 0;
    return MPI_SUCCESS;
}

int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    MPI_Count n;
    int rc = rx_buffer_detach(buffer_addr, size ? &n : NULL, INT32_MAX, "MPI_Buffer_detach");
    if (rc == MPI_SUCCESS)
        *size = (int)n;
    return rc;
}
RX_ALIAS(Buffer_detach)

int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
    return rx_buffer_detach(buffer_addr, size, INT64_MAX, "MPI_Buffer_detach_c");
}
RX_ALIAS(Buffer_detach_c)

int rx_bsend_idle(void)
{
    rx_bsend_reclaim();
    return rx_bsegs == NULL;
}

int rx_bsend_fini(void)
{
    RX_WAIT_UNTIL(rx_bsend_idle());
    return RX_OK;
}
