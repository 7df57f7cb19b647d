! SPDX-License-Identifier: MIT
! Fortran 77 interface (include 'mpif.h'): point-to-point with statuses,
! collectives with MPI_IN_PLACE and LOGICAL reductions, a vector datatype,
! communicator split and names, one-sided fence epochs. Any rank count.
      PROGRAM F77BASIC
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, NP, NEXT, PREV, I, N, ERRS
      INTEGER STATUS(MPI_STATUS_SIZE), COUNT, SODD(MPI_STATUS_SIZE+1)
      INTEGER SBUF(10), RBUF(10), ISUM
      DOUBLE PRECISION D, DSUM, T0
      LOGICAL L, LALL, LANY, FLAG
      INTEGER NEWCOMM, NRANK, NSIZE, RESLEN, VTYPE
      INTEGER MAT(4,3), COL(4)
      CHARACTER*(MPI_MAX_OBJECT_NAME) NAME
      INTEGER WIN, WBUF(4)
      INTEGER(KIND=MPI_ADDRESS_KIND) WSIZE, DISP
      ERRS = 0
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      NEXT = MOD(RANK + 1, NP)
      PREV = MOD(RANK + NP - 1, NP)
      T0 = MPI_WTIME()

! ring: send to the next rank, receive from the previous one
      DO I = 1, 10
         SBUF(I) = RANK * 100 + I
      END DO
      CALL MPI_SENDRECV(SBUF, 10, MPI_INTEGER, NEXT, 7, RBUF, 10,
     &     MPI_INTEGER, PREV, 7, MPI_COMM_WORLD, STATUS, IERR)
      IF (IERR .NE. MPI_SUCCESS) ERRS = ERRS + 1
      IF (STATUS(MPI_SOURCE) .NE. PREV) ERRS = ERRS + 1
      IF (STATUS(MPI_TAG) .NE. 7) ERRS = ERRS + 1
      CALL MPI_GET_COUNT(STATUS, MPI_INTEGER, COUNT, IERR)
      IF (COUNT .NE. 10) ERRS = ERRS + 1
      DO I = 1, 10
         IF (RBUF(I) .NE. PREV * 100 + I) ERRS = ERRS + 1
      END DO
! a status at a 4-byte boundary (the library writes aligned ones in place)
      CALL MPI_SENDRECV(SBUF, 3, MPI_INTEGER, NEXT, 6, RBUF, 10,
     &     MPI_INTEGER, PREV, 6, MPI_COMM_WORLD, SODD(2), IERR)
      IF (SODD(1 + MPI_SOURCE) .NE. PREV) ERRS = ERRS + 1
      IF (SODD(1 + MPI_TAG) .NE. 6) ERRS = ERRS + 1
      CALL MPI_GET_COUNT(SODD(2), MPI_INTEGER, COUNT, IERR)
      IF (COUNT .NE. 3) ERRS = ERRS + 1
! the same with MPI_STATUS_IGNORE and nonblocking calls
      CALL MPI_IRECV(RBUF, 10, MPI_INTEGER, PREV, 8, MPI_COMM_WORLD,
     &     N, IERR)
      CALL MPI_SEND(SBUF, 5, MPI_INTEGER, NEXT, 8, MPI_COMM_WORLD,
     &     IERR)
      CALL MPI_WAIT(N, MPI_STATUS_IGNORE, IERR)
      IF (N .NE. MPI_REQUEST_NULL) ERRS = ERRS + 1
      IF (RBUF(5) .NE. PREV * 100 + 5) ERRS = ERRS + 1

! collectives
      ISUM = RANK + 1
      CALL MPI_ALLREDUCE(MPI_IN_PLACE, ISUM, 1, MPI_INTEGER, MPI_SUM,
     &     MPI_COMM_WORLD, IERR)
      IF (ISUM .NE. NP * (NP + 1) / 2) ERRS = ERRS + 1
      D = 0.5D0 * RANK
      CALL MPI_REDUCE(D, DSUM, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0,
     &     MPI_COMM_WORLD, IERR)
      IF (RANK .EQ. 0 .AND. ABS(DSUM - 0.25D0 * NP * (NP - 1))
     &     .GT. 1D-12) ERRS = ERRS + 1
      L = .TRUE.
      IF (RANK .EQ. NP - 1) L = .FALSE.
      CALL MPI_ALLREDUCE(L, LALL, 1, MPI_LOGICAL, MPI_LAND,
     &     MPI_COMM_WORLD, IERR)
      CALL MPI_ALLREDUCE(L, LANY, 1, MPI_LOGICAL, MPI_LOR,
     &     MPI_COMM_WORLD, IERR)
      IF (LALL .NEQV. (NP .EQ. 0)) ERRS = ERRS + 1
      IF (LANY .NEQV. (NP .GT. 1)) ERRS = ERRS + 1
      N = 0
      IF (RANK .EQ. 0) N = 42
      CALL MPI_BCAST(N, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
      IF (N .NE. 42) ERRS = ERRS + 1

! a row of a Fortran matrix is strided: a vector type sends it
      DO N = 1, 3
         DO I = 1, 4
            MAT(I, N) = 4 * (N - 1) + I + RANK
         END DO
      END DO
      CALL MPI_TYPE_VECTOR(3, 1, 4, MPI_INTEGER, VTYPE, IERR)
      CALL MPI_TYPE_COMMIT(VTYPE, IERR)
      CALL MPI_SENDRECV(MAT(2,1), 1, VTYPE, NEXT, 9, COL, 3,
     &     MPI_INTEGER, PREV, 9, MPI_COMM_WORLD, STATUS, IERR)
      DO I = 1, 3
         IF (COL(I) .NE. 2 + 4 * (I - 1) + PREV) ERRS = ERRS + 1
      END DO
      CALL MPI_TYPE_FREE(VTYPE, IERR)
      IF (VTYPE .NE. MPI_DATATYPE_NULL) ERRS = ERRS + 1

! communicators: split by parity, names as Fortran strings
      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, MOD(RANK, 2), -RANK,
     &     NEWCOMM, IERR)
      CALL MPI_COMM_RANK(NEWCOMM, NRANK, IERR)
      CALL MPI_COMM_SIZE(NEWCOMM, NSIZE, IERR)
      IF (NSIZE .NE. (NP + 1 - MOD(RANK, 2)) / 2) ERRS = ERRS + 1
      IF (NRANK .NE. NSIZE - 1 - RANK / 2) ERRS = ERRS + 1
      CALL MPI_COMM_SET_NAME(NEWCOMM, 'parity   ', IERR)
      CALL MPI_COMM_GET_NAME(NEWCOMM, NAME, RESLEN, IERR)
      IF (NAME .NE. 'parity' .OR. RESLEN .NE. 6) ERRS = ERRS + 1
      CALL MPI_COMM_FREE(NEWCOMM, IERR)
      IF (NEWCOMM .NE. MPI_COMM_NULL) ERRS = ERRS + 1

! one-sided: every rank puts its rank into the next one's window
      WBUF = -1
      WSIZE = 16
      CALL MPI_WIN_CREATE(WBUF, WSIZE, 4, MPI_INFO_NULL,
     &     MPI_COMM_WORLD, WIN, IERR)
      CALL MPI_WIN_FENCE(0, WIN, IERR)
      DISP = 2
      CALL MPI_PUT(RANK, 1, MPI_INTEGER, NEXT, DISP, 1, MPI_INTEGER,
     &     WIN, IERR)
      CALL MPI_WIN_FENCE(0, WIN, IERR)
      IF (WBUF(3) .NE. PREV .OR. WBUF(1) .NE. -1) ERRS = ERRS + 1
      CALL MPI_WIN_FREE(WIN, IERR)

! errors come back as ierror under MPI_ERRORS_RETURN
      CALL MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN,
     &     IERR)
      CALL MPI_SEND(SBUF, 1, MPI_INTEGER, NP, 0, MPI_COMM_WORLD, IERR)
      CALL MPI_ERROR_CLASS(IERR, N, I)
      IF (N .NE. MPI_ERR_RANK) ERRS = ERRS + 1
      CALL MPI_INITIALIZED(FLAG, IERR)
      IF (.NOT. FLAG) ERRS = ERRS + 1
      IF (MPI_WTIME() .LT. T0) ERRS = ERRS + 1

      CALL RX_REPORT77(ERRS)
      CALL MPI_FINALIZE(IERR)
      END
