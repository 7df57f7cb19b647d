/* SPDX-License-Identifier: MIT
 * MPI_Comm_spawn_multiple of two commands (this program with the
 * arguments "a" and "b"; 1 and 2 processes) from the last rank as root: one
 * MPI_COMM_WORLD of 3 children in command order, MPI_APPNUM 0 for the
 * first command's child and 1 for the second's, each child's arguments its
 * command's, errcodes, and a gather over the intercommunicator of what each
 * child saw. */
#include "rxtest.h"

int main(int argc, char **argv)
{
    MPI_Comm parent = rxt_init_spawned(&argc, &argv, "spawn_multiple");
    if (parent != MPI_COMM_NULL) {
        int *ap = NULL, flag = 0;
        MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &ap, &flag);
        /* what the child saw: world rank and size, appnum, its argument */
        int seen[4] = {rxt_rank, rxt_size, flag ? *ap : -1,
                       argc == 3 && !strcmp(argv[2], "x") ? argv[1][0] : -1};
        RXT_MPI(MPI_Gather(seen, 4, MPI_INT, NULL, 0, MPI_INT, 0, parent));
        RXT_MPI(MPI_Comm_disconnect(&parent));
        MPI_Finalize();
        return 0;
    }
    char *cmds[2] = {argv[0], argv[0]};
    char *args_a[] = {"a", "x", NULL}, *args_b[] = {"b", "x", NULL};
    char **argvs[2] = {args_a, args_b};
    int maxprocs[2] = {1, 2}, codes[3] = {-1, -1, -1};
    MPI_Info infos[2] = {MPI_INFO_NULL, MPI_INFO_NULL};
    MPI_Comm inter;
    int root = rxt_size - 1;
    RXT_MPI(MPI_Comm_spawn_multiple(2, cmds, argvs, maxprocs, infos, root, MPI_COMM_WORLD, &inter,
                                    codes));
    int rsize = -1;
    MPI_Comm_remote_size(inter, &rsize);
    RXT_CHECK(rsize == 3, "remote size %d", rsize);
    if (rxt_rank == root)
        for (int i = 0; i < 3; i++)
            RXT_CHECK(codes[i] == MPI_SUCCESS, "errcode %d is %d", i, codes[i]);
    int seen[12];
    RXT_MPI(MPI_Gather(NULL, 0, MPI_INT, seen, 4, MPI_INT, rxt_rank == 0 ? MPI_ROOT : MPI_PROC_NULL,
                       inter));
    if (rxt_rank == 0)
        for (int c = 0; c < 3; c++) {
            int *s = seen + 4 * c;
            RXT_CHECK(s[0] == c && s[1] == 3, "child %d: rank %d of %d", c, s[0], s[1]);
            RXT_CHECK(s[2] == (c == 0 ? 0 : 1), "child %d: appnum %d", c, s[2]);
            RXT_CHECK(s[3] == (c == 0 ? 'a' : 'b'), "child %d: argument %d", c, s[3]);
        }
    RXT_MPI(MPI_Comm_disconnect(&inter));
    return rxt_finish();
}
