! SPDX-License-Identifier: MIT
! Module mpi: nonblocking point-to-point with arrays of statuses, array
! sections passed as choice buffers (no copy for contiguous ones), a subarray
! datatype on a Fortran array, collectives, attributes, MPI_Sizeof, passive
! one-sided epochs and communicator duplication. Any rank count.
program f90_mpi
  use mpi
  use rxtest
  implicit none
  integer :: ierr, rank, np, next, prev, i, j, errs, count
  integer :: reqs(2), stats(MPI_STATUS_SIZE, 2), status(MPI_STATUS_SIZE)
  real :: a(20), b(10)
  integer :: grid(6, 5), inner(4, 3), sub, sizes(2), subsizes(2), starts(2)
  integer, allocatable :: all(:)
  integer :: win, wbuf(3), got, dup, res, isz
  integer(kind=MPI_ADDRESS_KIND) :: wsize, disp, tagub
  double precision :: dbl(3)
  logical :: flag
  integer(8) :: i8, s8
  complex :: zc, zs
  integer :: pair(2), minpair(2)
  errs = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  next = mod(rank + 1, np)
  prev = mod(rank + np - 1, np)

  ! a strided section goes out as it is and arrives in a contiguous array (where
  ! MPI_SUBARRAYS_SUPPORTED: elsewhere a section in a nonblocking call is a copy)
  a = [(real(rank * 100 + i), i = 1, 20)]
  b = -1.0
  call MPI_Irecv(b, 10, MPI_REAL, prev, 1, MPI_COMM_WORLD, reqs(1), ierr)
  if (MPI_SUBARRAYS_SUPPORTED) then
    call MPI_Isend(a(1:20:2), 10, MPI_REAL, next, 1, MPI_COMM_WORLD, reqs(2), ierr)
  else
    call MPI_Send(a(1:20:2), 10, MPI_REAL, next, 1, MPI_COMM_WORLD, ierr)
    reqs(2) = MPI_REQUEST_NULL
  end if
  call MPI_Waitall(2, reqs, stats, ierr)
  if (ierr /= MPI_SUCCESS) errs = errs + 1
  if (stats(MPI_SOURCE, 1) /= prev .or. stats(MPI_TAG, 1) /= 1) errs = errs + 1
  call MPI_Get_count(stats(:, 1), MPI_REAL, count, ierr)
  if (count /= 10) errs = errs + 1
  do i = 1, 10
    if (b(i) /= real(prev * 100 + 2 * i - 1)) errs = errs + 1
  end do
  ! and a contiguous array arrives in a strided section (its first 4 elements)
  b = -2.0
  a = [(real(rank + i), i = 1, 20)]
  call MPI_Sendrecv(a, 4, MPI_REAL, next, 2, b(2:10:2), 4, MPI_REAL, prev, 2, &
                    MPI_COMM_WORLD, status, ierr)
  do i = 1, 10
    if (mod(i, 2) == 0 .and. i <= 8) then
      if (b(i) /= real(prev + i / 2)) errs = errs + 1
    else
      if (b(i) /= -2.0) errs = errs + 1
    end if
  end do

  ! the inner 4x3 block of a 6x5 Fortran array, by a subarray type
  grid = reshape([(i + 1000 * rank, i = 1, 30)], [6, 5])
  sizes = [6, 5]; subsizes = [4, 3]; starts = [1, 1]
  call MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, &
                                MPI_INTEGER, sub, ierr)
  call MPI_Type_commit(sub, ierr)
  call MPI_Sendrecv(grid, 1, sub, next, 3, inner, 12, MPI_INTEGER, prev, 3, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  do j = 1, 3
    do i = 1, 4
      if (inner(i, j) /= (i + 1) + 6 * j + 1000 * prev) errs = errs + 1
    end do
  end do
  call MPI_Type_free(sub, ierr)

  ! collectives over arrays
  allocate(all(np))
  call MPI_Allgather(rank * 3, 1, MPI_INTEGER, all, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  do i = 1, np
    if (all(i) /= 3 * (i - 1)) errs = errs + 1
  end do
  dbl = [1d0, 2d0, 3d0] * (rank + 1)
  call MPI_Allreduce(MPI_IN_PLACE, dbl, 3, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  if (any(dbl /= [1d0, 2d0, 3d0] * np)) errs = errs + 1
  all = [(rank * np + i, i = 0, np - 1)]
  call MPI_Alltoall(MPI_IN_PLACE, 1, MPI_INTEGER, all, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  do i = 1, np
    if (all(i) /= (i - 1) * np + rank) errs = errs + 1
  end do
  deallocate(all)

  ! Fortran and sized types in reductions: INTEGER8 beyond 32 bits, COMPLEX, 2INTEGER with MINLOC
  i8 = 2_8**40 + rank
  call MPI_Allreduce(i8, s8, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (s8 /= np * 2_8**40 + np * (np - 1) / 2) errs = errs + 1
  zc = cmplx(real(rank), 1.0)
  call MPI_Allreduce(zc, zs, 1, MPI_COMPLEX, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (zs /= cmplx(real(np * (np - 1) / 2), real(np))) errs = errs + 1
  pair = [10 - rank, rank]
  call MPI_Allreduce(pair, minpair, 1, MPI_2INTEGER, MPI_MINLOC, MPI_COMM_WORLD, ierr)
  if (any(minpair /= [11 - np, np - 1])) errs = errs + 1
  call MPI_Type_size(MPI_INTEGER1, isz, ierr)
  if (isz /= 1) errs = errs + 1
  call MPI_Type_size(MPI_REAL16, isz, ierr)
  if (isz /= 16) errs = errs + 1

  ! attributes: MPI_TAG_UB as a value, at least 32767
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, tagub, flag, ierr)
  if (.not. flag .or. tagub < 32767) errs = errs + 1
  call MPI_Sizeof(dbl, isz, ierr)
  if (isz /= 8) errs = errs + 1
  call MPI_Sizeof(flag, isz, ierr)
  if (isz /= 4) errs = errs + 1

  ! passive target: each rank fetches the next rank's middle element
  wbuf = [rank, rank + 10, rank + 20]
  wsize = 12
  call MPI_Win_create(wbuf, wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  disp = 1
  call MPI_Win_lock(MPI_LOCK_SHARED, next, 0, win, ierr)
  call MPI_Get(got, 1, MPI_INTEGER, next, disp, 1, MPI_INTEGER, win, ierr)
  call MPI_Win_unlock(next, win, ierr)
  if (got /= next + 10) errs = errs + 1
  call MPI_Win_free(win, ierr)

  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  call MPI_Comm_compare(MPI_COMM_WORLD, dup, res, ierr)
  if (res /= MPI_CONGRUENT) errs = errs + 1
  call MPI_Comm_free(dup, ierr)

  call rx_report(errs)
  call MPI_Finalize(ierr)
end program
