/* SPDX-License-Identifier: MIT
 * The Fortran bindings of the calls whose callbacks the C library calls with
 * arguments by value (MPI_Comm_create_keyval, MPI_Type_create_keyval,
 * MPI_Win_create_keyval, MPI_Keyval_create, MPI_Grequest_start,
 * MPI_Register_datarep and _c), and the predefined Fortran callbacks
 * (MPI_COMM_DUP_FN, ...). gen_bindings.py writes their Fortran interfaces;
 * their C bodies are here.
 *
 * A Fortran callback takes every argument by address, attribute values and
 * extra_state as INTEGER(KIND=MPI_ADDRESS_KIND) (default INTEGERs for the
 * MPI-1 MPI_Keyval_create), and returns its error in a last ierror argument.
 * Each keyval, request or data representation gets a trampoline state: the
 * Fortran procedures and extra_state, handed to the C library as its
 * extra_state; the C library calls the trampolines below, which call the
 * Fortran procedures. The state lives as long as its keyval (the C library
 * releases it, rx_keyval_on_release), its request (the free callback) or, for
 * a data representation, the process. A predefined Fortran callback passed
 * to these calls is replaced by its C twin, which does the same. */
#include "fort_support.h"

#include "mpi/attr_obj.h"

#include <stdint.h>
#include <stdlib.h>

/* ---- the predefined callbacks, as Fortran procedures ---- */

typedef void rx_f_copy_fn(MPI_Fint *oldobj, MPI_Fint *keyval, MPI_Aint *extra, MPI_Aint *in,
                          MPI_Aint *out, MPI_Fint *flag, MPI_Fint *ierror);
typedef void rx_f_delete_fn(MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *val, MPI_Aint *extra,
                            MPI_Fint *ierror);
/* MPI_Keyval_create's (MPI-1): values and extra_state are default INTEGERs */
typedef void rx_f_copy1_fn(MPI_Fint *oldobj, MPI_Fint *keyval, MPI_Fint *extra, MPI_Fint *in,
                           MPI_Fint *out, MPI_Fint *flag, MPI_Fint *ierror);
typedef void rx_f_delete1_fn(MPI_Fint *obj, MPI_Fint *keyval, MPI_Fint *val, MPI_Fint *extra,
                             MPI_Fint *ierror);

rx_f_copy_fn mpi_comm_null_copy_fn_, mpi_comm_dup_fn_;
rx_f_delete_fn mpi_comm_null_delete_fn_;
rx_f_copy1_fn mpi_null_copy_fn_, mpi_dup_fn_;
rx_f_delete1_fn mpi_null_delete_fn_;

void mpi_comm_null_copy_fn_(MPI_Fint *oldobj, MPI_Fint *keyval, MPI_Aint *extra, MPI_Aint *in,
                            MPI_Aint *out, MPI_Fint *flag, MPI_Fint *ierror)
{
    (void)oldobj, (void)keyval, (void)extra, (void)in, (void)out;
    *flag = 0; /* .FALSE.: the attribute is not copied */
    *ierror = MPI_SUCCESS;
}

void mpi_comm_dup_fn_(MPI_Fint *oldobj, MPI_Fint *keyval, MPI_Aint *extra, MPI_Aint *in,
                      MPI_Aint *out, MPI_Fint *flag, MPI_Fint *ierror)
{
    (void)oldobj, (void)keyval, (void)extra;
    *out = *in;
    *flag = 1; /* gfortran's .TRUE. */
    *ierror = MPI_SUCCESS;
}

void mpi_comm_null_delete_fn_(MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *val, MPI_Aint *extra,
                              MPI_Fint *ierror)
{
    (void)obj, (void)keyval, (void)val, (void)extra;
    *ierror = MPI_SUCCESS;
}

void mpi_null_copy_fn_(MPI_Fint *oldobj, MPI_Fint *keyval, MPI_Fint *extra, MPI_Fint *in,
                       MPI_Fint *out, MPI_Fint *flag, MPI_Fint *ierror)
{
    (void)oldobj, (void)keyval, (void)extra, (void)in, (void)out;
    *flag = 0;
    *ierror = MPI_SUCCESS;
}

void mpi_dup_fn_(MPI_Fint *oldobj, MPI_Fint *keyval, MPI_Fint *extra, MPI_Fint *in,
                 MPI_Fint *out, MPI_Fint *flag, MPI_Fint *ierror)
{
    (void)oldobj, (void)keyval, (void)extra;
    *out = *in;
    *flag = 1;
    *ierror = MPI_SUCCESS;
}

void mpi_null_delete_fn_(MPI_Fint *obj, MPI_Fint *keyval, MPI_Fint *val, MPI_Fint *extra,
                         MPI_Fint *ierror)
{
    (void)obj, (void)keyval, (void)val, (void)extra;
    *ierror = MPI_SUCCESS;
}

/* Datatypes and windows have the communicator's callbacks: every handle is an
 * INTEGER, so the same procedure serves all three. */
#define RX_F_SAME(name, as) extern __typeof(as) name __attribute__((alias(#as)));
RX_F_SAME(mpi_type_null_copy_fn_, mpi_comm_null_copy_fn_)
RX_F_SAME(mpi_type_dup_fn_, mpi_comm_dup_fn_)
RX_F_SAME(mpi_type_null_delete_fn_, mpi_comm_null_delete_fn_)
RX_F_SAME(mpi_win_null_copy_fn_, mpi_comm_null_copy_fn_)
RX_F_SAME(mpi_win_dup_fn_, mpi_comm_dup_fn_)
RX_F_SAME(mpi_win_null_delete_fn_, mpi_comm_null_delete_fn_)

/* MPI_CONVERSION_FN_NULL(_C): no conversion. The bindings pass the C library
 * NULL for it; called itself, it reports that it converts nothing. */
typedef void rx_f_conv_fn(void *userbuf, MPI_Fint *datatype, MPI_Fint *count, void *filebuf,
                          MPI_Offset *position, MPI_Aint *extra, MPI_Fint *ierror);
typedef void rx_f_conv_c_fn(void *userbuf, MPI_Fint *datatype, MPI_Count *count, void *filebuf,
                            MPI_Offset *position, MPI_Aint *extra, MPI_Fint *ierror);
typedef void rx_f_extent_fn(MPI_Fint *datatype, MPI_Aint *extent, MPI_Aint *extra,
                            MPI_Fint *ierror);
rx_f_conv_fn mpi_conversion_fn_null_;
rx_f_conv_c_fn mpi_conversion_fn_null_c_;

void mpi_conversion_fn_null_(void *userbuf, MPI_Fint *datatype, MPI_Fint *count, void *filebuf,
                             MPI_Offset *position, MPI_Aint *extra, MPI_Fint *ierror)
{
    (void)userbuf, (void)datatype, (void)count, (void)filebuf, (void)position, (void)extra;
    *ierror = MPI_ERR_CONVERSION;
}

void mpi_conversion_fn_null_c_(void *userbuf, MPI_Fint *datatype, MPI_Count *count,
                               void *filebuf, MPI_Offset *position, MPI_Aint *extra,
                               MPI_Fint *ierror)
{
    (void)userbuf, (void)datatype, (void)count, (void)filebuf, (void)position, (void)extra;
    *ierror = MPI_ERR_CONVERSION;
}

/* ---- keyvals ---- */

typedef void rx_f_proc(void);

typedef struct rx_f_keyval {
    rx_f_proc *copy, *del; /* the Fortran procedures (NULL: predefined) */
    MPI_Aint extra;         /* the Fortran extra_state */
    MPI_Fint extra1;        /* that of MPI_Keyval_create */
    int mpi1;               /* made by MPI_Keyval_create: default INTEGER values */
} rx_f_keyval_t;

static int rx_f_copy_tramp(int oldobj, int keyval, void *extra, void *in, void *out, int *flag)
{
    rx_f_keyval_t *k = extra;
    MPI_Fint fold = oldobj, fkey = keyval, fflag = 0, ierr = MPI_SUCCESS;
    if (k->mpi1) {
        MPI_Fint fin = (MPI_Fint)(intptr_t)in, fout = 0;
        ((rx_f_copy1_fn *)k->copy)(&fold, &fkey, &k->extra1, &fin, &fout, &fflag, &ierr);
        if (fflag)
            *(void **)out = (void *)(intptr_t)fout;
    } else {
        MPI_Aint ain = (MPI_Aint)(intptr_t)in, aout = 0;
        ((rx_f_copy_fn *)k->copy)(&fold, &fkey, &k->extra, &ain, &aout, &fflag, &ierr);
        if (fflag)
            *(void **)out = (void *)(intptr_t)aout;
    }
    *flag = fflag != 0;
    return ierr;
}

static int rx_f_delete_tramp(int obj, int keyval, void *val, void *extra)
{
    rx_f_keyval_t *k = extra;
    MPI_Fint fobj = obj, fkey = keyval, ierr = MPI_SUCCESS;
    if (k->mpi1) {
        MPI_Fint fval = (MPI_Fint)(intptr_t)val;
        ((rx_f_delete1_fn *)k->del)(&fobj, &fkey, &fval, &k->extra1, &ierr);
    } else {
        MPI_Aint aval = (MPI_Aint)(intptr_t)val;
        ((rx_f_delete_fn *)k->del)(&fobj, &fkey, &aval, &k->extra, &ierr);
    }
    return ierr;
}

/* The C callback for a Fortran one: its predefined C twin, or the trampoline. */
static MPI_Comm_copy_attr_function *rx_f_copy_for(rx_f_proc *fn)
{
    if (fn == (rx_f_proc *)mpi_comm_null_copy_fn_ || fn == (rx_f_proc *)mpi_null_copy_fn_)
        return MPI_COMM_NULL_COPY_FN;
    if (fn == (rx_f_proc *)mpi_comm_dup_fn_ || fn == (rx_f_proc *)mpi_dup_fn_)
        return MPI_COMM_DUP_FN; /* copies the stored value, whatever its width */
    return rx_f_copy_tramp;
}

static MPI_Comm_delete_attr_function *rx_f_delete_for(rx_f_proc *fn)
{
    if (fn == (rx_f_proc *)mpi_comm_null_delete_fn_ || fn == (rx_f_proc *)mpi_null_delete_fn_)
        return MPI_COMM_NULL_DELETE_FN;
    return rx_f_delete_tramp;
}

/* Every handle is an int: the three create_keyval calls have one C type. */
typedef int rx_create_keyval_fn(MPI_Comm_copy_attr_function *, MPI_Comm_delete_attr_function *,
                                int *, void *);

static int rx_f_create_keyval(rx_create_keyval_fn *create, rx_f_proc *copy, rx_f_proc *del,
                              MPI_Fint *keyval, MPI_Aint extra, MPI_Fint extra1, int mpi1)
{
    MPI_Comm_copy_attr_function *ccopy = rx_f_copy_for(copy);
    MPI_Comm_delete_attr_function *cdel = rx_f_delete_for(del);
    if (ccopy != rx_f_copy_tramp && cdel != rx_f_delete_tramp)
        return create(ccopy, cdel, keyval, NULL); /* predefined ones need no state */
    rx_f_keyval_t *k = malloc(sizeof *k);
    if (!k)
        return MPI_ERR_NO_MEM;
    *k = (rx_f_keyval_t){copy, del, extra, extra1, mpi1};
    int rc = create(ccopy, cdel, keyval, k);
    if (rc == MPI_SUCCESS)
        rc = rx_keyval_on_release(*keyval, free);
    else
        free(k);
    return rc;
}

/* The four Fortran-callable forms of a call: mpi_x_ and pmpi_x_ (mpif.h, use
 * mpi) and their _f08_ aliases (mpi_f08), each calling body with the C call
 * of its prefix. */
#define RX_F_BINDING(lname, Name, params, args)                                                \
    void mpi_##lname##_ params { body_##lname(MPI_##Name, args); }                             \
    void pmpi_##lname##_ params { body_##lname(PMPI_##Name, args); }                           \
    extern __typeof(mpi_##lname##_) mpi_##lname##_f08_ __attribute__((alias("mpi_" #lname "_"))); \
    extern __typeof(pmpi_##lname##_) pmpi_##lname##_f08_                                       \
        __attribute__((alias("pmpi_" #lname "_")));
#define RX_F_ARGS(...) (__VA_ARGS__)
#define RX_F_PASS(...) __VA_ARGS__

static void rx_f_set(MPI_Fint *ierror, int rc)
{
    if (ierror) /* optional in mpi_f08 */
        *ierror = rc;
}

#define RX_F_KEYVAL_BODY(lname)                                                                \
    static void body_##lname(rx_create_keyval_fn *create, rx_f_proc *copy, rx_f_proc *del,     \
                             MPI_Fint *keyval, MPI_Aint *extra, MPI_Fint *ierror)              \
    {                                                                                          \
        rx_f_set(ierror, rx_f_create_keyval(create, copy, del, keyval, *extra, 0, 0));         \
    }
RX_F_KEYVAL_BODY(comm_create_keyval)
RX_F_KEYVAL_BODY(type_create_keyval)
RX_F_KEYVAL_BODY(win_create_keyval)

#define RX_F_KEYVAL_PARAMS                                                                     \
    RX_F_ARGS(rx_f_proc *copy, rx_f_proc *del, MPI_Fint *keyval, MPI_Aint *extra,              \
              MPI_Fint *ierror)
RX_F_BINDING(comm_create_keyval, Comm_create_keyval, RX_F_KEYVAL_PARAMS,
             RX_F_PASS(copy, del, keyval, extra, ierror))
RX_F_BINDING(type_create_keyval, Type_create_keyval, RX_F_KEYVAL_PARAMS,
             RX_F_PASS(copy, del, keyval, extra, ierror))
RX_F_BINDING(win_create_keyval, Win_create_keyval, RX_F_KEYVAL_PARAMS,
             RX_F_PASS(copy, del, keyval, extra, ierror))

static void body_keyval_create(rx_create_keyval_fn *create, rx_f_proc *copy, rx_f_proc *del,
                               MPI_Fint *keyval, MPI_Fint *extra, MPI_Fint *ierror)
{
    rx_f_set(ierror, rx_f_create_keyval(create, copy, del, keyval, 0, *extra, 1));
}
RX_F_BINDING(keyval_create, Keyval_create,
             RX_F_ARGS(rx_f_proc *copy, rx_f_proc *del, MPI_Fint *keyval, MPI_Fint *extra,
                       MPI_Fint *ierror),
             RX_F_PASS(copy, del, keyval, extra, ierror))

/* ---- generalized requests ---- */

typedef void rx_f_query_fn(MPI_Aint *extra, MPI_Fint *status, MPI_Fint *ierror);
typedef void rx_f_free_fn(MPI_Aint *extra, MPI_Fint *ierror);
typedef void rx_f_cancel_fn(MPI_Aint *extra, MPI_Fint *complete, MPI_Fint *ierror);

typedef struct rx_f_greq {
    rx_f_query_fn *query;
    rx_f_free_fn *free;
    rx_f_cancel_fn *cancel;
    MPI_Aint extra;
} rx_f_greq_t;

/* A Fortran status holds the bytes of a C status (fort_support.h). */
static int rx_f_query_tramp(void *extra, MPI_Status *status)
{
    rx_f_greq_t *g = extra;
    MPI_Fint ierr = MPI_SUCCESS;
    g->query(&g->extra, (MPI_Fint *)(void *)status, &ierr);
    return ierr;
}

/* Called once, when the request is freed: the state goes with it. */
static int rx_f_free_tramp(void *extra)
{
    rx_f_greq_t *g = extra;
    MPI_Fint ierr = MPI_SUCCESS;
    g->free(&g->extra, &ierr);
    free(g);
    return ierr;
}

static int rx_f_cancel_tramp(void *extra, int complete)
{
    rx_f_greq_t *g = extra;
    MPI_Fint fcomplete = complete != 0, ierr = MPI_SUCCESS;
    g->cancel(&g->extra, &fcomplete, &ierr);
    return ierr;
}

typedef int rx_greq_start_fn(MPI_Grequest_query_function *, MPI_Grequest_free_function *,
                             MPI_Grequest_cancel_function *, void *, MPI_Request *);

static void body_grequest_start(rx_greq_start_fn *start, rx_f_query_fn *query,
                                rx_f_free_fn *freefn, rx_f_cancel_fn *cancel, MPI_Aint *extra,
                                MPI_Fint *request, MPI_Fint *ierror)
{
    int rc = MPI_ERR_NO_MEM;
    rx_f_greq_t *g = malloc(sizeof *g);
    if (g) {
        *g = (rx_f_greq_t){query, freefn, cancel, *extra};
        rc = start(rx_f_query_tramp, rx_f_free_tramp, rx_f_cancel_tramp, g, request);
        if (rc != MPI_SUCCESS)
            free(g);
    }
    rx_f_set(ierror, rc);
}
RX_F_BINDING(grequest_start, Grequest_start,
             RX_F_ARGS(rx_f_query_fn *query, rx_f_free_fn *freefn, rx_f_cancel_fn *cancel,
                       MPI_Aint *extra, MPI_Fint *request, MPI_Fint *ierror),
             RX_F_PASS(query, freefn, cancel, extra, request, ierror))

/* ---- data representations ---- */

typedef struct rx_f_datarep {
    rx_f_proc *read, *write; /* rx_f_conv_fn or rx_f_conv_c_fn */
    rx_f_extent_fn *extent;
    MPI_Aint extra;
} rx_f_datarep_t;

static int rx_f_read_tramp(void *userbuf, MPI_Datatype dt, int count, void *filebuf,
                           MPI_Offset position, void *extra)
{
    rx_f_datarep_t *d = extra;
    MPI_Fint fdt = dt, fcount = count, ierr = MPI_SUCCESS;
    ((rx_f_conv_fn *)d->read)(userbuf, &fdt, &fcount, filebuf, &position, &d->extra, &ierr);
    return ierr;
}

static int rx_f_write_tramp(void *userbuf, MPI_Datatype dt, int count, void *filebuf,
                            MPI_Offset position, void *extra)
{
    rx_f_datarep_t *d = extra;
    MPI_Fint fdt = dt, fcount = count, ierr = MPI_SUCCESS;
    ((rx_f_conv_fn *)d->write)(userbuf, &fdt, &fcount, filebuf, &position, &d->extra, &ierr);
    return ierr;
}

static int rx_f_read_c_tramp(void *userbuf, MPI_Datatype dt, MPI_Count count, void *filebuf,
                             MPI_Offset position, void *extra)
{
    rx_f_datarep_t *d = extra;
    MPI_Fint fdt = dt, ierr = MPI_SUCCESS;
    ((rx_f_conv_c_fn *)d->read)(userbuf, &fdt, &count, filebuf, &position, &d->extra, &ierr);
    return ierr;
}

static int rx_f_write_c_tramp(void *userbuf, MPI_Datatype dt, MPI_Count count, void *filebuf,
                              MPI_Offset position, void *extra)
{
    rx_f_datarep_t *d = extra;
    MPI_Fint fdt = dt, ierr = MPI_SUCCESS;
    ((rx_f_conv_c_fn *)d->write)(userbuf, &fdt, &count, filebuf, &position, &d->extra, &ierr);
    return ierr;
}

static int rx_f_extent_tramp(MPI_Datatype dt, MPI_Aint *extent, void *extra)
{
    rx_f_datarep_t *d = extra;
    MPI_Fint fdt = dt, ierr = MPI_SUCCESS;
    d->extent(&fdt, extent, &d->extra, &ierr);
    return ierr;
}

static int rx_f_is_conv_null(rx_f_proc *fn)
{
    return fn == (rx_f_proc *)mpi_conversion_fn_null_ ||
           fn == (rx_f_proc *)mpi_conversion_fn_null_c_;
}

/* A registered representation lasts as long as the process: so does its state
 * (freed at once when registration fails). */
static rx_f_datarep_t *rx_f_datarep_new(rx_f_proc *read, rx_f_proc *write,
                                        rx_f_extent_fn *extent, MPI_Aint extra)
{
    rx_f_datarep_t *d = malloc(sizeof *d);
    if (d)
        *d = (rx_f_datarep_t){read, write, extent, extra};
    return d;
}

typedef int rx_datarep_fn(const char *, MPI_Datarep_conversion_function *,
                          MPI_Datarep_conversion_function *, MPI_Datarep_extent_function *,
                          void *);
typedef int rx_datarep_c_fn(const char *, MPI_Datarep_conversion_function_c *,
                            MPI_Datarep_conversion_function_c *, MPI_Datarep_extent_function *,
                            void *);

/* Register_datarep (reg) or its large-count form (reg_c). */
static int rx_f_register_datarep(rx_datarep_fn *reg, rx_datarep_c_fn *reg_c, const char *name,
                                 size_t name_len, rx_f_proc *read, rx_f_proc *write,
                                 rx_f_extent_fn *extent, MPI_Aint extra)
{
    char s[RX_F_STR_STACK];
    char *c = rx_f_str_in(name, name_len, s);
    rx_f_datarep_t *d = c ? rx_f_datarep_new(read, write, extent, extra) : NULL;
    int rc = MPI_ERR_NO_MEM;
    if (d && reg)
        rc = reg(c, rx_f_is_conv_null(read) ? MPI_CONVERSION_FN_NULL : rx_f_read_tramp,
                 rx_f_is_conv_null(write) ? MPI_CONVERSION_FN_NULL : rx_f_write_tramp,
                 rx_f_extent_tramp, d);
    else if (d)
        rc = reg_c(c, rx_f_is_conv_null(read) ? MPI_CONVERSION_FN_NULL_C : rx_f_read_c_tramp,
                   rx_f_is_conv_null(write) ? MPI_CONVERSION_FN_NULL_C : rx_f_write_c_tramp,
                   rx_f_extent_tramp, d);
    if (rc != MPI_SUCCESS)
        free(d);
    if (c)
        rx_f_str_free(c, s);
    return rc;
}

#define RX_F_DATAREP_PARAMS                                                                    \
    RX_F_ARGS(const char *name, rx_f_proc *read, rx_f_proc *write, rx_f_extent_fn *extent,     \
              MPI_Aint *extra, MPI_Fint *ierror, size_t name_len)
#define RX_F_DATAREP_ARGS RX_F_PASS(name, read, write, extent, extra, ierror, name_len)

static void body_register_datarep(rx_datarep_fn *reg, const char *name, rx_f_proc *read,
                                  rx_f_proc *write, rx_f_extent_fn *extent, MPI_Aint *extra,
                                  MPI_Fint *ierror, size_t name_len)
{
    rx_f_set(ierror, rx_f_register_datarep(reg, NULL, name, name_len, read, write, extent,
                                           *extra));
}
RX_F_BINDING(register_datarep, Register_datarep, RX_F_DATAREP_PARAMS, RX_F_DATAREP_ARGS)

static void body_register_datarep_c(rx_datarep_c_fn *reg, const char *name, rx_f_proc *read,
                                    rx_f_proc *write, rx_f_extent_fn *extent, MPI_Aint *extra,
                                    MPI_Fint *ierror, size_t name_len)
{
    rx_f_set(ierror, rx_f_register_datarep(NULL, reg, name, name_len, read, write, extent,
                                           *extra));
}
RX_F_BINDING(register_datarep_c, Register_datarep_c, RX_F_DATAREP_PARAMS, RX_F_DATAREP_ARGS)
