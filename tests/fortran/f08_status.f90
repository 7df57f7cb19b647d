! SPDX-License-Identifier: MIT
! MPI_Status_f082f and MPI_Status_f2f08 (and PMPI_) of module mpi_f08: the
! status of a real receive into an INTEGER array and back, with MPI_SOURCE,
! MPI_TAG, MPI_ERROR and the count kept (MPI_Get_count and MPI_Get_elements
! of mpi_f08 on the converted TYPE(MPI_Status); the fields and MPI_Get_count
! of module mpi on the INTEGER array). Any rank count.
! run-with: not mpich (MPICH 4.0.2's mpi_f08 has MPI_Status_f2f08 and MPI_Status_f082f, not their PMPI_ forms: does not link; without the PMPI_ part it passes at 1-3 ranks)
! run-with: not openmpi (Open MPI 4.1's mpi_f08 lacks MPI_Status_f2f08 and MPI_Status_f082f: does not link)

! Module mpi on an INTEGER status: how many of source, tag, MPI_ERR_TRUNCATE
! as the error and a count of n MPI_DOUBLE_PRECISION it does not hold (the
! indices MPI_SOURCE, MPI_TAG, MPI_ERROR are those of module mpi).
integer function wrong_in_module_mpi(f_status, source, tag, n)
  use mpi
  implicit none
  integer, intent(in) :: f_status(MPI_STATUS_SIZE), source, tag, n
  integer :: cnt, ierr
  wrong_in_module_mpi = 0
  if (f_status(MPI_SOURCE) /= source) wrong_in_module_mpi = wrong_in_module_mpi + 1
  if (f_status(MPI_TAG) /= tag) wrong_in_module_mpi = wrong_in_module_mpi + 1
  if (f_status(MPI_ERROR) /= MPI_ERR_TRUNCATE) wrong_in_module_mpi = wrong_in_module_mpi + 1
  call MPI_Get_count(f_status, MPI_DOUBLE_PRECISION, cnt, ierr)
  if (cnt /= n .or. ierr /= MPI_SUCCESS) wrong_in_module_mpi = wrong_in_module_mpi + 1
end function

program f08_status
  use mpi_f08
  use rxtest
  implicit none
  integer, parameter :: n = 5
  integer :: rank, np, next, prev, errs, ierr, cnt, wrong_in_module_mpi
  integer :: fst(MPI_STATUS_SIZE), fst2(MPI_STATUS_SIZE)
  type(MPI_Status) :: st, st2, st3
  double precision :: sbuf(n), rbuf(n + 2)

  errs = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  sbuf = rank
  prev = mod(rank + np - 1, np)
  next = mod(rank + 1, np)
  ! n values from prev with tag 10 + prev, into room for n + 2
  call MPI_Sendrecv(sbuf, n, MPI_DOUBLE_PRECISION, next, 10 + rank, rbuf, n + 2, &
                    MPI_DOUBLE_PRECISION, prev, MPI_ANY_TAG, MPI_COMM_WORLD, st)
  if (st%MPI_SOURCE /= prev .or. st%MPI_TAG /= 10 + prev) errs = errs + 1
  ! a single-completion call leaves MPI_ERROR as it is: give it a value to carry
  st%MPI_ERROR = MPI_ERR_TRUNCATE

  ! TYPE(MPI_Status) to INTEGER array
  fst = -7
  call MPI_Status_f082f(st, fst, ierr)
  if (ierr /= MPI_SUCCESS) errs = errs + 1
  errs = errs + wrong_in_module_mpi(fst, prev, 10 + prev, n)

  ! and back, ierror left out
  call MPI_Status_f2f08(fst, st2)
  if (st2%MPI_SOURCE /= prev .or. st2%MPI_TAG /= 10 + prev .or. &
      st2%MPI_ERROR /= MPI_ERR_TRUNCATE) errs = errs + 1
  call MPI_Get_count(st2, MPI_DOUBLE_PRECISION, cnt, ierr)
  if (cnt /= n .or. ierr /= MPI_SUCCESS) errs = errs + 1
  call MPI_Get_elements(st2, MPI_DOUBLE_PRECISION, cnt)
  if (cnt /= n) errs = errs + 1
  call MPI_Get_count(st2, MPI_BYTE, cnt)
  if (cnt /= 8 * n) errs = errs + 1

  ! the PMPI_ forms give the same
  call PMPI_Status_f082f(st2, fst2, ierr)
  if (ierr /= MPI_SUCCESS .or. any(fst2 /= fst)) errs = errs + 1
  call PMPI_Status_f2f08(fst2, st3, ierr)
  if (ierr /= MPI_SUCCESS .or. st3%MPI_SOURCE /= prev .or. st3%MPI_TAG /= 10 + prev .or. &
      st3%MPI_ERROR /= MPI_ERR_TRUNCATE) errs = errs + 1
  call MPI_Get_count(st3, MPI_DOUBLE_PRECISION, cnt)
  if (cnt /= n) errs = errs + 1

  call rx_report(errs)
  call MPI_Finalize()
end program
