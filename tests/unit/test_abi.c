/* SPDX-License-Identifier: MIT
 * include/mpi.h repeats the IDs of src/dtype/basic.h and src/op/op.h as
 * literal handles; check that the two agree, entry by entry. */
#include "mpi.h"
#include "op/op.h"
#include "core/handle.h"
#include "dtype/basic.h"

#include <stdio.h>

int main(void)
{
    int failed = 0, checks = 0;
#define RX_BASIC(id, ctype, mpiname, cls)                                                   \
    checks++;                                                                              \
    if ((mpiname) != RX_HANDLE(RX_KIND_DATATYPE, id)) {                                    \
        printf("mismatch: %s is 0x%x in mpi.h, id %d in basic.h\n", #mpiname, (unsigned)(mpiname), id); \
        failed++;                                                                          \
    }
    RX_BASIC_LIST(RX_BASIC)
#undef RX_BASIC
    const struct { int handle, id; const char *name; } ops[] = {
        {MPI_MAX, RX_OP_MAX, "MPI_MAX"}, {MPI_MIN, RX_OP_MIN, "MPI_MIN"},
        {MPI_SUM, RX_OP_SUM, "MPI_SUM"}, {MPI_PROD, RX_OP_PROD, "MPI_PROD"},
        {MPI_LAND, RX_OP_LAND, "MPI_LAND"}, {MPI_BAND, RX_OP_BAND, "MPI_BAND"},
        {MPI_LOR, RX_OP_LOR, "MPI_LOR"}, {MPI_BOR, RX_OP_BOR, "MPI_BOR"},
        {MPI_LXOR, RX_OP_LXOR, "MPI_LXOR"}, {MPI_BXOR, RX_OP_BXOR, "MPI_BXOR"},
        {MPI_MINLOC, RX_OP_MINLOC, "MPI_MINLOC"}, {MPI_MAXLOC, RX_OP_MAXLOC, "MPI_MAXLOC"},
        {MPI_REPLACE, RX_OP_REPLACE, "MPI_REPLACE"}, {MPI_NO_OP, RX_OP_NO_OP, "MPI_NO_OP"},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        checks++;
        if (ops[i].handle != RX_HANDLE(RX_KIND_OP, ops[i].id)) {
            printf("mismatch: %s\n", ops[i].name);
            failed++;
        }
    }
    checks += 4;
    if (RX_HANDLE_KIND(MPI_COMM_WORLD) != RX_KIND_COMM || RX_HANDLE_KIND(MPI_REQUEST_NULL) != RX_KIND_REQUEST ||
        RX_HANDLE_KIND(MPI_GROUP_EMPTY) != RX_KIND_GROUP || RX_HANDLE_KIND(MPI_ERRORS_RETURN) != RX_KIND_ERRHANDLER) {
        printf("mismatch: handle kinds\n");
        failed++;
    }
    printf("abi: %d checks, %d failed\n", checks, failed);
    return failed != 0;
}
