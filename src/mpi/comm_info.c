/* SPDX-License-Identifier: MIT
 * Info hints of communicators and windows, and MPI_Comm_dup_with_info.
 *
 * What get_info returns: MPI-4.1 says "the hints in use". Like MPICH, rdmx
 * answers every key it understands with the value in effect (the default
 * when none was set); keys it does not understand are ignored, so not
 * reported. Understood keys and what they change are listed in
 * docs/mpi-support.md; set_info adds to and replaces earlier hints, it
 * never removes a key. */
#include "info_impl.h"
#include "win_impl.h"

#include <string.h>

typedef struct rx_hint_key {
    const char *key, *dflt;
} rx_hint_key_t;

/* MPI-4.1 §7.4.4: assertions a program makes about its use of comm. rdmx's
 * matching needs none of them to be fast, so they change nothing but what
 * get_info reports. */
static const rx_hint_key_t rx_comm_keys[] = {
    {"mpi_assert_no_any_tag", "false"},
    {"mpi_assert_no_any_source", "false"},
    {"mpi_assert_exact_length", "false"},
    {"mpi_assert_allow_overtaking", "false"},
    {NULL, NULL},
};

/* MPI-4.1 §12.2.1. The defaults are what rdmx does whatever is set: every
 * accumulate ordering kept, any op mix, sizes and units that may differ,
 * one contiguous region for shared windows. */
static const rx_hint_key_t rx_win_keys[] = {
    {"no_locks", "false"},
    {"accumulate_ordering", "rar,raw,war,waw"},
    {"accumulate_ops", "same_op_no_op"},
    {"same_size", "false"},
    {"same_disp_unit", "false"},
    {"mpi_accumulate_granularity", "0"},
    {NULL, NULL},
};
static const rx_hint_key_t rx_win_shared_keys[] = {
    {"alloc_shared_noncontig", "false"},
    {NULL, NULL},
};

/* Merge given into *hints (created on first use). */
static int rx_hints_merge(rx_info_t **hints, const rx_info_t *given)
{
    if (!given || given->n == 0)
        return RX_OK;
    if (!*hints && !(*hints = rx_info_new()))
        return RX_ERR_NOMEM;
    for (int i = 0; i < given->n; i++)
        if (rx_info_put(*hints, given->e[i].key, given->e[i].val) != RX_OK)
            return RX_ERR_NOMEM;
    return RX_OK;
}

/* A new info object: the known keys, with the value set or the default. */
static int rx_hints_report(const rx_info_t *hints, const rx_hint_key_t *const *tables,
                           MPI_Info *out, const char *fn)
{
    rx_info_t *r = rx_info_new();
    int rc = r ? RX_OK : RX_ERR_NOMEM;
    for (int t = 0; rc == RX_OK && tables[t]; t++)
        for (const rx_hint_key_t *k = tables[t]; rc == RX_OK && k->key; k++) {
            const char *v = rx_info_lookup(hints, k->key);
            rc = rx_info_put(r, k->key, v ? v : k->dflt);
        }
    if (rc != RX_OK) {
        rx_info_destroy(r);
        r = NULL;
    }
    return rx_info_publish(r, out, fn);
}

int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    const char *fn = "MPI_Comm_set_info";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    rx_info_t *given;
    int rc = rx_info_arg(c, info, &given, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (rx_hints_merge((rx_info_t **)&c->hints, given) != RX_OK)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    return MPI_SUCCESS;
}
RX_ALIAS(Comm_set_info)

int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
    const char *fn = "MPI_Comm_get_info";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    if (!info_used)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "info_used is NULL");
    const rx_hint_key_t *const tables[] = {rx_comm_keys, NULL};
    return rx_hints_report(c->hints, tables, info_used, fn);
}
RX_ALIAS(Comm_get_info)

int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    const char *fn = "MPI_Comm_dup_with_info";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    rx_info_t *given;
    int rc = rx_info_arg(c, info, &given, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!newcomm)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "newcomm is NULL");
    if ((rc = PMPI_Comm_dup(comm, newcomm)) != MPI_SUCCESS)
        return rc;
    /* the hints of info replace those of comm (MPI-4.1 §7.4.2) */
    rx_comm_t *n = rx_comm_get(*newcomm);
    rx_info_destroy(n->hints);
    n->hints = NULL;
    if (rx_hints_merge((rx_info_t **)&n->hints, given) != RX_OK)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    return MPI_SUCCESS;
}
RX_ALIAS(Comm_dup_with_info)

/* Window hints live with the window's private communicator. */
int rx_win_info_arg(rx_comm_t *c, MPI_Info info, const char *fn)
{
    rx_info_t *given;
    return rx_info_arg(c, info, &given, fn);
}

int rx_win_hints_init(MPI_Win win, MPI_Info info, const char *fn)
{
    rx_win_t *w = rx_win_get(win);
    rx_info_t *given = NULL;
    if (info != MPI_INFO_NULL && !(given = rx_info_get(info)))
        return rx_win_err(w, MPI_ERR_INFO, fn, "invalid info object");
    if (rx_hints_merge((rx_info_t **)&w->comm->hints, given) != RX_OK)
        return rx_win_err(w, MPI_ERR_NO_MEM, fn, "out of memory");
    return MPI_SUCCESS;
}

int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
    const char *fn = "MPI_Win_set_info";
    RX_CHECK_INIT(fn);
    RX_GET_WIN(w, win, fn);
    (void)w;
    return rx_win_hints_init(win, info, fn);
}
RX_ALIAS(Win_set_info)

int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
    const char *fn = "MPI_Win_get_info";
    RX_CHECK_INIT(fn);
    RX_GET_WIN(w, win, fn);
    if (!info_used)
        return rx_win_err(w, MPI_ERR_ARG, fn, "info_used is NULL");
    const rx_hint_key_t *const tables[] = {
        rx_win_keys, w->flavor == RX_WIN_FLAVOR_SHARED ? rx_win_shared_keys : NULL, NULL};
    return rx_hints_report(w->comm->hints, tables, info_used, fn);
}
RX_ALIAS(Win_get_info)
