! SPDX-License-Identifier: MIT
! self_c.c in Fortran 77 (mpif.h: buffers by address).
! usage: self_f77 p2p|allreduce N
      PROGRAM SELF77
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      CHARACTER*16 MODE, ARG
      INTEGER N, I, RQ, IERR, ST(MPI_STATUS_SIZE)
      DOUBLE PRECISION X, Y
      LOGICAL P2P
      X = 1
      Y = 0
      CALL MPI_INIT(IERR)
      CALL GET_COMMAND_ARGUMENT(1, MODE)
      CALL GET_COMMAND_ARGUMENT(2, ARG)
      READ (ARG, *) N
      P2P = MODE .EQ. 'p2p'
      DO I = 1, N
         IF (P2P) THEN
            CALL MPI_ISEND(X, 1, MPI_DOUBLE_PRECISION, 0, 0,
     &           MPI_COMM_SELF, RQ, IERR)
            CALL MPI_RECV(Y, 1, MPI_DOUBLE_PRECISION, 0, 0,
     &           MPI_COMM_SELF, ST, IERR)
            CALL MPI_WAIT(RQ, MPI_STATUS_IGNORE, IERR)
         ELSE
            CALL MPI_ALLREDUCE(X, Y, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &           MPI_COMM_SELF, IERR)
         END IF
      END DO
      CALL MPI_FINALIZE(IERR)
      IF (Y .NE. 1) STOP 1
      END
