/* SPDX-License-Identifier: MIT
 * SHMEM start-up and shutdown, PE queries, fatal misuse.
 *
 * shmem_init starts the rdmx runtime unless MPI_Init already did (MPI_Init
 * after it joins the running one; the last of MPI_Finalize and
 * shmem_finalize stops it: src/mpi/env_share.h), takes a
 * private duplicate of the world for its collectives (a communicator of the
 * core, src/mpi/comm_internal.h, never an MPI handle) and creates the
 * symmetric windows. A program that returns from main without
 * shmem_finalize is finalized at exit, as the standard requires. */
#include "shmem_impl.h"
#include "boot/boot.h"
#include "coll/coll.h"
#include "core/rt.h"
#include "mpi/comm_internal.h"
#include "mpi/env_share.h"
#include "mpi/mpi_impl.h"
#include "util/log.h"
#include "util/status.h"

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

rx_sh_state_t rx_sh;

void rx_sh_fatal(const char *fn, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    int n = snprintf(msg, sizeof msg, "%s: ", fn);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    rx_boot_abort(1, msg);
    fprintf(stderr, "%s\n", msg); /* no launcher to end the job: end this PE */
    _Exit(1);
}

void rx_sh_check_init(const char *fn)
{
    if (__builtin_expect(!rx_sh.initialized || rx_sh.finalized, 0)) {
        fprintf(stderr, "%s: called %s shmem_init\n", fn,
                rx_sh.finalized ? "after shmem_finalize, outside" : "before");
        _Exit(1);
    }
}

void rx_sh_check_pe(int pe, const char *fn)
{
    if (__builtin_expect(pe < 0 || pe >= rx_sh.npes, 0))
        rx_sh_fatal(fn, "PE %d is outside 0..%d", pe, rx_sh.npes - 1);
}

static void rx_sh_atexit(void)
{
    if (rx_sh.initialized && !rx_sh.finalized)
        shmem_finalize();
}

static int rx_sh_start(int requested, int *provided)
{
    /* MPI may already run threads in MULTIPLE; a start in MULTIPLE turns the
     * section on, and it is taken from then on (shmem_impl.h) */
    int took __attribute__((cleanup(rx_sh_cs_leave))) = rx_sh_cs_take();
    if (rx_sh.initialized && !rx_sh.finalized) {
        if (provided)
            *provided = rx_sh.thread_level;
        return 0; /* 1.5: later calls do nothing */
    }
    if (rx_sh.finalized) {
        fprintf(stderr, "shmem_init: called after shmem_finalize\n");
        return -1;
    }
    int mreq = requested <= SHMEM_THREAD_SINGLE       ? MPI_THREAD_SINGLE
               : requested == SHMEM_THREAD_FUNNELED   ? MPI_THREAD_FUNNELED
               : requested == SHMEM_THREAD_SERIALIZED ? MPI_THREAD_SERIALIZED
                                                      : MPI_THREAD_MULTIPLE;
    int mprov = MPI_THREAD_SINGLE;
    if (rx_env_start(RX_ENV_SHMEM, mreq, &mprov, "shmem_init") != MPI_SUCCESS)
        return -1;
    if (!took)
        took = rx_sh_cs_take();
    /* the levels have the same numbers; MULTIPLE is the runtime's (rx_mt) */
    int prov = mprov >= MPI_THREAD_MULTIPLE && rx_mt ? SHMEM_THREAD_MULTIPLE
               : mprov >= MPI_THREAD_SERIALIZED     ? SHMEM_THREAD_SERIALIZED
                                                    : mprov;
    rx_comm_t *world = rx_comm_world();
    int rc = rx_comm_derive(world, 0, world->rank, &rx_sh.world);
    if (rc != RX_OK) {
        rx_log_error("shmem_init: %s", rx_status_string(rc));
        return -1;
    }
    snprintf(rx_sh.world->name, sizeof rx_sh.world->name, "SHMEM_TEAM_WORLD");
    rx_sh.me = rx_sh.world->rank;
    rx_sh.npes = rx_sh.world->size;
    rx_sh.thread_level = prov;
    rc = rx_sh_heap_init();
    if (rc == RX_OK)
        rc = rx_sh_team_init();
    if (rc != RX_OK) {
        rx_log_error("shmem_init: %s", rx_status_string(rc));
        return -1;
    }
    rx_sh.initialized = 1;
    rx_sh_env_report();
    if (provided)
        *provided = prov;
    static int registered;
    if (!registered && atexit(rx_sh_atexit) == 0)
        registered = 1;
    return 0;
}

void shmem_init(void)
{
    if (rx_sh_start(SHMEM_THREAD_SINGLE, NULL) != 0)
        rx_sh_fatal("shmem_init", "start-up failed");
}

int shmem_init_thread(int requested, int *provided)
{
    if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE)
        return -1;
    return rx_sh_start(requested, provided);
}

void shmem_query_thread(int *provided)
{
    rx_sh_check_init("shmem_query_thread");
    if (provided)
        *provided = rx_sh.thread_level;
}

void shmem_finalize(void)
{
    if (!rx_sh.initialized || rx_sh.finalized)
        return;
    RX_SH_CS_SCOPE;
    shmem_barrier_all();
    rx_sh_team_fini();
    rx_sh_heap_fini();
    rx_comm_release_internal(rx_sh.world);
    rx_sh.world = NULL;
    rx_sh.finalized = 1;
    rx_env_stop(RX_ENV_SHMEM);
}

void shmem_global_exit(int status)
{
    fflush(stdout);
    fflush(stderr);
    char msg[64];
    snprintf(msg, sizeof msg, "shmem_global_exit(%d) on PE %d", status, rx_sh.me);
    rx_boot_abort(status, msg);
    _Exit(status);
}

int shmem_my_pe(void)
{
    rx_sh_check_init("shmem_my_pe");
    return rx_sh.me;
}

int shmem_n_pes(void)
{
    rx_sh_check_init("shmem_n_pes");
    return rx_sh.npes;
}

int shmem_pe_accessible(int pe)
{
    rx_sh_check_init("shmem_pe_accessible");
    return pe >= 0 && pe < rx_sh.npes;
}

void shmem_info_get_version(int *major, int *minor)
{
    if (major)
        *major = SHMEM_MAJOR_VERSION;
    if (minor)
        *minor = SHMEM_MINOR_VERSION;
}

void shmem_info_get_name(char *name)
{
    if (name)
        snprintf(name, SHMEM_MAX_NAME_LEN, "%s", SHMEM_VENDOR_STRING);
}

void start_pes(int npes)
{
    (void)npes;
    shmem_init();
}

int _my_pe(void) { return shmem_my_pe(); }
int _num_pes(void) { return shmem_n_pes(); }
