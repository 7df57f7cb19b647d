/* SPDX-License-Identifier: MIT
 * The MPI tool information interface (MPI-4.0 ch. 15, MPI_T_*).
 *
 * Control variables are the RDMX_* configuration variables of
 * src/util/config_table.h, in its order: name (RDMX_<NAME>), type (INT as
 * MPI_LONG_LONG, BOOL as MPI_INT, STR as MPI_CHAR with the value's length
 * plus its terminator as count), the help text as description, bound to no
 * object. Every one is read once at start-up and kept by the layer that
 * uses it, so none can change at run time: all have scope
 * MPI_T_SCOPE_CONSTANT and writes fail with MPI_T_ERR_CVAR_SET_NEVER.
 * Categories group them by prefix (SHM, OFI, P2P, RMA, COLL, and GENERAL for
 * the rest). rdmx keeps no counters for tools yet: there are no performance
 * variables and no event types (both legal), one event source (the
 * monotonic clock in nanoseconds), and no enumerations. The interface works
 * before MPI_Init and after MPI_Finalize; MPI_T_init_thread and
 * MPI_T_finalize nest. */
#include "mpi_impl.h"
#include "util/config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

typedef struct rx_cvar {
    const char *name; /* without the RDMX_ prefix */
    char type;        /* 'I', 'B' or 'S' */
    const char *def, *help;
    size_t offset;    /* in rx_config_t */
} rx_cvar_t;

#define RX_CVAR_TYPE_INT 'I'
#define RX_CVAR_TYPE_BOOL 'B'
#define RX_CVAR_TYPE_STR 'S'
static const rx_cvar_t rx_cvars[] = {
#define RX_CONFIG(name, type, def, help) \
    {#name, RX_CVAR_TYPE_##type, def, help, offsetof(rx_config_t, name)},
#include "util/config_table.h"
#undef RX_CONFIG
};
#define RX_NCVARS ((int)(sizeof rx_cvars / sizeof rx_cvars[0]))

static const struct {
    const char *name, *prefix, *desc;
} rx_cats[] = {
    {"SHM", "SHM_", "node shared-memory transport"},
    {"OFI", "OFI_", "network transport (libfabric)"},
    {"P2P", "P2P_", "point-to-point protocols"},
    {"RMA", "RMA_", "one-sided communication"},
    {"COLL", "COLL_", "collective algorithms and their selection"},
    {"GENERAL", NULL, "logging, waiting, tracing and launching"},
};
enum { RX_NCATS = sizeof rx_cats / sizeof rx_cats[0] };

static int rx_cvar_category(int i)
{
    for (int c = 0; c < RX_NCATS - 1; c++)
        if (!strncmp(rx_cvars[i].name, rx_cats[c].prefix, strlen(rx_cats[c].prefix)))
            return c;
    return RX_NCATS - 1;
}

static int rx_t_level; /* MPI_T_init_thread calls not yet finalized */
static int rx_t_thread = MPI_THREAD_SINGLE;

#define RX_T_CHECK_INIT()                   \
    do {                                    \
        if (rx_t_level <= 0)                \
            return MPI_T_ERR_NOT_INITIALIZED; \
    } while (0)

/* A string output (MPI-4.0 §15.3.3): *len 0 or str NULL asks for the length
 * (terminator included); otherwise at most *len - 1 characters and the
 * terminator are written and *len becomes what was written. */
static void rx_t_string(const char *s, char *str, int *len)
{
    if (!len)
        return;
    int need = (int)strlen(s) + 1;
    if (!str || *len <= 0) {
        *len = need;
        return;
    }
    int n = need < *len ? need : *len;
    memcpy(str, s, (size_t)n - 1);
    str[n - 1] = '\0';
    *len = n;
}

int PMPI_T_init_thread(int required, int *provided)
{
    if (!provided)
        return MPI_ERR_ARG;
    if (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE)
        return MPI_ERR_ARG;
    /* no state of this interface changes after start-up */
    if (rx_t_level++ == 0)
        rx_t_thread = required;
    *provided = rx_t_thread;
    return MPI_SUCCESS;
}
RX_ALIAS(T_init_thread)

int PMPI_T_finalize(void)
{
    RX_T_CHECK_INIT();
    rx_t_level--;
    return MPI_SUCCESS;
}
RX_ALIAS(T_finalize)

/* ---- control variables ---- */

int PMPI_T_cvar_get_num(int *num_cvar)
{
    RX_T_CHECK_INIT();
    if (!num_cvar)
        return MPI_ERR_ARG;
    *num_cvar = RX_NCVARS;
    return MPI_SUCCESS;
}
RX_ALIAS(T_cvar_get_num)

static MPI_Datatype rx_cvar_dtype(const rx_cvar_t *v)
{
    return v->type == RX_CVAR_TYPE_INT ? MPI_LONG_LONG
                                       : v->type == RX_CVAR_TYPE_BOOL ? MPI_INT : MPI_CHAR;
}

int PMPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len,
                         int *bind, int *scope)
{
    RX_T_CHECK_INIT();
    if (cvar_index < 0 || cvar_index >= RX_NCVARS)
        return MPI_T_ERR_INVALID_INDEX;
    const rx_cvar_t *v = &rx_cvars[cvar_index];
    char full[96];
    snprintf(full, sizeof full, "RDMX_%s", v->name);
    rx_t_string(full, name, name_len);
    if (verbosity)
        *verbosity = rx_cvar_category(cvar_index) == RX_NCATS - 1 ? MPI_T_VERBOSITY_USER_BASIC
                                                                 : MPI_T_VERBOSITY_TUNER_DETAIL;
    if (datatype)
        *datatype = rx_cvar_dtype(v);
    if (enumtype)
        *enumtype = MPI_T_ENUM_NULL;
    char text[1024];
    snprintf(text, sizeof text, "%s (default: \"%s\")", v->help, v->def);
    rx_t_string(text, desc, desc_len);
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    if (scope)
        *scope = MPI_T_SCOPE_CONSTANT;
    return MPI_SUCCESS;
}
RX_ALIAS(T_cvar_get_info)

int PMPI_T_cvar_get_index(const char *name, int *cvar_index)
{
    RX_T_CHECK_INIT();
    if (!name || !cvar_index)
        return MPI_ERR_ARG;
    if (!strncmp(name, "RDMX_", 5))
        for (int i = 0; i < RX_NCVARS; i++)
            if (!strcmp(name + 5, rx_cvars[i].name)) {
                *cvar_index = i;
                return MPI_SUCCESS;
            }
    return MPI_T_ERR_INVALID_NAME;
}
RX_ALIAS(T_cvar_get_index)

/* A handle is the variable's index plus one (0 is MPI_T_CVAR_HANDLE_NULL). */
static const rx_cvar_t *rx_cvar_of(MPI_T_cvar_handle h)
{
    intptr_t i = (intptr_t)h - 1;
    return i >= 0 && i < RX_NCVARS ? &rx_cvars[i] : NULL;
}

static const char *rx_cvar_str(const rx_cvar_t *v)
{
    const char *s = *(const char *const *)((const char *)rx_config() + v->offset);
    return s ? s : "";
}

int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle,
                             int *count)
{
    RX_T_CHECK_INIT();
    (void)obj_handle; /* bound to no object */
    if (cvar_index < 0 || cvar_index >= RX_NCVARS)
        return MPI_T_ERR_INVALID_INDEX;
    if (!handle || !count)
        return MPI_ERR_ARG;
    const rx_cvar_t *v = &rx_cvars[cvar_index];
    *count = v->type == RX_CVAR_TYPE_STR ? (int)strlen(rx_cvar_str(v)) + 1 : 1;
    *handle = (MPI_T_cvar_handle)(intptr_t)(cvar_index + 1);
    return MPI_SUCCESS;
}
RX_ALIAS(T_cvar_handle_alloc)

int PMPI_T_cvar_handle_free(MPI_T_cvar_handle *handle)
{
    RX_T_CHECK_INIT();
    if (!handle || !rx_cvar_of(*handle))
        return MPI_T_ERR_INVALID_HANDLE;
    *handle = MPI_T_CVAR_HANDLE_NULL;
    return MPI_SUCCESS;
}
RX_ALIAS(T_cvar_handle_free)

int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf)
{
    RX_T_CHECK_INIT();
    const rx_cvar_t *v = rx_cvar_of(handle);
    if (!v)
        return MPI_T_ERR_INVALID_HANDLE;
    if (!buf)
        return MPI_ERR_ARG;
    const char *cfg = (const char *)rx_config() + v->offset;
    if (v->type == RX_CVAR_TYPE_INT)
        memcpy(buf, cfg, sizeof(long long));
    else if (v->type == RX_CVAR_TYPE_BOOL)
        memcpy(buf, cfg, sizeof(int));
    else
        strcpy(buf, rx_cvar_str(v)); /* count (from handle_alloc) chars */
    return MPI_SUCCESS;
}
RX_ALIAS(T_cvar_read)

int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf)
{
    RX_T_CHECK_INIT();
    if (!rx_cvar_of(handle))
        return MPI_T_ERR_INVALID_HANDLE;
    (void)buf;
    return MPI_T_ERR_CVAR_SET_NEVER; /* read once at start-up, see the top */
}
RX_ALIAS(T_cvar_write)

/* ---- categories ---- */

int PMPI_T_category_get_num(int *num_cat)
{
    RX_T_CHECK_INIT();
    if (!num_cat)
        return MPI_ERR_ARG;
    *num_cat = RX_NCATS;
    return MPI_SUCCESS;
}
RX_ALIAS(T_category_get_num)

static int rx_cat_ncvars(int cat)
{
    int n = 0;
    for (int i = 0; i < RX_NCVARS; i++)
        n += rx_cvar_category(i) == cat;
    return n;
}

int PMPI_T_category_get_info(int cat_index, char *name, int *name_len, char *desc,
                             int *desc_len, int *num_cvars, int *num_pvars, int *num_categories)
{
    RX_T_CHECK_INIT();
    if (cat_index < 0 || cat_index >= RX_NCATS)
        return MPI_T_ERR_INVALID_INDEX;
    rx_t_string(rx_cats[cat_index].name, name, name_len);
    rx_t_string(rx_cats[cat_index].desc, desc, desc_len);
    if (num_cvars)
        *num_cvars = rx_cat_ncvars(cat_index);
    if (num_pvars)
        *num_pvars = 0;
    if (num_categories)
        *num_categories = 0;
    return MPI_SUCCESS;
}
RX_ALIAS(T_category_get_info)

int PMPI_T_category_get_num_events(int cat_index, int *num_events)
{
    RX_T_CHECK_INIT();
    if (cat_index < 0 || cat_index >= RX_NCATS)
        return MPI_T_ERR_INVALID_INDEX;
    if (!num_events)
        return MPI_ERR_ARG;
    *num_events = 0;
    return MPI_SUCCESS;
}
RX_ALIAS(T_category_get_num_events)

int PMPI_T_category_get_index(const char *name, int *cat_index)
{
    RX_T_CHECK_INIT();
    if (!name || !cat_index)
        return MPI_ERR_ARG;
    for (int c = 0; c < RX_NCATS; c++)
        if (!strcmp(name, rx_cats[c].name)) {
            *cat_index = c;
            return MPI_SUCCESS;
        }
    return MPI_T_ERR_INVALID_NAME;
}
RX_ALIAS(T_category_get_index)

int PMPI_T_category_get_cvars(int cat_index, int len, int indices[])
{
    RX_T_CHECK_INIT();
    if (cat_index < 0 || cat_index >= RX_NCATS)
        return MPI_T_ERR_INVALID_INDEX;
    if (len < 0 || (len > 0 && !indices))
        return MPI_ERR_ARG;
    for (int i = 0, n = 0; i < RX_NCVARS && n < len; i++)
        if (rx_cvar_category(i) == cat_index)
            indices[n++] = i;
    return MPI_SUCCESS;
}
RX_ALIAS(T_category_get_cvars)

/* No performance variables, events or subcategories: the lists are empty. */
static int rx_t_empty_list(int cat_index, int len, const int indices[])
{
    RX_T_CHECK_INIT();
    if (cat_index < 0 || cat_index >= RX_NCATS)
        return MPI_T_ERR_INVALID_INDEX;
    if (len < 0 || (len > 0 && !indices))
        return MPI_ERR_ARG;
    return MPI_SUCCESS;
}

int PMPI_T_category_get_pvars(int cat_index, int len, int indices[])
{
    return rx_t_empty_list(cat_index, len, indices);
}
RX_ALIAS(T_category_get_pvars)

int PMPI_T_category_get_categories(int cat_index, int len, int indices[])
{
    return rx_t_empty_list(cat_index, len, indices);
}
RX_ALIAS(T_category_get_categories)

int PMPI_T_category_get_events(int cat_index, int len, int indices[])
{
    return rx_t_empty_list(cat_index, len, indices);
}
RX_ALIAS(T_category_get_events)

int PMPI_T_category_changed(int *update_number)
{
    RX_T_CHECK_INIT();
    if (!update_number)
        return MPI_ERR_ARG;
    *update_number = 0; /* the categories never change */
    return MPI_SUCCESS;
}
RX_ALIAS(T_category_changed)

/* ---- enumerations: none ---- */

int PMPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len)
{
    RX_T_CHECK_INIT();
    (void)enumtype, (void)num, (void)name, (void)name_len;
    return MPI_T_ERR_INVALID_HANDLE;
}
RX_ALIAS(T_enum_get_info)

int PMPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value, char *name, int *name_len)
{
    RX_T_CHECK_INIT();
    (void)enumtype, (void)index, (void)value, (void)name, (void)name_len;
    return MPI_T_ERR_INVALID_HANDLE;
}
RX_ALIAS(T_enum_get_item)

/* ---- performance variables: none ---- */

int PMPI_T_pvar_get_num(int *num_pvar)
{
    RX_T_CHECK_INIT();
    if (!num_pvar)
        return MPI_ERR_ARG;
    *num_pvar = 0;
    return MPI_SUCCESS;
}
RX_ALIAS(T_pvar_get_num)

int PMPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity,
                         int *var_class, MPI_Datatype *datatype, MPI_T_enum *enumtype,
                         char *desc, int *desc_len, int *bind, int *readonly, int *continuous,
                         int *atomic)
{
    RX_T_CHECK_INIT();
    (void)pvar_index, (void)name, (void)name_len, (void)verbosity, (void)var_class;
    (void)datatype, (void)enumtype, (void)desc, (void)desc_len, (void)bind, (void)readonly;
    (void)continuous, (void)atomic;
    return MPI_T_ERR_INVALID_INDEX;
}
RX_ALIAS(T_pvar_get_info)

int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index)
{
    RX_T_CHECK_INIT();
    (void)var_class;
    if (!name || !pvar_index)
        return MPI_ERR_ARG;
    return MPI_T_ERR_INVALID_NAME;
}
RX_ALIAS(T_pvar_get_index)

/* Sessions of performance variables exist (a program opens one before
 * looking for variables); a handle is a counter's value, never reused. */
static int rx_pvar_sessions_made, rx_pvar_sessions_open;

int PMPI_T_pvar_session_create(MPI_T_pvar_session *session)
{
    RX_T_CHECK_INIT();
    if (!session)
        return MPI_ERR_ARG;
    *session = (MPI_T_pvar_session)(intptr_t)++rx_pvar_sessions_made;
    rx_pvar_sessions_open++;
    return MPI_SUCCESS;
}
RX_ALIAS(T_pvar_session_create)

int PMPI_T_pvar_session_free(MPI_T_pvar_session *session)
{
    RX_T_CHECK_INIT();
    if (!session || *session == MPI_T_PVAR_SESSION_NULL || rx_pvar_sessions_open <= 0 ||
        (intptr_t)*session > rx_pvar_sessions_made || (intptr_t)*session < 0)
        return MPI_T_ERR_INVALID_SESSION;
    rx_pvar_sessions_open--;
    *session = MPI_T_PVAR_SESSION_NULL;
    return MPI_SUCCESS;
}
RX_ALIAS(T_pvar_session_free)

int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void *obj_handle,
                             MPI_T_pvar_handle *handle, int *count)
{
    RX_T_CHECK_INIT();
    (void)session, (void)pvar_index, (void)obj_handle, (void)handle, (void)count;
    return MPI_T_ERR_INVALID_INDEX; /* there are no performance variables */
}
RX_ALIAS(T_pvar_handle_alloc)

/* Every handle call: no handle can exist. */
static int rx_pvar_no_handle(void)
{
    RX_T_CHECK_INIT();
    return MPI_T_ERR_INVALID_HANDLE;
}

int PMPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle)
{
    (void)session, (void)handle;
    return rx_pvar_no_handle();
}
RX_ALIAS(T_pvar_handle_free)

int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    (void)session, (void)handle;
    return rx_pvar_no_handle();
}
RX_ALIAS(T_pvar_start)

int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    (void)session, (void)handle;
    return rx_pvar_no_handle();
}
RX_ALIAS(T_pvar_stop)

int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    (void)session, (void)handle, (void)buf;
    return rx_pvar_no_handle();
}
RX_ALIAS(T_pvar_read)

int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf)
{
    (void)session, (void)handle, (void)buf;
    return rx_pvar_no_handle();
}
RX_ALIAS(T_pvar_write)

int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    (void)session, (void)handle;
    return rx_pvar_no_handle();
}
RX_ALIAS(T_pvar_reset)

int PMPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    (void)session, (void)handle, (void)buf;
    return rx_pvar_no_handle();
}
RX_ALIAS(T_pvar_readreset)

/* ---- events (MPI-4): no event types, one source ---- */

int PMPI_T_source_get_num(int *num_sources)
{
    RX_T_CHECK_INIT();
    if (!num_sources)
        return MPI_ERR_ARG;
    *num_sources = 1;
    return MPI_SUCCESS;
}
RX_ALIAS(T_source_get_num)

int PMPI_T_source_get_info(int source_index, char *name, int *name_len, char *desc,
                           int *desc_len, MPI_T_source_order *ordering, MPI_Count *ticks_per_second,
                           MPI_Count *max_ticks, MPI_Info *info)
{
    RX_T_CHECK_INIT();
    if (source_index != 0)
        return MPI_T_ERR_INVALID_INDEX;
    rx_t_string("rdmx", name, name_len);
    rx_t_string("the process's monotonic clock, in nanoseconds", desc, desc_len);
    if (ordering)
        *ordering = MPI_T_SOURCE_ORDERED;
    if (ticks_per_second)
        *ticks_per_second = 1000000000;
    if (max_ticks)
        *max_ticks = INT64_MAX;
    if (info)
        *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}
RX_ALIAS(T_source_get_info)

int PMPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp)
{
    RX_T_CHECK_INIT();
    if (source_index != 0)
        return MPI_T_ERR_INVALID_INDEX;
    if (!timestamp)
        return MPI_ERR_ARG;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    *timestamp = (MPI_Count)ts.tv_sec * 1000000000 + ts.tv_nsec;
    return MPI_SUCCESS;
}
RX_ALIAS(T_source_get_timestamp)

int PMPI_T_event_get_num(int *num_events)
{
    RX_T_CHECK_INIT();
    if (!num_events)
        return MPI_ERR_ARG;
    *num_events = 0;
    return MPI_SUCCESS;
}
RX_ALIAS(T_event_get_num)

int PMPI_T_event_get_info(int event_index, char *name, int *name_len, int *verbosity,
                          MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[],
                          int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc,
                          int *desc_len, int *bind)
{
    RX_T_CHECK_INIT();
    (void)event_index, (void)name, (void)name_len, (void)verbosity, (void)array_of_datatypes;
    (void)array_of_displacements, (void)num_elements, (void)enumtype, (void)info, (void)desc;
    (void)desc_len, (void)bind;
    return MPI_T_ERR_INVALID_INDEX;
}
RX_ALIAS(T_event_get_info)

int PMPI_T_event_get_index(const char *name, int *event_index)
{
    RX_T_CHECK_INIT();
    if (!name || !event_index)
        return MPI_ERR_ARG;
    return MPI_T_ERR_INVALID_NAME;
}
RX_ALIAS(T_event_get_index)

int PMPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,
                              MPI_T_event_registration *event_registration)
{
    RX_T_CHECK_INIT();
    (void)event_index, (void)obj_handle, (void)info, (void)event_registration;
    return MPI_T_ERR_INVALID_INDEX;
}
RX_ALIAS(T_event_handle_alloc)

/* Every call on a registration or an event instance: none can exist. */
static int rx_event_none(void)
{
    RX_T_CHECK_INIT();
    return MPI_T_ERR_INVALID_HANDLE;
}

int PMPI_T_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info)
{
    (void)event_registration, (void)info;
    return rx_event_none();
}
RX_ALIAS(T_event_handle_set_info)

int PMPI_T_event_handle_get_info(MPI_T_event_registration event_registration,
                                 MPI_Info *info_used)
{
    (void)event_registration, (void)info_used;
    return rx_event_none();
}
RX_ALIAS(T_event_handle_get_info)

int PMPI_T_event_register_callback(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
                                   MPI_T_event_cb_function event_cb_function)
{
    (void)event_registration, (void)cb_safety, (void)info, (void)user_data;
    (void)event_cb_function;
    return rx_event_none();
}
RX_ALIAS(T_event_register_callback)

int PMPI_T_event_callback_set_info(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info info)
{
    (void)event_registration, (void)cb_safety, (void)info;
    return rx_event_none();
}
RX_ALIAS(T_event_callback_set_info)

int PMPI_T_event_callback_get_info(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info *info_used)
{
    (void)event_registration, (void)cb_safety, (void)info_used;
    return rx_event_none();
}
RX_ALIAS(T_event_callback_get_info)

int PMPI_T_event_handle_free(MPI_T_event_registration event_registration, void *user_data,
                             MPI_T_event_free_cb_function free_cb_function)
{
    (void)event_registration, (void)user_data, (void)free_cb_function;
    return rx_event_none();
}
RX_ALIAS(T_event_handle_free)

int PMPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                     MPI_T_event_dropped_cb_function dropped_cb_function)
{
    (void)event_registration, (void)dropped_cb_function;
    return rx_event_none();
}
RX_ALIAS(T_event_set_dropped_handler)

int PMPI_T_event_read(MPI_T_event_instance event_instance, int element_index, void *buffer)
{
    (void)event_instance, (void)element_index, (void)buffer;
    return rx_event_none();
}
RX_ALIAS(T_event_read)

int PMPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer)
{
    (void)event_instance, (void)buffer;
    return rx_event_none();
}
RX_ALIAS(T_event_copy)

int PMPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count *event_timestamp)
{
    (void)event_instance, (void)event_timestamp;
    return rx_event_none();
}
RX_ALIAS(T_event_get_timestamp)

int PMPI_T_event_get_source(MPI_T_event_instance event_instance, int *source_index)
{
    (void)event_instance, (void)source_index;
    return rx_event_none();
}
RX_ALIAS(T_event_get_source)
