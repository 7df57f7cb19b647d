/* SPDX-License-Identifier: MIT
 * Attributes of datatypes and windows (MPI-4.1 §7.7.4, §7.7.3), the MPI-1
 * attribute calls, and the predefined copy and delete callbacks.
 *
 * Datatype and window keyvals are keyval handles of their own table, whose
 * ids start at RX_OKEY_FIRST, far above any communicator keyval: a key of
 * one kind of object is invalid (MPI_ERR_KEYVAL) on the others. Their
 * attributes are kept here by object handle; the object's calls run the
 * callbacks: MPI_Type_dup copies (rx_type_attr_copy), MPI_Type_free and
 * MPI_Win_free delete (rx_obj_attr_delete_all). A freed keyval lives on
 * while attributes still use it. */
#include "attr_obj.h"

#include <stdlib.h>

#define RX_OKEY_FIRST 0x10000

typedef struct rx_okey {
    int obj;                              /* RX_OBJ_TYPE or RX_OBJ_WIN */
    MPI_Type_copy_attr_function *copy;    /* the window form has the same C type */
    MPI_Type_delete_attr_function *del;
    void *extra;
    void (*release)(void *extra);         /* run when the key is gone (rx_keyval_on_release) */
    int id, refs, freed;                  /* refs: one per attribute, one for the handle */
} rx_okey_t;

typedef struct rx_oattr {
    struct rx_oattr *next;
    int obj, handle, keyval;
    void *value;
} rx_oattr_t;

static rx_htab_t rx_okey_table = {.kind = RX_KIND_KEYVAL};
static rx_oattr_t *rx_oattrs;

int rx_mpi_dup_fn(int oldobj, int keyval, void *extra_state, void *attribute_val_in,
                  void *attribute_val_out, int *flag)
{
    (void)oldobj;
    (void)keyval;
    (void)extra_state;
    *(void **)attribute_val_out = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}

int rx_mpi_null_copy_fn(int oldobj, int keyval, void *extra_state, void *attribute_val_in,
                        void *attribute_val_out, int *flag)
{
    (void)oldobj;
    (void)keyval;
    (void)extra_state;
    (void)attribute_val_in;
    (void)attribute_val_out;
    *flag = 0;
    return MPI_SUCCESS;
}

int rx_mpi_null_delete_fn(int obj, int keyval, void *attribute_val, void *extra_state)
{
    (void)obj;
    (void)keyval;
    (void)attribute_val;
    (void)extra_state;
    return MPI_SUCCESS;
}

static void rx_okey_unref(rx_okey_t *k)
{
    if (--k->refs > 0)
        return;
    rx_htab_del(&rx_okey_table, k->id);
    if (k->release)
        k->release(k->extra);
    free(k);
}

/* A live keyval of obj's kind, or NULL. */
static rx_okey_t *rx_okey_get(int keyval, int obj)
{
    rx_okey_t *k = rx_htab_get(&rx_okey_table, keyval);
    return k && k->obj == obj && !k->freed ? k : NULL;
}

static rx_oattr_t **rx_oattr_find(int obj, int handle, int keyval)
{
    for (rx_oattr_t **a = &rx_oattrs; *a; a = &(*a)->next)
        if ((*a)->obj == obj && (*a)->handle == handle && (*a)->keyval == keyval)
            return a;
    return NULL;
}

/* Run *ap's delete callback and unlink it; that callback's code. An attribute
 * whose callback fails stays set unless its object goes (always). */
static int rx_oattr_remove(rx_oattr_t **ap, int always)
{
    rx_oattr_t *a = *ap;
    rx_okey_t *k = rx_htab_get(&rx_okey_table, a->keyval);
    int rc = k && k->del ? k->del(a->handle, a->keyval, a->value, k->extra) : MPI_SUCCESS;
    if (rc != MPI_SUCCESS && !always)
        return rc;
    *ap = a->next;
    free(a);
    if (k)
        rx_okey_unref(k);
    return rc;
}

static int rx_oattr_put(int obj, int handle, rx_okey_t *k, void *value)
{
    rx_oattr_t *a = malloc(sizeof *a);
    if (!a)
        return RX_ERR_NOMEM;
    *a = (rx_oattr_t){rx_oattrs, obj, handle, RX_HANDLE(RX_KIND_KEYVAL, k->id), value};
    rx_oattrs = a;
    k->refs++;
    return RX_OK;
}

int rx_obj_attr_delete_all(int obj, int handle)
{
    int first = MPI_SUCCESS;
    for (rx_oattr_t **a = &rx_oattrs; *a;) {
        if ((*a)->obj == obj && (*a)->handle == handle) {
            int rc = rx_oattr_remove(a, 1);
            if (first == MPI_SUCCESS)
                first = rc;
        } else {
            a = &(*a)->next;
        }
    }
    return first;
}

int rx_type_attr_copy(int oldtype, int newtype)
{
    for (rx_oattr_t *a = rx_oattrs; a; a = a->next) {
        if (a->obj != RX_OBJ_TYPE || a->handle != oldtype)
            continue;
        rx_okey_t *k = rx_htab_get(&rx_okey_table, a->keyval);
        if (!k || !k->copy)
            continue;
        void *out = NULL;
        int flag = 0, rc = k->copy(oldtype, a->keyval, k->extra, a->value, &out, &flag);
        if (rc != MPI_SUCCESS)
            return rc;
        if (flag && rx_oattr_put(RX_OBJ_TYPE, newtype, k, out) != RX_OK)
            return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

int rx_obj_create_keyval(int obj, MPI_Type_copy_attr_function *copy,
                         MPI_Type_delete_attr_function *del, int *keyval, void *extra,
                         const char *fn)
{
    RX_CHECK_INIT(fn);
    if (!keyval)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "keyval is NULL");
    rx_okey_t *k = calloc(1, sizeof *k);
    if (!k)
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    *k = (rx_okey_t){obj, copy, del, extra, NULL, 0, 1, 0};
    k->id = rx_htab_add(&rx_okey_table, k, RX_OKEY_FIRST);
    if (k->id < 0) {
        free(k);
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, fn, "out of keyvals");
    }
    *keyval = RX_HANDLE(RX_KIND_KEYVAL, k->id);
    return MPI_SUCCESS;
}

int rx_obj_keyval_on_release(int keyval, void (*release)(void *extra))
{
    rx_okey_t *k = rx_htab_get(&rx_okey_table, keyval);
    if (!k || k->freed)
        return MPI_ERR_KEYVAL;
    k->release = release;
    return MPI_SUCCESS;
}

int rx_obj_free_keyval(int obj, int *keyval, const char *fn)
{
    RX_CHECK_INIT(fn);
    if (!keyval)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "keyval is NULL");
    rx_okey_t *k = rx_okey_get(*keyval, obj);
    if (!k)
        return rx_mpi_err(NULL, MPI_ERR_KEYVAL, fn, "invalid keyval");
    k->freed = 1;
    rx_okey_unref(k);
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

/* The callers checked the object handle; errors go to err (comm or window). */
int rx_obj_set_attr(int obj, int handle, int keyval, void *value, rx_obj_err_t *err, void *eo,
                    const char *fn)
{
    rx_okey_t *k = rx_okey_get(keyval, obj);
    if (!k)
        return err(eo, MPI_ERR_KEYVAL, fn);
    rx_oattr_t **ap = rx_oattr_find(obj, handle, keyval);
    if (ap) {
        int rc = rx_oattr_remove(ap, 0); /* the old value's delete callback first */
        if (rc != MPI_SUCCESS)
            return err(eo, rc, fn);
    }
    if (rx_oattr_put(obj, handle, k, value) != RX_OK)
        return err(eo, MPI_ERR_NO_MEM, fn);
    return MPI_SUCCESS;
}

int rx_obj_get_attr(int obj, int handle, int keyval, void *value, int *flag, rx_obj_err_t *err,
                    void *eo, const char *fn)
{
    if (!value || !flag)
        return err(eo, MPI_ERR_ARG, fn);
    if (!rx_okey_get(keyval, obj))
        return err(eo, MPI_ERR_KEYVAL, fn);
    rx_oattr_t **ap = rx_oattr_find(obj, handle, keyval);
    *flag = ap != NULL;
    if (ap)
        *(void **)value = (*ap)->value;
    return MPI_SUCCESS;
}

int rx_obj_delete_attr(int obj, int handle, int keyval, rx_obj_err_t *err, void *eo,
                       const char *fn)
{
    /* a freed key still names the attributes that use it: deleting them is how
     * they are released (MPI-4.1 7.7.2, MPI_COMM_FREE_KEYVAL) */
    rx_okey_t *k = rx_htab_get(&rx_okey_table, keyval);
    if (!k || k->obj != obj)
        return err(eo, MPI_ERR_KEYVAL, fn);
    rx_oattr_t **ap = rx_oattr_find(obj, handle, keyval);
    if (!ap)
        return err(eo, MPI_ERR_KEYVAL, fn);
    int rc = rx_oattr_remove(ap, 0);
    return rc == MPI_SUCCESS ? rc : err(eo, rc, fn);
}
