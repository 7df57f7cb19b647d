#!/bin/bash
# SPDX-License-Identifier: MIT
# What the Fortran bindings add to a call: instructions per round (callgrind,
# deterministic on an idle or a loaded machine alike) of a message to self and
# of an 8-byte Allreduce on MPI_COMM_SELF, in C, mpi_f08 and mpif.h; the
# difference of a 12,000- and a 2,000-round run, over 10,000.
# usage: bench/fortran/count.sh BUILD_DIR
set -euo pipefail
b=$(cd "${1:?usage: count.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/rdmx-fortcount.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
"$b/bin/rdmx-cc" -O2 "$here/self_c.c" -o "$tmp/c"
(cd "$tmp" && "$b/bin/rdmx-fort" -O2 "$here/self_f08.f90" -o "$tmp/f08")
(cd "$tmp" && "$b/bin/rdmx-fort" -O2 -w "$here/self_f77.f" -o "$tmp/f77")
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 |
          sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
for m in p2p allreduce; do
    for p in c f08 f77; do
        a=$(count "$tmp/$p" $m 2000)
        z=$(count "$tmp/$p" $m 12000)
        printf '%-9s %-4s %6d instructions per round\n' "$m" "$p" $(((z - a) / 10000))
    done
done
