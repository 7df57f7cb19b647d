! SPDX-License-Identifier: MIT
! hyperion-mini in Fortran with mpi_f08: the same conjugate-gradient solver of
! -lap(u) = f on the unit cube as examples/hyperion-mini (see solver.c there),
! with the faces exchanged by nonblocking point-to-point on subarray
! datatypes and the two dot products of each iteration reduced by
! MPI_Allreduce. The loops, the decomposition and the order of every sum are
! those of the C program, so both print the same iterations and checksum.
!
! usage: hyperion-f08 [-n N] [-i ITERS] [-t TOL]
program hyperion_f08
  use mpi_f08
  implicit none
  integer :: n = 64, max_iter = 1000
  double precision :: tol = 1d-8
  type(MPI_Comm) :: cart
  type(MPI_Datatype) :: face_send(0:5), face_recv(0:5)
  type(MPI_Request) :: rq(0:11)
  integer :: rank, size, dims(0:2), coords(0:2), nl(0:2), off(0:2), nb(0:5)
  integer :: it, k, s, j, x, y, z, q, r, ok, all_ok
  double precision, allocatable :: xs(:,:,:), rs(:,:,:), p(:,:,:), qv(:,:,:)
  double precision :: h, ih2, rr, rr_loc, pq, pq_loc, rrn, rrn_loc, alpha, beta, bnorm, rel
  double precision :: v, rv, b, u, e, err, umax, sum, loc(2), glob(2), checksum, cond, bound
  character(len=32) :: arg, line

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  do j = 1, command_argument_count() - 1, 2
    call get_command_argument(j, arg)
    call get_command_argument(j + 1, line)
    select case (arg)
    case ('-n'); read (line, *) n
    case ('-i'); read (line, *) max_iter
    case ('-t'); read (line, *) tol
    end select
  end do

  ! decomposition: dimension 0 is z, 1 is y, 2 is x (the C program's order);
  ! the arrays are p(x, y, z), which is the C program's p[z][y][x]
  dims = 0
  call MPI_Dims_create(size, 3, dims)
  call MPI_Cart_create(MPI_COMM_WORLD, 3, dims, [.false., .false., .false.], .true., cart)
  call MPI_Comm_rank(cart, rank)
  call MPI_Cart_coords(cart, rank, 3, coords)
  ok = 1
  do k = 0, 2
    q = n / dims(k)
    r = mod(n, dims(k))
    nl(k) = q + merge(1, 0, coords(k) < r)
    off(k) = coords(k) * q + min(coords(k), r)
    if (nl(k) <= 0) ok = 0
    call MPI_Cart_shift(cart, k, 1, nb(2 * k), nb(2 * k + 1))
  end do
  call MPI_Allreduce(ok, all_ok, 1, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD)
  if (all_ok == 0) then
    if (rank == 0) print '(a,i0,a,i0,a)', 'hyperion-f08: a ', n, '^3 grid cannot be split over ', &
                                           size, ' ranks'
    call MPI_Finalize()
    stop 2
  end if
  h = 1d0 / (n + 1)
  ih2 = 1d0 / (h * h)
  ! faces: the first / last interior layer is sent, the ghost layer outside it received
  do k = 0, 2
    do s = 0, 1
      call face_type(k, merge(nl(k), 1, s == 1), face_send(2 * k + s))
      call face_type(k, merge(nl(k) + 1, 0, s == 1), face_recv(2 * k + s))
    end do
  end do
  allocate(xs(0:nl(2) + 1, 0:nl(1) + 1, 0:nl(0) + 1), source=0d0)
  allocate(rs, p, qv, mold=xs)
  rs = 0; p = 0; qv = 0

  ! x = 0, r = p = b
  rr_loc = 0
  do z = 1, nl(0)
    do y = 1, nl(1)
      do x = 1, nl(2)
        b = f((off(2) + x) * h, (off(1) + y) * h, (off(0) + z) * h)
        rs(x, y, z) = b
        p(x, y, z) = b
        rr_loc = rr_loc + b * b
      end do
    end do
  end do
  call MPI_Allreduce(rr_loc, rr, 1, MPI_DOUBLE_PRECISION, MPI_SUM, cart)
  bnorm = sqrt(rr)
  rel = 1
  it = 0
  do while (it < max_iter)
    call halo(p)
    pq_loc = 0
    do z = 1, nl(0)
      do y = 1, nl(1)
        do x = 1, nl(2)
          v = (6 * p(x, y, z) - p(x - 1, y, z) - p(x + 1, y, z) - p(x, y - 1, z) - &
               p(x, y + 1, z) - p(x, y, z - 1) - p(x, y, z + 1)) * ih2
          qv(x, y, z) = v
          pq_loc = pq_loc + p(x, y, z) * v
        end do
      end do
    end do
    call MPI_Allreduce(pq_loc, pq, 1, MPI_DOUBLE_PRECISION, MPI_SUM, cart)
    alpha = rr / pq
    rrn_loc = 0
    do z = 1, nl(0)
      do y = 1, nl(1)
        do x = 1, nl(2)
          xs(x, y, z) = xs(x, y, z) + alpha * p(x, y, z)
          rv = rs(x, y, z) - alpha * qv(x, y, z)
          rs(x, y, z) = rv
          rrn_loc = rrn_loc + rv * rv
        end do
      end do
    end do
    call MPI_Allreduce(rrn_loc, rrn, 1, MPI_DOUBLE_PRECISION, MPI_SUM, cart)
    it = it + 1
    rel = sqrt(rrn) / bnorm
    if (rel < tol) exit
    beta = rrn / rr
    rr = rrn
    do z = 1, nl(0)
      do y = 1, nl(1)
        do x = 1, nl(2)
          p(x, y, z) = rs(x, y, z) + beta * p(x, y, z)
        end do
      end do
    end do
  end do

  ! error against the exact solution, and a checksum
  err = 0; umax = 0; sum = 0
  do z = 1, nl(0)
    do y = 1, nl(1)
      do x = 1, nl(2)
        u = exact((off(2) + x) * h, (off(1) + y) * h, (off(0) + z) * h)
        e = abs(xs(x, y, z) - u)
        err = max(e, err)
        umax = max(abs(u), umax)
        sum = sum + xs(x, y, z)
      end do
    end do
  end do
  loc = [err, umax]
  call MPI_Allreduce(loc, glob, 2, MPI_DOUBLE_PRECISION, MPI_MAX, cart)
  call MPI_Allreduce(sum, checksum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, cart)
  cond = 0.41d0 * (n + 1d0) * (n + 1d0)
  bound = 2 * cond * tol
  ok = merge(1, 0, rel < tol .and. glob(1) / glob(2) <= bound)
  if (rank == 0) then
    print '(a,i0,a,i0,a,i0,a,i0,a,es10.3)', 'grid ', dims(0), ' x ', dims(1), ' x ', dims(2), &
        ' ranks; ', it, ' iterations, relative residual ', rel
    write (line, '(es19.12e2)') checksum  ! as C's %.12e prints it
    print '(a,a)', 'checksum ', c_style(adjustl(line))
    print '(a,a)', 'check: ', merge('PASSED', 'FAILED', ok == 1)
  end if
  do j = 0, 5
    call MPI_Type_free(face_send(j))
    call MPI_Type_free(face_recv(j))
  end do
  call MPI_Comm_free(cart)
  deallocate(xs, rs, p, qv)  ! (a main program's arrays are not freed at its end)
  call MPI_Finalize()
  if (ok /= 1) stop 1

contains

  double precision function exact(x, y, z)
    double precision, intent(in) :: x, y, z
    exact = x * (1 - x) * y * (1 - y) * z * (1 - z)
  end function

  double precision function f(x, y, z)
    double precision, intent(in) :: x, y, z
    f = 2 * (y * (1 - y) * z * (1 - z) + x * (1 - x) * z * (1 - z) + x * (1 - x) * y * (1 - y))
  end function

  ! The layer at index layer of decomposition dimension k (array dimension 3 - k).
  subroutine face_type(k, layer, t)
    integer, intent(in) :: k, layer
    type(MPI_Datatype), intent(out) :: t
    integer :: sizes(3), sub(3), st(3), d
    d = 3 - k
    sizes = [nl(2) + 2, nl(1) + 2, nl(0) + 2]
    sub = [nl(2), nl(1), nl(0)]
    st = 1
    sub(d) = 1
    st(d) = layer
    call MPI_Type_create_subarray(3, sizes, sub, st, MPI_ORDER_FORTRAN, MPI_DOUBLE_PRECISION, t)
    call MPI_Type_commit(t)
  end subroutine

  ! Tags: a face travelling towards -1 in dimension k carries 2k, towards +1
  ! 2k + 1; the ghost at -1 is filled by what travelled towards +1.
  subroutine halo(a)
    double precision, asynchronous, intent(inout) :: a(:,:,:)
    integer :: jj, kk, ss
    do jj = 0, 5
      kk = jj / 2
      ss = mod(jj, 2)
      call MPI_Irecv(a, 1, face_recv(jj), nb(jj), 2 * kk + 1 - ss, cart, rq(jj))
      call MPI_Isend(a, 1, face_send(jj), nb(jj), 2 * kk + ss, cart, rq(6 + jj))
    end do
    call MPI_Waitall(12, rq, MPI_STATUSES_IGNORE)
  end subroutine

  ! 1.234567890123E+01 -> 1.234567890123e+01
  function c_style(str) result(o)
    character(len=*), intent(in) :: str
    character(len=len_trim(str)) :: o
    o = str
    if (index(o, 'E') > 0) o(index(o, 'E'):index(o, 'E')) = 'e'
  end function
end program
