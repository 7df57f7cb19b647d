! SPDX-License-Identifier: MIT
! pair_c.c in Fortran 77 (mpif.h: buffers by address).
! usage: pair_f77 pp0|pp8|allreduce N
      PROGRAM PAIR77
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      CHARACTER*16 MODE, ARG
      INTEGER N, RANK, IERR
      DOUBLE PRECISION T0, T
      CALL MPI_INIT(IERR)
      CALL GET_COMMAND_ARGUMENT(1, MODE)
      CALL GET_COMMAND_ARGUMENT(2, ARG)
      READ (ARG, *) N
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL ROUNDS(MODE, N / 10, RANK)
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      T0 = MPI_WTIME()
      CALL ROUNDS(MODE, N, RANK)
      T = (MPI_WTIME() - T0) / N * 1D9
      IF (MODE .NE. 'allreduce') T = T / 2
      IF (RANK .EQ. 0) PRINT '(F0.1)', T
      CALL MPI_FINALIZE(IERR)
      END

      SUBROUTINE ROUNDS(MODE, N, RANK)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      CHARACTER*(*) MODE
      INTEGER N, RANK, I, COUNT, PEER, IERR, ST(MPI_STATUS_SIZE)
      LOGICAL ALLRED
      DOUBLE PRECISION X, Y
      X = 1
      Y = 0
      ALLRED = MODE .EQ. 'allreduce'
      COUNT = 1
      IF (MODE .EQ. 'pp0') COUNT = 0
      PEER = 1 - RANK
      DO I = 1, N
         IF (ALLRED) THEN
            CALL MPI_ALLREDUCE(X, Y, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &           MPI_COMM_WORLD, IERR)
         ELSE IF (RANK .EQ. 0) THEN
            CALL MPI_SEND(X, COUNT, MPI_DOUBLE_PRECISION, PEER, 0,
     &           MPI_COMM_WORLD, IERR)
            CALL MPI_RECV(Y, COUNT, MPI_DOUBLE_PRECISION, PEER, 0,
     &           MPI_COMM_WORLD, ST, IERR)
         ELSE
            CALL MPI_RECV(Y, COUNT, MPI_DOUBLE_PRECISION, PEER, 0,
     &           MPI_COMM_WORLD, ST, IERR)
            CALL MPI_SEND(X, COUNT, MPI_DOUBLE_PRECISION, PEER, 0,
     &           MPI_COMM_WORLD, IERR)
         END IF
      END DO
      END
