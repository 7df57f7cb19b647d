#!/bin/bash
# SPDX-License-Identifier: MIT
# What the point-to-point calls of a small message cost, in instructions per
# call (callgrind: the same on an idle or a loaded machine, unlike times), for
# rdmx, MPICH and Open MPI from the same bench/p2p/p2p.c, 2 ranks on one node:
#   rate (0-byte messages in windows of 64, as bench/p2p rate): MPI_Isend and
#   the sender's MPI_Waitall per request, MPI_Irecv on the receiver;
#   latency (0-byte ping-pong): MPI_Send.
# A receive's wait is left out: its count depends on how long it polls.
# usage: bench/p2p/count.sh [IMPL...] (default: rdmx mpich openmpi)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
impls=${*:-rdmx mpich openmpi}
tmp=$(mktemp -d /tmp/rdmx-p2pcount.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# Inclusive instructions and calls of FN (any of its call sites) in a
# callgrind output file, from the raw format (fn=, cfn=, calls= lines).
per_call() {
    python3 - "$@" <<'PY'
import re, sys
path, want = sys.argv[1], sys.argv[2].split(",")
names, cost, calls, target, pending = {}, 0, 0, None, 0
for line in open(path):
    m = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line)
    if m:
        if m.group(2):
            names[m.group(1)] = m.group(2).strip()
        if line.startswith("cfn="):
            target = names.get(m.group(1), "")
        continue
    m = re.match(r"calls=(\d+)", line)
    if m:
        pending = int(m.group(1))
        continue
    if pending:
        if any(target == w or target.endswith(":" + w) for w in want):
            calls += pending
            cost += int(line.split()[1])
        pending = 0
print(f"{cost / calls:.0f}" if calls else "-")
PY
}

run() { # IMPL OUT MODE: run bench/p2p under callgrind at 2 ranks
    local impl=$1 out=$2 mode=$3 bin=$tmp/p2p.$1
    local cg="valgrind --tool=callgrind --callgrind-out-file=$out.%p"
    local args=(-m 0 -M 0 -i 2000 -w 10)
    [ "$mode" = latency ] && args=(-m 0 -M 0 -i 20000 -w 100)
    case $impl in
    rdmx) "$repo/build/bin/rdmx-run" -n 2 $cg "$bin" "$mode" "${args[@]}" ;;
    mpich) mpiexec.mpich -n 2 $cg "$bin" "$mode" "${args[@]}" ;;
    openmpi) mpirun.openmpi --allow-run-as-root --oversubscribe -n 2 $cg "$bin" "$mode" "${args[@]}"
             rm -f /dev/shm/vader_segment.* ;;
    esac >/dev/null 2>&1
}

printf '| call | %s |\n|---|%s\n' "$(echo $impls | sed 's/ / | /g')" "$(for i in $impls; do printf -- '---:|'; done)"
declare -A isend waitall irecv send
for impl in $impls; do
    case $impl in
    rdmx) cc=$repo/build/bin/rdmx-cc ;;
    mpich) cc=mpicc.mpich ;;
    openmpi) cc=mpicc.openmpi ;;
    *) echo "count.sh: unknown implementation $impl" >&2; exit 2 ;;
    esac
    "$cc" -O2 -I"$repo/bench/common" "$here/p2p.c" "$repo/bench/common/bench_util.c" \
        -o "$tmp/p2p.$impl" -lm
    run "$impl" "$tmp/$impl.rate" rate
    run "$impl" "$tmp/$impl.lat" latency
    files=("$tmp/$impl".rate.*)
    # rank 0 sends (the lower pid is not always rank 0: the file with Isend calls is)
    s=${files[0]} r=${files[1]}
    [ "$(per_call "$s" PMPI_Isend,MPI_Isend)" = - ] && { s=${files[1]}; r=${files[0]}; }
    isend[$impl]=$(per_call "$s" PMPI_Isend,MPI_Isend)
    waitall[$impl]=$(per_call "$s" PMPI_Waitall,MPI_Waitall)
    [ "${waitall[$impl]}" != - ] && waitall[$impl]=$((waitall[$impl] / 64))
    irecv[$impl]=$(per_call "$r" PMPI_Irecv,MPI_Irecv)
    lat=("$tmp/$impl".lat.*)
    send[$impl]=$(per_call "${lat[0]}" PMPI_Send,MPI_Send)
done
row() { local -n v=$2; printf '| %s |' "$1"; for i in $impls; do printf ' %s |' "${v[$i]}"; done; echo; }
row "MPI_Isend, 0 B" isend
row "MPI_Waitall per send request" waitall
row "MPI_Irecv, 0 B" irecv
row "MPI_Send, 0 B (ping-pong)" send
