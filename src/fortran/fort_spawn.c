/* SPDX-License-Identifier: MIT
 * The Fortran bindings of MPI_Comm_spawn and MPI_Comm_spawn_multiple, whose
 * argument lists are arrays of blank-padded strings: argv(*) ends at its
 * first blank entry, array_of_argv(count, *) holds command i's arguments in
 * row i, each row ending at its first blank entry. They become the C
 * library's NULL-terminated argv arrays (trailing blanks dropped), at the
 * root only: the arrays mean nothing elsewhere. MPI_ARGV_NULL,
 * MPI_ARGVS_NULL and MPI_ERRCODES_IGNORE are common blocks (mpif.h, use
 * mpi) or mpi_f08's BIND(C) variables, recognised by address. */
#include "fort_support.h"

#include <stdlib.h>
#include <string.h>

#define RX_F_COMMON __attribute__((aligned(16)))
char rdmx_f_argv_null_[1] RX_F_COMMON, rdmx_f_argvs_null_[1] RX_F_COMMON;
MPI_Fint rdmx_f_errcodes_ignore_[1] RX_F_COMMON;
extern char rdmx_f_argv_null_f08[1], rdmx_f_argvs_null_f08[1];
extern MPI_Fint rdmx_f_errcodes_ignore_f08[1];

static int *rx_f_errcodes(MPI_Fint *e)
{
    return e == rdmx_f_errcodes_ignore_ || e == rdmx_f_errcodes_ignore_f08 ? MPI_ERRCODES_IGNORE
                                                                           : e;
}

static size_t rx_f_trimmed(const char *s, size_t len)
{
    while (len > 0 && s[len - 1] == ' ')
        len--;
    return len;
}

/* The strings f[0], f[step], f[2 step], ... of len characters each, up to the
 * first blank one, as a NULL-terminated array of C strings in one allocation;
 * NULL when out of memory. */
static char **rx_f_argv_new(const char *f, size_t len, size_t step)
{
    size_t n = 0, bytes = 0;
    while (rx_f_trimmed(f + n * step * len, len) > 0) {
        bytes += rx_f_trimmed(f + n * step * len, len) + 1;
        n++;
    }
    char **argv = malloc((n + 1) * sizeof *argv + bytes);
    if (!argv)
        return NULL;
    char *p = (char *)(argv + n + 1);
    for (size_t i = 0; i < n; i++) {
        const char *s = f + i * step * len;
        size_t l = rx_f_trimmed(s, len);
        memcpy(p, s, l);
        p[l] = '\0';
        argv[i] = p;
        p += l + 1;
    }
    argv[n] = NULL;
    return argv;
}

/* Whether this process is comm's root (where the arrays are read); a bad
 * communicator or root leaves the C call to report it. */
static int rx_f_at_root(MPI_Fint comm, MPI_Fint root)
{
    int rank;
    return PMPI_Comm_rank(comm, &rank) == MPI_SUCCESS && rank == root;
}

typedef int rx_spawn_fn(const char *, char **, int, MPI_Info, int, MPI_Comm, MPI_Comm *, int *);

static void body_comm_spawn(rx_spawn_fn *spawn, const char *command, const char *argv,
                            MPI_Fint *maxprocs, MPI_Fint *info, MPI_Fint *root, MPI_Fint *comm,
                            MPI_Fint *intercomm, MPI_Fint *errcodes, MPI_Fint *ierror,
                            size_t command_len, size_t argv_len)
{
    char s[RX_F_STR_STACK], *c_command = NULL, **c_argv = NULL;
    int rc = MPI_ERR_NO_MEM;
    if (rx_f_at_root(*comm, *root)) {
        if (!(c_command = rx_f_str_in(command, command_len, s)))
            goto out;
        int null = argv == rdmx_f_argv_null_ || argv == rdmx_f_argv_null_f08;
        if (!null && !(c_argv = rx_f_argv_new(argv, argv_len, 1)))
            goto out;
    }
    rc = spawn(c_command, c_argv, *maxprocs, *info, *root, *comm, intercomm,
               rx_f_errcodes(errcodes));
out:
    if (c_command)
        rx_f_str_free(c_command, s);
    free(c_argv);
    if (ierror)
        *ierror = rc;
}

void mpi_comm_spawn_(const char *command, const char *argv, MPI_Fint *maxprocs, MPI_Fint *info,
                     MPI_Fint *root, MPI_Fint *comm, MPI_Fint *intercomm, MPI_Fint *errcodes,
                     MPI_Fint *ierror, size_t command_len, size_t argv_len)
{
    body_comm_spawn(MPI_Comm_spawn, command, argv, maxprocs, info, root, comm, intercomm,
                    errcodes, ierror, command_len, argv_len);
}

void pmpi_comm_spawn_(const char *command, const char *argv, MPI_Fint *maxprocs, MPI_Fint *info,
                      MPI_Fint *root, MPI_Fint *comm, MPI_Fint *intercomm, MPI_Fint *errcodes,
                      MPI_Fint *ierror, size_t command_len, size_t argv_len)
{
    body_comm_spawn(PMPI_Comm_spawn, command, argv, maxprocs, info, root, comm, intercomm,
                    errcodes, ierror, command_len, argv_len);
}

typedef int rx_spawn_multiple_fn(int, char **, char ***, const int *, const MPI_Info *, int,
                                 MPI_Comm, MPI_Comm *, int *);

static void body_comm_spawn_multiple(rx_spawn_multiple_fn *spawn, MPI_Fint *count,
                                     const char *commands, const char *argvs,
                                     MPI_Fint *maxprocs, MPI_Fint *infos, MPI_Fint *root,
                                     MPI_Fint *comm, MPI_Fint *intercomm, MPI_Fint *errcodes,
                                     MPI_Fint *ierror, size_t commands_len, size_t argvs_len)
{
    char **c_commands = NULL, ***c_argvs = NULL;
    int rc = MPI_ERR_NO_MEM, n = *count > 0 ? *count : 0;
    if (n > 0 && rx_f_at_root(*comm, *root)) {
        /* every command is there: a blank one stays (and is refused as a command) */
        if (!(c_commands = malloc((size_t)n * sizeof *c_commands)))
            goto out;
        for (int i = 0; i < n; i++) {
            const char *s = commands + (size_t)i * commands_len;
            size_t l = rx_f_trimmed(s, commands_len);
            if ((c_commands[i] = malloc(l + 1)))
                memcpy(c_commands[i], s, l), c_commands[i][l] = '\0';
        }
        for (int i = 0; i < n; i++)
            if (!c_commands[i])
                goto out;
        if (argvs != rdmx_f_argvs_null_ && argvs != rdmx_f_argvs_null_f08) {
            if (!(c_argvs = calloc((size_t)n, sizeof *c_argvs)))
                goto out;
            for (int i = 0; i < n; i++)
                if (!(c_argvs[i] = rx_f_argv_new(argvs + (size_t)i * argvs_len, argvs_len,
                                                 (size_t)n)))
                    goto out;
        }
    }
    rc = spawn(*count, c_commands, c_argvs, maxprocs, infos, *root, *comm, intercomm,
               rx_f_errcodes(errcodes));
out:
    for (int i = 0; c_commands && i < n; i++)
        free(c_commands[i]);
    for (int i = 0; c_argvs && i < n; i++)
        free(c_argvs[i]);
    free(c_commands);
    free(c_argvs);
    if (ierror)
        *ierror = rc;
}

void mpi_comm_spawn_multiple_(MPI_Fint *count, const char *commands, const char *argvs,
                              MPI_Fint *maxprocs, MPI_Fint *infos, MPI_Fint *root,
                              MPI_Fint *comm, MPI_Fint *intercomm, MPI_Fint *errcodes,
                              MPI_Fint *ierror, size_t commands_len, size_t argvs_len)
{
    body_comm_spawn_multiple(MPI_Comm_spawn_multiple, count, commands, argvs, maxprocs, infos,
                             root, comm, intercomm, errcodes, ierror, commands_len, argvs_len);
}

void pmpi_comm_spawn_multiple_(MPI_Fint *count, const char *commands, const char *argvs,
                               MPI_Fint *maxprocs, MPI_Fint *infos, MPI_Fint *root,
                               MPI_Fint *comm, MPI_Fint *intercomm, MPI_Fint *errcodes,
                               MPI_Fint *ierror, size_t commands_len, size_t argvs_len)
{
    body_comm_spawn_multiple(PMPI_Comm_spawn_multiple, count, commands, argvs, maxprocs, infos,
                             root, comm, intercomm, errcodes, ierror, commands_len, argvs_len);
}

/* mpi_f08's specific procedures have the same arguments */
extern __typeof(mpi_comm_spawn_) mpi_comm_spawn_f08_ __attribute__((alias("mpi_comm_spawn_")));
extern __typeof(pmpi_comm_spawn_) pmpi_comm_spawn_f08_ __attribute__((alias("pmpi_comm_spawn_")));
extern __typeof(mpi_comm_spawn_multiple_) mpi_comm_spawn_multiple_f08_
    __attribute__((alias("mpi_comm_spawn_multiple_")));
extern __typeof(pmpi_comm_spawn_multiple_) pmpi_comm_spawn_multiple_f08_
    __attribute__((alias("pmpi_comm_spawn_multiple_")));
