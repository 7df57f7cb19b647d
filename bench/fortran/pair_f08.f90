! SPDX-License-Identifier: MIT
! pair_c.c in Fortran with mpi_f08 (buffers as CFI descriptors).
! usage: pair_f08 pp0|pp8|allreduce N
program pair_f08
  use mpi_f08
  implicit none
  character(len=16) :: mode, arg
  integer :: n, rank
  double precision :: t0, t
  call MPI_Init()
  call get_command_argument(1, mode)
  call get_command_argument(2, arg)
  read (arg, *) n
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call rounds(n / 10)
  call MPI_Barrier(MPI_COMM_WORLD)
  t0 = MPI_Wtime()
  call rounds(n)
  t = (MPI_Wtime() - t0) / n * 1d9
  if (mode /= 'allreduce') t = t / 2
  if (rank == 0) print '(f0.1)', t
  call MPI_Finalize()
contains
  subroutine rounds(n)
    integer, intent(in) :: n
    integer :: i, count, peer
    logical :: allreduce
    double precision :: x = 1, y = 0
    type(MPI_Status) :: st
    allreduce = mode == 'allreduce'
    count = merge(0, 1, mode == 'pp0')
    peer = 1 - rank
    do i = 1, n
      if (allreduce) then
        call MPI_Allreduce(x, y, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
      else if (rank == 0) then
        call MPI_Send(x, count, MPI_DOUBLE_PRECISION, peer, 0, MPI_COMM_WORLD)
        call MPI_Recv(y, count, MPI_DOUBLE_PRECISION, peer, 0, MPI_COMM_WORLD, st)
      else
        call MPI_Recv(y, count, MPI_DOUBLE_PRECISION, peer, 0, MPI_COMM_WORLD, st)
        call MPI_Send(x, count, MPI_DOUBLE_PRECISION, peer, 0, MPI_COMM_WORLD)
      end if
    end do
  end subroutine
end program
