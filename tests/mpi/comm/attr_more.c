/* SPDX-License-Identifier: MIT
 * Attributes beyond communicator keyvals, and errors the program adds:
 *   - datatype keyvals: copy callbacks run by MPI_Type_dup (MPI_TYPE_DUP_FN copies,
 *     MPI_TYPE_NULL_COPY_FN does not), delete callbacks by MPI_Type_free and
 *     MPI_Type_delete_attr, attributes on a predefined type; a copy callback's error
 *     fails MPI_Type_dup with that error;
 *   - window keyvals: set / get / delete, the delete callback run by MPI_Win_free with
 *     the window; the predefined window attributes hold the window's values;
 *   - the MPI-1 calls (MPI_Keyval_create, MPI_Attr_put / get / delete, MPI_DUP_FN,
 *     MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN) through MPI_Comm_dup;
 *   - a communicator copy callback's error fails MPI_Comm_dup with that error, and the
 *     attributes already copied to the half-made duplicate are deleted;
 *   - MPI_Add_error_class / code / string seen by MPI_Error_class, MPI_Error_string,
 *     MPI_LASTUSEDCODE and by error handlers through MPI_Comm_call_errhandler and
 *     MPI_Win_call_errhandler. */
#include "rxtest.h"

/* the MPI-1 attribute calls are tested on purpose: deprecated, still standard */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static int copies, deletes, last_deleted_obj, fail_code;

static int type_copy(MPI_Datatype t, int k, void *extra, void *in, void *out, int *flag)
{
    (void)t;
    (void)k;
    (void)extra;
    copies++;
    if (fail_code)
        return fail_code;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int type_delete(MPI_Datatype t, int k, void *val, void *extra)
{
    (void)k;
    (void)val;
    (void)extra;
    deletes++;
    last_deleted_obj = (int)MPI_Type_c2f(t);
    return MPI_SUCCESS;
}

static int win_delete(MPI_Win w, int k, void *val, void *extra)
{
    (void)k;
    (void)extra;
    deletes++;
    last_deleted_obj = (int)MPI_Win_c2f(w);
    *(int *)val += 1;
    return MPI_SUCCESS;
}

static int comm_copy(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void)c;
    (void)k;
    (void)extra;
    copies++;
    if (fail_code)
        return fail_code;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int comm_delete(MPI_Comm c, int k, void *val, void *extra)
{
    (void)c;
    (void)k;
    (void)val;
    (void)extra;
    deletes++;
    return MPI_SUCCESS;
}

static void test_type_attrs(int user_class)
{
    int key, dupkey, nullkey, v = 3, w = 4, flag = -1;
    void *got = NULL;
    MPI_Datatype t, d;
    RXT_MPI(MPI_Type_create_keyval(type_copy, type_delete, &key, NULL));
    RXT_MPI(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &dupkey, NULL));
    RXT_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &nullkey, NULL));
    RXT_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
    RXT_MPI(MPI_Type_set_attr(t, key, &v));
    RXT_MPI(MPI_Type_set_attr(t, dupkey, &w));
    RXT_MPI(MPI_Type_set_attr(t, nullkey, &w));
    copies = deletes = 0;
    RXT_MPI(MPI_Type_dup(t, &d));
    RXT_MPI(MPI_Type_get_attr(d, key, &got, &flag));
    RXT_CHECK(flag && got == &v && copies == 1, "dup: flag %d copies %d", flag, copies);
    RXT_MPI(MPI_Type_get_attr(d, dupkey, &got, &flag));
    RXT_CHECK(flag && got == &w, "MPI_TYPE_DUP_FN: flag %d", flag);
    RXT_MPI(MPI_Type_get_attr(d, nullkey, &got, &flag));
    RXT_CHECK(!flag, "MPI_TYPE_NULL_COPY_FN copied the attribute");
    int dh = (int)MPI_Type_c2f(d);
    RXT_MPI(MPI_Type_free(&d));
    RXT_CHECK(deletes == 1 && last_deleted_obj == dh, "Type_free: deletes %d", deletes);
    RXT_MPI(MPI_Type_delete_attr(t, key));
    RXT_CHECK(deletes == 2, "Type_delete_attr: deletes %d", deletes);
    RXT_MPI(MPI_Type_get_attr(t, key, &got, &flag));
    RXT_CHECK(!flag, "attribute still there after MPI_Type_delete_attr");

    /* a copy callback's error is MPI_Type_dup's */
    RXT_MPI(MPI_Type_set_attr(t, key, &v));
    fail_code = user_class;
    d = MPI_DATATYPE_NULL;
    int rc = MPI_Type_dup(t, &d), cls = -1, want = -2;
    MPI_Error_class(rc, &cls);
    MPI_Error_class(user_class, &want);
#ifdef OPEN_MPI /* Open MPI 4.1 fails MPI_Type_dup with MPI_ERR_INTERN instead */
    want = cls;
#endif
    RXT_CHECK(rc != MPI_SUCCESS && cls == want, "Type_dup with a failing copy: class %d", cls);
    fail_code = 0;

    /* attributes on a predefined type */
    RXT_MPI(MPI_Type_set_attr(MPI_INT, key, &w));
    RXT_MPI(MPI_Type_get_attr(MPI_INT, key, &got, &flag));
    RXT_CHECK(flag && got == &w, "attribute on MPI_INT: flag %d", flag);
    RXT_MPI(MPI_Type_delete_attr(MPI_INT, key));
    RXT_MPI(MPI_Type_free(&t));
    RXT_MPI(MPI_Type_free_keyval(&key));
    RXT_CHECK(key == MPI_KEYVAL_INVALID, "Type_free_keyval leaves the key");
    RXT_MPI(MPI_Type_free_keyval(&dupkey));
    RXT_MPI(MPI_Type_free_keyval(&nullkey));
}

static void test_win_attrs(void)
{
    int key, hits = 0, flag = -1;
    void *got = NULL;
    int *base;
    MPI_Win win;
    RXT_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_delete, &key, NULL));
    RXT_MPI(MPI_Win_allocate(64, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    RXT_MPI(MPI_Win_set_attr(win, key, &hits));
    RXT_MPI(MPI_Win_get_attr(win, key, &got, &flag));
    RXT_CHECK(flag && got == &hits, "window attribute: flag %d", flag);
    void *wbase = NULL;
    MPI_Aint *wsize = NULL;
    int *unit = NULL, *flavor = NULL, *model = NULL;
    RXT_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &wbase, &flag));
    RXT_CHECK(flag && wbase == base, "MPI_WIN_BASE");
    RXT_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &wsize, &flag));
    RXT_CHECK(flag && *wsize == 64, "MPI_WIN_SIZE %ld", flag ? (long)*wsize : -1L);
    RXT_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &unit, &flag));
    RXT_CHECK(flag && *unit == 4, "MPI_WIN_DISP_UNIT");
    RXT_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag));
    RXT_CHECK(flag && *flavor == MPI_WIN_FLAVOR_ALLOCATE, "MPI_WIN_CREATE_FLAVOR");
    RXT_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag));
    RXT_CHECK(flag && (*model == MPI_WIN_UNIFIED || *model == MPI_WIN_SEPARATE), "MPI_WIN_MODEL");
    RXT_MPI(MPI_Win_delete_attr(win, key));
    RXT_CHECK(hits == 1, "Win_delete_attr ran the delete callback %d times", hits);
    RXT_MPI(MPI_Win_set_attr(win, key, &hits));
    deletes = 0;
    int wh = (int)MPI_Win_c2f(win);
    RXT_MPI(MPI_Win_free(&win));
    RXT_CHECK(hits == 2 && deletes == 1 && last_deleted_obj == wh,
              "Win_free: delete callback ran %d times", deletes);
    RXT_MPI(MPI_Win_free_keyval(&key));
}

static void test_mpi1_and_comm_copy(int user_class)
{
    int dupkey, nullkey, key2, v = 11, flag = 0;
    void *got = NULL;
    MPI_Comm d;
    RXT_MPI(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &dupkey, NULL));
    RXT_MPI(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &nullkey, NULL));
    RXT_MPI(MPI_Attr_put(MPI_COMM_WORLD, dupkey, &v));
    RXT_MPI(MPI_Attr_put(MPI_COMM_WORLD, nullkey, &v));
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    RXT_MPI(MPI_Attr_get(d, dupkey, &got, &flag));
    RXT_CHECK(flag && got == &v, "MPI_DUP_FN through MPI_Comm_dup: flag %d", flag);
    RXT_MPI(MPI_Attr_get(d, nullkey, &got, &flag));
    RXT_CHECK(!flag, "MPI_NULL_COPY_FN copied the attribute");
    RXT_MPI(MPI_Attr_delete(d, dupkey));
    RXT_MPI(MPI_Attr_get(d, dupkey, &got, &flag));
    RXT_CHECK(!flag, "MPI_Attr_delete left the attribute");
    RXT_MPI(MPI_Comm_free(&d));

    /* a failing copy callback: MPI_Comm_dup returns its error */
    RXT_MPI(MPI_Comm_create_keyval(comm_copy, comm_delete, &key2, NULL));
    RXT_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, key2, &v));
    fail_code = user_class;
    copies = deletes = 0;
    d = MPI_COMM_WORLD;
    int rc = MPI_Comm_dup(MPI_COMM_WORLD, &d), cls = -1, want = -2;
    MPI_Error_class(rc, &cls);
    MPI_Error_class(user_class, &want);
    RXT_CHECK(rc != MPI_SUCCESS && cls == want && copies == 1,
              "Comm_dup with a failing copy: class %d copies %d", cls, copies);
#ifdef RDMX
    /* the MPI_DUP_FN attribute copied before the failing one was deleted with it */
    RXT_CHECK(d == MPI_COMM_NULL, "the half-made duplicate was handed out");
#endif
    fail_code = 0;
    RXT_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, key2));
    RXT_MPI(MPI_Attr_delete(MPI_COMM_WORLD, dupkey));
    RXT_MPI(MPI_Attr_delete(MPI_COMM_WORLD, nullkey));
    RXT_MPI(MPI_Keyval_free(&dupkey));
    RXT_MPI(MPI_Keyval_free(&nullkey));
    RXT_MPI(MPI_Comm_free_keyval(&key2));
}

static int handler_code = -1;
static void comm_handler(MPI_Comm *c, int *code, ...)
{
    (void)c;
    handler_code = *code;
}
static void win_handler(MPI_Win *w, int *code, ...)
{
    (void)w;
    handler_code = *code;
}

static void test_user_errors(int cls, int code)
{
    int got = -1, len = 0;
    char s[MPI_MAX_ERROR_STRING];
    RXT_MPI(MPI_Error_class(code, &got));
    RXT_CHECK(got == cls, "class of the added code: %d, expected %d", got, cls);
    RXT_MPI(MPI_Error_class(cls, &got));
#ifndef OPEN_MPI /* Open MPI 4.1 answers MPI_ERR_UNKNOWN for a class the program added */
    RXT_CHECK(got == cls, "class of the added class: %d", got);
#endif
    RXT_MPI(MPI_Add_error_string(code, "the flux capacitor failed"));
    RXT_MPI(MPI_Error_string(code, s, &len));
    RXT_CHECK(strcmp(s, "the flux capacitor failed") == 0 && len == (int)strlen(s),
              "string of the added code: '%s' (%d)", s, len);
    int *last = NULL, flag = 0;
    RXT_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag));
    RXT_CHECK(flag && *last >= cls, "MPI_LASTUSEDCODE %d, added class %d", flag ? *last : -1, cls);
#ifndef MPICH_VERSION /* MPICH 4.0.2: the last class only, its codes are encoded above it */
    RXT_CHECK(*last >= code, "MPI_LASTUSEDCODE %d, added code %d", *last, code);
#endif
    MPI_Errhandler eh;
    RXT_MPI(MPI_Comm_create_errhandler(comm_handler, &eh));
    RXT_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
    RXT_MPI(MPI_Comm_call_errhandler(MPI_COMM_WORLD, code));
    RXT_CHECK(handler_code == code, "comm handler got %d, expected %d", handler_code, code);
    RXT_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    RXT_MPI(MPI_Errhandler_free(&eh));
    MPI_Win win;
    int *base;
    RXT_MPI(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    RXT_MPI(MPI_Win_create_errhandler(win_handler, &eh));
    RXT_MPI(MPI_Win_set_errhandler(win, eh));
    handler_code = -1;
    RXT_MPI(MPI_Win_call_errhandler(win, code));
    RXT_CHECK(handler_code == code, "window handler got %d, expected %d", handler_code, code);
    RXT_MPI(MPI_Errhandler_free(&eh));
    RXT_MPI(MPI_Win_free(&win));
#ifdef RDMX
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Add_error_string(MPI_ERR_TYPE, "predefined"));
    int c2;
    RXT_EXPECT_CLASS(MPI_ERR_ARG, MPI_Add_error_code(code, &c2)); /* a code is not a class */
#endif
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "attr_more");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int cls, code;
    RXT_MPI(MPI_Add_error_class(&cls));
    RXT_MPI(MPI_Add_error_code(cls, &code));
    test_type_attrs(cls);
    test_win_attrs();
    test_mpi1_and_comm_copy(cls);
    test_user_errors(cls, code);
    return rxt_finish();
}
