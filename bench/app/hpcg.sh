#!/bin/bash
# SPDX-License-Identifier: MIT
# HPCG (the real application case): build the HPCG sources in HPCG_SRC_DIR
# unchanged with rdmx-cxx, mpicxx.mpich and mpicxx.openmpi into a scratch
# directory, run them interleaved at 2 ranks (rdmx, MPICH, Open MPI, rdmx, ...),
# and print each run's GFLOP/s and phase times, the per-implementation
# medians and the ratios rdmx / peer.
#
#   bench/app/hpcg.sh HPCG_SRC_DIR [REPS]
#
# HPCG_SRC_DIR is an HPCG 3.x tree (its src/*.cpp and src/*.hpp). REPS
# defaults to 3. Environment: NX (local grid edge, 32), RT (seconds of the
# timed phase, 10), NP (ranks, 2), IMPLS (rdmx,mpich,openmpi), RDMX_BIN
# (<repo>/build/bin), CXXFLAGS (-O3 -ffast-math -ftree-vectorize, as HPCG's
# setup/Make.Linux_MPI; OpenMP stays off), OUT (scratch directory; default
# a new one under /tmp), RDMX_ARGS / MPICH_ARGS / OPENMPI_ARGS (extra
# launcher options per implementation).
set -euo pipefail

usage() { echo "usage: $0 HPCG_SRC_DIR [REPS]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
src=$(cd "$1" && pwd) || usage
reps=${2:-3}
[ -d "$src/src" ] && ls "$src"/src/*.cpp > /dev/null 2>&1 ||
    { echo "$0: $src/src/*.cpp not found (give the top of an HPCG tree)" >&2; exit 2; }
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
nx=${NX:-32}
rt=${RT:-10}
np=${NP:-2}
impls=${IMPLS:-rdmx,mpich,openmpi}
rdmx_bin=${RDMX_BIN:-$root/build/bin}
flags=${CXXFLAGS:--O3 -ffast-math -ftree-vectorize}
out=${OUT:-$(mktemp -d /tmp/hpcg-bench.XXXXXX)}
mkdir -p "$out"

cxx_of() {
    case $1 in
        rdmx) echo "$rdmx_bin/rdmx-cxx" ;;
        mpich) echo mpicxx.mpich ;;
        openmpi) echo mpicxx.openmpi ;;
        *) echo "$0: unknown implementation $1" >&2; exit 2 ;;
    esac
}
launch_of() {
    case $1 in
        rdmx) echo "$rdmx_bin/rdmx-run -n $np ${RDMX_ARGS:-}" ;;
        mpich) echo "mpiexec.mpich -n $np ${MPICH_ARGS:-}" ;;
        openmpi) echo "mpiexec.openmpi --allow-run-as-root -n $np ${OPENMPI_ARGS:-}" ;;
    esac
}

# ---- build: the same sources and flags for every implementation ----
built=()
for impl in ${impls//,/ }; do
    cxx=$(cxx_of "$impl")
    if ! command -v "$cxx" > /dev/null 2>&1; then
        echo "skip $impl: $cxx not found" >&2
        continue
    fi
    mkdir -p "$out/$impl"
    # shellcheck disable=SC2086
    if "$cxx" $flags -DHPCG_NO_OPENMP -I"$src/src" "$src"/src/*.cpp -o "$out/$impl/xhpcg" \
        > "$out/$impl/build.log" 2>&1; then
        built+=("$impl")
    else
        echo "skip $impl: build failed (see $out/$impl/build.log)" >&2
    fi
done
[ ${#built[@]} -gt 0 ] || { echo "$0: nothing built" >&2; exit 1; }

# ---- runs, interleaved ----
results=$out/results.tsv
printf 'rep\timpl\tgflops\tddot\twaxpby\tspmv\tmg\ttotal\tallreduce_avg\titers\tload1\n' > "$results"
field() { sed -n "s/^$1=//p" "$2" | head -1; }
status=0
echo "HPCG ${nx}^3 per rank, $np ranks, --rt=$rt, $reps interleaved repetitions; scratch $out"
echo "phase times in ms per CG iteration (allreduce: the DDOT phase's MPI_Allreduce, average over ranks)"
printf '%-4s %-8s %8s %8s %8s %8s %8s %8s %9s %6s\n' rep impl GFLOP/s DDOT WAXPBY SpMV MG total allreduce load
for rep in $(seq 1 "$reps"); do
    for impl in "${built[@]}"; do
        run=$out/$impl/run$rep
        mkdir -p "$run"
        load=$(cut -d' ' -f1 /proc/loadavg)
        # shellcheck disable=SC2046
        if ! (cd "$run" && timeout $((rt * 10 + 300)) $(launch_of "$impl") "$out/$impl/xhpcg" \
              --nx="$nx" --ny="$nx" --nz="$nx" --rt="$rt" > stdout.txt 2>&1); then
            echo "$rep $impl: run failed (see $run/stdout.txt)" >&2
            status=1
            continue
        fi
        y=$(ls "$run"/HPCG-Benchmark_*.txt 2> /dev/null | head -1)
        g=$(field 'Final Summary::HPCG result is VALID with a GFLOP\/s rating of' "$y")
        if [ -z "$y" ] || [ -z "$g" ]; then
            echo "$rep $impl: no valid result (see $run)" >&2
            status=1
            continue
        fi
        t() { field "Benchmark Time Summary::$1" "$y"; }
        ar=$(field 'DDOT Timing Variations::Avg DDOT MPI_Allreduce time' "$y")
        it=$(field 'Iteration Count Information::Total number of optimized iterations' "$y")
        ms() { awk -v t="$1" -v n="$it" 'BEGIN { printf "%.4f", 1000 * t / n }'; }
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$rep" "$impl" "$g" "$(ms "$(t DDOT)")" \
            "$(ms "$(t WAXPBY)")" "$(ms "$(t SpMV)")" "$(ms "$(t MG)")" "$(ms "$(t Total)")" "$(ms "$ar")" \
            "$it" "$load" >> "$results"
        tail -1 "$results" | awk -F'\t' '{ printf "%-4s %-8s %8.4f %8.4f %8.4f %8.4f %8.4f %8.4f %9.4f %6s\n",
            $1, $2, $3, $4, $5, $6, $7, $8, $9, $11 }'
    done
done

# ---- medians and ratios ----
python3 - "$results" << 'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
cols = ["gflops", "ddot", "waxpby", "spmv", "mg", "total", "allreduce_avg"]
impls = list(dict.fromkeys(r["impl"] for r in rows))
med = {i: {c: statistics.median(float(r[c]) for r in rows if r["impl"] == i) for c in cols}
       for i in impls}
n = {i: sum(r["impl"] == i for r in rows) for i in impls}
print("\nmedians (GFLOP/s; phase times in ms per CG iteration)")
print("%-8s %3s %8s %8s %8s %8s %8s %8s %9s" % ("impl", "n", "GFLOP/s", "DDOT", "WAXPBY",
                                                 "SpMV", "MG", "total", "allreduce"))
for i in impls:
    m = med[i]
    print("%-8s %3d %8.4f %8.4f %8.4f %8.4f %8.4f %8.4f %9.4f" % ((i, n[i]) + tuple(m[c] for c in cols)))
if "rdmx" in med:
    for p in impls:
        if p == "rdmx":
            continue
        lo = [float(r["gflops"]) for r in rows if r["impl"] == "rdmx"]
        hi = [float(r["gflops"]) for r in rows if r["impl"] == p]
        overlap = max(min(lo), min(hi)) <= min(max(lo), max(hi))
        print("rdmx / %-8s GFLOP/s %.3f%s   (time ratios: %s)" % (
            p, med["rdmx"]["gflops"] / med[p]["gflops"], "  (ranges overlap: within noise)" if overlap else "",
            ", ".join("%s %.2f" % (c.replace("_avg", ""), med["rdmx"][c] / med[p][c]) for c in cols[1:] if med[p][c] > 0)))
PY
exit $status
