/* SPDX-License-Identifier: MIT
 * Sessions and the world model in one program (MPI-4.0 §11.3): a session
 * opened after MPI_Init (argument "after") or before it ("before"), its
 * world communicator congruent with MPI_COMM_WORLD, traffic on both at
 * once; MPI_Initialized true only from MPI_Init on; the session finalized
 * before MPI_Finalize, or after it ("before" order). */
#include "rxtest.h"

#if defined(RDMX) || MPI_VERSION >= 4

static MPI_Comm session_world(MPI_Session s)
{
    MPI_Group g;
    RXT_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    MPI_Comm c;
    RXT_MPI(MPI_Comm_create_from_group(g, "org.rdmx.test.mixed", MPI_INFO_NULL,
                                       MPI_ERRORS_ARE_FATAL, &c));
    RXT_MPI(MPI_Group_free(&g));
    return c;
}

int main(int argc, char **argv)
{
    int before = argc > 1 && !strcmp(argv[1], "before");
    rxt_arm_watchdog();
    MPI_Session s = MPI_SESSION_NULL;
    int flag = -1;
    if (before) {
        RXT_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &s));
        MPI_Initialized(&flag);
        RXT_CHECK(flag == 0, "a session does not make MPI_Initialized true");
    }
    RXT_MPI(MPI_Init(&argc, &argv));
    rxt_after_init("session_world");
    MPI_Initialized(&flag);
    RXT_CHECK(flag == 1, "MPI_Initialized after MPI_Init");
    if (!before)
        RXT_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &s));
    MPI_Comm c = session_world(s);
    int cmp = -1;
    RXT_MPI(MPI_Comm_compare(c, MPI_COMM_WORLD, &cmp));
    RXT_CHECK(cmp == MPI_CONGRUENT, "session world vs MPI_COMM_WORLD: %d", cmp);
    /* the same tag on both communicators stays apart */
    int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
    int a = rxt_rank, b = -rxt_rank - 1, ga = -9, gb = -9;
    MPI_Request q[4];
    RXT_MPI(MPI_Irecv(&ga, 1, MPI_INT, left, 1, c, &q[0]));
    RXT_MPI(MPI_Irecv(&gb, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &q[1]));
    RXT_MPI(MPI_Isend(&b, 1, MPI_INT, right, 1, MPI_COMM_WORLD, &q[2]));
    RXT_MPI(MPI_Isend(&a, 1, MPI_INT, right, 1, c, &q[3]));
    RXT_MPI(MPI_Waitall(4, q, MPI_STATUSES_IGNORE));
    RXT_CHECK(ga == left && gb == -left - 1, "session comm %d, world %d", ga, gb);
    int sum = 0;
    RXT_MPI(MPI_Allreduce(&a, &sum, 1, MPI_INT, MPI_SUM, c));
    RXT_CHECK(sum == rxt_size * (rxt_size - 1) / 2, "allreduce on the session's comm: %d", sum);
    RXT_MPI(MPI_Comm_free(&c));
    if (before) {
        /* MPI_Finalize first: the session keeps the runtime */
        int errs = 0;
        RXT_MPI(MPI_Allreduce(&rxt_errs, &errs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        RXT_MPI(MPI_Finalize());
        MPI_Finalized(&flag);
        RXT_CHECK(flag == 1, "MPI_Finalized after MPI_Finalize");
        RXT_MPI(MPI_Session_finalize(&s));
        errs += rxt_errs;
        if (rxt_rank == 0)
            printf(errs ? " Found %d errors\n" : " No Errors\n", errs);
        return errs != 0;
    }
    RXT_MPI(MPI_Session_finalize(&s));
    return rxt_finish();
}

#else
int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "session_world");
    return rxt_finish();
}
#endif
