/* SPDX-License-Identifier: MIT
 * Dynamic processes inside the binding (MPI-4.1 §11.8-11.10): the
 * connection between two groups of processes that did not start together
 * (dyn_link.c) and the MPI entry points over it (dynamic.c). */
#ifndef RX_MPI_DYN_IMPL_H
#define RX_MPI_DYN_IMPL_H

#include "mpi_impl.h"

/* Ports are listening Unix sockets in the abstract namespace (no file
 * anywhere, gone with the process): "rdmx-port-<32 hex digits>". */
#define RX_DYN_PORT_PREFIX "rdmx-port-"

/* Open a port: its listening socket in *fd, its name in name[MPI_MAX_PORT_NAME]. */
int rx_dyn_port_open(char *name, int *fd);
/* Accept one connection on a listening socket / connect to a port name,
 * driving progress while waiting; the connected socket, or -1 (*why). */
int rx_dyn_port_accept(int lfd, const char **why);
int rx_dyn_port_connect(const char *name, const char **why);

/* Collective over intracommunicator c: join its members with the group at
 * the other end of the socket fd (valid at root only; -1 there: the root
 * could not connect, why_root says why, and every member fails). side 0 is
 * the accepting group (it makes the shared region), side 1 the connecting
 * one. *out: the intercommunicator (local group c's); on failure every
 * member reports class cls in fn's name. Closes fd. */
int rx_dyn_connect(rx_comm_t *c, int root, int fd, const char *why_root, int side, int cls,
                   MPI_Comm *out, const char *fn);

/* intercomm.c: the intercommunicator between local group lg (the caller a
 * member) and remote group rg, with the two context ids agreed by both
 * groups; errors in parent's name */
int rx_inter_make(rx_comm_t *parent, rx_group_t *lg, rx_group_t *rg, const int ids[2],
                  MPI_Comm *out, const char *fn);

/* Progress of the links and their release at MPI_Finalize. */
void rx_dyn_fini(void);

/* The parent intercommunicator of a spawned job: set during MPI_Init
 * (rx_dyn_init, when the launcher's key-value store names the parents'
 * port), MPI_COMM_NULL otherwise. */
int rx_dyn_init(void);
extern MPI_Comm rx_dyn_parent;
/* The key of the spawned job's store that holds the parents' port. */
#define RX_DYN_PARENT_KEY "rdmx-parent-port"

#endif
