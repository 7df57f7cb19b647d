/* SPDX-License-Identifier: MIT
 * The bad-argument sweep: every MPI function of include/mpi.h that takes a
 * handle, a count, a rank, a tag or a buffer is called with each class of
 * invalid argument under MPI_ERRORS_RETURN, and must return the error class
 * the standard names for it (MPI-4.0 section 9.4) without crashing, hanging
 * or touching memory.
 *
 * The tables: one X-macro list of calls per argument class. A handle list
 * is run once for every bad value of its kind (null, freed, random integers,
 * -1, a handle of another kind, a stale generation of a live handle); the
 * other lists hold the bad value in the call itself. A failing row prints
 * its line, the call, the bad value, the class it got and the one it wants;
 * a row that crashes or hangs prints itself from the signal handler.
 *
 * Every rank makes every call: bad arguments of collectives are bad at all
 * ranks (arguments significant at the root only are swept at one rank), and
 * point-to-point rows other than the rank rows name MPI_PROC_NULL as the
 * peer, so a check that is missing cannot leave a message or wait for one.
 * One-sided rows run inside a lock_all epoch on a window of 64 ints. */
#include "rxtest.h"

#include <limits.h>
#include <signal.h>

static const char *cur_call = "(setup)", *cur_arg = "";
static int nrows, nfail;

static void say(const char *s)
{
    ssize_t w = write(2, s, strlen(s));
    (void)w;
}

/* A row that crashes or hangs names itself. */
static void on_signal(int sig)
{
    say(sig == SIGALRM ? "bad_args: row hangs: " : "bad_args: row crashed: ");
    say(cur_call);
    say(" with ");
    say(cur_arg);
    say("\n");
    _exit(3);
}

/* The class's name: MPI_Error_string of a class starts with it. */
static const char *cls_name(int cls, char *s)
{
    int len;
    if (cls < 0 || MPI_Error_string(cls, s, &len) != MPI_SUCCESS)
        return "(not an error class)";
    s[strcspn(s, ":")] = 0;
    return s;
}

static void row(int line, const char *call, const char *arg, int want, int want2, int rc)
{
    char g[MPI_MAX_ERROR_STRING], w1[MPI_MAX_ERROR_STRING], w2[MPI_MAX_ERROR_STRING];
    int cls = MPI_SUCCESS;
    nrows++;
    if (rc != MPI_SUCCESS && MPI_Error_class(rc, &cls) != MPI_SUCCESS)
        cls = -1;
    if (cls == want || cls == want2)
        return;
    nfail++;
    rxt_errs++;
    fprintf(stderr, "[bad_args rank %d] FAIL row %d: %s with %s: got %s (%d), want %s", rxt_rank,
            line, call, arg, cls_name(cls, g), cls, cls_name(want, w1));
    if (want2 != want)
        fprintf(stderr, " or %s", cls_name(want2, w2));
    fprintf(stderr, "\n");
}

#define ROWX(want, want2, arg, text, call)                                                       \
    do {                                                                                         \
        cur_call = (text);                                                                       \
        cur_arg = (arg);                                                                         \
        row(__LINE__, text, arg, want, want2, (call));                                           \
    } while (0)
#define ROW2(want, want2, arg, call) ROWX(want, want2, arg, #call, call)
#define ROW(want, arg, call) ROWX(want, want, arg, #call, call)

/* A handle list: each call uses v (the bad value) or &vp (a copy of it). */
typedef struct { int v; const char *name; } bad_t;
#define SWEEP(want, vals, nvals, LIST)                                                           \
    for (int k_ = 0; k_ < (nvals); k_++) {                                                       \
        int v = (vals)[k_].v, vp = v;                                                            \
        const char *vn = (vals)[k_].name;                                                        \
        (void)vp;                                                                                \
        LIST(want)                                                                               \
    }
#define R(want, call)                                                                            \
    do {                                                                                         \
        vp = v;                                                                                  \
        ROWX(want, want, vn, #call, call);                                                       \
    } while (0);

/* ---- fixtures ------------------------------------------------------------- */

static MPI_Comm W, cart, nc;
static MPI_Group gw, g;
static MPI_Datatype ut, t8m, t40, nt, i4[64];
static MPI_Win win, dwin, shw, nw;
static MPI_Op uop;
static MPI_Request rq, rqs[4];
static MPI_Status st, sts[4];
static MPI_Errhandler eh;
static MPI_Info ni;
static MPI_Message msg;
static MPI_Count cx;
static MPI_Aint apos;
static int tkv, wkv, rng[1][3] = { { 0, 0, 1 } };
static int me, n, i1, i2, pos, kv, flag;
static int buf[64], rbuf[64], cnt[64], dsp[64], one[1] = { 1 }, zero[1] = { 0 }, idx[4];
static MPI_Aint adsp[64], asz;
static void *ptr;
static char name[MPI_MAX_OBJECT_NAME];
static int *wbase;
static const int Q = MPI_PROC_NULL; /* the peer of rows whose bad argument is not the rank */
static const MPI_Datatype I = MPI_INT;

/* The point-to-point calls, with (buffer, count, type, peer, tag, communicator) as given:
 * every send form, and every receive form. */
#define SEND_ROWS(want, a, B, C, D, P, T, CM)                                                    \
    ROW(want, a, MPI_Send(B, C, D, P, T, CM));                                                   \
    ROW(want, a, MPI_Ssend(B, C, D, P, T, CM));                                                  \
    ROW(want, a, MPI_Rsend(B, C, D, P, T, CM));                                                  \
    ROW(want, a, MPI_Bsend(B, C, D, P, T, CM));                                                  \
    ROW(want, a, MPI_Isend(B, C, D, P, T, CM, &rq));                                             \
    ROW(want, a, MPI_Issend(B, C, D, P, T, CM, &rq));                                            \
    ROW(want, a, MPI_Irsend(B, C, D, P, T, CM, &rq));                                            \
    ROW(want, a, MPI_Ibsend(B, C, D, P, T, CM, &rq));                                            \
    ROW(want, a, MPI_Send_init(B, C, D, P, T, CM, &rq));                                         \
    ROW(want, a, MPI_Ssend_init(B, C, D, P, T, CM, &rq));                                        \
    ROW(want, a, MPI_Rsend_init(B, C, D, P, T, CM, &rq));                                        \
    ROW(want, a, MPI_Bsend_init(B, C, D, P, T, CM, &rq));                                        \
    ROW(want, a, MPI_Sendrecv(B, C, D, P, T, rbuf, 1, I, Q, 0, CM, &st));                        \
    ROW(want, a, MPI_Sendrecv_replace(B, C, D, P, T, Q, 0, CM, &st));                           \
    ROW(want, a, MPI_Isendrecv(B, C, D, P, T, rbuf, 1, I, Q, 0, CM, &rq));                      \
    ROW(want, a, MPI_Isendrecv_replace(B, C, D, P, T, Q, 0, CM, &rq))
#define RECV_ROWS(want, a, B, C, D, P, T, CM)                                                    \
    ROW(want, a, MPI_Recv(B, C, D, P, T, CM, &st));                                              \
    ROW(want, a, MPI_Irecv(B, C, D, P, T, CM, &rq));                                             \
    ROW(want, a, MPI_Recv_init(B, C, D, P, T, CM, &rq));                                         \
    ROW(want, a, MPI_Sendrecv(buf, 1, I, Q, 0, B, C, D, P, T, CM, &st));                         \
    ROW(want, a, MPI_Sendrecv_replace(B, C, D, Q, 0, P, T, CM, &st));                           \
    ROW(want, a, MPI_Isendrecv(buf, 1, I, Q, 0, B, C, D, P, T, CM, &rq));                       \
    ROW(want, a, MPI_Isendrecv_replace(B, C, D, Q, 0, P, T, CM, &rq))

static void usum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static void errh_fn(MPI_Comm *c, int *code, ...)
{
    (void)c;
    (void)code;
}

/* ---- handle tables ----------------------------------------------------------- */

#define COMM_ROWS(w)                                                                             \
    R(w, MPI_Comm_rank(v, &i1)) R(w, MPI_Comm_size(v, &i1)) R(w, MPI_Comm_dup(v, &nc))           \
    R(w, MPI_Comm_split(v, 0, 0, &nc)) R(w, MPI_Comm_free(&vp)) R(w, MPI_Comm_compare(v, W, &i1)) \
    R(w, MPI_Comm_compare(W, v, &i1)) R(w, MPI_Comm_group(v, &g)) R(w, MPI_Comm_test_inter(v, &i1)) \
    R(w, MPI_Comm_get_attr(v, MPI_TAG_UB, &ptr, &flag)) R(w, MPI_Comm_set_attr(v, kv, NULL))     \
    R(w, MPI_Comm_delete_attr(v, kv)) R(w, MPI_Comm_set_errhandler(v, MPI_ERRORS_RETURN))        \
    R(w, MPI_Comm_get_errhandler(v, &eh)) R(w, MPI_Comm_call_errhandler(v, MPI_ERR_OTHER))       \
    R(w, MPI_Comm_set_name(v, "x")) R(w, MPI_Comm_get_name(v, name, &i1))                        \
    R(w, MPI_Comm_set_info(v, MPI_INFO_NULL)) R(w, MPI_Comm_get_info(v, &ni))                    \
    R(w, MPI_Comm_dup_with_info(v, MPI_INFO_NULL, &nc)) R(w, MPI_Comm_idup(v, &nc, &rq))         \
    R(w, MPI_Comm_idup_with_info(v, MPI_INFO_NULL, &nc, &rq))                                    \
    SEND_ROWS(w, vn, buf, 1, I, Q, 0, v); RECV_ROWS(w, vn, buf, 1, I, Q, 0, v);                  \
    R(w, MPI_Probe(Q, 0, v, &st))                                                                \
    R(w, MPI_Iprobe(Q, 0, v, &flag, &st)) R(w, MPI_Mprobe(Q, 0, v, &msg, &st))                   \
    R(w, MPI_Improbe(Q, 0, v, &flag, &msg, &st)) R(w, MPI_Attr_put(v, kv, NULL))                 \
    R(w, MPI_Attr_get(v, kv, &ptr, &flag)) R(w, MPI_Attr_delete(v, kv))                          \
    R(w, MPI_Graph_create(v, 1, one, zero, 0, &nc)) R(w, MPI_Graphdims_get(v, &i1, &i2))         \
    R(w, MPI_Graph_get(v, 1, 1, idx, idx + 1)) R(w, MPI_Graph_neighbors_count(v, 0, &i1))        \
    R(w, MPI_Graph_neighbors(v, 0, 1, idx)) R(w, MPI_Graph_map(v, 1, one, zero, &i1))            \
    R(w, MPI_Cart_map(v, 1, one, one, &i1))                                                        \
    R(w, MPI_Barrier(v)) R(w, MPI_Bcast(buf, 1, I, 0, v))                                        \
    R(w, MPI_Reduce(buf, rbuf, 1, I, MPI_SUM, 0, v)) R(w, MPI_Allreduce(buf, rbuf, 1, I, MPI_SUM, v)) \
    R(w, MPI_Gather(buf, 1, I, rbuf, 1, I, 0, v)) R(w, MPI_Gatherv(buf, 1, I, rbuf, cnt, dsp, I, 0, v)) \
    R(w, MPI_Scatter(buf, 1, I, rbuf, 1, I, 0, v)) R(w, MPI_Scatterv(buf, cnt, dsp, I, rbuf, 1, I, 0, v)) \
    R(w, MPI_Allgather(buf, 1, I, rbuf, 1, I, v)) R(w, MPI_Allgatherv(buf, 1, I, rbuf, cnt, dsp, I, v)) \
    R(w, MPI_Alltoall(buf, 1, I, rbuf, 1, I, v))                                                 \
    R(w, MPI_Alltoallv(buf, cnt, dsp, I, rbuf, cnt, dsp, I, v))                                  \
    R(w, MPI_Alltoallw(buf, cnt, dsp, i4, rbuf, cnt, dsp, i4, v))                                \
    R(w, MPI_Reduce_scatter(buf, rbuf, cnt, I, MPI_SUM, v))                                      \
    R(w, MPI_Reduce_scatter_block(buf, rbuf, 1, I, MPI_SUM, v))                                  \
    R(w, MPI_Scan(buf, rbuf, 1, I, MPI_SUM, v)) R(w, MPI_Exscan(buf, rbuf, 1, I, MPI_SUM, v))    \
    R(w, MPI_Ibarrier(v, &rq)) R(w, MPI_Ibcast(buf, 1, I, 0, v, &rq))                            \
    R(w, MPI_Ireduce(buf, rbuf, 1, I, MPI_SUM, 0, v, &rq))                                       \
    R(w, MPI_Iallreduce(buf, rbuf, 1, I, MPI_SUM, v, &rq))                                       \
    R(w, MPI_Igather(buf, 1, I, rbuf, 1, I, 0, v, &rq))                                          \
    R(w, MPI_Igatherv(buf, 1, I, rbuf, cnt, dsp, I, 0, v, &rq))                                  \
    R(w, MPI_Iscatter(buf, 1, I, rbuf, 1, I, 0, v, &rq))                                         \
    R(w, MPI_Iscatterv(buf, cnt, dsp, I, rbuf, 1, I, 0, v, &rq))                                 \
    R(w, MPI_Iallgather(buf, 1, I, rbuf, 1, I, v, &rq))                                          \
    R(w, MPI_Iallgatherv(buf, 1, I, rbuf, cnt, dsp, I, v, &rq))                                  \
    R(w, MPI_Ialltoall(buf, 1, I, rbuf, 1, I, v, &rq))                                           \
    R(w, MPI_Ialltoallv(buf, cnt, dsp, I, rbuf, cnt, dsp, I, v, &rq))                            \
    R(w, MPI_Ialltoallw(buf, cnt, dsp, i4, rbuf, cnt, dsp, i4, v, &rq))                          \
    R(w, MPI_Ireduce_scatter(buf, rbuf, cnt, I, MPI_SUM, v, &rq))                                \
    R(w, MPI_Ireduce_scatter_block(buf, rbuf, 1, I, MPI_SUM, v, &rq))                            \
    R(w, MPI_Iscan(buf, rbuf, 1, I, MPI_SUM, v, &rq)) R(w, MPI_Iexscan(buf, rbuf, 1, I, MPI_SUM, v, &rq)) \
    R(w, MPI_Comm_split_type(v, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &nc))                    \
    R(w, MPI_Comm_create(v, gw, &nc)) R(w, MPI_Comm_create_group(v, gw, 0, &nc))                 \
    R(w, MPI_Win_create(buf, 64, 1, MPI_INFO_NULL, v, &nw))                                      \
    R(w, MPI_Win_allocate(64, 1, MPI_INFO_NULL, v, &ptr, &nw))                                   \
    R(w, MPI_Win_allocate_shared(64, 1, MPI_INFO_NULL, v, &ptr, &nw))                            \
    R(w, MPI_Win_create_dynamic(MPI_INFO_NULL, v, &nw))                                          \
    R(w, MPI_Pack(buf, 1, I, rbuf, 64, &pos, v)) R(w, MPI_Unpack(buf, 64, &pos, rbuf, 1, I, v))  \
    R(w, MPI_Pack_size(1, I, v, &i1)) R(w, MPI_Cart_create(v, 1, one, one, 0, &nc))              \
    R(w, MPI_Cartdim_get(v, &i1)) R(w, MPI_Cart_get(v, 1, cnt, dsp, idx))                        \
    R(w, MPI_Cart_rank(v, zero, &i1)) R(w, MPI_Cart_coords(v, 0, 1, idx))                        \
    R(w, MPI_Cart_shift(v, 0, 1, &i1, &i2)) R(w, MPI_Cart_sub(v, one, &nc))                      \
    R(w, MPI_Topo_test(v, &i1))                                                                  \
    R(w, MPI_Dist_graph_create_adjacent(v, 0, zero, MPI_UNWEIGHTED, 0, zero, MPI_UNWEIGHTED,     \
                                        MPI_INFO_NULL, 0, &nc))                                  \
    R(w, MPI_Dist_graph_create(v, 0, zero, zero, zero, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &nc))   \
    R(w, MPI_Dist_graph_neighbors_count(v, &i1, &i2, &flag))                                     \
    R(w, MPI_Dist_graph_neighbors(v, 0, idx, MPI_UNWEIGHTED, 0, idx, MPI_UNWEIGHTED))            \
    R(w, MPI_Neighbor_allgather(buf, 1, I, rbuf, 1, I, v))                                       \
    R(w, MPI_Neighbor_allgatherv(buf, 1, I, rbuf, cnt, dsp, I, v))                               \
    R(w, MPI_Neighbor_alltoall(buf, 1, I, rbuf, 1, I, v))                                        \
    R(w, MPI_Neighbor_alltoallv(buf, cnt, dsp, I, rbuf, cnt, dsp, I, v))                         \
    R(w, MPI_Neighbor_alltoallw(buf, cnt, adsp, i4, rbuf, cnt, adsp, i4, v))                     \
    R(w, MPI_Ineighbor_allgather(buf, 1, I, rbuf, 1, I, v, &rq))                                 \
    R(w, MPI_Ineighbor_allgatherv(buf, 1, I, rbuf, cnt, dsp, I, v, &rq))                         \
    R(w, MPI_Ineighbor_alltoall(buf, 1, I, rbuf, 1, I, v, &rq))                                  \
    R(w, MPI_Ineighbor_alltoallv(buf, cnt, dsp, I, rbuf, cnt, dsp, I, v, &rq))                   \
    R(w, MPI_Ineighbor_alltoallw(buf, cnt, adsp, i4, rbuf, cnt, adsp, i4, v, &rq))

/* datatype arguments (constructors and queries accept uncommitted types,
 * so these take only invalid handles) */
#define TYPE_ROWS(w)                                                                             \
    SEND_ROWS(w, vn, buf, 1, v, Q, 0, W); RECV_ROWS(w, vn, buf, 1, v, Q, 0, W);                  \
    R(w, MPI_Get_count(&st, v, &i1))                                                             \
    R(w, MPI_Get_elements(&st, v, &i1)) R(w, MPI_Type_size(v, &i1))                              \
    R(w, MPI_Get_elements_x(&st, v, &cx)) R(w, MPI_Type_size_x(v, &cx))                          \
    R(w, MPI_Type_get_extent_x(v, &cx, &cx)) R(w, MPI_Type_get_true_extent_x(v, &cx, &cx))       \
    R(w, MPI_Type_set_attr(v, tkv, NULL)) R(w, MPI_Type_get_attr(v, tkv, &ptr, &flag))           \
    R(w, MPI_Type_delete_attr(v, tkv)) R(w, MPI_Status_set_elements(&st, v, 1))                  \
    R(w, MPI_Status_set_elements_x(&st, v, 1))                                                   \
    R(w, MPI_Pack_external("external32", buf, 1, v, rbuf, 64, &apos))                           \
    R(w, MPI_Unpack_external("external32", buf, 64, &apos, rbuf, 1, v))                         \
    R(w, MPI_Pack_external_size("external32", 1, v, &asz))                                       \
    R(w, MPI_Type_create_darray(1, 0, 1, one, (int[]){ MPI_DISTRIBUTE_BLOCK },                   \
                                (int[]){ MPI_DISTRIBUTE_DFLT_DARG }, one, MPI_ORDER_C, v, &nt))                              \
    R(w, MPI_Type_get_extent(v, adsp, adsp + 1)) R(w, MPI_Type_get_true_extent(v, adsp, adsp + 1)) \
    R(w, MPI_Type_commit(&vp)) R(w, MPI_Type_free(&vp)) R(w, MPI_Type_dup(v, &nt))               \
    R(w, MPI_Type_contiguous(1, v, &nt)) R(w, MPI_Type_vector(1, 1, 1, v, &nt))                  \
    R(w, MPI_Type_create_hvector(1, 1, 4, v, &nt)) R(w, MPI_Type_indexed(1, one, zero, v, &nt))  \
    R(w, MPI_Type_create_hindexed(1, one, adsp, v, &nt))                                         \
    R(w, MPI_Type_create_indexed_block(1, 1, zero, v, &nt))                                      \
    R(w, MPI_Type_create_hindexed_block(1, 1, adsp, v, &nt))                                     \
    R(w, MPI_Type_create_struct(1, one, adsp, &vp, &nt))                                         \
    R(w, MPI_Type_create_subarray(1, one, one, zero, MPI_ORDER_C, v, &nt))                       \
    R(w, MPI_Type_create_resized(v, 0, 4, &nt)) R(w, MPI_Type_get_envelope(v, &i1, &i2, &pos, &flag)) \
    R(w, MPI_Type_get_contents(v, 4, 4, 4, idx, adsp, i4 + 32)) R(w, MPI_Type_set_name(v, "x"))  \
    R(w, MPI_Type_get_name(v, name, &i1)) R(w, MPI_Pack(buf, 1, v, rbuf, 64, &pos, W))           \
    R(w, MPI_Unpack(buf, 64, &pos, rbuf, 1, v, W)) R(w, MPI_Pack_size(1, v, W, &i1))             \
    R(w, MPI_Bcast(buf, 1, v, 0, W)) R(w, MPI_Reduce(buf, rbuf, 1, v, MPI_SUM, 0, W))            \
    R(w, MPI_Allreduce(buf, rbuf, 1, v, MPI_SUM, W)) R(w, MPI_Gather(buf, 1, v, rbuf, 1, I, 0, W)) \
    R(w, MPI_Scatter(buf, 1, I, rbuf, 1, v, 0, W)) R(w, MPI_Allgather(buf, 1, v, rbuf, 1, I, W)) \
    R(w, MPI_Allgather(buf, 1, I, rbuf, 1, v, W)) R(w, MPI_Allgatherv(buf, 1, I, rbuf, cnt, dsp, v, W)) \
    R(w, MPI_Alltoall(buf, 1, v, rbuf, 1, I, W)) R(w, MPI_Alltoall(buf, 1, I, rbuf, 1, v, W))    \
    R(w, MPI_Alltoallv(buf, cnt, dsp, v, rbuf, cnt, dsp, I, W))                                  \
    R(w, MPI_Reduce_scatter(buf, rbuf, cnt, v, MPI_SUM, W))                                      \
    R(w, MPI_Reduce_scatter_block(buf, rbuf, 1, v, MPI_SUM, W))                                  \
    R(w, MPI_Scan(buf, rbuf, 1, v, MPI_SUM, W)) R(w, MPI_Exscan(buf, rbuf, 1, v, MPI_SUM, W))    \
    R(w, MPI_Ibcast(buf, 1, v, 0, W, &rq)) R(w, MPI_Iallreduce(buf, rbuf, 1, v, MPI_SUM, W, &rq)) \
    R(w, MPI_Iallgather(buf, 1, v, rbuf, 1, I, W, &rq)) R(w, MPI_Ialltoall(buf, 1, I, rbuf, 1, v, W, &rq)) \
    R(w, MPI_Iscan(buf, rbuf, 1, v, MPI_SUM, W, &rq))                                            \
    R(w, MPI_Neighbor_allgather(buf, 1, v, rbuf, 1, I, cart))                                    \
    R(w, MPI_Neighbor_alltoall(buf, 1, I, rbuf, 1, v, cart))                                     \
    R(w, MPI_Reduce_local(buf, rbuf, 1, v, MPI_SUM))                                             \
    R(w, MPI_Put(buf, 1, v, me, 0, 1, I, win)) R(w, MPI_Put(buf, 1, I, me, 0, 1, v, win))        \
    R(w, MPI_Get(rbuf, 1, v, me, 0, 1, I, win)) R(w, MPI_Get(rbuf, 1, I, me, 0, 1, v, win))      \
    R(w, MPI_Accumulate(buf, 1, v, me, 0, 1, I, MPI_SUM, win))                                   \
    R(w, MPI_Accumulate(buf, 1, I, me, 0, 1, v, MPI_SUM, win))                                   \
    R(w, MPI_Get_accumulate(buf, 1, I, rbuf, 1, v, me, 0, 1, I, MPI_SUM, win))                   \
    R(w, MPI_Fetch_and_op(buf, rbuf, v, me, 0, MPI_SUM, win))                                    \
    R(w, MPI_Compare_and_swap(buf, buf, rbuf, v, me, 0, win))                                    \
    R(w, MPI_Rput(buf, 1, v, me, 0, 1, I, win, &rq)) R(w, MPI_Rget(rbuf, 1, v, me, 0, 1, I, win, &rq)) \
    R(w, MPI_Raccumulate(buf, 1, v, me, 0, 1, I, MPI_SUM, win, &rq))                             \
    R(w, MPI_Rget_accumulate(buf, 1, I, rbuf, 1, I, me, 0, 1, v, MPI_SUM, win, &rq))

#define GROUP_ROWS(w)                                                                            \
    R(w, MPI_Group_size(v, &i1)) R(w, MPI_Group_rank(v, &i1)) R(w, MPI_Group_incl(v, 1, zero, &g)) \
    R(w, MPI_Group_excl(v, 1, zero, &g)) R(w, MPI_Group_free(&vp))                                \
    R(w, MPI_Group_translate_ranks(v, 1, zero, gw, idx))                                          \
    R(w, MPI_Group_translate_ranks(gw, 1, zero, v, idx)) R(w, MPI_Group_compare(v, gw, &i1))       \
    R(w, MPI_Group_compare(gw, v, &i1)) R(w, MPI_Comm_create(W, v, &nc))                          \
    R(w, MPI_Comm_create_group(W, v, 0, &nc)) R(w, MPI_Win_post(v, 0, win))                       \
    R(w, MPI_Win_start(v, 0, win)) R(w, MPI_Group_union(v, gw, &g))                              \
    R(w, MPI_Group_union(gw, v, &g)) R(w, MPI_Group_intersection(v, gw, &g))                     \
    R(w, MPI_Group_difference(gw, v, &g)) R(w, MPI_Group_range_incl(v, 1, rng, &g))              \
    R(w, MPI_Group_range_excl(v, 1, rng, &g))

#define OP_ROWS(w)                                                                               \
    R(w, MPI_Reduce(buf, rbuf, 1, I, v, 0, W)) R(w, MPI_Allreduce(buf, rbuf, 1, I, v, W))          \
    R(w, MPI_Reduce_scatter(buf, rbuf, cnt, I, v, W))                                             \
    R(w, MPI_Reduce_scatter_block(buf, rbuf, 1, I, v, W)) R(w, MPI_Scan(buf, rbuf, 1, I, v, W))    \
    R(w, MPI_Exscan(buf, rbuf, 1, I, v, W)) R(w, MPI_Ireduce(buf, rbuf, 1, I, v, 0, W, &rq))       \
    R(w, MPI_Iallreduce(buf, rbuf, 1, I, v, W, &rq))                                              \
    R(w, MPI_Ireduce_scatter(buf, rbuf, cnt, I, v, W, &rq))                                       \
    R(w, MPI_Ireduce_scatter_block(buf, rbuf, 1, I, v, W, &rq))                                   \
    R(w, MPI_Iscan(buf, rbuf, 1, I, v, W, &rq)) R(w, MPI_Iexscan(buf, rbuf, 1, I, v, W, &rq))      \
    R(w, MPI_Reduce_local(buf, rbuf, 1, I, v)) R(w, MPI_Op_free(&vp))                             \
    R(w, MPI_Op_commutative(v, &i1)) R(w, MPI_Accumulate(buf, 1, I, me, 0, 1, I, v, win))          \
    R(w, MPI_Get_accumulate(buf, 1, I, rbuf, 1, I, me, 0, 1, I, v, win))                          \
    R(w, MPI_Fetch_and_op(buf, rbuf, I, me, 0, v, win))                                           \
    R(w, MPI_Raccumulate(buf, 1, I, me, 0, 1, I, v, win, &rq))                                    \
    R(w, MPI_Rget_accumulate(buf, 1, I, rbuf, 1, I, me, 0, 1, I, v, win, &rq))

#define WIN_ROWS(w)                                                                              \
    R(w, MPI_Win_shared_query(v, 0, &asz, &i1, &ptr)) R(w, MPI_Win_attach(v, buf, 4))             \
    R(w, MPI_Win_detach(v, buf)) R(w, MPI_Win_free(&vp)) R(w, MPI_Win_get_group(v, &g))           \
    R(w, MPI_Win_get_attr(v, MPI_WIN_BASE, &ptr, &flag)) R(w, MPI_Win_set_name(v, "x"))           \
    R(w, MPI_Win_get_name(v, name, &i1)) R(w, MPI_Win_set_errhandler(v, MPI_ERRORS_RETURN))       \
    R(w, MPI_Win_get_errhandler(v, &eh)) R(w, MPI_Win_call_errhandler(v, MPI_ERR_OTHER))          \
    R(w, MPI_Win_set_info(v, MPI_INFO_NULL)) R(w, MPI_Win_get_info(v, &ni))                       \
    R(w, MPI_Win_set_attr(v, wkv, NULL)) R(w, MPI_Win_delete_attr(v, wkv))                       \
    R(w, MPI_Put(buf, 1, I, me, 0, 1, I, v)) R(w, MPI_Get(rbuf, 1, I, me, 0, 1, I, v))            \
    R(w, MPI_Accumulate(buf, 1, I, me, 0, 1, I, MPI_SUM, v))                                      \
    R(w, MPI_Get_accumulate(buf, 1, I, rbuf, 1, I, me, 0, 1, I, MPI_SUM, v))                      \
    R(w, MPI_Fetch_and_op(buf, rbuf, I, me, 0, MPI_SUM, v))                                       \
    R(w, MPI_Compare_and_swap(buf, buf, rbuf, I, me, 0, v))                                       \
    R(w, MPI_Rput(buf, 1, I, me, 0, 1, I, v, &rq)) R(w, MPI_Rget(rbuf, 1, I, me, 0, 1, I, v, &rq)) \
    R(w, MPI_Raccumulate(buf, 1, I, me, 0, 1, I, MPI_SUM, v, &rq))                                \
    R(w, MPI_Rget_accumulate(buf, 1, I, rbuf, 1, I, me, 0, 1, I, MPI_SUM, v, &rq))                \
    R(w, MPI_Win_fence(0, v)) R(w, MPI_Win_post(gw, 0, v)) R(w, MPI_Win_start(gw, 0, v))           \
    R(w, MPI_Win_complete(v)) R(w, MPI_Win_wait(v)) R(w, MPI_Win_test(v, &flag))                  \
    R(w, MPI_Win_lock(MPI_LOCK_SHARED, me, 0, v)) R(w, MPI_Win_unlock(me, v))                     \
    R(w, MPI_Win_lock_all(0, v)) R(w, MPI_Win_unlock_all(v)) R(w, MPI_Win_flush(me, v))           \
    R(w, MPI_Win_flush_all(v)) R(w, MPI_Win_flush_local(me, v)) R(w, MPI_Win_flush_local_all(v))   \
    R(w, MPI_Win_sync(v))

/* invalid request handles other than MPI_REQUEST_NULL (which Wait and Test
 * accept) */
#define REQUEST_ROWS(w)                                                                          \
    R(w, MPI_Wait(&vp, &st)) R(w, MPI_Test(&vp, &flag, &st))                                      \
    R(w, MPI_Waitall(1, &vp, MPI_STATUSES_IGNORE)) R(w, MPI_Waitany(1, &vp, &i1, &st))            \
    R(w, MPI_Waitsome(1, &vp, &i1, idx, sts)) R(w, MPI_Testall(1, &vp, &flag, sts))               \
    R(w, MPI_Testany(1, &vp, &i1, &flag, &st)) R(w, MPI_Testsome(1, &vp, &i1, idx, sts))          \
    R(w, MPI_Request_get_status(v, &flag, &st)) R(w, MPI_Grequest_complete(v))                   \
    NULL_REQUEST_ROWS(w)
/* and these take MPI_REQUEST_NULL as invalid too */
#define NULL_REQUEST_ROWS(w)                                                                     \
    R(w, MPI_Request_free(&vp)) R(w, MPI_Cancel(&vp)) R(w, MPI_Start(&vp))                        \
    R(w, MPI_Startall(1, &vp))

#define KEYVAL_ROWS(w)                                                                           \
    R(w, MPI_Comm_get_attr(W, v, &ptr, &flag)) R(w, MPI_Comm_set_attr(W, v, NULL))                \
    R(w, MPI_Comm_delete_attr(W, v)) R(w, MPI_Comm_free_keyval(&vp))                              \
    R(w, MPI_Win_get_attr(win, v, &ptr, &flag)) R(w, MPI_Win_set_attr(win, v, NULL))             \
    R(w, MPI_Win_delete_attr(win, v)) R(w, MPI_Win_free_keyval(&vp))                             \
    R(w, MPI_Type_set_attr(I, v, NULL)) R(w, MPI_Type_get_attr(I, v, &ptr, &flag))               \
    R(w, MPI_Type_delete_attr(I, v)) R(w, MPI_Type_free_keyval(&vp))                             \
    R(w, MPI_Attr_put(W, v, NULL)) R(w, MPI_Attr_get(W, v, &ptr, &flag))                         \
    R(w, MPI_Attr_delete(W, v)) R(w, MPI_Keyval_free(&vp))

/* info objects: the info calls take MPI_INFO_NULL as invalid too */
#define INFO_ROWS(w)                                                                             \
    R(w, MPI_Info_dup(v, &ni)) R(w, MPI_Info_free(&vp)) R(w, MPI_Info_set(v, "k", "v"))            \
    R(w, MPI_Info_get(v, "k", 8, name, &flag)) R(w, MPI_Info_get_string(v, "k", &i1, name, &flag)) \
    R(w, MPI_Info_get_valuelen(v, "k", &i1, &flag)) R(w, MPI_Info_delete(v, "k"))                 \
    R(w, MPI_Info_get_nkeys(v, &i1)) R(w, MPI_Info_get_nthkey(v, 0, name))
/* calls that take hints accept MPI_INFO_NULL */
#define HINT_ROWS(w)                                                                             \
    R(w, MPI_Comm_set_info(W, v)) R(w, MPI_Comm_dup_with_info(W, v, &nc))                         \
    R(w, MPI_Comm_idup_with_info(W, v, &nc, &rq)) R(w, MPI_Win_set_info(win, v))                  \
    R(w, MPI_Comm_split_type(W, MPI_COMM_TYPE_SHARED, 0, v, &nc))                                 \
    R(w, MPI_Win_create(buf, 64, 1, v, W, &nw)) R(w, MPI_Win_allocate(64, 1, v, W, &ptr, &nw))     \
    R(w, MPI_Win_allocate_shared(64, 1, v, W, &ptr, &nw)) R(w, MPI_Win_create_dynamic(v, W, &nw))  \
    R(w, MPI_Alloc_mem(64, v, &ptr))                                                              \
    R(w, MPI_Dist_graph_create_adjacent(W, 0, zero, MPI_UNWEIGHTED, 0, zero, MPI_UNWEIGHTED, v,   \
                                        0, &nc))                                                  \
    R(w, MPI_Dist_graph_create(W, 0, zero, zero, zero, MPI_UNWEIGHTED, v, 0, &nc))

/* the standard has no class of its own for error handlers: MPI_ERR_ARG */
#define ERRH_ROWS(w)                                                                             \
    R(w, MPI_Comm_set_errhandler(W, v)) R(w, MPI_Win_set_errhandler(win, v))                      \
    R(w, MPI_Errhandler_free(&vp))

/* Bad values of a handle kind: null, freed, random, -1, another kind's
 * handle, a live handle with another generation (bits above the 18 index
 * bits), an index no object has. */
#define BADS(nul, freed, live, other)                                                            \
    {                                                                                            \
        { nul, #nul }, { freed, "a freed handle" }, { 0x12345678, "0x12345678" }, { -1, "-1" },  \
        { 0x7fffffff, "0x7fffffff" }, { other, "a handle of another kind (" #other ")" },         \
        { (live) + (1 << 18), "a stale generation of " #live },                                  \
        { (nul) | 0x3fff0, "an index no object has" },                                           \
    }
#define NBADS 8

static void sweep_handles(void)
{
    /* Freed handles are made last, so no fixture takes their slots. */
    MPI_Comm fc;
    MPI_Datatype ft;
    MPI_Group fg;
    MPI_Op fo;
    MPI_Win fw;
    MPI_Request fr;
    MPI_Errhandler fe;
    MPI_Info fi;
    int fk, h;
    RXT_MPI(MPI_Comm_dup(W, &fc));
    h = fc, MPI_Comm_free(&fc), fc = h;
    RXT_MPI(MPI_Type_contiguous(2, MPI_INT, &ft));
    RXT_MPI(MPI_Type_commit(&ft));
    h = ft, MPI_Type_free(&ft), ft = h;
    RXT_MPI(MPI_Comm_group(W, &fg));
    h = fg, MPI_Group_free(&fg), fg = h;
    RXT_MPI(MPI_Op_create(usum, 1, &fo));
    h = fo, MPI_Op_free(&fo), fo = h;
    RXT_MPI(MPI_Win_create(buf, 64, 1, MPI_INFO_NULL, W, &fw));
    h = fw, MPI_Win_free(&fw), fw = h;
    RXT_MPI(MPI_Irecv(rbuf, 1, MPI_INT, me, 99, W, &fr));
    RXT_MPI(MPI_Send(buf, 1, MPI_INT, me, 99, W));
    h = fr, MPI_Wait(&fr, &st), fr = h;
    RXT_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &fk, NULL));
    h = fk, MPI_Comm_free_keyval(&fk), fk = h;
    RXT_MPI(MPI_Comm_create_errhandler(errh_fn, &fe));
    h = fe, MPI_Errhandler_free(&fe), fe = h;
    RXT_MPI(MPI_Info_create(&fi));
    h = fi, MPI_Info_free(&fi), fi = h;

    bad_t comms[] = BADS(MPI_COMM_NULL, fc, MPI_COMM_WORLD, MPI_INT);
    bad_t types[] = BADS(MPI_DATATYPE_NULL, ft, MPI_INT, MPI_COMM_WORLD);
    bad_t groups[] = BADS(MPI_GROUP_NULL, fg, MPI_GROUP_EMPTY, MPI_COMM_WORLD);
    bad_t ops[] = BADS(MPI_OP_NULL, fo, MPI_SUM, MPI_INT);
    bad_t wins[] = BADS(MPI_WIN_NULL, fw, win, MPI_COMM_WORLD);
    bad_t reqs[] = BADS(MPI_REQUEST_NULL, fr, MPI_REQUEST_NULL, MPI_COMM_WORLD);
    bad_t keys[] = BADS(MPI_KEYVAL_INVALID, fk, kv, MPI_COMM_WORLD);
    bad_t errhs[] = BADS(MPI_ERRHANDLER_NULL, fe, MPI_ERRORS_RETURN, MPI_COMM_WORLD);
    bad_t infos[] = BADS(MPI_INFO_NULL, fi, MPI_INFO_ENV, MPI_COMM_WORLD);
    /* keyvals are not kind-tagged handles in every implementation: the
     * generation and index rows of rdmx's encoding apply to them as well */
    RXT_MPI(MPI_Win_lock_all(0, win));
    SWEEP(MPI_ERR_COMM, comms, NBADS, COMM_ROWS)
    SWEEP(MPI_ERR_TYPE, types, NBADS, TYPE_ROWS)
    SWEEP(MPI_ERR_GROUP, groups, NBADS, GROUP_ROWS)
    SWEEP(MPI_ERR_OP, ops, NBADS, OP_ROWS)
    SWEEP(MPI_ERR_WIN, wins, NBADS, WIN_ROWS)
    SWEEP(MPI_ERR_REQUEST, reqs + 1, NBADS - 1, REQUEST_ROWS)
    SWEEP(MPI_ERR_REQUEST, reqs, 1, NULL_REQUEST_ROWS)
    SWEEP(MPI_ERR_KEYVAL, keys, NBADS, KEYVAL_ROWS)
    SWEEP(MPI_ERR_ARG, errhs, NBADS, ERRH_ROWS)
    SWEEP(MPI_ERR_INFO, infos, NBADS, INFO_ROWS)
    SWEEP(MPI_ERR_INFO, infos + 1, NBADS - 1, HINT_ROWS)
    RXT_MPI(MPI_Win_unlock_all(win));
    /* a missing errhandler check would have installed garbage */
    MPI_Comm_set_errhandler(W, MPI_ERRORS_RETURN);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
}

/* ---- counts ---------------------------------------------------------------- */

static void sweep_counts(void)
{
    const char *a = "count -1";
    int neg[64];
    for (int i = 0; i < 64; i++)
        neg[i] = i == 0 ? -1 : 1;
    SEND_ROWS(MPI_ERR_COUNT, a, buf, -1, I, Q, 0, W);
    RECV_ROWS(MPI_ERR_COUNT, a, buf, -1, I, Q, 0, W);
    ROW(MPI_ERR_COUNT, a, MPI_Bcast(buf, -1, I, 0, W));
    ROW(MPI_ERR_COUNT, a, MPI_Reduce(buf, rbuf, -1, I, MPI_SUM, 0, W));
    ROW(MPI_ERR_COUNT, a, MPI_Allreduce(buf, rbuf, -1, I, MPI_SUM, W));
    ROW(MPI_ERR_COUNT, a, MPI_Gather(buf, -1, I, rbuf, 1, I, 0, W));
    ROW(MPI_ERR_COUNT, a, MPI_Gatherv(buf, -1, I, rbuf, cnt, dsp, I, 0, W));
    ROW(MPI_ERR_COUNT, a, MPI_Scatter(buf, 1, I, rbuf, -1, I, 0, W));
    ROW(MPI_ERR_COUNT, a, MPI_Scatterv(buf, cnt, dsp, I, rbuf, -1, I, 0, W));
    ROW(MPI_ERR_COUNT, a, MPI_Allgather(buf, -1, I, rbuf, 1, I, W));
    ROW(MPI_ERR_COUNT, a, MPI_Allgather(buf, 1, I, rbuf, -1, I, W));
    ROW(MPI_ERR_COUNT, a, MPI_Allgatherv(buf, -1, I, rbuf, cnt, dsp, I, W));
    ROW(MPI_ERR_COUNT, "recvcounts[0] -1", MPI_Allgatherv(buf, 1, I, rbuf, neg, dsp, I, W));
    ROW(MPI_ERR_COUNT, a, MPI_Alltoall(buf, -1, I, rbuf, 1, I, W));
    ROW(MPI_ERR_COUNT, a, MPI_Alltoall(buf, 1, I, rbuf, -1, I, W));
    ROW(MPI_ERR_COUNT, "sendcounts[0] -1", MPI_Alltoallv(buf, neg, dsp, I, rbuf, cnt, dsp, I, W));
    ROW(MPI_ERR_COUNT, "recvcounts[0] -1", MPI_Alltoallv(buf, cnt, dsp, I, rbuf, neg, dsp, I, W));
    ROW(MPI_ERR_COUNT, "sendcounts[0] -1",
        MPI_Alltoallw(buf, neg, dsp, i4, rbuf, cnt, dsp, i4, W));
    ROW(MPI_ERR_COUNT, "recvcounts[0] -1", MPI_Reduce_scatter(buf, rbuf, neg, I, MPI_SUM, W));
    ROW(MPI_ERR_COUNT, a, MPI_Reduce_scatter_block(buf, rbuf, -1, I, MPI_SUM, W));
    ROW(MPI_ERR_COUNT, a, MPI_Scan(buf, rbuf, -1, I, MPI_SUM, W));
    ROW(MPI_ERR_COUNT, a, MPI_Exscan(buf, rbuf, -1, I, MPI_SUM, W));
    ROW(MPI_ERR_COUNT, a, MPI_Ibcast(buf, -1, I, 0, W, &rq));
    ROW(MPI_ERR_COUNT, a, MPI_Ireduce(buf, rbuf, -1, I, MPI_SUM, 0, W, &rq));
    ROW(MPI_ERR_COUNT, a, MPI_Iallreduce(buf, rbuf, -1, I, MPI_SUM, W, &rq));
    ROW(MPI_ERR_COUNT, a, MPI_Igather(buf, -1, I, rbuf, 1, I, 0, W, &rq));
    ROW(MPI_ERR_COUNT, a, MPI_Iscatter(buf, 1, I, rbuf, -1, I, 0, W, &rq));
    ROW(MPI_ERR_COUNT, a, MPI_Iallgather(buf, -1, I, rbuf, 1, I, W, &rq));
    ROW(MPI_ERR_COUNT, a, MPI_Ialltoall(buf, 1, I, rbuf, -1, I, W, &rq));
    ROW(MPI_ERR_COUNT, a, MPI_Iscan(buf, rbuf, -1, I, MPI_SUM, W, &rq));
    ROW(MPI_ERR_COUNT, a, MPI_Iexscan(buf, rbuf, -1, I, MPI_SUM, W, &rq));
    ROW(MPI_ERR_COUNT, a, MPI_Ireduce_scatter_block(buf, rbuf, -1, I, MPI_SUM, W, &rq));
    ROW(MPI_ERR_COUNT, a, MPI_Neighbor_allgather(buf, -1, I, rbuf, 1, I, cart));
    ROW(MPI_ERR_COUNT, a, MPI_Neighbor_alltoall(buf, 1, I, rbuf, -1, I, cart));
    ROW(MPI_ERR_COUNT, a, MPI_Ineighbor_allgather(buf, -1, I, rbuf, 1, I, cart, &rq));
    ROW(MPI_ERR_COUNT, a, MPI_Reduce_local(buf, rbuf, -1, I, MPI_SUM));
    ROW(MPI_ERR_COUNT, a, MPI_Pack(buf, -1, I, rbuf, 64, &pos, W));
    ROW(MPI_ERR_COUNT, a, MPI_Unpack(buf, 64, &pos, rbuf, -1, I, W));
    ROW(MPI_ERR_COUNT, a, MPI_Pack_size(-1, I, W, &i1));
    ROW(MPI_ERR_COUNT, a, (apos = 0, MPI_Pack_external("external32", buf, -1, I, rbuf, 64, &apos)));
    ROW(MPI_ERR_COUNT, a, MPI_Pack_external_size("external32", -1, I, &asz));
    ROW(MPI_ERR_COUNT, a, MPI_Type_contiguous(-1, I, &nt));
    ROW(MPI_ERR_COUNT, a, MPI_Type_vector(-1, 1, 1, I, &nt));
    ROW(MPI_ERR_COUNT, a, MPI_Type_create_hvector(-1, 1, 4, I, &nt));
    ROW(MPI_ERR_COUNT, a, MPI_Type_indexed(-1, one, zero, I, &nt));
    ROW(MPI_ERR_COUNT, a, MPI_Type_create_hindexed(-1, one, adsp, I, &nt));
    ROW(MPI_ERR_COUNT, a, MPI_Type_create_indexed_block(-1, 1, zero, I, &nt));
    ROW(MPI_ERR_COUNT, a, MPI_Type_create_hindexed_block(-1, 1, adsp, I, &nt));
    ROW(MPI_ERR_COUNT, a, MPI_Type_create_struct(-1, one, adsp, i4, &nt));
    ROW(MPI_ERR_ARG, "blocklength -1", MPI_Type_vector(1, -1, 1, I, &nt));
    ROW(MPI_ERR_ARG, "blocklength -1", MPI_Type_indexed(1, neg, zero, I, &nt));
    /* negative array lengths: the standard leaves count or argument open */
    ROW2(MPI_ERR_COUNT, MPI_ERR_ARG, a, MPI_Waitall(-1, rqs, MPI_STATUSES_IGNORE));
    ROW2(MPI_ERR_COUNT, MPI_ERR_ARG, a, MPI_Waitany(-1, rqs, &i1, &st));
    ROW2(MPI_ERR_COUNT, MPI_ERR_ARG, a, MPI_Waitsome(-1, rqs, &i1, idx, sts));
    ROW2(MPI_ERR_COUNT, MPI_ERR_ARG, a, MPI_Testall(-1, rqs, &flag, sts));
    ROW2(MPI_ERR_COUNT, MPI_ERR_ARG, a, MPI_Testany(-1, rqs, &i1, &flag, &st));
    ROW2(MPI_ERR_COUNT, MPI_ERR_ARG, a, MPI_Testsome(-1, rqs, &i1, idx, sts));
    ROW2(MPI_ERR_COUNT, MPI_ERR_ARG, a, MPI_Startall(-1, rqs));
    ROW2(MPI_ERR_COUNT, MPI_ERR_ARG, a, MPI_Group_incl(gw, -1, zero, &g));
    ROW2(MPI_ERR_COUNT, MPI_ERR_ARG, a, MPI_Group_excl(gw, -1, zero, &g));
    ROW2(MPI_ERR_COUNT, MPI_ERR_ARG, a, MPI_Group_translate_ranks(gw, -1, zero, gw, idx));
    RXT_MPI(MPI_Win_lock_all(0, win));
    ROW(MPI_ERR_COUNT, a, MPI_Put(buf, -1, I, me, 0, 1, I, win));
    ROW(MPI_ERR_COUNT, a, MPI_Put(buf, 1, I, me, 0, -1, I, win));
    ROW(MPI_ERR_COUNT, a, MPI_Get(rbuf, -1, I, me, 0, 1, I, win));
    ROW(MPI_ERR_COUNT, a, MPI_Accumulate(buf, -1, I, me, 0, 1, I, MPI_SUM, win));
    ROW(MPI_ERR_COUNT, a, MPI_Get_accumulate(buf, 1, I, rbuf, -1, I, me, 0, 1, I, MPI_SUM, win));
    ROW(MPI_ERR_COUNT, a, MPI_Rput(buf, -1, I, me, 0, 1, I, win, &rq));
    ROW(MPI_ERR_COUNT, a, MPI_Rget(rbuf, 1, I, me, 0, -1, I, win, &rq));
    ROW(MPI_ERR_COUNT, a, MPI_Raccumulate(buf, -1, I, me, 0, 1, I, MPI_SUM, win, &rq));
    ROW(MPI_ERR_COUNT, a, MPI_Rget_accumulate(buf, 1, I, rbuf, -1, I, me, 0, 1, I, MPI_SUM, win,
                                              &rq));
    RXT_MPI(MPI_Win_unlock_all(win));
}

/* Sizes that overflow: constructors whose size or extent does not fit 64
 * bits, and calls whose count * size is beyond what one call can move (an
 * 8 MiB type INT_MAX times is 16 PiB). The buffers are small: a check that
 * is missing shows as a crash, a hang or a wrong class. */
static void sweep_overflow(void)
{
    const char *a = "INT_MAX elements of an 8 MiB type";
    MPI_Aint far[2] = { 0, INTPTR_MAX - 2 }, half[2] = { 0, INTPTR_MAX / 2 };
    int big[2] = { INT_MAX, INT_MAX }, ones[2] = { 1, 1 }, zeros[2] = { 0, 0 }, top[1] = { INT_MAX };
    MPI_Datatype ii[2] = { MPI_INT, MPI_INT };
    ROW(MPI_ERR_COUNT, "INT_MAX x INT_MAX doubles, stride INT_MAX",
        MPI_Type_vector(INT_MAX, INT_MAX, INT_MAX, MPI_DOUBLE, &nt));
    ROW(MPI_ERR_COUNT, "2^24 elements of a 2^40-byte type", MPI_Type_contiguous(1 << 24, t40, &nt));
    ROW(MPI_ERR_COUNT, "INT_MAX elements of a 2^40-byte type", MPI_Type_contiguous(INT_MAX, t40, &nt));
    ROW(MPI_ERR_COUNT, "stride INT_MAX of a 2^40-byte type", MPI_Type_vector(2, 1, INT_MAX, t40, &nt));
    ROW(MPI_ERR_COUNT, "stride INTPTR_MAX bytes", MPI_Type_create_hvector(2, 1, INTPTR_MAX, I, &nt));
    ROW(MPI_ERR_COUNT, "stride INTPTR_MIN bytes", MPI_Type_create_hvector(2, 1, INTPTR_MIN, I, &nt));
    ROW(MPI_ERR_COUNT, "displacement INT_MAX of a 2^40-byte type",
        MPI_Type_indexed(1, one, top, t40, &nt));
    ROW(MPI_ERR_COUNT, "displacement INT_MAX of a 2^40-byte type",
        MPI_Type_create_indexed_block(1, 1, top, t40, &nt));
    ROW(MPI_ERR_COUNT, "displacement INTPTR_MAX - 2",
        MPI_Type_create_hindexed(2, ones, far, I, &nt));
    ROW(MPI_ERR_COUNT, "INT_MAX blocks of 2^40 bytes at INTPTR_MAX / 2",
        MPI_Type_create_hindexed_block(2, INT_MAX, half, t40, &nt));
    ROW(MPI_ERR_COUNT, "displacement INTPTR_MAX - 2", MPI_Type_create_struct(2, ones, far, ii, &nt));
    ROW(MPI_ERR_COUNT, "INT_MAX x INT_MAX array of a 2^40-byte type",
        MPI_Type_create_subarray(2, big, ones, zeros, MPI_ORDER_C, t40, &nt));
    ROW(MPI_ERR_ARG, "lb INTPTR_MAX", MPI_Type_create_resized(I, INTPTR_MAX, 16, &nt));
    SEND_ROWS(MPI_ERR_COUNT, a, buf, INT_MAX, t8m, Q, 0, W);
    RECV_ROWS(MPI_ERR_COUNT, a, buf, INT_MAX, t8m, Q, 0, W);
    ROW(MPI_ERR_COUNT, a, MPI_Bcast(buf, INT_MAX, t8m, 0, W));
    ROW(MPI_ERR_COUNT, a, MPI_Reduce(buf, rbuf, INT_MAX, t8m, MPI_SUM, 0, W));
    ROW(MPI_ERR_COUNT, a, MPI_Allreduce(buf, rbuf, INT_MAX, t8m, MPI_SUM, W));
    ROW(MPI_ERR_COUNT, a, MPI_Iallreduce(buf, rbuf, INT_MAX, t8m, MPI_SUM, W, &rq));
    ROW(MPI_ERR_COUNT, a, MPI_Scan(buf, rbuf, INT_MAX, t8m, MPI_SUM, W));
    ROW(MPI_ERR_COUNT, a, MPI_Exscan(buf, rbuf, INT_MAX, t8m, MPI_SUM, W));
    ROW(MPI_ERR_COUNT, a, MPI_Reduce_scatter_block(buf, rbuf, INT_MAX, t8m, MPI_SUM, W));
    ROW(MPI_ERR_COUNT, a, MPI_Reduce_local(buf, rbuf, INT_MAX, t8m, MPI_SUM));
    ROW(MPI_ERR_COUNT, a, MPI_Gather(buf, INT_MAX, t8m, rbuf, INT_MAX, t8m, 0, W));
    ROW(MPI_ERR_COUNT, a, MPI_Scatter(buf, INT_MAX, t8m, rbuf, INT_MAX, t8m, 0, W));
    ROW(MPI_ERR_COUNT, a, MPI_Allgather(buf, INT_MAX, t8m, rbuf, INT_MAX, t8m, W));
    ROW(MPI_ERR_COUNT, a, MPI_Alltoall(buf, INT_MAX, t8m, rbuf, INT_MAX, t8m, W));
    ROW(MPI_ERR_COUNT, a, MPI_Ialltoall(buf, INT_MAX, t8m, rbuf, INT_MAX, t8m, W, &rq));
    ROW(MPI_ERR_COUNT, a, MPI_Pack_size(INT_MAX, t8m, W, &i1));
    ROW(MPI_ERR_COUNT, a, (apos = 0, MPI_Pack_external("external32", buf, INT_MAX, t8m, rbuf, 64,
                                                        &apos)));
    ROW(MPI_ERR_COUNT, a, MPI_Pack(buf, INT_MAX, t8m, rbuf, 64, &pos, W));
    ROW(MPI_ERR_COUNT, a, MPI_Unpack(buf, 64, &pos, rbuf, INT_MAX, t8m, W));
    for (int i = 0; i < 64; i++)
        cnt[i] = INT_MAX;
    ROW(MPI_ERR_COUNT, "counts INT_MAX of an 8 MiB type",
        MPI_Allgatherv(buf, 1, I, rbuf, cnt, dsp, t8m, W));
    ROW(MPI_ERR_COUNT, "counts INT_MAX of an 8 MiB type",
        MPI_Alltoallv(buf, cnt, dsp, t8m, rbuf, cnt, dsp, t8m, W));
    for (int i = 0; i < 64; i++)
        cnt[i] = 1;
    RXT_MPI(MPI_Win_lock_all(0, win));
    ROW(MPI_ERR_COUNT, a, MPI_Put(buf, INT_MAX, t8m, me, 0, INT_MAX, t8m, win));
    ROW(MPI_ERR_COUNT, a, MPI_Get(rbuf, INT_MAX, t8m, me, 0, INT_MAX, t8m, win));
    ROW(MPI_ERR_COUNT, a, MPI_Accumulate(buf, INT_MAX, t8m, me, 0, INT_MAX, t8m, MPI_SUM, win));
    ROW(MPI_ERR_COUNT, a, MPI_Rput(buf, INT_MAX, t8m, me, 0, INT_MAX, t8m, win, &rq));
    /* a displacement whose product with the displacement unit (4) wraps to a
     * small offset, or lies beyond the window */
    MPI_Aint wrap = (MPI_Aint)1 << 62, far_d = INTPTR_MAX / 2;
    a = "target_disp 2^62 (times 4 wraps to 0)";
    ROW(MPI_ERR_RMA_RANGE, a, MPI_Put(buf, 1, I, me, wrap, 1, I, win));
    ROW(MPI_ERR_RMA_RANGE, a, MPI_Get(rbuf, 1, I, me, wrap, 1, I, win));
    ROW(MPI_ERR_RMA_RANGE, a, MPI_Accumulate(buf, 1, I, me, wrap, 1, I, MPI_SUM, win));
    ROW(MPI_ERR_RMA_RANGE, a, MPI_Get_accumulate(buf, 1, I, rbuf, 1, I, me, wrap, 1, I, MPI_SUM,
                                                 win));
    ROW(MPI_ERR_RMA_RANGE, a, MPI_Fetch_and_op(buf, rbuf, I, me, wrap, MPI_SUM, win));
    ROW(MPI_ERR_RMA_RANGE, a, MPI_Compare_and_swap(buf, buf, rbuf, I, me, wrap, win));
    ROW(MPI_ERR_RMA_RANGE, a, MPI_Rget(rbuf, 1, I, me, wrap, 1, I, win, &rq));
    a = "target_disp INTPTR_MAX / 2";
    ROW(MPI_ERR_RMA_RANGE, a, MPI_Put(buf, 1, I, me, far_d, 1, I, win));
    ROW(MPI_ERR_RMA_RANGE, a, MPI_Fetch_and_op(buf, rbuf, I, me, far_d, MPI_SUM, win));
    ROW(MPI_ERR_RMA_RANGE, a, MPI_Compare_and_swap(buf, buf, rbuf, I, me, far_d, win));
    RXT_MPI(MPI_Win_unlock_all(win));
}

/* ---- ranks, roots, tags ------------------------------------------------------ */

static void sweep_ranks(void)
{
    int bad[] = { n, -7777, MPI_ANY_SOURCE };
    const char *names[] = { "rank = size", "rank -7777", "MPI_ANY_SOURCE as a destination" };
    for (int k = 0; k < 3; k++) {
        int r = bad[k];
        const char *a = names[k];
        SEND_ROWS(MPI_ERR_RANK, a, buf, 1, I, r, 0, W);
        if (r == MPI_ANY_SOURCE)
            continue; /* a valid source */
        RECV_ROWS(MPI_ERR_RANK, a, buf, 1, I, r, 0, W);
        ROW(MPI_ERR_RANK, a, MPI_Probe(r, 0, W, &st));
        ROW(MPI_ERR_RANK, a, MPI_Iprobe(r, 0, W, &flag, &st));
        ROW(MPI_ERR_RANK, a, MPI_Mprobe(r, 0, W, &msg, &st));
        ROW(MPI_ERR_RANK, a, MPI_Improbe(r, 0, W, &flag, &msg, &st));
        ROW(MPI_ERR_RANK, a, MPI_Group_incl(gw, 1, &r, &g));
        ROW(MPI_ERR_RANK, a, MPI_Group_excl(gw, 1, &r, &g));
        ROW(MPI_ERR_RANK, a, MPI_Group_translate_ranks(gw, 1, &r, gw, idx));
        ROW(MPI_ERR_RANK, a, MPI_Cart_coords(cart, r, 1, idx));
        ROW(MPI_ERR_ROOT, a, MPI_Bcast(buf, 1, I, r, W));
        ROW(MPI_ERR_ROOT, a, MPI_Reduce(buf, rbuf, 1, I, MPI_SUM, r, W));
        ROW(MPI_ERR_ROOT, a, MPI_Gather(buf, 1, I, rbuf, 1, I, r, W));
        ROW(MPI_ERR_ROOT, a, MPI_Gatherv(buf, 1, I, rbuf, cnt, dsp, I, r, W));
        ROW(MPI_ERR_ROOT, a, MPI_Scatter(buf, 1, I, rbuf, 1, I, r, W));
        ROW(MPI_ERR_ROOT, a, MPI_Scatterv(buf, cnt, dsp, I, rbuf, 1, I, r, W));
        ROW(MPI_ERR_ROOT, a, MPI_Ibcast(buf, 1, I, r, W, &rq));
        ROW(MPI_ERR_ROOT, a, MPI_Ireduce(buf, rbuf, 1, I, MPI_SUM, r, W, &rq));
        ROW(MPI_ERR_ROOT, a, MPI_Igather(buf, 1, I, rbuf, 1, I, r, W, &rq));
        ROW(MPI_ERR_ROOT, a, MPI_Igatherv(buf, 1, I, rbuf, cnt, dsp, I, r, W, &rq));
        ROW(MPI_ERR_ROOT, a, MPI_Iscatter(buf, 1, I, rbuf, 1, I, r, W, &rq));
        ROW(MPI_ERR_ROOT, a, MPI_Iscatterv(buf, cnt, dsp, I, rbuf, 1, I, r, W, &rq));
        RXT_MPI(MPI_Win_lock_all(0, win));
        ROW(MPI_ERR_RANK, a, MPI_Put(buf, 1, I, r, 0, 1, I, win));
        ROW(MPI_ERR_RANK, a, MPI_Get(rbuf, 1, I, r, 0, 1, I, win));
        ROW(MPI_ERR_RANK, a, MPI_Accumulate(buf, 1, I, r, 0, 1, I, MPI_SUM, win));
        ROW(MPI_ERR_RANK, a, MPI_Get_accumulate(buf, 1, I, rbuf, 1, I, r, 0, 1, I, MPI_SUM, win));
        ROW(MPI_ERR_RANK, a, MPI_Fetch_and_op(buf, rbuf, I, r, 0, MPI_SUM, win));
        ROW(MPI_ERR_RANK, a, MPI_Compare_and_swap(buf, buf, rbuf, I, r, 0, win));
        ROW(MPI_ERR_RANK, a, MPI_Rput(buf, 1, I, r, 0, 1, I, win, &rq));
        ROW(MPI_ERR_RANK, a, MPI_Rget(rbuf, 1, I, r, 0, 1, I, win, &rq));
        ROW(MPI_ERR_RANK, a, MPI_Raccumulate(buf, 1, I, r, 0, 1, I, MPI_SUM, win, &rq));
        ROW(MPI_ERR_RANK, a, MPI_Rget_accumulate(buf, 1, I, rbuf, 1, I, r, 0, 1, I, MPI_SUM, win,
                                                 &rq));
        ROW(MPI_ERR_RANK, a, MPI_Win_flush(r, win));
        ROW(MPI_ERR_RANK, a, MPI_Win_flush_local(r, win));
        RXT_MPI(MPI_Win_unlock_all(win));
        ROW(MPI_ERR_RANK, a, MPI_Win_lock(MPI_LOCK_SHARED, r, 0, win));
        ROW(MPI_ERR_RANK, a, MPI_Win_unlock(r, win));
    }
    int tags[] = { -5, MPI_ANY_TAG };
    for (int k = 0; k < 2; k++) {
        int t = tags[k];
        const char *a = k ? "MPI_ANY_TAG on a send" : "tag -5";
        SEND_ROWS(MPI_ERR_TAG, a, buf, 1, I, Q, t, W);
        ROW(MPI_ERR_TAG, a, MPI_Comm_create_group(W, gw, t, &nc));
        if (t == MPI_ANY_TAG)
            continue; /* a valid receive tag */
        RECV_ROWS(MPI_ERR_TAG, a, buf, 1, I, Q, t, W);
        ROW(MPI_ERR_TAG, a, MPI_Probe(Q, t, W, &st));
        ROW(MPI_ERR_TAG, a, MPI_Iprobe(Q, t, W, &flag, &st));
        ROW(MPI_ERR_TAG, a, MPI_Mprobe(Q, t, W, &msg, &st));
        ROW(MPI_ERR_TAG, a, MPI_Improbe(Q, t, W, &flag, &msg, &st));
    }
}

/* ---- buffers, uncommitted types, ops, window flavors ---------------------------- */

static void sweep_buffers(void)
{
    const char *a = "NULL buffer, 4 ints";
    void *N = NULL;
    SEND_ROWS(MPI_ERR_BUFFER, a, N, 4, I, Q, 0, W);
    RECV_ROWS(MPI_ERR_BUFFER, a, N, 4, I, Q, 0, W);
    ROW(MPI_ERR_BUFFER, a, MPI_Bcast(N, 4, I, 0, W));
    ROW(MPI_ERR_BUFFER, a, MPI_Reduce(N, rbuf, 4, I, MPI_SUM, 0, W));
    ROW(MPI_ERR_BUFFER, a, MPI_Allreduce(N, rbuf, 4, I, MPI_SUM, W));
    ROW(MPI_ERR_BUFFER, a, MPI_Allreduce(buf, N, 4, I, MPI_SUM, W));
    ROW(MPI_ERR_BUFFER, a, MPI_Gather(N, 4, I, rbuf, 4, I, 0, W));
    ROW(MPI_ERR_BUFFER, a, MPI_Scatter(buf, 4, I, N, 4, I, 0, W));
    ROW(MPI_ERR_BUFFER, a, MPI_Allgather(N, 4, I, rbuf, 4, I, W));
    ROW(MPI_ERR_BUFFER, a, MPI_Allgather(buf, 1, I, N, 1, I, W));
    ROW(MPI_ERR_BUFFER, a, MPI_Alltoall(N, 1, I, rbuf, 1, I, W));
    ROW(MPI_ERR_BUFFER, a, MPI_Alltoall(buf, 1, I, N, 1, I, W));
    ROW(MPI_ERR_BUFFER, a, MPI_Scan(N, rbuf, 4, I, MPI_SUM, W));
    ROW(MPI_ERR_BUFFER, a, MPI_Exscan(buf, N, 4, I, MPI_SUM, W));
    ROW(MPI_ERR_BUFFER, a, MPI_Reduce_scatter_block(N, rbuf, 1, I, MPI_SUM, W));
    ROW(MPI_ERR_BUFFER, a, MPI_Ibcast(N, 4, I, 0, W, &rq));
    ROW(MPI_ERR_BUFFER, a, MPI_Iallreduce(N, rbuf, 4, I, MPI_SUM, W, &rq));
    ROW(MPI_ERR_BUFFER, a, MPI_Iallgather(N, 1, I, rbuf, 1, I, W, &rq));
    ROW(MPI_ERR_BUFFER, a, MPI_Neighbor_allgather(N, 1, I, rbuf, 1, I, cart));
    ROW(MPI_ERR_BUFFER, a, MPI_Neighbor_alltoall(buf, 1, I, N, 1, I, cart));
    ROW(MPI_ERR_BUFFER, a, MPI_Reduce_local(N, rbuf, 4, I, MPI_SUM));
    ROW(MPI_ERR_BUFFER, a, MPI_Reduce_local(buf, N, 4, I, MPI_SUM));
    ROW(MPI_ERR_BUFFER, a, (pos = 0, MPI_Pack(N, 4, I, rbuf, 64, &pos, W)));
    ROW(MPI_ERR_BUFFER, a, (pos = 0, MPI_Pack(buf, 4, I, N, 64, &pos, W)));
    ROW(MPI_ERR_BUFFER, a, (pos = 0, MPI_Unpack(N, 64, &pos, rbuf, 4, I, W)));
    ROW(MPI_ERR_BUFFER, a, MPI_Buffer_attach(N, 100));
    ROW(MPI_ERR_BUFFER, a, (apos = 0, MPI_Pack_external("external32", N, 4, I, rbuf, 64, &apos)));
    RXT_MPI(MPI_Win_lock_all(0, win));
    ROW(MPI_ERR_BUFFER, a, MPI_Put(N, 4, I, me, 0, 4, I, win));
    ROW(MPI_ERR_BUFFER, a, MPI_Get(N, 4, I, me, 0, 4, I, win));
    ROW(MPI_ERR_BUFFER, a, MPI_Accumulate(N, 4, I, me, 0, 4, I, MPI_SUM, win));
    ROW(MPI_ERR_BUFFER, a, MPI_Get_accumulate(N, 4, I, rbuf, 4, I, me, 0, 4, I, MPI_SUM, win));
    ROW(MPI_ERR_BUFFER, a, MPI_Get_accumulate(buf, 4, I, N, 4, I, me, 0, 4, I, MPI_SUM, win));
    ROW(MPI_ERR_BUFFER, a, MPI_Fetch_and_op(N, rbuf, I, me, 0, MPI_SUM, win));
    ROW(MPI_ERR_BUFFER, a, MPI_Fetch_and_op(buf, N, I, me, 0, MPI_SUM, win));
    ROW(MPI_ERR_BUFFER, a, MPI_Compare_and_swap(N, buf, rbuf, I, me, 0, win));
    ROW(MPI_ERR_BUFFER, a, MPI_Compare_and_swap(buf, N, rbuf, I, me, 0, win));
    ROW(MPI_ERR_BUFFER, a, MPI_Compare_and_swap(buf, buf, N, I, me, 0, win));
    ROW(MPI_ERR_BUFFER, a, MPI_Rput(N, 4, I, me, 0, 4, I, win, &rq));
    ROW(MPI_ERR_BUFFER, a, MPI_Rget(N, 4, I, me, 0, 4, I, win, &rq));
    ROW(MPI_ERR_BUFFER, a, MPI_Raccumulate(N, 4, I, me, 0, 4, I, MPI_SUM, win, &rq));
    ROW(MPI_ERR_BUFFER, a, MPI_Rget_accumulate(buf, 4, I, N, 4, I, me, 0, 4, I, MPI_SUM, win, &rq));
    RXT_MPI(MPI_Win_unlock_all(win));
    for (int i = 0; i < 16; i++)
        RXT_CHECK(wbase[i] == 0, "a refused operation changed window element %d to %d", i, wbase[i]);
}

static void sweep_uncommitted(void)
{
    const char *a = "an uncommitted type";
    SEND_ROWS(MPI_ERR_TYPE, a, buf, 1, ut, Q, 0, W);
    RECV_ROWS(MPI_ERR_TYPE, a, buf, 1, ut, Q, 0, W);
    ROW(MPI_ERR_TYPE, a, MPI_Bcast(buf, 1, ut, 0, W));
    ROW(MPI_ERR_TYPE, a, MPI_Reduce(buf, rbuf, 1, ut, MPI_SUM, 0, W));
    ROW(MPI_ERR_TYPE, a, MPI_Allreduce(buf, rbuf, 1, ut, MPI_SUM, W));
    ROW(MPI_ERR_TYPE, a, MPI_Gather(buf, 1, ut, rbuf, 1, I, 0, W));
    ROW(MPI_ERR_TYPE, a, MPI_Allgather(buf, 1, I, rbuf, 1, ut, W));
    ROW(MPI_ERR_TYPE, a, MPI_Alltoall(buf, 1, ut, rbuf, 1, I, W));
    ROW(MPI_ERR_TYPE, a, MPI_Scan(buf, rbuf, 1, ut, MPI_SUM, W));
    ROW(MPI_ERR_TYPE, a, MPI_Neighbor_allgather(buf, 1, ut, rbuf, 1, I, cart));
    ROW(MPI_ERR_TYPE, a, MPI_Reduce_local(buf, rbuf, 1, ut, MPI_SUM));
    ROW(MPI_ERR_TYPE, a, MPI_Pack(buf, 1, ut, rbuf, 64, &pos, W));
    ROW(MPI_ERR_TYPE, a, MPI_Unpack(buf, 64, &pos, rbuf, 1, ut, W));
    ROW(MPI_ERR_TYPE, a, MPI_Pack_size(1, ut, W, &i1));
    ROW(MPI_ERR_TYPE, a, MPI_Get_count(&st, ut, &i1));
    RXT_MPI(MPI_Win_lock_all(0, win));
    ROW(MPI_ERR_TYPE, a, MPI_Put(buf, 1, ut, me, 0, 2, I, win));
    ROW(MPI_ERR_TYPE, a, MPI_Put(buf, 2, I, me, 0, 1, ut, win));
    ROW(MPI_ERR_TYPE, a, MPI_Get(rbuf, 1, ut, me, 0, 2, I, win));
    ROW(MPI_ERR_TYPE, a, MPI_Accumulate(buf, 2, I, me, 0, 1, ut, MPI_SUM, win));
    ROW(MPI_ERR_TYPE, a, MPI_Fetch_and_op(buf, rbuf, ut, me, 0, MPI_SUM, win));
    /* ops: not defined for the type, one-sided only, user ops in accumulate */
    double d[4] = { 0 }, e[4];
    ROW(MPI_ERR_OP, "MPI_BAND on doubles", MPI_Allreduce(d, e, 1, MPI_DOUBLE, MPI_BAND, W));
    ROW(MPI_ERR_OP, "MPI_MAXLOC on ints", MPI_Reduce(buf, rbuf, 1, I, MPI_MAXLOC, 0, W));
    ROW(MPI_ERR_OP, "MPI_REPLACE", MPI_Allreduce(buf, rbuf, 1, I, MPI_REPLACE, W));
    ROW(MPI_ERR_OP, "MPI_NO_OP", MPI_Iallreduce(buf, rbuf, 1, I, MPI_NO_OP, W, &rq));
    ROW(MPI_ERR_OP, "MPI_BXOR on doubles", MPI_Reduce_local(d, e, 1, MPI_DOUBLE, MPI_BXOR));
    ROW(MPI_ERR_OP, "MPI_LAND on doubles", MPI_Scan(d, e, 1, MPI_DOUBLE, MPI_LAND, W));
    ROW(MPI_ERR_OP, "a user op", MPI_Accumulate(buf, 1, I, me, 0, 1, I, uop, win));
    ROW(MPI_ERR_OP, "MPI_BAND on doubles",
        MPI_Accumulate(d, 1, MPI_DOUBLE, me, 0, 1, MPI_DOUBLE, MPI_BAND, win));
    ROW(MPI_ERR_OP, "MPI_BXOR on doubles", MPI_Fetch_and_op(d, e, MPI_DOUBLE, me, 0, MPI_BXOR, win));
    RXT_MPI(MPI_Win_unlock_all(win));
    /* window flavors, sizes, lock types and asserts */
    ROW(MPI_ERR_RMA_FLAVOR, "an allocated window", MPI_Win_attach(win, buf, 4));
    ROW(MPI_ERR_RMA_FLAVOR, "an allocated window", MPI_Win_detach(win, buf));
    ROW(MPI_ERR_RMA_FLAVOR, "an allocated window", MPI_Win_shared_query(win, 0, &asz, &i1, &ptr));
    ROW(MPI_ERR_RMA_FLAVOR, "a dynamic window", MPI_Win_shared_query(dwin, 0, &asz, &i1, &ptr));
    ROW(MPI_ERR_SIZE, "size -1", MPI_Win_create(buf, -1, 1, MPI_INFO_NULL, W, &nw));
    ROW(MPI_ERR_SIZE, "size -1", MPI_Win_allocate(-1, 1, MPI_INFO_NULL, W, &ptr, &nw));
    ROW(MPI_ERR_SIZE, "size -1", MPI_Win_allocate_shared(-1, 1, MPI_INFO_NULL, W, &ptr, &nw));
    ROW(MPI_ERR_DISP, "disp_unit 0", MPI_Win_create(buf, 64, 0, MPI_INFO_NULL, W, &nw));
    ROW(MPI_ERR_DISP, "disp_unit -4", MPI_Win_allocate(64, -4, MPI_INFO_NULL, W, &ptr, &nw));
    ROW(MPI_ERR_LOCKTYPE, "lock type 99", MPI_Win_lock(99, me, 0, win));
    ROW(MPI_ERR_ASSERT, "assert 1 << 30", MPI_Win_fence(1 << 30, win));
    ROW(MPI_ERR_ASSERT, "assert 1 << 30", MPI_Win_lock_all(1 << 30, win));
    ROW(MPI_ERR_ASSERT, "assert 1 << 30", MPI_Win_lock(MPI_LOCK_SHARED, me, 1 << 30, win));
}

/* ---- other arguments: NULL outputs, topologies, dimensions -------------------- */

static void sweep_other(void)
{
    const char *a = "a NULL output";
    ROW(MPI_ERR_ARG, a, MPI_Comm_rank(W, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Comm_size(W, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Comm_dup(W, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Comm_group(W, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Comm_compare(W, W, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Comm_test_inter(W, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Comm_get_errhandler(W, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN,
                                               NULL, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Group_size(gw, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Group_incl(gw, 1, zero, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Type_size(I, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Type_get_extent(I, NULL, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Type_contiguous(1, I, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Type_commit(NULL));
    ROW(MPI_ERR_ARG, a, MPI_Type_free(NULL));
    ROW(MPI_ERR_ARG, a, MPI_Get_count(NULL, I, &i1));
    ROW(MPI_ERR_ARG, a, MPI_Get_count(&st, I, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Get_address(buf, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Pack(buf, 1, I, rbuf, 64, NULL, W));
    ROW(MPI_ERR_ARG, a, MPI_Isend(buf, 1, I, Q, 0, W, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Irecv(buf, 1, I, Q, 0, W, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Send_init(buf, 1, I, Q, 0, W, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Ibarrier(W, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Iallreduce(buf, rbuf, 1, I, MPI_SUM, W, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Iprobe(Q, 0, W, NULL, &st));
    ROW(MPI_ERR_ARG, a, MPI_Test(&rq, NULL, &st));
    ROW(MPI_ERR_ARG, a, MPI_Op_create(NULL, 1, &uop));
    ROW(MPI_ERR_ARG, a, MPI_Op_commutative(MPI_SUM, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Win_get_group(win, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Cart_create(W, 1, one, one, 0, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Cartdim_get(cart, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Get_processor_name(NULL, &i1));
    ROW(MPI_ERR_ARG, a, MPI_Initialized(NULL));
    ROW(MPI_ERR_ARG, a, MPI_Finalized(NULL));
    ROW(MPI_ERR_ARG, a, MPI_Query_thread(NULL));
    ROW(MPI_ERR_ARG, a, MPI_Is_thread_main(NULL));
    ROW(MPI_ERR_ARG, a, MPI_Get_version(NULL, &i1));
    ROW(MPI_ERR_ARG, a, MPI_Get_library_version(NULL, &i1));
    ROW(MPI_ERR_ARG, a, MPI_Buffer_detach(NULL, &i1));
    ROW(MPI_ERR_ARG, a, MPI_Add_error_class(NULL));
    ROW(MPI_ERR_ARG, a, MPI_Type_size_x(I, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Mprobe(Q, 0, W, NULL, &st));
    ROW(MPI_ERR_ARG, "argc -1", MPI_Info_create_env(-1, NULL, &ni));
    ROW(MPI_ERR_ARG, "typeclass 99", MPI_Type_match_size(99, 4, &nt));
    ROW(MPI_ERR_ARG, a, MPI_Test_cancelled(NULL, &flag));
    ROW(MPI_ERR_ARG, a, MPI_Alloc_mem(64, MPI_INFO_NULL, NULL));
    ROW(MPI_ERR_ARG, a, MPI_Comm_create_errhandler(NULL, &eh));
    ROW(MPI_ERR_ARG, a, MPI_Win_create_errhandler(NULL, &eh));
    ROW2(MPI_ERR_SIZE, MPI_ERR_ARG, "size -1", MPI_Alloc_mem(-1, MPI_INFO_NULL, &ptr));
    ROW(MPI_ERR_ARG, "error code -5", MPI_Error_class(-5, &i1));
    ROW(MPI_ERR_ARG, "error code -5", MPI_Error_string(-5, name, &i1));
    ROW(MPI_ERR_ARG, "size -5", MPI_Buffer_attach(buf, -5));
    ROW(MPI_ERR_ARG, "ndims 0", MPI_Type_create_subarray(0, one, one, zero, MPI_ORDER_C, I, &nt));
    ROW(MPI_ERR_ARG, "order 99", MPI_Type_create_subarray(1, one, one, zero, 99, I, &nt));
    ROW(MPI_ERR_ARG, "subsize > size", MPI_Type_create_subarray(1, one, (int[]){ 2 }, zero,
                                                                 MPI_ORDER_C, I, &nt));
    ROW(MPI_ERR_ARG, "NULL types", MPI_Type_create_struct(1, one, adsp, NULL, &nt));
    ROW(MPI_ERR_TYPE, "a predefined type", MPI_Type_free(&(MPI_Datatype){ MPI_INT }));
    ROW(MPI_ERR_OP, "a predefined op", MPI_Op_free(&(MPI_Op){ MPI_SUM }));
    ROW(MPI_ERR_KEYVAL, "a predefined key", MPI_Comm_free_keyval(&(int){ MPI_TAG_UB }));
    ROW(MPI_ERR_KEYVAL, "a predefined key", MPI_Comm_set_attr(W, MPI_TAG_UB, NULL));
    ROW(MPI_ERR_BASE, "memory MPI_Alloc_mem did not give", MPI_Free_mem(buf));
    /* topologies */
    a = "a communicator without a topology";
    ROW(MPI_ERR_TOPOLOGY, a, MPI_Cartdim_get(W, &i1));
    ROW(MPI_ERR_TOPOLOGY, a, MPI_Cart_get(W, 1, cnt, dsp, idx));
    ROW(MPI_ERR_TOPOLOGY, a, MPI_Cart_rank(W, zero, &i1));
    ROW(MPI_ERR_TOPOLOGY, a, MPI_Cart_coords(W, 0, 1, idx));
    ROW(MPI_ERR_TOPOLOGY, a, MPI_Cart_shift(W, 0, 1, &i1, &i2));
    ROW(MPI_ERR_TOPOLOGY, a, MPI_Cart_sub(W, one, &nc));
    ROW(MPI_ERR_TOPOLOGY, a, MPI_Dist_graph_neighbors_count(W, &i1, &i2, &flag));
    ROW(MPI_ERR_TOPOLOGY, a, MPI_Neighbor_allgather(buf, 1, I, rbuf, 1, I, W));
    ROW(MPI_ERR_TOPOLOGY, a, MPI_Ineighbor_alltoall(buf, 1, I, rbuf, 1, I, W, &rq));
    int d2[2] = { 4, 0 };
    ROW(MPI_ERR_DIMS, "dims {4, 0} for 6 nodes", MPI_Dims_create(6, 2, d2));
    ROW2(MPI_ERR_DIMS, MPI_ERR_ARG, "ndims -1", MPI_Cart_create(W, -1, one, one, 0, &nc));
    ROW2(MPI_ERR_DIMS, MPI_ERR_ARG, "ndims -1", MPI_Dims_create(4, -1, d2));
    ROW2(MPI_ERR_RANK, MPI_ERR_ARG, "source rank = size",
         MPI_Dist_graph_create_adjacent(W, 1, &n, MPI_UNWEIGHTED, 0, zero, MPI_UNWEIGHTED,
                                        MPI_INFO_NULL, 0, &nc));
    ROW(MPI_ERR_RANK, "rank 1 of a window of one rank", MPI_Win_shared_query(shw, 1, &asz, &i1,
                                                                             &ptr));
}

/* Arguments significant at the root only, on MPI_COMM_SELF where every
 * rank is the root (so no rank waits in a collective the others left). */
static void sweep_root(void)
{
    MPI_Comm S = MPI_COMM_SELF;
    MPI_Datatype tn = MPI_DATATYPE_NULL;
    int neg[1] = { -1 }, huge[1] = { INT_MAX };
    const char *a = "at the root";
    ROW(MPI_ERR_TYPE, a, MPI_Gather(buf, 1, I, rbuf, 1, tn, 0, S));
    ROW(MPI_ERR_TYPE, a, MPI_Gather(buf, 2, I, rbuf, 1, ut, 0, S));
    ROW(MPI_ERR_TYPE, a, MPI_Gatherv(buf, 1, I, rbuf, cnt, dsp, tn, 0, S));
    ROW(MPI_ERR_TYPE, a, MPI_Igather(buf, 1, I, rbuf, 1, tn, 0, S, &rq));
    ROW(MPI_ERR_TYPE, a, MPI_Scatter(buf, 1, tn, rbuf, 1, I, 0, S));
    ROW(MPI_ERR_TYPE, a, MPI_Scatterv(buf, cnt, dsp, tn, rbuf, 1, I, 0, S));
    ROW(MPI_ERR_TYPE, a, MPI_Iscatterv(buf, cnt, dsp, tn, rbuf, 1, I, 0, S, &rq));
    ROW(MPI_ERR_BUFFER, a, MPI_Gather(buf, 4, I, NULL, 4, I, 0, S));
    ROW(MPI_ERR_BUFFER, a, MPI_Gatherv(buf, 1, I, NULL, cnt, dsp, I, 0, S));
    ROW(MPI_ERR_BUFFER, a, MPI_Scatter(NULL, 4, I, rbuf, 4, I, 0, S));
    ROW(MPI_ERR_BUFFER, a, MPI_Scatterv(NULL, cnt, dsp, I, rbuf, 1, I, 0, S));
    ROW(MPI_ERR_BUFFER, a, MPI_Reduce(buf, NULL, 4, I, MPI_SUM, 0, S));
    ROW(MPI_ERR_BUFFER, a, MPI_Ireduce(buf, NULL, 4, I, MPI_SUM, 0, S, &rq));
    ROW(MPI_ERR_COUNT, a, MPI_Gather(buf, 1, I, rbuf, -1, I, 0, S));
    ROW(MPI_ERR_COUNT, a, MPI_Gatherv(buf, 1, I, rbuf, neg, dsp, I, 0, S));
    ROW(MPI_ERR_COUNT, a, MPI_Scatter(buf, -1, I, rbuf, 1, I, 0, S));
    ROW(MPI_ERR_COUNT, a, MPI_Scatterv(buf, neg, dsp, I, rbuf, 1, I, 0, S));
    ROW(MPI_ERR_ARG, a, MPI_Gatherv(buf, 1, I, rbuf, NULL, dsp, I, 0, S));
    ROW(MPI_ERR_ARG, a, MPI_Scatterv(buf, NULL, dsp, I, rbuf, 1, I, 0, S));
    a = "INT_MAX elements of an 8 MiB type at the root";
    ROW(MPI_ERR_COUNT, a, MPI_Gather(buf, 1, I, rbuf, INT_MAX, t8m, 0, S));
    ROW(MPI_ERR_COUNT, a, MPI_Igather(buf, 1, I, rbuf, INT_MAX, t8m, 0, S, &rq));
    ROW(MPI_ERR_COUNT, a, MPI_Gatherv(buf, 1, I, rbuf, huge, dsp, t8m, 0, S));
    ROW(MPI_ERR_COUNT, a, MPI_Scatter(buf, INT_MAX, t8m, rbuf, 1, I, 0, S));
    ROW(MPI_ERR_COUNT, a, MPI_Scatterv(buf, huge, dsp, t8m, rbuf, 1, I, 0, S));
    ROW(MPI_ERR_COUNT, "displacement INT_MAX of an 8 MiB type at the root",
        MPI_Gatherv(buf, 1, I, rbuf, one, huge, t8m, 0, S));
}

/* Not errors: MPI_BOTTOM with absolute addresses, and NULL with no data. */
static void sweep_valid(void)
{
    int cell = 4242, got = -1;
    MPI_Aint addr;
    MPI_Datatype abs_t, empty_t;
    RXT_MPI(MPI_Get_address(&cell, &addr));
    RXT_MPI(MPI_Type_create_struct(1, one, &addr, (MPI_Datatype[]){ MPI_INT }, &abs_t));
    RXT_MPI(MPI_Type_commit(&abs_t));
    RXT_MPI(MPI_Type_contiguous(0, MPI_INT, &empty_t));
    RXT_MPI(MPI_Type_commit(&empty_t));
    const char *a = "MPI_BOTTOM and absolute addresses";
    ROW(MPI_SUCCESS, a, MPI_Sendrecv(MPI_BOTTOM, 1, abs_t, me, 7, &got, 1, I, me, 7, W, &st));
    RXT_CHECK(got == 4242, "MPI_BOTTOM send gave %d", got);
    ROW(MPI_SUCCESS, a, MPI_Sendrecv(&got, 1, I, me, 8, MPI_BOTTOM, 1, abs_t, me, 8, W, &st));
    ROW(MPI_SUCCESS, a, MPI_Bcast(MPI_BOTTOM, 1, abs_t, 0, W));
    a = "NULL buffer without data";
    ROW(MPI_SUCCESS, a, MPI_Sendrecv(NULL, 0, I, me, 9, NULL, 0, I, me, 9, W, &st));
    ROW(MPI_SUCCESS, a, MPI_Sendrecv(NULL, 5, empty_t, me, 9, NULL, 5, empty_t, me, 9, W, &st));
    ROW(MPI_SUCCESS, a, MPI_Allreduce(NULL, NULL, 0, I, MPI_SUM, W));
    RXT_MPI(MPI_Win_lock_all(0, win));
    ROW(MPI_SUCCESS, a, MPI_Put(NULL, 0, I, me, 0, 0, I, win));
    ROW(MPI_SUCCESS, "MPI_NO_OP ignores the origin",
        MPI_Fetch_and_op(NULL, rbuf, I, me, 0, MPI_NO_OP, win));
    RXT_MPI(MPI_Win_unlock_all(win));
    MPI_Type_free(&abs_t);
    MPI_Type_free(&empty_t);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "bad_args");
    signal(SIGALRM, on_signal);
    signal(SIGSEGV, on_signal);
    signal(SIGBUS, on_signal);
    signal(SIGFPE, on_signal);
    alarm(120);
    W = MPI_COMM_WORLD;
    me = rxt_rank;
    n = rxt_size;
    RXT_MPI(MPI_Comm_set_errhandler(W, MPI_ERRORS_RETURN));
    RXT_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    for (int i = 0; i < 64; i++) {
        buf[i] = i;
        cnt[i] = 1;
        dsp[i] = i;
        adsp[i] = (MPI_Aint)(i * sizeof(int));
        i4[i] = MPI_INT;
    }
    RXT_MPI(MPI_Comm_group(W, &gw));
    RXT_MPI(MPI_Cart_create(W, 1, &n, one, 0, &cart));
    RXT_MPI(MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN));
    RXT_MPI(MPI_Type_contiguous(2, MPI_INT, &ut)); /* never committed */
    RXT_MPI(MPI_Type_contiguous(1 << 20, MPI_DOUBLE, &t8m));
    RXT_MPI(MPI_Type_commit(&t8m));
    MPI_Datatype t30;
    RXT_MPI(MPI_Type_contiguous(1 << 30, MPI_BYTE, &t30));
    RXT_MPI(MPI_Type_contiguous(1 << 10, t30, &t40));
    RXT_MPI(MPI_Type_commit(&t40));
    MPI_Type_free(&t30);
    RXT_MPI(MPI_Op_create(usum, 1, &uop));
    RXT_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kv, NULL));
    RXT_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tkv, NULL));
    RXT_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &wkv, NULL));
    RXT_MPI(MPI_Win_allocate(64 * sizeof(int), sizeof(int), MPI_INFO_NULL, W, &wbase, &win));
    RXT_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    RXT_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, W, &dwin));
    RXT_MPI(MPI_Win_set_errhandler(dwin, MPI_ERRORS_RETURN));
    RXT_MPI(MPI_Win_allocate_shared(64, 1, MPI_INFO_NULL, MPI_COMM_SELF, &ptr, &shw));
    RXT_MPI(MPI_Win_set_errhandler(shw, MPI_ERRORS_RETURN));
    memset(wbase, 0, 64 * sizeof(int));
    RXT_MPI(MPI_Barrier(W));

    sweep_counts();
    sweep_overflow();
    sweep_ranks();
    sweep_buffers();
    sweep_uncommitted();
    sweep_other();
    sweep_root();
    sweep_valid();
    sweep_handles();
    cur_call = "(after the sweep)";

    /* the library still works */
    int right = (me + 1) % n, left = (me + n - 1) % n, got = -1, sum = 0;
    RXT_MPI(MPI_Sendrecv(&me, 1, MPI_INT, right, 1, &got, 1, MPI_INT, left, 1, W, &st));
    RXT_CHECK(got == left, "ring after the sweep got %d", got);
    RXT_MPI(MPI_Allreduce(&one[0], &sum, 1, MPI_INT, MPI_SUM, W));
    RXT_CHECK(sum == n, "allreduce after the sweep gave %d", sum);
    if (me == 0)
        printf("bad_args: %d rows, %d failed at rank 0\n", nrows, nfail);
    MPI_Win_free(&shw);
    MPI_Win_free(&dwin);
    MPI_Win_free(&win);
    MPI_Type_free(&ut);
    MPI_Type_free(&t8m);
    MPI_Type_free(&t40);
    MPI_Op_free(&uop);
    MPI_Comm_free_keyval(&kv);
    MPI_Type_free_keyval(&tkv);
    MPI_Win_free_keyval(&wkv);
    MPI_Group_free(&gw);
    MPI_Comm_free(&cart);
    return rxt_finish();
}
