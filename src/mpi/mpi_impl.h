/* SPDX-License-Identifier: MIT
 * Shared by the MPI binding files: handle lookups, argument checks and error
 * reporting. Every public function is defined as PMPI_x (see RX_ALIAS). */
#ifndef RX_MPI_IMPL_H
#define RX_MPI_IMPL_H

#include "mpi.h"
#include "coll/coll.h"
#include "op/opobj.h"
#include "core/comm.h"
#include "core/handle.h"
#include "core/request.h"
#include "core/rt.h"
#include "dtype/dtype.h"
#include "p2p/p2p.h"
#include "util/cs.h"
#include "util/status.h"

/* Marks the end of a public function's definition. The PMPI_x written in
 * these files is compiled as the unlocked rx_nl_PMPI_x (mpi_cs_names.h, made
 * by scripts/gen-mpi-cs.py); the generated wrappers define PMPI_x and its
 * weak alias MPI_x, which gives tools the profiling interface. */
#define RX_ALIAS(name)

extern rx_htab_t rx_comm_table, rx_group_table, rx_errh_table;

static inline rx_comm_t *rx_comm_get(MPI_Comm h)
{
    rx_comm_t *c = (rx_comm_t *)rx_htab_get(&rx_comm_table, h);
    return c && !c->freed ? c : NULL; /* freed, still finishing operations */
}
static inline rx_group_t *rx_group_get(MPI_Group h) { return (rx_group_t *)rx_htab_get(&rx_group_table, h); }
static inline MPI_Comm rx_comm_handle(const rx_comm_t *c) { return RX_HANDLE(RX_KIND_COMM, c->handle); }
rx_comm_t *rx_comm_world(void);

/* Report an error: under MPI_ERRORS_ARE_FATAL print "MPI_X: message" and end
 * the job; otherwise call the handler and return the class. comm may be NULL
 * (errors not tied to a communicator go to MPI_COMM_WORLD's handler). */
int rx_mpi_err(rx_comm_t *comm, int cls, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Map an internal status to an MPI class. */
int rx_mpi_class_of(int status);
const char *rx_mpi_class_name(int cls);

/* Errors before MPI_Init or after MPI_Finalize. */
int rx_mpi_not_initialized(const char *fn);

#define RX_CHECK_INIT(fn)                                      \
    do {                                                       \
        if (__builtin_expect(!rx_rt.initialized || rx_rt.finalized, 0)) \
            return rx_mpi_not_initialized(fn);                 \
    } while (0)

/* Look up and validate a communicator handle into variable c. */
#define RX_GET_COMM(c, handle, fn)                                                  \
    rx_comm_t *c = rx_comm_get(handle);                                             \
    if (__builtin_expect(!c, 0))                                                    \
        return rx_mpi_err(NULL, MPI_ERR_COMM, fn, "invalid communicator%s",         \
                          (handle) == MPI_COMM_NULL ? " (MPI_COMM_NULL)" : "")

#define RX_GET_DTYPE(d, comm, handle, fn)                                          \
    rx_dtype_t *d = rx_dtype_get(handle);                                           \
    if (__builtin_expect(!d || !d->committed, 0))                                   \
        return rx_mpi_err(comm, MPI_ERR_TYPE, fn, "%s",                             \
                          (handle) == MPI_DATATYPE_NULL ? "datatype is MPI_DATATYPE_NULL" \
                          : !d ? "invalid datatype" : "datatype not committed")

#define RX_CHECK_COUNT(comm, count, fn) \
    if (__builtin_expect((count) < 0, 0)) \
        return rx_mpi_err(comm, MPI_ERR_COUNT, fn, "negative count %lld", (long long)(count))

/* The most bytes one call moves, and the most one buffer spans: 2^47
 * (128 TiB), the user address space of x86-64 and 48-bit arm64. A larger
 * count * size or count * extent describes no memory the process can have;
 * refusing it with MPI_ERR_COUNT keeps every product below it from wrapping
 * and no path tries to stage or allocate it. */
#define RX_MPI_MAX_BYTES ((uint64_t)1 << 47)

/* count elements of dt at buf (count >= 0 checked before): MPI_ERR_COUNT
 * when they exceed RX_MPI_MAX_BYTES, MPI_ERR_BUFFER for a NULL buffer that
 * has data, else MPI_SUCCESS. A NULL buffer is fine for a type whose data
 * starts elsewhere (absolute addresses from MPI_BOTTOM, which is NULL:
 * true_lb != 0). rx_mpi_check_data reports the error through c's handler. */
static inline int rx_mpi_data_class(const void *buf, uint64_t count, const rx_dtype_t *dt)
{
    uint64_t bytes, span, ext = dt->extent < 0 ? -(uint64_t)dt->extent : (uint64_t)dt->extent;
    if (__builtin_mul_overflow(count, (uint64_t)dt->size, &bytes) ||
        __builtin_mul_overflow(count, ext, &span) || bytes > RX_MPI_MAX_BYTES ||
        span > RX_MPI_MAX_BYTES || (count && (uint64_t)dt->true_extent > RX_MPI_MAX_BYTES))
        return MPI_ERR_COUNT;
    return !buf && bytes && dt->true_lb == 0 ? MPI_ERR_BUFFER : MPI_SUCCESS;
}
int rx_mpi_data_err(rx_comm_t *c, int cls, uint64_t count, const rx_dtype_t *dt, const char *fn);
static inline int rx_mpi_check_data(rx_comm_t *c, const void *buf, uint64_t count,
                                    const rx_dtype_t *dt, const char *fn)
{
    int cls = rx_mpi_data_class(buf, count, dt);
    return __builtin_expect(cls == MPI_SUCCESS, 1) ? cls : rx_mpi_data_err(c, cls, count, dt, fn);
}

#define RX_CHECK_BUF(comm, buf, count, dt, fn)                                       \
    do {                                                                             \
        int rx_cb_ = rx_mpi_check_data(comm, buf, (uint64_t)(count), dt, fn);        \
        if (__builtin_expect(rx_cb_ != MPI_SUCCESS, 0))                              \
            return rx_cb_;                                                           \
    } while (0)

int rx_mpi_tag_err(rx_comm_t *c, int tag, int any_ok, const char *fn);
int rx_mpi_rank_err(rx_comm_t *c, int rank, const char *fn);
/* MPI_SUCCESS for a tag or rank the call may name (any_ok: MPI_ANY_TAG or
 * MPI_ANY_SOURCE too), else the error through c's handler. Inline for the
 * point-to-point paths; the message is built out of line. */
static inline int rx_mpi_check_tag(rx_comm_t *c, int tag, int any_ok, const char *fn)
{
    if (__builtin_expect(tag >= 0 || (any_ok && tag == MPI_ANY_TAG), 1))
        return MPI_SUCCESS;
    return rx_mpi_tag_err(c, tag, any_ok, fn);
}
static inline int rx_mpi_check_rank(rx_comm_t *c, int rank, int any_ok, const char *fn)
{
    int n = c->remote ? c->remote->size : c->size; /* an intercommunicator names remote ranks */
    if (__builtin_expect((unsigned)rank < (unsigned)n || rank == MPI_PROC_NULL ||
                             (any_ok && rank == MPI_ANY_SOURCE),
                         1))
        return MPI_SUCCESS;
    return rx_mpi_rank_err(c, rank, fn);
}

/* Fill an MPI_Status from a completed request (status may be IGNORE). */
static inline void rx_mpi_status_from_req(MPI_Status *status, const rx_req_t *req)
{
    if (status == MPI_STATUS_IGNORE)
        return;
    status->MPI_SOURCE = req->st_source;
    status->MPI_TAG = req->st_tag;
    status->rx_cancelled = req->cancelled;
    status->rx_bytes = (long long)req->st_bytes;
}
void rx_mpi_status_empty(MPI_Status *status);

/* Unpack a completed receive that used a staging copy. */
void rx_mpi_recv_unpack(rx_req_t *r);
/* Waiting on one request handle; used by Wait and friends. */
int rx_mpi_req_finish(MPI_Request *handle, rx_req_t *r, MPI_Status *status);

/* Buffered sends (bsend.c) */
int rx_bsend_start(const void *buf, size_t bytes, int dest, int tag, rx_comm_t *c,
                   rx_req_t **out, const char *fn);
int rx_bsend_fini(void);
/* 1 when every buffered message has left the attached buffer. */
int rx_bsend_idle(void);

/* comm.c: the predefined communicators and communicator creation.
 * rx_comm_agree_ctx: collective over parent, a context id free at all members.
 * rx_comm_make: a new communicator over group g (reference taken) with that
 * id; inherits parent's error handler; stores the handle in *out. */
int rx_comm_agree_ctx(rx_comm_t *parent, int *id);
/* The agreement itself (comm_ctx.c): reduce ANDs words mask words over the
 * members; key orders concurrent agreements (parent context, then tag). */
typedef int (*rx_ctx_reduce_t)(uint32_t *mask, int words, void *arg);
int rx_ctx_agree(uint64_t key, rx_ctx_reduce_t reduce, void *arg, int *id);
int rx_comm_make(rx_comm_t *parent, rx_group_t *g, int id, MPI_Comm *out, const char *fn);
/* comm_create.c: a context id free at every member of g (a subgroup of parent),
 * agreed among those members only (MPI_Comm_create_group); tag keeps
 * concurrent agreements of different groups apart. */
int rx_group_agree_ctx(rx_comm_t *parent, rx_group_t *g, int tag, int *id);
void rx_attr_delete_all(rx_comm_t *c);
int rx_attr_copy_all(rx_comm_t *from, rx_comm_t *to);
int rx_group_register(rx_group_t *g);
int rx_comm_init_predefined(void);
/* Give back a freed communicator's resources (MPI_Comm_free, or its last
 * operation in flight). */
void rx_comm_reclaim_now(rx_comm_t *c);
void rx_comm_fini_all(void);
int rx_errh_init(void);
/* Counting a user error handler's users (errors.c): a communicator or window
 * takes it (attach) and lets go (detach); get_errhandler hands the
 * application one more handle (returns eh). Predefined handlers: no-ops. */
void rx_errh_attach(int eh);
void rx_errh_detach(int eh);
int rx_errh_handle_out(int eh);

#endif
