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
