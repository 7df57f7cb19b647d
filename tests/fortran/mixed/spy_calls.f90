! SPDX-License-Identifier: MIT
! What rdmx's hand-written Fortran bindings hand the C library, seen by a
! profiling spy (mpi_spy.c). Spawn: argv(*) ends at its first blank entry and
! loses trailing blanks; array_of_argv(count, *) gives command i the entries
! of row i; MPI_ARGV_NULL, MPI_ARGVS_NULL and MPI_ERRCODES_IGNORE become the C
! sentinels; the arrays are read at the root only. Register_datarep (_c):
! the C callbacks call the Fortran procedures with their arguments and
! extra_state, MPI_CONVERSION_FN_NULL becomes NULL. Every call returns the C
! call's error. Any rank count.
module spy_conv
  use mpi_f08
  use, intrinsic :: iso_c_binding
  implicit none
contains
  ! file(i) = user(i) * 10 + position + extra_state, for count C ints
  subroutine to_file(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    type(c_ptr), value :: userbuf, filebuf
    type(MPI_Datatype) :: datatype
    integer :: count, ierror
    integer(MPI_OFFSET_KIND) :: position
    integer(MPI_ADDRESS_KIND) :: extra_state
    integer(c_int), pointer :: user(:), file(:)
    call c_f_pointer(userbuf, user, [count])
    call c_f_pointer(filebuf, file, [count])
    file = user * 10 + int(position) + int(extra_state)
    ierror = MPI_SUCCESS
  end subroutine

  subroutine to_file_c(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    type(c_ptr), value :: userbuf, filebuf
    type(MPI_Datatype) :: datatype
    integer(MPI_COUNT_KIND) :: count
    integer :: ierror
    integer(MPI_OFFSET_KIND) :: position
    integer(MPI_ADDRESS_KIND) :: extra_state
    call to_file(userbuf, datatype, int(count), filebuf, position, extra_state + 1, ierror)
  end subroutine

  subroutine extent4(datatype, extent, extra_state, ierror)
    type(MPI_Datatype) :: datatype
    integer(MPI_ADDRESS_KIND) :: extent, extra_state
    integer :: ierror
    extent = 4 + extra_state
    ierror = MPI_SUCCESS
  end subroutine
end module

program spy_calls
  use mpi_f08
  use rxtest
  use spy_conv
  use, intrinsic :: iso_c_binding
  implicit none
  interface
    subroutine rx_spy_seen(out, len) bind(C)
      import :: c_char, c_int
      character(kind=c_char) :: out(*)
      integer(c_int), value :: len
    end subroutine
    integer(c_int) function rx_spy_rc() bind(C)
      import :: c_int
    end function
  end interface
  character(len=10) :: argv(4), table(2, 3), cmds(2)
  integer :: errs, ierr, rank, codes(3), maxprocs(2)
  type(MPI_Comm) :: inter
  type(MPI_Info) :: infos(2)
  errs = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)

  argv = [character(len=10) :: ' lead', 'x y  ', ' ', 'unread']
  call MPI_Comm_spawn('./child  ', argv, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, codes, &
                      ierr)
  call check_at_root('spawn ./child argv=[ lead][x y] maxprocs=2 codes=kept', &
                     'spawn (null) argv=NULL maxprocs=2 codes=kept')
  call MPI_Comm_spawn('c', MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, &
                      MPI_ERRCODES_IGNORE, ierr)
  call check_at_root('spawn c argv=NULL maxprocs=1 codes=ignored', &
                     'spawn (null) argv=NULL maxprocs=1 codes=ignored')
  argv(1) = ' '  ! an empty list
  call MPI_Comm_spawn('c', argv, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, codes, ierr)
  if (rank == 0) call check('spawn c argv= maxprocs=1 codes=kept')

  table = reshape([character(len=10) :: 'a1', 'b1', 'a2', ' ', ' ', ' '], [2, 3])
  cmds = [character(len=10) :: 'one', 'two  ']
  maxprocs = [1, 2]
  infos = MPI_INFO_NULL
  call MPI_Comm_spawn_multiple(2, cmds, table, maxprocs, infos, 0, MPI_COMM_WORLD, inter, &
                               codes, ierr)
  if (rank == 0) call check('multiple one argv=[a1][a2] maxprocs=1 two argv=[b1] maxprocs=2 codes=kept')
  call MPI_Comm_spawn_multiple(2, cmds, MPI_ARGVS_NULL, maxprocs, infos, 0, MPI_COMM_WORLD, &
                               inter, MPI_ERRCODES_IGNORE, ierr)
  if (rank == 0) call check('multiple one maxprocs=1 two maxprocs=2 argvs=NULL codes=ignored')
  if (rank /= 0) call check('multiple argvs=NULL codes=ignored')

  call MPI_Register_datarep('spyrep  ', to_file, MPI_CONVERSION_FN_NULL, extent4, &
                            5_MPI_ADDRESS_KIND, ierr)
  call check('datarep spyrep read=0:31,41,51 write=NULL extent=0:9')
  call MPI_Register_datarep_c('spyrep', MPI_CONVERSION_FN_NULL_C, to_file_c, extent4, &
                              5_MPI_ADDRESS_KIND, ierr)
  call check('datarep_c spyrep read=NULL write=0:32,42,52 extent=0:9')
  call rx_report(errs)
  call MPI_Finalize()
contains
  subroutine check_at_root(at_root, elsewhere)
    character(len=*), intent(in) :: at_root, elsewhere
    if (rank == 0) then
      call check(at_root)
    else
      call check(elsewhere)
    end if
  end subroutine

  ! the spy saw want, and the Fortran call returned the C call's error
  subroutine check(want)
    character(len=*), intent(in) :: want
    character(len=200) :: got
    integer :: rc
    call rx_spy_seen(got, len(got))
    rc = rx_spy_rc()
    if (got /= want .or. ierr /= rc) then
      errs = errs + 1
      print '(a, i0, 4a)', ' rank ', rank, ': spy saw "', trim(got), '", wanted "', trim(want), '"'
    end if
  end subroutine
end program
