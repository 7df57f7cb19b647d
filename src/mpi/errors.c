/* SPDX-License-Identifier: MIT
 * Error classes, strings and error handlers. */
#include "mpi_impl.h"
#include "errors_user.h"
#include "boot/boot.h"
#include "util/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct rx_errh {
    int index;
    int predefined;
    MPI_Comm_errhandler_function *fn;
    int handles;  /* handles the application holds (create, get_errhandler) */
    int attached; /* communicators and windows using it */
} rx_errh_t;

rx_htab_t rx_errh_table = {.kind = RX_KIND_ERRHANDLER};
static rx_errh_t rx_errh_predef[4];

int rx_errh_init(void)
{
    for (int i = 1; i <= 3; i++) {
        rx_errh_predef[i].index = i;
        rx_errh_predef[i].predefined = 1;
        if (rx_htab_set(&rx_errh_table, i, &rx_errh_predef[i]) != RX_OK)
            return RX_ERR_NOMEM;
    }
    return RX_OK;
}

/* A user handler lives while the application holds a handle to it or an
 * object uses it; once no handle is held it is retired, so a freed handle is
 * refused even while communicators still call the handler. */
static void rx_errh_drop(rx_errh_t *h)
{
    if (h->handles > 0)
        return;
    if (h->attached > 0) {
        rx_htab_retire(&rx_errh_table, h->index);
        return;
    }
    rx_htab_del(&rx_errh_table, h->index);
    free(h);
}

static rx_errh_t *rx_errh_user(int eh)
{
    rx_errh_t *h = rx_htab_get_held(&rx_errh_table, eh);
    return h && !h->predefined ? h : NULL;
}

void rx_errh_attach(int eh)
{
    rx_errh_t *h = rx_errh_user(eh);
    if (h)
        h->attached++;
}

void rx_errh_detach(int eh)
{
    rx_errh_t *h = rx_errh_user(eh);
    if (h && --h->attached <= 0)
        rx_errh_drop(h);
}

int rx_errh_handle_out(int eh)
{
    rx_errh_t *h = rx_errh_user(eh);
    if (h && h->handles++ == 0)
        rx_htab_revive(&rx_errh_table, h->index);
    return eh;
}

static const char *const rx_class_names[] = {
    "MPI_SUCCESS", "MPI_ERR_BUFFER", "MPI_ERR_COUNT", "MPI_ERR_TYPE", "MPI_ERR_TAG",
    "MPI_ERR_COMM", "MPI_ERR_RANK", "MPI_ERR_REQUEST", "MPI_ERR_ROOT", "MPI_ERR_GROUP",
    "MPI_ERR_OP", "MPI_ERR_TOPOLOGY", "MPI_ERR_DIMS", "MPI_ERR_ARG", "MPI_ERR_UNKNOWN",
    "MPI_ERR_TRUNCATE", "MPI_ERR_OTHER", "MPI_ERR_INTERN", "MPI_ERR_IN_STATUS",
    "MPI_ERR_PENDING", "MPI_ERR_KEYVAL", "MPI_ERR_NO_MEM", "MPI_ERR_BASE", "MPI_ERR_INFO_KEY",
    "MPI_ERR_INFO_VALUE", "MPI_ERR_INFO_NOKEY", "MPI_ERR_SPAWN", "MPI_ERR_PORT",
    "MPI_ERR_SERVICE", "MPI_ERR_NAME", "MPI_ERR_WIN", "MPI_ERR_SIZE", "MPI_ERR_DISP",
    "MPI_ERR_INFO", "MPI_ERR_LOCKTYPE", "MPI_ERR_ASSERT", "MPI_ERR_RMA_CONFLICT",
    "MPI_ERR_RMA_SYNC", "MPI_ERR_FILE", "MPI_ERR_NOT_SAME", "MPI_ERR_AMODE",
    "MPI_ERR_UNSUPPORTED_DATAREP", "MPI_ERR_UNSUPPORTED_OPERATION", "MPI_ERR_NO_SUCH_FILE",
    "MPI_ERR_FILE_EXISTS", "MPI_ERR_BAD_FILE", "MPI_ERR_ACCESS", "MPI_ERR_NO_SPACE",
    "MPI_ERR_QUOTA", "MPI_ERR_READ_ONLY", "MPI_ERR_FILE_IN_USE", "MPI_ERR_DUP_DATAREP",
    "MPI_ERR_CONVERSION", "MPI_ERR_IO", "MPI_ERR_RMA_RANGE", "MPI_ERR_RMA_ATTACH",
    "MPI_ERR_RMA_SHARED", "MPI_ERR_RMA_FLAVOR", "MPI_ERR_SESSION", "MPI_ERR_PROC_ABORTED",
    "MPI_ERR_VALUE_TOO_LARGE",
};

static const char *const rx_class_texts[] = {
    "no error", "invalid buffer pointer", "invalid count argument", "invalid datatype",
    "invalid tag", "invalid communicator", "invalid rank", "invalid request", "invalid root",
    "invalid group", "invalid operation", "invalid topology", "invalid dimension argument",
    "invalid argument", "unknown error", "message truncated", "other error", "internal error",
    "error code is in status", "pending request", "invalid keyval", "out of memory",
    "invalid base address", "invalid info key", "invalid info value", "info key not defined",
    "spawn error", "invalid port", "invalid service name", "invalid name", "invalid window",
    "invalid size", "invalid displacement", "invalid info object", "invalid lock type",
    "invalid assert argument", "conflicting accesses to a window",
    "wrong synchronization of RMA calls", "invalid file handle", "collective arguments not identical",
    "invalid access mode", "unsupported data representation", "operation not supported",
    "file does not exist", "file exists", "invalid file name", "permission denied",
    "not enough space", "quota exceeded", "read-only file or file system", "file in use",
    "data representation already defined", "data conversion error", "I/O error",
    "target memory outside the window", "memory cannot be attached",
    "memory cannot be shared", "wrong window flavor", "invalid session",
    "a process aborted", "value too large for its output",
};

#define RX_NCLASSES ((int)(sizeof rx_class_names / sizeof rx_class_names[0]))

/* The return codes of the tool information interface (mpit.c), from 64. */
static const char *const rx_t_err_names[] = {
    "MPI_T_ERR_MEMORY", "MPI_T_ERR_NOT_INITIALIZED", "MPI_T_ERR_CANNOT_INIT",
    "MPI_T_ERR_INVALID_INDEX", "MPI_T_ERR_INVALID_ITEM", "MPI_T_ERR_INVALID_HANDLE",
    "MPI_T_ERR_OUT_OF_HANDLES", "MPI_T_ERR_OUT_OF_SESSIONS", "MPI_T_ERR_INVALID_SESSION",
    "MPI_T_ERR_CVAR_SET_NOT_NOW", "MPI_T_ERR_CVAR_SET_NEVER", "MPI_T_ERR_PVAR_NO_STARTSTOP",
    "MPI_T_ERR_PVAR_NO_WRITE", "MPI_T_ERR_PVAR_NO_ATOMIC", "MPI_T_ERR_INVALID_NAME",
    "MPI_T_ERR_INVALID", "MPI_T_ERR_NOT_ACCESSIBLE", "MPI_T_ERR_NOT_SUPPORTED",
};
#define RX_T_ERR_FIRST MPI_T_ERR_MEMORY
#define RX_T_ERR_COUNT ((int)(sizeof rx_t_err_names / sizeof rx_t_err_names[0]))

static int rx_is_t_err(int code)
{
    return code >= RX_T_ERR_FIRST && code < RX_T_ERR_FIRST + RX_T_ERR_COUNT;
}

const char *rx_mpi_class_name(int cls)
{
    return cls >= 0 && cls < RX_NCLASSES ? rx_class_names[cls] : "MPI_ERR_UNKNOWN";
}

int rx_mpi_class_of(int status)
{
    switch (status) {
    case RX_OK: return MPI_SUCCESS;
    case RX_ERR_NOMEM: return MPI_ERR_NO_MEM;
    case RX_ERR_INVAL: return MPI_ERR_ARG;
    case RX_ERR_TRUNCATE: return MPI_ERR_TRUNCATE;
    case RX_ERR_UNSUPPORTED: return MPI_ERR_UNSUPPORTED_OPERATION;
    case RX_ERR_INTERN: return MPI_ERR_INTERN;
    case RX_ERR_OVERFLOW: return MPI_ERR_COUNT;
    default: return MPI_ERR_OTHER;
    }
}

rx_comm_t *rx_comm_world(void) { return rx_comm_get(MPI_COMM_WORLD); }

int rx_mpi_err_handler(int eh, int object, int cls, const char *fn, const char *msg)
{
    rx_errh_t *h = rx_htab_get_held(&rx_errh_table, eh);
    if (h && !h->predefined && h->fn) {
        int code = cls;
        h->fn(&object, &code, fn, msg); /* the object's handle, whatever its kind */
        return cls;
    }
    if (eh == MPI_ERRORS_RETURN)
        return cls;
    rx_log_error("%s: %s (%s); ending the job (MPI_ERRORS_ARE_FATAL)", fn, msg,
                 rx_mpi_class_name(cls));
    fflush(stdout);
    char why[700];
    snprintf(why, sizeof why, "%s: %s", fn, msg);
    rx_boot_abort(cls == 0 ? 1 : cls, why);
    _exit(cls == 0 ? 1 : cls);
}

int rx_mpi_err(rx_comm_t *comm, int cls, const char *fn, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!comm)
        comm = rx_comm_world();
    return rx_mpi_err_handler(comm ? comm->errhandler : MPI_ERRORS_ARE_FATAL,
                              comm ? rx_comm_handle(comm) : MPI_COMM_NULL, cls, fn, msg);
}

int rx_mpi_not_initialized(const char *fn)
{
    fprintf(stderr, "rdmx: %s called %s; ending the process (MPI_ERR_OTHER)\n", fn,
            rx_rt.finalized ? "after MPI_Finalize" : "before MPI_Init");
    fflush(stderr);
    _exit(MPI_ERR_OTHER);
}

int PMPI_Error_class(int errorcode, int *errorclass)
{
    if (!errorclass)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Error_class", "errorclass is NULL");
    if (rx_err_user_class(errorcode, errorclass))
        return MPI_SUCCESS;
    if (errorcode < 0 || errorcode > MPI_ERR_LASTCODE)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Error_class", "invalid error code %d", errorcode);
    *errorclass =
        errorcode < RX_NCLASSES || rx_is_t_err(errorcode) ? errorcode : MPI_ERR_UNKNOWN;
    return MPI_SUCCESS;
}
RX_ALIAS(Error_class)

int PMPI_Error_string(int errorcode, char *string, int *resultlen)
{
    if (!string || !resultlen)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Error_string", "NULL argument");
    const char *user = rx_err_user_string(errorcode);
    if (user) {
        *resultlen = snprintf(string, MPI_MAX_ERROR_STRING, "%s", user);
        return MPI_SUCCESS;
    }
    if (errorcode < 0 || errorcode > MPI_ERR_LASTCODE)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Error_string", "invalid error code %d", errorcode);
    if (errorcode < RX_NCLASSES)
        *resultlen = snprintf(string, MPI_MAX_ERROR_STRING, "%s: %s", rx_class_names[errorcode],
                              rx_class_texts[errorcode]);
    else if (rx_is_t_err(errorcode))
        *resultlen = snprintf(string, MPI_MAX_ERROR_STRING, "%s: tool information interface",
                              rx_t_err_names[errorcode - RX_T_ERR_FIRST]);
    else
        *resultlen = snprintf(string, MPI_MAX_ERROR_STRING, "MPI error code %d", errorcode);
    return MPI_SUCCESS;
}
RX_ALIAS(Error_string)

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    RX_CHECK_INIT("MPI_Comm_set_errhandler");
    RX_GET_COMM(c, comm, "MPI_Comm_set_errhandler");
    if (!rx_htab_get(&rx_errh_table, errhandler))
        return rx_mpi_err(c, MPI_ERR_ARG, "MPI_Comm_set_errhandler", "invalid error handler");
    rx_errh_attach(errhandler);
    rx_errh_detach(c->errhandler);
    c->errhandler = errhandler;
    return MPI_SUCCESS;
}
RX_ALIAS(Comm_set_errhandler)

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    RX_CHECK_INIT("MPI_Comm_get_errhandler");
    RX_GET_COMM(c, comm, "MPI_Comm_get_errhandler");
    if (!errhandler)
        return rx_mpi_err(c, MPI_ERR_ARG, "MPI_Comm_get_errhandler", "errhandler is NULL");
    *errhandler = rx_errh_handle_out(c->errhandler); /* a new handle to free */
    return MPI_SUCCESS;
}
RX_ALIAS(Comm_get_errhandler)

int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    RX_CHECK_INIT("MPI_Comm_create_errhandler");
    if (!fn || !errhandler)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Comm_create_errhandler", "NULL argument");
    rx_errh_t *h = calloc(1, sizeof *h);
    if (!h)
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, "MPI_Comm_create_errhandler", "out of memory");
    h->fn = fn;
    h->handles = 1;
    h->index = rx_htab_add(&rx_errh_table, h, 4);
    if (h->index < 0) {
        free(h);
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, "MPI_Comm_create_errhandler", "out of handles");
    }
    *errhandler = RX_HANDLE(RX_KIND_ERRHANDLER, h->index);
    return MPI_SUCCESS;
}
RX_ALIAS(Comm_create_errhandler)

int PMPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    RX_CHECK_INIT("MPI_Errhandler_free");
    if (!errhandler)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Errhandler_free", "NULL argument");
    rx_errh_t *h = rx_htab_get(&rx_errh_table, *errhandler);
    if (!h)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Errhandler_free", "invalid error handler");
    if (!h->predefined) {
        h->handles--;
        rx_errh_drop(h); /* communicators using it keep it until they let go */
    }
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}
RX_ALIAS(Errhandler_free)

int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    RX_CHECK_INIT("MPI_Comm_call_errhandler");
    RX_GET_COMM(c, comm, "MPI_Comm_call_errhandler");
    rx_mpi_err(c, errorcode, "MPI_Comm_call_errhandler", "error code %d raised by the program",
               errorcode);
    return MPI_SUCCESS;
}
RX_ALIAS(Comm_call_errhandler)
