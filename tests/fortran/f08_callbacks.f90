! SPDX-License-Identifier: MIT
! Module mpi_f08: callbacks the library calls with Fortran arguments.
! Communicator, datatype and window keyvals with the program's copy and delete
! procedures (attribute values and extra_state INTEGER(KIND=MPI_ADDRESS_KIND))
! and with the predefined MPI_COMM_DUP_FN, MPI_COMM_NULL_COPY_FN,
! MPI_TYPE_DUP_FN, ..., a copy procedure that fails, generalized requests
! (query, free and cancel procedures) and MPI_Register_datarep. Any rank count.
module f08_cb
  use mpi_f08
  implicit none
  integer :: ncopy = 0, ndelete = 0, nquery = 0, nfree = 0, ncancel = 0
  integer(MPI_ADDRESS_KIND) :: last_deleted = -1, seen_extra = -1
  logical :: cancel_complete = .true.
contains
  ! copies value + extra_state
  subroutine copy_plus(oldcomm, keyval, extra_state, val_in, val_out, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: keyval, ierror
    integer(MPI_ADDRESS_KIND) :: extra_state, val_in, val_out
    logical :: flag
    ncopy = ncopy + 1
    val_out = val_in + extra_state
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine

  subroutine delete_note(comm, keyval, val, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: keyval, ierror
    integer(MPI_ADDRESS_KIND) :: val, extra_state
    ndelete = ndelete + 1
    last_deleted = val
    seen_extra = extra_state
    ierror = MPI_SUCCESS
  end subroutine

  ! a program's copy procedure may call the predefined one
  subroutine copy_via_dup_fn(oldcomm, keyval, extra_state, val_in, val_out, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: keyval, ierror
    integer(MPI_ADDRESS_KIND) :: extra_state, val_in, val_out
    logical :: flag
    call MPI_COMM_DUP_FN(oldcomm, keyval, extra_state, val_in, val_out, flag, ierror)
  end subroutine

  subroutine copy_fails(oldcomm, keyval, extra_state, val_in, val_out, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: keyval, ierror
    integer(MPI_ADDRESS_KIND) :: extra_state, val_in, val_out
    logical :: flag
    flag = .false.
    ierror = MPI_ERR_OTHER
  end subroutine

  subroutine type_copy(oldtype, keyval, extra_state, val_in, val_out, flag, ierror)
    type(MPI_Datatype) :: oldtype
    integer :: keyval, ierror
    integer(MPI_ADDRESS_KIND) :: extra_state, val_in, val_out
    logical :: flag
    ncopy = ncopy + 1
    val_out = -val_in
    flag = oldtype /= MPI_DATATYPE_NULL
    ierror = MPI_SUCCESS
  end subroutine

  subroutine type_delete(datatype, keyval, val, extra_state, ierror)
    type(MPI_Datatype) :: datatype
    integer :: keyval, ierror
    integer(MPI_ADDRESS_KIND) :: val, extra_state
    ndelete = ndelete + 1
    last_deleted = val
    ierror = MPI_SUCCESS
  end subroutine

  subroutine win_delete(win, keyval, val, extra_state, ierror)
    type(MPI_Win) :: win
    integer :: keyval, ierror
    integer(MPI_ADDRESS_KIND) :: val, extra_state
    ndelete = ndelete + 1
    last_deleted = val + extra_state
    ierror = MPI_SUCCESS
  end subroutine

  subroutine win_copy_unused(oldwin, keyval, extra_state, val_in, val_out, flag, ierror)
    type(MPI_Win) :: oldwin
    integer :: keyval, ierror
    integer(MPI_ADDRESS_KIND) :: extra_state, val_in, val_out
    logical :: flag
    flag = .false.
    ierror = MPI_ERR_OTHER  ! windows are never copied
  end subroutine

  subroutine query(extra_state, status, ierror)
    integer(MPI_ADDRESS_KIND) :: extra_state
    type(MPI_Status) :: status
    integer :: ierror
    nquery = nquery + 1
    call MPI_Status_set_elements(status, MPI_INTEGER, 3, ierror)
    call MPI_Status_set_cancelled(status, .false., ierror)
    status%MPI_SOURCE = int(extra_state)
    status%MPI_TAG = 42
    ierror = MPI_SUCCESS
  end subroutine

  subroutine free_fn(extra_state, ierror)
    integer(MPI_ADDRESS_KIND) :: extra_state
    integer :: ierror
    nfree = nfree + 1
    seen_extra = extra_state
    ierror = MPI_SUCCESS
  end subroutine

  subroutine cancel_fn(extra_state, complete, ierror)
    integer(MPI_ADDRESS_KIND) :: extra_state
    logical :: complete
    integer :: ierror
    ncancel = ncancel + 1
    cancel_complete = complete
    ierror = MPI_SUCCESS
  end subroutine

  subroutine conv(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    use, intrinsic :: iso_c_binding, only: c_ptr
    type(c_ptr), value :: userbuf, filebuf
    type(MPI_Datatype) :: datatype
    integer :: count, ierror
    integer(MPI_OFFSET_KIND) :: position
    integer(MPI_ADDRESS_KIND) :: extra_state
    ierror = MPI_SUCCESS
  end subroutine

  subroutine extent_fn(datatype, extent, extra_state, ierror)
    type(MPI_Datatype) :: datatype
    integer(MPI_ADDRESS_KIND) :: extent, extra_state, lb
    integer :: ierror
    call MPI_Type_get_extent(datatype, lb, extent, ierror)
  end subroutine
end module

program f08_callbacks
  use mpi_f08
  use rxtest
  use f08_cb
  implicit none
  integer :: errs, ierr, key, key2, key3, tkey, wkey, rank, cls, i
  type(MPI_Comm) :: dup, dup2
  type(MPI_Datatype) :: t, t2
  type(MPI_Win) :: win
  type(MPI_Request) :: req
  type(MPI_Status) :: st
  integer(MPI_ADDRESS_KIND) :: val
  integer :: wbuf(4), count
  logical :: flag
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: version
  errs = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Get_library_version(version, i)

  ! ---- communicator keyvals: the program's procedures, extra_state 1000
  call MPI_Comm_create_keyval(copy_plus, delete_note, key, 1000_MPI_ADDRESS_KIND, ierr)
  if (ierr /= MPI_SUCCESS) errs = errs + 1
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_set_attr(dup, key, 7_MPI_ADDRESS_KIND)
  call MPI_Comm_dup(dup, dup2)
  if (ncopy /= 1) errs = errs + 1
  call MPI_Comm_get_attr(dup2, key, val, flag)
  if (.not. flag .or. val /= 1007) errs = errs + 1
  ! replacing a value deletes the old one
  call MPI_Comm_set_attr(dup2, key, 8_MPI_ADDRESS_KIND)
  if (ndelete /= 1 .or. last_deleted /= 1007 .or. seen_extra /= 1000) errs = errs + 1
  call MPI_Comm_free(dup2)
  if (ndelete /= 2 .or. last_deleted /= 8) errs = errs + 1
  ! a freed keyval lives on in the attributes that use it
  call MPI_Comm_free_keyval(key)
  if (key /= MPI_KEYVAL_INVALID) errs = errs + 1
  call MPI_Comm_free(dup)
  if (ndelete /= 3 .or. last_deleted /= 7) errs = errs + 1

  ! ---- the predefined procedures
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key, 0_MPI_ADDRESS_KIND)
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, key2, &
                              0_MPI_ADDRESS_KIND)
  call MPI_Comm_create_keyval(copy_via_dup_fn, delete_note, key3, 5_MPI_ADDRESS_KIND)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_set_attr(dup, key, 123456789012_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(dup, key2, 11_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(dup, key3, -3_MPI_ADDRESS_KIND)
  call MPI_Comm_dup(dup, dup2)
  call MPI_Comm_get_attr(dup2, key, val, flag)
  if (.not. flag .or. val /= 123456789012_MPI_ADDRESS_KIND) errs = errs + 1
  call MPI_Comm_get_attr(dup2, key2, val, flag)
  if (flag) errs = errs + 1  ! MPI_COMM_NULL_COPY_FN: not copied
  call MPI_Comm_get_attr(dup2, key3, val, flag)
  if (.not. flag .or. val /= -3) errs = errs + 1
  ndelete = 0
  call MPI_Comm_free(dup2)
  if (ndelete /= 1 .or. last_deleted /= -3 .or. seen_extra /= 5) errs = errs + 1
  call MPI_Comm_free(dup)
  call MPI_Comm_free_keyval(key)
  call MPI_Comm_free_keyval(key2)
  call MPI_Comm_free_keyval(key3)

  ! ---- a copy procedure's error fails the duplication
  call MPI_Comm_create_keyval(copy_fails, MPI_COMM_NULL_DELETE_FN, key, 0_MPI_ADDRESS_KIND)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN)
  call MPI_Comm_set_attr(dup, key, 1_MPI_ADDRESS_KIND)
  call MPI_Comm_dup(dup, dup2, ierr)
  if (ierr == MPI_SUCCESS) then
    errs = errs + 1
    call MPI_Comm_free(dup2)
  end if
  call MPI_Comm_delete_attr(dup, key)
  call MPI_Comm_free(dup)
  call MPI_Comm_free_keyval(key)

  ! ---- datatype keyvals
  ncopy = 0
  ndelete = 0
  call MPI_Type_create_keyval(type_copy, type_delete, tkey, 0_MPI_ADDRESS_KIND)
  call MPI_Type_contiguous(2, MPI_INTEGER, t)
  call MPI_Type_set_attr(t, tkey, 21_MPI_ADDRESS_KIND)
  call MPI_Type_dup(t, t2)
  call MPI_Type_get_attr(t2, tkey, val, flag)
  if (ncopy /= 1 .or. .not. flag .or. val /= -21) errs = errs + 1
  call MPI_Type_free(t2)
  if (ndelete /= 1 .or. last_deleted /= -21) errs = errs + 1
  call MPI_Type_free_keyval(tkey)
  call MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, tkey, 0_MPI_ADDRESS_KIND)
  call MPI_Type_set_attr(t, tkey, 99_MPI_ADDRESS_KIND)
  call MPI_Type_dup(t, t2)
  call MPI_Type_get_attr(t2, tkey, val, flag)
  if (.not. flag .or. val /= 99) errs = errs + 1
  call MPI_Type_free(t2)  ! the first keyval's attribute was copied too (-21)
  if (ncopy /= 2 .or. ndelete /= 2 .or. last_deleted /= -21) errs = errs + 1
  call MPI_Type_free(t)
  if (ndelete /= 3 .or. last_deleted /= 21) errs = errs + 1
  call MPI_Type_free_keyval(tkey)

  ! ---- window keyvals: deleted when the window is freed
  ndelete = 0
  call MPI_Win_create_keyval(win_copy_unused, win_delete, wkey, 100_MPI_ADDRESS_KIND)
  call MPI_Win_create(wbuf, 16_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win)
  call MPI_Win_set_attr(win, wkey, 5_MPI_ADDRESS_KIND)
  call MPI_Win_get_attr(win, wkey, val, flag)
  if (.not. flag .or. val /= 5) errs = errs + 1
  call MPI_Win_free(win)
  if (ndelete /= 1 .or. last_deleted /= 105) errs = errs + 1
  call MPI_Win_free_keyval(wkey)
  call MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, wkey, &
                             0_MPI_ADDRESS_KIND, ierr)
  if (ierr /= MPI_SUCCESS) errs = errs + 1
  call MPI_Win_free_keyval(wkey)

  ! ---- generalized requests: query fills the status, free runs once
  call MPI_Grequest_start(query, free_fn, cancel_fn, 17_MPI_ADDRESS_KIND, req)
  call MPI_Grequest_complete(req)
  call MPI_Wait(req, st)
  if (nquery /= 1 .or. nfree /= 1 .or. seen_extra /= 17) errs = errs + 1
  if (req /= MPI_REQUEST_NULL .or. st%MPI_SOURCE /= 17 .or. st%MPI_TAG /= 42) errs = errs + 1
  call MPI_Get_count(st, MPI_INTEGER, count)
  if (count /= 3) errs = errs + 1
  ! cancelled before it completes: cancel is told it is not complete
  call MPI_Grequest_start(query, free_fn, cancel_fn, 18_MPI_ADDRESS_KIND, req)
  call MPI_Cancel(req)
  if (ncancel /= 1 .or. cancel_complete) errs = errs + 1
  call MPI_Grequest_complete(req)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  if (nfree /= 2 .or. seen_extra /= 18) errs = errs + 1

  ! ---- data representations: a new name registers, or the library says it
  ! cannot convert (rdmx: MPI_ERR_UNSUPPORTED_DATAREP, docs/mpi-io.md; MPICH 4.0
  ! and Open MPI 4.1: MPI_ERR_CONVERSION); "native" is taken (rdmx:
  ! MPI_ERR_DUP_DATAREP; MPICH 4.0 registers it again, Open MPI 4.1 answers
  ! MPI_ERR_CONVERSION: neither is checked)
  call MPI_Register_datarep('rx_f08_rep', conv, conv, extent_fn, 0_MPI_ADDRESS_KIND, ierr)
  call MPI_Error_class(ierr, cls)
  if (ierr /= MPI_SUCCESS .and. cls /= MPI_ERR_UNSUPPORTED_DATAREP .and. &
      cls /= MPI_ERR_CONVERSION) errs = errs + 1
  call MPI_Register_datarep('native', MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, &
                            extent_fn, 0_MPI_ADDRESS_KIND, ierr)
  call MPI_Error_class(ierr, cls)
  if (index(version, 'rdmx') > 0 .and. cls /= MPI_ERR_DUP_DATAREP) errs = errs + 1

  call rx_report(errs)
  call MPI_Finalize()
end program
