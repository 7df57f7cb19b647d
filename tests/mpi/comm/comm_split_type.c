/* SPDX-License-Identifier: MIT
 * MPI_Comm_split_type: MPI_COMM_TYPE_SHARED gives the ranks of this node (their
 * shared-memory windows work); the MPI-4 MPI_COMM_TYPE_HW_GUIDED with the reserved
 * "mpi_hw_resource_type" value "mpi_shared_memory" gives the same group, and without
 * the hint, or with a resource type the implementation does not offer, MPI_COMM_NULL
 * (MPI-4.1 7.4.2); MPI_COMM_TYPE_HW_UNGUIDED gives MPI_COMM_NULL or a strict subset;
 * MPI_UNDEFINED gives MPI_COMM_NULL. */
#include "rxtest.h"

#if defined(RDMX) || MPI_VERSION >= 4
static MPI_Comm split_hint(int type, const char *key, const char *value)
{
    MPI_Info info = MPI_INFO_NULL;
    MPI_Comm c = MPI_COMM_SELF;
    if (key) {
        RXT_MPI(MPI_Info_create(&info));
        RXT_MPI(MPI_Info_set(info, key, value));
    }
    RXT_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, type, 0, info, &c));
    if (key)
        RXT_MPI(MPI_Info_free(&info));
    return c;
}

static void test_hw(MPI_Comm node)
{
    MPI_Comm g = split_hint(MPI_COMM_TYPE_HW_GUIDED, "mpi_hw_resource_type", "mpi_shared_memory");
    int result = -1;
    RXT_CHECK(g != MPI_COMM_NULL, "HW_GUIDED mpi_shared_memory gave MPI_COMM_NULL");
    if (g != MPI_COMM_NULL) {
        RXT_MPI(MPI_Comm_compare(g, node, &result));
        RXT_CHECK(result == MPI_CONGRUENT, "HW_GUIDED mpi_shared_memory vs SHARED: %d", result);
        RXT_MPI(MPI_Comm_free(&g));
    }
    g = split_hint(MPI_COMM_TYPE_HW_GUIDED, NULL, NULL);
    RXT_CHECK(g == MPI_COMM_NULL, "HW_GUIDED without the hint did not give MPI_COMM_NULL");
    g = split_hint(MPI_COMM_TYPE_HW_GUIDED, "shmem_topo", "mpi_shared_memory");
    RXT_CHECK(g == MPI_COMM_NULL, "HW_GUIDED with another key did not give MPI_COMM_NULL");
    g = split_hint(MPI_COMM_TYPE_HW_UNGUIDED, NULL, NULL);
    if (g != MPI_COMM_NULL) {
        int n = 0;
        RXT_MPI(MPI_Comm_size(g, &n));
        RXT_CHECK(n < rxt_size, "HW_UNGUIDED: size %d is not a strict subset", n);
        RXT_MPI(MPI_Comm_free(&g));
    }
}
#endif

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "comm_split_type");
    MPI_Comm node;
    RXT_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rxt_rank, MPI_INFO_NULL,
                                &node));
    int n = 0, sum = 0, one = 1;
    RXT_MPI(MPI_Comm_size(node, &n));
    RXT_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, node));
    RXT_CHECK(n >= 1 && n <= rxt_size && sum == n, "node communicator: size %d, sum %d", n, sum);
    MPI_Comm none = MPI_COMM_SELF;
    RXT_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, &none));
    RXT_CHECK(none == MPI_COMM_NULL, "MPI_UNDEFINED did not give MPI_COMM_NULL");
#if defined(RDMX) || MPI_VERSION >= 4
    test_hw(node);
#endif
    RXT_MPI(MPI_Comm_free(&node));
    return rxt_finish();
}
