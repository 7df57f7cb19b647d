/* SPDX-License-Identifier: MIT
 * Environment: init / finalize, versions, timers. */
#include "coll/coll_shm.h"
#include "coll/offload.h"
#include "env_share.h"
#include "dyn_impl.h"
#include "trace.h"
#include "boot/boot.h"
#include "util/log.h"
#include "util/timer.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Who holds the runtime (env_share.h), who ever did, and whether
 * MPI_Finalize came. */
static int rx_env_users, rx_env_ever, rx_env_mpi_done;

int rx_env_holds(int user) { return (rx_env_users & user) != 0; }

static int rx_runtime_start(int required, int *provided, const char *fn);

int rx_env_start(int user, int required, int *provided, const char *fn)
{
    if (rx_rt.initialized && !rx_rt.finalized && !(rx_env_users & user) &&
        !(user == RX_ENV_MPI && rx_env_mpi_done)) {
        rx_env_users |= user; /* another user started it */
        rx_env_ever |= user;
        if (provided)
            *provided = rx_rt.thread_level;
        return MPI_SUCCESS;
    }
    if (rx_rt.initialized || rx_rt.finalized || (user == RX_ENV_MPI && rx_env_mpi_done)) {
        fprintf(stderr, "rdmx: %s: %s was already %s (MPI_ERR_OTHER)\n", fn,
                user == RX_ENV_MPI ? "MPI" : "the runtime",
                rx_rt.finalized || rx_env_mpi_done ? "finalized" : "initialized");
        _exit(MPI_ERR_OTHER);
    }
    int rc = rx_runtime_start(required, provided, fn);
    rx_env_users |= user;
    rx_env_ever |= user;
    return rc;
}

static int rx_init_common(int required, int *provided, const char *fn)
{
    return rx_env_start(RX_ENV_MPI, required, provided, fn);
}

static int rx_runtime_start(int required, int *provided, const char *fn)
{
    rx_req_error_class = rx_mpi_class_of; /* requests failed below report classes */
    int rc = rx_dtype_init();
    if (rc == RX_OK)
        rc = rx_opobj_init();
    if (rc == RX_OK)
        rc = rx_errh_init();
    if (rc == RX_OK)
        rc = rx_init(rx_p2p_am_handler, NULL);
    if (rc == RX_OK)
        rc = rx_p2p_init();
    if (rc == RX_OK)
        rc = rx_comm_init_predefined();
    if (rc == RX_OK && rx_dyn_init() != MPI_SUCCESS)
        rc = RX_ERR_PEER; /* spawned: joining the parents failed */
    if (rc == RX_OK)
        rx_mpi_trace_start();
    if (rc != RX_OK) {
        rx_log_error("%s: start-up failed: %s", fn, rx_status_string(rc));
        rx_boot_abort(1, "MPI_Init failed");
        _exit(1);
    }
    /* no thread-private state: serialized calls from any thread are safe;
     * MULTIPLE turns on the library's critical section (src/util/cs.h) */
    rx_rt.thread_level = required < MPI_THREAD_SINGLE ? MPI_THREAD_SINGLE : required;
    rx_mt = rx_rt.thread_level == MPI_THREAD_MULTIPLE;
    if (provided)
        *provided = rx_rt.thread_level;
    return MPI_SUCCESS;
}

int PMPI_Init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return rx_init_common(MPI_THREAD_SINGLE, NULL, "MPI_Init");
}
RX_ALIAS(Init)

int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    (void)argc;
    (void)argv;
    if (!provided) {
        fprintf(stderr, "rdmx: MPI_Init_thread: provided is NULL (MPI_ERR_ARG)\n");
        _exit(MPI_ERR_ARG);
    }
    if (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE) {
        fprintf(stderr, "rdmx: MPI_Init_thread: invalid thread level %d (MPI_ERR_ARG)\n", required);
        _exit(MPI_ERR_ARG);
    }
    return rx_init_common(required, provided, "MPI_Init_thread");
}
RX_ALIAS(Init_thread)

static int rx_runtime_stop(void);

/* MPI's own pieces, ended once (by MPI_Finalize or the runtime's stop) */
static void rx_mpi_part_fini(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    rx_mpi_trace_finish();
    rx_bsend_fini();
}

int PMPI_Finalize(void)
{
    RX_CHECK_INIT("MPI_Finalize");
    if (rx_env_mpi_done)
        return rx_mpi_err(NULL, MPI_ERR_OTHER, "MPI_Finalize", "MPI was already finalized");
    /* first, as if MPI_COMM_SELF were freed: its attributes' delete callbacks run
     * in the reverse order of their setting, while MPI is still fully usable
     * (MPI-4.1 11.2.4) */
    rx_attr_delete_all(rx_comm_get(MPI_COMM_SELF));
    rx_env_mpi_done = 1;
    if (rx_env_users & (RX_ENV_SHMEM | RX_ENV_SESSION)) {
        /* OpenSHMEM or sessions still run on it: only the world model's end */
        rx_env_users &= ~RX_ENV_MPI;
        rx_mpi_part_fini();
        int rc = rx_coll_barrier(rx_comm_world());
        fflush(stdout);
        return rc == RX_OK ? MPI_SUCCESS : MPI_ERR_OTHER;
    }
    return rx_runtime_stop();
}
RX_ALIAS(Finalize)

int rx_env_stop(int user)
{
    rx_env_users &= ~user;
    if (rx_env_users || !rx_rt.initialized || rx_rt.finalized)
        return MPI_SUCCESS;
    return rx_runtime_stop();
}

static int rx_runtime_stop(void)
{
    rx_env_users = 0;
    rx_mpi_part_fini();
    int rc = rx_coll_barrier(rx_comm_world());
    /* operations still with the offload thread complete (and may reclaim
     * communicators freed meanwhile) while the engine still runs */
    rx_coll_offload_fini();
    rx_shm_direct_scratch_free();
    rx_p2p_fini();
    rx_comm_fini_all();
    rx_dyn_fini(); /* links to processes connected at run time */
    int frc = rx_finalize();
    rx_opobj_fini();
    rx_dtype_fini();
    fflush(stdout);
    if (rc == RX_OK)
        rc = frc;
    return rc == RX_OK ? MPI_SUCCESS : MPI_ERR_OTHER;
}

int PMPI_Initialized(int *flag)
{
    if (!flag)
        return rx_rt.initialized && !rx_rt.finalized
                   ? rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Initialized", "flag is NULL")
                   : MPI_ERR_ARG;
    /* the world model's state (MPI-4.0 §11.2.1): sessions do not count */
    *flag = (rx_env_ever & (RX_ENV_MPI | RX_ENV_SHMEM)) != 0;
    return MPI_SUCCESS;
}
RX_ALIAS(Initialized)

int PMPI_Finalized(int *flag)
{
    if (!flag)
        return rx_rt.initialized && !rx_rt.finalized
                   ? rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Finalized", "flag is NULL")
                   : MPI_ERR_ARG;
    *flag = rx_env_mpi_done || (rx_rt.finalized && (rx_env_ever & (RX_ENV_MPI | RX_ENV_SHMEM)));
    return MPI_SUCCESS;
}
RX_ALIAS(Finalized)

int PMPI_Abort(MPI_Comm comm, int errorcode)
{
    RX_CHECK_INIT("MPI_Abort");
    char msg[128];
    snprintf(msg, sizeof msg, "MPI_Abort(%s, %d) called by rank %d",
             comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD" : "comm", errorcode, rx_rt.rank);
    fflush(stdout);
    rx_boot_abort(errorcode, msg);
    _exit(errorcode ? errorcode : 1);
}
RX_ALIAS(Abort)

int PMPI_Query_thread(int *provided)
{
    RX_CHECK_INIT("MPI_Query_thread");
    if (!provided)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Query_thread", "provided is NULL");
    *provided = rx_rt.thread_level;
    return MPI_SUCCESS;
}
RX_ALIAS(Query_thread)

int PMPI_Is_thread_main(int *flag)
{
    RX_CHECK_INIT("MPI_Is_thread_main");
    if (!flag)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Is_thread_main", "flag is NULL");
    *flag = pthread_equal(pthread_self(), rx_rt.main_thread) != 0;
    return MPI_SUCCESS;
}
RX_ALIAS(Is_thread_main)

int PMPI_Get_version(int *version, int *subversion)
{
    if (!version || !subversion)
        return MPI_ERR_ARG;
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}
RX_ALIAS(Get_version)

int PMPI_Get_library_version(char *version, int *resultlen)
{
    if (!version || !resultlen)
        return MPI_ERR_ARG;
    *resultlen = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                          "rdmx %s (MPI %d.%d; transports: self, shm)", RDMX_VERSION_STRING,
                          MPI_VERSION, MPI_SUBVERSION);
    return MPI_SUCCESS;
}
RX_ALIAS(Get_library_version)

int PMPI_Get_processor_name(char *name, int *resultlen)
{
    RX_CHECK_INIT("MPI_Get_processor_name");
    if (!name || !resultlen)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Get_processor_name", "NULL argument");
    *resultlen = snprintf(name, MPI_MAX_PROCESSOR_NAME, "%s", rx_rt.hostname);
    if (*resultlen >= MPI_MAX_PROCESSOR_NAME)
        *resultlen = MPI_MAX_PROCESSOR_NAME - 1;
    return MPI_SUCCESS;
}
RX_ALIAS(Get_processor_name)

double PMPI_Wtime(void) { return rx_time_now(); }
RX_ALIAS(Wtime)

double PMPI_Wtick(void)
{
    struct timespec res;
    clock_getres(CLOCK_MONOTONIC, &res);
    return (double)res.tv_sec + 1e-9 * (double)res.tv_nsec;
}
RX_ALIAS(Wtick)
