/* SPDX-License-Identifier: MIT
 * RDMX_TRACE=FILE: the job's communication matrix, written by rank 0 at
 * MPI_Finalize in the format of docs/topo.md ("# rdmx traffic matrix v1",
 * then "SRC DST MESSAGES BYTES" per rank pair with traffic). */
#ifndef RX_MPI_TRACE_H
#define RX_MPI_TRACE_H

/* At MPI_Init, after the p2p layer started: begin counting if asked. */
void rx_mpi_trace_start(void);
/* At the start of MPI_Finalize (collective over MPI_COMM_WORLD): gather
 * every rank's row to rank 0, which writes the file. */
void rx_mpi_trace_finish(void);

#endif
