/* SPDX-License-Identifier: MIT
 * Predefined attributes of MPI_COMM_WORLD through MPI_Comm_get_attr:
 *   MPI_TAG_UB           always present, at least 32767, the same everywhere, and usable;
 *   MPI_WTIME_IS_GLOBAL  may be absent (standard: only the key is always valid); if
 *                        present it is 0 or 1 on every rank alike;
 *   MPI_UNIVERSE_SIZE    optional; if present, at least 1;
 *   MPI_APPNUM           optional; if present, 0 for a single-command launch. */
#include "rxtest.h"

static int get_int_attr(int key, const char *name, int *present)
{
    int *val = NULL, flag = -1;
    RXT_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &val, &flag));
    *present = flag != 0;
    if (!*present)
        return 0;
    if (val == NULL) {
        RXT_CHECK(0, "%s present but its value pointer is NULL", name);
        *present = 0;
        return 0;
    }
    return *val;
}

/* The same value (or the same absence) on every rank. */
static void check_uniform(const char *name, int present, int value)
{
    int mine[3] = { present, present ? value : 0, present ? -value : 0 }, mx[3];
    RXT_MPI(MPI_Allreduce(mine, mx, 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    RXT_CHECK(mx[0] == present && mx[1] == mine[1] && mx[2] == mine[2],
              "%s differs between ranks (mine: present %d value %d)", name, present, value);
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "comm_attr");
    int present = 0;

    int tag_ub = get_int_attr(MPI_TAG_UB, "MPI_TAG_UB", &present);
    RXT_CHECK(present, "MPI_TAG_UB is not present on MPI_COMM_WORLD");
    RXT_CHECK(tag_ub >= 32767, "MPI_TAG_UB is %d, the standard requires at least 32767", tag_ub);
    check_uniform("MPI_TAG_UB", present, tag_ub);
    if (present && tag_ub >= 32767) {
        /* The largest tag is valid, in a self message and between neighbours. */
        int out = 77, in = 0;
        MPI_Status st;
        RXT_MPI(MPI_Sendrecv(&out, 1, MPI_INT, rxt_rank, tag_ub, &in, 1, MPI_INT, rxt_rank,
                             tag_ub, MPI_COMM_WORLD, &st));
        RXT_CHECK(in == 77 && st.MPI_TAG == tag_ub, "self message with tag MPI_TAG_UB: %d tag %d",
                  in, st.MPI_TAG);
        int right = (rxt_rank + 1) % rxt_size, left = (rxt_rank + rxt_size - 1) % rxt_size;
        RXT_MPI(MPI_Sendrecv(&rxt_rank, 1, MPI_INT, right, tag_ub, &in, 1, MPI_INT,
                             MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
        RXT_CHECK(in == left && st.MPI_TAG == tag_ub && st.MPI_SOURCE == left,
                  "ring with tag MPI_TAG_UB: got %d tag %d source %d", in, st.MPI_TAG,
                  st.MPI_SOURCE);
    }

    int global = get_int_attr(MPI_WTIME_IS_GLOBAL, "MPI_WTIME_IS_GLOBAL", &present);
    if (present)
        RXT_CHECK(global == 0 || global == 1, "MPI_WTIME_IS_GLOBAL is %d", global);
    check_uniform("MPI_WTIME_IS_GLOBAL", present, global);

    int universe = get_int_attr(MPI_UNIVERSE_SIZE, "MPI_UNIVERSE_SIZE", &present);
    if (present)
        RXT_CHECK(universe >= 1, "MPI_UNIVERSE_SIZE is %d", universe);
    check_uniform("MPI_UNIVERSE_SIZE", present, universe);

    int appnum = get_int_attr(MPI_APPNUM, "MPI_APPNUM", &present);
    if (present)
        RXT_CHECK(appnum == 0, "MPI_APPNUM is %d for a single-command launch", appnum);
    check_uniform("MPI_APPNUM", present, appnum);

#ifdef MPI_IO
    /* MPI_IO (a macro in some implementations only): a rank, ANY_SOURCE or PROC_NULL. */
    int io = get_int_attr(MPI_IO, "MPI_IO", &present);
    if (present)
        RXT_CHECK(io == MPI_ANY_SOURCE || io == MPI_PROC_NULL || (io >= 0 && io < rxt_size),
                  "MPI_IO is %d", io);
#endif
    return rxt_finish();
}
