/* SPDX-License-Identifier: MIT
 * Attributes of datatypes and windows (attr_obj.c), as their binding files
 * use them. */
#ifndef RX_MPI_ATTR_OBJ_H
#define RX_MPI_ATTR_OBJ_H

#include "mpi_impl.h"

enum { RX_OBJ_TYPE = 1, RX_OBJ_WIN = 2 };

/* Reports an error of class cls in fn on the object eo; returns cls. */
typedef int rx_obj_err_t(void *eo, int cls, const char *fn);

int rx_obj_create_keyval(int obj, MPI_Type_copy_attr_function *copy,
                         MPI_Type_delete_attr_function *del, int *keyval, void *extra,
                         const char *fn);
int rx_obj_free_keyval(int obj, int *keyval, const char *fn);
/* Have release(extra_state) run once keyval (of a communicator, datatype or
 * window) is gone: freed, and no attribute left using it. The Fortran
 * bindings' trampoline state goes this way (src/fortran/fort_callbacks.c).
 * MPI_ERR_KEYVAL when keyval is no live keyval. */
int rx_keyval_on_release(int keyval, void (*release)(void *extra));
int rx_obj_keyval_on_release(int keyval, void (*release)(void *extra));
int rx_obj_set_attr(int obj, int handle, int keyval, void *value, rx_obj_err_t *err, void *eo,
                    const char *fn);
int rx_obj_get_attr(int obj, int handle, int keyval, void *value, int *flag, rx_obj_err_t *err,
                    void *eo, const char *fn);
int rx_obj_delete_attr(int obj, int handle, int keyval, rx_obj_err_t *err, void *eo,
                       const char *fn);
/* Every attribute of the object goes, delete callbacks run (Type_free,
 * Win_free); the first callback error, or MPI_SUCCESS. */
int rx_obj_attr_delete_all(int obj, int handle);
/* MPI_Type_dup: copy callbacks of oldtype's attributes onto newtype; the
 * first callback error (newtype then keeps what was copied before it). */
int rx_type_attr_copy(int oldtype, int newtype);

#endif
