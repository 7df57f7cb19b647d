/* SPDX-License-Identifier: MIT
 * Buffers of buffered sends (MPI-4.1 §3.6): the process buffer
 * (MPI_Buffer_attach), one per communicator (MPI_Comm_attach_buffer) and one
 * per session (MPI_Session_attach_buffer), each either memory the program
 * gave or MPI_BUFFER_AUTOMATIC (memory allocated per message). A buffered
 * send on communicator c uses c's buffer, else the buffer of the session c
 * derives from, else the process buffer (bsend.c).
 *
 * A buffer is named by its owner: a kind and an id (0 for the process, the
 * rx_comm_t for a communicator, the session's handle index). The binding
 * functions of each owner check their own handles and report errors in
 * their own names; the calls here return MPI_SUCCESS or an error class and
 * set *why to the message. */
#ifndef RX_MPI_BSEND_H
#define RX_MPI_BSEND_H

#include "mpi_impl.h"

enum rx_bbuf_kind { RX_BBUF_PROCESS, RX_BBUF_COMM, RX_BBUF_SESSION };

int rx_bbuf_attach(int kind, uintptr_t id, void *buffer, MPI_Count size, const char **why);
/* Blocks until the buffer's messages have left it; *size gets the size
 * (0 for MPI_BUFFER_AUTOMATIC), MPI_ERR_COUNT when it exceeds max (the
 * buffer then stays attached). No buffer attached: NULL and 0. */
int rx_bbuf_detach(int kind, uintptr_t id, void *buffer_addr, MPI_Count *size, MPI_Count max,
                   const char **why);
/* 1 when no message of the owner's buffer is in flight (none attached: 1). */
int rx_bbuf_idle(int kind, uintptr_t id);
/* Blocks until rx_bbuf_idle. */
void rx_bbuf_flush(int kind, uintptr_t id);

/* A request that completes once rx_bbuf_idle (isendrecv.c); c, if not
 * NULL, is held by it and receives its errors. */
int rx_watch_flush(int kind, uintptr_t id, rx_comm_t *c, MPI_Request *request, const char *fn);

/* Which session a communicator derives from (0: none, else the session's
 * handle index). A group MPI_Group_from_session_pset returns names its
 * session (the group is held until the session ends), and so do the groups
 * made from it; a communicator made from such a group with
 * MPI_Comm_create_from_group names it too, and every communicator created
 * from a communicator inherits its parent's. */
void rx_bbuf_tie_group(rx_group_t *g, int session);
/* A group made from group `from` (MPI_Group_incl ... MPI_Group_union) names
 * from's session. */
void rx_bbuf_group_derived(const rx_group_t *from, rx_group_t *g);
void rx_bbuf_tie_comm_to_group(rx_comm_t *c, rx_group_t *g);
void rx_bbuf_comm_inherit(rx_comm_t *parent, rx_comm_t *child);
/* Communicator c is reclaimed: its buffer goes (its messages have left: they
 * held c) and so does its tie. */
void rx_bbuf_comm_gone(rx_comm_t *c);
/* Session s ends: its buffer is flushed and goes, and every tie to it. */
void rx_bbuf_session_gone(int session);

#endif
