! SPDX-License-Identifier: MIT
! MPI_SIZEOF through include 'mpif.h' (deprecated since MPI-4.0, still
! provided): the size of one element of scalars and arrays of several
! types and kinds. Any rank count. The standard defines MPI_SIZEOF for
! numeric types; CHARACTER is checked on strings of length 1 only, where
! implementations agree (of a CHARACTER*7, rdmx gives 7, the size of the
! string, and Open MPI 4.1 gives 1, the size of one character).
! run-with: not mpich (MPICH 4.0's mpif.h has no MPI_SIZEOF)
      PROGRAM F77SIZEOF
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, ERRS, ISZ
      INTEGER(KIND=1) I1(3)
      INTEGER(KIND=8) I8
      REAL R4(2,2)
      DOUBLE PRECISION D
      COMPLEX(KIND=8) Z(4)
      LOGICAL L
      CHARACTER C(7)
      ERRS = 0
      CALL MPI_INIT(IERR)
      CALL MPI_SIZEOF(I1, ISZ, IERR)
      IF (ISZ .NE. 1 .OR. IERR .NE. MPI_SUCCESS) ERRS = ERRS + 1
      CALL MPI_SIZEOF(I8, ISZ, IERR)
      IF (ISZ .NE. 8) ERRS = ERRS + 1
      CALL MPI_SIZEOF(R4, ISZ, IERR)
      IF (ISZ .NE. 4) ERRS = ERRS + 1
      CALL MPI_SIZEOF(D, ISZ, IERR)
      IF (ISZ .NE. 8) ERRS = ERRS + 1
      CALL MPI_SIZEOF(Z, ISZ, IERR)
      IF (ISZ .NE. 16) ERRS = ERRS + 1
      CALL MPI_SIZEOF(L, ISZ, IERR)
      IF (ISZ .NE. 4) ERRS = ERRS + 1
      CALL MPI_SIZEOF(C, ISZ, IERR)
      IF (ISZ .NE. 1) ERRS = ERRS + 1
      CALL RX_REPORT77(ERRS)
      CALL MPI_FINALIZE(IERR)
      END
