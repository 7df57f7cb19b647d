/* SPDX-License-Identifier: MIT
 * The C half of session_mixed.f90: sessions handed between the languages
 * through MPI_Session_f2c and MPI_Session_c2f. */
#include <mpi.h>

/* A Fortran session's number of process sets, asked in C (-1 on error). */
int rx_c_num_psets(MPI_Fint fsession)
{
    int n;
    return MPI_Session_get_num_psets(MPI_Session_f2c(fsession), MPI_INFO_NULL, &n) ==
                   MPI_SUCCESS ? n : -1;
}

/* A session opened in C, for Fortran to use and finalize. */
MPI_Fint rx_c_new_session(void)
{
    MPI_Session s;
    if (MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s) != MPI_SUCCESS)
        return MPI_Session_c2f(MPI_SESSION_NULL);
    return MPI_Session_c2f(s);
}

/* Whether a Fortran handle is MPI_SESSION_NULL in C. */
int rx_c_is_null(MPI_Fint fsession)
{
    return MPI_Session_f2c(fsession) == MPI_SESSION_NULL;
}
