/* SPDX-License-Identifier: MIT
 * Intercommunicators: MPI_Intercomm_create, _create_from_groups, _merge,
 * the remote-group queries, and split / dup / create on an
 * intercommunicator (inter_impl.h says what one is).
 *
 * Context ids: an intercommunicator takes two, one for itself (its
 * point-to-point and collective contexts) and one for its local
 * communicator, both free at every member of both groups. Each group ANDs
 * its members' free-id masks, the leaders swap theirs and AND them, and
 * each leader broadcasts the result in its group, so all members pick the
 * same lowest ids. */
#include "inter_impl.h"
#include "bsend.h"
#include "info_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The leaders (rank leader of lc) swap s for r through link (peer, tag);
 * then r is broadcast in lc. */
static int rx_leaders_swap(rx_comm_t *lc, int leader, rx_comm_t *link, int peer, int tag,
                           const void *s, size_t sb, void *r, size_t rb)
{
    int rc = RX_OK;
    if (lc->rank == leader)
        rc = rx_coll_sendrecv(s, sb, peer, r, rb, peer, tag, link);
    int rc2 = rx_coll_bcast(r, rb, leader, lc);
    return rc != RX_OK ? rc : rc2;
}

/* mask &= the AND of every local member's free ids. */
static int rx_local_mask(rx_comm_t *lc, uint32_t *mask)
{
    memcpy(mask, rx_ctx_mask(), sizeof(uint32_t) * RX_CTX_WORDS);
    return rx_coll_allreduce(mask, mask, RX_CTX_WORDS, rx_dtype_get(MPI_UINT32_T),
                             rx_opobj_get(MPI_BAND), lc);
}

/* The n (1 or 2) lowest ids free in mask AND other. */
static int rx_pick_ids(uint32_t *mask, const uint32_t *other, int n, int ids[2])
{
    for (int w = 0; w < RX_CTX_WORDS; w++)
        mask[w] &= other[w];
    for (int i = 0; i < n; i++) {
        if ((ids[i] = rx_ctx_pick(mask)) < 0)
            return RX_ERR_NOMEM;
        mask[ids[i] / 32] &= ~(1u << (ids[i] % 32));
    }
    return RX_OK;
}

/* n ids free at every member of intercommunicator c (collective over both). */
static int rx_inter_ids(rx_comm_t *c, int n, int ids[2])
{
    uint32_t mask[RX_CTX_WORDS], other[RX_CTX_WORDS];
    int rc = rx_local_mask(c->local, mask);
    if (rc == RX_OK)
        rc = rx_leaders_swap(c->local, 0, c, 0, rx_coll_tag(c), mask, sizeof mask, other,
                             sizeof other);
    return rc == RX_OK ? rx_pick_ids(mask, other, n, ids) : rc;
}

int rx_inter_make(rx_comm_t *parent, rx_group_t *lg, rx_group_t *rg, const int ids[2],
                         MPI_Comm *out, const char *fn)
{
    MPI_Comm h, lh;
    int rc = rx_comm_make(parent, lg, ids[0], &h, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rx_comm_t *c = rx_comm_get(h);
    rx_group_ref(rg);
    c->remote = rg;
    c->world = rg->world;
    if ((rc = rx_comm_make(parent, lg, ids[1], &lh, fn)) != MPI_SUCCESS) {
        rx_comm_reclaim_now(c);
        return rc;
    }
    c->local = rx_comm_get(lh);
    /* the hidden communicators report to the code using them, which
     * reports in the intercommunicator's name */
    rx_errh_detach(c->local->errhandler);
    c->local->errhandler = MPI_ERRORS_RETURN;
    snprintf(c->local->name, sizeof c->local->name, "local group of an intercommunicator");
    rx_comm_t *v = rx_comm_new(lg, c->ctx + 1);
    if (v && (v->handle = rx_htab_add(&rx_comm_table, v, 3)) < 0) {
        rx_comm_destroy(v);
        v = NULL;
    }
    if (!v) {
        rx_comm_reclaim_now(c);
        return rx_mpi_err(parent, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    rx_group_ref(rg);
    v->remote = rg;
    v->world = rg->world;
    v->errhandler = MPI_ERRORS_RETURN;
    snprintf(v->name, sizeof v->name, "collective context of an intercommunicator");
    c->cview = v;
    *out = h;
    return MPI_SUCCESS;
}

void rx_inter_release(rx_comm_t *c)
{
    if (c->local)
        rx_comm_reclaim_now(c->local);
    if (c->cview) { /* shares c's context id: nothing to give back but itself */
        rx_coll_comm_release(c->cview);
        rx_htab_del(&rx_comm_table, c->cview->handle);
        rx_comm_destroy(c->cview);
    }
    c->local = c->cview = NULL;
}

/* A group of n world ranks, the caller not a member. */
static rx_group_t *rx_group_of(const int *world, int n)
{
    rx_group_t *g = rx_group_new(n);
    if (g)
        memcpy(g->world, world, sizeof(int) * (size_t)n);
    return g;
}

/* ---- MPI_Intercomm_create ------------------------------------------------ */

/* What the local leader tells its group: the MPI error class each group's
 * arguments were refused with (0: none; the remote one is known only when
 * the leaders could talk), the outcome of the exchange, the remote group's
 * size and the remote leader's mask. */
typedef struct rx_xhdr {
    int cls, rcls, status, size;
    uint32_t mask[RX_CTX_WORDS];
} rx_xhdr_t;

/* The leaders' traffic goes on the peer communicator's collective context,
 * far above its own collectives' tags, so no receive of the program can
 * take it: the error classes on a tag of their own, then sizes, masks and
 * member lists on one the call's tag selects (never the classes' one). */
#define RX_XCLS_TAG 0x2fffffff
static int rx_xchg_tag(int tag) { return 0x20000000 | (tag % 0x0fffffff); }

/* At the local leader: swap error classes with the remote leader; then,
 * when neither group refused its arguments, sizes, masks and member lists;
 * *world becomes the remote list (malloc'd). The classes do not depend on
 * the tag, so a group that refused its tag still tells the other; those
 * calls concurrent between the same leaders (threads) may swap their
 * classes, which are all 0 in a correct program. */
static int rx_leader_xchg(rx_comm_t *lc, rx_comm_t *pc, int rleader, int tag, rx_xhdr_t *h,
                          int **world)
{
    int rcls = 0;
    int rc = rx_coll_sendrecv(&h->cls, sizeof h->cls, rleader, &rcls, sizeof rcls, rleader,
                              RX_XCLS_TAG, pc);
    if (rc != RX_OK)
        return rc;
    h->rcls = rcls;
    if (h->cls || h->rcls)
        return RX_OK;
    rx_xhdr_t mine = {0, 0, RX_OK, lc->size, {0}}, theirs;
    memcpy(mine.mask, h->mask, sizeof mine.mask);
    tag = rx_xchg_tag(tag);
    rc = rx_coll_sendrecv(&mine, sizeof mine, rleader, &theirs, sizeof theirs, rleader, tag, pc);
    if (rc != RX_OK)
        return rc;
    h->size = theirs.size;
    memcpy(h->mask, theirs.mask, sizeof h->mask);
    if (h->size <= 0 || !(*world = malloc(sizeof(int) * (size_t)h->size)))
        return RX_ERR_NOMEM;
    return rx_coll_sendrecv(lc->world, sizeof(int) * (size_t)lc->size, rleader, *world,
                            sizeof(int) * (size_t)h->size, rleader, tag, pc);
}

/* Checks only the local leader can make (peer_comm, remote_leader): 0 or
 * the error class, with its reason in why. */
static int rx_leader_args(rx_comm_t *lc, MPI_Comm peer_comm, int rleader, rx_comm_t **pc,
                          char *why, size_t wn)
{
    if (!(*pc = rx_comm_get(peer_comm))) {
        snprintf(why, wn, "invalid peer communicator at the local leader");
        return MPI_ERR_COMM;
    }
    int n = (*pc)->remote ? (*pc)->remote->size : (*pc)->size;
    if (rleader < 0 || rleader >= n) {
        snprintf(why, wn, "remote leader %d not in the peer communicator (%d ranks)", rleader, n);
        return MPI_ERR_RANK;
    }
    if (rx_group_rank_of(lc->group, (*pc)->world[rleader]) >= 0) {
        snprintf(why, wn, "the remote leader is in the local group");
        return MPI_ERR_COMM;
    }
    return 0;
}

/* The checks every member makes: 0 or the error class, with its reason. */
static int rx_member_args(rx_comm_t *lc, int local_leader, int tag, MPI_Comm *out, char *why,
                          size_t wn)
{
    if (local_leader < 0 || local_leader >= lc->size) {
        snprintf(why, wn, "local leader %d not in local_comm (%d ranks)", local_leader, lc->size);
        return MPI_ERR_RANK;
    }
    if (tag < 0) {
        snprintf(why, wn, "invalid tag %d (tags are 0..MPI_TAG_UB)", tag);
        return MPI_ERR_TAG;
    }
    if (!out) {
        snprintf(why, wn, "newintercomm is NULL");
        return MPI_ERR_ARG;
    }
    return 0;
}

/* Bad arguments end the call with an error at every member of both groups
 * (as far as the leaders can still reach each other) rather than leaving
 * anyone waiting: the members agree on their own checks (an AND of one word
 * per error class, folded into the free-id mask reduction), a local leader
 * out of range at any member makes rank 0 stand in as leader, and the
 * leader swaps the agreed class with the remote leader before anything
 * else, on a tag that does not depend on the call's (so a tag refused at
 * one side only is told to the other too), unless its own peer arguments
 * are bad: then the remote leader cannot be named, only the local group
 * learns of the failure (MPI_ERRORS_ARE_FATAL ends the job there), and the
 * other group waits; docs/mpi-support-notes.txt says why. */
int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                          int remote_leader, int tag, MPI_Comm *newintercomm)
{
    const char *fn = "MPI_Intercomm_create";
    RX_CHECK_INIT(fn);
    RX_GET_COMM(lc, local_comm, fn);
    if (lc->remote)
        return rx_mpi_err(lc, MPI_ERR_COMM, fn, "local_comm is an intercommunicator");
    char why[160] = "";
    int cls = rx_member_args(lc, local_leader, tag, newintercomm, why, sizeof why);
    uint32_t red[RX_CTX_WORDS + 1], mine[RX_CTX_WORDS];
    memcpy(red, rx_ctx_mask(), sizeof(uint32_t) * RX_CTX_WORDS);
    red[RX_CTX_WORDS] = cls ? ~(1u << cls) : ~0u;
    int st = rx_coll_allreduce(red, red, RX_CTX_WORDS + 1, rx_dtype_get(MPI_UINT32_T),
                               rx_opobj_get(MPI_BAND), lc);
    if (st != RX_OK)
        return rx_mpi_err(lc, rx_mpi_class_of(st), fn, "%s", rx_status_string(st));
    uint32_t bad = ~red[RX_CTX_WORDS];
    int ld = bad & (1u << MPI_ERR_RANK) ? 0 : local_leader;
    if (!cls && bad) {
        cls = __builtin_ctz(bad);
        snprintf(why, sizeof why, "another member of local_comm refused its arguments");
    }
    rx_xhdr_t h = {cls, 0, RX_OK, 0, {0}};
    memcpy(h.mask, red, sizeof h.mask);
    memcpy(mine, red, sizeof mine);
    int *world = NULL;
    if (lc->rank == ld) {
        rx_comm_t *pc;
        char pwhy[160];
        int pcls = rx_leader_args(lc, peer_comm, remote_leader, &pc, pwhy, sizeof pwhy);
        if (!pcls)
            h.status = rx_leader_xchg(lc, pc, remote_leader, tag, &h, &world);
        else if (!h.cls) {
            h.cls = pcls;
            memcpy(why, pwhy, sizeof pwhy);
        }
    }
    st = rx_coll_bcast(&h, sizeof h, ld, lc);
    if (st == RX_OK && lc->rank != ld && h.cls && !cls)
        snprintf(why, sizeof why, "the local leader refused its peer arguments");
    if (st == RX_OK && h.cls) {
        free(world);
        return rx_mpi_err(lc, h.cls, fn, "%s", why);
    }
    if (st == RX_OK && h.rcls) {
        free(world);
        return rx_mpi_err(lc, MPI_ERR_OTHER, fn, "the remote group refused its arguments "
                          "(error class %d)", h.rcls);
    }
    if (st == RX_OK && h.status != RX_OK)
        st = h.status;
    if (st == RX_OK && lc->rank != ld && !(world = malloc(sizeof(int) * (size_t)h.size)))
        st = RX_ERR_NOMEM;
    if (st == RX_OK)
        st = rx_coll_bcast(world, sizeof(int) * (size_t)h.size, ld, lc);
    int ids[2] = {-1, -1};
    for (int i = 0; st == RX_OK && i < h.size; i++)
        if (rx_group_rank_of(lc->group, world[i]) >= 0)
            st = RX_ERR_INVAL;
    if (st == RX_OK)
        st = rx_pick_ids(mine, h.mask, 2, ids);
    rx_group_t *rg = st == RX_OK ? rx_group_of(world, h.size) : NULL;
    free(world);
    if (st == RX_ERR_INVAL)
        return rx_mpi_err(lc, MPI_ERR_COMM, fn, "the two groups are not disjoint");
    if (st != RX_OK)
        return rx_mpi_err(lc, rx_mpi_class_of(st), fn, "%s", rx_status_string(st));
    if (!rg)
        return rx_mpi_err(lc, MPI_ERR_NO_MEM, fn, "out of memory");
    int rc = rx_inter_make(lc, lc->group, rg, ids, newintercomm, fn);
    rx_group_unref(rg);
    return rc;
}
RX_ALIAS(Intercomm_create)

int rx_string_tag(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return (int)(h % 32768u);
}

int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader,
                                      MPI_Group remote_group, int remote_leader,
                                      const char *stringtag, MPI_Info info,
                                      MPI_Errhandler errhandler, MPI_Comm *newintercomm)
{
    const char *fn = "MPI_Intercomm_create_from_groups";
    RX_CHECK_INIT(fn);
    rx_comm_t *wc = rx_comm_world();
    rx_group_t *lg = rx_group_get(local_group), *rg = rx_group_get(remote_group);
    if (!lg || !rg)
        return rx_mpi_err(wc, MPI_ERR_GROUP, fn, "invalid group");
    if (lg->rank < 0)
        return rx_mpi_err(wc, MPI_ERR_GROUP, fn, "the caller is not in local_group");
    if (local_leader < 0 || local_leader >= lg->size || remote_leader < 0 ||
        remote_leader >= rg->size)
        return rx_mpi_err(wc, MPI_ERR_RANK, fn, "leader %d or %d out of its group (%d, %d ranks)",
                          local_leader, remote_leader, lg->size, rg->size);
    if (!stringtag || !newintercomm)
        return rx_mpi_err(wc, MPI_ERR_ARG, fn, "stringtag or newintercomm is NULL");
    rx_info_t *hints;
    int rc = rx_info_arg(wc, info, &hints, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    /* every group is a subset of MPI_COMM_WORLD here: the local group's
     * communicator comes from it (MPI_Comm_create_group, tagged with the
     * string's tag) and so do the leaders' messages */
    int tag = rx_string_tag(stringtag);
    MPI_Comm lcomm;
    if ((rc = PMPI_Comm_create_group(MPI_COMM_WORLD, local_group, tag, &lcomm)) != MPI_SUCCESS)
        return rc;
    rc = PMPI_Intercomm_create(lcomm, local_leader, MPI_COMM_WORLD, rg->world[remote_leader], tag,
                               newintercomm);
    PMPI_Comm_free(&lcomm);
    if (rc == MPI_SUCCESS) /* a session's groups: the session's buffered-send buffer */
        rx_bbuf_tie_comm_to_group(rx_comm_get(*newintercomm), lg);
    if (rc == MPI_SUCCESS && errhandler != MPI_ERRHANDLER_NULL &&
        (rc = PMPI_Comm_set_errhandler(*newintercomm, errhandler)) != MPI_SUCCESS)
        PMPI_Comm_free(newintercomm);
    return rc;
}
RX_ALIAS(Intercomm_create_from_groups)

/* ---- merge, split, dup, create ------------------------------------------- */

#define RX_GET_INTER(c, handle, fn)                                                 \
    RX_GET_COMM(c, handle, fn);                                                     \
    if (!c->remote)                                                                 \
        return rx_mpi_err(c, MPI_ERR_COMM, fn, "not an intercommunicator")

int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    const char *fn = "MPI_Intercomm_merge";
    RX_CHECK_INIT(fn);
    RX_GET_INTER(c, intercomm, fn);
    if (!newintracomm)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "newintracomm is NULL");
    rx_inter_drain(c);
    /* each leader's high flag, and what orders the groups when the flags
     * are equal: its job and its rank there, which both groups see alike
     * (peer indices differ between processes of different jobs, connected
     * at run time: src/mpi/dyn_link.c) */
    struct { int high, rank; uint64_t job; } mine = {!!high, rx_rt.rank, 1469598103934665603ull},
                                            theirs = {0, 0, 0};
    for (const char *s = rx_rt.jobid; *s; s++)
        mine.job = (mine.job ^ (unsigned char)*s) * 1099511628211ull; /* FNV-1a */
    int ids[2];
    int rc = rx_leaders_swap(c->local, 0, c, 0, rx_coll_tag(c), &mine, sizeof mine, &theirs,
                             sizeof theirs);
    if (rc == RX_OK) /* the leader's job and rank, to every member */
        rc = rx_coll_bcast(&mine, sizeof mine, 0, c->local);
    if (rc == RX_OK)
        rc = rx_inter_ids(c, 1, ids);
    if (rc != RX_OK)
        return rx_mpi_err(c, rx_mpi_class_of(rc), fn, "%s", rx_status_string(rc));
    /* the low group first; with equal flags the group of the leader of the
     * lower (job, rank): within one job, the lower world rank leader */
    int first = mine.high != theirs.high ? !mine.high
                : mine.job != theirs.job  ? mine.job < theirs.job
                                          : mine.rank < theirs.rank;
    int l = c->size, r = c->remote->size;
    rx_group_t *g = rx_group_new(l + r);
    if (!g)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    memcpy(g->world + (first ? 0 : r), c->group->world, sizeof(int) * (size_t)l);
    memcpy(g->world + (first ? l : 0), c->remote->world, sizeof(int) * (size_t)r);
    g->rank = c->rank + (first ? 0 : r);
    rc = rx_comm_make(c, g, ids[0], newintracomm, fn);
    rx_group_unref(g);
    return rc;
}
RX_ALIAS(Intercomm_merge)

int rx_inter_split(rx_comm_t *c, int color, int key, MPI_Comm *newcomm, const char *fn)
{
    rx_inter_drain(c);
    int l = c->size, r = c->remote->size, mine[2] = {color, key}, ids[2];
    int *la = malloc(sizeof(int) * 2 * (size_t)l), *ra = malloc(sizeof(int) * 2 * (size_t)r);
    int rc = la && ra ? rx_coll_allgather(mine, sizeof mine, la, c->local) : RX_ERR_NOMEM;
    /* every member takes part in each step, whatever its own outcome */
    if (rc == RX_OK)
        rc = rx_leaders_swap(c->local, 0, c, 0, rx_coll_tag(c), la, sizeof(int) * 2 * (size_t)l,
                             ra, sizeof(int) * 2 * (size_t)r);
    if (rc == RX_OK)
        rc = rx_inter_ids(c, 2, ids);
    rx_group_t *lg = NULL, *rg = NULL;
    if (rc == RX_OK && color != MPI_UNDEFINED) {
        lg = rx_split_group(la, l, c->group->world, color, c->rank);
        rg = rx_split_group(ra, r, c->remote->world, color, -1);
        if (!lg || !rg)
            rc = RX_ERR_NOMEM;
    }
    free(la);
    free(ra);
    if (rc == RX_OK) {
        *newcomm = MPI_COMM_NULL;
        if (lg && rg->size > 0)
            rc = rx_inter_make(c, lg, rg, ids, newcomm, fn);
    } else {
        rc = rx_mpi_err(c, rx_mpi_class_of(rc), fn, "%s", rx_status_string(rc));
    }
    rx_group_unref(lg);
    rx_group_unref(rg);
    return rc;
}

int rx_inter_create(rx_comm_t *c, rx_group_t *g, MPI_Comm *newcomm, const char *fn)
{
    return rx_inter_split(c, g->rank >= 0 ? 0 : MPI_UNDEFINED, g->rank, newcomm, fn);
}

/* ---- queries --------------------------------------------------------------- */

int PMPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    const char *fn = "MPI_Comm_remote_size";
    RX_CHECK_INIT(fn);
    RX_GET_INTER(c, comm, fn);
    if (!size)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "size is NULL");
    *size = c->remote->size;
    return MPI_SUCCESS;
}
RX_ALIAS(Comm_remote_size)

int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    const char *fn = "MPI_Comm_remote_group";
    RX_CHECK_INIT(fn);
    RX_GET_INTER(c, comm, fn);
    if (!group)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "group is NULL");
    rx_group_t *g = rx_group_of(c->remote->world, c->remote->size);
    if (!g || rx_group_register(g) != RX_OK) {
        rx_group_unref(g);
        return rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    *group = RX_HANDLE(RX_KIND_GROUP, g->handle);
    return MPI_SUCCESS;
}
RX_ALIAS(Comm_remote_group)
