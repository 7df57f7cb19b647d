/* SPDX-License-Identifier: MIT
 * Error handlers on communicators: MPI_ERRORS_ARE_FATAL is the default on
 * MPI_COMM_WORLD and MPI_COMM_SELF; MPI_Comm_set_errhandler/get_errhandler round-trip;
 * a new communicator inherits its parent's handler (MPI_Comm_dup, MPI_Comm_split);
 * the handler is per communicator (an error on a RETURN communicator comes back as a
 * code while world stays FATAL); the returned code maps to a class and a string. */
#include "rxtest.h"

static void expect_handler(MPI_Comm c, MPI_Errhandler want, const char *what)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    RXT_MPI(MPI_Comm_get_errhandler(c, &eh));
    RXT_CHECK(eh == want, "%s: MPI_Comm_get_errhandler returned another handler", what);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "errhandler");

    expect_handler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, "default on world");
    expect_handler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL, "default on self");

    MPI_Comm fatal_dup;
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &fatal_dup));
    expect_handler(fatal_dup, MPI_ERRORS_ARE_FATAL, "dup of a FATAL communicator");

    MPI_Comm ret;
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &ret));
    RXT_MPI(MPI_Comm_set_errhandler(ret, MPI_ERRORS_RETURN));
    expect_handler(ret, MPI_ERRORS_RETURN, "after set to RETURN");
    expect_handler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, "world after setting a dup");

    MPI_Comm ret_dup, ret_split;
    RXT_MPI(MPI_Comm_dup(ret, &ret_dup));
    expect_handler(ret_dup, MPI_ERRORS_RETURN, "dup inherits RETURN");
    RXT_MPI(MPI_Comm_split(ret, rxt_rank % 2, 0, &ret_split));
    expect_handler(ret_split, MPI_ERRORS_RETURN, "split inherits RETURN");

    /* Errors come back as codes on the RETURN communicators only (world is still
     * FATAL: if the handler were global, the job would have died before this). */
    int x = 1;
    MPI_Comm rets[3] = { ret, ret_dup, ret_split };
    for (int i = 0; i < 3; i++) {
        int sz;
        MPI_Comm_size(rets[i], &sz);
        int rc = MPI_Send(&x, 1, MPI_INT, sz + 3, 0, rets[i]);
        RXT_CHECK(rc != MPI_SUCCESS, "comm %d: MPI_Send to rank size+3 succeeded", i);
        int cls = -1, len = -1;
        char str[MPI_MAX_ERROR_STRING];
        RXT_MPI(MPI_Error_class(rc, &cls));
        RXT_CHECK(cls == MPI_ERR_RANK, "comm %d: bad rank gave class %s (%d)", i,
                  rxt_class_name(cls), cls);
        RXT_MPI(MPI_Error_string(rc, str, &len));
        RXT_CHECK(len > 0 && len < MPI_MAX_ERROR_STRING && (int)strlen(str) == len,
                  "comm %d: MPI_Error_string of the returned code: length %d", i, len);
    }

    /* Set back to FATAL and to RETURN on world itself. */
    RXT_MPI(MPI_Comm_set_errhandler(ret, MPI_ERRORS_ARE_FATAL));
    expect_handler(ret, MPI_ERRORS_ARE_FATAL, "set back to FATAL");
    expect_handler(ret_dup, MPI_ERRORS_RETURN, "earlier dup keeps RETURN");
    RXT_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    expect_handler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, "world set to RETURN");
    expect_handler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL, "self unaffected by world");
    expect_handler(fatal_dup, MPI_ERRORS_ARE_FATAL, "earlier dup of world unaffected");
    int rc = MPI_Send(&x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), cls = -1;
    RXT_CHECK(rc != MPI_SUCCESS, "MPI_Send with count -1 on world succeeded");
    MPI_Error_class(rc, &cls);
    RXT_CHECK(cls == MPI_ERR_COUNT, "count -1 gave class %s (%d)", rxt_class_name(cls), cls);
    RXT_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));

    /* The communicators still work after errors were returned on them. */
    int sum = 0, one = 1;
    RXT_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, ret_dup));
    RXT_CHECK(sum == rxt_size, "allreduce after errors: %d", sum);

    /* Last, as a failure here kills the job: an error completing a request is raised
     * on the request's communicator (RETURN here), not on world (FATAL). */
    if (rxt_size >= 2) {
        int peer = rxt_rank ^ 1, big[4] = { 1, 2, 3, 4 }, small = 0;
        if (peer < rxt_size) {
            MPI_Request r;
            RXT_MPI(MPI_Irecv(&small, 1, MPI_INT, peer, 1, ret_dup, &r));
            RXT_MPI(MPI_Send(big, 4, MPI_INT, peer, 1, ret_dup));
            rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
            MPI_Error_class(rc, &cls);
            RXT_CHECK(cls == MPI_ERR_TRUNCATE, "MPI_Wait of a truncated receive on a RETURN "
                      "communicator: class %s (%d)", rxt_class_name(cls), cls);
        }
    }

    MPI_Comm_free(&fatal_dup);
    MPI_Comm_free(&ret);
    MPI_Comm_free(&ret_dup);
    MPI_Comm_free(&ret_split);
    return rxt_finish();
}
