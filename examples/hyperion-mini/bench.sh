#!/bin/bash
# SPDX-License-Identifier: MIT
# hyperion-mini time per iteration, rdmx against MPICH and Open MPI: the same
# source built with each implementation's compiler, runs interleaved
# (rdmx, MPICH, Open MPI, rdmx, ...), per-rank-count medians (min-max).
#   examples/hyperion-mini/bench.sh [REPS] [N] [RANKS...]      default: 5 64 1 2 4
# RDMX_BIN: where rdmx-cc and rdmx-run are (default build/bin).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
reps=${1:-5}
n=${2:-64}
shift $(( $# > 2 ? 2 : $# )) || true
ranks=("$@")
[ ${#ranks[@]} -gt 0 ] || ranks=(1 2 4)
bin=${RDMX_BIN:-$root/build/bin}
out=$(mktemp -d /tmp/hyperion-bench.XXXXXX)
src="$root/examples/hyperion-mini"
ncpu=$(nproc)
"$bin/rdmx-cc" -O2 -o "$out/rdmx" "$src/hyperion.c" "$src/solver.c" -lm
mpicc.mpich -O2 -o "$out/mpich" "$src/hyperion.c" "$src/solver.c" -lm
mpicc.openmpi -O2 -o "$out/openmpi" "$src/hyperion.c" "$src/solver.c" -lm
launch() { # impl np
    local over=()
    case $1 in
    rdmx) echo "$bin/rdmx-run -n $2" ;;
    mpich) echo "mpiexec.mpich -n $2" ;;
    openmpi) [ "$2" -gt "$ncpu" ] && over=(--oversubscribe)
             echo "mpiexec.openmpi --allow-run-as-root ${over[*]} -n $2" ;;
    esac
}
: >"$out/results.tsv"
for rep in $(seq "$reps"); do
    for np in "${ranks[@]}"; do
        for impl in rdmx mpich openmpi; do
            us=$($(launch $impl "$np") "$out/$impl" -n "$n" -p 0 2>/dev/null |
                 sed -n 's/.* \([0-9.]*\) us per iteration.*/\1/p')
            printf '%s\t%s\t%s\t%s\n' "$np" "$impl" "$rep" "${us:-nan}" >>"$out/results.tsv"
        done
    done
done
python3 - "$out/results.tsv" "$n" <<'PY'
import sys, statistics, collections
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    np_, impl, rep, us = line.split()
    if us != 'nan':
        rows[(int(np_), impl)].append(float(us))
print(f"hyperion-mini {sys.argv[2]}^3, time per iteration (us), median (min-max) of {max(len(v) for v in rows.values())} runs")
print("| ranks | rdmx | MPICH | Open MPI | rdmx/MPICH | rdmx/Open MPI |")
print("|---|---|---|---|---|---|")
for np_ in sorted({k[0] for k in rows}):
    cell = {}
    for impl in ('rdmx', 'mpich', 'openmpi'):
        v = rows.get((np_, impl), [])
        cell[impl] = (statistics.median(v), min(v), max(v)) if v else None
    def f(c): return f"{c[0]:.0f} ({c[1]:.0f}-{c[2]:.0f})" if c else "-"
    def r(a, b): return f"{cell[a][0]/cell[b][0]:.2f}" if cell[a] and cell[b] else "-"
    print(f"| {np_} | {f(cell['rdmx'])} | {f(cell['mpich'])} | {f(cell['openmpi'])} | {r('rdmx','mpich')} | {r('rdmx','openmpi')} |")
PY
echo "raw: $out/results.tsv"
