/* SPDX-License-Identifier: MIT
 * Info objects (MPI-4.1 chapter 10): creation, keys and values, and the
 * predefined MPI_INFO_ENV. Like MPICH and Open MPI, every info call also
 * works before MPI_Init and after MPI_Finalize (MPI-4 allows it); errors
 * then are returned, since no error handler exists yet. */
#define _GNU_SOURCE
#include "info_impl.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static rx_htab_t rx_info_table = {.kind = RX_KIND_INFO};
static rx_info_t *rx_info_env_obj;

static int rx_info_err(int cls, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int rx_info_err(int cls, const char *fn, const char *fmt, ...)
{
    if (!rx_rt.initialized || rx_rt.finalized)
        return cls;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return rx_mpi_err(NULL, cls, fn, "%s", msg);
}

rx_info_t *rx_info_new(void) { return calloc(1, sizeof(rx_info_t)); }

void rx_info_destroy(rx_info_t *info)
{
    if (!info)
        return;
    for (int i = 0; i < info->n; i++) {
        free(info->e[i].key);
        free(info->e[i].val);
    }
    free(info->e);
    free(info);
}

static int rx_info_find(const rx_info_t *info, const char *key)
{
    for (int i = 0; info && i < info->n; i++)
        if (strcmp(info->e[i].key, key) == 0)
            return i;
    return -1;
}

const char *rx_info_lookup(const rx_info_t *info, const char *key)
{
    int i = rx_info_find(info, key);
    return i < 0 ? NULL : info->e[i].val;
}

int rx_info_put(rx_info_t *info, const char *key, const char *val)
{
    char *v = strdup(val);
    if (!v)
        return RX_ERR_NOMEM;
    int i = rx_info_find(info, key);
    if (i >= 0) {
        free(info->e[i].val);
        info->e[i].val = v;
        return RX_OK;
    }
    if (info->n == info->cap) {
        int cap = info->cap ? 2 * info->cap : 8;
        rx_info_ent_t *e = realloc(info->e, sizeof *e * (size_t)cap);
        if (!e) {
            free(v);
            return RX_ERR_NOMEM;
        }
        info->e = e;
        info->cap = cap;
    }
    char *k = strdup(key);
    if (!k) {
        free(v);
        return RX_ERR_NOMEM;
    }
    info->e[info->n++] = (rx_info_ent_t){k, v};
    return RX_OK;
}

static void rx_info_remove(rx_info_t *info, int i)
{
    free(info->e[i].key);
    free(info->e[i].val);
    memmove(&info->e[i], &info->e[i + 1], sizeof *info->e * (size_t)(info->n - i - 1));
    info->n--;
}

rx_info_t *rx_info_copy(const rx_info_t *from)
{
    rx_info_t *n = rx_info_new();
    for (int i = 0; n && from && i < from->n; i++)
        if (rx_info_put(n, from->e[i].key, from->e[i].val) != RX_OK) {
            rx_info_destroy(n);
            return NULL;
        }
    return n;
}

/* "command" and "argv" (the arguments joined by spaces, as many as fit). */
static void rx_info_put_args(rx_info_t *info, int argc, char **argv)
{
    if (argc < 1 || !argv[0])
        return;
    rx_info_put(info, "command", argv[0]);
    char args[MPI_MAX_INFO_VAL + 1] = "";
    size_t len = 0;
    for (int i = 1; i < argc && argv[i]; i++) {
        int w = snprintf(args + len, sizeof args - len, "%s%s", len ? " " : "", argv[i]);
        if (w < 0 || (size_t)w >= sizeof args - len)
            break;
        len += (size_t)w;
    }
    if (len)
        rx_info_put(info, "argv", args);
}

/* Command and arguments of this process, from the kernel (the program may
 * have changed its own argv). */
static void rx_info_env_cmdline(rx_info_t *info)
{
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    char buf[MPI_MAX_INFO_VAL * 2], *argv[256];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return;
    buf[n] = 0;
    int argc = 0;
    for (char *p = buf; p < buf + n && argc < 256; p += strlen(p) + 1)
        argv[argc++] = p;
    rx_info_put_args(info, argc, argv);
}

static const char *rx_thread_level_name(int level)
{
    static const char *const names[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED",
                                        "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};
    return level >= 0 && level <= 3 ? names[level] : "MPI_THREAD_SINGLE";
}

/* The keys of MPI-4.1 §11.2.2 that are known: soft and file (arguments of a
 * spawn this process did not come from) are left out. */
static rx_info_t *rx_info_env_build(int argc, char **argv)
{
    rx_info_t *info = rx_info_new();
    if (!info)
        return NULL;
    if (argv && argc > 0 && argv[0])
        rx_info_put_args(info, argc, argv);
    else
        rx_info_env_cmdline(info);
    char v[MPI_MAX_INFO_VAL + 1];
    if (rx_rt.initialized) {
        snprintf(v, sizeof v, "%d", rx_rt.size);
        rx_info_put(info, "maxprocs", v);
        rx_info_put(info, "host", rx_rt.hostname);
        rx_info_put(info, "thread_level", rx_thread_level_name(rx_rt.thread_level));
    } else {
        /* before MPI_Init: what it would give, so that the object is the same
         * whenever it is made (the launcher's job size; MPI_Init's level) */
        const char *size = getenv("PMI_SIZE");
        rx_info_put(info, "maxprocs", size && *size ? size : "1");
        if (gethostname(v, sizeof v) == 0) {
            v[sizeof v - 1] = 0;
            rx_info_put(info, "host", v);
        }
        rx_info_put(info, "thread_level", rx_thread_level_name(MPI_THREAD_SINGLE));
    }
    struct utsname u;
    if (uname(&u) == 0)
        rx_info_put(info, "arch", u.machine);
    if (getcwd(v, sizeof v))
        rx_info_put(info, "wdir", v);
    return info;
}

rx_info_t *rx_info_get(MPI_Info h)
{
    if (h == MPI_INFO_ENV) {
        /* built on first use, after MPI_Init has set what it describes */
        if (!rx_info_env_obj && rx_rt.initialized && (rx_info_env_obj = rx_info_env_build(0, NULL))) {
            rx_info_env_obj->handle = 1;
            if (rx_htab_set(&rx_info_table, 1, rx_info_env_obj) != RX_OK) {
                rx_info_destroy(rx_info_env_obj);
                rx_info_env_obj = NULL;
            }
        }
        return rx_info_env_obj;
    }
    return rx_htab_get(&rx_info_table, h);
}

int rx_info_arg(rx_comm_t *comm, MPI_Info h, rx_info_t **out, const char *fn)
{
    *out = NULL;
    if (h == MPI_INFO_NULL)
        return MPI_SUCCESS;
    if (!(*out = rx_info_get(h)))
        return rx_mpi_err(comm, MPI_ERR_INFO, fn, "invalid info object");
    return MPI_SUCCESS;
}

int rx_info_publish(rx_info_t *info, MPI_Info *out, const char *fn)
{
    if (!info)
        return rx_info_err(MPI_ERR_NO_MEM, fn, "out of memory");
    int idx = rx_htab_add(&rx_info_table, info, 2);
    if (idx < 0) {
        rx_info_destroy(info);
        return rx_info_err(MPI_ERR_NO_MEM, fn, "out of info handles");
    }
    info->handle = idx;
    *out = RX_HANDLE(RX_KIND_INFO, idx);
    return MPI_SUCCESS;
}

#define RX_GET_INFO(i, handle, fn)                                                  \
    rx_info_t *i = rx_info_get(handle);                                             \
    if (!i)                                                                         \
        return rx_info_err(MPI_ERR_INFO, fn, "invalid info object%s",               \
                           (handle) == MPI_INFO_NULL ? " (MPI_INFO_NULL)" : "")

static int rx_info_check_key(const char *key, const char *fn)
{
    if (!key)
        return rx_info_err(MPI_ERR_INFO_KEY, fn, "key is NULL");
    size_t n = strnlen(key, MPI_MAX_INFO_KEY + 1);
    if (n == 0 || n > MPI_MAX_INFO_KEY)
        return rx_info_err(MPI_ERR_INFO_KEY, fn, "key %s (1 to MPI_MAX_INFO_KEY = %d characters)",
                           n ? "too long" : "empty", MPI_MAX_INFO_KEY);
    return MPI_SUCCESS;
}

/* MPI_INFO_ENV belongs to the library: it is read, duplicated, never changed. */
static int rx_info_check_writable(MPI_Info h, const char *fn)
{
    if (h == MPI_INFO_ENV)
        return rx_info_err(MPI_ERR_INFO, fn, "MPI_INFO_ENV cannot be changed or freed");
    return MPI_SUCCESS;
}

static int rx_info_check_change(MPI_Info h, const char *key, const char *fn)
{
    int rc = rx_info_check_writable(h, fn);
    return rc == MPI_SUCCESS ? rx_info_check_key(key, fn) : rc;
}

int PMPI_Info_create(MPI_Info *info)
{
    if (!info)
        return rx_info_err(MPI_ERR_ARG, "MPI_Info_create", "info is NULL");
    return rx_info_publish(rx_info_new(), info, "MPI_Info_create");
}
RX_ALIAS(Info_create)

int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
    if (!info)
        return rx_info_err(MPI_ERR_ARG, "MPI_Info_create_env", "info is NULL");
    if (argc < 0)
        return rx_info_err(MPI_ERR_ARG, "MPI_Info_create_env", "negative argc %d", argc);
    return rx_info_publish(rx_info_env_build(argc, argv), info, "MPI_Info_create_env");
}
RX_ALIAS(Info_create_env)

int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    RX_GET_INFO(i, info, "MPI_Info_dup");
    if (!newinfo)
        return rx_info_err(MPI_ERR_ARG, "MPI_Info_dup", "newinfo is NULL");
    return rx_info_publish(rx_info_copy(i), newinfo, "MPI_Info_dup");
}
RX_ALIAS(Info_dup)

int PMPI_Info_free(MPI_Info *info)
{
    if (!info)
        return rx_info_err(MPI_ERR_ARG, "MPI_Info_free", "info is NULL");
    RX_GET_INFO(i, *info, "MPI_Info_free");
    int rc = rx_info_check_writable(*info, "MPI_Info_free");
    if (rc != MPI_SUCCESS)
        return rc;
    rx_htab_del(&rx_info_table, i->handle);
    rx_info_destroy(i);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}
RX_ALIAS(Info_free)

int PMPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    const char *fn = "MPI_Info_set";
    RX_GET_INFO(i, info, fn);
    int rc = rx_info_check_change(info, key, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!value)
        return rx_info_err(MPI_ERR_INFO_VALUE, fn, "value is NULL");
    size_t n = strnlen(value, MPI_MAX_INFO_VAL + 1);
    if (n == 0 || n > MPI_MAX_INFO_VAL)
        return rx_info_err(MPI_ERR_INFO_VALUE, fn,
                           "value %s (1 to MPI_MAX_INFO_VAL = %d characters)",
                           n ? "too long" : "empty", MPI_MAX_INFO_VAL);
    if (rx_info_put(i, key, value) != RX_OK)
        return rx_info_err(MPI_ERR_NO_MEM, fn, "out of memory");
    return MPI_SUCCESS;
}
RX_ALIAS(Info_set)

int PMPI_Info_delete(MPI_Info info, const char *key)
{
    const char *fn = "MPI_Info_delete";
    RX_GET_INFO(i, info, fn);
    int rc = rx_info_check_change(info, key, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    int k = rx_info_find(i, key);
    if (k < 0)
        return rx_info_err(MPI_ERR_INFO_NOKEY, fn, "no key \"%s\"", key);
    rx_info_remove(i, k);
    return MPI_SUCCESS;
}
RX_ALIAS(Info_delete)

/* Deprecated in MPI-4 (MPI_Info_get_string replaces it), still standard. */
int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    const char *fn = "MPI_Info_get";
    RX_GET_INFO(i, info, fn);
    int rc = rx_info_check_key(key, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (valuelen < 0)
        return rx_info_err(MPI_ERR_ARG, fn, "negative valuelen %d", valuelen);
    if (!flag || (!value && valuelen > 0))
        return rx_info_err(MPI_ERR_ARG, fn, "NULL value or flag");
    const char *v = rx_info_lookup(i, key);
    *flag = v != NULL;
    if (v && value) {
        size_t n = strlen(v) < (size_t)valuelen ? strlen(v) : (size_t)valuelen;
        memcpy(value, v, n); /* the caller's buffer holds valuelen + 1 characters */
        value[n] = 0;
    }
    return MPI_SUCCESS;
}
RX_ALIAS(Info_get)

int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    const char *fn = "MPI_Info_get_valuelen";
    RX_GET_INFO(i, info, fn);
    int rc = rx_info_check_key(key, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!valuelen || !flag)
        return rx_info_err(MPI_ERR_ARG, fn, "NULL valuelen or flag");
    const char *v = rx_info_lookup(i, key);
    *flag = v != NULL;
    if (v)
        *valuelen = (int)strlen(v);
    return MPI_SUCCESS;
}
RX_ALIAS(Info_get_valuelen)

/* MPI-4.1 §10: *buflen in is the buffer's size; out, the value's length plus
 * one, whether it fitted or not (a call with buflen 0 asks for the size). */
int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    const char *fn = "MPI_Info_get_string";
    RX_GET_INFO(i, info, fn);
    int rc = rx_info_check_key(key, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!buflen || !flag)
        return rx_info_err(MPI_ERR_ARG, fn, "NULL buflen or flag");
    if (*buflen < 0 || (*buflen > 0 && !value))
        return rx_info_err(MPI_ERR_ARG, fn, "buflen %d with %s value", *buflen,
                           value ? "a" : "a NULL");
    const char *v = rx_info_lookup(i, key);
    *flag = v != NULL;
    if (!v)
        return MPI_SUCCESS;
    size_t len = strlen(v);
    if (*buflen > 0) {
        size_t n = len < (size_t)*buflen - 1 ? len : (size_t)*buflen - 1;
        memcpy(value, v, n);
        value[n] = 0;
    }
    *buflen = (int)len + 1;
    return MPI_SUCCESS;
}
RX_ALIAS(Info_get_string)

int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    RX_GET_INFO(i, info, "MPI_Info_get_nkeys");
    if (!nkeys)
        return rx_info_err(MPI_ERR_ARG, "MPI_Info_get_nkeys", "nkeys is NULL");
    *nkeys = i->n;
    return MPI_SUCCESS;
}
RX_ALIAS(Info_get_nkeys)

int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    const char *fn = "MPI_Info_get_nthkey";
    RX_GET_INFO(i, info, fn);
    if (!key)
        return rx_info_err(MPI_ERR_ARG, fn, "key is NULL");
    if (n < 0 || n >= i->n)
        return rx_info_err(MPI_ERR_ARG, fn, "n = %d outside 0..%d", n, i->n - 1);
    /* keys are at most MPI_MAX_INFO_KEY long: the caller's buffer holds one */
    strcpy(key, i->e[n].key);
    return MPI_SUCCESS;
}
RX_ALIAS(Info_get_nthkey)
