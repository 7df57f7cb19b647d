/* SPDX-License-Identifier: MIT
 * The one list of collective algorithms: RX_SCHED_ALGO(descriptor), each
 * defined in its own file of this directory. The order is the one
 * rdmx-run --info prints and the automatic choice breaks ties by. A new
 * algorithm is its file and one line here. There is no enum of algorithms:
 * a position in this list is an algorithm's identity (rx_sched_algo_id). */
RX_SCHED_ALGO(rx_algo_barrier_dissemination)
RX_SCHED_ALGO(rx_algo_barrier_hier)
RX_SCHED_ALGO(rx_algo_bcast_binomial)
RX_SCHED_ALGO(rx_algo_bcast_scatter_allgather)
RX_SCHED_ALGO(rx_algo_bcast_hier)
RX_SCHED_ALGO(rx_algo_reduce_binomial)
RX_SCHED_ALGO(rx_algo_reduce_rs_gather)
RX_SCHED_ALGO(rx_algo_reduce_hier)
RX_SCHED_ALGO(rx_algo_allreduce_recursive_doubling)
RX_SCHED_ALGO(rx_algo_allreduce_rabenseifner)
RX_SCHED_ALGO(rx_algo_allreduce_ring)
RX_SCHED_ALGO(rx_algo_allreduce_hier)
RX_SCHED_ALGO(rx_algo_gather_linear)
RX_SCHED_ALGO(rx_algo_scatter_linear)
RX_SCHED_ALGO(rx_algo_allgather_recursive_doubling)
RX_SCHED_ALGO(rx_algo_allgather_ring)
RX_SCHED_ALGO(rx_algo_allgather_bruck)
RX_SCHED_ALGO(rx_algo_alltoall_bruck)
RX_SCHED_ALGO(rx_algo_alltoall_pairwise)
RX_SCHED_ALGO(rx_algo_reduce_scatter_ring)
RX_SCHED_ALGO(rx_algo_reduce_scatter_reduce_scatterv)
RX_SCHED_ALGO(rx_algo_scan_recursive_doubling)
RX_SCHED_ALGO(rx_algo_exscan_recursive_doubling)
