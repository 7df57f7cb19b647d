! SPDX-License-Identifier: MIT
! Array sections as mpi_f08 choice buffers: a row of a matrix broadcast and
! received in place, a strided receive completed by MPI_Wait, and a section
! whose count and datatype are shared with another buffer (MPI_Reduce), which
! must be refused or reduced right, never misread. Any rank count; needs
! MPI_SUBARRAYS_SUPPORTED (else it only reports No Errors).
! run-with: not mpich (MPICH 4.0.2 reduces x(1:12:2) as if the six values were contiguous and returns MPI_SUCCESS: 2 0 2 0 2 0 at two ranks instead of six 2s)
program f08_sections
  use mpi_f08
  use rxtest
  implicit none
  integer :: rank, np, next, prev, i, j, errs, ierr, cls
  double precision :: a(4, 5), x(12), y(6), col(5)
  type(MPI_Request) :: rq
  errs = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  next = mod(rank + 1, np)
  prev = mod(rank + np - 1, np)
  if (MPI_SUBARRAYS_SUPPORTED) then
    ! row 3 of a (stride 4) from rank 0 to everyone
    a = -1
    if (rank == 0) a(3, :) = [(10d0 * j, j = 1, 5)]
    call MPI_Bcast(a(3, :), 5, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD)
    if (any(a(3, :) /= [(10d0 * j, j = 1, 5)])) errs = errs + 1
    if (any(a(1:2, :) /= -1) .or. any(a(4, :) /= -1)) errs = errs + 1
    ! a nonblocking receive into row 2, written when the request completes
    a = 0
    col = [(rank * 100d0 + j, j = 1, 5)]
    call MPI_Irecv(a(2, :), 5, MPI_DOUBLE_PRECISION, prev, 1, MPI_COMM_WORLD, rq)
    call MPI_Send(col, 5, MPI_DOUBLE_PRECISION, next, 1, MPI_COMM_WORLD)
    call MPI_Wait(rq, MPI_STATUS_IGNORE)
    if (any(a(2, :) /= [(prev * 100d0 + j, j = 1, 5)]) .or. any(a(1, :) /= 0)) errs = errs + 1
    ! MPI_Reduce of x(1:12:2): rdmx refuses (MPI_ERR_BUFFER); reduced, it must be right
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
    x = [(mod(i, 2) * 1d0, i = 1, 12)]
    y = -1
    call MPI_Reduce(x(1:12:2), y, 6, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
    call MPI_Error_class(ierr, cls)
    if (cls /= MPI_ERR_BUFFER .and. cls /= MPI_SUCCESS) errs = errs + 1
    if (cls == MPI_SUCCESS .and. rank == 0 .and. any(y /= np)) errs = errs + 1
  end if
  call rx_report(errs)
  call MPI_Finalize()
end program
