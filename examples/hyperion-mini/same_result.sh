#!/bin/bash
# SPDX-License-Identifier: MIT
# same_result.sh BIN_DIR NPROCS: hyperion-mini with MPI faces (-m p2p) and
# hyperion-mini-shmem with SHMEM faces (-m shmem) on a 24^3 grid must both
# pass their check and print the same iterations and checksum.
B=$1
N=$2
mpi=$("$B/rdmx-run" -n "$N" "$B/hyperion-mini" -n 24 -p 0 -m p2p) || { echo "$mpi"; echo "FAIL: MPI run"; exit 1; }
sh=$("$B/oshrun" -n "$N" "$B/hyperion-mini-shmem" -n 24 -p 0 -m shmem) || { echo "$sh"; echo "FAIL: SHMEM run"; exit 1; }
echo "$sh"
for key in "check: PASSED" "checksum" "iterations"; do
    a=$(grep "$key" <<<"$mpi")
    b=$(grep "$key" <<<"$sh")
    [ -n "$a" ] && [ "$a" = "$b" ] || { echo "FAIL: '$a' (MPI) vs '$b' (SHMEM)"; exit 1; }
done
echo "same result: $(grep checksum <<<"$sh")"
