/* SPDX-License-Identifier: MIT
 * <mpp/shmem.h>: the header directory OpenSHMEM keeps for SGI SHMEM programs
 * (deprecated since 1.1, still specified). */
#include <shmem.h>
