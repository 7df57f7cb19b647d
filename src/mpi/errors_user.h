/* SPDX-License-Identifier: MIT
 * Error classes and codes added by the program (errors_user.c), for
 * MPI_Error_class, MPI_Error_string and MPI_LASTUSEDCODE; error handlers of
 * objects that are not communicators (errors.c). */
#ifndef RX_MPI_ERRORS_USER_H
#define RX_MPI_ERRORS_USER_H

#include "mpi_impl.h"

/* Report an error on an object other than a communicator (a session): its
 * handler eh is called with object's handle, or the class returned, or the
 * job ended (MPI_ERRORS_ARE_FATAL). */
int rx_mpi_err_handler(int eh, int object, int cls, const char *fn, const char *msg);
/* The largest error value in use (MPI_LASTUSEDCODE). */
int rx_err_last_used(void);
/* 1 and *cls set if code was added by the program, else 0. */
int rx_err_user_class(int code, int *cls);
/* Its string ("" until one is set), or NULL if the program did not add code. */
const char *rx_err_user_string(int code);

#endif
