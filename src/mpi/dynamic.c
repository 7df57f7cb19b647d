/* SPDX-License-Identifier: MIT
 * Process management (MPI-4.1 §11.8-11.10).
 * - MPI_Comm_spawn / _spawn_multiple: the root opens a port, asks the
 *   launcher to start the processes as a new job (PMI-1 mcmd=spawn, the
 *   port in the new job's key-value store under RX_DYN_PARENT_KEY) and
 *   accepts their connection; the children connect during MPI_Init
 *   (rx_dyn_init) and find the intercommunicator with MPI_Comm_get_parent.
 *   rdmx-run serves spawn; without a launcher that does (a singleton, the
 *   PMIx client) spawn fails with MPI_ERR_SPAWN saying so.
 * - MPI_Open_port / _Close_port / _Comm_accept / _Comm_connect: ports are
 *   listening sockets of this process (dyn_link.c), so they work under any
 *   launcher, between jobs of one node and one user.
 * - MPI_Comm_join: the same connection over the socket given.
 * - name publishing through the launcher's name service (rdmx-run's).
 * - MPI_Comm_disconnect: every member exchanges a message with every other
 *   (so nothing sent before is still in flight), then frees the
 *   communicator; the rings of a link stay mapped until MPI_Finalize, as
 *   other communicators made from the same connection may still use them. */
#include "dyn_impl.h"
#include "info_impl.h"
#include "inter_impl.h"
#include "boot/boot.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

MPI_Comm rx_dyn_parent = MPI_COMM_NULL;

int rx_dyn_init(void)
{
    char port[MPI_MAX_PORT_NAME];
    if (rx_boot_get_preput(RX_DYN_PARENT_KEY, port, sizeof port) != RX_OK)
        return MPI_SUCCESS; /* not spawned */
    rx_comm_t *w = rx_comm_world();
    const char *why = "";
    int fd = w->rank == 0 ? rx_dyn_port_connect(port, &why) : -1;
    return rx_dyn_connect(w, 0, fd, why, 1, MPI_ERR_SPAWN, &rx_dyn_parent,
                          "MPI_Init (connecting to the parents)");
}

int PMPI_Comm_get_parent(MPI_Comm *parent)
{
    RX_CHECK_INIT("MPI_Comm_get_parent");
    if (!parent)
        return rx_mpi_err(NULL, MPI_ERR_ARG, "MPI_Comm_get_parent", "parent is NULL");
    /* freed or disconnected: MPI_COMM_NULL again */
    if (rx_dyn_parent != MPI_COMM_NULL && !rx_comm_get(rx_dyn_parent))
        rx_dyn_parent = MPI_COMM_NULL;
    *parent = rx_dyn_parent;
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

/* ---- spawn ------------------------------------------------------------------ */

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

static void rx_spawn_errcodes(int *errcodes, int n, int code)
{
    if (errcodes != MPI_ERRCODES_IGNORE)
        for (int i = 0; i < n; i++)
            errcodes[i] = code;
}

/* Collective over c: the root (apps valid there, st its argument checks'
 * outcome) has the launcher start them, every member then joins them. */
static int rx_spawn_run(rx_comm_t *c, int root, const rx_boot_app_t *apps, int napps, int total,
                        int st, MPI_Comm *intercomm, int *errcodes, const char *fn)
{
    struct { int status; char why[256]; } r = {RX_OK, ""};
    int fd = -1;
    if (c->rank == root) {
        char port[MPI_MAX_PORT_NAME];
        int lfd = -1;
        const char *w = "";
        if (st != MPI_SUCCESS) {
            r.status = RX_ERR_INVAL;
            snprintf(r.why, sizeof r.why, "the root's arguments were refused");
        } else if ((r.status = rx_dyn_port_open(port, &lfd)) != RX_OK) {
            snprintf(r.why, sizeof r.why, "cannot open a port for the children");
        } else if ((r.status = rx_boot_spawn(apps, napps, RX_DYN_PARENT_KEY, port, r.why,
                                             sizeof r.why)) == RX_OK &&
                   (fd = rx_dyn_port_accept(lfd, &w)) < 0) {
            r.status = RX_ERR_PEER;
            snprintf(r.why, sizeof r.why, "the children did not connect: %s", w);
        }
        if (lfd >= 0)
            close(lfd);
    }
    int rc = rx_coll_bcast(&r, sizeof r, root, c);
    if (rc == RX_OK && r.status != RX_OK) {
        if (fd >= 0)
            close(fd);
        if (c->rank == root)
            rx_spawn_errcodes(errcodes, total, MPI_ERR_SPAWN);
        /* the root reported its own argument error already */
        return c->rank == root && st != MPI_SUCCESS ? st
               : rx_mpi_err(c, MPI_ERR_SPAWN, fn, "%s", r.why);
    }
    if (rc != RX_OK)
        return rx_mpi_err(c, rx_mpi_class_of(rc), fn, "%s", rx_status_string(rc));
    rc = rx_dyn_connect(c, root, fd, "", 0, MPI_ERR_SPAWN, intercomm, fn);
    if (c->rank == root)
        rx_spawn_errcodes(errcodes, total, rc == MPI_SUCCESS ? MPI_SUCCESS : MPI_ERR_SPAWN);
    return rc;
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
    rx_boot_app_t app = {command, argv, maxprocs};
    if (c->rank == root)
        rc = rx_spawn_app(c, command, maxprocs, info, fn);
    return rx_spawn_run(c, root, &app, 1, maxprocs, rc, intercomm, array_of_errcodes, fn);
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
    rx_boot_app_t *apps = NULL;
    int total = 0;
    if (c->rank == root) {
        if (count <= 0)
            rc = rx_mpi_err(c, MPI_ERR_ARG, fn, "count %d is not positive", count);
        else if (!array_of_commands || !array_of_maxprocs || !array_of_info)
            rc = rx_mpi_err(c, MPI_ERR_ARG, fn, "NULL array argument");
        else if (!(apps = calloc((size_t)count, sizeof *apps)))
            rc = rx_mpi_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
        for (int i = 0; rc == MPI_SUCCESS && i < count; i++) {
            rc = rx_spawn_app(c, array_of_commands[i], array_of_maxprocs[i], array_of_info[i], fn);
            apps[i] = (rx_boot_app_t){array_of_commands[i],
                                      array_of_argv == MPI_ARGVS_NULL ? NULL : array_of_argv[i],
                                      array_of_maxprocs[i]};
            total += array_of_maxprocs[i];
        }
    }
    rc = rx_spawn_run(c, root, apps, count, total, rc, intercomm, array_of_errcodes, fn);
    free(apps);
    return rc;
}
RX_ALIAS(Comm_spawn_multiple)

/* ---- ports ------------------------------------------------------------------ */

typedef struct rx_port {
    struct rx_port *next;
    int fd;
    char name[MPI_MAX_PORT_NAME];
} rx_port_t;

static rx_port_t *rx_ports;

static rx_port_t **rx_port_find(const char *name)
{
    rx_port_t **p = &rx_ports;
    while (*p && strncmp((*p)->name, name, MPI_MAX_PORT_NAME))
        p = &(*p)->next;
    return p;
}

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
    rx_port_t *p = calloc(1, sizeof *p);
    if (!p)
        return rx_mpi_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    if (rx_dyn_port_open(p->name, &p->fd) != RX_OK) {
        free(p);
        return rx_mpi_err(NULL, MPI_ERR_PORT, fn, "cannot open a listening socket");
    }
    p->next = rx_ports;
    rx_ports = p;
    memcpy(port_name, p->name, MPI_MAX_PORT_NAME);
    return MPI_SUCCESS;
}
RX_ALIAS(Open_port)

int PMPI_Close_port(const char *port_name)
{
    const char *fn = "MPI_Close_port";
    RX_CHECK_INIT(fn);
    if (!port_name)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "port_name is NULL");
    rx_port_t **pp = rx_port_find(port_name), *p = *pp;
    if (!p)
        return rx_mpi_err(NULL, MPI_ERR_PORT, fn, "'%.64s' is not a port this process opened",
                          port_name);
    *pp = p->next;
    close(p->fd);
    free(p);
    return MPI_SUCCESS;
}
RX_ALIAS(Close_port)

/* MPI_Comm_accept (side 0) and MPI_Comm_connect (side 1). */
static int rx_accept_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                             MPI_Comm *newcomm, int side, const char *fn)
{
    RX_CHECK_INIT(fn);
    rx_comm_t *c;
    int rc = rx_root_args(comm, root, newcomm, &c, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    int fd = -1;
    const char *why = "";
    if (c->rank == root) {
        rx_info_t *unused;
        if (rx_info_arg(NULL, info, &unused, fn) != MPI_SUCCESS)
            why = "the root's info argument is not valid";
        else if (!port_name)
            why = "port_name is NULL at the root";
        else if (side == 1)
            fd = rx_dyn_port_connect(port_name, &why);
        else if (!*rx_port_find(port_name))
            why = "not a port this process opened (MPI_Open_port)";
        else
            fd = rx_dyn_port_accept((*rx_port_find(port_name))->fd, &why);
    }
    return rx_dyn_connect(c, root, fd, why, side, MPI_ERR_PORT, newcomm, fn);
}

int PMPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                     MPI_Comm *newcomm)
{
    return rx_accept_connect(port_name, info, root, comm, newcomm, 0, "MPI_Comm_accept");
}
RX_ALIAS(Comm_accept)

int PMPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                      MPI_Comm *newcomm)
{
    return rx_accept_connect(port_name, info, root, comm, newcomm, 1, "MPI_Comm_connect");
}
RX_ALIAS(Comm_connect)

/* ---- join ------------------------------------------------------------------- */

/* Both ends call MPI_Comm_join alike: the one with the lower (pid, random)
 * pair accepts. */
static int rx_join_side(int fd, int *side)
{
    struct { int32_t pid; uint32_t pad; uint64_t rnd; } mine = {(int32_t)getpid(), 0, 0}, theirs;
    if (getrandom(&mine.rnd, sizeof mine.rnd, 0) != (ssize_t)sizeof mine.rnd)
        mine.rnd = (uint64_t)(uintptr_t)&mine ^ (uint64_t)getpid();
    size_t off = 0;
    while (off < sizeof mine) {
        ssize_t n = send(fd, (char *)&mine + off, sizeof mine - off, MSG_NOSIGNAL);
        if (n <= 0)
            return RX_ERR_PEER;
        off += (size_t)n;
    }
    for (off = 0; off < sizeof theirs;) {
        ssize_t n = recv(fd, (char *)&theirs + off, sizeof theirs - off, 0);
        if (n <= 0)
            return RX_ERR_PEER;
        off += (size_t)n;
    }
    if (mine.pid == theirs.pid && mine.rnd == theirs.rnd)
        return RX_ERR_INVAL; /* joined to itself */
    *side = mine.pid != theirs.pid ? mine.pid > theirs.pid : mine.rnd > theirs.rnd;
    return RX_OK;
}

int PMPI_Comm_join(int fd, MPI_Comm *intercomm)
{
    const char *fn = "MPI_Comm_join";
    RX_CHECK_INIT(fn);
    if (!intercomm)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "intercomm is NULL");
    *intercomm = MPI_COMM_NULL;
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISSOCK(sb.st_mode))
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "%d is not a socket", fd);
    int side, rc = rx_join_side(fd, &side);
    if (rc != RX_OK)
        return rx_mpi_err(NULL, MPI_ERR_OTHER, fn, rc == RX_ERR_INVAL
                          ? "the socket leads back to this process"
                          : "the socket failed or the other end closed it");
    int own = dup(fd); /* the connection closes its descriptor; fd stays the caller's */
    if (own < 0)
        return rx_mpi_err(NULL, MPI_ERR_OTHER, fn, "dup of the socket failed");
    rx_comm_t *self = rx_comm_get(MPI_COMM_SELF);
    return rx_dyn_connect(self, 0, own, "", side, MPI_ERR_OTHER, intercomm, fn);
}
RX_ALIAS(Comm_join)

/* ---- names ------------------------------------------------------------------ */

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

#define RX_NO_NAME_SERVICE "no name service: the launcher offers none (run under rdmx-run)"

int PMPI_Publish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    const char *fn = "MPI_Publish_name";
    RX_CHECK_INIT(fn);
    int rc = rx_name_args(service_name, info, port_name, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = rx_boot_publish(service_name, port_name);
    if (rc == RX_ERR_UNSUPPORTED)
        return rx_mpi_err(NULL, MPI_ERR_UNSUPPORTED_OPERATION, fn, RX_NO_NAME_SERVICE);
    if (rc != RX_OK)
        return rx_mpi_err(NULL, MPI_ERR_SERVICE, fn, "'%.64s' %s", service_name,
                          rc == RX_ERR_INVAL ? "is published already, is empty or holds "
                          "spaces" : "could not be published (the launcher failed)");
    return MPI_SUCCESS;
}
RX_ALIAS(Publish_name)

int PMPI_Unpublish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    const char *fn = "MPI_Unpublish_name";
    RX_CHECK_INIT(fn);
    int rc = rx_name_args(service_name, info, port_name, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = rx_boot_unpublish(service_name);
    if (rc == RX_ERR_UNSUPPORTED)
        return rx_mpi_err(NULL, MPI_ERR_SERVICE, fn, "'%.64s' is not published (%s)",
                          service_name, RX_NO_NAME_SERVICE);
    if (rc != RX_OK)
        return rx_mpi_err(NULL, MPI_ERR_SERVICE, fn, "'%.64s' is not published", service_name);
    return MPI_SUCCESS;
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
    rc = rx_boot_lookup(service_name, port_name, MPI_MAX_PORT_NAME);
    if (rc == RX_OK)
        return MPI_SUCCESS;
    port_name[0] = '\0';
    return rx_mpi_err(NULL, MPI_ERR_NAME, fn, "'%.64s' is not published%s", service_name,
                      rc == RX_ERR_UNSUPPORTED ? " (" RX_NO_NAME_SERVICE ")" : "");
}
RX_ALIAS(Lookup_name)

/* ---- disconnect ----------------------------------------------------------- */

int PMPI_Comm_disconnect(MPI_Comm *comm)
{
    const char *fn = "MPI_Comm_disconnect";
    RX_CHECK_INIT(fn);
    if (!comm)
        return rx_mpi_err(NULL, MPI_ERR_ARG, fn, "comm is NULL");
    RX_GET_COMM(c, *comm, fn);
    if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
        return rx_mpi_err(c, MPI_ERR_COMM, fn, "cannot disconnect %s", c->name);
    /* collective: one message between every pair of members, each sent
     * after everything the member sent before on any context, so once all
     * have arrived nothing of the communicator is in flight */
    if (c->remote)
        rx_inter_drain(c);
    int n = c->remote ? c->remote->size : c->size, tag = rx_coll_tag(c), rc = RX_OK;
    char s = 0, r;
    /* eager one-byte sends complete at once: all leave before any wait */
    for (int i = 0; rc == RX_OK && i < n; i++)
        if (c->remote || i != c->rank)
            rc = rx_coll_send(&s, 1, i, tag, c);
    for (int i = 0; rc == RX_OK && i < n; i++)
        if (c->remote || i != c->rank)
            rc = rx_coll_recv(&r, 1, i, tag, c);
    if (rc != RX_OK)
        return rx_mpi_err(c, rx_mpi_class_of(rc), fn, "%s", rx_status_string(rc));
    if (*comm == rx_dyn_parent)
        rx_dyn_parent = MPI_COMM_NULL;
    return PMPI_Comm_free(comm);
}
RX_ALIAS(Comm_disconnect)
