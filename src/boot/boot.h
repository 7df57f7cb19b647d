/* SPDX-License-Identifier: MIT
 * Bootstrap: the job's key-value store with put / get / fence.
 *
 * The runtime sees only this interface. Two clients implement it: the PMI-1
 * "simple" wire protocol over the descriptor named by PMI_FD (rdmx-run, MPICH's
 * hydra) or over TCP to PMI_PORT (rdmx-run's ranks on other hosts, with the
 * job's secret), and PMIx (Open MPI's mpirun, srun --mpi=pmix) when PMIX_RANK
 * is set and the library was built with PMIx.
 *
 * Lifecycle: rx_boot_init -> (put* fence get*)* -> rx_boot_finalize.
 * Keys are at most 63 characters, values at most 1023; values are text (binary
 * data must be hex-encoded by the caller, see rx_boot_put_bin). The wire format
 * separates fields by spaces, so keys and values are printable ASCII without
 * spaces (keys also without '='); others give RX_ERR_INVAL.
 * Not thread-safe: call it from one thread. */
#ifndef RX_BOOT_H
#define RX_BOOT_H

#include <stddef.h>

typedef struct rx_boot_info {
    int rank;            /* this process's rank in the job */
    int size;            /* number of processes in the job */
    int local_rank;      /* rank among the processes on this host */
    int local_size;      /* processes on this host */
    int appnum;
    char jobid[64];      /* unique per job: KVS name; used to name shared segments */
    int singleton;       /* 1: started without a launcher, rank 0 of 1 */
} rx_boot_info_t;

/* Connect to the launcher's key-value server (or become a singleton when no
 * launcher is present). Fills *info. Returns RX_OK or an error status. */
int rx_boot_init(rx_boot_info_t *info);
int rx_boot_put(const char *key, const char *value);
/* Puts are visible to every rank after all ranks called rx_boot_fence. */
int rx_boot_fence(void);
/* Copies the value (NUL-terminated) into value[len]; RX_ERR_NOTFOUND if absent. */
int rx_boot_get(const char *key, char *value, size_t len);
/* Binary helpers: hex-encode up to 500 bytes. get_bin expects exactly len
 * bytes: RX_ERR_TRUNCATE when more are stored, RX_ERR_INVAL when fewer. */
int rx_boot_put_bin(const char *key, const void *data, size_t len);
int rx_boot_get_bin(const char *key, void *data, size_t len);
/* Ask the launcher to end the job with this exit code (MPI_Abort), then exit
 * with it (1 when code & 0xff is 0). Does not return. */
int rx_boot_abort(int code, const char *msg);
/* The same when the transport lost this rank's connection to rank peer (-1:
 * not known); why: its error text, logged by the caller already. rdmx-run
 * reports the loss, naming both ranks' hosts, as the cause of the failure
 * rather than as an abort. Does not return. */
int rx_boot_abort_lost(int code, int peer, const char *why);
int rx_boot_finalize(void);

/* Dynamic processes (MPI_Comm_spawn, name publishing), served by rdmx-run
 * and other PMI-1 servers that implement them (the PMI-1 wire's mcmd=spawn,
 * publish_name, lookup_name, unpublish_name). */
typedef struct rx_boot_app {
    const char *command;
    char *const *argv;   /* arguments after the command, NULL-terminated (NULL: none) */
    int nprocs;
} rx_boot_app_t;
/* Start the apps as one new job of the launcher (its own ranks 0..N-1 in app
 * order, app i's processes getting appnum i), whose key-value store holds
 * key=value from the start. RX_ERR_UNSUPPORTED without a launcher that
 * spawns (a singleton, PMIx), RX_ERR_PEER when the launcher refused; why
 * says which in words. */
int rx_boot_spawn(const rx_boot_app_t *apps, int napps, const char *key, const char *value,
                  char *why, size_t whylen);
/* A key the spawning job put in this job's store (rx_boot_spawn's key):
 * RX_ERR_NOTFOUND at once where no PMI-1 server could have put one, so that
 * a PMIx Get never waits for a key nobody will put. */
int rx_boot_get_preput(const char *key, char *value, size_t len);
/* The launcher's name service; RX_ERR_UNSUPPORTED without one,
 * RX_ERR_NOTFOUND for a name not published (lookup, unpublish),
 * RX_ERR_INVAL for one published already (publish). */
int rx_boot_publish(const char *service, const char *port);
int rx_boot_lookup(const char *service, char *port, size_t len);
int rx_boot_unpublish(const char *service);

#endif
