! Must not compile: mpi_f08 handles are types (an INTEGER where TYPE(MPI_Comm) goes).
program wrong
  use mpi_f08
  implicit none
  real :: x(4)
  call MPI_Init()
  call MPI_Send(x, 4, MPI_REAL, 0, 0, 1140850689)
  call MPI_Finalize()
end program
