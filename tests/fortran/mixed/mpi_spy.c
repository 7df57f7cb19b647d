/* SPDX-License-Identifier: MIT
 * A profiling-interface spy for the Fortran bindings whose C bodies are
 * written by hand: MPI_Comm_spawn and MPI_Comm_spawn_multiple as the Fortran
 * layer calls them are written down as text (command, argv entries between
 * [ ], maxprocs, whether error codes are ignored); MPI_Register_datarep's
 * callbacks are called once each, as the C library would, their results
 * written down too; then each call goes to PMPI_ as in a profiling library.
 * spy_calls.f90 reads the text (rx_spy_seen) and the PMPI result
 * (rx_spy_rc). */
#include <mpi.h>

#include <stdio.h>
#include <string.h>

static char seen[1024];
static int seen_rc = -1;

static void put(const char *s)
{
    strncat(seen, s, sizeof seen - strlen(seen) - 1);
}

static void put_argv(char **argv)
{
    if (!argv) {
        put(" argv=NULL");
        return;
    }
    put(" argv=");
    for (int i = 0; argv[i]; i++) {
        put("[");
        put(argv[i]);
        put("]");
    }
}

int MPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root,
                   MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
{
    char n[64];
    seen[0] = '\0';
    put("spawn ");
    put(command ? command : "(null)");
    put_argv(argv);
    snprintf(n, sizeof n, " maxprocs=%d codes=%s", maxprocs,
             array_of_errcodes == MPI_ERRCODES_IGNORE ? "ignored" : "kept");
    put(n);
    seen_rc = PMPI_Comm_spawn(command, argv, maxprocs, info, root, comm, intercomm,
                              array_of_errcodes);
    return seen_rc;
}

int MPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
                            const int array_of_maxprocs[], const MPI_Info array_of_info[],
                            int root, MPI_Comm comm, MPI_Comm *intercomm,
                            int array_of_errcodes[])
{
    char n[64];
    seen[0] = '\0';
    put("multiple");
    for (int i = 0; array_of_commands && i < count; i++) {
        put(" ");
        put(array_of_commands[i]);
        if (array_of_argv)
            put_argv(array_of_argv[i]);
        snprintf(n, sizeof n, " maxprocs=%d", array_of_maxprocs[i]);
        put(n);
    }
    if (!array_of_argv)
        put(" argvs=NULL");
    put(array_of_errcodes == MPI_ERRCODES_IGNORE ? " codes=ignored" : " codes=kept");
    seen_rc = PMPI_Comm_spawn_multiple(count, array_of_commands, array_of_argv,
                                       array_of_maxprocs, array_of_info, root, comm,
                                       intercomm, array_of_errcodes);
    return seen_rc;
}

/* The conversion callbacks (fn, or its large-count form fn_c) get a buffer
 * of 3 ints at position 16 of type MPI_INT; the extent callback MPI_INT. */
static void put_conv(const char *what, MPI_Datarep_conversion_function *fn,
                     MPI_Datarep_conversion_function_c *fn_c, void *extra)
{
    char n[64];
    int buf[3] = {1, 2, 3}, file[3] = {0, 0, 0};
    if (!fn && !fn_c) {
        snprintf(n, sizeof n, " %s=NULL", what);
    } else {
        int rc = fn ? fn(buf, MPI_INT, 3, file, 16, extra) : fn_c(buf, MPI_INT, 3, file, 16, extra);
        snprintf(n, sizeof n, " %s=%d:%d,%d,%d", what, rc, file[0], file[1], file[2]);
    }
    put(n);
}

static void put_extent(MPI_Datarep_extent_function *extent_fn, void *extra)
{
    char n[64];
    MPI_Aint extent = -1;
    int rc = extent_fn(MPI_INT, &extent, extra);
    snprintf(n, sizeof n, " extent=%d:%ld", rc, (long)extent);
    put(n);
}

int MPI_Register_datarep(const char *datarep, MPI_Datarep_conversion_function *read_fn,
                         MPI_Datarep_conversion_function *write_fn,
                         MPI_Datarep_extent_function *extent_fn, void *extra_state)
{
    seen[0] = '\0';
    put("datarep ");
    put(datarep);
    put_conv("read", read_fn, NULL, extra_state);
    put_conv("write", write_fn, NULL, extra_state);
    put_extent(extent_fn, extra_state);
    seen_rc = PMPI_Register_datarep(datarep, read_fn, write_fn, extent_fn, extra_state);
    return seen_rc;
}

int MPI_Register_datarep_c(const char *datarep, MPI_Datarep_conversion_function_c *read_fn,
                           MPI_Datarep_conversion_function_c *write_fn,
                           MPI_Datarep_extent_function *extent_fn, void *extra_state)
{
    seen[0] = '\0';
    put("datarep_c ");
    put(datarep);
    put_conv("read", NULL, read_fn, extra_state);
    put_conv("write", NULL, write_fn, extra_state);
    put_extent(extent_fn, extra_state);
    seen_rc = PMPI_Register_datarep_c(datarep, read_fn, write_fn, extent_fn, extra_state);
    return seen_rc;
}

/* For Fortran: the last call's text, blank padded to len. */
void rx_spy_seen(char *out, int len)
{
    size_t n = strlen(seen);
    if (n > (size_t)len)
        n = (size_t)len;
    memcpy(out, seen, n);
    memset(out + n, ' ', (size_t)len - n);
}

int rx_spy_rc(void)
{
    return seen_rc;
}
