/* SPDX-License-Identifier: MIT
 * Shared by the MPI-IO tests: a temporary directory per run (made by rank 0
 * under $TMPDIR or /tmp, removed with everything in it at the end), file
 * names in it, and whole-file reads for checking exact byte layouts. */
#ifndef IOTEST_H
#define IOTEST_H

#include "../rxtest.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

static char iot_dir[512];

/* Make the directory (rank 0) and tell everyone its name. */
RXT_FN void iot_setup(void)
{
    if (rxt_rank == 0) {
        const char *t = getenv("TMPDIR");
        snprintf(iot_dir, sizeof iot_dir, "%s/rdmx-io-%s-XXXXXX", t && *t ? t : "/tmp", rxt_name);
        if (!mkdtemp(iot_dir))
            iot_dir[0] = 0;
    }
    RXT_MPI(MPI_Bcast(iot_dir, sizeof iot_dir, MPI_CHAR, 0, MPI_COMM_WORLD));
    if (!iot_dir[0])
        RXT_FATAL("cannot make a temporary directory");
}

/* A path in the directory. */
RXT_FN const char *iot_path(const char *name)
{
    static char p[4][700];
    static int next;
    char *s = p[next++ % 4];
    snprintf(s, sizeof p[0], "%s/%s", iot_dir, name);
    return s;
}

/* Remove the directory and all in it (rank 0, after everyone is done). */
RXT_FN void iot_cleanup(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (rxt_rank != 0)
        return;
    DIR *d = opendir(iot_dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                char p[1024];
                snprintf(p, sizeof p, "%s/%s", iot_dir, e->d_name);
                unlink(p);
            }
        closedir(d);
    }
    if (rmdir(iot_dir) != 0)
        rxt_vfail(__FILE__, __LINE__, "rmdir", "cannot remove %s", iot_dir);
}

/* Read a whole file with POSIX calls; returns its size (-1 if missing). */
RXT_FN long iot_slurp(const char *path, void *buf, size_t max)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    long n = 0;
    ssize_t r;
    while ((size_t)n < max && (r = read(fd, (char *)buf + n, max - (size_t)n)) > 0)
        n += r;
    struct stat st;
    fstat(fd, &st);
    close(fd);
    return (long)st.st_size;
}

/* The error class of a return code. */
RXT_FN int iot_class(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

#endif
