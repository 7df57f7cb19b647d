/* SPDX-License-Identifier: MIT
 * Communicator creation beyond dup and split: MPI_Comm_split_type
 * (MPI_COMM_TYPE_SHARED, and the MPI-4 hardware splits: guided by
 * "mpi_hw_resource_type" = "mpi_shared_memory" it is the shared split; any
 * other resource type, and the unguided split, give MPI_COMM_NULL, which the
 * standard allows when no such split is offered), MPI_Comm_create (collective over the parent) and
 * MPI_Comm_create_group (collective over the group's members only). */
#include "coll_impl.h"
#include "info_impl.h"
#include "inter_impl.h"

#include <stdlib.h>
#include <string.h>

int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    const char *fn = "MPI_Comm_split_type";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    if (c->remote)
        return rx_mpi_err(c, MPI_ERR_COMM, fn, "not valid on an intercommunicator");
    rx_info_t *hints; /* checked; only mpi_hw_resource_type is read */
    int rc = rx_info_arg(c, info, &hints, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!newcomm)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "newcomm is NULL");
    if (split_type == MPI_COMM_TYPE_HW_GUIDED) {
        const char *v = hints ? rx_info_lookup(hints, "mpi_hw_resource_type") : NULL;
        split_type = v && !strcmp(v, "mpi_shared_memory") ? MPI_COMM_TYPE_SHARED : MPI_UNDEFINED;
    } else if (split_type == MPI_COMM_TYPE_HW_UNGUIDED) {
        split_type = MPI_UNDEFINED;
    }
    if (split_type != MPI_COMM_TYPE_SHARED && split_type != MPI_UNDEFINED)
        return rx_mpi_err(c, MPI_ERR_ARG, fn,
                          "split_type %d not supported (MPI_COMM_TYPE_SHARED, _HW_GUIDED, "
                          "_HW_UNGUIDED or MPI_UNDEFINED)",
                          split_type);
    /* the node index is the same for every rank of a node and differs
     * between nodes: a colour for MPI_Comm_split */
    int color = split_type == MPI_UNDEFINED ? MPI_UNDEFINED : rx_rt.node_of[rx_rt.rank];
    return PMPI_Comm_split(comm, color, key, newcomm);
}
RX_ALIAS(Comm_split_type)

/* Every member of g must be a member of c. */
static int rx_group_within(const rx_group_t *g, const rx_comm_t *c)
{
    for (int i = 0; i < g->size; i++)
        if (rx_group_rank_of(c->group, g->world[i]) < 0)
            return 0;
    return 1;
}

static rx_group_t *rx_group_lookup(MPI_Group h)
{
    return rx_group_get(h);
}

int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    const char *fn = "MPI_Comm_create";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    if (!newcomm)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "newcomm is NULL");
    rx_group_t *g = rx_group_lookup(group);
    if (!g)
        return rx_mpi_err(c, MPI_ERR_GROUP, fn, "invalid group");
    if (!rx_group_within(g, c))
        return rx_mpi_err(c, MPI_ERR_GROUP, fn, "the group has processes outside the communicator");
    if (c->remote) /* a subset of the local group; the result is an intercommunicator */
        return rx_inter_create(c, g, newcomm, fn);
    int id, rc = rx_comm_agree_ctx(c, &id);
    if (rc != RX_OK)
        return rx_mpi_err(c, rx_mpi_class_of(rc), fn, "no free context id");
    if (g->rank < 0) {
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    return rx_comm_make(c, g, id, newcomm, fn);
}
RX_ALIAS(Comm_create)

/* Context agreement among the group's members only: a binomial reduce (AND)
 * to the group's first member and a binomial broadcast back, sent on the
 * parent's collective context with parent ranks, under tags far above any the
 * parent's sequence reaches, one per user tag. Parent ranks keep agreements
 * of different groups apart: a member still in one (say of ranks 0, 1, 3)
 * receives only from its members, so the messages of a later agreement of
 * other members (ranks 1, 2, 3, with the same tag) wait for their own call;
 * between two members both agreements run in the same order on both sides. */
typedef struct {
    rx_comm_t *parent;
    const rx_group_t *g;
    int tag;
} rx_group_agree_t;

static int rx_member_rank(const rx_group_agree_t *a, int i)
{
    return rx_group_rank_of(a->parent->group, a->g->world[i]);
}

static int rx_group_reduce(uint32_t *mask, int words, void *arg)
{
    const rx_group_agree_t *a = arg;
    int n = a->g->size, me = a->g->rank, rc = RX_OK;
    size_t bytes = sizeof(uint32_t) * (size_t)words;
    uint32_t in[RX_CTX_WORDS + 1];
    if (words > RX_CTX_WORDS + 1)
        return RX_ERR_INVAL;
    int k = 1;
    for (; k < n && rc == RX_OK; k <<= 1) {
        if (me & k) {
            rc = rx_coll_send(mask, bytes, rx_member_rank(a, me - k), a->tag, a->parent);
            break;
        }
        if (me + k < n && (rc = rx_coll_recv(in, bytes, rx_member_rank(a, me + k), a->tag,
                                             a->parent)) == RX_OK)
            for (int w = 0; w < words; w++)
                mask[w] &= in[w];
    }
    if (rc == RX_OK && me)
        rc = rx_coll_recv(mask, bytes, rx_member_rank(a, me - k), a->tag, a->parent);
    for (k >>= 1; k > 0 && rc == RX_OK; k >>= 1)
        if (me + k < n)
            rc = rx_coll_send(mask, bytes, rx_member_rank(a, me + k), a->tag, a->parent);
    return rc;
}

int rx_group_agree_ctx(rx_comm_t *parent, rx_group_t *g, int tag, int *id)
{
    rx_group_agree_t a = {parent, g, (int)(0x30000000u | ((uint32_t)tag & 0x0fffffffu))};
    return rx_ctx_agree((uint64_t)parent->ctx << 32 | ((uint32_t)tag & 0x0fffffffu),
                        rx_group_reduce, &a, id);
}

int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    const char *fn = "MPI_Comm_create_group";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(c, comm, fn);
    if (c->remote)
        return rx_mpi_err(c, MPI_ERR_COMM, fn, "not valid on an intercommunicator");
    if (!newcomm)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "newcomm is NULL");
    int rc = rx_mpi_check_tag(c, tag, 0, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rx_group_t *g = rx_group_lookup(group);
    if (!g)
        return rx_mpi_err(c, MPI_ERR_GROUP, fn, "invalid group");
    if (!rx_group_within(g, c))
        return rx_mpi_err(c, MPI_ERR_GROUP, fn, "the group has processes outside the communicator");
    if (g->rank < 0) {
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    int id;
    if ((rc = rx_group_agree_ctx(c, g, tag, &id)) != RX_OK)
        return rx_mpi_err(c, rx_mpi_class_of(rc), fn, "no free context id");
    return rx_comm_make(c, g, id, newcomm, fn);
}
RX_ALIAS(Comm_create_group)
