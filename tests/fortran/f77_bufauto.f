! SPDX-License-Identifier: MIT
! MPI_BUFFER_AUTOMATIC through include 'mpif.h' (MPI-4.1 3.6): attach it as
! the process buffer, bsend to self 100 messages larger than any default
! buffer would hold at once, receive and check them, detach. Any rank count.
! run-with: not mpich (MPI-4.1 MPI_BUFFER_AUTOMATIC: MPICH 4.0 lacks it)
! run-with: not openmpi (MPI-4.1 MPI_BUFFER_AUTOMATIC: Open MPI 4.1 lacks it)
      PROGRAM F77BUFAUTO
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, ERRS, RANK, I, J, SZ
      INTEGER A(1000), B(1000)
      INTEGER(KIND=MPI_ADDRESS_KIND) ADDR
      ERRS = 0
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_BUFFER_ATTACH(MPI_BUFFER_AUTOMATIC, 0, IERR)
      IF (IERR .NE. MPI_SUCCESS) ERRS = ERRS + 1
      DO I = 1, 100
         DO J = 1, 1000
            A(J) = I * 10000 + J
         END DO
         CALL MPI_BSEND(A, 1000, MPI_INTEGER, RANK, I,
     &        MPI_COMM_WORLD, IERR)
         IF (IERR .NE. MPI_SUCCESS) ERRS = ERRS + 1
      END DO
      DO I = 1, 100
         CALL MPI_RECV(B, 1000, MPI_INTEGER, RANK, I, MPI_COMM_WORLD,
     &        MPI_STATUS_IGNORE, IERR)
         DO J = 1, 1000
            IF (B(J) .NE. I * 10000 + J) ERRS = ERRS + 1
         END DO
      END DO
      CALL MPI_BUFFER_DETACH(ADDR, SZ, IERR)
      IF (IERR .NE. MPI_SUCCESS .OR. SZ .NE. 0) ERRS = ERRS + 1
      CALL RX_REPORT77(ERRS)
      CALL MPI_FINALIZE(IERR)
      END
