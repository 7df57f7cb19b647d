! SPDX-License-Identifier: MIT
! What the Fortran tests share (as tests/mpi/rxtest.h for C): the verdict.
! The mpif.h programs call rx_report77, which uses mpif.h for its MPI calls.
module rxtest
  use mpi_f08, only: MPI_Allreduce, MPI_Comm_rank, MPI_IN_PLACE, MPI_INTEGER, MPI_SUM, &
                     MPI_COMM_WORLD
  implicit none
  private
  public :: rx_report, rx_verdict
contains
  ! Sum errs over MPI_COMM_WORLD; rank 0 prints "No Errors" or the count.
  subroutine rx_report(errs)
    integer, intent(inout) :: errs
    integer :: rank
    call MPI_Allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call rx_verdict(rank, errs)
  end subroutine

  ! What rank 0 prints for errs errors in all.
  subroutine rx_verdict(rank, errs)
    integer, intent(in) :: rank, errs
    if (rank == 0) then
      if (errs == 0) then
        print '(a)', ' No Errors'
      else
        print '(a,i6)', ' Found errors: ', errs
      end if
    end if
  end subroutine
end module

! rx_report for the mpif.h programs.
subroutine rx_report77(errs)
  use rxtest, only: rx_verdict
  implicit none
  include 'mpif.h'
  integer :: errs, rank, ierr
  call MPI_Allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call rx_verdict(rank, errs)
end subroutine
