/* SPDX-License-Identifier: MIT
 * A program that uses only sessions (MPI-4.0 §11.3), never MPI_Init: the
 * process sets and their info, groups and communicators made from them (a
 * reduction and a ring on each), two sessions at once, the session's
 * info (a thread_level hint in an info object made before any initialization)
 * and error handlers; MPI_Initialized and MPI_Finalized stay false
 * all along (they describe the world model). */
#include "rxtest.h"

#if defined(RDMX) || MPI_VERSION >= 4

static int handler_calls, handler_code;

static void on_error(MPI_Session *session, int *code, ...)
{
    (void)session;
    handler_calls++;
    handler_code = *code;
}

static int world_model_flags(void)
{
    int init = -1, fin = -1;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    return init * 2 + fin;
}

/* A communicator over the set's processes, checked with a reduction. */
static MPI_Comm comm_of(MPI_Session s, const char *pset, const char *tag, int expect_size)
{
    MPI_Group g;
    RXT_MPI(MPI_Group_from_session_pset(s, pset, &g));
    MPI_Comm c;
    RXT_MPI(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    RXT_MPI(MPI_Group_free(&g));
    int size = -1, rank = -1;
    RXT_MPI(MPI_Comm_size(c, &size));
    RXT_MPI(MPI_Comm_rank(c, &rank));
    RXT_CHECK(size == expect_size, "%s: %d ranks, expected %d", pset, size, expect_size);
    int sum = 0;
    RXT_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c));
    RXT_CHECK(sum == size * (size - 1) / 2, "%s: sum of ranks %d", pset, sum);
    int left = (rank + size - 1) % size, right = (rank + 1) % size, got = -1;
    RXT_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, right, 4, &got, 1, MPI_INT, left, 4, c,
                         MPI_STATUS_IGNORE));
    RXT_CHECK(got == left, "%s: ring got %d from %d", pset, got, left);
    return c;
}

int main(void)
{
    rxt_arm_watchdog();
    rxt_name = "session_only";
    RXT_CHECK(world_model_flags() == 0, "before any session: flags %d", world_model_flags());
    MPI_Session s;
    /* an info object made before any initialization: the thread_level hint */
    MPI_Info hint, hint_used;
    RXT_MPI(MPI_Info_create(&hint));
    RXT_MPI(MPI_Info_set(hint, "thread_level", "MPI_THREAD_SINGLE"));
    RXT_MPI(MPI_Session_init(hint, MPI_ERRORS_RETURN, &s));
    RXT_MPI(MPI_Info_free(&hint));
    RXT_CHECK(world_model_flags() == 0, "a session does not initialize the world model");
    RXT_MPI(MPI_Session_get_info(s, &hint_used));
    char level[64] = "";
    int lflag = 0;
    RXT_MPI(MPI_Info_get(hint_used, "thread_level", sizeof level - 1, level, &lflag));
#ifdef MPICH_VERSION /* MPICH 4.0.2 gives a higher level than asked, which it may */
    RXT_CHECK(lflag && !strncmp(level, "MPI_THREAD_", 11), "session thread_level: '%s' (%d)",
              level, lflag);
#else
    RXT_CHECK(lflag && !strcmp(level, "MPI_THREAD_SINGLE"), "session thread_level: '%s' (%d)",
              level, lflag);
#endif
    RXT_MPI(MPI_Info_free(&hint_used));

    int n = 0;
    RXT_MPI(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
    RXT_CHECK(n >= 2, "%d process sets", n);
    int have_world = 0, have_self = 0;
    for (int i = 0; i < n; i++) {
        char name[MPI_MAX_PSET_NAME_LEN];
#ifdef MPICH_VERSION /* MPICH 4.0.2 writes the name when asked for its length */
        int len = MPI_MAX_PSET_NAME_LEN;
#else
        int len = 0;
        RXT_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL));
        RXT_CHECK(len > 1 && len <= MPI_MAX_PSET_NAME_LEN, "pset %d: length %d", i, len);
#endif
        RXT_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name));
#ifndef MPICH_VERSION /* nor does it give the length */
        RXT_CHECK((int)strlen(name) + 1 == len, "pset %d: '%s', length %d", i, name, len);
#endif
        have_world |= !strcmp(name, "mpi://WORLD");
        have_self |= !strcmp(name, "mpi://SELF");
    }
    RXT_CHECK(have_world && have_self, "mpi://WORLD %d, mpi://SELF %d", have_world, have_self);

    MPI_Info pi;
    RXT_MPI(MPI_Session_get_pset_info(s, "mpi://WORLD", &pi));
    char v[MPI_MAX_INFO_VAL];
    int flag = 0;
    RXT_MPI(MPI_Info_get(pi, "mpi_size", MPI_MAX_INFO_VAL - 1, v, &flag));
    RXT_CHECK(flag, "mpi://WORLD has mpi_size");
    int world = flag ? atoi(v) : 0;
    RXT_MPI(MPI_Info_free(&pi));
    RXT_CHECK(world >= 1, "world size %d", world);

    MPI_Comm wc = comm_of(s, "mpi://WORLD", "org.rdmx.test.world", world);
    MPI_Comm_rank(wc, &rxt_rank);
    MPI_Comm sc = comm_of(s, "mpi://SELF", "org.rdmx.test.self", 1);

    /* a second session, and a communicator from it under the same tag */
    MPI_Session s2;
    RXT_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s2));
    MPI_Comm wc2 = comm_of(s2, "mpi://WORLD", "org.rdmx.test.world", world);
    int cmp = -1;
    RXT_MPI(MPI_Comm_compare(wc, wc2, &cmp));
    RXT_CHECK(cmp == MPI_CONGRUENT, "two world communicators compare %d", cmp);

    /* info of the session: the thread level it provides */
    MPI_Info used;
    RXT_MPI(MPI_Session_get_info(s, &used));
    RXT_MPI(MPI_Info_get(used, "thread_level", MPI_MAX_INFO_VAL - 1, v, &flag));
    RXT_CHECK(flag && !strncmp(v, "MPI_THREAD_", 11), "thread_level '%s'", flag ? v : "");
    RXT_MPI(MPI_Info_free(&used));

    /* error handlers */
    MPI_Errhandler eh, got;
    RXT_MPI(MPI_Session_create_errhandler(on_error, &eh));
    RXT_MPI(MPI_Session_set_errhandler(s2, eh));
    RXT_MPI(MPI_Session_get_errhandler(s2, &got));
    RXT_CHECK(got == eh, "get_errhandler returns the handler set");
    RXT_MPI(MPI_Errhandler_free(&got));
    RXT_MPI(MPI_Errhandler_free(&eh));
    RXT_MPI(MPI_Session_call_errhandler(s2, MPI_ERR_OTHER));
    RXT_CHECK(handler_calls == 1 && handler_code == MPI_ERR_OTHER, "handler calls %d code %d",
              handler_calls, handler_code);
#ifndef MPICH_VERSION /* MPICH 4.0.2 crashes on an n out of range */
    int len = 0;
    int rc = MPI_Session_get_nth_pset(s2, MPI_INFO_NULL, n, &len, NULL); /* n is out of range */
    RXT_CHECK(rc != MPI_SUCCESS && handler_calls == 2, "bad n: rc %d, handler calls %d", rc,
              handler_calls);
#endif
#ifndef MPICH_VERSION /* MPICH 4.0.2 ends the job here despite MPI_ERRORS_RETURN */
    MPI_Group g;
    rc = MPI_Group_from_session_pset(s, "mpi://NOWHERE", &g);
    RXT_CHECK(rc != MPI_SUCCESS, "an unknown process set fails");
#endif

    int errs = 0;
    RXT_MPI(MPI_Allreduce(&rxt_errs, &errs, 1, MPI_INT, MPI_SUM, wc));
    RXT_MPI(MPI_Comm_free(&wc2));
    RXT_MPI(MPI_Session_finalize(&s2));
    RXT_CHECK(s2 == MPI_SESSION_NULL, "finalize resets the handle");
    RXT_MPI(MPI_Comm_free(&wc));
    RXT_MPI(MPI_Comm_free(&sc));
    RXT_MPI(MPI_Session_finalize(&s));
    RXT_CHECK(world_model_flags() == 0, "after the sessions: flags %d", world_model_flags());
    errs += rxt_errs;
    if (rxt_rank == 0)
        printf(errs ? " Found %d errors\n" : " No Errors\n", errs);
    return errs != 0;
}

#else
int main(void)
{
    printf(" No Errors\n");
    return 0;
}
#endif
