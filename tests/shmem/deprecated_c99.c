/* SPDX-License-Identifier: MIT
 * deprecated.c built as C99 (CMakeLists.txt): the header's deprecated
 * routines without C11 (shmem_sync with a team, the long-typed
 * shmem_wait_until as a function). */
#include "deprecated.c"
