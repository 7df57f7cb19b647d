/* SPDX-License-Identifier: MIT
 * Shared by the one-sided binding files (win.c, win_sync.c, win_ops.c). */
#ifndef RX_MPI_WIN_IMPL_H
#define RX_MPI_WIN_IMPL_H

#include "mpi_impl.h"
#include "rma/rma.h"

extern rx_htab_t rx_win_table;

static inline rx_win_t *rx_win_get(MPI_Win h) { return (rx_win_t *)rx_htab_get(&rx_win_table, h); }
static inline MPI_Win rx_win_handle(const rx_win_t *w) { return RX_HANDLE(RX_KIND_WIN, w->handle); }

/* Report an error through the window's error handler (fatal by default). */
int rx_win_err(rx_win_t *w, int cls, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Window creation's info argument (comm_info.c): check it before, merge
 * its hints into the new window's after. */
int rx_win_info_arg(rx_comm_t *c, MPI_Info info, const char *fn);
int rx_win_hints_init(MPI_Win win, MPI_Info info, const char *fn);
/* MPI_Win_get_attr of a key the program made (attr_api.c). */
int rx_win_user_attr(rx_win_t *w, int keyval, void *attribute_val, int *flag, const char *fn);

#define RX_GET_WIN(w, handle, fn)                                                   \
    rx_win_t *w = rx_win_get(handle);                                               \
    if (__builtin_expect(!w, 0))                                                    \
        return rx_mpi_err(NULL, MPI_ERR_WIN, fn, "invalid window%s",                \
                          (handle) == MPI_WIN_NULL ? " (MPI_WIN_NULL)" : "")

#endif
