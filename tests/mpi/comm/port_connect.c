/* SPDX-License-Identifier: MIT
 * MPI_Comm_accept / _connect between two spawned groups, the port found by
 * name: the parents spawn group A (2 processes) and group B (2); A's root
 * opens a port and publishes it (MPI_Publish_name), then A accepts while B,
 * told by the parents that the name is there, looks it up and connects.
 * Over the A-B intercommunicator: a message between every pair both ways,
 * an allreduce, a merge with an allreduce on it; then A unpublishes (a
 * second lookup fails with MPI_ERR_NAME), closes the port, both disconnect
 * and send their error counts to the parents. */
#include "rxtest.h"

#define SERVICE "rdmx-test-port-connect"

static int group(MPI_Comm parent, int is_a)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char port[MPI_MAX_PORT_NAME] = "";
    MPI_Comm ab;
    if (is_a) {
        if (rank == 0) {
            RXT_MPI(MPI_Open_port(MPI_INFO_NULL, port));
            RXT_MPI(MPI_Publish_name(SERVICE, MPI_INFO_NULL, port));
            int ready = 1;
            RXT_MPI(MPI_Send(&ready, 1, MPI_INT, 0, 1, parent));
        }
        RXT_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ab));
    } else {
        if (rank == 0) {
            int go = 0;
            RXT_MPI(MPI_Recv(&go, 1, MPI_INT, 0, 2, parent, MPI_STATUS_IGNORE));
            RXT_MPI(MPI_Lookup_name(SERVICE, MPI_INFO_NULL, port));
        }
        RXT_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ab));
    }
    int rsize = -1;
    MPI_Comm_remote_size(ab, &rsize);
    RXT_CHECK(rsize == 2, "remote group of %d", rsize);
    /* every pair, both ways: A sends first, B answers */
    for (int p = 0; p < rsize; p++) {
        int v = (is_a ? 100 : 200) + 10 * rank + p, got = -1;
        int expect = (is_a ? 200 : 100) + 10 * p + rank;
        if (is_a) {
            RXT_MPI(MPI_Send(&v, 1, MPI_INT, p, 5, ab));
            RXT_MPI(MPI_Recv(&got, 1, MPI_INT, p, 5, ab, MPI_STATUS_IGNORE));
        } else {
            RXT_MPI(MPI_Recv(&got, 1, MPI_INT, p, 5, ab, MPI_STATUS_IGNORE));
            RXT_MPI(MPI_Send(&v, 1, MPI_INT, p, 5, ab));
        }
        RXT_CHECK(got == expect, "from remote %d got %d, expected %d", p, got, expect);
    }
    int mine = is_a ? 1 : 100, sum = -1;
    RXT_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, ab));
    RXT_CHECK(sum == (is_a ? 200 : 2), "intercomm allreduce %d", sum);
    MPI_Comm m;
    RXT_MPI(MPI_Intercomm_merge(ab, !is_a, &m));
    int mr, ms, tot = -1;
    MPI_Comm_rank(m, &mr);
    MPI_Comm_size(m, &ms);
    RXT_CHECK(ms == 4 && mr == (is_a ? rank : 2 + rank), "merged rank %d of %d", mr, ms);
    RXT_MPI(MPI_Allreduce(&mr, &tot, 1, MPI_INT, MPI_SUM, m));
    RXT_CHECK(tot == 6, "merged allreduce %d", tot);
    RXT_MPI(MPI_Comm_free(&m));
    RXT_MPI(MPI_Comm_disconnect(&ab));
    if (is_a && rank == 0) {
        RXT_MPI(MPI_Unpublish_name(SERVICE, MPI_INFO_NULL, port));
        char again[MPI_MAX_PORT_NAME];
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        RXT_EXPECT_CLASS(MPI_ERR_NAME, MPI_Lookup_name(SERVICE, MPI_INFO_NULL, again));
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        RXT_MPI(MPI_Close_port(port));
    }
    int errs = rxt_errs, all = 0;
    RXT_MPI(MPI_Reduce(&errs, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
    if (rank == 0)
        RXT_MPI(MPI_Send(&all, 1, MPI_INT, 0, 3, parent));
    RXT_MPI(MPI_Comm_disconnect(&parent));
    MPI_Finalize();
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Comm parent = rxt_init_spawned(&argc, &argv, "port_connect");
    if (parent != MPI_COMM_NULL)
        return group(parent, argc > 1 && !strcmp(argv[1], "A"));
    char *a[] = {"A", NULL}, *b[] = {"B", NULL};
    MPI_Comm ia, ib;
    RXT_MPI(MPI_Comm_spawn(argv[0], a, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ia,
                           MPI_ERRCODES_IGNORE));
    RXT_MPI(MPI_Comm_spawn(argv[0], b, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ib,
                           MPI_ERRCODES_IGNORE));
    if (rxt_rank == 0) {
        int ready = 0, go = 1, ea = -1, eb = -1;
        RXT_MPI(MPI_Recv(&ready, 1, MPI_INT, 0, 1, ia, MPI_STATUS_IGNORE));
        RXT_MPI(MPI_Send(&go, 1, MPI_INT, 0, 2, ib));
        RXT_MPI(MPI_Recv(&ea, 1, MPI_INT, 0, 3, ia, MPI_STATUS_IGNORE));
        RXT_MPI(MPI_Recv(&eb, 1, MPI_INT, 0, 3, ib, MPI_STATUS_IGNORE));
        RXT_CHECK(ea == 0 && eb == 0, "group A found %d errors, group B %d", ea, eb);
    }
    RXT_MPI(MPI_Comm_disconnect(&ia));
    RXT_MPI(MPI_Comm_disconnect(&ib));
    return rxt_finish();
}
