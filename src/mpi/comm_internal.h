/* SPDX-License-Identifier: MIT
 * Communicators for the runtime's own users (OpenSHMEM's world, teams and
 * windows), made from a parent the way MPI_Comm_split makes one (the same
 * member order and context-id agreement) but without the
 * binding: no handle the application can name, no error handler, no
 * attributes; failures are RX_* statuses for the caller to report.
 *
 * The communicator still takes a slot of the communicator table, retired at
 * once (lookups of its handle fail), because the collectives keep their
 * per-communicator state by table index and every live communicator needs
 * its own. */
#ifndef RX_MPI_COMM_INTERNAL_H
#define RX_MPI_COMM_INTERNAL_H

#include "core/comm.h"

/* Collective over parent. The members with the same color >= 0 form one new
 * communicator, ordered by key, then by rank in parent; *out is NULL for a
 * negative color (not a member). RX_OK or an RX status. A duplicate: color
 * 0, key = parent->rank. */
int rx_comm_derive(rx_comm_t *parent, int color, int key, rx_comm_t **out);
/* Collective over the n members only (parent ranks, in the new order; the
 * caller among them), as MPI_Comm_create_group: the other members of parent
 * take no part. tag (0 .. 2^28-1) must differ between groups whose creations
 * may be in flight at once. RX_OK or an RX status. */
int rx_comm_derive_members(rx_comm_t *parent, const int *members, int n, int tag,
                           rx_comm_t **out);
/* Its collective part, which MPI_Comm_split on an intracommunicator
 * shares: the members of the caller's color in split order (*g NULL for a
 * negative color, MPI_UNDEFINED included) and the context id agreed for
 * them. */
int rx_comm_split_members(rx_comm_t *c, int color, int key, rx_group_t **g, int *id);
/* Give back a communicator from rx_comm_derive (no operation may be in
 * flight on it); NULL is ignored. Local: members may release at any time. */
void rx_comm_release_internal(rx_comm_t *c);

#endif
