/* SPDX-License-Identifier: MIT
 * Internal status codes. Every internal function returns one of these;
 * the MPI binding maps them to MPI error classes. */
#ifndef RX_STATUS_H
#define RX_STATUS_H

typedef enum {
    RX_OK = 0,
    RX_INPROGRESS = 1,      /* operation posted, completes later */
    RX_ERR_AGAIN = -1,      /* no resources right now, retry after progress */
    RX_ERR_NOMEM = -2,
    RX_ERR_INVAL = -3,
    RX_ERR_TRUNCATE = -4,
    RX_ERR_IO = -5,         /* system call failed; the errno text was logged */
    RX_ERR_UNSUPPORTED = -6,
    RX_ERR_NOTFOUND = -7,
    RX_ERR_PEER = -8,       /* a peer process failed or the job is ending */
    RX_ERR_INTERN = -9,
    RX_ERR_OVERFLOW = -10,   /* a size, extent or count * size does not fit its type */
} rx_status_t;

const char *rx_status_string(int status);

#endif
