/* SPDX-License-Identifier: MIT
 * The error paths of process management (src/mpi/dynamic.c) under
 * rdmx-run: a spawn of a program that does not exist fails with
 * MPI_ERR_SPAWN at every rank (errcodes MPI_ERR_SPAWN at the root, no
 * intercommunicator), bad roots and counts; ports: open / close, closing
 * twice, connecting to a closed port or to a name no MPI_Open_port gave,
 * accepting on a port not opened, an intercommunicator as the group; join
 * on what is no socket; names: publish, a second publish of the name,
 * lookup, unpublish twice, lookup of a name gone; disconnect of an ordinary
 * communicator and of MPI_COMM_WORLD. rdmx only (only=rdmx): the classes
 * and messages of a refused spawn differ between implementations (MPICH's
 * hydra ends the whole job when a command cannot be started). */
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
    RXT_EXPECT_CLASS(MPI_ERR_SPAWN, MPI_Comm_spawn("/nonexistent/rdmx-test-program",
                                                   MPI_ARGV_NULL, 3, MPI_INFO_NULL, 0,
                                                   MPI_COMM_WORLD, &inter, codes));
    RXT_CHECK(inter == MPI_COMM_NULL, "no intercommunicator");
    if (rxt_rank == 0)
        for (int i = 0; i < 3; i++)
            RXT_CHECK(codes[i] == MPI_ERR_SPAWN, "errcode %d is %d", i, codes[i]);
    RXT_EXPECT_CLASS(MPI_ERR_ROOT, MPI_Comm_spawn("/bin/true", MPI_ARGV_NULL, 1, MPI_INFO_NULL,
                                                  rxt_size, MPI_COMM_WORLD, &inter,
                                                  MPI_ERRCODES_IGNORE));
    char *cmds[2] = {"/nonexistent/a", "/nonexistent/b"};
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
        RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Comm_spawn_multiple(0, cmds, MPI_ARGVS_NULL,
                                                              maxprocs, infos, 0, MPI_COMM_SELF,
                                                              &inter, MPI_ERRCODES_IGNORE));
    }

    /* ports */
    char port[MPI_MAX_PORT_NAME] = "x", closed[MPI_MAX_PORT_NAME] = "";
    RXT_MPI(MPI_Open_port(MPI_INFO_NULL, port));
    RXT_CHECK(strlen(port) > 0 && strlen(port) < MPI_MAX_PORT_NAME, "port name '%s'", port);
    snprintf(closed, sizeof closed, "%s", port);
    RXT_MPI(MPI_Close_port(port));
    RXT_EXPECT_CLASS(MPI_ERR_PORT, MPI_Close_port(port));
    RXT_EXPECT_CLASS(MPI_ERR_PORT, MPI_Close_port("tcp://nowhere:1"));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Open_port(MPI_INFO_NULL, NULL));
    MPI_Comm nc = MPI_COMM_WORLD;
    /* every rank learns the root's failure */
    RXT_EXPECT_CLASS(MPI_ERR_PORT, MPI_Comm_connect(closed, MPI_INFO_NULL, 0, MPI_COMM_WORLD,
                                                    &nc));
    RXT_CHECK(nc == MPI_COMM_NULL, "connect leaves MPI_COMM_NULL");
    RXT_EXPECT_CLASS(MPI_ERR_PORT, MPI_Comm_connect("p", MPI_INFO_NULL, 0, MPI_COMM_WORLD, &nc));
    RXT_EXPECT_CLASS(MPI_ERR_PORT, MPI_Comm_accept(closed, MPI_INFO_NULL, 0, MPI_COMM_WORLD,
                                                   &nc));
    RXT_CHECK(nc == MPI_COMM_NULL, "accept leaves MPI_COMM_NULL");
    RXT_EXPECT_CLASS(MPI_ERR_COMM, MPI_Comm_connect("p", MPI_INFO_NULL, 0, MPI_COMM_NULL, &nc));
    RXT_EXPECT_CLASS(MPI_ERR_ROOT, MPI_Comm_accept("p", MPI_INFO_NULL, -1, MPI_COMM_WORLD, &nc));

    /* join: a descriptor that is no socket */
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Comm_join(-1, &nc));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Comm_join(0, &nc)); /* stdin: /dev/null or a pipe */
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Comm_join(0, NULL));

    /* names: rank 0 alone (the name service is the launcher's, shared) */
    if (rxt_rank == 0) {
        char got[MPI_MAX_PORT_NAME] = "";
        RXT_MPI(MPI_Publish_name("rdmx-test-svc", MPI_INFO_NULL, "rdmx-port-0123"));
        RXT_EXPECT_CLASS(MPI_ERR_SERVICE, MPI_Publish_name("rdmx-test-svc", MPI_INFO_NULL,
                                                           "rdmx-port-4567"));
        RXT_MPI(MPI_Lookup_name("rdmx-test-svc", MPI_INFO_NULL, got));
        RXT_CHECK(!strcmp(got, "rdmx-port-0123"), "lookup gave '%s'", got);
        RXT_MPI(MPI_Unpublish_name("rdmx-test-svc", MPI_INFO_NULL, "rdmx-port-0123"));
        RXT_EXPECT_CLASS(MPI_ERR_SERVICE, MPI_Unpublish_name("rdmx-test-svc", MPI_INFO_NULL,
                                                             "rdmx-port-0123"));
        RXT_EXPECT_CLASS(MPI_ERR_NAME, MPI_Lookup_name("rdmx-test-svc", MPI_INFO_NULL, got));
        RXT_CHECK(got[0] == 0, "a failed lookup leaves an empty port name");
    }
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Lookup_name(NULL, MPI_INFO_NULL, port));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Publish_name("s", MPI_INFO_NULL, NULL));

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
