! SPDX-License-Identifier: MIT
! Module mpi_f08: collectives and requests beyond f08_mpi. MPI_Ibcast,
! MPI_Iallreduce and MPI_Ibarrier completed together by MPI_Waitall;
! MPI_Alltoallv with a different count per pair; MPI_Reduce_scatter_block;
! MPI_Exscan; a ring of persistent sends and receives started three times by
! MPI_Startall; MPI_Neighbor_allgather on a periodic 1-D Cartesian ring.
! Buffers of pending operations are ASYNCHRONOUS, and MPI_F_sync_reg follows
! each wait. Any rank count.
program f08_coll
  use mpi_f08
  use rxtest
  implicit none
  integer :: rank, np, errs, i, j, k, it, left, right
  integer, asynchronous :: bval(4), smax(2), rmax(2), ptok, pin
  type(MPI_Request) :: reqs(3)
  type(MPI_Comm) :: comm, ring
  integer, allocatable :: sc(:), sd(:), rc(:), rd(:), sbuf(:), rbuf(:)
  integer :: nb(2), n
  errs = 0
  call MPI_Init()
  comm = MPI_COMM_WORLD
  call MPI_Comm_rank(comm, rank)
  call MPI_Comm_size(comm, np)
  right = mod(rank + 1, np)
  left = mod(rank + np - 1, np)

  ! three nonblocking collectives in flight at once
  bval = 0
  if (rank == 0) bval = [7, 14, 21, 28]
  smax = [rank, -rank]
  call MPI_Ibcast(bval, 4, MPI_INTEGER, 0, comm, reqs(1))
  call MPI_Iallreduce(smax, rmax, 2, MPI_INTEGER, MPI_MAX, comm, reqs(2))
  call MPI_Ibarrier(comm, reqs(3))
  call MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE)
  call MPI_F_sync_reg(bval)
  call MPI_F_sync_reg(rmax)
  if (any(bval /= [7, 14, 21, 28]) .or. any(rmax /= [np - 1, 0])) errs = errs + 1
  if (any(reqs /= MPI_REQUEST_NULL)) errs = errs + 1

  ! rank r sends j+1 values 100r+j to rank j, so it gets r+1 from each
  allocate(sc(np), sd(np), rc(np), rd(np), sbuf(np * (np + 1) / 2), rbuf(np * (rank + 1)))
  do j = 0, np - 1
    sc(j + 1) = j + 1
    sd(j + 1) = j * (j + 1) / 2
    sbuf(sd(j + 1) + 1:sd(j + 1) + j + 1) = 100 * rank + j
    rc(j + 1) = rank + 1
    rd(j + 1) = j * (rank + 1)
  end do
  rbuf = -1
  call MPI_Alltoallv(sbuf, sc, sd, MPI_INTEGER, rbuf, rc, rd, MPI_INTEGER, comm)
  do i = 0, np - 1
    do k = 1, rank + 1
      if (rbuf(i * (rank + 1) + k) /= 100 * i + rank) errs = errs + 1
    end do
  end do
  deallocate(sbuf, rbuf)

  ! element r of the sum over all ranks of [rank + j] goes to rank r
  allocate(sbuf(np))
  sbuf = [(rank + j, j = 0, np - 1)]
  call MPI_Reduce_scatter_block(sbuf, n, 1, MPI_INTEGER, MPI_SUM, comm)
  if (n /= np * (np - 1) / 2 + np * rank) errs = errs + 1
  call MPI_Exscan(rank + 1, n, 1, MPI_INTEGER, MPI_SUM, comm)
  if (rank > 0 .and. n /= rank * (rank + 1) / 2) errs = errs + 1
  deallocate(sbuf, sc, sd, rc, rd)

  ! persistent requests: the same two operations, started three times
  call MPI_Recv_init(pin, 1, MPI_INTEGER, left, 9, comm, reqs(1))
  call MPI_Send_init(ptok, 1, MPI_INTEGER, right, 9, comm, reqs(2))
  do it = 1, 3
    ptok = 10 * it + rank
    pin = -1
    call MPI_F_sync_reg(ptok)
    call MPI_Startall(2, reqs(1:2))
    call MPI_Waitall(2, reqs(1:2), MPI_STATUSES_IGNORE)
    call MPI_F_sync_reg(pin)
    if (pin /= 10 * it + left) errs = errs + 1
    if (reqs(1) == MPI_REQUEST_NULL) errs = errs + 1  ! inactive, not freed
  end do
  call MPI_Request_free(reqs(1))
  call MPI_Request_free(reqs(2))

  ! a periodic ring: the neighbours are the rank before, then the rank after
  call MPI_Cart_create(comm, 1, [np], [.true.], .false., ring)
  nb = -1
  call MPI_Neighbor_allgather(rank, 1, MPI_INTEGER, nb, 1, MPI_INTEGER, ring)
  if (any(nb /= [left, right])) errs = errs + 1
  call MPI_Comm_free(ring)

  call rx_report(errs)
  call MPI_Finalize()
end program
