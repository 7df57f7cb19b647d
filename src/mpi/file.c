/* SPDX-License-Identifier: MIT
 * MPI-IO file manipulation (MPI-4.1 §14.2): open, close, delete, size,
 * group, access mode, info, atomicity and sync.
 *
 * Opening: rank 0 opens first (it alone creates, and alone applies
 * MPI_MODE_EXCL), then the others open the file it made; every process
 * returns an error when one failed. Each open has its own duplicate of the
 * communicator, so the file's collectives never match the program's
 * messages, and an id from rank 0 that names its shared-pointer side file. */
#define _GNU_SOURCE
#include "file_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

rx_htab_t rx_file_table = {.kind = RX_KIND_FILE};

#define RX_MODE_ALL                                                                         \
    (MPI_MODE_RDONLY | MPI_MODE_RDWR | MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_EXCL |  \
     MPI_MODE_DELETE_ON_CLOSE | MPI_MODE_UNIQUE_OPEN | MPI_MODE_SEQUENTIAL | MPI_MODE_APPEND)

/* The class of an invalid access mode, or 0. */
static int rx_file_amode_class(int amode, const char **why)
{
    int rw = !!(amode & MPI_MODE_RDONLY) + !!(amode & MPI_MODE_RDWR) + !!(amode & MPI_MODE_WRONLY);
    *why = NULL;
    if (amode & ~RX_MODE_ALL)
        *why = "unknown bits in the access mode";
    else if (rw != 1)
        *why = "exactly one of MPI_MODE_RDONLY, MPI_MODE_RDWR and MPI_MODE_WRONLY is required";
    else if ((amode & MPI_MODE_RDONLY) && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)))
        *why = "MPI_MODE_CREATE and MPI_MODE_EXCL need write access";
    else if ((amode & MPI_MODE_RDWR) && (amode & MPI_MODE_SEQUENTIAL))
        *why = "MPI_MODE_SEQUENTIAL with MPI_MODE_RDWR";
    return *why ? MPI_ERR_AMODE : 0;
}

/* File names may carry a file-system prefix ("ufs:name"), as ROMIO's do. */
static const char *rx_file_strip_prefix(const char *name)
{
    static const char *const prefixes[] = {"ufs:", "nfs:", "lustre:", "gpfs:", "pvfs2:"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
            return name + strlen(prefixes[i]);
    return name;
}

/* open(2) for this process; 0 or errno. Write-only files are opened for
 * reading too where permitted, so atomic mode can take read locks. */
static int rx_file_sys_open(const char *path, int amode, int creator, int *fd)
{
    int flags = O_CLOEXEC;
    if (creator && (amode & MPI_MODE_CREATE))
        flags |= O_CREAT;
    if (creator && (amode & MPI_MODE_EXCL))
        flags |= O_EXCL;
    int acc = amode & MPI_MODE_RDONLY ? O_RDONLY : O_RDWR;
    *fd = open(path, flags | acc, 0666);
    if (*fd < 0 && errno == EACCES && (amode & MPI_MODE_WRONLY))
        *fd = open(path, flags | O_WRONLY, 0666);
    return *fd < 0 ? errno : 0;
}

/* What rank 0 tells the others after its open. */
struct rx_file_opened {
    int cls;
    char id[48];
};

int PMPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh)
{
    const char *fn = "MPI_File_open";
    RX_CHECK_INIT(fn);
    rx_comm_t *c = rx_comm_get(comm);
    if (!c)
        return rx_file_err(NULL, MPI_ERR_COMM, fn, "invalid communicator");
    int inter = 0;
    PMPI_Comm_test_inter(comm, &inter);
    if (inter)
        return rx_file_err(NULL, MPI_ERR_COMM, fn, "an intercommunicator");
    if (!fh)
        return rx_file_err(NULL, MPI_ERR_ARG, fn, "fh is NULL");
    int nkeys;
    if (info != MPI_INFO_NULL && PMPI_Info_get_nkeys(info, &nkeys) != MPI_SUCCESS)
        return rx_file_err(NULL, MPI_ERR_INFO, fn, "invalid info object");
    *fh = MPI_FILE_NULL;

    /* argument errors must not leave the others waiting in the collectives */
    const char *why = NULL;
    int cls = 0;
    if (!filename || !*filename) {
        cls = MPI_ERR_BAD_FILE;
        why = "no file name";
    } else {
        cls = rx_file_amode_class(amode, &why);
    }
    MPI_Comm dup;
    int rc = PMPI_Comm_dup(comm, &dup);
    if (rc != MPI_SUCCESS)
        return rx_file_err(NULL, rc, fn, "cannot duplicate the communicator");
    PMPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    int rank, size;
    PMPI_Comm_rank(dup, &rank);
    PMPI_Comm_size(dup, &size);
    int modes[2] = {amode, -amode}, agreed[2];
    PMPI_Allreduce(modes, agreed, 2, MPI_INT, MPI_MAX, dup);
    int all = rx_file_agree(dup, cls);
    if (!all && agreed[0] != -agreed[1]) {
        cls = all = MPI_ERR_NOT_SAME;
        why = "the processes passed different access modes";
    }
    if (all) {
        PMPI_Comm_free(&dup);
        return cls ? rx_file_err(NULL, cls, fn, "%s", why)
                   : rx_file_err(NULL, all, fn, "another process's arguments are invalid");
    }

    const char *path = rx_file_strip_prefix(filename);
    int fd = -1, err = 0;
    struct rx_file_opened op = {0, ""};
    if (rank == 0) {
        static unsigned opens;
        err = rx_file_sys_open(path, amode, 1, &fd);
        op.cls = rx_file_errno_class(err);
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        snprintf(op.id, sizeof op.id, "%ld.%u.%lx", (long)getpid(), opens++,
                 (unsigned long)(ts.tv_sec * 1000000000L + ts.tv_nsec));
    }
    PMPI_Bcast(&op, (int)sizeof op, MPI_BYTE, 0, dup);
    if (op.cls) {
        PMPI_Comm_free(&dup);
        return rx_file_err(NULL, op.cls, fn, "%s: %s", path,
                           rank == 0 ? strerror(err) : "rank 0 could not open it");
    }
    if (rank != 0)
        err = rx_file_sys_open(path, amode, 0, &fd);
    cls = rx_file_errno_class(err);
    all = rx_file_agree(dup, cls);
    rx_file_t *f = NULL;
    if (!all) {
        f = calloc(1, sizeof *f);
        if (f && !(f->path = strdup(path))) {
            free(f);
            f = NULL;
        }
        if (!f)
            cls = MPI_ERR_NO_MEM;
        all = rx_file_agree(dup, cls);
    }
    if (all) {
        if (fd >= 0)
            close(fd);
        if (f)
            free(f->path);
        free(f);
        PMPI_Comm_free(&dup);
        return cls ? rx_file_err(NULL, cls, fn, "%s: %s", path, strerror(err ? err : ENOMEM))
                   : rx_file_err(NULL, all, fn, "%s: another process could not open it", path);
    }
    f->comm = dup;
    f->rank = rank;
    f->size = size;
    f->amode = amode;
    f->fd = fd;
    f->errhandler = MPI_ERRORS_RETURN;
    f->info = MPI_INFO_NULL;
    if (info != MPI_INFO_NULL)
        PMPI_Info_dup(info, &f->info);
    rx_io_shfp_name(&f->shfp, path, op.id);
    rx_file_view_set(f, 0, MPI_BYTE, MPI_BYTE, "native");
    if (amode & MPI_MODE_APPEND) { /* both pointers start at the end */
        struct stat st;
        f->fp = fstat(fd, &st) == 0 ? st.st_size : 0;
        if (rank == 0 && f->fp)
            rx_io_shfp_set(&f->shfp, f->fp);
        PMPI_Barrier(dup);
    }
    f->index = rx_htab_add(&rx_file_table, f, 1);
    cls = rx_file_agree(dup, f->index < 0 ? MPI_ERR_NO_MEM : 0);
    if (cls) {
        if (f->index >= 0)
            rx_htab_del(&rx_file_table, f->index);
        close(fd);
        rx_file_view_free(f);
        if (f->info != MPI_INFO_NULL)
            PMPI_Info_free(&f->info);
        PMPI_Comm_free(&f->comm);
        free(f->path);
        free(f);
        return rx_file_err(NULL, cls, fn, "out of file handles");
    }
    *fh = rx_file_handle(f);
    return MPI_SUCCESS;
}
RX_ALIAS(File_open)

int PMPI_File_close(MPI_File *fh)
{
    const char *fn = "MPI_File_close";
    RX_CHECK_INIT(fn);
    if (!fh)
        return rx_file_err(NULL, MPI_ERR_ARG, fn, "fh is NULL");
    RX_GET_FILE(f, *fh, fn);
    int err = close(f->fd) == 0 ? 0 : errno;
    rx_io_shfp_close(&f->shfp);
    PMPI_Barrier(f->comm); /* nobody uses the file or its side file any more */
    if (f->rank == 0) {
        rx_io_shfp_remove(&f->shfp);
        if ((f->amode & MPI_MODE_DELETE_ON_CLOSE) && unlink(f->path) != 0 && !err)
            err = errno;
    }
    int cls = rx_file_errno_class(err);
    if (cls)
        cls = rx_file_err(f, cls, fn, "%s: %s", f->path, strerror(err));
    rx_htab_del(&rx_file_table, f->index);
    rx_file_view_free(f);
    rx_errh_detach(f->errhandler);
    if (f->info != MPI_INFO_NULL)
        PMPI_Info_free(&f->info);
    PMPI_Comm_free(&f->comm);
    *fh = MPI_FILE_NULL;
    free(f->path);
    free(f);
    return cls;
}
RX_ALIAS(File_close)

int PMPI_File_delete(const char *filename, MPI_Info info)
{
    const char *fn = "MPI_File_delete";
    RX_CHECK_INIT(fn);
    if (!filename || !*filename)
        return rx_file_err(NULL, MPI_ERR_BAD_FILE, fn, "no file name");
    int nkeys;
    if (info != MPI_INFO_NULL && PMPI_Info_get_nkeys(info, &nkeys) != MPI_SUCCESS)
        return rx_file_err(NULL, MPI_ERR_INFO, fn, "invalid info object");
    const char *path = rx_file_strip_prefix(filename);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return rx_file_err(NULL, MPI_ERR_BAD_FILE, fn, "%s: a directory", path);
    if (unlink(path) != 0)
        return rx_file_err(NULL, rx_file_errno_class(errno), fn, "%s: %s", path, strerror(errno));
    return MPI_SUCCESS;
}
RX_ALIAS(File_delete)

/* Collective size changes: rank 0 changes the file, the others learn how it
 * went (and wait for it). */
static int rx_file_resize(MPI_File fh, MPI_Offset size, int grow_only, const char *fn)
{
    RX_CHECK_INIT(fn);
    RX_GET_FILE(f, fh, fn);
    int cls = 0;
    const char *why = "";
    if (size < 0) {
        cls = MPI_ERR_ARG;
        why = "negative size";
    } else if (f->amode & MPI_MODE_RDONLY) {
        cls = MPI_ERR_READ_ONLY;
        why = "the file is open read-only";
    } else if (f->amode & MPI_MODE_SEQUENTIAL) {
        cls = MPI_ERR_UNSUPPORTED_OPERATION;
        why = "the file is open for sequential access";
    }
    MPI_Offset sizes[2] = {size, -size}, agreed[2];
    PMPI_Allreduce(sizes, agreed, 2, MPI_OFFSET, MPI_MAX, f->comm);
    if (!cls && agreed[0] != -agreed[1]) {
        cls = MPI_ERR_NOT_SAME;
        why = "the processes passed different sizes";
    }
    int all = rx_file_agree(f->comm, cls);
    if (all)
        return rx_file_err(f, cls ? cls : all, fn, "%s",
                           cls ? why : "another process's arguments are invalid");
    int res[2] = {0, 0};
    if (f->rank == 0) {
        struct stat st;
        if (fstat(f->fd, &st) != 0)
            res[1] = errno;
        else if (!grow_only)
            res[1] = ftruncate(f->fd, (off_t)size) == 0 ? 0 : errno;
        else if (size > st.st_size)
            res[1] = posix_fallocate(f->fd, 0, (off_t)size);
        res[0] = rx_file_errno_class(res[1]);
    }
    PMPI_Bcast(res, 2, MPI_INT, 0, f->comm);
    return res[0] ? rx_file_err(f, res[0], fn, "%s: %s", f->path, strerror(res[1])) : MPI_SUCCESS;
}

int PMPI_File_set_size(MPI_File fh, MPI_Offset size)
{
    return rx_file_resize(fh, size, 0, "MPI_File_set_size");
}
RX_ALIAS(File_set_size)

int PMPI_File_preallocate(MPI_File fh, MPI_Offset size)
{
    return rx_file_resize(fh, size, 1, "MPI_File_preallocate");
}
RX_ALIAS(File_preallocate)

int PMPI_File_get_size(MPI_File fh, MPI_Offset *size)
{
    const char *fn = "MPI_File_get_size";
    RX_CHECK_INIT(fn);
    RX_GET_FILE(f, fh, fn);
    if (!size)
        return rx_file_err(f, MPI_ERR_ARG, fn, "size is NULL");
    struct stat st;
    if (fstat(f->fd, &st) != 0)
        return rx_file_err(f, MPI_ERR_IO, fn, "%s: %s", f->path, strerror(errno));
    *size = (MPI_Offset)st.st_size;
    return MPI_SUCCESS;
}
RX_ALIAS(File_get_size)

int PMPI_File_get_group(MPI_File fh, MPI_Group *group)
{
    const char *fn = "MPI_File_get_group";
    RX_CHECK_INIT(fn);
    RX_GET_FILE(f, fh, fn);
    if (!group)
        return rx_file_err(f, MPI_ERR_ARG, fn, "group is NULL");
    return PMPI_Comm_group(f->comm, group);
}
RX_ALIAS(File_get_group)

int PMPI_File_get_amode(MPI_File fh, int *amode)
{
    const char *fn = "MPI_File_get_amode";
    RX_CHECK_INIT(fn);
    RX_GET_FILE(f, fh, fn);
    if (!amode)
        return rx_file_err(f, MPI_ERR_ARG, fn, "amode is NULL");
    *amode = f->amode;
    return MPI_SUCCESS;
}
RX_ALIAS(File_get_amode)

int PMPI_File_set_info(MPI_File fh, MPI_Info info)
{
    const char *fn = "MPI_File_set_info";
    RX_CHECK_INIT(fn);
    RX_GET_FILE(f, fh, fn);
    int nkeys, cls = 0;
    if (info != MPI_INFO_NULL && PMPI_Info_get_nkeys(info, &nkeys) != MPI_SUCCESS)
        cls = MPI_ERR_INFO;
    int all = rx_file_agree(f->comm, cls);
    if (all)
        return rx_file_err(f, cls ? cls : all, fn, "%s",
                           cls ? "invalid info object" : "another process's info is invalid");
    MPI_Info copy = MPI_INFO_NULL;
    if (info != MPI_INFO_NULL && PMPI_Info_dup(info, &copy) != MPI_SUCCESS)
        return rx_file_err(f, MPI_ERR_NO_MEM, fn, "out of memory");
    if (f->info != MPI_INFO_NULL)
        PMPI_Info_free(&f->info);
    f->info = copy;
    return MPI_SUCCESS;
}
RX_ALIAS(File_set_info)

int PMPI_File_get_info(MPI_File fh, MPI_Info *info_used)
{
    const char *fn = "MPI_File_get_info";
    RX_CHECK_INIT(fn);
    RX_GET_FILE(f, fh, fn);
    if (!info_used)
        return rx_file_err(f, MPI_ERR_ARG, fn, "info_used is NULL");
    int rc = f->info != MPI_INFO_NULL ? PMPI_Info_dup(f->info, info_used)
                                      : PMPI_Info_create(info_used);
    return rc == MPI_SUCCESS ? rc : rx_file_err(f, rc, fn, "cannot make the info object");
}
RX_ALIAS(File_get_info)

int PMPI_File_set_atomicity(MPI_File fh, int flag)
{
    const char *fn = "MPI_File_set_atomicity";
    RX_CHECK_INIT(fn);
    RX_GET_FILE(f, fh, fn);
    int flags[2] = {flag != 0, -(flag != 0)}, agreed[2];
    PMPI_Allreduce(flags, agreed, 2, MPI_INT, MPI_MAX, f->comm);
    if (agreed[0] != -agreed[1])
        return rx_file_err(f, MPI_ERR_NOT_SAME, fn, "the processes passed different flags");
    f->atomic = flag != 0;
    return MPI_SUCCESS;
}
RX_ALIAS(File_set_atomicity)

int PMPI_File_get_atomicity(MPI_File fh, int *flag)
{
    const char *fn = "MPI_File_get_atomicity";
    RX_CHECK_INIT(fn);
    RX_GET_FILE(f, fh, fn);
    if (!flag)
        return rx_file_err(f, MPI_ERR_ARG, fn, "flag is NULL");
    *flag = f->atomic;
    return MPI_SUCCESS;
}
RX_ALIAS(File_get_atomicity)

/* Writes reach the file when the call returns (no cache in this layer);
 * sync makes them durable. */
int PMPI_File_sync(MPI_File fh)
{
    const char *fn = "MPI_File_sync";
    RX_CHECK_INIT(fn);
    RX_GET_FILE(f, fh, fn);
    if (fsync(f->fd) != 0 && errno != EINVAL && errno != EROFS)
        return rx_file_err(f, rx_file_errno_class(errno), fn, "%s: %s", f->path,
                           strerror(errno));
    return MPI_SUCCESS;
}
RX_ALIAS(File_sync)
