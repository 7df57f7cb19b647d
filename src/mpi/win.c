/* SPDX-License-Identifier: MIT
 * MPI windows: creation in its four flavors, release, attributes, names,
 * error handlers, and MPI_Alloc_mem / MPI_Free_mem. */
#include "win_impl.h"
#include "bigcount.h"
#include "attr_obj.h"
#include "util/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(MPI_WIN_SEPARATE == RX_WIN_SEPARATE && MPI_WIN_UNIFIED == RX_WIN_UNIFIED,
               "the memory models below the binding are the MPI constants");

rx_htab_t rx_win_table = {.kind = RX_KIND_WIN};

/* Window error handlers are error handler objects of the common table (so
 * MPI_Errhandler_free works on them); their functions are kept here since
 * they are called with a window handle. */
typedef struct rx_win_errh {
    MPI_Errhandler h;
    MPI_Win_errhandler_function *fn;
} rx_win_errh_t;
static rx_win_errh_t *rx_win_errhs;
static int rx_win_nerrh;

static MPI_Win_errhandler_function *rx_win_errh_fn(MPI_Errhandler h)
{
    for (int i = 0; i < rx_win_nerrh; i++)
        if (rx_win_errhs[i].h == h)
            return rx_win_errhs[i].fn;
    return NULL;
}

int rx_win_err(rx_win_t *w, int cls, const char *fn, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!w)
        return rx_mpi_err(NULL, cls, fn, "%s", msg);
    MPI_Win_errhandler_function *f = rx_win_errh_fn(w->errhandler);
    if (f && rx_htab_get_held(&rx_errh_table, w->errhandler)) {
        MPI_Win h = rx_win_handle(w);
        int code = cls;
        f(&h, &code, fn, msg);
        return cls;
    }
    if (w->errhandler == MPI_ERRORS_RETURN)
        return cls;
    /* the private communicator's handler is fatal: it prints and ends the job */
    w->comm->errhandler = MPI_ERRORS_ARE_FATAL;
    return rx_mpi_err(w->comm, cls, fn, "%s", msg);
}

/* disp_unit is an MPI_Aint in the _c forms; a window keeps an int one, so a
 * unit beyond INT_MAX is MPI_ERR_DISP (no element type is that large). */
static int rx_win_new(rx_comm_t *c, int flavor, void *base, MPI_Aint size, MPI_Aint disp_unit_a,
                      void *baseptr, MPI_Win *win, const char *fn)
{
    if (!win)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "win is NULL");
    if (c->remote)
        return rx_mpi_err(c, MPI_ERR_COMM, fn, "not valid on an intercommunicator");
    if (size < 0)
        return rx_mpi_err(c, MPI_ERR_SIZE, fn, "negative size %ld", (long)size);
    if (disp_unit_a <= 0 || disp_unit_a > INT32_MAX)
        return rx_mpi_err(c, MPI_ERR_DISP, fn, "displacement unit %ld is not in 1..INT_MAX",
                          (long)disp_unit_a);
    int disp_unit = (int)disp_unit_a;
    if (flavor == RX_WIN_FLAVOR_CREATE && size > 0 && !base)
        return rx_mpi_err(c, MPI_ERR_BASE, fn, "NULL base with size %ld", (long)size);
    if ((flavor == RX_WIN_FLAVOR_ALLOCATE || flavor == RX_WIN_FLAVOR_SHARED) && !baseptr)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "baseptr is NULL");
    if (flavor == RX_WIN_FLAVOR_SHARED && c->local_size != c->size)
        return rx_mpi_err(c, MPI_ERR_RMA_SHARED, fn,
                          "the communicator spans %s: shared memory needs every member on one "
                          "node (use MPI_Comm_split_type with MPI_COMM_TYPE_SHARED)",
                          "several nodes");
    int rc = rx_rma_am_init();
    if (rc != RX_OK)
        return rx_mpi_err(c, rx_mpi_class_of(rc), fn, "cannot start one-sided messaging");
    int id;
    MPI_Comm ch;
    if ((rc = rx_comm_agree_ctx(c, &id)) != RX_OK)
        return rx_mpi_err(c, rx_mpi_class_of(rc), fn, "no context id for the window");
    if ((rc = rx_comm_make(c, c->group, id, &ch, fn)) != MPI_SUCCESS)
        return rc;
    rx_comm_t *wc = rx_comm_get(ch);
    rx_errh_detach(wc->errhandler); /* the parent's, taken by rx_comm_make */
    wc->errhandler = MPI_ERRORS_ARE_FATAL;
    snprintf(wc->name, sizeof wc->name, "window of %.100s", c->name);
    rx_win_t *w = calloc(1, sizeof *w);
    if (!w) {
        PMPI_Comm_free(&ch);
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    w->comm_handle = ch;
    w->errhandler = MPI_ERRORS_ARE_FATAL;
    void *out = NULL;
    rc = rx_win_setup(w, wc, flavor, base, (size_t)size, disp_unit, &out);
    if (rc != RX_OK) {
        PMPI_Comm_free(&ch);
        free(w);
        int cls = rc == RX_ERR_NOMEM ? MPI_ERR_NO_MEM : rx_mpi_class_of(rc);
        return rx_mpi_err(c, cls, fn, "window creation failed: %s", rx_status_string(rc));
    }
    w->attr_size = (intptr_t)size;
    w->handle = rx_htab_add(&rx_win_table, w, 1);
    if (w->handle < 0) {
        rx_win_teardown(w);
        PMPI_Comm_free(&ch);
        free(w);
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of window handles");
    }
    if (baseptr)
        *(void **)baseptr = out;
    *win = rx_win_handle(w);
    return MPI_SUCCESS;
}

static int rx_win_make(int flavor, void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                       MPI_Comm comm, void *baseptr, MPI_Win *win, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    int rc = rx_win_info_arg(c, info, fn);
    if (rc == MPI_SUCCESS)
        rc = rx_win_new(c, flavor, base, size, disp_unit, baseptr, win, fn);
    return rc == MPI_SUCCESS ? rx_win_hints_init(*win, info, fn) : rc;
}

#define RX_WIN_CREATE_PARAMS(C, D, A) \
    (void *base, MPI_Aint size, D disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
RX_COUNT_FORMS(Win_create, RX_WIN_CREATE_PARAMS,
               return rx_win_make(RX_WIN_FLAVOR_CREATE, base, size, disp_unit, info, comm, NULL,
                                  win, fn);)
#define RX_WIN_ALLOCATE_PARAMS(C, D, A) \
    (MPI_Aint size, D disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
RX_COUNT_FORMS(Win_allocate, RX_WIN_ALLOCATE_PARAMS,
               return rx_win_make(RX_WIN_FLAVOR_ALLOCATE, NULL, size, disp_unit, info, comm,
                                  baseptr, win, fn);)
RX_COUNT_FORMS(Win_allocate_shared, RX_WIN_ALLOCATE_PARAMS,
               return rx_win_make(RX_WIN_FLAVOR_SHARED, NULL, size, disp_unit, info, comm,
                                  baseptr, win, fn);)

int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    RX_CHECK_INIT("MPI_Win_create_dynamic");
    RX_GET_COMM(c, comm, "MPI_Win_create_dynamic");
    int rc = rx_win_info_arg(c, info, "MPI_Win_create_dynamic");
    if (rc == MPI_SUCCESS)
        rc = rx_win_new(c, RX_WIN_FLAVOR_DYNAMIC, NULL, 0, 1, NULL, win, "MPI_Win_create_dynamic");
    return rc == MPI_SUCCESS ? rx_win_hints_init(*win, info, "MPI_Win_create_dynamic") : rc;
}
RX_ALIAS(Win_create_dynamic)

static int rx_shared_query(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
                           void *baseptr, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_WIN(w, win, fn);
    if (!size || !disp_unit || !baseptr)
        return rx_win_err(w, MPI_ERR_ARG, fn, "NULL argument");
    if (rank != MPI_PROC_NULL && (rank < 0 || rank >= w->size))
        return rx_win_err(w, MPI_ERR_RANK, fn, "invalid rank %d", rank);
    if (w->flavor != RX_WIN_FLAVOR_SHARED)
        return rx_win_err(w, MPI_ERR_RMA_FLAVOR, fn,
                          "the window was not made by MPI_Win_allocate_shared");
    size_t sz;
    void *b;
    int du;
    rx_win_shared_query(w, rank == MPI_PROC_NULL ? -1 : rank, &sz, &du, &b);
    *size = (MPI_Aint)sz;
    *disp_unit = du;
    /* a rank that gave no memory has no segment to point at */
    *(void **)baseptr = rank != MPI_PROC_NULL && sz == 0 ? NULL : b;
    return MPI_SUCCESS;
}

int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
{
    MPI_Aint du;
    int rc = rx_shared_query(win, rank, size, disp_unit ? &du : NULL, baseptr,
                             "MPI_Win_shared_query");
    if (rc == MPI_SUCCESS)
        *disp_unit = (int)du;
    return rc;
}
RX_ALIAS(Win_shared_query)

int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
                            void *baseptr)
{
    return rx_shared_query(win, rank, size, disp_unit, baseptr, "MPI_Win_shared_query_c");
}
RX_ALIAS(Win_shared_query_c)

int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    RX_CHECK_INIT("MPI_Win_attach");
    RX_GET_WIN(w, win, "MPI_Win_attach");
    if (w->flavor != RX_WIN_FLAVOR_DYNAMIC)
        return rx_win_err(w, MPI_ERR_RMA_FLAVOR, "MPI_Win_attach", "the window is not dynamic");
    if (size < 0)
        return rx_win_err(w, MPI_ERR_SIZE, "MPI_Win_attach", "negative size");
    if (!base && size > 0)
        return rx_win_err(w, MPI_ERR_BASE, "MPI_Win_attach", "NULL base");
    if (rx_win_attach(w, base, (size_t)size) != RX_OK)
        return rx_win_err(w, MPI_ERR_RMA_ATTACH, "MPI_Win_attach",
                          "out of memory for the list of attached regions");
    return MPI_SUCCESS;
}
RX_ALIAS(Win_attach)

int PMPI_Win_detach(MPI_Win win, const void *base)
{
    RX_CHECK_INIT("MPI_Win_detach");
    RX_GET_WIN(w, win, "MPI_Win_detach");
    if (w->flavor != RX_WIN_FLAVOR_DYNAMIC)
        return rx_win_err(w, MPI_ERR_RMA_FLAVOR, "MPI_Win_detach", "the window is not dynamic");
    if (rx_win_detach(w, base) != RX_OK)
        return rx_win_err(w, MPI_ERR_BASE, "MPI_Win_detach", "no region attached at %p", base);
    return MPI_SUCCESS;
}
RX_ALIAS(Win_detach)

int PMPI_Win_free(MPI_Win *win)
{
    RX_CHECK_INIT("MPI_Win_free");
    if (!win)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Win_free", "win is NULL");
    RX_GET_WIN(w, *win, "MPI_Win_free");
    if (w->lock_count || w->lock_all || w->start_open || w->post_open)
        return rx_win_err(w, MPI_ERR_RMA_SYNC, "MPI_Win_free",
                          "an epoch is still open (lock, lock_all, start or post)");
    /* attributes go first, while the window is still whole (MPI-4.1 12.2.5) */
    int arc = rx_obj_attr_delete_all(RX_OBJ_WIN, *win);
    int rc = rx_win_flush(w, -1);
    /* nobody may unmap while a peer still accesses this rank's memory */
    int brc = rx_coll_barrier(w->comm);
    rx_win_teardown(w);
    rx_htab_del(&rx_win_table, w->handle);
    rx_errh_detach(w->errhandler);
    MPI_Comm ch = w->comm_handle;
    PMPI_Comm_free(&ch);
    free(w);
    *win = MPI_WIN_NULL;
    if (arc != MPI_SUCCESS)
        return rx_mpi_err(NULL, arc, "MPI_Win_free", "a delete callback failed");
    if (rc != RX_OK || brc != RX_OK)
        return rx_mpi_err(NULL, MPI_ERR_OTHER, "MPI_Win_free", "%s",
                          rx_status_string(rc != RX_OK ? rc : brc));
    return MPI_SUCCESS;
}
RX_ALIAS(Win_free)

int PMPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
    RX_CHECK_INIT("MPI_Win_get_group");
    RX_GET_WIN(w, win, "MPI_Win_get_group");
    if (!group)
        return rx_win_err(w, MPI_ERR_ARG, "MPI_Win_get_group", "group is NULL");
    return PMPI_Comm_group(w->comm_handle, group);
}
RX_ALIAS(Win_get_group)

int PMPI_Win_get_attr(MPI_Win win, int keyval, void *attribute_val, int *flag)
{
    RX_CHECK_INIT("MPI_Win_get_attr");
    RX_GET_WIN(w, win, "MPI_Win_get_attr");
    if (!attribute_val || !flag)
        return rx_win_err(w, MPI_ERR_ARG, "MPI_Win_get_attr", "NULL argument");
    void *v;
    switch (keyval) {
    case MPI_WIN_BASE: v = w->base; break;
    case MPI_WIN_SIZE: v = &w->attr_size; break;
    case MPI_WIN_DISP_UNIT: v = &w->disp_unit; break;
    case MPI_WIN_CREATE_FLAVOR: v = &w->flavor; break;
    case MPI_WIN_MODEL: v = &w->model; break;
    default:
        if (RX_HANDLE_KIND(keyval) == RX_KIND_KEYVAL)
            return rx_win_user_attr(w, keyval, attribute_val, flag, "MPI_Win_get_attr");
        return rx_win_err(w, MPI_ERR_KEYVAL, "MPI_Win_get_attr", "invalid key %d", keyval);
    }
    *(void **)attribute_val = v;
    *flag = 1;
    return MPI_SUCCESS;
}
RX_ALIAS(Win_get_attr)

int PMPI_Win_set_name(MPI_Win win, const char *name)
{
    RX_CHECK_INIT("MPI_Win_set_name");
    RX_GET_WIN(w, win, "MPI_Win_set_name");
    if (!name)
        return rx_win_err(w, MPI_ERR_ARG, "MPI_Win_set_name", "name is NULL");
    snprintf(w->name, sizeof w->name, "%s", name);
    return MPI_SUCCESS;
}
RX_ALIAS(Win_set_name)

int PMPI_Win_get_name(MPI_Win win, char *name, int *resultlen)
{
    RX_CHECK_INIT("MPI_Win_get_name");
    RX_GET_WIN(w, win, "MPI_Win_get_name");
    if (!name || !resultlen)
        return rx_win_err(w, MPI_ERR_ARG, "MPI_Win_get_name", "NULL argument");
    *resultlen = snprintf(name, MPI_MAX_OBJECT_NAME, "%s", w->name);
    return MPI_SUCCESS;
}
RX_ALIAS(Win_get_name)

int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    RX_CHECK_INIT("MPI_Win_create_errhandler");
    if (!fn || !errhandler)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Win_create_errhandler", "NULL argument");
    rx_win_errh_t *n = realloc(rx_win_errhs, sizeof *n * (size_t)(rx_win_nerrh + 1));
    if (!n)
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, "MPI_Win_create_errhandler", "out of memory");
    rx_win_errhs = n;
    int rc = PMPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)(void *)fn, errhandler);
    if (rc != MPI_SUCCESS)
        return rc;
    n[rx_win_nerrh].h = *errhandler;
    n[rx_win_nerrh].fn = fn;
    rx_win_nerrh++;
    return MPI_SUCCESS;
}
RX_ALIAS(Win_create_errhandler)

int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    RX_CHECK_INIT("MPI_Win_set_errhandler");
    RX_GET_WIN(w, win, "MPI_Win_set_errhandler");
    if (!rx_htab_get(&rx_errh_table, errhandler))
        return rx_win_err(w, MPI_ERR_ARG, "MPI_Win_set_errhandler", "invalid error handler");
    rx_errh_attach(errhandler);
    rx_errh_detach(w->errhandler);
    w->errhandler = errhandler;
    return MPI_SUCCESS;
}
RX_ALIAS(Win_set_errhandler)

int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    RX_CHECK_INIT("MPI_Win_get_errhandler");
    RX_GET_WIN(w, win, "MPI_Win_get_errhandler");
    if (!errhandler)
        return rx_win_err(w, MPI_ERR_ARG, "MPI_Win_get_errhandler", "errhandler is NULL");
    *errhandler = rx_errh_handle_out(w->errhandler); /* a new handle to free */
    return MPI_SUCCESS;
}
RX_ALIAS(Win_get_errhandler)

int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
    RX_CHECK_INIT("MPI_Win_call_errhandler");
    RX_GET_WIN(w, win, "MPI_Win_call_errhandler");
    rx_win_err(w, errorcode, "MPI_Win_call_errhandler", "called by the program");
    return MPI_SUCCESS;
}
RX_ALIAS(Win_call_errhandler)

int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    RX_CHECK_INIT("MPI_Alloc_mem");
    int bad = rx_win_info_arg(NULL, info, "MPI_Alloc_mem"); /* checked; no hint applies */
    if (bad != MPI_SUCCESS)
        return bad;
    if (size < 0)
        return rx_mpi_err(NULL, MPI_ERR_SIZE, "MPI_Alloc_mem", "negative size %ld", (long)size);
    if (!baseptr)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Alloc_mem", "baseptr is NULL");
    void *p;
    int rc = rx_rma_mem_alloc((size_t)size, &p);
    if (rc != RX_OK)
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, "MPI_Alloc_mem", "cannot allocate %ld bytes",
                          (long)size);
    *(void **)baseptr = p;
    return MPI_SUCCESS;
}
RX_ALIAS(Alloc_mem)

int PMPI_Free_mem(void *base)
{
    RX_CHECK_INIT("MPI_Free_mem");
    if (rx_rma_mem_free(base) != RX_OK)
        return rx_mpi_err(NULL, MPI_ERR_BASE, "MPI_Free_mem",
                          "%p was not returned by MPI_Alloc_mem", base);
    return MPI_SUCCESS;
}
RX_ALIAS(Free_mem)
