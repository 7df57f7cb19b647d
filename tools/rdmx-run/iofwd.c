/* SPDX-License-Identifier: MIT
 * Output forwarding: each rank writes into its own pipes, and the launcher,
 * the only writer of its stdout and stderr, copies complete lines across. One
 * thread writing whole lines is what keeps lines of different ranks from
 * interleaving. A line longer than RX_RUN_LINE_CAP goes out in pieces. */
#include "run.h"
#include "util/status.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

static int rx_run_out_broken[3]; /* the reader of fd 1 or 2 went away */

int rx_run_stream_init(rx_run_stream_t *s, int fd, int out_fd)
{
    s->cap = 65536;
    s->buf = malloc(s->cap);
    if (!s->buf) {
        close(fd);
        s->fd = -1;
        return RX_ERR_NOMEM;
    }
    s->fd = fd;
    s->out_fd = out_fd;
    s->len = 0;
    s->midline = 0;
    fcntl(fd, F_SETFL, O_NONBLOCK);
    return RX_OK;
}

/* Write everything, waiting if the launcher's own output is non-blocking. */
static void rx_run_writev_all(int fd, struct iovec *iov, int cnt)
{
    while (cnt > 0 && !rx_run_out_broken[fd]) {
        ssize_t n = writev(fd, iov, cnt);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN) {
                struct pollfd p = {.fd = fd, .events = POLLOUT};
                poll(&p, 1, 100);
                continue;
            }
            rx_run_out_broken[fd] = 1; /* EPIPE and the like: drop the output */
            return;
        }
        while (cnt > 0 && (size_t)n >= iov->iov_len) {
            n -= (ssize_t)iov->iov_len;
            iov++;
            cnt--;
        }
        if (cnt > 0) {
            iov->iov_base = (char *)iov->iov_base + n;
            iov->iov_len -= (size_t)n;
        }
    }
}

/* Forward buf[0, len): whole lines, or a piece of one when `piece`. */
static void rx_run_forward(const rx_run_job_t *job, const rx_run_rank_t *r, rx_run_stream_t *s,
                           size_t len, int piece)
{
    if (!job->opts->tag_output) {
        struct iovec iov = {s->buf, len};
        rx_run_writev_all(s->out_fd, &iov, 1);
        return;
    }
    char tag[24];
    int tlen = snprintf(tag, sizeof tag, "[%d] ", r->rank);
    size_t off = 0;
    while (off < len) {
        char *nl = memchr(s->buf + off, '\n', len - off);
        size_t end = nl ? (size_t)(nl - s->buf) + 1 : len;
        struct iovec iov[3];
        int cnt = 0;
        if (!s->midline)
            iov[cnt++] = (struct iovec){tag, (size_t)tlen};
        iov[cnt++] = (struct iovec){s->buf + off, end - off};
        s->midline = !nl;
        if (!nl && !piece) { /* a last line without its newline: end it here */
            iov[cnt++] = (struct iovec){"\n", 1};
            s->midline = 0;
        }
        rx_run_writev_all(s->out_fd, iov, cnt);
        off = end;
    }
}

void rx_run_stream_input(rx_run_job_t *job, rx_run_rank_t *r, rx_run_stream_t *s)
{
    if (s->fd >= 0) {
        if (s->len == s->cap) {
            size_t ncap = s->cap * 2;
            char *nb = ncap <= RX_RUN_LINE_CAP ? realloc(s->buf, ncap) : NULL;
            if (nb) {
                s->buf = nb;
                s->cap = ncap;
            } else {
                /* no newline in a full buffer: it goes out as a piece of a line */
                rx_run_forward(job, r, s, s->len, 1);
                s->midline = 1;
                s->len = 0;
            }
        }
        ssize_t n = read(s->fd, s->buf + s->len, s->cap - s->len);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            return;
        if (n > 0) {
            s->len += (size_t)n;
            char *last = memrchr(s->buf + s->len - (size_t)n, '\n', (size_t)n);
            if (last) {
                size_t whole = (size_t)(last - s->buf) + 1;
                rx_run_forward(job, r, s, whole, 0);
                s->len -= whole;
                memmove(s->buf, s->buf + whole, s->len);
            }
            return;
        }
        close(s->fd); /* end of file, or an error that ends the stream alike */
        s->fd = -1;
    }
    if (s->len) {
        rx_run_forward(job, r, s, s->len, 0);
        s->len = 0;
    } else if (s->midline && job->opts->tag_output) {
        struct iovec iov = {"\n", 1};
        rx_run_writev_all(s->out_fd, &iov, 1);
    }
    s->midline = 0;
    free(s->buf);
    s->buf = NULL;
    s->cap = 0;
}

void rx_run_stdin_close(rx_run_job_t *job)
{
    if (job->stdin_pipe >= 0)
        close(job->stdin_pipe);
    job->stdin_pipe = -1;
    job->stdin_open = 0;
    job->stdin_len = job->stdin_off = 0;
}

void rx_run_stdin_output(rx_run_job_t *job)
{
    while (job->stdin_pipe >= 0 && job->stdin_off < job->stdin_len) {
        ssize_t n = write(job->stdin_pipe, job->stdin_buf + job->stdin_off,
                          job->stdin_len - job->stdin_off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return;
        if (n < 0) { /* rank 0 closed its stdin */
            rx_run_stdin_close(job);
            return;
        }
        job->stdin_off += (size_t)n;
    }
    job->stdin_len = job->stdin_off = 0;
    if (!job->stdin_open)
        rx_run_stdin_close(job);
}

void rx_run_stdin_input(rx_run_job_t *job)
{
    ssize_t n = read(0, job->stdin_buf, sizeof job->stdin_buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        rx_run_stdin_close(job); /* end of input: rank 0 reads EOF */
        return;
    }
    job->stdin_len = (size_t)n;
    job->stdin_off = 0;
    rx_run_stdin_output(job);
}
