! SPDX-License-Identifier: MIT
! Module mpi: communicators. A 2-D Cartesian grid (LOGICAL periods and
! remain_dims: periodic in the first dimension only) with its shifts,
! coordinates and a row; MPI_Comm_split_type; an intercommunicator between
! the even and the odd ranks and its merge. Any rank count.
program f90_comm
  use mpi
  use rxtest
  implicit none
  integer :: ierr, rank, np, errs
  integer :: cart, row, node, local, inter, merged, n, src, dst, kind
  integer :: dims(2), coords(2), c2(2)
  logical :: periods(2), flag
  errs = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)

  ! a dims(1) x dims(2) grid, periodic in dimension 1, rank order kept
  dims = 0
  call MPI_Dims_create(np, 2, dims, ierr)
  if (dims(1) * dims(2) /= np .or. dims(1) < dims(2)) errs = errs + 1
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, [.true., .false.], .false., cart, ierr)
  call MPI_Topo_test(cart, kind, ierr)
  if (kind /= MPI_CART) errs = errs + 1
  call MPI_Cart_get(cart, 2, c2, periods, coords, ierr)
  if (any(c2 /= dims) .or. .not. periods(1) .or. periods(2)) errs = errs + 1
  ! row-major: rank = coords(1) * dims(2) + coords(2)
  if (coords(1) /= rank / dims(2) .or. coords(2) /= mod(rank, dims(2))) errs = errs + 1
  call MPI_Cart_rank(cart, coords, n, ierr)
  if (n /= rank) errs = errs + 1
  call MPI_Cart_shift(cart, 0, 1, src, dst, ierr)
  if (src /= mod(coords(1) + dims(1) - 1, dims(1)) * dims(2) + coords(2)) errs = errs + 1
  if (dst /= mod(coords(1) + 1, dims(1)) * dims(2) + coords(2)) errs = errs + 1
  call MPI_Cart_shift(cart, 1, 1, src, dst, ierr)
  if ((coords(2) == 0 .neqv. src == MPI_PROC_NULL) .or. &
      (coords(2) == dims(2) - 1 .neqv. dst == MPI_PROC_NULL)) errs = errs + 1
  ! the row: the ranks of the same coords(1)
  call MPI_Cart_sub(cart, [.false., .true.], row, ierr)
  call MPI_Comm_size(row, n, ierr)
  if (n /= dims(2)) errs = errs + 1
  call MPI_Comm_rank(row, n, ierr)
  if (n /= coords(2)) errs = errs + 1
  call MPI_Comm_free(row, ierr)
  call MPI_Comm_free(cart, ierr)

  ! every rank of these tests runs on one host
  call MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, node, ierr)
  call MPI_Comm_size(node, n, ierr)
  if (n /= np) errs = errs + 1
  call MPI_Comm_free(node, ierr)

  ! even ranks and odd ranks; the merge puts the even ones (high = .false.) first
  if (np > 1) then
    call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, local, ierr)
    call MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - mod(rank, 2), 5, inter, ierr)
    call MPI_Comm_test_inter(inter, flag, ierr)
    if (.not. flag) errs = errs + 1
    call MPI_Comm_remote_size(inter, n, ierr)
    if (n /= merge(np / 2, (np + 1) / 2, mod(rank, 2) == 0)) errs = errs + 1
    call MPI_Intercomm_merge(inter, mod(rank, 2) == 1, merged, ierr)
    call MPI_Comm_rank(merged, n, ierr)
    if (n /= merge(rank / 2, (np + 1) / 2 + rank / 2, mod(rank, 2) == 0)) errs = errs + 1
    call MPI_Comm_test_inter(merged, flag, ierr)
    if (flag) errs = errs + 1
    call MPI_Comm_free(merged, ierr)
    call MPI_Comm_free(inter, ierr)
    call MPI_Comm_free(local, ierr)
  end if

  call rx_report(errs)
  call MPI_Finalize(ierr)
end program
