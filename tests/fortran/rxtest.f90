! SPDX-License-Identifier: MIT
! What the Fortran tests share (as tests/mpi/rxtest.h for C): the verdict.
! f77_basic.f has its own, to use nothing but mpif.h.
module rxtest
  use mpi_f08, only: MPI_Allreduce, MPI_Comm_rank, MPI_IN_PLACE, MPI_INTEGER, MPI_SUM, &
                     MPI_COMM_WORLD
  implicit none
  private
  public :: rx_report
contains
  ! Sum errs over MPI_COMM_WORLD; rank 0 prints "No Errors" or the count.
  subroutine rx_report(errs)
    integer, intent(inout) :: errs
    integer :: rank
    call MPI_Allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    if (rank == 0) then
      if (errs == 0) then
        print '(a)', ' No Errors'
      else
        print '(a,i6)', ' Found errors: ', errs
      end if
    end if
  end subroutine
end module
