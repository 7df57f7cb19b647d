/* SPDX-License-Identifier: MIT
 * Buffered sends (bsend.h): the message is copied into a buffer and sent
 * from there; the call completes at once. In memory the program attached,
 * space is first-fit, each message charged MPI_BSEND_OVERHEAD as the
 * standard tells programs to reserve; an MPI_BUFFER_AUTOMATIC buffer
 * allocates each message's copy. Attached buffers are kept in one list
 * whatever their owner, so that completed messages are reclaimed, and
 * MPI_Finalize drains them, in one place. */
#include "bsend.h"

#include <stdlib.h>
#include <string.h>

typedef struct rx_bseg {
    struct rx_bseg *next;
    size_t off, len;
    void *heap; /* the copy of an automatic buffer's message */
    rx_req_t *req;
} rx_bseg_t;

typedef struct rx_bbuf {
    struct rx_bbuf *next;
    int kind;        /* rx_bbuf_kind; -1: its owner went, freed when idle */
    uintptr_t id;
    char *base;      /* NULL for an automatic buffer */
    size_t size;
    int automatic;
    rx_bseg_t *segs; /* sorted by offset */
} rx_bbuf_t;

enum { RX_BBUF_ORPHAN = -1 };

static rx_bbuf_t *rx_bbufs;

static rx_bbuf_t *rx_bbuf_find(int kind, uintptr_t id)
{
    for (rx_bbuf_t *b = rx_bbufs; b; b = b->next)
        if (b->kind == kind && b->id == id)
            return b;
    return NULL;
}

static void rx_bbuf_unlink_free(rx_bbuf_t *b)
{
    for (rx_bbuf_t **p = &rx_bbufs; *p; p = &(*p)->next)
        if (*p == b) {
            *p = b->next;
            free(b);
            return;
        }
}

/* Releasing a message's request may reclaim a freed communicator, which
 * orphans that communicator's buffer (rx_bbuf_comm_gone): the list is only
 * changed once a pass is over. */
static int rx_bbuf_in_pass;

static void rx_bbuf_sweep_orphans(void)
{
    for (rx_bbuf_t **p = &rx_bbufs; *p;) {
        rx_bbuf_t *b = *p;
        if (b->kind == RX_BBUF_ORPHAN && !b->segs) {
            *p = b->next;
            free(b);
        } else {
            p = &b->next;
        }
    }
}

static void rx_bbuf_reclaim(rx_bbuf_t *b)
{
    rx_bbuf_in_pass++;
    for (rx_bseg_t **s = &b->segs; *s;) {
        if ((*s)->req->complete) {
            rx_bseg_t *d = *s;
            *s = d->next;
            rx_req_release(d->req);
            free(d->heap);
            free(d);
        } else {
            s = &(*s)->next;
        }
    }
    if (--rx_bbuf_in_pass == 0)
        rx_bbuf_sweep_orphans();
}

/* Offset of the first gap of len bytes, or -1. */
static long rx_bbuf_fit(const rx_bbuf_t *b, size_t len)
{
    size_t at = 0;
    for (const rx_bseg_t *s = b->segs; s; s = s->next) {
        if (s->off - at >= len)
            return (long)at;
        at = s->off + s->len;
    }
    return b->size - at >= len ? (long)at : -1;
}

/* Where a buffered send on c copies its message (MPI-4.1 §3.6.1). */
static rx_bbuf_t *rx_bbuf_for(rx_comm_t *c);

/* Space for a message of `bytes` in b: a segment (not linked yet) and its
 * copy area, or NULL (no space left, or no memory for an automatic copy). */
static rx_bseg_t *rx_bbuf_take(rx_bbuf_t *b, size_t bytes, char **copy)
{
    rx_bseg_t *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (b->automatic) {
        if (!(s->heap = malloc(bytes ? bytes : 1))) {
            free(s);
            return NULL;
        }
        *copy = s->heap;
        return s;
    }
    /* exactly what the standard tells programs to reserve, no rounding: a
     * buffer of the sum of count + MPI_BSEND_OVERHEAD over the messages
     * holds them all (the segment records live outside it) */
    size_t need = bytes + MPI_BSEND_OVERHEAD;
    rx_bbuf_reclaim(b);
    long off = rx_bbuf_fit(b, need);
    if (off < 0) {
        rx_progress();
        rx_bbuf_reclaim(b);
        off = rx_bbuf_fit(b, need);
    }
    if (off < 0) {
        free(s);
        return NULL;
    }
    s->off = (size_t)off;
    s->len = need;
    *copy = b->base + off;
    return s;
}

/* Link s in offset order. Only once its send is posted: posting may run
 * progress hooks (an iflush's) that reclaim b's segments. */
static void rx_bbuf_link(rx_bbuf_t *b, rx_bseg_t *s)
{
    rx_bseg_t **l = &b->segs;
    while (*l && (*l)->off < s->off)
        l = &(*l)->next;
    s->next = *l;
    *l = s;
}

int rx_bsend_start(const void *buf, size_t bytes, int dest, int tag, rx_comm_t *c,
                   rx_req_t **out, const char *fn)
{
    rx_bbuf_t *b = rx_bbuf_for(c);
    if (!b)
        return rx_mpi_err(c, MPI_ERR_BUFFER, fn, "no buffer attached (to the communicator, its "
                          "session or the process) for a buffered send");
    char *copy;
    rx_bseg_t *s = rx_bbuf_take(b, bytes, &copy);
    if (!s && b->automatic)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory for a %zu-byte copy", bytes);
    if (!s)
        return rx_mpi_err(c, MPI_ERR_BUFFER, fn, "attached buffer too small: %zu bytes needed "
                          "(with MPI_BSEND_OVERHEAD), %zu attached, the rest in use",
                          bytes + MPI_BSEND_OVERHEAD, b->size);
    rx_req_t *r = rx_req_alloc(RX_REQ_SEND), *user = rx_req_alloc(RX_REQ_SEND);
    if (!r || !user) {
        free(s->heap);
        free(s);
        rx_req_release(r);
        rx_req_release(user);
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    }
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
        free(s->heap);
        free(s);
        rx_req_release(r);
        rx_req_release(user);
        return rx_mpi_err(c, rx_mpi_class_of(rc), fn, "%s", rx_status_string(rc));
    }
    s->req = r;
    rx_bbuf_link(b, s);
    user->complete = 1;
    user->st_source = MPI_ANY_SOURCE;
    user->st_tag = MPI_ANY_TAG;
    *out = user;
    return MPI_SUCCESS;
}

int rx_bbuf_attach(int kind, uintptr_t id, void *buffer, MPI_Count size, const char **why)
{
    int automatic = buffer == MPI_BUFFER_AUTOMATIC; /* its size is ignored */
    if (!automatic && size < 0)
        return *why = "negative size", MPI_ERR_ARG;
    if (!automatic && !buffer && size > 0)
        return *why = "buffer is NULL", MPI_ERR_BUFFER;
    if (rx_bbuf_find(kind, id))
        return *why = "a buffer is already attached", MPI_ERR_BUFFER;
    rx_bbuf_t *b = calloc(1, sizeof *b);
    if (!b)
        return *why = "out of memory", MPI_ERR_NO_MEM;
    b->kind = kind;
    b->id = id;
    b->automatic = automatic;
    b->base = automatic ? NULL : buffer;
    b->size = automatic ? 0 : (size_t)size;
    b->next = rx_bbufs;
    rx_bbufs = b;
    return MPI_SUCCESS;
}

int rx_bbuf_idle(int kind, uintptr_t id)
{
    rx_bbuf_t *b = rx_bbuf_find(kind, id);
    if (!b)
        return 1;
    rx_bbuf_reclaim(b);
    return b->segs == NULL;
}

void rx_bbuf_flush(int kind, uintptr_t id)
{
    RX_WAIT_UNTIL(rx_bbuf_idle(kind, id));
}

int rx_bbuf_detach(int kind, uintptr_t id, void *buffer_addr, MPI_Count *size, MPI_Count max,
                   const char **why)
{
    if (!buffer_addr || !size)
        return *why = "NULL argument", MPI_ERR_ARG;
    rx_bbuf_t *b = rx_bbuf_find(kind, id);
    if (!b) {
        *(void **)buffer_addr = NULL;
        *size = 0;
        return MPI_SUCCESS;
    }
    if (b->size > (size_t)max)
        return *why = "the attached buffer is larger than an int (the _c form returns it)",
               MPI_ERR_COUNT;
    rx_bbuf_flush(kind, id);
    *(void **)buffer_addr = b->automatic ? MPI_BUFFER_AUTOMATIC : b->base;
    *size = (MPI_Count)b->size;
    rx_bbuf_unlink_free(b);
    return MPI_SUCCESS;
}

/* ---- the process buffer ------------------------------------------------------ */

static int rx_buffer_attach(void *buffer, MPI_Count size, const char *fn)
{
    RX_CHECK_INIT(fn);
    const char *why;
    int cls = rx_bbuf_attach(RX_BBUF_PROCESS, 0, buffer, size, &why);
    return cls == MPI_SUCCESS ? cls : rx_mpi_err(NULL, cls, fn, "%s", why);
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

static int rx_buffer_detach(void *buffer_addr, MPI_Count *size, MPI_Count max, const char *fn)
{
    RX_CHECK_INIT(fn);
    const char *why;
    int cls = rx_bbuf_detach(RX_BBUF_PROCESS, 0, buffer_addr, size, max, &why);
    return cls == MPI_SUCCESS ? cls : rx_mpi_err(NULL, cls, fn, "%s", why);
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

/* MPI-4.1: the process buffer only; the communicators' and sessions' have
 * their own flush calls. */
int PMPI_Buffer_flush(void)
{
    RX_CHECK_INIT("MPI_Buffer_flush");
    rx_bbuf_flush(RX_BBUF_PROCESS, 0);
    return MPI_SUCCESS;
}
RX_ALIAS(Buffer_flush)

int PMPI_Buffer_iflush(MPI_Request *request)
{
    const char *fn = "MPI_Buffer_iflush";
    RX_CHECK_INIT(fn);
    if (!request)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "request is NULL");
    return rx_watch_flush(RX_BBUF_PROCESS, 0, NULL, request, fn);
}
RX_ALIAS(Buffer_iflush)

/* ---- ties of communicators to sessions --------------------------------------- */

typedef struct rx_btie {
    struct rx_btie *next;
    const void *obj; /* an rx_group_t (held) or an rx_comm_t */
    int is_group, session;
} rx_btie_t;

static rx_btie_t *rx_bties;

static int rx_btie_session(const void *obj)
{
    for (rx_btie_t *t = rx_bties; t; t = t->next)
        if (t->obj == obj)
            return t->session;
    return 0;
}

/* 0 when not added (no session, or no memory: the communicator then uses
 * the process buffer). */
static int rx_btie_add(const void *obj, int is_group, int session)
{
    rx_btie_t *t = session ? malloc(sizeof *t) : NULL;
    if (!t)
        return 0;
    t->obj = obj;
    t->is_group = is_group;
    t->session = session;
    t->next = rx_bties;
    rx_bties = t;
    return 1;
}

/* Drop the ties of obj (NULL: every tie to session). */
static void rx_btie_drop(const void *obj, int session)
{
    for (rx_btie_t **p = &rx_bties; *p;) {
        rx_btie_t *t = *p;
        if (obj ? t->obj == obj : t->session == session) {
            *p = t->next;
            if (t->is_group)
                rx_group_unref((rx_group_t *)t->obj);
            free(t);
        } else {
            p = &t->next;
        }
    }
}

void rx_bbuf_tie_group(rx_group_t *g, int session)
{
    if (g && rx_btie_add(g, 1, session))
        rx_group_ref(g); /* held while tied: no other group can take its address */
}

void rx_bbuf_group_derived(const rx_group_t *from, rx_group_t *g)
{
    int s = from && rx_bties ? rx_btie_session(from) : 0;
    if (s)
        rx_bbuf_tie_group(g, s);
}

void rx_bbuf_tie_comm_to_group(rx_comm_t *c, rx_group_t *g)
{
    rx_btie_drop(c, 0);
    rx_btie_add(c, 0, rx_btie_session(g));
}

void rx_bbuf_comm_inherit(rx_comm_t *parent, rx_comm_t *child)
{
    rx_btie_add(child, 0, rx_btie_session(parent));
}

static rx_bbuf_t *rx_bbuf_for(rx_comm_t *c)
{
    rx_bbuf_t *b = rx_bbuf_find(RX_BBUF_COMM, (uintptr_t)c);
    int s = b ? 0 : rx_btie_session(c);
    if (!b && s)
        b = rx_bbuf_find(RX_BBUF_SESSION, (uintptr_t)s);
    return b ? b : rx_bbuf_find(RX_BBUF_PROCESS, 0);
}

void rx_bbuf_comm_gone(rx_comm_t *c)
{
    rx_btie_drop(c, 0);
    rx_bbuf_t *b = rx_bbuf_find(RX_BBUF_COMM, (uintptr_t)c);
    if (!b)
        return;
    b->kind = RX_BBUF_ORPHAN;
    if (!rx_bbuf_in_pass)
        rx_bbuf_sweep_orphans();
}

void rx_bbuf_session_gone(int session)
{
    rx_bbuf_flush(RX_BBUF_SESSION, (uintptr_t)session);
    rx_bbuf_t *b = rx_bbuf_find(RX_BBUF_SESSION, (uintptr_t)session);
    if (b)
        rx_bbuf_unlink_free(b);
    rx_btie_drop(NULL, session);
}

/* ---- every buffer at once ---------------------------------------------------- */

int rx_bsend_idle(void)
{
    int idle = 1;
    rx_bbuf_in_pass++;
    for (rx_bbuf_t *b = rx_bbufs; b; b = b->next) {
        rx_bbuf_reclaim(b);
        idle &= b->segs == NULL;
    }
    if (--rx_bbuf_in_pass == 0)
        rx_bbuf_sweep_orphans();
    return idle;
}

/* MPI_Finalize: the messages of every buffer leave and the process buffer
 * is detached. Sessions may outlive the world model: their buffers, and
 * those of communicators, stay until their owners go. */
int rx_bsend_fini(void)
{
    RX_WAIT_UNTIL(rx_bsend_idle());
    rx_bbuf_t *b = rx_bbuf_find(RX_BBUF_PROCESS, 0);
    if (b)
        rx_bbuf_unlink_free(b);
    return RX_OK;
}
