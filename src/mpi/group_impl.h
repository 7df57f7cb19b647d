/* SPDX-License-Identifier: MIT
 * Shared by the group files (group.c, group_set.c). */
#ifndef RX_MPI_GROUP_IMPL_H
#define RX_MPI_GROUP_IMPL_H

#include "mpi_impl.h"

#define RX_GET_GROUP(g, handle, fn)                                                 \
    rx_group_t *g = rx_group_get(handle);                                           \
    if (!g)                                                                         \
        return rx_mpi_err(NULL, MPI_ERR_GROUP, fn, "invalid group%s",               \
                          (handle) == MPI_GROUP_NULL ? " (MPI_GROUP_NULL)" : "")

/* Give a new group (size set, members filled) its rank and handle; it is
 * consumed on failure. It derives from group `from` (for a session's
 * buffered sends, bsend.h). */
int rx_group_out(rx_group_t *ng, const rx_group_t *from, MPI_Group *newgroup, const char *fn);
/* n ranks of g, each valid and none twice (MPI-4.1 §7.3.2). */
int rx_group_check_ranks(const rx_group_t *g, int n, const int ranks[], const char *fn);

#endif
