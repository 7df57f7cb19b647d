! SPDX-License-Identifier: MIT
! self_c.c in Fortran with mpi_f08 (choice buffers as CFI descriptors).
! usage: self_f08 p2p|allreduce N
program self_f08
  use mpi_f08
  implicit none
  character(len=16) :: mode, arg
  integer :: n, i
  logical :: p2p
  double precision :: x = 1, y = 0
  type(MPI_Request) :: rq
  type(MPI_Status) :: st
  call MPI_Init()
  call get_command_argument(1, mode)
  call get_command_argument(2, arg)
  read (arg, *) n
  p2p = mode == 'p2p'  ! once: a string comparison per round would be counted
  do i = 1, n
    if (p2p) then
      call MPI_Isend(x, 1, MPI_DOUBLE_PRECISION, 0, 0, MPI_COMM_SELF, rq)
      call MPI_Recv(y, 1, MPI_DOUBLE_PRECISION, 0, 0, MPI_COMM_SELF, st)
      call MPI_Wait(rq, MPI_STATUS_IGNORE)
    else
      call MPI_Allreduce(x, y, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_SELF)
    end if
  end do
  call MPI_Finalize()
  if (y /= 1) stop 1
end program
