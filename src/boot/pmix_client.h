/* SPDX-License-Identifier: MIT
 * The PMIx bootstrap client, behind rx_boot_* (boot.h) when the process was
 * started by a PMIx launcher (PMIX_RANK or PMIX_NAMESPACE in the environment)
 * and the library was built with PMIx (RDMX_HAVE_PMIX). Private to src/boot. */
#ifndef RX_BOOT_PMIX_CLIENT_H
#define RX_BOOT_PMIX_CLIENT_H

#include "boot.h"

#include <stddef.h>

/* 1 when the environment names a PMIx server. */
int rx_boot_pmix_wanted(void);
/* Connect; fills *info except jobid, and copies the namespace to nspace. */
int rx_boot_pmix_init(rx_boot_info_t *info, char *nspace, size_t nslen);
int rx_boot_pmix_put(const char *key, const char *value);
int rx_boot_pmix_fence(void);
int rx_boot_pmix_get(const char *key, char *value, size_t len);
void rx_boot_pmix_abort(int code, const char *msg);
int rx_boot_pmix_finalize(void);

#endif
