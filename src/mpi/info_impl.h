/* SPDX-License-Identifier: MIT
 * Info objects as the binding files see them: an ordered list of (key,
 * value) strings. Objects that keep hints (communicators, windows) own a
 * private rx_info_t; MPI_Info handles name objects of the info table, index
 * 1 being MPI_INFO_ENV. */
#ifndef RX_MPI_INFO_IMPL_H
#define RX_MPI_INFO_IMPL_H

#include "mpi_impl.h"

typedef struct rx_info_ent {
    char *key, *val;
} rx_info_ent_t;

typedef struct rx_info {
    int handle;            /* handle index, 0 while private */
    int n, cap;
    rx_info_ent_t *e;      /* in the order keys were first set */
} rx_info_t;

/* The object of a handle (MPI_INFO_ENV included), or NULL. */
rx_info_t *rx_info_get(MPI_Info h);
/* An info argument of a call: MPI_INFO_NULL gives *out = NULL; an invalid
 * handle reports MPI_ERR_INFO on comm (NULL: the world's handler). */
int rx_info_arg(rx_comm_t *comm, MPI_Info h, rx_info_t **out, const char *fn);

rx_info_t *rx_info_new(void);
/* A private copy (NULL in: an empty object); NULL when out of memory. */
rx_info_t *rx_info_copy(const rx_info_t *from);
void rx_info_destroy(rx_info_t *info);
/* Set key to val (replacing an earlier value): RX_OK or RX_ERR_NOMEM. */
int rx_info_put(rx_info_t *info, const char *key, const char *val);
/* The value of key, or NULL. */
const char *rx_info_lookup(const rx_info_t *info, const char *key);
/* Register a private object as a new handle (consumes it on failure). */
int rx_info_publish(rx_info_t *info, MPI_Info *out, const char *fn);

#endif
