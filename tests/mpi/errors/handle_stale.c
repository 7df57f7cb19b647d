/* SPDX-License-Identifier: MIT
 * Stale handles: a handle kept after its object was freed must fail with the
 * class of its kind under MPI_ERRORS_RETURN, also once a new object has been
 * created in its place, and must never reach that new object (a double
 * MPI_Type_free freeing an unrelated type, a send with a freed type sending
 * another type's data). Objects the application freed while others still use
 * them (a type inside another, a key with attributes set, an error handler a
 * communicator uses) refuse the old handle too and keep working for their
 * users. Many create/free cycles keep working. `handle_stale CASE` runs one
 * case (datatype, comm, keyval, group, op, errhandler, win, request, info ...).
 *
 * The program is erroneous on purpose: MPI leaves the use of a freed handle
 * undefined, so other implementations may crash on it; run-with.sh results
 * for this test say nothing about the test. */
#include "rxtest.h"

#define CYCLES 1000000

static void t_datatype(void)
{
    MPI_Datatype a, stale, b;
    RXT_MPI(MPI_Type_contiguous(2, MPI_INT, &a));
    RXT_MPI(MPI_Type_commit(&a));
    stale = a;
    RXT_MPI(MPI_Type_free(&a));
    /* the next type: 8 MiB per element, where a was 8 bytes */
    RXT_MPI(MPI_Type_contiguous(1 << 20, MPI_DOUBLE, &b));
    RXT_MPI(MPI_Type_commit(&b));
    RXT_CHECK(b != stale, "a new type got the freed type's handle %#x", (unsigned)stale);
    int sz = -1;
    RXT_EXPECT_CLASS(MPI_ERR_TYPE, MPI_Type_size(stale, &sz));
    RXT_EXPECT_CLASS(MPI_ERR_TYPE, MPI_Send(NULL, 0, stale, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
    int x[2] = {1, 2};
    MPI_Request r = MPI_REQUEST_NULL;
    RXT_EXPECT_CLASS(MPI_ERR_TYPE, MPI_Isend(x, 1, stale, 0, 0, MPI_COMM_SELF, &r));
    if (r != MPI_REQUEST_NULL) /* it would read 8 MiB from x: stop here */
        RXT_FATAL("MPI_Isend with a freed type started a send (request %#x)", (unsigned)r);
    MPI_Datatype copy = stale;
    RXT_EXPECT_CLASS(MPI_ERR_TYPE, MPI_Type_free(&copy)); /* the double free */
    RXT_MPI(MPI_Type_size(b, &sz)); /* ... left b alone */
    RXT_CHECK(sz == 8 << 20, "the live type's size is %d", sz);
    RXT_MPI(MPI_Type_free(&b));
}

/* A type the application freed inside another: the old handle is dead, the
 * outer type still works, and MPI_Type_get_contents hands out a live handle. */
static void t_datatype_held(void)
{
    MPI_Datatype in, out, stale;
    RXT_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &in));
    RXT_MPI(MPI_Type_contiguous(2, in, &out));
    RXT_MPI(MPI_Type_commit(&out));
    stale = in;
    RXT_MPI(MPI_Type_free(&in));
    int sz = -1;
    RXT_EXPECT_CLASS(MPI_ERR_TYPE, MPI_Type_size(stale, &sz));
    MPI_Datatype copy = stale;
    RXT_EXPECT_CLASS(MPI_ERR_TYPE, MPI_Type_free(&copy));
    int s[8] = {1, 2, 3, 4, 5, 6, 7, 8}, d[8] = {0};
    RXT_MPI(MPI_Sendrecv(s, 1, out, 0, 3, d, 1, out, 0, 3, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    /* elements at int offsets 0, 2 (the vector) and 3, 5 (its extent is 3 ints) */
    RXT_CHECK(d[0] == 1 && d[2] == 3 && d[3] == 4 && d[5] == 6 && d[1] == 0 && d[4] == 0,
              "received %d %d %d %d (holes %d %d)", d[0], d[2], d[3], d[5], d[1], d[4]);
    int ni, na, nt, comb;
    RXT_MPI(MPI_Type_get_envelope(out, &ni, &na, &nt, &comb));
    RXT_CHECK(nt == 1 && comb == MPI_COMBINER_CONTIGUOUS, "envelope %d %d", nt, comb);
    int ints[1];
    MPI_Aint aints[1];
    MPI_Datatype types[1] = {MPI_DATATYPE_NULL};
    RXT_MPI(MPI_Type_get_contents(out, 1, 0, 1, ints, aints, types));
    RXT_MPI(MPI_Type_size(types[0], &sz));
    RXT_CHECK(sz == 2 * (int)sizeof(int), "inner size %d", sz);
    RXT_MPI(MPI_Type_free(&types[0]));
    RXT_EXPECT_CLASS(MPI_ERR_TYPE, MPI_Type_size(stale, &sz));
    RXT_MPI(MPI_Type_free(&out));
}

static void t_datatype_cycles(void)
{
    MPI_Datatype keep, prev = MPI_DATATYPE_NULL;
    RXT_MPI(MPI_Type_contiguous(3, MPI_INT, &keep));
    for (int c = 0; c < CYCLES && rxt_errs == 0; c++) {
        MPI_Datatype t;
        int rc = MPI_Type_contiguous(c % 7 + 1, MPI_CHAR, &t);
        if (rc != MPI_SUCCESS) {
            RXT_CHECK(0, "MPI_Type_contiguous failed at cycle %d: %s", c, rxt_errstr(rc));
            break;
        }
        RXT_CHECK(t != prev, "cycle %d got the previous handle again", c);
        if (c % 4096 == 0) {
            int sz;
            RXT_MPI(MPI_Type_size(t, &sz));
            RXT_CHECK(sz == c % 7 + 1, "cycle %d: size %d", c, sz);
            if (prev != MPI_DATATYPE_NULL)
                RXT_EXPECT_CLASS(MPI_ERR_TYPE, MPI_Type_size(prev, &sz));
        }
        prev = t;
        RXT_MPI(MPI_Type_free(&t));
    }
    int sz;
    RXT_MPI(MPI_Type_size(keep, &sz));
    RXT_CHECK(sz == 3 * (int)sizeof(int), "long-lived type's size %d", sz);
    RXT_MPI(MPI_Type_free(&keep));
}

static void t_comm(void)
{
    MPI_Comm a, b, stale;
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &a));
    stale = a;
    RXT_MPI(MPI_Comm_free(&a));
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &b));
    RXT_CHECK(b != stale, "a new communicator got the freed one's handle");
    int n = -1;
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Comm_size(stale, &n));
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Barrier(stale));
    MPI_Comm copy = stale;
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Comm_free(&copy));
    RXT_MPI(MPI_Comm_size(b, &n));
    RXT_CHECK(n == rxt_size, "size %d", n);
    RXT_MPI(MPI_Barrier(b));
    RXT_MPI(MPI_Comm_free(&b));
}

static int deletes;
static int count_delete(MPI_Comm c, int k, void *v, void *e)
{
    (void)c, (void)k, (void)v, (void)e;
    deletes++;
    return MPI_SUCCESS;
}

static void t_keyval(void)
{
    int k, stale, k2;
    RXT_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL));
    stale = k;
    RXT_MPI(MPI_Comm_free_keyval(&k));
    RXT_CHECK(k == MPI_KEYVAL_INVALID, "free_keyval left %#x", (unsigned)k);
    RXT_EXPECT_CLASS(MPI_ERR_KEYVAL, MPI_Comm_set_attr(MPI_COMM_WORLD, stale, &k));
    RXT_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k2, NULL));
    RXT_EXPECT_CLASS(MPI_ERR_KEYVAL, MPI_Comm_set_attr(MPI_COMM_WORLD, stale, &k));
    int copy = stale;
    RXT_EXPECT_CLASS(MPI_ERR_KEYVAL, MPI_Comm_free_keyval(&copy));
    RXT_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k2, &k2));
    RXT_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, k2));
    RXT_MPI(MPI_Comm_free_keyval(&k2));

    /* freed while an attribute uses it: the handle dies, the delete callback still runs */
    MPI_Comm c;
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    RXT_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &k, NULL));
    RXT_MPI(MPI_Comm_set_attr(c, k, &deletes));
    stale = k;
    RXT_MPI(MPI_Comm_free_keyval(&k));
    void *v;
    int flag;
    RXT_EXPECT_CLASS(MPI_ERR_KEYVAL, MPI_Comm_set_attr(c, stale, &k));
    RXT_EXPECT_CLASS(MPI_ERR_KEYVAL, MPI_Comm_get_attr(c, stale, &v, &flag));
    RXT_MPI(MPI_Comm_free(&c));
    RXT_CHECK(deletes == 1, "delete callback ran %d times", deletes);

    for (int i = 0; i < 20000; i++) {
        RXT_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL));
        RXT_MPI(MPI_Comm_free_keyval(&k));
    }
}

static void t_group(void)
{
    MPI_Group g, stale, g2;
    RXT_MPI(MPI_Comm_group(MPI_COMM_WORLD, &g));
    stale = g;
    RXT_MPI(MPI_Group_free(&g));
    RXT_MPI(MPI_Comm_group(MPI_COMM_WORLD, &g2));
    int n;
    RXT_EXPECT_CLASS(MPI_ERR_GROUP, MPI_Group_size(stale, &n));
    MPI_Group copy = stale;
    RXT_EXPECT_CLASS(MPI_ERR_GROUP, MPI_Group_free(&copy));
    RXT_MPI(MPI_Group_size(g2, &n));
    RXT_CHECK(n == rxt_size, "group size %d", n);
    RXT_MPI(MPI_Group_free(&g2));
}

static void my_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static void t_op(void)
{
    MPI_Op o, stale, o2;
    RXT_MPI(MPI_Op_create(my_op, 1, &o));
    stale = o;
    RXT_MPI(MPI_Op_free(&o));
    RXT_MPI(MPI_Op_create(my_op, 0, &o2));
    int commute = -1, x = 1, y = 0;
    RXT_EXPECT_CLASS(MPI_ERR_OP, MPI_Op_commutative(stale, &commute));
    RXT_EXPECT_CLASS(MPI_ERR_OP, MPI_Allreduce(&x, &y, 1, MPI_INT, stale, MPI_COMM_WORLD));
    MPI_Op copy = stale;
    RXT_EXPECT_CLASS(MPI_ERR_OP, MPI_Op_free(&copy));
    RXT_MPI(MPI_Op_commutative(o2, &commute));
    RXT_CHECK(commute == 0, "the live op's commute flag is %d", commute);
    RXT_MPI(MPI_Op_free(&o2));
}

static int handler_calls;
static void count_handler(MPI_Comm *c, int *code, ...)
{
    (void)c, (void)code;
    handler_calls++;
}

static void t_errhandler(void)
{
    MPI_Errhandler e, stale, e2;
    RXT_MPI(MPI_Comm_create_errhandler(count_handler, &e));
    stale = e;
    RXT_MPI(MPI_Errhandler_free(&e));
    RXT_MPI(MPI_Comm_create_errhandler(count_handler, &e2));
    MPI_Comm c;
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Comm_set_errhandler(c, stale));
    MPI_Errhandler copy = stale;
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Errhandler_free(&copy));

    /* freed while c uses it: c keeps calling it, the old handle is refused,
     * MPI_Comm_get_errhandler hands out a live one */
    RXT_MPI(MPI_Comm_set_errhandler(c, e2));
    stale = e2;
    RXT_MPI(MPI_Errhandler_free(&e2));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Comm_set_errhandler(MPI_COMM_WORLD, stale));
    RXT_MPI(MPI_Comm_call_errhandler(c, MPI_ERR_OTHER));
    RXT_CHECK(handler_calls == 1, "handler ran %d times", handler_calls);
    /* communicators made from c (a window's, an idup's) take it and let it go */
    static int mem[2];
    MPI_Win w;
    MPI_Comm c2;
    MPI_Request r;
    RXT_MPI(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, c, &w));
    RXT_MPI(MPI_Win_free(&w));
    RXT_MPI(MPI_Comm_idup(c, &c2, &r));
    RXT_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    RXT_MPI(MPI_Comm_call_errhandler(c2, MPI_ERR_OTHER));
    RXT_MPI(MPI_Comm_free(&c2));
    RXT_MPI(MPI_Comm_call_errhandler(c, MPI_ERR_OTHER));
    RXT_CHECK(handler_calls == 3, "handler ran %d times", handler_calls);
    MPI_Errhandler got;
    RXT_MPI(MPI_Comm_get_errhandler(c, &got));
    RXT_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, got));
    RXT_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    RXT_MPI(MPI_Errhandler_free(&got));
    RXT_MPI(MPI_Comm_free(&c));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Comm_set_errhandler(MPI_COMM_WORLD, stale));
    for (int i = 0; i < 20000; i++) {
        RXT_MPI(MPI_Comm_create_errhandler(count_handler, &e));
        RXT_MPI(MPI_Errhandler_free(&e));
    }
}

static void t_win(void)
{
    static int mem[4];
    MPI_Win w, stale, w2;
    RXT_MPI(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w));
    stale = w;
    RXT_MPI(MPI_Win_free(&w));
    RXT_MPI(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w2));
    MPI_Group g;
    RXT_EXPECT_CLASS(MPI_ERR_WIN, MPI_Win_get_group(stale, &g));
    RXT_EXPECT_CLASS(MPI_ERR_WIN, MPI_Win_fence(0, stale));
    MPI_Win copy = stale;
    RXT_EXPECT_CLASS(MPI_ERR_WIN, MPI_Win_free(&copy));
    RXT_MPI(MPI_Win_fence(0, w2));
    RXT_MPI(MPI_Win_fence(0, w2));
    RXT_MPI(MPI_Win_free(&w2));
}

static void t_request(void)
{
    int x = 7, y = 0;
    MPI_Request r, stale, r2;
    /* Synchronous sends: a standard send that completes inside MPI_Isend
     * gets the one pre-completed request every such send shares (see
     * "Handles" in docs/architecture.md), whose handle stays valid; an
     * Issend always has its own. */
    RXT_MPI(MPI_Issend(&x, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &r));
    RXT_MPI(MPI_Recv(&y, 1, MPI_INT, 0, 5, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    stale = r;
    RXT_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    RXT_CHECK(r == MPI_REQUEST_NULL, "MPI_Wait left %#x", (unsigned)r);
    RXT_MPI(MPI_Issend(&x, 1, MPI_INT, 0, 6, MPI_COMM_SELF, &r2));
    int flag = 0;
    MPI_Request copy = stale;
    RXT_EXPECT_CLASS(MPI_ERR_REQUEST, MPI_Wait(&copy, MPI_STATUS_IGNORE));
    copy = stale;
    RXT_EXPECT_CLASS(MPI_ERR_REQUEST, MPI_Test(&copy, &flag, MPI_STATUS_IGNORE));
    copy = stale;
    RXT_EXPECT_CLASS(MPI_ERR_REQUEST, MPI_Request_free(&copy));
    RXT_MPI(MPI_Recv(&y, 1, MPI_INT, 0, 6, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    RXT_MPI(MPI_Wait(&r2, MPI_STATUS_IGNORE));

    /* freed by MPI_Request_free while in flight: the handle is no longer the application's */
    RXT_MPI(MPI_Irecv(&y, 1, MPI_INT, 0, 8, MPI_COMM_SELF, &r));
    stale = r;
    RXT_MPI(MPI_Request_free(&r));
    copy = stale;
    RXT_EXPECT_CLASS(MPI_ERR_REQUEST, MPI_Test(&copy, &flag, MPI_STATUS_IGNORE));
    RXT_MPI(MPI_Send(&x, 1, MPI_INT, 0, 8, MPI_COMM_SELF));

    for (int c = 0; c < 100000 && rxt_errs == 0; c++) {
        RXT_MPI(MPI_Issend(&x, 1, MPI_INT, 0, 9, MPI_COMM_SELF, &r));
        RXT_CHECK(r != stale, "cycle %d got a freed request's handle", c);
        stale = r;
        RXT_MPI(MPI_Recv(&y, 1, MPI_INT, 0, 9, MPI_COMM_SELF, MPI_STATUS_IGNORE));
        RXT_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
}

static void t_info(void)
{
    MPI_Info i, stale, i2;
    RXT_MPI(MPI_Info_create(&i));
    stale = i;
    RXT_MPI(MPI_Info_free(&i));
    RXT_MPI(MPI_Info_create(&i2));
    RXT_CHECK(i2 != stale, "a new info object got the freed one's handle");
    int n = -1;
    RXT_EXPECT_CLASS(MPI_ERR_INFO, MPI_Info_set(stale, "key", "value"));
    RXT_EXPECT_CLASS(MPI_ERR_INFO, MPI_Info_get_nkeys(stale, &n));
    MPI_Info copy = stale;
    RXT_EXPECT_CLASS(MPI_ERR_INFO, MPI_Info_free(&copy));
    RXT_MPI(MPI_Info_set(i2, "key", "value"));
    RXT_MPI(MPI_Info_get_nkeys(i2, &n));
    RXT_CHECK(n == 1, "the live info object has %d keys", n);
    RXT_MPI(MPI_Info_free(&i2));
}

static const struct {
    const char *name;
    void (*fn)(void);
} cases[] = {
    {"datatype", t_datatype}, {"datatype_held", t_datatype_held}, {"comm", t_comm},
    {"keyval", t_keyval},     {"group", t_group},                 {"op", t_op},
    {"errhandler", t_errhandler}, {"win", t_win},                 {"request", t_request},
    {"info", t_info},         {"datatype_cycles", t_datatype_cycles},
};

/* handle_stale [CASE]: every case, or the one named */
int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "handle_stale");
    RXT_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    RXT_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    int ran = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (argc < 2 || strcmp(argv[1], cases[i].name) == 0) {
            cases[i].fn();
            ran++;
        }
    RXT_CHECK(ran > 0, "no case named %s", argv[1]);
    return rxt_finish();
}
