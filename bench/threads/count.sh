#!/bin/bash
# SPDX-License-Identifier: MIT
# What MPI_THREAD_MULTIPLE costs a program that runs one thread: instructions
# per round (callgrind: the same on an idle or a loaded machine) of a message
# to self (Isend + Recv + Wait) and of an 8-byte Allreduce on MPI_COMM_SELF,
# after MPI_Init and after MPI_Init_thread(MPI_THREAD_MULTIPLE); the
# difference of a 12,000- and a 2,000-round run, over 10,000.
# usage: bench/threads/count.sh [MPICC] (default: build/bin/rdmx-cc; also
# mpicc.mpich, mpicc.openmpi - Open MPI's wrapper is run as a singleton)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cc=${1:-$here/../../build/bin/rdmx-cc}
tmp=$(mktemp -d /tmp/rdmx-thrcount.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
"$cc" -O2 "$here/../fortran/self_c.c" -o "$tmp/self"
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 |
          sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
for m in p2p allreduce; do
    for level in single multiple; do
        a=$(count "$tmp/self" $m 2000 $level)
        z=$(count "$tmp/self" $m 12000 $level)
        printf '%-9s %-8s %6d instructions per round\n' "$m" "$level" $(((z - a) / 10000))
    done
done
