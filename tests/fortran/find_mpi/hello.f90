program hello
  use mpi_f08
  implicit none
  integer :: rank, size, total, len
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: version
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call MPI_Get_library_version(version, len)
  if (rank == 0) print '(a,a,i0,a,i0)', version(1:len), ': ', size, ' ranks, sum ', total
  call MPI_Finalize()
  if (total /= size * (size - 1) / 2) stop 1
end program
