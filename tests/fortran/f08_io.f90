! SPDX-License-Identifier: MIT
! MPI-IO through mpi_f08: every rank writes its block with a collective
! explicit-offset write, reads the next rank's block back, then the same
! through a file view; MPI_File handles, MPI_Offset arguments, datarep strings.
! Any rank count.
program f08_io
  use mpi_f08
  use rxtest
  implicit none
  integer, parameter :: n = 8
  integer :: rank, np, next, i, errs, pid, cnt, buf(n), got(n)
  type(MPI_File) :: fh
  type(MPI_Status) :: st
  type(MPI_Datatype) :: etype, ftype
  integer(MPI_OFFSET_KIND) :: off, size, disp
  character(len=64) :: path
  character(len=MPI_MAX_DATAREP_STRING) :: rep
  errs = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  next = mod(rank + 1, np)
  pid = getpid()
  call MPI_Bcast(pid, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
  write (path, '(a,i0)') '/tmp/rdmx-fortio-', pid
  call MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh)
  if (fh == MPI_FILE_NULL) errs = errs + 1
  buf = [(rank * 1000 + i, i = 1, n)]
  off = int(rank, MPI_OFFSET_KIND) * n * 4
  call MPI_File_write_at_all(fh, off, buf, n, MPI_INTEGER, st)
  call MPI_Get_count(st, MPI_INTEGER, cnt)
  if (cnt /= n) errs = errs + 1
  call MPI_File_sync(fh)
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_File_sync(fh)
  call MPI_File_get_size(fh, size)
  if (size /= int(np, MPI_OFFSET_KIND) * n * 4) errs = errs + 1
  off = int(next, MPI_OFFSET_KIND) * n * 4
  got = -1
  call MPI_File_read_at(fh, off, got, n, MPI_INTEGER, st)
  if (any(got /= [(next * 1000 + i, i = 1, n)])) errs = errs + 1
  ! the same block through a view that starts at it
  disp = off
  call MPI_File_set_view(fh, disp, MPI_INTEGER, MPI_INTEGER, "native", MPI_INFO_NULL)
  call MPI_File_get_view(fh, disp, etype, ftype, rep)
  if (disp /= off .or. etype /= MPI_INTEGER .or. rep /= "native") errs = errs + 1
  got = -1
  call MPI_File_read_at(fh, 0_MPI_OFFSET_KIND, got(1:n:2), n / 2, MPI_INTEGER, st)
  if (MPI_SUBARRAYS_SUPPORTED) then
    if (any(got(1:n:2) /= [(next * 1000 + i, i = 1, n / 2)]) .or. any(got(2:n:2) /= -1)) &
      errs = errs + 1
  end if
  call MPI_File_close(fh)
  if (fh /= MPI_FILE_NULL) errs = errs + 1
  call MPI_Barrier(MPI_COMM_WORLD)
  if (rank == 0) call MPI_File_delete(path, MPI_INFO_NULL)

  call rx_report(errs)
  call MPI_Finalize()
end program
