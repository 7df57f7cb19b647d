/* SPDX-License-Identifier: MIT
 * Window synchronization calls: fence, post / start / complete / wait /
 * test, lock / unlock (and _all), the flushes and MPI_Win_sync. Epoch misuse
 * is MPI_ERR_RMA_SYNC, checked before anything happens. */
#include "win_impl.h"

#include <stdlib.h>

#define RX_MODE_ALL (MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | \
                     MPI_MODE_NOSUCCEED)

static int rx_sync_rc(rx_win_t *w, int rc, const char *fn)
{
    if (rc == RX_OK)
        return MPI_SUCCESS;
    int cls = rc == RX_ERR_INVAL ? MPI_ERR_RMA_RANGE : rx_mpi_class_of(rc);
    return rx_win_err(w, cls, fn, "%s", rc == RX_ERR_INVAL
                                            ? "an emulated operation fell outside the target window"
                                            : rx_status_string(rc));
}

int PMPI_Win_fence(int assert, MPI_Win win)
{
    RX_CHECK_INIT("MPI_Win_fence");
    RX_GET_WIN(w, win, "MPI_Win_fence");
    if (assert & ~RX_MODE_ALL)
        return rx_win_err(w, MPI_ERR_ASSERT, "MPI_Win_fence", "invalid assert %#x", assert);
    if (w->lock_count || w->lock_all || w->start_open || w->post_open)
        return rx_win_err(w, MPI_ERR_RMA_SYNC, "MPI_Win_fence",
                          "a lock or post/start epoch is open on this window");
    int rc = rx_win_fence(w, assert);
    w->fence_open = !(assert & MPI_MODE_NOSUCCEED);
    return rx_sync_rc(w, rc, "MPI_Win_fence");
}
RX_ALIAS(Win_fence)

/* Window ranks of the members of group; MPI class on failure. */
static int rx_win_group_ranks(rx_win_t *w, MPI_Group group, int **out, int *n, const char *fn)
{
    rx_group_t *g = rx_group_get(group);
    if (!g)
        return rx_win_err(w, MPI_ERR_GROUP, fn, "invalid group");
    int *r = malloc(sizeof(int) * (size_t)(g->size ? g->size : 1));
    if (!r)
        return rx_win_err(w, MPI_ERR_NO_MEM, fn, "out of memory");
    for (int i = 0; i < g->size; i++) {
        r[i] = rx_group_rank_of(w->comm->group, g->world[i]);
        if (r[i] == MPI_UNDEFINED) {
            free(r);
            return rx_win_err(w, MPI_ERR_GROUP, fn, "group member %d is not in the window", i);
        }
    }
    *out = r;
    *n = g->size;
    return MPI_SUCCESS;
}

int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
    RX_CHECK_INIT("MPI_Win_post");
    RX_GET_WIN(w, win, "MPI_Win_post");
    if (assert & ~RX_MODE_ALL)
        return rx_win_err(w, MPI_ERR_ASSERT, "MPI_Win_post", "invalid assert %#x", assert);
    int *ranks, n, c = rx_win_group_ranks(w, group, &ranks, &n, "MPI_Win_post");
    if (c != MPI_SUCCESS)
        return c;
    if (w->post_open) {
        free(ranks);
        return rx_win_err(w, MPI_ERR_RMA_SYNC, "MPI_Win_post", "an exposure epoch is already open");
    }
    int rc = rx_win_post(w, ranks, n);
    free(ranks);
    return rx_sync_rc(w, rc, "MPI_Win_post");
}
RX_ALIAS(Win_post)

int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
    RX_CHECK_INIT("MPI_Win_start");
    RX_GET_WIN(w, win, "MPI_Win_start");
    if (assert & ~RX_MODE_ALL)
        return rx_win_err(w, MPI_ERR_ASSERT, "MPI_Win_start", "invalid assert %#x", assert);
    /* the group argument first: a bad handle is MPI_ERR_GROUP in any state */
    int *ranks, n, c = rx_win_group_ranks(w, group, &ranks, &n, "MPI_Win_start");
    if (c != MPI_SUCCESS)
        return c;
    if (w->start_open || w->lock_count || w->lock_all) {
        free(ranks);
        return rx_win_err(w, MPI_ERR_RMA_SYNC, "MPI_Win_start",
                          "an access epoch (start or lock) is already open");
    }
    int rc = rx_win_start(w, ranks, n);
    free(ranks);
    return rx_sync_rc(w, rc, "MPI_Win_start");
}
RX_ALIAS(Win_start)

int PMPI_Win_complete(MPI_Win win)
{
    RX_CHECK_INIT("MPI_Win_complete");
    RX_GET_WIN(w, win, "MPI_Win_complete");
    if (!w->start_open)
        return rx_win_err(w, MPI_ERR_RMA_SYNC, "MPI_Win_complete", "no MPI_Win_start epoch");
    return rx_sync_rc(w, rx_win_complete(w), "MPI_Win_complete");
}
RX_ALIAS(Win_complete)

int PMPI_Win_wait(MPI_Win win)
{
    RX_CHECK_INIT("MPI_Win_wait");
    RX_GET_WIN(w, win, "MPI_Win_wait");
    if (!w->post_open)
        return rx_win_err(w, MPI_ERR_RMA_SYNC, "MPI_Win_wait", "no MPI_Win_post epoch");
    return rx_sync_rc(w, rx_win_wait(w, 0, NULL), "MPI_Win_wait");
}
RX_ALIAS(Win_wait)

int PMPI_Win_test(MPI_Win win, int *flag)
{
    RX_CHECK_INIT("MPI_Win_test");
    RX_GET_WIN(w, win, "MPI_Win_test");
    if (!flag)
        return rx_win_err(w, MPI_ERR_ARG, "MPI_Win_test", "flag is NULL");
    if (!w->post_open)
        return rx_win_err(w, MPI_ERR_RMA_SYNC, "MPI_Win_test", "no MPI_Win_post epoch");
    return rx_sync_rc(w, rx_win_wait(w, 1, flag), "MPI_Win_test");
}
RX_ALIAS(Win_test)

int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    RX_CHECK_INIT("MPI_Win_lock");
    RX_GET_WIN(w, win, "MPI_Win_lock");
    if (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE)
        return rx_win_err(w, MPI_ERR_LOCKTYPE, "MPI_Win_lock", "invalid lock type %d", lock_type);
    if (assert & ~MPI_MODE_NOCHECK)
        return rx_win_err(w, MPI_ERR_ASSERT, "MPI_Win_lock", "invalid assert %#x", assert);
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (rank < 0 || rank >= w->size)
        return rx_win_err(w, MPI_ERR_RANK, "MPI_Win_lock", "invalid rank %d", rank);
    if (w->tgt[rank].access || w->lock_all || w->start_open)
        return rx_win_err(w, MPI_ERR_RMA_SYNC, "MPI_Win_lock",
                          "an access epoch to rank %d is already open", rank);
    return rx_sync_rc(w, rx_win_lock(w, lock_type == MPI_LOCK_EXCLUSIVE, rank,
                                     (assert & MPI_MODE_NOCHECK) != 0), "MPI_Win_lock");
}
RX_ALIAS(Win_lock)

int PMPI_Win_unlock(int rank, MPI_Win win)
{
    RX_CHECK_INIT("MPI_Win_unlock");
    RX_GET_WIN(w, win, "MPI_Win_unlock");
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (rank < 0 || rank >= w->size)
        return rx_win_err(w, MPI_ERR_RANK, "MPI_Win_unlock", "invalid rank %d", rank);
    if (w->tgt[rank].access != 1 && w->tgt[rank].access != 2)
        return rx_win_err(w, MPI_ERR_RMA_SYNC, "MPI_Win_unlock", "rank %d is not locked", rank);
    return rx_sync_rc(w, rx_win_unlock(w, rank), "MPI_Win_unlock");
}
RX_ALIAS(Win_unlock)

int PMPI_Win_lock_all(int assert, MPI_Win win)
{
    RX_CHECK_INIT("MPI_Win_lock_all");
    RX_GET_WIN(w, win, "MPI_Win_lock_all");
    if (assert & ~MPI_MODE_NOCHECK)
        return rx_win_err(w, MPI_ERR_ASSERT, "MPI_Win_lock_all", "invalid assert %#x", assert);
    if (w->lock_all || w->lock_count || w->start_open)
        return rx_win_err(w, MPI_ERR_RMA_SYNC, "MPI_Win_lock_all",
                          "an access epoch is already open");
    return rx_sync_rc(w, rx_win_lock_all(w, (assert & MPI_MODE_NOCHECK) != 0),
                      "MPI_Win_lock_all");
}
RX_ALIAS(Win_lock_all)

int PMPI_Win_unlock_all(MPI_Win win)
{
    RX_CHECK_INIT("MPI_Win_unlock_all");
    RX_GET_WIN(w, win, "MPI_Win_unlock_all");
    if (!w->lock_all)
        return rx_win_err(w, MPI_ERR_RMA_SYNC, "MPI_Win_unlock_all", "no MPI_Win_lock_all epoch");
    return rx_sync_rc(w, rx_win_unlock_all(w), "MPI_Win_unlock_all");
}
RX_ALIAS(Win_unlock_all)

static int rx_flush_one(MPI_Win win, int rank, const char *fn)
{
    RX_GET_WIN(w, win, fn);
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (rank < 0 || rank >= w->size)
        return rx_win_err(w, MPI_ERR_RANK, fn, "invalid rank %d", rank);
    if (!w->lock_all && w->tgt[rank].access != 1 && w->tgt[rank].access != 2)
        return rx_win_err(w, MPI_ERR_RMA_SYNC, fn, "no passive-target epoch to rank %d", rank);
    if (!w->am_pending_total) {
        /* everything is complete already: order it before what follows */
        atomic_thread_fence(memory_order_acq_rel);
        if (!w->tgt[rank].am_err)
            return MPI_SUCCESS;
    }
    return rx_sync_rc(w, rx_win_flush(w, rank), fn);
}

static int rx_flush_all(MPI_Win win, const char *fn)
{
    RX_GET_WIN(w, win, fn);
    if (!w->lock_all && !w->lock_count)
        return rx_win_err(w, MPI_ERR_RMA_SYNC, fn, "no passive-target epoch");
    return rx_sync_rc(w, rx_win_flush(w, -1), fn);
}

int PMPI_Win_flush(int rank, MPI_Win win)
{
    RX_CHECK_INIT("MPI_Win_flush");
    return rx_flush_one(win, rank, "MPI_Win_flush");
}
RX_ALIAS(Win_flush)

int PMPI_Win_flush_local(int rank, MPI_Win win)
{
    RX_CHECK_INIT("MPI_Win_flush_local");
    return rx_flush_one(win, rank, "MPI_Win_flush_local");
}
RX_ALIAS(Win_flush_local)

int PMPI_Win_flush_all(MPI_Win win)
{
    RX_CHECK_INIT("MPI_Win_flush_all");
    return rx_flush_all(win, "MPI_Win_flush_all");
}
RX_ALIAS(Win_flush_all)

int PMPI_Win_flush_local_all(MPI_Win win)
{
    RX_CHECK_INIT("MPI_Win_flush_local_all");
    return rx_flush_all(win, "MPI_Win_flush_local_all");
}
RX_ALIAS(Win_flush_local_all)

int PMPI_Win_sync(MPI_Win win)
{
    RX_CHECK_INIT("MPI_Win_sync");
    RX_GET_WIN(w, win, "MPI_Win_sync");
    (void)w;
    atomic_thread_fence(memory_order_seq_cst);
    return MPI_SUCCESS;
}
RX_ALIAS(Win_sync)
