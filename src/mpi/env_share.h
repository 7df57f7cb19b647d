/* SPDX-License-Identifier: MIT
 * The runtime shared by the MPI world model, MPI sessions and OpenSHMEM
 * (src/mpi/env.c): whichever of MPI_Init, the first MPI_Session_init and
 * shmem_init comes first starts it, the others join; the last of
 * MPI_Finalize, the last MPI_Session_finalize and shmem_finalize stops it. */
#ifndef RX_MPI_ENV_SHARE_H
#define RX_MPI_ENV_SHARE_H

enum { RX_ENV_MPI = 1, RX_ENV_SHMEM = 2, RX_ENV_SESSION = 4 /* the open MPI sessions */ };

/* Start (or join) the runtime for user; MPI thread level required. Returns
 * MPI_SUCCESS; ends the process on a failed start, as MPI_Init does. */
int rx_env_start(int user, int required, int *provided, const char *fn);
/* user is done; the last one stops the runtime. */
int rx_env_stop(int user);
/* 1 while user holds the runtime. */
int rx_env_holds(int user);

#endif
