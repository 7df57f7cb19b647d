#!/bin/bash
# SPDX-License-Identifier: MIT
# rdmx's OpenSHMEM against Open MPI's (Debian openmpi-bin: oshcc, oshrun),
# the same source built by each: bench/shmem/run.sh BUILD_DIR [NPES] [RUNS].
# Runs interleave (rdmx, Open MPI, rdmx, ...); per metric and size the median
# of each and the ratio rdmx / Open MPI (latencies: lower is better;
# bandwidths: higher is better) as a Markdown table.
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
print("| metric | size (B) or PEs | rdmx | Open MPI | rdmx / Open MPI | better |")
print("| --- | --- | --- | --- | --- | --- |")
for k in a:
    if k not in b:
        continue
    ra, rb = statistics.median(a[k]), statistics.median(b[k])
    bw = k[0].endswith("_bw")
    ratio = ra / rb if rb else float("inf")
    good = ratio >= 1 if bw else ratio <= 1
    unit = "MB/s" if bw else "us"
    print(f"| {k[0]} | {k[1]} | {ra:.3f} {unit} | {rb:.3f} {unit} | {ratio:.2f} | {'rdmx' if good else 'Open MPI'} |")
PY
