/* SPDX-License-Identifier: MIT
 * Context-id agreement: the members of a new communicator AND their free-id
 * masks and take the lowest id left.
 *
 * Under MPI_THREAD_MULTIPLE two threads may create communicators from
 * different parents at once, and both agreements would offer the same free
 * bits. As in MPICH, one agreement at a time owns this process's mask: the
 * others offer an empty mask, and a word beside the mask says whether every
 * member offered its own, so all members see alike that a round was spoilt
 * and try again. Among the agreements waiting in a process the one with the
 * lowest key (parent context, then tag) is let in first, which every process
 * does alike, so the lowest agreement in flight always completes. An id won
 * stays reserved (offered by no one) until the call that won it returns:
 * by then it is taken by the new communicator, or not needed.
 * Everything here runs inside the library's critical section. */
#include "mpi_impl.h"

#include <string.h>

#define RX_CTX_WAIT_MAX 64

static uint64_t rx_ctx_owner;                    /* key of the owning agreement, 0: none */
static uint64_t rx_ctx_waiting[RX_CTX_WAIT_MAX]; /* agreements in flight here */
static int rx_ctx_nwaiting;
static uint32_t rx_ctx_reserved[RX_CTX_WORDS];   /* won by calls still running */
static __thread int rx_ctx_won[8] __attribute__((tls_model("initial-exec")));
static __thread int rx_ctx_nwon __attribute__((tls_model("initial-exec")));

/* The calling thread's MPI call returns: its won ids are taken or unused. */
static void rx_ctx_call_done(void)
{
    for (int i = 0; i < rx_ctx_nwon; i++)
        rx_ctx_reserved[rx_ctx_won[i] / 32] &= ~(1u << (rx_ctx_won[i] % 32));
    rx_ctx_nwon = 0;
}

static int rx_ctx_may_own(uint64_t key)
{
    if (rx_ctx_owner && rx_ctx_owner != key)
        return 0;
    for (int i = 0; i < rx_ctx_nwaiting; i++)
        if (rx_ctx_waiting[i] < key)
            return 0;
    return 1;
}

static void rx_ctx_wait_add(uint64_t key)
{
    if (rx_ctx_nwaiting < RX_CTX_WAIT_MAX)
        rx_ctx_waiting[rx_ctx_nwaiting++] = key;
}

static void rx_ctx_wait_remove(uint64_t key)
{
    for (int i = 0; i < rx_ctx_nwaiting; i++)
        if (rx_ctx_waiting[i] == key) {
            rx_ctx_waiting[i] = rx_ctx_waiting[--rx_ctx_nwaiting];
            return;
        }
}

int rx_ctx_agree(uint64_t key, rx_ctx_reduce_t reduce, void *arg, int *id)
{
    uint32_t mask[RX_CTX_WORDS + 1];
    key += 1; /* 0 means no owner */
    if (rx_mt)
        rx_ctx_wait_add(key);
    int rc;
    for (;;) {
        int own = !rx_mt || rx_ctx_may_own(key);
        if (own) {
            memcpy(mask, rx_ctx_mask(), sizeof(uint32_t) * RX_CTX_WORDS);
            for (int w = 0; rx_mt && w < RX_CTX_WORDS; w++)
                mask[w] &= ~rx_ctx_reserved[w];
            rx_ctx_owner = rx_mt ? key : 0;
        } else {
            memset(mask, 0, sizeof(uint32_t) * RX_CTX_WORDS);
        }
        mask[RX_CTX_WORDS] = own ? 1u : 0u;
        rc = reduce(mask, RX_CTX_WORDS + 1, arg);
        if (own)
            rx_ctx_owner = 0;
        if (rc != RX_OK)
            break;
        *id = rx_ctx_pick(mask);
        if (*id >= 0) {
            if (rx_mt && rx_ctx_nwon < 8) {
                rx_ctx_reserved[*id / 32] |= 1u << (*id % 32);
                rx_ctx_won[rx_ctx_nwon++] = *id;
                rx_cs_on_exit = rx_ctx_call_done;
            }
            break;
        }
        if (mask[RX_CTX_WORDS]) { /* every member offered its mask: none left */
            rc = RX_ERR_NOMEM;
            break;
        }
        rx_progress(); /* let the agreement that owns a mask here move on */
    }
    if (rx_mt)
        rx_ctx_wait_remove(key);
    return rc;
}

static int rx_ctx_reduce_comm(uint32_t *mask, int words, void *arg)
{
    return rx_coll_allreduce(mask, mask, words, rx_dtype_get(MPI_UINT32_T),
                             rx_opobj_get(MPI_BAND), (rx_comm_t *)arg);
}

int rx_comm_agree_ctx(rx_comm_t *parent, int *id)
{
    return rx_ctx_agree((uint64_t)parent->ctx << 32, rx_ctx_reduce_comm, parent, id);
}
