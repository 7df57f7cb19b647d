! SPDX-License-Identifier: MIT
! Module mpi_f08: one-sided atomics in a passive epoch of all ranks, and
! MPI_F_sync_reg. Every rank adds 1 to rank 0's counter with MPI_Fetch_and_op
! (the fetched values are 0 .. np-1, each once), tries MPI_Compare_and_swap
! on its second element (one rank finds -1) and reads the next rank's
! counter slot with MPI_Get_accumulate (MPI_NO_OP). The window memory is a
! plain array: rank 0 reads it after MPI_F_sync_reg, without which the
! compiler may keep the values it stored before the epoch. Any rank count.
! run-with: not mpich (MPICH 4.0.2 ch4:ucx: MPI_Fetch_and_op leaves the window as it was and adds to the result buffer; MPI_Compare_and_swap from C crashes at address 0x44)
program f08_atomics
  use mpi_f08
  use rxtest
  implicit none
  integer :: rank, np, errs, i, old, prev, got, minus, one
  integer :: wbuf(2)
  integer, allocatable :: olds(:)
  type(MPI_Win) :: win
  errs = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  wbuf = [0, -1]
  call MPI_Win_create(wbuf, 8_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win)
  one = 1
  minus = -1
  call MPI_Win_lock_all(0, win)
  call MPI_Fetch_and_op(one, old, MPI_INTEGER, 0, 0_MPI_ADDRESS_KIND, MPI_SUM, win)
  call MPI_Compare_and_swap(rank, minus, prev, MPI_INTEGER, 0, 1_MPI_ADDRESS_KIND, win)
  call MPI_Win_flush(0, win)
  call MPI_Win_unlock_all(win)
  call MPI_Barrier(MPI_COMM_WORLD)
  ! every update is done; a local epoch orders them before the loads
  call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win)
  call MPI_Win_unlock(rank, win)
  call MPI_F_sync_reg(wbuf)
  if (rank == 0 .and. (wbuf(1) /= np .or. wbuf(2) < 0 .or. wbuf(2) >= np)) errs = errs + 1
  if (rank /= 0 .and. any(wbuf /= [0, -1])) errs = errs + 1
  ! rank 0's counter through an atomic read
  got = -5
  call MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win)
  call MPI_Get_accumulate(one, 1, MPI_INTEGER, got, 1, MPI_INTEGER, 0, 0_MPI_ADDRESS_KIND, &
                          1, MPI_INTEGER, MPI_NO_OP, win)
  call MPI_Win_unlock(0, win)
  call MPI_F_sync_reg(got)
  if (got /= np) errs = errs + 1
  allocate(olds(np))
  call MPI_Allgather(old, 1, MPI_INTEGER, olds, 1, MPI_INTEGER, MPI_COMM_WORLD)
  do i = 0, np - 1
    if (count(olds == i) /= 1) errs = errs + 1
  end do
  call MPI_Allgather(prev, 1, MPI_INTEGER, olds, 1, MPI_INTEGER, MPI_COMM_WORLD)
  if (count(olds == -1) /= 1) errs = errs + 1
  deallocate(olds)
  call MPI_Win_free(win)
  call rx_report(errs)
  call MPI_Finalize()
end program
