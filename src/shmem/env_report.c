/* SPDX-License-Identifier: MIT
 * The reports OpenSHMEM 1.5's environment variables ask for at start-up
 * (§ "Environment Variables"): SHMEM_VERSION prints the library's version,
 * SHMEM_INFO the variables it reads, SHMEM_DEBUG what each PE set up. Each
 * is on when set to anything but an empty string or "0"; the deprecated
 * SMA_VERSION, SMA_INFO and SMA_DEBUG are read when the SHMEM_ name is not
 * set. VERSION and INFO print once, from PE 0, on standard output; DEBUG
 * prints one line per PE on standard error. */
#include "shmem_impl.h"

#include <stdio.h>
#include <stdlib.h>

static int rx_sh_env_on(const char *name, const char *old)
{
    const char *v = getenv(name);
    if (!v)
        v = getenv(old);
    return v && *v && !(v[0] == '0' && v[1] == 0);
}

static const char *rx_sh_reach(int pe)
{
    const rx_win_tgt_t *t = &rx_sh.seg[RX_SH_HEAP].win->tgt[pe];
    switch (t->kind) {
    case RX_RMA_DIRECT: return "mapped";
    case RX_RMA_TL: return "transport";
    case RX_RMA_AM: return "messages";
    default: return "?";
    }
}

void rx_sh_env_report(void)
{
    if (rx_sh.me == 0 && rx_sh_env_on("SHMEM_VERSION", "SMA_VERSION"))
        printf("OpenSHMEM %d.%d (%s)\n", SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION,
               SHMEM_VENDOR_STRING);
    if (rx_sh.me == 0 && rx_sh_env_on("SHMEM_INFO", "SMA_INFO"))
        printf("%s OpenSHMEM environment variables:\n"
               "  SHMEM_SYMMETRIC_SIZE  bytes of symmetric heap per PE, with an optional K, M, G "
               "or T suffix (now %zu)\n"
               "  SHMEM_VERSION         print the library version at start-up\n"
               "  SHMEM_INFO            print this text at start-up\n"
               "  SHMEM_DEBUG           print what each PE set up (heap, threads, how each PE is "
               "reached), on standard error\n"
               "  SMA_SYMMETRIC_SIZE, SMA_VERSION, SMA_INFO, SMA_DEBUG: the deprecated names, read "
               "when the SHMEM_ one is not set\n"
               "  RDMX_*                the runtime's settings: rdmx-run --info lists them\n",
               SHMEM_VENDOR_STRING, rx_sh.seg[RX_SH_HEAP].size);
    fflush(stdout);
    if (!rx_sh_env_on("SHMEM_DEBUG", "SMA_DEBUG"))
        return;
    char line[1024];
    int n = snprintf(line, sizeof line, "shmem: PE %d of %d: heap %zu bytes at %p, thread level %d; PEs:",
                     rx_sh.me, rx_sh.npes, rx_sh.seg[RX_SH_HEAP].size,
                     (void *)rx_sh.seg[RX_SH_HEAP].base, rx_sh.thread_level);
    for (int pe = 0; pe < rx_sh.npes && n < (int)sizeof line - 32; pe++)
        n += snprintf(line + n, sizeof line - (size_t)n, " %d %s", pe, rx_sh_reach(pe));
    if (n >= (int)sizeof line - 32)
        snprintf(line + sizeof line - 32, 32, " ...");
    fprintf(stderr, "%s\n", line);
}
