/* SPDX-License-Identifier: MIT
 * MPI_Error_class and MPI_Error_string on every error class of MPI-3.1: a class is
 * its own class, classes are distinct and within [MPI_SUCCESS, MPI_ERR_LASTCODE],
 * and each has a non-empty, NUL-terminated string shorter than MPI_MAX_ERROR_STRING. */
#include "rxtest.h"

#define CLASSES(X)                                                                             \
    X(MPI_SUCCESS) X(MPI_ERR_BUFFER) X(MPI_ERR_COUNT) X(MPI_ERR_TYPE) X(MPI_ERR_TAG)            \
    X(MPI_ERR_COMM) X(MPI_ERR_RANK) X(MPI_ERR_REQUEST) X(MPI_ERR_ROOT) X(MPI_ERR_GROUP)         \
    X(MPI_ERR_OP) X(MPI_ERR_TOPOLOGY) X(MPI_ERR_DIMS) X(MPI_ERR_ARG) X(MPI_ERR_UNKNOWN)         \
    X(MPI_ERR_TRUNCATE) X(MPI_ERR_OTHER) X(MPI_ERR_INTERN) X(MPI_ERR_IN_STATUS)                 \
    X(MPI_ERR_PENDING) X(MPI_ERR_KEYVAL) X(MPI_ERR_NO_MEM) X(MPI_ERR_BASE)                      \
    X(MPI_ERR_INFO_KEY) X(MPI_ERR_INFO_VALUE) X(MPI_ERR_INFO_NOKEY) X(MPI_ERR_SPAWN)            \
    X(MPI_ERR_PORT) X(MPI_ERR_SERVICE) X(MPI_ERR_NAME) X(MPI_ERR_WIN) X(MPI_ERR_SIZE)           \
    X(MPI_ERR_DISP) X(MPI_ERR_INFO) X(MPI_ERR_LOCKTYPE) X(MPI_ERR_ASSERT)                       \
    X(MPI_ERR_RMA_CONFLICT) X(MPI_ERR_RMA_SYNC) X(MPI_ERR_RMA_RANGE) X(MPI_ERR_RMA_ATTACH)      \
    X(MPI_ERR_RMA_SHARED) X(MPI_ERR_RMA_FLAVOR) X(MPI_ERR_FILE) X(MPI_ERR_NOT_SAME)             \
    X(MPI_ERR_AMODE) X(MPI_ERR_UNSUPPORTED_DATAREP) X(MPI_ERR_UNSUPPORTED_OPERATION)            \
    X(MPI_ERR_NO_SUCH_FILE) X(MPI_ERR_FILE_EXISTS) X(MPI_ERR_BAD_FILE) X(MPI_ERR_ACCESS)        \
    X(MPI_ERR_NO_SPACE) X(MPI_ERR_QUOTA) X(MPI_ERR_READ_ONLY) X(MPI_ERR_FILE_IN_USE)            \
    X(MPI_ERR_DUP_DATAREP) X(MPI_ERR_CONVERSION) X(MPI_ERR_IO)

#define ENTRY(c) { c, #c },
static const struct { int cls; const char *name; } classes[] = { CLASSES(ENTRY) };
#define NCLASSES ((int)(sizeof classes / sizeof classes[0]))

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "error_classes");
    RXT_CHECK(MPI_SUCCESS == 0, "MPI_SUCCESS is %d", MPI_SUCCESS);
    RXT_CHECK(MPI_ERR_LASTCODE > 0, "MPI_ERR_LASTCODE is %d", MPI_ERR_LASTCODE);

    for (int i = 0; i < NCLASSES; i++) {
        int c = classes[i].cls, got = -1, len = -1;
        char s[MPI_MAX_ERROR_STRING + 1];
        RXT_CHECK(c >= 0 && c <= MPI_ERR_LASTCODE, "%s = %d outside [0, MPI_ERR_LASTCODE %d]",
                  classes[i].name, c, MPI_ERR_LASTCODE);
        for (int j = 0; j < i; j++)
            RXT_CHECK(classes[j].cls != c, "%s and %s are both %d", classes[j].name,
                      classes[i].name, c);
        RXT_MPI(MPI_Error_class(c, &got));
        RXT_CHECK(got == c, "MPI_Error_class(%s) gave %d", classes[i].name, got);
        memset(s, 'x', sizeof s);
        RXT_MPI(MPI_Error_string(c, s, &len));
        RXT_CHECK(len > 0 && len < MPI_MAX_ERROR_STRING, "MPI_Error_string(%s) length %d",
                  classes[i].name, len);
        if (len > 0 && len < MPI_MAX_ERROR_STRING)
            RXT_CHECK(s[len] == '\0' && (int)strlen(s) == len,
                      "MPI_Error_string(%s) is not NUL-terminated at its length", classes[i].name);
    }

    /* Strings tell the common classes apart (a user reads them to find the bug). */
    int common[] = { MPI_ERR_BUFFER, MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_TAG, MPI_ERR_COMM,
                     MPI_ERR_RANK, MPI_ERR_REQUEST, MPI_ERR_ROOT, MPI_ERR_OP, MPI_ERR_ARG,
                     MPI_ERR_TRUNCATE };
    char str[11][MPI_MAX_ERROR_STRING];
    for (int i = 0; i < 11; i++) {
        int len;
        RXT_MPI(MPI_Error_string(common[i], str[i], &len));
        for (int j = 0; j < i; j++)
            RXT_CHECK(strcmp(str[i], str[j]) != 0, "classes %s and %s share the string '%s'",
                      rxt_class_name(common[i]), rxt_class_name(common[j]), str[i]);
    }
    return rxt_finish();
}
