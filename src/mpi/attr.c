/* SPDX-License-Identifier: MIT
 * Communicator attributes: the predefined keys and user keyvals. */
#include "mpi_impl.h"
#include "attr_obj.h"
#include "errors_user.h"

#include <limits.h>
#include <stdlib.h>

typedef struct rx_keyval {
    MPI_Comm_copy_attr_function *copy;
    MPI_Comm_delete_attr_function *del;
    void *extra;
    void (*release)(void *extra); /* run when the key is gone (rx_keyval_on_release) */
    int id;
    int refs; /* the application's handle (until MPI_Comm_free_keyval) + one per attribute */
} rx_keyval_t;

static rx_htab_t rx_keyval_table = {.kind = RX_KIND_KEYVAL};
/* The predefined keys (0x644000NN, include/mpi.h) read as slot NN in
 * generation 16: user keys take the slots above them, so none can match one. */
#define RX_KEYVAL_FIRST 0x20

/* A key the application freed lives on, retired, while attributes use it. */
static void rx_keyval_unref(rx_keyval_t *k)
{
    if (--k->refs > 0)
        return;
    rx_htab_del(&rx_keyval_table, k->id);
    if (k->release)
        k->release(k->extra);
    free(k);
}

static int rx_attr_tag_ub = INT_MAX, rx_attr_host = MPI_PROC_NULL, rx_attr_io = MPI_ANY_SOURCE;
static int rx_attr_wtime_global = 0, rx_attr_universe, rx_attr_lastcode = MPI_ERR_LASTCODE,
           rx_attr_appnum;

static int *rx_attr_predefined(int keyval)
{
    switch (keyval) {
    case MPI_TAG_UB: return &rx_attr_tag_ub;
    case MPI_HOST: return &rx_attr_host;
    case MPI_IO: return &rx_attr_io;
    case MPI_WTIME_IS_GLOBAL: return &rx_attr_wtime_global;
    case MPI_UNIVERSE_SIZE: rx_attr_universe = rx_rt.size; return &rx_attr_universe;
    case MPI_LASTUSEDCODE: rx_attr_lastcode = rx_err_last_used(); return &rx_attr_lastcode;
    case MPI_APPNUM: rx_attr_appnum = rx_rt.appnum; return &rx_attr_appnum;
    default: return NULL;
    }
}

static rx_attr_t **rx_attr_find(rx_comm_t *c, int keyval)
{
    for (rx_attr_t **a = &c->attrs; *a; a = &(*a)->next)
        if ((*a)->keyval == keyval)
            return a;
    return NULL;
}

/* Runs the key's delete callback; an attribute whose callback fails stays set
 * (the call that asked for the deletion fails) unless the communicator goes. */
static int rx_attr_remove(rx_comm_t *c, rx_attr_t **ap, int always)
{
    rx_attr_t *a = *ap;
    rx_keyval_t *k = rx_htab_get_held(&rx_keyval_table, a->keyval);
    int rc = MPI_SUCCESS;
    if (k && k->del)
        rc = k->del(rx_comm_handle(c), a->keyval, a->value, k->extra);
    if (rc != MPI_SUCCESS && !always)
        return rc;
    *ap = a->next;
    free(a);
    if (k)
        rx_keyval_unref(k);
    return rc;
}

void rx_attr_delete_all(rx_comm_t *c)
{
    while (c->attrs)
        rx_attr_remove(c, &c->attrs, 1);
}

static int rx_attr_put(rx_comm_t *c, int keyval, void *value)
{
    rx_attr_t **ap = rx_attr_find(c, keyval);
    if (ap) {
        (*ap)->value = value;
        return RX_OK;
    }
    rx_attr_t *a = malloc(sizeof *a);
    if (!a)
        return RX_ERR_NOMEM;
    rx_keyval_t *k = rx_htab_get_held(&rx_keyval_table, keyval);
    if (k)
        k->refs++;
    a->keyval = keyval;
    a->value = value;
    a->next = c->attrs;
    c->attrs = a;
    return RX_OK;
}

int rx_attr_copy_all(rx_comm_t *from, rx_comm_t *to)
{
    for (rx_attr_t *a = from->attrs; a; a = a->next) {
        rx_keyval_t *k = rx_htab_get_held(&rx_keyval_table, a->keyval);
        if (!k || !k->copy)
            continue;
        void *out = NULL;
        int flag = 0, rc;
        if (k->copy == MPI_COMM_DUP_FN) {
            out = a->value;
            flag = 1;
        } else if ((rc = k->copy(rx_comm_handle(from), a->keyval, k->extra, a->value, &out,
                                 &flag)) != MPI_SUCCESS) {
            return rc; /* the callback's own code (MPI-4.1 7.7.2) */
        }
        if (flag && rx_attr_put(to, a->keyval, out) != RX_OK)
            return RX_ERR_NOMEM;
    }
    return RX_OK;
}

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy_fn,
                            MPI_Comm_delete_attr_function *delete_fn, int *keyval,
                            void *extra_state)
{
    RX_CHECK_INIT("MPI_Comm_create_keyval");
    if (!keyval)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Comm_create_keyval", "keyval is NULL");
    rx_keyval_t *k = malloc(sizeof *k);
    if (!k)
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, "MPI_Comm_create_keyval", "out of memory");
    k->copy = copy_fn;
    k->del = delete_fn;
    k->extra = extra_state;
    k->release = NULL;
    k->refs = 1;
    k->id = rx_htab_add(&rx_keyval_table, k, RX_KEYVAL_FIRST);
    if (k->id < 0) {
        free(k);
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, "MPI_Comm_create_keyval", "out of handles");
    }
    *keyval = RX_HANDLE(RX_KIND_KEYVAL, k->id);
    return MPI_SUCCESS;
}
RX_ALIAS(Comm_create_keyval)

int PMPI_Comm_free_keyval(int *keyval)
{
    RX_CHECK_INIT("MPI_Comm_free_keyval");
    if (!keyval)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Comm_free_keyval", "keyval is NULL");
    if (rx_attr_predefined(*keyval))
        return rx_mpi_err(NULL, MPI_ERR_KEYVAL, "MPI_Comm_free_keyval", "cannot free a predefined key");
    rx_keyval_t *k = rx_htab_get(&rx_keyval_table, *keyval);
    if (!k)
        return rx_mpi_err(NULL, MPI_ERR_KEYVAL, "MPI_Comm_free_keyval", "invalid keyval");
    /* attributes still set keep it for their copy and delete callbacks, but
     * the handle is dead: no call accepts it again */
    rx_htab_retire(&rx_keyval_table, k->id);
    rx_keyval_unref(k);
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}
RX_ALIAS(Comm_free_keyval)

int rx_keyval_on_release(int keyval, void (*release)(void *extra))
{
    rx_keyval_t *k = rx_htab_get(&rx_keyval_table, keyval);
    if (!k)
        return rx_obj_keyval_on_release(keyval, release);
    k->release = release;
    return MPI_SUCCESS;
}

int PMPI_Comm_set_attr(MPI_Comm comm, int keyval, void *attribute_val)
{
    RX_CHECK_INIT("MPI_Comm_set_attr");
    RX_GET_COMM(c, comm, "MPI_Comm_set_attr");
    if (rx_attr_predefined(keyval))
        return rx_mpi_err(c, MPI_ERR_KEYVAL, "MPI_Comm_set_attr", "predefined attributes are read-only");
    if (!rx_htab_get(&rx_keyval_table, keyval))
        return rx_mpi_err(c, MPI_ERR_KEYVAL, "MPI_Comm_set_attr", "invalid keyval");
    rx_attr_t **ap = rx_attr_find(c, keyval);
    if (ap) {
        int rc = rx_attr_remove(c, ap, 0);
        if (rc != MPI_SUCCESS)
            return rx_mpi_err(c, rc, "MPI_Comm_set_attr", "delete callback failed");
    }
    if (rx_attr_put(c, keyval, attribute_val) != RX_OK)
        return rx_mpi_err(c, MPI_ERR_NO_MEM, "MPI_Comm_set_attr", "out of memory");
    return MPI_SUCCESS;
}
RX_ALIAS(Comm_set_attr)

int PMPI_Comm_get_attr(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    RX_CHECK_INIT("MPI_Comm_get_attr");
    RX_GET_COMM(c, comm, "MPI_Comm_get_attr");
    if (!attribute_val || !flag)
        return rx_mpi_err(c, MPI_ERR_ARG, "MPI_Comm_get_attr", "NULL argument");
    int *pre = rx_attr_predefined(keyval);
    if (pre) {
        *(void **)attribute_val = pre;
        *flag = 1;
        return MPI_SUCCESS;
    }
    if (!rx_htab_get(&rx_keyval_table, keyval))
        return rx_mpi_err(c, MPI_ERR_KEYVAL, "MPI_Comm_get_attr", "invalid keyval");
    rx_attr_t **ap = rx_attr_find(c, keyval);
    *flag = ap != NULL;
    if (ap)
        *(void **)attribute_val = (*ap)->value;
    return MPI_SUCCESS;
}
RX_ALIAS(Comm_get_attr)

int PMPI_Comm_delete_attr(MPI_Comm comm, int keyval)
{
    RX_CHECK_INIT("MPI_Comm_delete_attr");
    RX_GET_COMM(c, comm, "MPI_Comm_delete_attr");
    /* a freed key still names the attributes that use it: deleting them is how
     * they are released (MPI-4.1 7.7.2, MPI_COMM_FREE_KEYVAL) */
    if (rx_attr_predefined(keyval) || !rx_htab_get_held(&rx_keyval_table, keyval))
        return rx_mpi_err(c, MPI_ERR_KEYVAL, "MPI_Comm_delete_attr", "invalid keyval");
    rx_attr_t **ap = rx_attr_find(c, keyval);
    if (!ap)
        return rx_mpi_err(c, MPI_ERR_KEYVAL, "MPI_Comm_delete_attr", "no attribute for this key");
    int rc = rx_attr_remove(c, ap, 0);
    return rc == MPI_SUCCESS ? rc : rx_mpi_err(c, rc, "MPI_Comm_delete_attr", "delete callback failed");
}
RX_ALIAS(Comm_delete_attr)
