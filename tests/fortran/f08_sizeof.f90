! SPDX-License-Identifier: MIT
! MPI_Sizeof in module mpi_f08 and module mpi: every intrinsic type and kind
! gfortran has, scalars and arrays of ranks 1-3, against STORAGE_SIZE.
! Any rank count.
! run-with: not mpich (MPICH 4.0.2's MPI_Sizeof has no forms for INTEGER(2), INTEGER(16), REAL(10), LOGICAL(1): does not build)
! run-with: not openmpi (Open MPI 4.1's MPI_Sizeof has no forms for REAL(10), LOGICAL(1), INTEGER(16): does not build)
module sizeof_check
  implicit none
  integer :: errs = 0
contains
  subroutine expect(got, bits, ierr)
    integer, intent(in) :: got, bits, ierr
    if (got /= bits / 8 .or. ierr /= 0) errs = errs + 1
  end subroutine
end module

! the same calls through module mpi
subroutine with_module_mpi()
  use mpi
  use sizeof_check
  implicit none
  integer :: isz, ierr
  integer(kind=2) :: i2(2, 2)
  real(kind=10) :: r10
  complex(kind=4) :: c4(3)
  logical(kind=1) :: l1
  character(len=3) :: s(2)
  call MPI_Sizeof(i2, isz, ierr); call expect(isz, storage_size(i2), ierr)
  call MPI_Sizeof(r10, isz, ierr); call expect(isz, storage_size(r10), ierr)
  call MPI_Sizeof(c4, isz, ierr); call expect(isz, storage_size(c4), ierr)
  call MPI_Sizeof(l1, isz, ierr); call expect(isz, storage_size(l1), ierr)
  call MPI_Sizeof(s, isz, ierr); call expect(isz, storage_size(s), ierr)
end subroutine

program f08_sizeof
  use mpi_f08
  use rxtest
  use sizeof_check
  implicit none
  integer :: isz, ierr
  integer(kind=1) :: i1
  integer(kind=2) :: i2(2)
  integer(kind=4) :: i4(2, 2)
  integer(kind=8) :: i8(2, 2, 2)
  integer(kind=16) :: i16
  real(kind=4) :: r4(3)
  real(kind=8) :: r8
  real(kind=10) :: r10(2)
  real(kind=16) :: r16
  complex(kind=4) :: c4
  complex(kind=8) :: c8(2)
  complex(kind=10) :: c10
  complex(kind=16) :: c16(1, 1)
  logical(kind=1) :: l1
  logical(kind=2) :: l2(2)
  logical(kind=4) :: l4
  logical(kind=8) :: l8(3)
  logical(kind=16) :: l16
  character(len=5) :: s1(2)
  character(kind=4, len=2) :: s4
  call MPI_Init()
  call MPI_Sizeof(i1, isz, ierr); call expect(isz, storage_size(i1), ierr)
  call MPI_Sizeof(i2, isz, ierr); call expect(isz, storage_size(i2), ierr)
  call MPI_Sizeof(i4, isz, ierr); call expect(isz, storage_size(i4), ierr)
  call MPI_Sizeof(i8, isz, ierr); call expect(isz, storage_size(i8), ierr)
  call MPI_Sizeof(i16, isz, ierr); call expect(isz, storage_size(i16), ierr)
  call MPI_Sizeof(r4, isz, ierr); call expect(isz, storage_size(r4), ierr)
  call MPI_Sizeof(r8, isz, ierr); call expect(isz, storage_size(r8), ierr)
  call MPI_Sizeof(r10, isz, ierr); call expect(isz, storage_size(r10), ierr)
  call MPI_Sizeof(r16, isz, ierr); call expect(isz, storage_size(r16), ierr)
  call MPI_Sizeof(c4, isz, ierr); call expect(isz, storage_size(c4), ierr)
  call MPI_Sizeof(c8, isz, ierr); call expect(isz, storage_size(c8), ierr)
  call MPI_Sizeof(c10, isz, ierr); call expect(isz, storage_size(c10), ierr)
  call MPI_Sizeof(c16, isz, ierr); call expect(isz, storage_size(c16), ierr)
  call MPI_Sizeof(l1, isz, ierr); call expect(isz, storage_size(l1), ierr)
  call MPI_Sizeof(l2, isz, ierr); call expect(isz, storage_size(l2), ierr)
  call MPI_Sizeof(l4, isz, ierr); call expect(isz, storage_size(l4), ierr)
  call MPI_Sizeof(l8, isz, ierr); call expect(isz, storage_size(l8), ierr)
  call MPI_Sizeof(l16, isz, ierr); call expect(isz, storage_size(l16), ierr)
  call MPI_Sizeof(s1, isz, ierr); call expect(isz, storage_size(s1), ierr)
  call MPI_Sizeof(s4, isz, ierr); call expect(isz, storage_size(s4), ierr)
  ! the known sizes, and ierror optional
  call MPI_Sizeof(c16, isz)
  if (isz /= 32) errs = errs + 1
  call MPI_Sizeof(s4, isz)
  if (isz /= 8) errs = errs + 1
  call with_module_mpi()
  call rx_report(errs)
  call MPI_Finalize()
end program
