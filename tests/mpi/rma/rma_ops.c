/* SPDX-License-Identifier: MIT
 * Every one-sided operation under every synchronization mode, on several
 * datatypes and displacement units, checked against a serial reference.
 * Each rank r operates on rank (r + 1) % n's window; the target checks what
 * it holds, the origin what it fetched. argv[1] picks the window flavor:
 * allocate (mapped memory), create (user memory: cross-memory attach and the
 * accumulate lock), allocmem (MPI_Alloc_mem memory given to Win_create) or
 * dynamic. */
#include "rxtest.h"

#include <math.h>

#define N 24 /* elements per operation */

enum { S_FENCE, S_PSCW, S_LOCK, S_LOCKALL, S_NSYNC };
static const char *const sync_name[] = {"fence", "pscw", "lock", "lock_all"};
enum { O_PUT, O_GET, O_ACC, O_GACC, O_FOP, O_CAS, O_RPUT, O_RGET, O_RACC, O_RGACC, O_NOPS };
static const char *const op_name[] = {"put",  "get",  "acc",  "gacc", "fop",
                                      "cas",  "rput", "rget", "racc", "rgacc"};

typedef struct {
    MPI_Datatype dt;
    const char *name;
    int size;
    MPI_Op op; /* accumulate op used with this type */
} tinfo_t;

static const tinfo_t types[] = {
    {MPI_INT, "MPI_INT", sizeof(int), MPI_SUM},
    {MPI_DOUBLE, "MPI_DOUBLE", sizeof(double), MPI_MAX},
    {MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", 1, MPI_BXOR},
    {MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", sizeof(long double), MPI_SUM},
    {MPI_INT64_T, "MPI_INT64_T", 8, MPI_REPLACE},
};
#define NTYPES ((int)(sizeof types / sizeof types[0]))

/* Value of element i of "who" in a round: exact in every type above. */
static double val(int who, int i, int round) { return (double)((who * 7 + i * 3 + round) % 100); }

static void set(const tinfo_t *t, void *buf, int i, double v)
{
    if (t->dt == MPI_INT) ((int *)buf)[i] = (int)v;
    else if (t->dt == MPI_DOUBLE) ((double *)buf)[i] = v;
    else if (t->dt == MPI_UNSIGNED_CHAR) ((unsigned char *)buf)[i] = (unsigned char)v;
    else if (t->dt == MPI_LONG_DOUBLE) ((long double *)buf)[i] = v;
    else ((int64_t *)buf)[i] = (int64_t)v;
}

static double get(const tinfo_t *t, const void *buf, int i)
{
    if (t->dt == MPI_INT) return ((const int *)buf)[i];
    if (t->dt == MPI_DOUBLE) return ((const double *)buf)[i];
    if (t->dt == MPI_UNSIGNED_CHAR) return ((const unsigned char *)buf)[i];
    if (t->dt == MPI_LONG_DOUBLE) return (double)((const long double *)buf)[i];
    return (double)((const int64_t *)buf)[i];
}

static double apply(const tinfo_t *t, double target, double origin)
{
    if (t->op == MPI_SUM) return target + origin;
    if (t->op == MPI_MAX) return target > origin ? target : origin;
    if (t->op == MPI_BXOR) return (double)((unsigned)target ^ (unsigned)origin);
    return origin; /* MPI_REPLACE */
}

static MPI_Win win;
static char *wbase;      /* this rank's window memory */
static MPI_Aint wbytes;
static MPI_Aint *bases;  /* dynamic windows: every rank's region address */
static int dynamic;
static int win_allocated; /* the window memory comes from MPI_Win_allocate */
static MPI_Group g_origin, g_target;

static void open_epoch(int s, int target)
{
    switch (s) {
    case S_FENCE: RXT_MPI(MPI_Win_fence(0, win)); break;
    case S_PSCW:
        RXT_MPI(MPI_Win_post(g_origin, 0, win));
        RXT_MPI(MPI_Win_start(g_target, 0, win));
        break;
    case S_LOCK: RXT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win)); break;
    case S_LOCKALL: RXT_MPI(MPI_Win_lock_all(0, win)); break;
    }
}

static void close_epoch(int s, int target)
{
    switch (s) {
    case S_FENCE: RXT_MPI(MPI_Win_fence(0, win)); break;
    case S_PSCW:
        RXT_MPI(MPI_Win_complete(win));
        RXT_MPI(MPI_Win_wait(win));
        break;
    case S_LOCK: RXT_MPI(MPI_Win_unlock(target, win)); break;
    case S_LOCKALL: RXT_MPI(MPI_Win_unlock_all(win)); break;
    }
    if (s == S_LOCK || s == S_LOCKALL)
        RXT_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* passive target: targets wait for origins */
}

static void run(int s, int o, const tinfo_t *t, int unit_elem, int round)
{
    int me = rxt_rank, n = rxt_size, target = (me + 1) % n, source = (me + n - 1) % n;
    int esz = t->size, unit = unit_elem ? esz : 1;
    int first = 2 + round % 3; /* element index where the operation starts */
    MPI_Aint disp = (MPI_Aint)first * esz / unit;
    if (dynamic)
        disp = bases[target] + (MPI_Aint)first * esz;
    int cnt = (o == O_FOP || o == O_CAS) ? 1 : N;
    char obuf[N * 16], rbuf[N * 16], cbuf[16], init[(N + 8) * 16];
    MPI_Request req = MPI_REQUEST_NULL;

    /* reference contents of the target window, set by its owner */
    int nel = (int)(wbytes / esz);
    RXT_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, win));
    for (int i = 0; i < nel; i++)
        set(t, wbase, i, val(me + 50, i, round));
    memcpy(init, wbase, (size_t)nel * esz < sizeof init ? (size_t)nel * esz : sizeof init);
    RXT_MPI(MPI_Win_unlock(me, win));
    for (int i = 0; i < cnt; i++) {
        set(t, obuf, i, val(me, i, round));
        set(t, rbuf, i, -1 & 0x7f);
    }
    set(t, cbuf, 0, val(target + 50, first, round)); /* cas: matches on even rounds */
    if (round & 1)
        set(t, cbuf, 0, 100); /* never a value of val() */
    MPI_Barrier(MPI_COMM_WORLD);
    if (s == S_PSCW) {
        /* each rank exposes to its source and accesses its target */
        MPI_Group wg;
        MPI_Comm_group(MPI_COMM_WORLD, &wg);
        MPI_Group_incl(wg, 1, &source, &g_origin);
        MPI_Group_incl(wg, 1, &target, &g_target);
        MPI_Group_free(&wg);
    }

    int cas_ok = t->dt == MPI_INT || t->dt == MPI_UNSIGNED_CHAR || t->dt == MPI_INT64_T;
#ifdef OPEN_MPI /* Open MPI 4.1 (osc rdma over vader) crashes in Compare_and_swap on MPI_Win_allocate memory */
    cas_ok = cas_ok && !win_allocated;
#endif
    int skip = (o == O_CAS && !cas_ok);
    MPI_Datatype dt = t->dt;
    open_epoch(s, target);
    if (!skip) {
        switch (o) {
        case O_PUT: RXT_MPI(MPI_Put(obuf, cnt, dt, target, disp, cnt, dt, win)); break;
        case O_GET: RXT_MPI(MPI_Get(rbuf, cnt, dt, target, disp, cnt, dt, win)); break;
        case O_ACC: RXT_MPI(MPI_Accumulate(obuf, cnt, dt, target, disp, cnt, dt, t->op, win)); break;
        case O_GACC:
            RXT_MPI(MPI_Get_accumulate(obuf, cnt, dt, rbuf, cnt, dt, target, disp, cnt, dt, t->op,
                                       win));
            break;
        case O_FOP: RXT_MPI(MPI_Fetch_and_op(obuf, rbuf, dt, target, disp, t->op, win)); break;
        case O_CAS: RXT_MPI(MPI_Compare_and_swap(obuf, cbuf, rbuf, dt, target, disp, win)); break;
        case O_RPUT: RXT_MPI(MPI_Rput(obuf, cnt, dt, target, disp, cnt, dt, win, &req)); break;
        case O_RGET: RXT_MPI(MPI_Rget(rbuf, cnt, dt, target, disp, cnt, dt, win, &req)); break;
        case O_RACC:
            RXT_MPI(MPI_Raccumulate(obuf, cnt, dt, target, disp, cnt, dt, t->op, win, &req));
            break;
        case O_RGACC:
            RXT_MPI(MPI_Rget_accumulate(obuf, cnt, dt, rbuf, cnt, dt, target, disp, cnt, dt, t->op,
                                        win, &req));
            break;
        }
        if (req != MPI_REQUEST_NULL)
            RXT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    }
    close_epoch(s, target);
    if (s == S_PSCW) {
        MPI_Group_free(&g_origin);
        MPI_Group_free(&g_target);
    }

    /* the origin's view: fetched values */
    int fetches = o == O_GET || o == O_RGET || o == O_GACC || o == O_RGACC || o == O_FOP ||
                  (o == O_CAS && !skip);
    for (int i = 0; fetches && i < cnt; i++) {
        double want = val(target + 50, first + i, round), got = get(t, rbuf, i);
        RXT_CHECK(got == want, "%s %s %s unit=%d round %d: fetched[%d] = %g, expected %g",
                  op_name[o], sync_name[s], t->name, unit, round, i, got, want);
    }
    /* the target's view: its window after the source's operation */
    RXT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, me, 0, win));
    for (int i = 0; i < nel; i++) {
        double before = get(t, init, i), want = before, got = get(t, wbase, i);
        int k = i - first;
        if (k >= 0 && k < cnt && !skip) {
            double org = val(source, k, round);
            if (o == O_PUT || o == O_RPUT)
                want = org;
            else if (o == O_ACC || o == O_RACC || o == O_GACC || o == O_RGACC || o == O_FOP)
                want = apply(t, before, org);
            else if (o == O_CAS)
                want = (round & 1) ? before : org;
        }
        if (t->dt == MPI_UNSIGNED_CHAR)
            want = (double)((unsigned)want & 0xff);
        RXT_CHECK(got == want, "%s %s %s unit=%d round %d: target[%d] = %g, expected %g",
                  op_name[o], sync_name[s], t->name, unit, round, i, got, want);
    }
    RXT_MPI(MPI_Win_unlock(me, win));
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "rma_ops");
    const char *flavor = argc > 1 ? argv[1] : "allocate";
    wbytes = (N + 8) * 16;
    void *mem = NULL;
    if (!strcmp(flavor, "allocate")) {
        win_allocated = 1;
        RXT_MPI(MPI_Win_allocate(wbytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &wbase, &win));
    } else if (!strcmp(flavor, "create")) {
        mem = malloc((size_t)wbytes);
        wbase = mem;
        RXT_MPI(MPI_Win_create(wbase, wbytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    } else if (!strcmp(flavor, "allocmem")) {
        RXT_MPI(MPI_Alloc_mem(wbytes, MPI_INFO_NULL, &wbase));
        RXT_MPI(MPI_Win_create(wbase, wbytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    } else if (!strcmp(flavor, "dynamic")) {
        dynamic = 1;
        mem = malloc((size_t)wbytes);
        wbase = mem;
        RXT_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
        RXT_MPI(MPI_Win_attach(win, wbase, wbytes));
        bases = calloc((size_t)rxt_size, sizeof(MPI_Aint));
        MPI_Get_address(wbase, &bases[rxt_rank]);
        RXT_MPI(MPI_Allreduce(MPI_IN_PLACE, bases, rxt_size, MPI_AINT, MPI_SUM, MPI_COMM_WORLD));
    } else {
        RXT_FATAL("unknown flavor %s", flavor);
    }
    /* disp_unit 1 here; windows of element-sized units are made per type below */
    int round = 0;
    for (int tt = 0; tt < NTYPES; tt++)
        for (int unit_elem = 0; unit_elem < 2; unit_elem++) {
            if (unit_elem && (dynamic || !strcmp(flavor, "allocmem")))
                continue;
#ifdef OPEN_MPI /* Open MPI 4.1 refuses MPI_Win_create in a one-process job (MPI_ERR_WIN) */
            if (unit_elem && rxt_size == 1)
                continue;
#endif
            if (unit_elem) { /* a second window over the same memory, in elements */
                MPI_Win w2;
                RXT_MPI(MPI_Win_create(wbase, wbytes, types[tt].size, MPI_INFO_NULL,
                                       MPI_COMM_WORLD, &w2));
                MPI_Win keep = win;
                win = w2;
                for (int s = 0; s < S_NSYNC; s++)
                    for (int o = 0; o < O_NOPS; o++)
                        run(s, o, &types[tt], 1, round++);
                RXT_MPI(MPI_Win_free(&w2));
                win = keep;
                continue;
            }
            for (int s = 0; s < S_NSYNC; s++)
                for (int o = 0; o < O_NOPS; o++)
                    run(s, o, &types[tt], 0, round++);
        }
    if (dynamic)
        RXT_MPI(MPI_Win_detach(win, wbase));
    RXT_MPI(MPI_Win_free(&win));
    if (!strcmp(flavor, "allocmem"))
        RXT_MPI(MPI_Free_mem(wbase));
    free(mem);
    free(bases);
    return rxt_finish();
}
