/* SPDX-License-Identifier: MIT
 * Intercommunicators inside the binding: creation and queries
 * (intercomm.c), collectives (coll_inter.c). An intercommunicator is an
 * rx_comm_t with remote set: its group, rank and size are the local
 * group's, its world list the remote group's (point-to-point ranks name
 * remote members with no translation), local is an intracommunicator over
 * the local group and cview a communicator whose point-to-point context is
 * the intercommunicator's collective one. */
#ifndef RX_MPI_INTER_IMPL_H
#define RX_MPI_INTER_IMPL_H

#include "mpi_impl.h"
#include "bigcount.h"

/* comm.c: the members of colour color in split order (key, then rank) from
 * the (color, key) pairs all[2 * r] of ranks 0..p-1 with world ranks
 * world[]; me is the caller's rank among them (-1: none). NULL: no memory. */
rx_group_t *rx_split_group(const int *all, int p, const int *world, int color, int me);

/* intercomm.c */
/* MPI_Comm_split on an intercommunicator (dup: colour 0, key = rank):
 * collective over both groups; the result joins the members of one colour
 * in each group, MPI_COMM_NULL when either side has none. */
int rx_inter_split(rx_comm_t *c, int color, int key, MPI_Comm *newcomm, const char *fn);
/* MPI_Comm_create on an intercommunicator: g is a subset of the local group. */
int rx_inter_create(rx_comm_t *c, rx_group_t *g, MPI_Comm *newcomm, const char *fn);
/* A new intercommunicator between local group lg (the caller a member) and
 * remote group rg, with the ids agreed (ids[1] for its local communicator);
 * errors in parent's name. */
int rx_inter_make(rx_comm_t *parent, rx_group_t *lg, rx_group_t *rg, const int ids[2],
                  MPI_Comm *out, const char *fn);
/* Free the hidden communicators of c (from rx_comm_reclaim_now). */
void rx_inter_release(rx_comm_t *c);
/* The tag the members of a creation from groups derive from its string tag
 * (FNV-1a, within the tags every MPI offers): intercomm.c, session.c. */
int rx_string_tag(const char *s);
/* MPI_Comm_compare of two intercommunicators: the weaker of the results of
 * the local and the remote groups. */
static inline int rx_inter_compare_worse(int a, int b) { return a > b ? a : b; }

/* coll_inter.c: every collective on an intercommunicator. req NULL:
 * blocking; else the request of the nonblocking form. Collectives of one
 * intercommunicator run one after the other in call order (their steps
 * inside each group use the local communicator, whose collectives every
 * member must start in the same order). */
int rx_inter_barrier(rx_comm_t *c, MPI_Request *req, const char *fn);
int rx_inter_bcast(rx_comm_t *c, void *buf, MPI_Count count, MPI_Datatype dt, int root,
                   MPI_Request *req, const char *fn);
int rx_inter_reduce(rx_comm_t *c, const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt,
                    MPI_Op op, int root, MPI_Request *req, const char *fn);
int rx_inter_allreduce(rx_comm_t *c, const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt,
                       MPI_Op op, MPI_Request *req, const char *fn);
/* counts NULL: the block form with blockcount */
int rx_inter_reduce_scatter(rx_comm_t *c, const void *sbuf, void *rbuf, rx_ivec_t counts,
                            MPI_Count blockcount, MPI_Datatype dt, MPI_Op op, MPI_Request *req,
                            const char *fn);
/* One side of a data movement: uniform (counts NULL) or per-peer counts
 * and displacements (elements, or bytes with types: the w form). */
typedef struct rx_inter_side {
    const void *buf;
    MPI_Count count;
    rx_ivec_t counts, displs;    /* int or MPI_Count / MPI_Aint arrays (bigcount.h) */
    MPI_Datatype type;
    const MPI_Datatype *types;
    int form;                    /* 0 uniform, 1 v (counts, displs), 2 w (and types) */
} rx_inter_side_t;
int rx_inter_gather(rx_comm_t *c, const rx_inter_side_t *s, const rx_inter_side_t *r, int root,
                    MPI_Request *req, const char *fn);
int rx_inter_scatter(rx_comm_t *c, const rx_inter_side_t *s, const rx_inter_side_t *r, int root,
                     MPI_Request *req, const char *fn);
int rx_inter_allgather(rx_comm_t *c, const rx_inter_side_t *s, const rx_inter_side_t *r,
                       MPI_Request *req, const char *fn);
int rx_inter_alltoall(rx_comm_t *c, const rx_inter_side_t *s, const rx_inter_side_t *r,
                      MPI_Request *req, const char *fn);
/* Finish every collective of c still queued (creation from c runs on its
 * local communicator and must not slip in between their steps). */
void rx_inter_drain(rx_comm_t *c);

#endif
