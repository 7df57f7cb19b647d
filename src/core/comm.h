/* SPDX-License-Identifier: MIT
 * Communicators and groups as the layers see them. A communicator owns two
 * context ids: ctx for point-to-point, ctx + 1 for collectives, so the two
 * kinds of traffic never match each other. */
#ifndef RX_CORE_COMM_H
#define RX_CORE_COMM_H

#include <stdint.h>

#define RX_CTX_MAX 8192          /* context ids (two per communicator) */

typedef struct rx_group {
    int refcount;
    int handle;                  /* handle index, 0 for internal groups */
    int size;
    int rank;                    /* this process's rank, or -32766 (MPI_UNDEFINED) */
    int *world;                  /* world rank of each member */
} rx_group_t;

typedef struct rx_attr {
    struct rx_attr *next;
    int keyval;
    void *value;
} rx_attr_t;

/* Topology kinds (c->topo_kind); the binding keeps its MPI_GRAPH, MPI_CART and
 * MPI_DIST_GRAPH equal to them (src/mpi/topo.c) */
enum rx_topo_kind {
    RX_TOPO_NONE = 0, RX_TOPO_GRAPH = 1, RX_TOPO_CART = 2, RX_TOPO_DIST_GRAPH = 3
};

typedef struct rx_comm {
    int handle;                  /* handle index */
    uint32_t ctx;                /* p2p context; ctx + 1 for collectives */
    int rank, size;              /* in the local group */
    int *world;                  /* world rank of each rank point-to-point names:
                                  * group->world, or remote->world on an
                                  * intercommunicator */
    rx_group_t *group;           /* the local group */
    /* intercommunicators only (remote NULL otherwise): the remote group, an
     * intracommunicator over the local group, and the collective context
     * seen as a point-to-point one (src/mpi/intercomm.c) */
    rx_group_t *remote;
    struct rx_comm *local, *cview;
    int errhandler;              /* MPI_Errhandler handle */
    uint32_t coll_seq;           /* tags of successive collectives */
    uint32_t pcoll_seq;          /* tag blocks of persistent collectives (coll_p2p.c) */
    rx_attr_t *attrs;
    int topo_kind;               /* rx_topo_kind */
    void *topo;
    int local_rank, local_size;  /* among members on this node */
    int busy;                    /* requests holding it (rx_req_hold_comm) */
    int freed;                   /* MPI_Comm_free came while busy: reclaimed when idle */
    void *hints;                 /* info hints (the binding's rx_info_t), or NULL */
    char name[128];
} rx_comm_t;

/* Requests hold their communicator: MPI_Comm_free only marks a busy one,
 * and the last operation to finish reclaims it (its context id, handle and
 * node-shared state stay taken until then). */
static inline void rx_comm_hold(rx_comm_t *c)
{
    c->busy++;
}
/* Release a hold; returns 1 when that reclaimed c (no longer valid). */
int rx_comm_unhold(rx_comm_t *c);
/* What reclaiming does (set by the MPI layer). */
extern void (*rx_comm_reclaim)(rx_comm_t *c);

rx_group_t *rx_group_new(int size);
void rx_group_ref(rx_group_t *g);
void rx_group_unref(rx_group_t *g);
/* Rank of world rank w in g, or -32766 (MPI_UNDEFINED). */
int rx_group_rank_of(const rx_group_t *g, int w);

/* Context-id bitmap: bit set = free. rx_ctx_mask() is this process's view;
 * communicator creation ANDs the views of all members and takes the lowest. */
#define RX_CTX_WORDS (RX_CTX_MAX / 2 / 32)
uint32_t *rx_ctx_mask(void);
int rx_ctx_pick(const uint32_t *common); /* lowest free id in common, or -1 */
/* Ids from RX_CTX_NB_FIRST up are agreed only by nonblocking creation
 * (MPI_Comm_idup), the others only by blocking creation: a nonblocking
 * agreement reserves its id during progress, maybe inside a blocking
 * agreement whose snapshot of the free ids would then be stale. */
#define RX_CTX_NB_FIRST (RX_CTX_MAX / 4)
int rx_ctx_pick_nb(const uint32_t *common); /* lowest free id >= RX_CTX_NB_FIRST, or -1 */
void rx_ctx_take(int id);
void rx_ctx_release(int id);

/* Build a communicator around a group (takes a reference). */
rx_comm_t *rx_comm_new(rx_group_t *group, uint32_t ctx);
void rx_comm_destroy(rx_comm_t *c);

#endif
