/* SPDX-License-Identifier: MIT
 * Error classes and codes added by the program (errors_user.c), for
 * MPI_Error_class, MPI_Error_string and MPI_LASTUSEDCODE. */
#ifndef RX_MPI_ERRORS_USER_H
#define RX_MPI_ERRORS_USER_H

#include "mpi_impl.h"

/* The largest error value in use (MPI_LASTUSEDCODE). */
int rx_err_last_used(void);
/* 1 and *cls set if code was added by the program, else 0. */
int rx_err_user_class(int code, int *cls);
/* Its string ("" until one is set), or NULL if the program did not add code. */
const char *rx_err_user_string(int code);

#endif
