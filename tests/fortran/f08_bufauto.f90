! SPDX-License-Identifier: MIT
! MPI_BUFFER_AUTOMATIC through use mpi_f08 (MPI-4.1 3.6): as the process
! buffer and as MPI_COMM_WORLD's buffer (MPI_Comm_attach_buffer), 100
! bsends to self each, received and checked, then detached. Any rank count.
! run-with: not mpich (MPI-4.1 MPI_BUFFER_AUTOMATIC: MPICH 4.0 lacks it)
! run-with: not openmpi (MPI-4.1 MPI_BUFFER_AUTOMATIC: Open MPI 4.1 lacks it)
program f08_bufauto
  use mpi_f08
  use rxtest
  implicit none
  integer :: ierr, errs, rank, i, j, sz, pass
  integer :: a(1000), b(1000)
  type(c_ptr) :: addr
  errs = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  do pass = 1, 2
    if (pass == 1) then
      call MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0, ierr)
    else
      call MPI_Comm_attach_buffer(MPI_COMM_WORLD, MPI_BUFFER_AUTOMATIC, 0, ierr)
    end if
    if (ierr /= MPI_SUCCESS) errs = errs + 1
    do i = 1, 100
      a = [(i * 10000 + j, j = 1, 1000)]
      call MPI_Bsend(a, 1000, MPI_INTEGER, rank, i, MPI_COMM_WORLD, ierr)
      if (ierr /= MPI_SUCCESS) errs = errs + 1
    end do
    do i = 1, 100
      call MPI_Recv(b, 1000, MPI_INTEGER, rank, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
      do j = 1, 1000
        if (b(j) /= i * 10000 + j) errs = errs + 1
      end do
    end do
    if (pass == 1) then
      call MPI_Buffer_detach(addr, sz, ierr)
    else
      call MPI_Comm_detach_buffer(MPI_COMM_WORLD, addr, sz, ierr)
    end if
    if (ierr /= MPI_SUCCESS .or. sz /= 0) errs = errs + 1
  end do
  call rx_report(errs)
  call MPI_Finalize()
end program
