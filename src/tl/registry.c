/* SPDX-License-Identifier: MIT
 * The transport registry: every transport rdmx has, in the order each rank
 * creates them (their set-up fences are global, so every rank walks the list
 * alike), with the preference each peer's choice follows: self for the own
 * rank, shared memory within a node, the network across nodes. */
#include "tl/tl.h"
#include "util/config.h"
#include "util/log.h"
#include "util/status.h"

#include <string.h>

static int rx_tl_always(const rx_tl_job_t *job)
{
    (void)job;
    return 1;
}

/* The network transport: wanted when the job spans nodes, or when RDMX_OFI
 * asks for it. */
static int rx_tl_ofi_wanted(const rx_tl_job_t *job)
{
    const char *mode = rx_config()->OFI;
    if (strcmp(mode, "auto") && strcmp(mode, "on") && strcmp(mode, "all") && strcmp(mode, "off")) {
        rx_log_error("RDMX_OFI=\"%s\" unknown (auto, on, all, off)", mode);
        return RX_ERR_INVAL;
    }
    if (!strcmp(mode, "off") || (!strcmp(mode, "auto") && job->nnodes == 1))
        return 0;
#ifdef RDMX_HAVE_OFI
    return 1;
#else
    if (job->nnodes > 1 || strcmp(mode, "auto")) {
        rx_log_error("the job spans %d nodes (or RDMX_OFI=%s) but this build has no libfabric "
                     "support", job->nnodes, mode);
        return RX_ERR_UNSUPPORTED;
    }
    return 0;
#endif
}

static int rx_tl_self_priority(void) { return 0; }
static int rx_tl_shm_priority(void) { return 20; }
/* RDMX_OFI=all: right after self, ahead of shared memory, so that every
 * peer but self goes through the network (testing) */
static int rx_tl_ofi_priority(void) { return !strcmp(rx_config()->OFI, "all") ? 10 : 30; }

static const rx_tl_entry_t rx_tl_entries[] = {
    {.name = "self", .wanted = rx_tl_always, .create = rx_tl_self_create,
     .priority = rx_tl_self_priority},
    {.name = "shm", .wanted = rx_tl_always, .create = rx_tl_shm_create,
     .priority = rx_tl_shm_priority},
#ifdef RDMX_HAVE_OFI
    {.name = "ofi", .wanted = rx_tl_ofi_wanted, .create = rx_tl_ofi_create,
     .priority = rx_tl_ofi_priority},
#else
    {.name = "ofi", .wanted = rx_tl_ofi_wanted, .create = NULL, .priority = rx_tl_ofi_priority},
#endif
};

const rx_tl_entry_t *rx_tl_registry(int *n)
{
    *n = (int)(sizeof rx_tl_entries / sizeof *rx_tl_entries);
    return rx_tl_entries;
}

static int rx_tl_reaches_any(const rx_tl_t *tl, int size)
{
    for (int r = 0; r < size; r++)
        if (tl->reaches[r])
            return 1;
    return 0;
}

int rx_tl_open_all(const rx_tl_job_t *job, rx_tl_t **tls, int max, int *ntl)
{
    int n, rc = RX_OK;
    int prio[max > 0 ? max : 1];
    const rx_tl_entry_t *e = rx_tl_registry(&n);
    *ntl = 0;
    for (int i = 0; i < n && rc == RX_OK; i++) {
        int want = e[i].wanted(job);
        if (want <= 0) {
            rc = want;
            continue;
        }
        rx_tl_t *tl = NULL;
        if (!e[i].create || (rc = e[i].create(job, &tl)) != RX_OK) {
            if (!e[i].create)
                rc = RX_ERR_UNSUPPORTED;
            break;
        }
        /* one that reaches nobody (shared memory alone on a node) goes again */
        if (!rx_tl_reaches_any(tl, job->size)) {
            tl->ops->fini(tl);
            continue;
        }
        if (*ntl == max) {
            rx_log_error("more than %d transports", max);
            tl->ops->fini(tl);
            rc = RX_ERR_INTERN;
            break;
        }
        /* stable insertion by preference */
        int p = e[i].priority(), at = *ntl;
        while (at > 0 && prio[at - 1] > p) {
            tls[at] = tls[at - 1];
            prio[at] = prio[at - 1];
            at--;
        }
        tls[at] = tl;
        prio[at] = p;
        (*ntl)++;
    }
    if (rc != RX_OK) {
        while (*ntl > 0) {
            rx_tl_t *tl = tls[--*ntl];
            tl->ops->fini(tl);
        }
    }
    return rc;
}

rx_tl_t *rx_tl_reaching(rx_tl_t *const *tls, int ntl, int world_peer, unsigned want,
                        unsigned refuse)
{
    for (int i = 0; i < ntl; i++)
        if (tls[i]->reaches[world_peer] && (tls[i]->caps & want) == want &&
            !(tls[i]->caps & refuse))
            return tls[i];
    return NULL;
}
