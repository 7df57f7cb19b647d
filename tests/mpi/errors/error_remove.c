/* SPDX-License-Identifier: MIT
 * MPI-4.1 MPI_Remove_error_class / _code / _string (§9.5):
 *   - a class that still has a code cannot be removed; once its code is gone it can;
 *   - a class is not a code and a code not a class for the removal calls;
 *   - removing a string leaves the code (its string reads empty), removing it twice fails;
 *   - predefined classes and codes, and values already removed, are MPI_ERR_ARG;
 *   - MPI_LASTUSEDCODE does not go down, and values added later are new ones.
 * MPICH 4.0 has none of these (MPI-4.1): under an MPI older than 4.1 the test says so. */
#include "rxtest.h"

#include <string.h>

#if defined(RDMX) || MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
static int last_used(void)
{
    int *v, flag = 0;
    RXT_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &v, &flag));
    RXT_CHECK(flag, "MPI_LASTUSEDCODE not set");
    return flag ? *v : -1;
}

static void test_remove(void)
{
    int cls, code, cls_of = -1, len;
    char text[MPI_MAX_ERROR_STRING];
    RXT_MPI(MPI_Add_error_class(&cls));
    RXT_MPI(MPI_Add_error_code(cls, &code));
    RXT_MPI(MPI_Add_error_string(cls, "class text"));
    RXT_MPI(MPI_Add_error_string(code, "code text"));
    int last = last_used();

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Remove_error_class(cls));  /* code still attached */
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Remove_error_code(cls));   /* a class */
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Remove_error_class(code)); /* a code */
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Remove_error_class(MPI_ERR_TAG));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Remove_error_code(MPI_ERR_TAG));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Remove_error_string(MPI_ERR_TAG));

    RXT_MPI(MPI_Remove_error_string(code));
    RXT_MPI(MPI_Error_string(code, text, &len));
    RXT_CHECK(len == 0 || strcmp(text, "code text") != 0, "string still \"%s\"", text);
    RXT_MPI(MPI_Error_class(code, &cls_of));
    RXT_CHECK(cls_of == cls, "code's class %d after removing its string, want %d", cls_of, cls);
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Remove_error_string(code)); /* none left */
    RXT_MPI(MPI_Add_error_string(code, "new code text"));          /* and may be set again */
    RXT_MPI(MPI_Error_string(code, text, &len));
    RXT_CHECK(strcmp(text, "new code text") == 0, "string \"%s\" after setting it again", text);

    RXT_MPI(MPI_Remove_error_code(code));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Remove_error_code(code));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Add_error_string(code, "gone"));
#ifdef RDMX
    RXT_CHECK(MPI_Error_class(code, &cls_of) != MPI_SUCCESS, "removed code still has a class");
#endif
    RXT_MPI(MPI_Remove_error_class(cls)); /* its string goes with it */
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Remove_error_class(cls));
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Add_error_code(cls, &code));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    RXT_CHECK(last_used() >= last, "MPI_LASTUSEDCODE went down: %d < %d", last_used(), last);
    int cls2, code2;
    RXT_MPI(MPI_Add_error_class(&cls2));
    RXT_MPI(MPI_Add_error_code(cls2, &code2));
    RXT_MPI(MPI_Error_class(code2, &cls_of));
    RXT_CHECK(cls_of == cls2, "new code's class %d, want %d", cls_of, cls2);
    RXT_CHECK(last_used() >= code2 && last_used() >= cls2, "MPI_LASTUSEDCODE %d below %d/%d",
              last_used(), cls2, code2);
    RXT_MPI(MPI_Remove_error_code(code2));
    RXT_MPI(MPI_Remove_error_class(cls2));
}
#endif

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "error_remove");
#if defined(RDMX) || MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
    test_remove();
#else
    if (rxt_rank == 0)
        printf("error_remove: MPI-4.1 functions not in this MPI, skipped\n");
#endif
    return rxt_finish();
}
