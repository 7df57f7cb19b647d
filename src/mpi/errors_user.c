/* SPDX-License-Identifier: MIT
 * Error classes and codes the program adds (MPI-4.1 §9.5): one counter
 * above MPI_ERR_LASTCODE numbers both, so MPI_LASTUSEDCODE is the largest
 * value in use; a class is its own class, a code has the class it was made
 * for. Strings are empty until MPI_Add_error_string sets one. A removed value
 * is no longer a class or code, but MPI_LASTUSEDCODE does not go down: the
 * counter only grows, so a removed value is never handed out again. */
#include "errors_user.h"

#include <stdlib.h>
#include <string.h>

typedef struct rx_uerr {
    int cls;
    int removed; /* MPI_Remove_error_class / _code: the value stays used, never reissued */
    char *text;
} rx_uerr_t;

static rx_uerr_t *rx_uerrs; /* value MPI_ERR_LASTCODE + 1 + i */
static int rx_nuerr;

int rx_err_last_used(void) { return MPI_ERR_LASTCODE + rx_nuerr; }

static rx_uerr_t *rx_uerr(int code)
{
    int i = code - MPI_ERR_LASTCODE - 1;
    return i >= 0 && i < rx_nuerr && !rx_uerrs[i].removed ? &rx_uerrs[i] : NULL;
}

int rx_err_user_class(int code, int *cls)
{
    rx_uerr_t *u = rx_uerr(code);
    if (u)
        *cls = u->cls;
    return u != NULL;
}

const char *rx_err_user_string(int code)
{
    rx_uerr_t *u = rx_uerr(code);
    return u ? (u->text ? u->text : "") : NULL;
}

/* A new value with class cls (-1: the value is its own class). */
static int rx_uerr_add(int cls, int *out, const char *fn)
{
    rx_uerr_t *n = realloc(rx_uerrs, sizeof *n * (size_t)(rx_nuerr + 1));
    if (!n)
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    rx_uerrs = n;
    int v = MPI_ERR_LASTCODE + 1 + rx_nuerr;
    n[rx_nuerr++] = (rx_uerr_t){cls < 0 ? v : cls, 0, NULL};
    *out = v;
    return MPI_SUCCESS;
}

int PMPI_Add_error_class(int *errorclass)
{
    RX_CHECK_INIT("MPI_Add_error_class");
    if (!errorclass)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Add_error_class", "errorclass is NULL");
    return rx_uerr_add(-1, errorclass, "MPI_Add_error_class");
}
RX_ALIAS(Add_error_class)

int PMPI_Add_error_code(int errorclass, int *errorcode)
{
    const char *fn = "MPI_Add_error_code";
    RX_CHECK_INIT(fn);
    if (!errorcode)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "errorcode is NULL");
    rx_uerr_t *u = rx_uerr(errorclass);
    int predefined = errorclass >= 0 && errorclass < MPI_ERR_LASTCODE &&
                     strcmp(rx_mpi_class_name(errorclass), "MPI_ERR_UNKNOWN") != 0;
    if (!predefined && errorclass != MPI_ERR_UNKNOWN && (!u || u->cls != errorclass))
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "%d is not an error class", errorclass);
    return rx_uerr_add(errorclass, errorcode, fn);
}
RX_ALIAS(Add_error_code)

int PMPI_Add_error_string(int errorcode, const char *string)
{
    const char *fn = "MPI_Add_error_string";
    RX_CHECK_INIT(fn);
    rx_uerr_t *u = rx_uerr(errorcode);
    if (!u)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "%d is not a code or class the program added",
                          errorcode);
    if (!string || strnlen(string, MPI_MAX_ERROR_STRING) >= MPI_MAX_ERROR_STRING)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "string NULL or MPI_MAX_ERROR_STRING long");
    char *t = strdup(string);
    if (!t)
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    free(u->text);
    u->text = t;
    return MPI_SUCCESS;
}
RX_ALIAS(Add_error_string)

static int rx_is_class(int v, const rx_uerr_t *u) { return u && u->cls == v; }

int PMPI_Remove_error_class(int errorclass)
{
    const char *fn = "MPI_Remove_error_class";
    RX_CHECK_INIT(fn);
    rx_uerr_t *u = rx_uerr(errorclass);
    if (!rx_is_class(errorclass, u))
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "%d is not an error class the program added",
                          errorclass);
    for (int i = 0; i < rx_nuerr; i++)
        if (&rx_uerrs[i] != u && !rx_uerrs[i].removed && rx_uerrs[i].cls == errorclass)
            return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "class %d still has code %d", errorclass,
                              MPI_ERR_LASTCODE + 1 + i);
    free(u->text);
    u->text = NULL;
    u->removed = 1;
    return MPI_SUCCESS;
}
RX_ALIAS(Remove_error_class)

int PMPI_Remove_error_code(int errorcode)
{
    const char *fn = "MPI_Remove_error_code";
    RX_CHECK_INIT(fn);
    rx_uerr_t *u = rx_uerr(errorcode);
    if (!u || rx_is_class(errorcode, u))
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "%d is not an error code the program added",
                          errorcode);
    free(u->text);
    u->text = NULL;
    u->removed = 1;
    return MPI_SUCCESS;
}
RX_ALIAS(Remove_error_code)

int PMPI_Remove_error_string(int errorcode)
{
    const char *fn = "MPI_Remove_error_string";
    RX_CHECK_INIT(fn);
    rx_uerr_t *u = rx_uerr(errorcode);
    if (!u)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "%d is not a code or class the program added",
                          errorcode);
    if (!u->text)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "%d has no string to remove", errorcode);
    free(u->text);
    u->text = NULL;
    return MPI_SUCCESS;
}
RX_ALIAS(Remove_error_string)
