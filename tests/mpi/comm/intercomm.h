/* SPDX-License-Identifier: MIT
 * Intercommunicators for the tests: MPI_COMM_WORLD split in two groups
 * (even/odd ranks, or the first quarter against the rest: 1+1, 1+2, 1+3,
 * 2+6 ranks), joined by MPI_Intercomm_create. Group 0 holds world rank 0. */
#ifndef RXT_INTERCOMM_H
#define RXT_INTERCOMM_H

#include "rxtest.h"

typedef struct rxt_inter {
    MPI_Comm inter, local;
    int color, lrank, lsize, rsize;
    int n[2];          /* size of each group */
    int *m[2];         /* world ranks of each group's members, in group order */
} rxt_inter_t;

enum { RXT_EVENODD, RXT_QUARTER, RXT_NPARTS };

RXT_FN int rxt_part_color(int part, int r)
{
    int k = rxt_size >= 4 ? rxt_size / 4 : 1;
    return part == RXT_EVENODD ? r % 2 : r >= k;
}

RXT_FN const char *rxt_part_name(int part)
{
    return part == RXT_EVENODD ? "even/odd" : "quarter";
}

RXT_FN void rxt_inter_make(int part, rxt_inter_t *t)
{
    memset(t, 0, sizeof *t);
    t->color = rxt_part_color(part, rxt_rank);
    for (int g = 0; g < 2; g++)
        if (!(t->m[g] = malloc(sizeof(int) * (size_t)rxt_size)))
            RXT_FATAL("out of memory");
    for (int r = 0; r < rxt_size; r++) {
        int g = rxt_part_color(part, r);
        t->m[g][t->n[g]++] = r;
    }
    RXT_MPI(MPI_Comm_split(MPI_COMM_WORLD, t->color, rxt_rank, &t->local));
    int remote_leader = t->m[!t->color][0];
    RXT_MPI(MPI_Intercomm_create(t->local, 0, MPI_COMM_WORLD, remote_leader, 17, &t->inter));
    RXT_MPI(MPI_Comm_rank(t->inter, &t->lrank));
    RXT_MPI(MPI_Comm_size(t->inter, &t->lsize));
    RXT_MPI(MPI_Comm_remote_size(t->inter, &t->rsize));
}

RXT_FN void rxt_inter_free(rxt_inter_t *t)
{
    RXT_MPI(MPI_Comm_free(&t->inter));
    RXT_MPI(MPI_Comm_free(&t->local));
    free(t->m[0]);
    free(t->m[1]);
}

/* World rank of rank i of the remote group, and of the own group. */
RXT_FN int rxt_remote_world(const rxt_inter_t *t, int i) { return t->m[!t->color][i]; }
RXT_FN int rxt_local_world(const rxt_inter_t *t, int i) { return t->m[t->color][i]; }

#endif
