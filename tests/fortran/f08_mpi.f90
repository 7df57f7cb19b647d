! SPDX-License-Identifier: MIT
! Module mpi_f08: handle types and their comparison, TYPE(MPI_Status),
! optional ierror, nonblocking calls on sections, collectives with LOGICAL
! and user-defined reductions, a subarray datatype, one-sided communication
! in memory from MPI_Win_allocate, communicator and group calls, strings,
! and the same handle values as module mpi. Any rank count.
module f08_ops
  use mpi_f08
  use, intrinsic :: iso_c_binding
  implicit none
contains
  ! element-wise maximum of absolute values, as a user-defined operation
  subroutine absmax(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    real(8), pointer :: x(:), y(:)
    call c_f_pointer(invec, x, [len])
    call c_f_pointer(inoutvec, y, [len])
    if (datatype == MPI_DOUBLE_PRECISION) y = max(abs(x), abs(y))
  end subroutine
end module

! The handles module mpi gives are those of mpi_f08 (MPI_VAL).
integer function world_from_module_mpi()
  use mpi, only: MPI_COMM_WORLD
  world_from_module_mpi = MPI_COMM_WORLD
end function

program f08_mpi
  use mpi_f08
  use rxtest
  use f08_ops
  use, intrinsic :: iso_c_binding
  implicit none
  integer :: rank, np, next, prev, i, errs, ierr, n, cls, world_from_module_mpi
  type(MPI_Comm) :: comm, half
  type(MPI_Group) :: wgroup, g
  type(MPI_Request) :: reqs(2)
  type(MPI_Status) :: st, sts(2)
  type(MPI_Datatype) :: sub
  type(MPI_Op) :: op
  type(MPI_Win) :: win
  real(8) :: x(12), y(6), v(3)
  real(8), asynchronous :: xs(3), ys(3)
  integer :: cube(3, 3, 3), face(3, 3)
  logical :: lv(2), lr(2), flag
  type(c_ptr) :: base
  integer, pointer :: wmem(:)
  integer(MPI_ADDRESS_KIND) :: disp
  character(len=MPI_MAX_PROCESSOR_NAME) :: host
  character(len=MPI_MAX_OBJECT_NAME) :: cname
  character(len=MPI_MAX_INFO_VAL) :: val
  character(len=MPI_MAX_INFO_KEY) :: key
  type(MPI_Info) :: info
  integer(MPI_ADDRESS_KIND) :: a1, a2
  double precision :: t1
  errs = 0
  call MPI_Init()
  comm = MPI_COMM_WORLD
  call MPI_Comm_rank(comm, rank)
  call MPI_Comm_size(comm, np)
  next = mod(rank + 1, np)
  prev = mod(rank + np - 1, np)
  if (comm /= MPI_COMM_WORLD .or. .not. (comm == MPI_COMM_WORLD)) errs = errs + 1
  if (world_from_module_mpi() /= MPI_COMM_WORLD%MPI_VAL) errs = errs + 1

  ! every fourth element of x into every second of y, nonblocking; sections in
  ! nonblocking calls are portable only where MPI_SUBARRAYS_SUPPORTED (MPI-4.1
  ! 19.1.12; not Open MPI's), elsewhere they go through contiguous copies
  x = [(rank * 1000d0 + i, i = 1, 12)]
  y = 0
  xs = x(1:12:4)
  if (MPI_SUBARRAYS_SUPPORTED) then
    call MPI_Irecv(y(1:6:2), 3, MPI_DOUBLE_PRECISION, prev, 5, comm, reqs(1))
    call MPI_Isend(x(1:12:4), 3, MPI_DOUBLE_PRECISION, next, 5, comm, reqs(2))
  else
    call MPI_Irecv(ys, 3, MPI_DOUBLE_PRECISION, prev, 5, comm, reqs(1))
    call MPI_Isend(xs, 3, MPI_DOUBLE_PRECISION, next, 5, comm, reqs(2))
  end if
  call MPI_Waitall(2, reqs, sts, ierr)
  if (.not. MPI_SUBARRAYS_SUPPORTED) y(1:6:2) = ys
  if (ierr /= MPI_SUCCESS .or. sts(1)%MPI_SOURCE /= prev .or. sts(1)%MPI_TAG /= 5) errs = errs + 1
  if (any(reqs /= MPI_REQUEST_NULL)) errs = errs + 1
  call MPI_Get_count(sts(1), MPI_DOUBLE_PRECISION, n)
  if (n /= 3) errs = errs + 1
  do i = 1, 3
    if (y(2 * i - 1) /= prev * 1000d0 + 4 * i - 3 .or. y(2 * i) /= 0) errs = errs + 1
  end do
  call MPI_Sendrecv(x, 2, MPI_DOUBLE_PRECISION, next, 6, y, 6, MPI_DOUBLE_PRECISION, &
                    MPI_ANY_SOURCE, MPI_ANY_TAG, comm, st)
  if (st%MPI_SOURCE /= prev .or. st%MPI_TAG /= 6 .or. y(2) /= prev * 1000d0 + 2) errs = errs + 1
  call MPI_Probe(MPI_PROC_NULL, 0, comm, st)
  if (st%MPI_SOURCE /= MPI_PROC_NULL) errs = errs + 1

  ! a face of a 3x3x3 cube: cube(:, 2, :) by a subarray type
  cube = reshape([(i + 100 * rank, i = 1, 27)], [3, 3, 3])
  call MPI_Type_create_subarray(3, [3, 3, 3], [3, 1, 3], [0, 1, 0], MPI_ORDER_FORTRAN, &
                                MPI_INTEGER, sub)
  call MPI_Type_commit(sub)
  call MPI_Sendrecv(cube, 1, sub, next, 7, face, 9, MPI_INTEGER, prev, 7, comm, MPI_STATUS_IGNORE)
  if (any(face /= cube(:, 2, :) - 100 * rank + 100 * prev)) errs = errs + 1
  call MPI_Type_free(sub)
  if (sub /= MPI_DATATYPE_NULL) errs = errs + 1

  ! LOGICAL reductions and a user-defined operation
  lv = [.true., rank == 0]
  call MPI_Allreduce(lv, lr, 2, MPI_LOGICAL, MPI_LAND, comm)
  if (.not. lr(1) .or. (lr(2) .neqv. np == 1)) errs = errs + 1
  call MPI_Allreduce(lv, lr, 2, MPI_LOGICAL, MPI_LXOR, comm)
  if ((lr(1) .neqv. mod(np, 2) == 1) .or. .not. lr(2)) errs = errs + 1
  call MPI_Op_create(absmax, .true., op)
  v = [-1d0 * rank, 2d0, 3d0 * (-1)**rank]
  call MPI_Allreduce(MPI_IN_PLACE, v, 3, MPI_DOUBLE_PRECISION, op, comm)
  if (any(v /= [real(np - 1, 8), 2d0, 3d0])) errs = errs + 1
  call MPI_Op_free(op)
  if (op /= MPI_OP_NULL) errs = errs + 1
  n = rank
  call MPI_Scan(MPI_IN_PLACE, n, 1, MPI_INTEGER, MPI_SUM, comm)
  if (n /= rank * (rank + 1) / 2) errs = errs + 1

  ! one-sided: memory from MPI_Win_allocate, accumulate into rank 0
  call MPI_Win_allocate(int(4 * np, MPI_ADDRESS_KIND), 4, MPI_INFO_NULL, comm, base, win)
  call c_f_pointer(base, wmem, [np])
  wmem = 0
  call MPI_Win_fence(0, win)
  disp = rank
  call MPI_Accumulate(rank + 1, 1, MPI_INTEGER, 0, disp, 1, MPI_INTEGER, MPI_SUM, win)
  call MPI_Accumulate(1, 1, MPI_INTEGER, 0, 0_MPI_ADDRESS_KIND, 1, MPI_INTEGER, MPI_SUM, win)
  call MPI_Win_fence(0, win)
  if (rank == 0) then
    if (wmem(1) /= 1 + np) errs = errs + 1
    do i = 2, np
      if (wmem(i) /= i) errs = errs + 1
    end do
  end if
  call MPI_Win_free(win)

  ! groups and communicators
  call MPI_Comm_group(comm, wgroup)
  call MPI_Group_incl(wgroup, (np + 1) / 2, [(2 * i, i = 0, (np + 1) / 2 - 1)], g)
  call MPI_Comm_create(comm, g, half)
  if (mod(rank, 2) == 0) then
    call MPI_Comm_size(half, n)
    if (n /= (np + 1) / 2) errs = errs + 1
    call MPI_Comm_set_name(half, "even ranks")
    call MPI_Comm_get_name(half, cname, n)
    if (cname /= "even ranks" .or. n /= 10) errs = errs + 1
    call MPI_Comm_free(half)
  else if (half /= MPI_COMM_NULL) then
    errs = errs + 1
  end if
  call MPI_Group_free(g)
  call MPI_Group_free(wgroup)
  call MPI_Get_processor_name(host, n)
  if (n < 1 .or. len_trim(host) /= n) errs = errs + 1

  ! info objects (keys and values as blank-padded strings), addresses, memory
  call MPI_Info_create(info)
  call MPI_Info_set(info, "color ", "blue  ")
  call MPI_Info_get(info, "color", MPI_MAX_INFO_VAL, val, flag)
  if (.not. flag .or. val /= "blue") errs = errs + 1
  call MPI_Info_get_valuelen(info, "color", n, flag)
  if (n /= 4) errs = errs + 1
  call MPI_Info_get_nkeys(info, n)
  call MPI_Info_get_nthkey(info, 0, key)
  if (n /= 1 .or. key /= "color") errs = errs + 1
  call MPI_Info_delete(info, "color")
  call MPI_Info_get(info, "color", MPI_MAX_INFO_VAL, val, flag)
  if (flag) errs = errs + 1
  call MPI_Info_free(info)
  if (info /= MPI_INFO_NULL) errs = errs + 1
  call MPI_Get_address(face(1, 1), a1)
  call MPI_Get_address(face(3, 1), a2)
  if (MPI_Aint_diff(a2, a1) /= 8 .or. MPI_Aint_add(a1, 8_MPI_ADDRESS_KIND) /= a2) errs = errs + 1
  call MPI_Type_get_extent(MPI_DOUBLE_PRECISION, a1, a2)
  if (a1 /= 0 .or. a2 /= 8) errs = errs + 1
  call MPI_Alloc_mem(64_MPI_ADDRESS_KIND, MPI_INFO_NULL, base)
  call c_f_pointer(base, wmem, [16])
  wmem = 7
  call MPI_Free_mem(wmem)
  t1 = MPI_Wtime()
  if (MPI_Wtick() <= 0 .or. MPI_Wtime() < t1) errs = errs + 1

  ! ierror present: errors return their class under MPI_ERRORS_RETURN
  call MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN)
  call MPI_Send(n, 1, MPI_INTEGER, np, 0, comm, ierr)
  call MPI_Error_class(ierr, cls)
  if (cls /= MPI_ERR_RANK) errs = errs + 1
  call MPI_Initialized(flag)
  if (.not. flag) errs = errs + 1

  call rx_report(errs)
  call MPI_Finalize()
end program
