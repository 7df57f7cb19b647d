/* SPDX-License-Identifier: MIT
 * Process management (MPI-4.1 §11.8-11.10). rdmx starts every process of a
 * job at launch (rdmx-run) and starts none at run time yet, so:
 * MPI_Comm_get_parent answers MPI_COMM_NULL (no process was spawned);
 * MPI_Comm_spawn / _spawn_multiple fail with MPI_ERR_SPAWN, MPI_Open_port /
 * _Close_port / _Comm_accept / _Comm_connect with MPI_ERR_PORT and
 * MPI_Comm_join and MPI_Publish_name with MPI_ERR_UNSUPPORTED_OPERATION,
 * each saying so after its arguments were checked; nothing can be published,
 * so MPI_Lookup_name fails with MPI_ERR_NAME and MPI_Unpublish_name with
 * MPI_ERR_SERVICE, as for any name not published. MPI_Comm_disconnect works
 * on every communicator (a barrier, then MPI_Comm_free). */
#include "info_impl.h"

#define RX_NO_RUNTIME_PROCS "rdmx does not start processes at run time yet"

int PMPI_Comm_get_parent(MPI_Comm *parent)
{
    RX_CHECK_INIT("MPI_Comm_get_parent");
    if (!parent)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Comm_get_parent", "parent is NULL");
    *parent = MPI_COMM_NULL;
    return MPI_SUCCESS;
}
RX_ALIAS(Comm_get_parent)

/* What spawn, accept and connect check on every rank (the root's own
 * arguments are checked at the root): an intracommunicator, the root and
 * the output handle, set to MPI_COMM_NULL. */
static int rx_root_args(MPI_Comm comm, int root, MPI_Comm *out, rx_comm_t **cp, const char *fn)
{
    RX_GET_COMM(c, comm, fn);
    if (c->remote)
        return rx_mpi_err(c, MPI_ERR_COMM, fn, "an intercommunicator");
    if (root < 0 || root >= c->size)
        return rx_mpi_err(c, MPI_ERR_ROOT, fn, "invalid root %d (communicator has %d ranks)",
                          root, c->size);
    if (!out)
        return rx_mpi_err(c, MPI_ERR_ARG, fn, "the new communicator's handle is NULL");
    *out = MPI_COMM_NULL;
    *cp = c;
    return MPI_SUCCESS;
}

/* An application's share of a spawn: the program and the process count. */
static int rx_spawn_app(rx_comm_t *c, const char *command, int maxprocs, MPI_Info info,
                        const char *fn)
{
    if (!command || !*command)
        return rx_mpi_err(c, MPI_ERR_SPAWN, fn, "no command");
    if (maxprocs <= 0)
        return rx_mpi_err(c, MPI_ERR_SPAWN, fn, "maxprocs %d is not positive", maxprocs);
    rx_info_t *unused;
    return rx_info_arg(c, info, &unused, fn);
}

static void rx_spawn_errcodes(int *errcodes, int n)
{
    if (errcodes != MPI_ERRCODES_IGNORE)
        for (int i = 0; i < n; i++)
            errcodes[i] = MPI_ERR_SPAWN;
}

int PMPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root,
                    MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
{
    const char *fn = "MPI_Comm_spawn";
    RX_CHECK_INIT(fn);
    rx_comm_t *c;
    int rc = rx_root_args(comm, root, intercomm, &c, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    (void)argv;
    if (c->rank == root) {
        if ((rc = rx_spawn_app(c, command, maxprocs, info, fn)) != MPI_SUCCESS)
            return rc;
        rx_spawn_errcodes(array_of_errcodes, maxprocs);
    }
    return rx_mpi_err(c, MPI_ERR_SPAWN, fn, RX_NO_RUNTIME_PROCS);
}
RX_ALIAS(Comm_spawn)

int PMPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
                             const int array_of_maxprocs[], const MPI_Info array_of_info[],
                             int root, MPI_Comm comm, MPI_Comm *intercomm,
                             int array_of_errcodes[])
{
    const char *fn = "MPI_Comm_spawn_multiple";
    RX_CHECK_INIT(fn);
    rx_comm_t *c;
    int rc = rx_root_args(comm, root, intercomm, &c, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    (void)array_of_argv;
    if (c->rank == root) {
        if (count <= 0)
            return rx_mpi_err(c, MPI_ERR_ARG, fn, "count %d is not positive", count);
        if (!array_of_commands || !array_of_maxprocs || !array_of_info)
            return rx_mpi_err(c, MPI_ERR_ARG, fn, "NULL array argument");
        int total = 0;
        for (int i = 0; i < count; i++) {
            rc = rx_spawn_app(c, array_of_commands[i], array_of_maxprocs[i], array_of_info[i],
                              fn);
            if (rc != MPI_SUCCESS)
                return rc;
            total += array_of_maxprocs[i];
        }
        rx_spawn_errcodes(array_of_errcodes, total);
    }
    return rx_mpi_err(c, MPI_ERR_SPAWN, fn, RX_NO_RUNTIME_PROCS);
}
RX_ALIAS(Comm_spawn_multiple)

int PMPI_Open_port(MPI_Info info, char *port_name)
{
    const char *fn = "MPI_Open_port";
    RX_CHECK_INIT(fn);
    rx_info_t *unused;
    int rc = rx_info_arg(NULL, info, &unused, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!port_name)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "port_name is NULL");
    port_name[0] = '\0';
    return rx_mpi_err(NULL, MPI_ERR_PORT, fn, "no ports: " RX_NO_RUNTIME_PROCS
                      " or connect jobs");
}
RX_ALIAS(Open_port)

int PMPI_Close_port(const char *port_name)
{
    const char *fn = "MPI_Close_port";
    RX_CHECK_INIT(fn);
    if (!port_name)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "port_name is NULL");
    /* MPI_Open_port never opened one */
    return rx_mpi_err(NULL, MPI_ERR_PORT, fn, "'%.64s' is not an open port", port_name);
}
RX_ALIAS(Close_port)

static int rx_connect_args(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                           MPI_Comm *newcomm, const char *fn)
{
    RX_CHECK_INIT(fn);
    rx_comm_t *c;
    int rc = rx_root_args(comm, root, newcomm, &c, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (c->rank == root) {
        rx_info_t *unused;
        if ((rc = rx_info_arg(c, info, &unused, fn)) != MPI_SUCCESS)
            return rc;
        if (!port_name)
            return rx_mpi_err(c, MPI_ERR_ARG, fn, "port_name is NULL");
    }
    return rx_mpi_err(c, MPI_ERR_PORT, fn, "no such port: " RX_NO_RUNTIME_PROCS
                      " or connect jobs");
}

int PMPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                     MPI_Comm *newcomm)
{
    return rx_connect_args(port_name, info, root, comm, newcomm, "MPI_Comm_accept");
}
RX_ALIAS(Comm_accept)

int PMPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                      MPI_Comm *newcomm)
{
    return rx_connect_args(port_name, info, root, comm, newcomm, "MPI_Comm_connect");
}
RX_ALIAS(Comm_connect)

int PMPI_Comm_join(int fd, MPI_Comm *intercomm)
{
    const char *fn = "MPI_Comm_join";
    RX_CHECK_INIT(fn);
    if (!intercomm)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "intercomm is NULL");
    *intercomm = MPI_COMM_NULL;
    if (fd < 0)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "invalid file descriptor %d", fd);
    return rx_mpi_err(NULL, MPI_ERR_UNSUPPORTED_OPERATION, fn, RX_NO_RUNTIME_PROCS
                      " or connect jobs");
}
RX_ALIAS(Comm_join)

static int rx_name_args(const char *service_name, MPI_Info info, const void *port_name,
                        const char *fn)
{
    rx_info_t *unused;
    int rc = rx_info_arg(NULL, info, &unused, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!service_name || !port_name)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "NULL argument");
    return MPI_SUCCESS;
}

int PMPI_Publish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    const char *fn = "MPI_Publish_name";
    RX_CHECK_INIT(fn);
    int rc = rx_name_args(service_name, info, port_name, fn);
    return rc != MPI_SUCCESS ? rc
                             : rx_mpi_err(NULL, MPI_ERR_UNSUPPORTED_OPERATION, fn,
                                          "no name service: rdmx has no ports to publish");
}
RX_ALIAS(Publish_name)

int PMPI_Unpublish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    const char *fn = "MPI_Unpublish_name";
    RX_CHECK_INIT(fn);
    int rc = rx_name_args(service_name, info, port_name, fn);
    return rc != MPI_SUCCESS ? rc
                             : rx_mpi_err(NULL, MPI_ERR_SERVICE, fn, "'%.64s' is not published",
                                          service_name);
}
RX_ALIAS(Unpublish_name)

int PMPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name)
{
    const char *fn = "MPI_Lookup_name";
    RX_CHECK_INIT(fn);
    int rc = rx_name_args(service_name, info, port_name, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    port_name[0] = '\0';
    return rx_mpi_err(NULL, MPI_ERR_NAME, fn, "'%.64s' is not published", service_name);
}
RX_ALIAS(Lookup_name)

int PMPI_Comm_disconnect(MPI_Comm *comm)
{
    const char *fn = "MPI_Comm_disconnect";
    RX_CHECK_INIT(fn);
    if (!comm)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "comm is NULL");
    RX_GET_COMM(c, *comm, fn);
    if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
        return rx_mpi_err(c, MPI_ERR_COMM, fn, "cannot disconnect %s", c->name);
    /* collective, as the standard has it; operations still in flight finish
     * before the communicator is reclaimed, as with MPI_Comm_free */
    int rc = PMPI_Barrier(*comm);
    return rc != MPI_SUCCESS ? rc : PMPI_Comm_free(comm);
}
RX_ALIAS(Comm_disconnect)
