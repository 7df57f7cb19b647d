! Must not compile: module mpi checks arguments (a REAL where the rank goes).
program wrong
  use mpi
  implicit none
  integer :: ierr
  real :: rank
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Finalize(ierr)
end program
