/* SPDX-License-Identifier: MIT
 * MPI_Get_hw_resource_info (MPI-4.1 §11.4.3): a new info object describing
 * the hardware the process runs on. The keys it may hold name hardware
 * resource types usable with MPI_COMM_TYPE_HW_GUIDED's
 * "mpi_hw_resource_type"; rdmx offers none beyond the reserved
 * "mpi_shared_memory" (the node), so there is no resource type to name and
 * the object is empty, as the standard allows. It is the
 * caller's to free, and like the MPI_Info calls it works before MPI_Init. */
#include "info_impl.h"

int PMPI_Get_hw_resource_info(MPI_Info *hw_info)
{
    const char *fn = "MPI_Get_hw_resource_info";
    if (!hw_info)
        return rx_rt.initialized && !rx_rt.finalized
                   ? rx_mpi_err(NULL, MPI_ERR_ARG, fn, "hw_info is NULL")
                   : MPI_ERR_ARG;
    rx_info_t *info = rx_info_new();
    return rx_info_publish(info, hw_info, fn);
}
RX_ALIAS(Get_hw_resource_info)
