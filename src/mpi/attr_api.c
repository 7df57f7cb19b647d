/* SPDX-License-Identifier: MIT
 * The datatype and window attribute calls and the MPI-1 attribute calls
 * (deprecated, still standard: the communicator calls under their old
 * names). */
#include "attr_obj.h"
#include "win_impl.h"

static int rx_type_err(void *eo, int cls, const char *fn)
{
    (void)eo;
    return rx_mpi_err(NULL, cls, fn, "%s", cls == MPI_ERR_KEYVAL ? "invalid keyval or no such "
                                                                   "attribute" : "failed");
}

static int rx_winobj_err(void *eo, int cls, const char *fn)
{
    return rx_win_err(eo, cls, fn, "%s", cls == MPI_ERR_KEYVAL ? "invalid keyval or no such "
                                                                 "attribute" : "failed");
}

#define RX_GET_ATTR_TYPE(handle, fn)                                                \
    RX_CHECK_INIT(fn);                                                              \
    if (!rx_dtype_get(handle))                                                      \
        return rx_mpi_err(NULL, MPI_ERR_TYPE, fn, "invalid datatype")

int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                            MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval,
                            void *extra_state)
{
    return rx_obj_create_keyval(RX_OBJ_TYPE, type_copy_attr_fn, type_delete_attr_fn, type_keyval,
                                extra_state, "MPI_Type_create_keyval");
}
RX_ALIAS(Type_create_keyval)

int PMPI_Type_free_keyval(int *type_keyval)
{
    return rx_obj_free_keyval(RX_OBJ_TYPE, type_keyval, "MPI_Type_free_keyval");
}
RX_ALIAS(Type_free_keyval)

int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val)
{
    RX_GET_ATTR_TYPE(datatype, "MPI_Type_set_attr");
    return rx_obj_set_attr(RX_OBJ_TYPE, datatype, type_keyval, attribute_val, rx_type_err, NULL,
                           "MPI_Type_set_attr");
}
RX_ALIAS(Type_set_attr)

int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag)
{
    RX_GET_ATTR_TYPE(datatype, "MPI_Type_get_attr");
    return rx_obj_get_attr(RX_OBJ_TYPE, datatype, type_keyval, attribute_val, flag, rx_type_err,
                           NULL, "MPI_Type_get_attr");
}
RX_ALIAS(Type_get_attr)

int PMPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval)
{
    RX_GET_ATTR_TYPE(datatype, "MPI_Type_delete_attr");
    return rx_obj_delete_attr(RX_OBJ_TYPE, datatype, type_keyval, rx_type_err, NULL,
                              "MPI_Type_delete_attr");
}
RX_ALIAS(Type_delete_attr)

int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
                           MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval,
                           void *extra_state)
{
    return rx_obj_create_keyval(RX_OBJ_WIN, win_copy_attr_fn, win_delete_attr_fn, win_keyval,
                                extra_state, "MPI_Win_create_keyval");
}
RX_ALIAS(Win_create_keyval)

int PMPI_Win_free_keyval(int *win_keyval)
{
    return rx_obj_free_keyval(RX_OBJ_WIN, win_keyval, "MPI_Win_free_keyval");
}
RX_ALIAS(Win_free_keyval)

int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val)
{
    RX_CHECK_INIT("MPI_Win_set_attr");
    RX_GET_WIN(w, win, "MPI_Win_set_attr");
    return rx_obj_set_attr(RX_OBJ_WIN, win, win_keyval, attribute_val, rx_winobj_err, w,
                           "MPI_Win_set_attr");
}
RX_ALIAS(Win_set_attr)

int PMPI_Win_delete_attr(MPI_Win win, int win_keyval)
{
    RX_CHECK_INIT("MPI_Win_delete_attr");
    RX_GET_WIN(w, win, "MPI_Win_delete_attr");
    return rx_obj_delete_attr(RX_OBJ_WIN, win, win_keyval, rx_winobj_err, w, "MPI_Win_delete_attr");
}
RX_ALIAS(Win_delete_attr)

/* MPI_Win_get_attr (win.c) for keys that are not predefined. */
int rx_win_user_attr(rx_win_t *w, int keyval, void *attribute_val, int *flag, const char *fn)
{
    return rx_obj_get_attr(RX_OBJ_WIN, rx_win_handle(w), keyval, attribute_val, flag,
                           rx_winobj_err, w, fn);
}

int PMPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                       void *extra_state)
{
    return PMPI_Comm_create_keyval(copy_fn, delete_fn, keyval, extra_state);
}
RX_ALIAS(Keyval_create)

int PMPI_Keyval_free(int *keyval) { return PMPI_Comm_free_keyval(keyval); }
RX_ALIAS(Keyval_free)

int PMPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
    return PMPI_Comm_set_attr(comm, keyval, attribute_val);
}
RX_ALIAS(Attr_put)

int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    return PMPI_Comm_get_attr(comm, keyval, attribute_val, flag);
}
RX_ALIAS(Attr_get)

int PMPI_Attr_delete(MPI_Comm comm, int keyval) { return PMPI_Comm_delete_attr(comm, keyval); }
RX_ALIAS(Attr_delete)
