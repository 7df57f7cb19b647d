/* SPDX-License-Identifier: MIT
 * MPI-4.1 MPI_Session_c2f / MPI_Session_f2c and MPI_Get_hw_resource_info:
 *   - a session handle converted to Fortran and back is the same session (it still
 *     answers MPI_Session_get_num_psets), MPI_SESSION_NULL converts to itself;
 *   - MPI_Get_hw_resource_info gives a new info object, distinct on each call, that the
 *     program frees (rdmx's is empty: it has no hardware resource types to name);
 *     a NULL argument is MPI_ERR_ARG.
 * MPICH 4.0 has none of these (MPI-4.1): under an MPI older than 4.1 the test says so. */
#include "rxtest.h"

#if defined(RDMX) || MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
static void test_session_conv(void)
{
    MPI_Session s = MPI_SESSION_NULL;
    RXT_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    MPI_Fint f = MPI_Session_c2f(s);
    MPI_Session back = MPI_Session_f2c(f);
    RXT_CHECK(back == s, "Session_f2c(Session_c2f(s)) is another handle");
    int n = -1;
    RXT_MPI(MPI_Session_get_num_psets(back, MPI_INFO_NULL, &n));
    RXT_CHECK(n >= 2, "converted session: %d psets (mpi://WORLD and mpi://SELF expected)", n);
    RXT_CHECK(MPI_Session_f2c(MPI_Session_c2f(MPI_SESSION_NULL)) == MPI_SESSION_NULL,
              "MPI_SESSION_NULL does not convert to itself");
    RXT_MPI(MPI_Session_finalize(&back));
    RXT_CHECK(back == MPI_SESSION_NULL, "Session_finalize left the handle set");
}

static void test_hw_info(void)
{
    MPI_Info a = MPI_INFO_NULL, b = MPI_INFO_NULL;
    RXT_MPI(MPI_Get_hw_resource_info(&a));
    RXT_MPI(MPI_Get_hw_resource_info(&b));
    RXT_CHECK(a != MPI_INFO_NULL && b != MPI_INFO_NULL && a != b,
              "two calls must give two info objects");
    int nkeys = -1;
    RXT_MPI(MPI_Info_get_nkeys(a, &nkeys));
#ifdef RDMX
    RXT_CHECK(nkeys == 0, "rdmx's hardware info has %d keys, want none", nkeys);
#else
    RXT_CHECK(nkeys >= 0, "nkeys %d", nkeys);
#endif
    RXT_MPI(MPI_Info_set(a, "probe", "yes")); /* the program's own object: it may change it */
    RXT_MPI(MPI_Info_get_nkeys(b, &nkeys));
    RXT_CHECK(nkeys >= 0, "nkeys of the second object %d", nkeys);
    RXT_MPI(MPI_Info_free(&a));
    RXT_MPI(MPI_Info_free(&b));
    RXT_CHECK(a == MPI_INFO_NULL && b == MPI_INFO_NULL, "Info_free left a handle set");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Get_hw_resource_info(NULL));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}
#endif

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "session_conv_hwinfo");
#if defined(RDMX) || MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
    test_session_conv();
    test_hw_info();
#else
    if (rxt_rank == 0)
        printf("session_conv_hwinfo: MPI-4.1 functions not in this MPI, skipped\n");
#endif
    return rxt_finish();
}
