/* SPDX-License-Identifier: MIT
 * Attribute delete callbacks that fail, freed keys, and the attributes of
 * MPI_COMM_SELF at MPI_Finalize:
 *   - a failing delete callback fails MPI_Comm_set_attr (replacing the value) and
 *     MPI_Comm_delete_attr, and the attribute stays: a later MPI_Comm_dup still runs
 *     its copy callback (whose error fails the dup, newcomm MPI_COMM_NULL); the same for
 *     datatypes (MPI_Type_set_attr, MPI_Type_delete_attr, MPI_Type_dup), and
 *     MPI_Type_free still runs the callback;
 *   - a freed key still names the attributes that use it: MPI_Comm_delete_attr and
 *     MPI_Type_delete_attr with a copy of the freed handle delete them (MPI-4.1 7.7.2);
 *   - MPI_Finalize first deletes the attributes of MPI_COMM_SELF, last set first, while
 *     MPI_Finalized is still false (MPI-4.1 11.2.4): rank 0 checks that after
 *     MPI_Finalize and prints the verdict itself. */
#include "rxtest.h"

static int fail_delete, deletes, copies;

static int comm_copy(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void)c, (void)k, (void)extra, (void)in, (void)out;
    copies++;
    *flag = 1;
    return MPI_ERR_OTHER;
}

static int comm_delete(MPI_Comm c, int k, void *val, void *extra)
{
    (void)c, (void)k, (void)val, (void)extra;
    deletes++;
    return fail_delete ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static int type_copy(MPI_Datatype t, int k, void *extra, void *in, void *out, int *flag)
{
    (void)t, (void)k, (void)extra, (void)in, (void)out;
    copies++;
    *flag = 1;
    return MPI_ERR_OTHER;
}

static int type_delete(MPI_Datatype t, int k, void *val, void *extra)
{
    (void)t, (void)k, (void)val, (void)extra;
    deletes++;
    return fail_delete ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static void test_comm(void)
{
    MPI_Comm dup, d2 = MPI_COMM_SELF;
    int key, flag = 0;
    void *v = NULL;
    RXT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    RXT_MPI(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN));
    RXT_MPI(MPI_Comm_create_keyval(comm_copy, comm_delete, &key, NULL));
    RXT_MPI(MPI_Comm_set_attr(dup, key, (void *)(intptr_t)1));
    fail_delete = 1;
    RXT_CHECK(MPI_Comm_set_attr(dup, key, (void *)(intptr_t)2) != MPI_SUCCESS,
              "set_attr succeeded although the old value's delete callback failed");
    RXT_CHECK(MPI_Comm_delete_attr(dup, key) != MPI_SUCCESS,
              "delete_attr succeeded although the delete callback failed");
    RXT_MPI(MPI_Comm_get_attr(dup, key, &v, &flag));
    RXT_CHECK(flag && v == (void *)(intptr_t)1, "attribute after failed deletes: flag %d value %p",
              flag, v);
    copies = 0;
    RXT_CHECK(MPI_Comm_dup(dup, &d2) != MPI_SUCCESS, "dup succeeded although the copy failed");
    RXT_CHECK(copies == 1, "copy callback ran %d times", copies);
    RXT_CHECK(d2 == MPI_COMM_NULL, "newcomm of the failed dup is not MPI_COMM_NULL");
    /* a copy of the freed key deletes the attribute that still uses it */
    int saved = key;
    RXT_MPI(MPI_Comm_free_keyval(&key));
    fail_delete = 0;
    deletes = 0;
    RXT_MPI(MPI_Comm_delete_attr(dup, saved));
    RXT_CHECK(deletes == 1, "delete callback ran %d times", deletes);
    RXT_MPI(MPI_Comm_free(&dup));
    RXT_CHECK(deletes == 1, "delete callback ran again at free (%d)", deletes);
}

static void test_type(void)
{
    MPI_Datatype t, t2 = MPI_INT;
    int key, flag = 0;
    void *v = NULL;
    RXT_MPI(MPI_Type_dup(MPI_DOUBLE, &t));
    RXT_MPI(MPI_Type_create_keyval(type_copy, type_delete, &key, NULL));
    RXT_MPI(MPI_Type_set_attr(t, key, (void *)(intptr_t)1));
    fail_delete = 1;
    RXT_CHECK(MPI_Type_set_attr(t, key, (void *)(intptr_t)2) != MPI_SUCCESS,
              "type set_attr succeeded although the delete callback failed");
    RXT_CHECK(MPI_Type_delete_attr(t, key) != MPI_SUCCESS,
              "type delete_attr succeeded although the delete callback failed");
    RXT_MPI(MPI_Type_get_attr(t, key, &v, &flag));
    RXT_CHECK(flag && v == (void *)(intptr_t)1, "type attribute after failed deletes: %d %p",
              flag, v);
    copies = 0;
    RXT_CHECK(MPI_Type_dup(t, &t2) != MPI_SUCCESS, "type dup succeeded although the copy failed");
    RXT_CHECK(copies == 1, "type dup: %d copies", copies);
#ifndef OPEN_MPI /* Open MPI 4.1 leaves newtype set when a copy callback fails */
    RXT_CHECK(t2 == MPI_DATATYPE_NULL, "type dup failed but newtype is not MPI_DATATYPE_NULL");
#endif
    fail_delete = 0;
    deletes = 0;
    RXT_MPI(MPI_Type_free(&t));
    RXT_CHECK(deletes == 1, "MPI_Type_free ran the delete callback %d times", deletes);
    /* freed key, attribute still set: deleted through a copy of the handle */
    RXT_MPI(MPI_Type_dup(MPI_DOUBLE, &t));
    RXT_MPI(MPI_Type_set_attr(t, key, (void *)(intptr_t)3));
    int saved = key;
    RXT_MPI(MPI_Type_free_keyval(&key));
    deletes = 0;
    RXT_MPI(MPI_Type_delete_attr(t, saved));
    RXT_CHECK(deletes == 1, "type delete callback ran %d times", deletes);
    RXT_MPI(MPI_Type_free(&t));
}

/* MPI_COMM_SELF's attributes at MPI_Finalize */
#define NSELF 5
static int self_order[NSELF], self_seen, self_finalized;

static int self_delete(MPI_Comm c, int k, void *val, void *extra)
{
    (void)c, (void)k, (void)extra;
    int flag = 1;
    MPI_Finalized(&flag);
    self_finalized += flag;
    if (self_seen < NSELF)
        self_order[self_seen] = (int)(intptr_t)val;
    self_seen++;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "attr_delete_fail");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    test_comm();
    test_type();
    for (int i = 0; i < NSELF; i++) {
        int key;
        RXT_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &key, NULL));
        RXT_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, key, (void *)(intptr_t)i));
        RXT_MPI(MPI_Comm_free_keyval(&key));
    }
    int errs = rxt_errs, all = 0;
    RXT_MPI(MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    int rank = rxt_rank;
    MPI_Finalize();
    int bad = self_seen != NSELF || self_finalized != 0;
    for (int i = 0; i < NSELF && i < self_seen; i++)
        bad |= self_order[i] != NSELF - 1 - i;
    if (bad)
        fprintf(stderr, "[rank %d] MPI_COMM_SELF's delete callbacks: %d run (want %d), %d with "
                        "MPI_Finalized true, order %d %d %d %d %d (want 4 3 2 1 0)\n",
                rank, self_seen, NSELF, self_finalized, self_order[0], self_order[1],
                self_order[2], self_order[3], self_order[4]);
    if (rank == 0 && !bad && all == 0)
        printf(" No Errors\n");
    return bad || all;
}
