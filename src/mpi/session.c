/* SPDX-License-Identifier: MIT
 * Sessions (MPI-4.0 §11.3). The first MPI_Session_init starts the runtime
 * (or joins it when MPI_Init or shmem_init came first, env.c); the last
 * MPI_Session_finalize lets go of it, which stops it when neither the world
 * model nor OpenSHMEM holds it. The runtime cannot start twice in one
 * process: a session opened after it stopped fails with MPI_ERR_SESSION.
 * Two process sets exist, "mpi://WORLD" and "mpi://SELF"; their groups give
 * communicators through MPI_Comm_create_from_group, whose string tag keeps
 * concurrent creations over overlapping groups apart. A session may have a
 * buffer for the buffered sends of the communicators derived from it
 * (MPI-4.1 §3.6.1, bsend.h). */
#include "bigcount.h"
#include "bsend.h"
#include "env_share.h"
#include "errors_user.h"
#include "info_impl.h"
#include "inter_impl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define RX_KIND_SESSION 0x7c

typedef struct rx_session {
    int handle;
    int errhandler;
    int thread_level;
    rx_info_t *info;      /* the hints given to MPI_Session_init */
} rx_session_t;

static rx_htab_t rx_session_table = {.kind = RX_KIND_SESSION};
static int rx_sessions_open;

static const char *const rx_psets[] = {"mpi://WORLD", "mpi://SELF"};
enum { RX_NPSETS = 2 };

static rx_session_t *rx_session_get(MPI_Session h) { return rx_htab_get(&rx_session_table, h); }

/* An error of a call on session s (NULL: the session argument was bad;
 * MPI_ERRORS_RETURN then, as MPI-4.0 §9.3 has for calls without an object
 * before initialization, or the world's handler once it exists). */
static int rx_session_err(rx_session_t *s, int cls, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int rx_session_err(rx_session_t *s, int cls, const char *fn, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (s)
        return rx_mpi_err_handler(s->errhandler, RX_HANDLE(RX_KIND_SESSION, s->handle), cls, fn,
                                  msg);
    if (rx_comm_world())
        return rx_mpi_err(NULL, cls, fn, "%s", msg);
    return cls;
}

#define RX_GET_SESSION(s, handle, fn)                                                    \
    rx_session_t *s = rx_session_get(handle);                                            \
    if (!s)                                                                              \
        return rx_session_err(NULL, MPI_ERR_SESSION, fn, "invalid session%s",            \
                              (handle) == MPI_SESSION_NULL ? " (MPI_SESSION_NULL)" : "")

static const char *const rx_thread_names[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED",
                                              "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};

/* The thread level asked for by the "thread_level" hint (MPI-4.0 §11.3.1). */
static int rx_session_thread_wanted(const rx_info_t *info)
{
    const char *v = info ? rx_info_lookup(info, "thread_level") : NULL;
    for (int i = 0; v && i < 4; i++)
        if (!strcasecmp(v, rx_thread_names[i]))
            return i;
    return MPI_THREAD_SINGLE;
}

int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    const char *fn = "MPI_Session_init";
    if (!session)
        return rx_session_err(NULL, MPI_ERR_ARG, fn, "session is NULL");
    *session = MPI_SESSION_NULL;
    if (rx_rt.finalized)
        return rx_session_err(NULL, MPI_ERR_SESSION, fn, "the runtime was stopped (every "
                              "session finalized, or MPI_Finalize); rdmx cannot start it again");
    /* error handlers can only be looked up once their table exists: the
     * predefined ones are known before; info objects work before any
     * initialization (MPI_INFO_ENV is made by it) */
    int predefined_eh = errhandler == MPI_ERRORS_ARE_FATAL || errhandler == MPI_ERRORS_RETURN ||
                        errhandler == MPI_ERRORS_ABORT;
    if (!rx_rt.initialized && !predefined_eh)
        return rx_session_err(NULL, MPI_ERR_ARG, fn, "before any initialization only "
                              "predefined error handlers can be given");
    if (rx_rt.initialized && !rx_htab_get(&rx_errh_table, errhandler))
        return rx_session_err(NULL, MPI_ERR_ARG, fn, "invalid error handler");
    rx_info_t *given = NULL;
    if ((info != MPI_INFO_ENV || rx_rt.initialized) && info != MPI_INFO_NULL &&
        !(given = rx_info_get(info)))
        return rx_session_err(NULL, MPI_ERR_INFO, fn, "invalid info object");
    int wanted = rx_session_thread_wanted(given);
    rx_session_t *s = calloc(1, sizeof *s);
    if (!s)
        return rx_session_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    if (rx_sessions_open == 0 && !rx_env_holds(RX_ENV_SESSION))
        rx_env_start(RX_ENV_SESSION, wanted, NULL, fn);
    rx_sessions_open++;
    rx_info_t *in = NULL;
    rx_info_arg(NULL, info, &in, fn);
    s->info = rx_info_copy(in);
    s->errhandler = errhandler;
    s->thread_level = rx_rt.thread_level;
    s->handle = s->info ? rx_htab_add(&rx_session_table, s, 1) : -1;
    if (s->handle < 0) {
        rx_info_destroy(s->info);
        free(s);
        if (--rx_sessions_open == 0)
            rx_env_stop(RX_ENV_SESSION);
        return rx_session_err(NULL, MPI_ERR_NO_MEM, fn, "out of handles");
    }
    rx_errh_attach(errhandler);
    *session = RX_HANDLE(RX_KIND_SESSION, s->handle);
    return MPI_SUCCESS;
}
RX_ALIAS(Session_init)

int PMPI_Session_finalize(MPI_Session *session)
{
    const char *fn = "MPI_Session_finalize";
    if (!session)
        return rx_session_err(NULL, MPI_ERR_ARG, fn, "session is NULL");
    if (*session == MPI_SESSION_NULL && rx_sessions_open > 0)
        return rx_session_err(NULL, MPI_ERR_SESSION, fn, "invalid session (MPI_SESSION_NULL)");
    RX_GET_SESSION(s, *session, fn);
    rx_bbuf_session_gone(s->handle); /* its buffered messages leave first */
    rx_htab_del(&rx_session_table, s->handle);
    rx_errh_detach(s->errhandler);
    rx_info_destroy(s->info);
    free(s);
    *session = MPI_SESSION_NULL;
    if (--rx_sessions_open > 0)
        return MPI_SUCCESS;
    return rx_env_stop(RX_ENV_SESSION);
}
RX_ALIAS(Session_finalize)

int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names)
{
    const char *fn = "MPI_Session_get_num_psets";
    RX_GET_SESSION(s, session, fn);
    rx_info_t *unused;
    if (info != MPI_INFO_NULL && rx_info_arg(NULL, info, &unused, fn) != MPI_SUCCESS)
        return rx_session_err(s, MPI_ERR_INFO, fn, "invalid info");
    if (!npset_names)
        return rx_session_err(s, MPI_ERR_ARG, fn, "npset_names is NULL");
    *npset_names = RX_NPSETS;
    return MPI_SUCCESS;
}
RX_ALIAS(Session_get_num_psets)

int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len,
                              char *pset_name)
{
    const char *fn = "MPI_Session_get_nth_pset";
    RX_GET_SESSION(s, session, fn);
    (void)info;
    if (n < 0 || n >= RX_NPSETS)
        return rx_session_err(s, MPI_ERR_ARG, fn, "n = %d: there are %d process sets", n,
                              RX_NPSETS);
    if (!pset_len || (*pset_len > 0 && !pset_name))
        return rx_session_err(s, MPI_ERR_ARG, fn, "NULL argument");
    int len = (int)strlen(rx_psets[n]) + 1;
    /* *pset_len 0 asks for the length (MPI-4.0 §11.3.2), terminator included */
    if (*pset_len > 0)
        snprintf(pset_name, (size_t)*pset_len, "%s", rx_psets[n]);
    *pset_len = len;
    return MPI_SUCCESS;
}
RX_ALIAS(Session_get_nth_pset)

/* The index of a process set name, -1 if none. */
static int rx_pset_index(const char *name)
{
    for (int i = 0; i < RX_NPSETS; i++)
        if (!strcasecmp(name, rx_psets[i]))
            return i;
    return -1;
}

int PMPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info)
{
    const char *fn = "MPI_Session_get_pset_info";
    RX_GET_SESSION(s, session, fn);
    if (!pset_name || !info)
        return rx_session_err(s, MPI_ERR_ARG, fn, "NULL argument");
    int i = rx_pset_index(pset_name);
    if (i < 0)
        return rx_session_err(s, MPI_ERR_ARG, fn, "no process set '%.64s'", pset_name);
    rx_info_t *pi = rx_info_new();
    char size[16];
    snprintf(size, sizeof size, "%d", i == 0 ? rx_rt.size : 1);
    if (!pi || rx_info_put(pi, "mpi_size", size) != RX_OK) {
        rx_info_destroy(pi);
        return rx_session_err(s, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    return rx_info_publish(pi, info, fn);
}
RX_ALIAS(Session_get_pset_info)

int PMPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
{
    const char *fn = "MPI_Session_get_info";
    RX_GET_SESSION(s, session, fn);
    if (!info_used)
        return rx_session_err(s, MPI_ERR_ARG, fn, "info_used is NULL");
    rx_info_t *out = rx_info_copy(s->info);
    if (!out || rx_info_put(out, "thread_level", rx_thread_names[s->thread_level]) != RX_OK) {
        rx_info_destroy(out);
        return rx_session_err(s, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    return rx_info_publish(out, info_used, fn);
}
RX_ALIAS(Session_get_info)

int PMPI_Session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn,
                                   MPI_Errhandler *errhandler)
{
    /* a handler takes the object's handle first, whatever the kind */
    return PMPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)session_errhandler_fn,
                                       errhandler);
}
RX_ALIAS(Session_create_errhandler)

int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
    const char *fn = "MPI_Session_set_errhandler";
    RX_GET_SESSION(s, session, fn);
    if (!rx_htab_get(&rx_errh_table, errhandler))
        return rx_session_err(s, MPI_ERR_ARG, fn, "invalid error handler");
    rx_errh_attach(errhandler);
    rx_errh_detach(s->errhandler);
    s->errhandler = errhandler;
    return MPI_SUCCESS;
}
RX_ALIAS(Session_set_errhandler)

int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler)
{
    const char *fn = "MPI_Session_get_errhandler";
    RX_GET_SESSION(s, session, fn);
    if (!errhandler)
        return rx_session_err(s, MPI_ERR_ARG, fn, "errhandler is NULL");
    *errhandler = rx_errh_handle_out(s->errhandler); /* a new handle to free */
    return MPI_SUCCESS;
}
RX_ALIAS(Session_get_errhandler)

int PMPI_Session_call_errhandler(MPI_Session session, int errorcode)
{
    const char *fn = "MPI_Session_call_errhandler";
    RX_GET_SESSION(s, session, fn);
    rx_session_err(s, errorcode, fn, "error code %d raised by the program", errorcode);
    return MPI_SUCCESS;
}
RX_ALIAS(Session_call_errhandler)

int PMPI_Group_from_session_pset(MPI_Session session, const char *pset_name,
                                 MPI_Group *newgroup)
{
    const char *fn = "MPI_Group_from_session_pset";
    RX_GET_SESSION(s, session, fn);
    if (!pset_name || !newgroup)
        return rx_session_err(s, MPI_ERR_ARG, fn, "NULL argument");
    int i = rx_pset_index(pset_name);
    if (i < 0)
        return rx_session_err(s, MPI_ERR_ARG, fn, "no process set '%.64s'", pset_name);
    int rc = PMPI_Comm_group(i == 0 ? MPI_COMM_WORLD : MPI_COMM_SELF, newgroup);
    if (rc == MPI_SUCCESS)
        rx_bbuf_tie_group(rx_group_get(*newgroup), s->handle);
    return rc;
}
RX_ALIAS(Group_from_session_pset)

int PMPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info,
                                MPI_Errhandler errhandler, MPI_Comm *newcomm)
{
    const char *fn = "MPI_Comm_create_from_group";
    RX_CHECK_INIT(fn);
    if (!stringtag || !newcomm)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "stringtag or newcomm is NULL");
    if (!rx_group_get(group))
        return rx_mpi_err(NULL, MPI_ERR_GROUP, fn, "invalid group%s",
                          group == MPI_GROUP_NULL ? " (MPI_GROUP_NULL)" : "");
    rx_info_t *unused;
    int rc = rx_info_arg(NULL, info, &unused, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (errhandler != MPI_ERRHANDLER_NULL && !rx_htab_get(&rx_errh_table, errhandler))
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "invalid error handler");
    /* every process set is within the world: the communicator comes from
     * it, the string's tag telling concurrent creations apart */
    rc = PMPI_Comm_create_group(MPI_COMM_WORLD, group, rx_string_tag(stringtag), newcomm);
    if (rc != MPI_SUCCESS || *newcomm == MPI_COMM_NULL)
        return rc;
    rx_bbuf_tie_comm_to_group(rx_comm_get(*newcomm), rx_group_get(group));
    if (errhandler != MPI_ERRHANDLER_NULL)
        rc = PMPI_Comm_set_errhandler(*newcomm, errhandler);
    if (rc == MPI_SUCCESS && info != MPI_INFO_NULL)
        rc = PMPI_Comm_set_info(*newcomm, info);
    return rc;
}
RX_ALIAS(Comm_create_from_group)

/* ---- the session's buffer for buffered sends (MPI-4.1 §3.6.1) ---------------- */

#define RX_SESSION_BBUF_ERR(s, cls, fn, why) \
    ((cls) == MPI_SUCCESS ? (cls) : rx_session_err(s, cls, fn, "%s", why))

#define RX_SESSION_ATTACH_PARAMS(C, D, A) (MPI_Session session, void *buffer, C size)
RX_COUNT_FORMS(Session_attach_buffer, RX_SESSION_ATTACH_PARAMS, {
    RX_GET_SESSION(s, session, fn);
    const char *why = "";
    int cls = rx_bbuf_attach(RX_BBUF_SESSION, (uintptr_t)s->handle, buffer, size, &why);
    return RX_SESSION_BBUF_ERR(s, cls, fn, why);
})

/* The int form reports MPI_ERR_COUNT for a buffer beyond INT_MAX bytes
 * (attached by the _c form) and keeps it attached. */
#define RX_SESSION_DETACH_PARAMS(C, D, A) (MPI_Session session, void *buffer_addr, C *size)
RX_COUNT_FORMS(Session_detach_buffer, RX_SESSION_DETACH_PARAMS, {
    RX_GET_SESSION(s, session, fn);
    const char *why = "";
    MPI_Count n;
    int cls = rx_bbuf_detach(RX_BBUF_SESSION, (uintptr_t)s->handle, buffer_addr,
                             size ? &n : NULL, sizeof *size == 4 ? INT32_MAX : INT64_MAX, &why);
    if (cls == MPI_SUCCESS)
        *size = n;
    return RX_SESSION_BBUF_ERR(s, cls, fn, why);
})

int PMPI_Session_flush_buffer(MPI_Session session)
{
    RX_GET_SESSION(s, session, "MPI_Session_flush_buffer");
    rx_bbuf_flush(RX_BBUF_SESSION, (uintptr_t)s->handle);
    return MPI_SUCCESS;
}
RX_ALIAS(Session_flush_buffer)

int PMPI_Session_iflush_buffer(MPI_Session session, MPI_Request *request)
{
    const char *fn = "MPI_Session_iflush_buffer";
    RX_GET_SESSION(s, session, fn);
    if (!request)
        return rx_session_err(s, MPI_ERR_ARG, fn, "request is NULL");
    /* errors of the request go to the world's handler: it has no communicator */
    return rx_watch_flush(RX_BBUF_SESSION, (uintptr_t)s->handle, NULL, request, fn);
}
RX_ALIAS(Session_iflush_buffer)
