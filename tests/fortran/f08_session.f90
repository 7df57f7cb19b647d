! SPDX-License-Identifier: MIT
! Sessions (MPI-4.0 §11.3) in module mpi_f08 (TYPE(MPI_Session)) and module
! mpi (INTEGER handles, the same values): process sets and their names,
! MPI_Group_from_session_pset, a communicator from the group, the session's
! info and error handler, MPI_Session_finalize. Any rank count.
! run-with: not openmpi (Open MPI 4.1 implements MPI-3.1: no sessions)
! run-with: not mpich (MPICH 4.0.2's mpi_f08 lacks MPI_SESSION_NULL and MPI_MAX_PSET_NAME_LEN: does not build)
module session_eh
  use mpi_f08
  implicit none
  integer :: ncalls = 0, last_code = 0
contains
  subroutine on_error(session, code)
    type(MPI_Session) :: session
    integer :: code
    ncalls = ncalls + 1
    last_code = code
  end subroutine
end module

! module mpi: an INTEGER session handle; returns its number of process sets
integer function psets_with_module_mpi(session)
  use mpi
  implicit none
  integer, intent(in) :: session
  integer :: n, ierr
  call MPI_Session_get_num_psets(session, MPI_INFO_NULL, n, ierr)
  psets_with_module_mpi = n
  if (ierr /= MPI_SUCCESS) psets_with_module_mpi = -1
end function

program f08_session
  use mpi_f08
  use rxtest
  use session_eh
  implicit none
  type(MPI_Session) :: s, s2
  type(MPI_Group) :: g
  type(MPI_Comm) :: comm
  type(MPI_Info) :: info
  type(MPI_Errhandler) :: eh, eh2
  integer :: errs, n, i, plen, np, gsize, csize, ierr, psets_with_module_mpi
  character(len=MPI_MAX_PSET_NAME_LEN) :: name
  character(len=4) :: short
  character(len=MPI_MAX_INFO_VAL) :: val
  logical :: flag, world_seen
  errs = 0
  ! a session before MPI_Init (the World Model starts later)
  call MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, s, ierr)
  if (ierr /= MPI_SUCCESS .or. s == MPI_SESSION_NULL) errs = errs + 1
  call MPI_Session_get_num_psets(s, MPI_INFO_NULL, n)
  if (n < 2) errs = errs + 1
  if (psets_with_module_mpi(s%MPI_VAL) /= n) errs = errs + 1
  world_seen = .false.
  do i = 0, n - 1
    plen = 0  ! 0 asks for the length: in Fortran without a terminator
    call MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, plen, name)
    if (plen <= 0 .or. plen > MPI_MAX_PSET_NAME_LEN) errs = errs + 1
    plen = MPI_MAX_PSET_NAME_LEN
    call MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, plen, name)
    if (plen /= len_trim(name)) errs = errs + 1
    if (name == 'mpi://WORLD') world_seen = .true.
  end do
  if (.not. world_seen) errs = errs + 1
  ! a short buffer gets the name's first characters, and the length it needs
  plen = len(short)
  call MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, plen, short)
  if (short /= 'mpi:' .or. plen < 9) errs = errs + 1

  call MPI_Session_get_pset_info(s, 'mpi://WORLD', info)
  plen = 0  ! MPI_Info_get_string's length leaves out the terminator as well
  call MPI_Info_get_string(info, 'mpi_size', plen, val, flag)
  if (.not. flag .or. plen < 1) errs = errs + 1
  plen = len(val)
  call MPI_Info_get_string(info, 'mpi_size', plen, val, flag)
  call MPI_Info_free(info)
  if (.not. flag .or. plen /= len_trim(val)) errs = errs + 1
  read (val, *) np
  call MPI_Group_from_session_pset(s, 'mpi://WORLD', g)
  call MPI_Group_size(g, gsize)
  if (gsize /= np) errs = errs + 1
  call MPI_Comm_create_from_group(g, 'rdmx.tests.f08_session', MPI_INFO_NULL, &
                                  MPI_ERRORS_RETURN, comm)
  call MPI_Comm_size(comm, csize)
  if (csize /= np) errs = errs + 1
  n = 1
  call MPI_Allreduce(MPI_IN_PLACE, n, 1, MPI_INTEGER, MPI_SUM, comm)
  if (n /= np) errs = errs + 1
  call MPI_Group_free(g)
  call MPI_Comm_free(comm)

  call MPI_Session_get_info(s, info)
  if (info == MPI_INFO_NULL) errs = errs + 1
  call MPI_Info_free(info)

  ! the session's error handler: the program's procedure
  call MPI_Session_create_errhandler(on_error, eh)
  call MPI_Session_set_errhandler(s, eh)
  call MPI_Session_get_errhandler(s, eh2)
  if (eh2 /= eh) errs = errs + 1
  call MPI_Errhandler_free(eh2)
  call MPI_Session_call_errhandler(s, MPI_ERR_OTHER)
  if (ncalls /= 1 .or. last_code /= MPI_ERR_OTHER) errs = errs + 1
  call MPI_Session_get_nth_pset(s, MPI_INFO_NULL, -1, plen, name, ierr)
  if (ierr == MPI_SUCCESS .or. ncalls /= 2) errs = errs + 1
  call MPI_Errhandler_free(eh)

  ! a second session: its own handle
  call MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, s2)
  if (s2 == s .or. s2 == MPI_SESSION_NULL) errs = errs + 1
  call MPI_Session_finalize(s2)
  if (s2 /= MPI_SESSION_NULL) errs = errs + 1

  ! the verdict needs MPI_COMM_WORLD
  call MPI_Init()
  call MPI_Session_finalize(s)
  if (s /= MPI_SESSION_NULL) errs = errs + 1
  call rx_report(errs)
  call MPI_Finalize()
end program
