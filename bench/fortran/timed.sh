#!/bin/bash
# SPDX-License-Identifier: MIT
# What the Fortran bindings add to a call, in time: at 2 ranks, 0- and 8-byte
# ping-pong (one-way time) and 8-byte MPI_Allreduce in C, mpi_f08 and mpif.h
# (pair_c.c, pair_f08.f90, pair_f77.f), each run RUNS times, the three
# interleaved (C, f08, f77, C, ...); prints per case the median ns of each
# and the medians' ratios over C, with the load average.
# usage: bench/fortran/timed.sh BUILD_DIR [RUNS] [N]   (defaults 15, 20000)
set -euo pipefail
b=$(cd "${1:?usage: timed.sh BUILD_DIR [RUNS] [N]}" && pwd)
runs=${2:-15} n=${3:-20000}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/rdmx-forttime.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
"$b/bin/rdmx-cc" -O2 "$here/pair_c.c" -o "$tmp/c"
(cd "$tmp" && "$b/bin/rdmx-fort" -O2 "$here/pair_f08.f90" -o "$tmp/f08")
(cd "$tmp" && "$b/bin/rdmx-fort" -O2 -w "$here/pair_f77.f" -o "$tmp/f77")
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for m in pp0 pp8 allreduce; do
    for r in $(seq "$runs"); do
        for p in c f08 f77; do
            echo "$m $p $("$b/bin/rdmx-run" -n 2 "$tmp/$p" $m "$n")"
        done
    done
done >"$tmp/all"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$tmp/all" <<'PY'
import statistics, sys
t = {}
for line in open(sys.argv[1]):
    m, p, v = line.split()
    t.setdefault((m, p), []).append(float(v))
print('| case | C ns | mpi_f08 ns | mpif.h ns | f08 / C | f77 / C |')
print('|---|---|---|---|---|---|')
for m in ('pp0', 'pp8', 'allreduce'):
    c, f8, f7 = (statistics.median(t[(m, p)]) for p in ('c', 'f08', 'f77'))
    print('| %s | %.1f | %.1f | %.1f | %.3f | %.3f |' % (m, c, f8, f7, f8 / c, f7 / c))
PY
