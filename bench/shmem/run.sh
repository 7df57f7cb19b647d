#!/bin/bash
# SPDX-License-Identifier: MIT
# rdmx's OpenSHMEM against Open MPI's (Debian openmpi-bin: oshcc, oshrun),
# the same source built by each: bench/shmem/run.sh BUILD_DIR [NPES] [RUNS].
# Runs interleave (rdmx, Open MPI, rdmx, ...); per metric and size the median
# of each (with the interquartile range of the runs) and the ratio rdmx /
# Open MPI (latencies: lower is better; bandwidths: higher is better) as a
# Markdown table; where the middle halves of the two sets of runs overlap,
# the difference is marked as within the noise.
B=${1:?usage: run.sh BUILD_DIR [NPES] [RUNS]}
N=${2:-2}
RUNS=${3:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
"$B/bin/rdmx-oshcc" -O2 -o "$W/rdmx" "$HERE/shmem_bench.c" || exit 1
command -v oshcc >/dev/null || { echo "Open MPI's oshcc is not installed (openmpi-bin)"; exit 77; }
oshcc -O2 -o "$W/ompi" "$HERE/shmem_bench.c" || exit 1
over=
[ "$N" -gt "$(nproc)" ] && over=--oversubscribe
for ((r = 0; r < RUNS; r++)); do
    "$B/bin/oshrun" -n "$N" "$W/rdmx" | grep -E '^[a-z_]+ [0-9]+ ' >>"$W/rdmx.txt"
    # Open MPI 4.1's oshmem may crash inside shmem_finalize (after the
    # results are printed): its exit status is not judged
    oshrun --allow-run-as-root $over -n "$N" "$W/ompi" 2>/dev/null |
        grep -E '^[a-z_]+ [0-9]+ ' >>"$W/ompi.txt"
done
grep -h ERROR "$W"/*.txt && exit 1
python3 - "$W/rdmx.txt" "$W/ompi.txt" <<'PY'
import sys, statistics
def load(p):
    d = {}
    for l in open(p):
        m, s, v = l.split()
        d.setdefault((m, int(s)), []).append(float(v))
    return d
a, b = load(sys.argv[1]), load(sys.argv[2])
def quartiles(v):
    if len(v) < 2:
        return v[0], v[0]
    q = statistics.quantiles(v, n=4)
    return q[0], q[2]
print("| metric | size (B) or PEs | rdmx | Open MPI | rdmx / Open MPI | better |")
print("| --- | --- | --- | --- | --- | --- |")
for k in a:
    if k not in b:
        continue
    ra, rb = statistics.median(a[k]), statistics.median(b[k])
    (a1, a3), (b1, b3) = quartiles(a[k]), quartiles(b[k])
    bw = k[0].endswith("_bw")
    ratio = ra / rb if rb else float("inf")
    good = ratio >= 1 if bw else ratio <= 1
    # the middle halves of the two sets of runs overlap: within the noise
    tie = a1 <= b3 and b1 <= a3
    unit = "MB/s" if bw else "us"
    cell = lambda m, lo, hi: f"{m:.3f} ({lo:.3f}-{hi:.3f}) {unit}"
    who = "equal within noise" if tie else ("rdmx" if good else "Open MPI")
    print(f"| {k[0]} | {k[1]} | {cell(ra, a1, a3)} | {cell(rb, b1, b3)} | {ratio:.2f} | {who} |")
PY
