! SPDX-License-Identifier: MIT
! Sessions between Fortran and C (session_c.c): a Fortran session converted
! with MPI_Session_f2c answers in C as in Fortran, a C session converted with
! MPI_Session_c2f is used and finalized in Fortran, MPI_SESSION_NULL is the
! same in both. Any rank count.
program session_mixed
  use mpi_f08
  use rxtest
  use, intrinsic :: iso_c_binding
  implicit none
  interface
    integer(c_int) function rx_c_num_psets(s) bind(C)
      import :: c_int
      integer(c_int), value :: s
    end function
    integer(c_int) function rx_c_new_session() bind(C)
      import :: c_int
    end function
    integer(c_int) function rx_c_is_null(s) bind(C)
      import :: c_int
      integer(c_int), value :: s
    end function
  end interface
  type(MPI_Session) :: s, fromc
  integer :: errs, n, nc
  errs = 0
  call MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, s)
  call MPI_Session_get_num_psets(s, MPI_INFO_NULL, n)
  nc = rx_c_num_psets(s%MPI_VAL)
  if (n < 2 .or. nc /= n) errs = errs + 1
  fromc%MPI_VAL = rx_c_new_session()
  if (fromc == MPI_SESSION_NULL .or. fromc == s) errs = errs + 1
  call MPI_Session_get_num_psets(fromc, MPI_INFO_NULL, n)
  nc = rx_c_num_psets(fromc%MPI_VAL)
  if (n /= nc) errs = errs + 1
  call MPI_Session_finalize(fromc)
  if (rx_c_is_null(fromc%MPI_VAL) == 0) errs = errs + 1
  if (rx_c_is_null(s%MPI_VAL) /= 0) errs = errs + 1
  call MPI_Init()
  call MPI_Session_finalize(s)
  call rx_report(errs)
  call MPI_Finalize()
end program
