/* SPDX-License-Identifier: MIT
 * Partitioned point-to-point communication (MPI-4.0 ch. 4): MPI_Psend_init,
 * MPI_Precv_init, MPI_Pready(_range, _list), MPI_Parrived.
 *
 * A partitioned operation is a persistent request (persist.c) of mode
 * RX_PMODE_PART over the whole buffer (partitions x count elements). The
 * send goes out as one message when the last partition is marked ready,
 * which the standard allows; the receive is posted at MPI_Start, and a
 * partition has arrived when that message has, so MPI_Parrived is true
 * only once the partition's data is in the buffer.
 *
 * Partitioned operations match in the order of their init calls per
 * (communicator, peer, tag), not in start order, and never match ordinary
 * messages: they travel on the communicator's collective context under
 * negative tags (which no collective and no program uses), made of the
 * program's tag and the init call's ordinal among those of that peer and
 * tag. Tags are limited to 0..2^24-1 for that, and init calls of one peer
 * and tag match through their ordinal modulo 64: at most 64 such
 * operations should be active at once. */
#include "info_impl.h"
#include "persist_impl.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define RX_PART_TAG_BITS 24
#define RX_PART_ORD_BITS 6

/* The state of a partitioned operation, after its staged data in
 * r->staging (the receive keeps only its partition count). */
typedef struct rx_psend_state {
    int partitions;
    int nready;
    unsigned char ready[];
} rx_psend_state_t;

static rx_psend_state_t *rx_psend_state(rx_req_t *r)
{
    size_t off = r->buf == r->staging ? r->bytes : 0;
    off = (off + 7) & ~(size_t)7;
    return (rx_psend_state_t *)((char *)r->staging + off);
}

/* Init calls so far per (context, peer, tag, direction): the ordinal both
 * sides agree on. */
typedef struct rx_part_ord {
    struct rx_part_ord *next;
    uint32_t ctx;
    int peer, tag, send;
    unsigned count;
} rx_part_ord_t;

static rx_part_ord_t *rx_part_ords;

static int rx_part_next_ordinal(uint32_t ctx, int peer, int tag, int send, unsigned *ord)
{
    rx_part_ord_t *o = rx_part_ords;
    while (o && !(o->ctx == ctx && o->peer == peer && o->tag == tag && o->send == send))
        o = o->next;
    if (!o) {
        if (!(o = calloc(1, sizeof *o)))
            return RX_ERR_NOMEM;
        *o = (rx_part_ord_t){rx_part_ords, ctx, peer, tag, send, 0};
        rx_part_ords = o;
    }
    *ord = o->count++;
    return RX_OK;
}

static int rx_part_wire_tag(int tag, unsigned ord)
{
    unsigned v = ((unsigned)tag << RX_PART_ORD_BITS) | (ord & ((1u << RX_PART_ORD_BITS) - 1));
    return INT_MIN + 1 + (int)v; /* below -1 (MPI_ANY_TAG) for every v */
}

static int rx_part_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                        int peer, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request,
                        int send, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    if (partitions < 1)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "partitions %d: at least one", partitions);
    if (count < 0)
        return rx_mpi_err(c, MPI_ERR_COUNT, fn, "negative count %lld", (long long)count);
    if (count > 0 && (MPI_Count)partitions > INT64_MAX / count)
        return rx_mpi_err(c, MPI_ERR_COUNT, fn, "partitions x count overflows");
    if (!send && peer == MPI_ANY_SOURCE)
        return rx_mpi_err(c, MPI_ERR_RANK, fn, "MPI_ANY_SOURCE: partitioned receives name "
                          "their source");
    if (!send && tag == MPI_ANY_TAG)
        return rx_mpi_err(c, MPI_ERR_TAG, fn, "MPI_ANY_TAG: partitioned receives name their tag");
    if (tag >= (1 << RX_PART_TAG_BITS))
        return rx_mpi_err(c, MPI_ERR_TAG, fn, "tag %d: partitioned operations take tags up "
                          "to %d", tag, (1 << RX_PART_TAG_BITS) - 1);
    rx_info_t *unused;
    int rc = rx_info_arg(c, info, &unused, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    size_t extra = 8 + sizeof(rx_psend_state_t) + (send ? (size_t)partitions : 0);
    rx_req_t *r;
    rc = rx_persist_make(buf, (MPI_Count)partitions * count, datatype, peer, tag, comm, request,
                         send ? RX_REQ_PSEND : RX_REQ_PRECV, RX_PMODE_PART, extra, &r, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    unsigned ord = 0;
    if (peer != MPI_PROC_NULL && rx_part_next_ordinal(c->ctx, peer, tag, send, &ord) != RX_OK) {
        rx_req_release(r);
        *request = MPI_REQUEST_NULL;
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    r->ctx = c->ctx + 1;
    r->tag = rx_part_wire_tag(tag, ord);
    rx_psend_state(r)->partitions = partitions;
    return MPI_SUCCESS;
}

int PMPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                    int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return rx_part_init(buf, partitions, count, datatype, dest, tag, comm, info, request, 1,
                        "MPI_Psend_init");
}
RX_ALIAS(Psend_init)

int PMPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                    int source, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return rx_part_init(buf, partitions, count, datatype, source, tag, comm, info, request, 0,
                        "MPI_Precv_init");
}
RX_ALIAS(Precv_init)

void rx_psend_rearm(rx_req_t *r)
{
    rx_psend_state_t *st = rx_psend_state(r);
    st->nready = 0;
    memset(st->ready, 0, (size_t)st->partitions);
}

/* The active partitioned send a Pready call names. */
static int rx_psend_of(MPI_Request h, rx_req_t **out, const char *fn)
{
    RX_CHECK_INIT(fn);
    rx_req_t *r = rx_req_of_handle(h);
    if (!r || r->kind != RX_REQ_PSEND || r->p_mode != RX_PMODE_PART)
        return rx_mpi_err(NULL, MPI_ERR_REQUEST, fn, "not a partitioned send request");
    if (!r->persistent_active)
        return rx_mpi_err(r->comm, MPI_ERR_REQUEST, fn, "the request is not started");
    *out = r;
    return MPI_SUCCESS;
}

/* Mark one partition; the last one sends the buffer. */
static int rx_pready_one(rx_req_t *r, int partition, const char *fn)
{
    if (r->peer == MPI_PROC_NULL)
        return MPI_SUCCESS;
    rx_psend_state_t *st = rx_psend_state(r);
    if (partition < 0 || partition >= st->partitions)
        return rx_mpi_err(r->comm, MPI_ERR_ARG, fn, "partition %d (the request has %d)",
                          partition, st->partitions);
    if (st->ready[partition])
        return rx_mpi_err(r->comm, MPI_ERR_ARG, fn, "partition %d is already ready", partition);
    st->ready[partition] = 1;
    if (++st->nready < st->partitions)
        return MPI_SUCCESS;
    return rx_persist_send_now(r, fn);
}

int PMPI_Pready(int partition, MPI_Request request)
{
    rx_req_t *r;
    int rc = rx_psend_of(request, &r, "MPI_Pready");
    return rc != MPI_SUCCESS ? rc : rx_pready_one(r, partition, "MPI_Pready");
}
RX_ALIAS(Pready)

int PMPI_Pready_range(int partition_low, int partition_high, MPI_Request request)
{
    const char *fn = "MPI_Pready_range";
    rx_req_t *r;
    int rc = rx_psend_of(request, &r, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (partition_low > partition_high)
        return rx_mpi_err(r->comm, MPI_ERR_ARG, fn, "partition_low %d above partition_high %d",
                          partition_low, partition_high);
    for (int p = partition_low; rc == MPI_SUCCESS && p <= partition_high; p++)
        rc = rx_pready_one(r, p, fn);
    return rc;
}
RX_ALIAS(Pready_range)

int PMPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request)
{
    const char *fn = "MPI_Pready_list";
    rx_req_t *r;
    int rc = rx_psend_of(request, &r, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (length < 0 || (length > 0 && !array_of_partitions))
        return rx_mpi_err(r->comm, MPI_ERR_ARG, fn, "invalid partition list (length %d)",
                          length);
    for (int i = 0; rc == MPI_SUCCESS && i < length; i++)
        rc = rx_pready_one(r, array_of_partitions[i], fn);
    return rc;
}
RX_ALIAS(Pready_list)

int PMPI_Parrived(MPI_Request request, int partition, int *flag)
{
    const char *fn = "MPI_Parrived";
    RX_CHECK_INIT(fn);
    rx_req_t *r = rx_req_of_handle(request);
    if (!r || r->kind != RX_REQ_PRECV || r->p_mode != RX_PMODE_PART)
        return rx_mpi_err(NULL, MPI_ERR_REQUEST, fn, "not a partitioned receive request");
    if (!flag)
        return rx_mpi_err(r->comm, MPI_ERR_ARG, fn, "flag is NULL");
    int partitions = rx_psend_state(r)->partitions;
    if (partition < 0 || partition >= partitions)
        return rx_mpi_err(r->comm, MPI_ERR_ARG, fn, "partition %d (the request has %d)",
                          partition, partitions);
    if (r->persistent_active && !r->complete)
        rx_progress();
    /* the whole message arrives at once: every partition with it (an
     * inactive request's last round is complete too) */
    *flag = !r->persistent_active || r->complete;
    return MPI_SUCCESS;
}
RX_ALIAS(Parrived)
