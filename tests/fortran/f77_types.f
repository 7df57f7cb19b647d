! SPDX-License-Identifier: MIT
! Fortran 77 interface (include 'mpif.h'): datatypes on Fortran arrays and
! collectives with count arrays. MPI_TYPE_CREATE_SUBARRAY (MPI_ORDER_FORTRAN)
! sends the inner block of a 2-D array into the inner block of another; a
! struct of absolute addresses (MPI_GET_ADDRESS) goes from and to
! MPI_BOTTOM; an indexed type with its extent and size; MPI_GATHERV and
! MPI_SCATTERV with gaps between the blocks; MPI_IALLREDUCE. Any rank count.
      PROGRAM F77TYPES
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, NP, NEXT, PREV, I, J, ERRS, REQ, ISZ, TOTAL
      INTEGER SIZES(2), SUBS(2), STARTS(2), SUB, SSEND, SRECV, IDX
      INTEGER A(5,4), B(5,4), V(12), W(6)
      INTEGER BLENS(2), TYPES(2), IBL(3), IDS(3)
      INTEGER(KIND=MPI_ADDRESS_KIND) DISPS(2), LB, EXT
      INTEGER, ALLOCATABLE :: G(:), CNTS(:), DSPL(:), MINE(:)
      INTEGER ISEND, IRECV
      DOUBLE PRECISION DV, DVR
      INTEGER IV, IVR
! what MPI_BOTTOM reaches and the nonblocking buffers are in COMMON, so the
! compiler keeps none of them in a register across a call
      COMMON /F77T/ DV, DVR, IV, IVR, ISEND, IRECV
      ERRS = 0
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      NEXT = MOD(RANK + 1, NP)
      PREV = MOD(RANK + NP - 1, NP)

! A(2:4, 2:3) of the previous rank lands in B(2:4, 2:3), the rest stays
      DO J = 1, 4
         DO I = 1, 5
            A(I, J) = 1000 * RANK + 10 * I + J
            B(I, J) = -1
         END DO
      END DO
      SIZES(1) = 5
      SIZES(2) = 4
      SUBS(1) = 3
      SUBS(2) = 2
      STARTS(1) = 1
      STARTS(2) = 1
      CALL MPI_TYPE_CREATE_SUBARRAY(2, SIZES, SUBS, STARTS,
     &     MPI_ORDER_FORTRAN, MPI_INTEGER, SUB, IERR)
      CALL MPI_TYPE_COMMIT(SUB, IERR)
      CALL MPI_TYPE_SIZE(SUB, ISZ, IERR)
      IF (ISZ .NE. 24) ERRS = ERRS + 1
      CALL MPI_TYPE_GET_EXTENT(SUB, LB, EXT, IERR)
      IF (LB .NE. 0 .OR. EXT .NE. 80) ERRS = ERRS + 1
      CALL MPI_SENDRECV(A, 1, SUB, NEXT, 1, B, 1, SUB, PREV, 1,
     &     MPI_COMM_WORLD, MPI_STATUS_IGNORE, IERR)
      DO J = 1, 4
         DO I = 1, 5
            IF (I .GE. 2 .AND. I .LE. 4 .AND. J .GE. 2 .AND. J .LE. 3)
     &           THEN
               IF (B(I, J) .NE. 1000 * PREV + 10 * I + J)
     &              ERRS = ERRS + 1
            ELSE
               IF (B(I, J) .NE. -1) ERRS = ERRS + 1
            END IF
         END DO
      END DO
      CALL MPI_TYPE_FREE(SUB, IERR)

! an INTEGER and a DOUBLE PRECISION by their addresses, from MPI_BOTTOM
      IV = RANK + 7
      DV = 0.25D0 * RANK
      IVR = -1
      DVR = -1D0
      BLENS(1) = 1
      BLENS(2) = 1
      TYPES(1) = MPI_INTEGER
      TYPES(2) = MPI_DOUBLE_PRECISION
      CALL MPI_GET_ADDRESS(IV, DISPS(1), IERR)
      CALL MPI_GET_ADDRESS(DV, DISPS(2), IERR)
      CALL MPI_TYPE_CREATE_STRUCT(2, BLENS, DISPS, TYPES, SSEND, IERR)
      CALL MPI_GET_ADDRESS(IVR, DISPS(1), IERR)
      CALL MPI_GET_ADDRESS(DVR, DISPS(2), IERR)
      CALL MPI_TYPE_CREATE_STRUCT(2, BLENS, DISPS, TYPES, SRECV, IERR)
      CALL MPI_TYPE_COMMIT(SSEND, IERR)
      CALL MPI_TYPE_COMMIT(SRECV, IERR)
      CALL MPI_SENDRECV(MPI_BOTTOM, 1, SSEND, NEXT, 2, MPI_BOTTOM, 1,
     &     SRECV, PREV, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, IERR)
      IF (IVR .NE. PREV + 7 .OR. DVR .NE. 0.25D0 * PREV)
     &     ERRS = ERRS + 1
      CALL MPI_TYPE_FREE(SSEND, IERR)
      CALL MPI_TYPE_FREE(SRECV, IERR)

! V(1:2), V(5), V(9:11) by an indexed type, received as 6 contiguous
      DO I = 1, 12
         V(I) = 100 * RANK + I
      END DO
      IBL(1) = 2
      IBL(2) = 1
      IBL(3) = 3
      IDS(1) = 0
      IDS(2) = 4
      IDS(3) = 8
      CALL MPI_TYPE_INDEXED(3, IBL, IDS, MPI_INTEGER, IDX, IERR)
      CALL MPI_TYPE_COMMIT(IDX, IERR)
      CALL MPI_TYPE_GET_EXTENT(IDX, LB, EXT, IERR)
      CALL MPI_TYPE_SIZE(IDX, ISZ, IERR)
      IF (LB .NE. 0 .OR. EXT .NE. 44 .OR. ISZ .NE. 24) ERRS = ERRS + 1
      CALL MPI_SENDRECV(V, 1, IDX, NEXT, 3, W, 6, MPI_INTEGER, PREV, 3,
     &     MPI_COMM_WORLD, MPI_STATUS_IGNORE, IERR)
      IF (W(1) .NE. 100 * PREV + 1 .OR. W(2) .NE. 100 * PREV + 2 .OR.
     &    W(3) .NE. 100 * PREV + 5 .OR. W(4) .NE. 100 * PREV + 9 .OR.
     &    W(6) .NE. 100 * PREV + 11) ERRS = ERRS + 1
      CALL MPI_TYPE_FREE(IDX, IERR)

! rank r gives r+1 values r; at the root block r starts at r(r+1)/2 + r
      ALLOCATE(CNTS(NP), DSPL(NP), MINE(NP))
      TOTAL = NP * (NP + 1) / 2 + NP
      ALLOCATE(G(TOTAL))
      DO I = 1, NP
         CNTS(I) = I
         DSPL(I) = (I - 1) * I / 2 + (I - 1)
      END DO
      DO I = 1, RANK + 1
         MINE(I) = RANK
      END DO
      G = -1
      CALL MPI_GATHERV(MINE, RANK + 1, MPI_INTEGER, G, CNTS, DSPL,
     &     MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
      IF (RANK .EQ. 0) THEN
         DO I = 1, NP
            DO J = 1, I
               IF (G(DSPL(I) + J) .NE. I - 1) ERRS = ERRS + 1
            END DO
            IF (G(DSPL(I) + I + 1) .NE. -1) ERRS = ERRS + 1
         END DO
         DO I = 1, NP
            DO J = 1, I
               G(DSPL(I) + J) = 10 * I + J
            END DO
         END DO
      END IF
      MINE = -1
      CALL MPI_SCATTERV(G, CNTS, DSPL, MPI_INTEGER, MINE, RANK + 1,
     &     MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
      DO J = 1, RANK + 1
         IF (MINE(J) .NE. 10 * (RANK + 1) + J) ERRS = ERRS + 1
      END DO
      DEALLOCATE(G, CNTS, DSPL, MINE)

! a nonblocking collective
      ISEND = RANK + 1
      IRECV = 0
      CALL MPI_IALLREDUCE(ISEND, IRECV, 1, MPI_INTEGER, MPI_SUM,
     &     MPI_COMM_WORLD, REQ, IERR)
      CALL MPI_WAIT(REQ, MPI_STATUS_IGNORE, IERR)
      IF (IRECV .NE. NP * (NP + 1) / 2 .OR. REQ .NE. MPI_REQUEST_NULL)
     &     ERRS = ERRS + 1

      CALL RX_REPORT77(ERRS)
      CALL MPI_FINALIZE(IERR)
      END
