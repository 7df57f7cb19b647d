/* SPDX-License-Identifier: MIT
 * PMIx client: runs rdmx programs under Open MPI's mpirun, Slurm's
 * srun --mpi=pmix and other PMIx launchers. The key-value store maps onto
 * PMIx_Put (global scope) / PMIx_Commit + PMIx_Fence (collecting data) /
 * PMIx_Get.
 *
 * PMIx stores a value under the process that put it, and a get names that
 * process; rdmx's keys do not say who put them, but by convention those the
 * runtime reads across ranks end in ".<rank of the putter>" ("rdmx.ofi.3").
 * A get therefore asks that rank first and, for other keys, any process of
 * the namespace (PMIX_RANK_UNDEF). */
#ifdef RDMX_HAVE_PMIX
#include "pmix_client.h"
#include "util/log.h"
#include "util/status.h"

#include <pmix.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pmix_proc_t rx_pmix_me;

int rx_boot_pmix_wanted(void)
{
    return getenv("PMIX_RANK") != NULL || getenv("PMIX_NAMESPACE") != NULL;
}

/* An unsigned job attribute of proc (or of the whole job for WILDCARD). */
static int rx_pmix_get_uint(pmix_rank_t rank, const char *key, unsigned long *out)
{
    pmix_proc_t p;
    pmix_value_t *v = NULL;
    PMIX_LOAD_PROCID(&p, rx_pmix_me.nspace, rank);
    if (PMIx_Get(&p, key, NULL, 0, &v) != PMIX_SUCCESS || !v)
        return RX_ERR_NOTFOUND;
    int rc = RX_OK;
    switch (v->type) {
    case PMIX_UINT32: *out = v->data.uint32; break;
    case PMIX_UINT16: *out = v->data.uint16; break;
    case PMIX_UINT64: *out = (unsigned long)v->data.uint64; break;
    case PMIX_INT: *out = (unsigned long)v->data.integer; break;
    case PMIX_UINT: *out = v->data.uint; break;
    default: rc = RX_ERR_INVAL;
    }
    PMIX_VALUE_RELEASE(v);
    return rc;
}

int rx_boot_pmix_init(rx_boot_info_t *info, char *nspace, size_t nslen)
{
    pmix_status_t st = PMIx_Init(&rx_pmix_me, NULL, 0);
    if (st != PMIX_SUCCESS) {
        rx_log_error("bootstrap: PMIx_Init failed: %s (PMIX_RANK/PMIX_NAMESPACE are set, but "
                     "the launcher's PMIx server cannot be reached)", PMIx_Error_string(st));
        return RX_ERR_PEER;
    }
    unsigned long size = 0, lrank = 0, lsize = 0, appnum = 0;
    if (rx_pmix_get_uint(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, &size) != RX_OK || size == 0) {
        rx_log_error("bootstrap: the PMIx server does not give the job size");
        PMIx_Finalize(NULL, 0);
        return RX_ERR_PEER;
    }
    if (rx_pmix_get_uint(rx_pmix_me.rank, PMIX_LOCAL_RANK, &lrank) != RX_OK)
        lrank = rx_pmix_me.rank;
    if (rx_pmix_get_uint(PMIX_RANK_WILDCARD, PMIX_LOCAL_SIZE, &lsize) != RX_OK)
        lsize = size;
    rx_pmix_get_uint(PMIX_RANK_WILDCARD, PMIX_APPNUM, &appnum);
    memset(info, 0, sizeof *info);
    info->rank = (int)rx_pmix_me.rank;
    info->size = (int)size;
    info->local_rank = (int)lrank;
    info->local_size = (int)lsize;
    info->appnum = (int)appnum;
    snprintf(nspace, nslen, "%s", rx_pmix_me.nspace);
    return RX_OK;
}

int rx_boot_pmix_put(const char *key, const char *value)
{
    pmix_value_t v;
    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_STRING;
    v.data.string = (char *)value;
    pmix_status_t st = PMIx_Put(PMIX_GLOBAL, key, &v);
    if (st != PMIX_SUCCESS) {
        rx_log_error("bootstrap: PMIx_Put of \"%s\" failed: %s", key, PMIx_Error_string(st));
        return RX_ERR_PEER;
    }
    return RX_OK;
}

int rx_boot_pmix_fence(void)
{
    pmix_status_t st = PMIx_Commit();
    if (st != PMIX_SUCCESS) {
        rx_log_error("bootstrap: PMIx_Commit failed: %s", PMIx_Error_string(st));
        return RX_ERR_PEER;
    }
    pmix_info_t info;
    bool collect = true;
    PMIX_INFO_CONSTRUCT(&info);
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    st = PMIx_Fence(NULL, 0, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (st != PMIX_SUCCESS) {
        rx_log_error("bootstrap: PMIx_Fence failed: %s", PMIx_Error_string(st));
        return RX_ERR_PEER;
    }
    return RX_OK;
}

/* The putter's rank from a key ending in ".<digits>", else PMIX_RANK_UNDEF. */
static pmix_rank_t rx_pmix_owner(const char *key)
{
    const char *dot = strrchr(key, '.');
    if (!dot || !dot[1])
        return PMIX_RANK_UNDEF;
    char *end;
    unsigned long r = strtoul(dot + 1, &end, 10);
    return *end || r >= PMIX_RANK_VALID ? PMIX_RANK_UNDEF : (pmix_rank_t)r;
}

int rx_boot_pmix_get(const char *key, char *value, size_t len)
{
    pmix_proc_t p;
    pmix_value_t *v = NULL;
    pmix_rank_t owner = rx_pmix_owner(key);
    PMIX_LOAD_PROCID(&p, rx_pmix_me.nspace, owner);
    pmix_status_t st = PMIx_Get(&p, key, NULL, 0, &v);
    if (st != PMIX_SUCCESS && owner != PMIX_RANK_UNDEF) {
        PMIX_LOAD_PROCID(&p, rx_pmix_me.nspace, PMIX_RANK_UNDEF);
        st = PMIx_Get(&p, key, NULL, 0, &v);
    }
    if (st != PMIX_SUCCESS || !v)
        return RX_ERR_NOTFOUND;
    int rc = RX_OK;
    if (v->type != PMIX_STRING || !v->data.string)
        rc = RX_ERR_INVAL;
    else if (strlen(v->data.string) + 1 > len)
        rc = RX_ERR_TRUNCATE;
    else
        strcpy(value, v->data.string);
    PMIX_VALUE_RELEASE(v);
    return rc;
}

void rx_boot_pmix_abort(int code, const char *msg)
{
    PMIx_Abort(code, msg && *msg ? msg : "MPI_Abort", NULL, 0);
}

int rx_boot_pmix_finalize(void)
{
    pmix_status_t st = PMIx_Finalize(NULL, 0);
    return st == PMIX_SUCCESS ? RX_OK : RX_ERR_PEER;
}
#endif
