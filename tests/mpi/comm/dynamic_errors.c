/* SPDX-License-Identifier: MIT
 * Process management as rdmx provides it (src/mpi/dynamic.c): no parent;
 * spawn, ports, join and publishing fail with their classes after checking
 * their arguments; MPI_Comm_disconnect frees a communicator collectively.
 * rdmx only (only=rdmx): MPICH and Open MPI do start processes. */
#include "rxtest.h"

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "dynamic_errors");
    MPI_Comm parent = MPI_COMM_WORLD;
    RXT_MPI(MPI_Comm_get_parent(&parent));
    RXT_CHECK(parent == MPI_COMM_NULL, "a process started by rdmx-run has no parent");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    MPI_Comm inter = MPI_COMM_WORLD;
    int codes[3] = {0, 0, 0};
    RXT_EXPECT_CLASS(MPI_ERR_SPAWN, MPI_Comm_spawn("/bin/true", MPI_ARGV_NULL, 3, MPI_INFO_NULL,
                                                   0, MPI_COMM_WORLD, &inter, codes));
    RXT_CHECK(inter == MPI_COMM_NULL, "no intercommunicator");
    if (rxt_rank == 0)
        for (int i = 0; i < 3; i++)
            RXT_CHECK(codes[i] == MPI_ERR_SPAWN, "errcode %d is %d", i, codes[i]);
    RXT_EXPECT_CLASS(MPI_ERR_ROOT, MPI_Comm_spawn("/bin/true", MPI_ARGV_NULL, 1, MPI_INFO_NULL,
                                                  rxt_size, MPI_COMM_WORLD, &inter,
                                                  MPI_ERRCODES_IGNORE));
    char *cmds[2] = {"/bin/true", "/bin/false"};
    int maxprocs[2] = {1, 2};
    MPI_Info infos[2] = {MPI_INFO_NULL, MPI_INFO_NULL};
    RXT_EXPECT_CLASS(MPI_ERR_SPAWN, MPI_Comm_spawn_multiple(2, cmds, MPI_ARGVS_NULL, maxprocs,
                                                            infos, 0, MPI_COMM_WORLD, &inter,
                                                            MPI_ERRCODES_IGNORE));
    if (rxt_rank == 0) {
        maxprocs[1] = 0; /* checked at the root */
        RXT_EXPECT_CLASS(MPI_ERR_SPAWN, MPI_Comm_spawn_multiple(2, cmds, MPI_ARGVS_NULL,
                                                                maxprocs, infos, 0, MPI_COMM_SELF,
                                                                &inter, MPI_ERRCODES_IGNORE));
    }

    char port[MPI_MAX_PORT_NAME] = "x";
    RXT_EXPECT_CLASS(MPI_ERR_PORT, MPI_Open_port(MPI_INFO_NULL, port));
    RXT_EXPECT_CLASS(MPI_ERR_PORT, MPI_Close_port("tcp://nowhere:1"));
    MPI_Comm nc = MPI_COMM_WORLD;
    RXT_EXPECT_CLASS(MPI_ERR_PORT, MPI_Comm_accept("p", MPI_INFO_NULL, 0, MPI_COMM_WORLD, &nc));
    RXT_CHECK(nc == MPI_COMM_NULL, "accept leaves MPI_COMM_NULL");
    RXT_EXPECT_CLASS(MPI_ERR_PORT, MPI_Comm_connect("p", MPI_INFO_NULL, 0, MPI_COMM_WORLD, &nc));
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Comm_connect("p", MPI_INFO_NULL, 0, MPI_COMM_NULL, &nc));
    RXT_EXPECT_CLASS(MPI_ERR_UNSUPPORTED_OPERATION, MPI_Comm_join(0, &nc));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Comm_join(-1, &nc));
    RXT_EXPECT_CLASS(MPI_ERR_UNSUPPORTED_OPERATION,
                     MPI_Publish_name("svc", MPI_INFO_NULL, "port"));
    RXT_EXPECT_CLASS(MPI_ERR_NAME, MPI_Lookup_name("svc", MPI_INFO_NULL, port));
    RXT_EXPECT_CLASS(MPI_ERR_SERVICE, MPI_Unpublish_name("svc", MPI_INFO_NULL, "port"));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Lookup_name(NULL, MPI_INFO_NULL, port));

    /* disconnect: collective free of an ordinary communicator */
    MPI_Comm dup;
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    int x = rxt_rank, y = -1;
    MPI_Request rq;
    RXT_MPI(MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_MAX, dup, &rq));
    RXT_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    RXT_MPI(MPI_Comm_disconnect(&dup));
    RXT_CHECK(dup == MPI_COMM_NULL && y == rxt_size - 1, "disconnect: handle %s, max %d",
              dup == MPI_COMM_NULL ? "null" : "kept", y);
    MPI_Comm world = MPI_COMM_WORLD;
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Comm_disconnect(&world));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    return rxt_finish();
}
