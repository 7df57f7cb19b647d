! SPDX-License-Identifier: MIT
! MPI_Comm_spawn and MPI_Comm_spawn_multiple from mpi_f08: the parent starts
! copies of this program with blank-padded argument lists (argv(*) up to its
! first blank entry, array_of_argv(count, *) by rows), MPI_ARGV_NULL,
! MPI_ARGVS_NULL and MPI_ERRCODES_IGNORE; each child checks the arguments it
! got and reports to the parent over the intercommunicator. A failed spawn
! counts as an error except under rdmx with MPI_ERR_SPAWN and every error code
! MPI_ERR_SPAWN (expect_failure: a launcher without room for the children).
! Any rank count.
! run-with: not mpich (MPICH 4.0.2 ch4:ucx cannot spawn: MPI_Comm_spawn fails with MPI_ERR_OTHER "Error in spawn call" before asking mpiexec, as its UCX netmod's MPIDI_UCX_get_local_upids returns ucx_nm_notsupported; the same from C)
program f08_spawn
  use mpi_f08
  use rxtest
  implicit none
  type(MPI_Comm) :: parent
  character(len=512) :: exe
  integer :: errs
  errs = 0
  call MPI_Init()
  call MPI_Comm_get_parent(parent)
  call get_command_argument(0, exe)
  if (parent == MPI_COMM_NULL) then
    call spawn_children(trim(exe), errs)
    call rx_report(errs)
  else
    call child(parent)
  end if
  call MPI_Finalize()
contains
  ! a child: argument 1 says which call started it, the rest what it must see
  subroutine child(parent)
    type(MPI_Comm), intent(inout) :: parent
    character(len=64) :: a1, a2
    integer :: n, bad
    integer(MPI_ADDRESS_KIND) :: appnum
    logical :: flag
    bad = 0
    n = command_argument_count()
    call get_command_argument(1, a1)
    call get_command_argument(2, a2)
    if (n == 0) then
      continue  ! MPI_ARGV_NULL / MPI_ARGVS_NULL
    else if (a1 == 'single') then
      if (n /= 2 .or. a2 /= 'x y') bad = 1  ! the inner blank stays, trailing ones go
    else if (a1 == 'multi') then
      call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, appnum, flag)
      if (n /= 2 .or. .not. flag) bad = 1
      if (flag .and. a2 /= merge('first ', 'second', appnum == 0)) bad = 1
    else
      bad = 1
    end if
    call MPI_Reduce(bad, n, 1, MPI_INTEGER, MPI_SUM, 0, parent)
    call MPI_Comm_disconnect(parent)
  end subroutine

  ! collects the children's verdicts; the root (0) of the parents gets them
  subroutine collect(inter, errs)
    type(MPI_Comm), intent(inout) :: inter
    integer, intent(inout) :: errs
    integer :: rank, bad, dummy
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    bad = 0
    dummy = 0
    call MPI_Reduce(dummy, bad, 1, MPI_INTEGER, MPI_SUM, &
                    merge(MPI_ROOT, MPI_PROC_NULL, rank == 0), inter)
    errs = errs + bad
    call MPI_Comm_disconnect(inter)
  end subroutine

  ! a failed call: MPI_ERR_SPAWN under rdmx only, its error codes too
  subroutine expect_failure(ierr, codes, n, errs)
    integer, intent(in) :: ierr, codes(:), n
    integer, intent(inout) :: errs
    integer :: cls, rank, vlen
    character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: version
    call MPI_Get_library_version(version, vlen)
    call MPI_Error_class(ierr, cls)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    if (cls /= MPI_ERR_SPAWN .or. index(version, 'rdmx') == 0) errs = errs + 1
    if (rank == 0 .and. n > 0) then
      if (any(codes(1:n) /= MPI_ERR_SPAWN)) errs = errs + 1
    end if
  end subroutine

  subroutine spawn_children(exe, errs)
    character(len=*), intent(in) :: exe
    integer, intent(inout) :: errs
    type(MPI_Comm) :: inter
    character(len=8) :: argv(3), table(2, 3)
    character(len=len(exe)) :: cmds(2)
    integer :: codes(4), ierr, maxprocs(2)
    type(MPI_Info) :: infos(2)
    integer :: rank
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    argv = [character(len=8) :: 'single', 'x y', ' ']
    codes = -1
    call MPI_Comm_spawn(exe, argv, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, codes, ierr)
    if (ierr == MPI_SUCCESS) then
      if (rank == 0 .and. any(codes(1:2) /= MPI_SUCCESS)) errs = errs + 1  ! set at the root
      call collect(inter, errs)
    else
      call expect_failure(ierr, codes, 2, errs)
    end if
    call MPI_Comm_spawn(exe, MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, &
                        MPI_ERRCODES_IGNORE, ierr)
    if (ierr == MPI_SUCCESS) then
      call collect(inter, errs)
    else
      call expect_failure(ierr, codes, 0, errs)
    end if
    ! row i: the arguments of command i
    table = reshape([character(len=8) :: 'multi', 'multi', 'first', 'second', ' ', ' '], [2, 3])
    cmds = exe
    maxprocs = [1, 2]
    infos = MPI_INFO_NULL
    codes = -1
    call MPI_Comm_spawn_multiple(2, cmds, table, maxprocs, infos, 0, MPI_COMM_WORLD, inter, &
                                 codes, ierr)
    if (ierr == MPI_SUCCESS) then
      if (rank == 0 .and. any(codes(1:3) /= MPI_SUCCESS)) errs = errs + 1
      call collect(inter, errs)
    else
      call expect_failure(ierr, codes, 3, errs)
    end if
    call MPI_Comm_spawn_multiple(2, cmds, MPI_ARGVS_NULL, maxprocs, infos, 0, MPI_COMM_WORLD, &
                                 inter, MPI_ERRCODES_IGNORE, ierr)
    if (ierr == MPI_SUCCESS) then
      call collect(inter, errs)
    else
      call expect_failure(ierr, codes, 0, errs)
    end if
  end subroutine
end program
