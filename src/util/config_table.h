/* SPDX-License-Identifier: MIT
 * The one list of RDMX_* environment variables: X(NAME, TYPE, DEFAULT, HELP).
 * TYPE is INT (integer, accepts k/m/g suffixes), STR or BOOL.
 * rdmx-run --info and docs/configuration.md print this table. */
RX_CONFIG(LOG, STR, "warn", "log level: error, warn, info or debug; messages go to stderr prefixed by the rank")
RX_CONFIG(WAIT, STR, "auto", "how waits behave: spin (busy-poll), yield (sched_yield), block (sleep on a futex after a short spin), auto (spin when every rank has its own core, block when oversubscribed)")
RX_CONFIG(SPIN_COUNT, INT, "0", "idle progress polls before a wait yields (yield and block modes); 0 picks: 1 when oversubscribed (the peer needs our CPU), 2000 otherwise")
RX_CONFIG(YIELD_COUNT, INT, "32", "block mode: sched_yield calls after the spin before a wait sleeps on its futex doorbell")
RX_CONFIG(SHM_RING_SIZE, INT, "0", "bytes of each per-peer shared-memory ring; 0 picks by local rank count (256 KiB for up to 8 ranks, smaller beyond)")
RX_CONFIG(SHM_EAGER_LIMIT, INT, "16384", "largest payload (bytes) sent eagerly through the ring; larger messages use the rendezvous protocol")
RX_CONFIG(SHM_CMA, STR, "auto", "single-copy by cross-memory attach for rendezvous: auto (probe at start-up), on (require), off (pipelined copy through the ring)")
RX_CONFIG(SHM_FRAG_SIZE, INT, "32768", "fragment size (bytes) of the pipelined copy used when single-copy is off or refused")
RX_CONFIG(SHM_SEGMENT_DIR, STR, "/dev/shm", "informational: where POSIX shared-memory segments live (shm_open); segments are unlinked once mapped")
RX_CONFIG(RMA_EMULATE, BOOL, "0", "one-sided operations to every target by active messages that the target's progress applies, as for ranks the transport cannot reach directly (testing the emulation path)")
RX_CONFIG(OFI, STR, "auto", "network transport (libfabric): auto (used between ranks on different nodes), on (created even when the job runs on one node; still used only across nodes), all (used for every peer but self: testing), off (never; a job spanning nodes then fails)")
RX_CONFIG(OFI_PROVIDER, STR, "", "libfabric provider to use (e.g. verbs;ofi_rxm, tcp;ofi_rxm); empty picks the first offered among verbs;ofi_rxm, psm3, cxi, efa, psm2, opx, then tcp;ofi_rxm")
RX_CONFIG(OFI_IFACE, STR, "", "libfabric domain (for tcp: network interface) to use; empty picks the first non-loopback one, or lo when the whole job runs on one node")
RX_CONFIG(OFI_EAGER_LIMIT, INT, "16384", "largest payload (bytes) sent eagerly over the network; larger messages go by rendezvous (the receiver reads them with RDMA read)")
RX_CONFIG(OFI_MR_CACHE, INT, "256", "memory registrations kept for reuse (0: register for each transfer); entries are dropped when their memory is unmapped")
RX_CONFIG(OFI_STATS, BOOL, "0", "print the network transport's counters at finalize (bytes copied by rdmx, bytes read by RDMA, registration cache hits/misses/invalidations)")
