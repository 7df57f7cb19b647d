#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds and runs the tests of every area's testlist (tests/mpi/AREA/testlist) with another
# MPI implementation, to validate the tests themselves (a test that fails under MPICH and
# Open MPI alike is suspect) or to compare rdmx with its peers. Tests marked only=rdmx
# check what only rdmx provides and are skipped. Builds into /tmp, never into the tree.
#
# usage: tests/mpi/run-with.sh mpich|openmpi|rdmx [REGEX] [RANKS]
#   REGEX      selects tests by AREA/NAME: "rma/" one area, "coll_all" by name
#   RANKS      comma-separated rank counts to run (default: those of the testlist)
#   rdmx       uses $RDMX_BUILD/bin/rdmx-cc and rdmx-run (RDMX_BUILD defaults to ./build-mpi)
#   RXT_OUT    build/output directory (default /tmp/rdmx-mpitests-IMPL)
# Prints PASS/FAIL per test and rank count with the time taken; exits 1 if any failed.
set -u
xflags=""
here=$(cd "$(dirname "$0")" && pwd)
impl=${1:?usage: run-with.sh mpich|openmpi|rdmx [NAME-REGEX] [RANKS]}
filter=${2:-.}
only_ranks=${3:-}
out=${RXT_OUT:-/tmp/rdmx-mpitests-$impl}

case "$impl" in
mpich) cc=mpicc.mpich; xflags=-Wno-stringop-overflow; launcher=(mpiexec.mpich -n); envflag=-genv ;;
openmpi) cc=mpicc.openmpi; xflags=-Wno-stringop-overread; launcher=(mpiexec.openmpi --allow-run-as-root --oversubscribe -n)
    envflag=-x ;;
rdmx) b=${RDMX_BUILD:-$PWD/build-mpi}; cc=$b/bin/rdmx-cc; launcher=("$b/bin/rdmx-run" -n)
    envflag=-x ;;
*) echo "run-with.sh: unknown implementation '$impl'" >&2; exit 2 ;;
esac
command -v "$cc" >/dev/null || { echo "run-with.sh: $cc not found" >&2; exit 2; }
mkdir -p "$out"

pass=0 failed=() t_all=$(date +%s.%N)
top=$(cd "$here/../.." && pwd)
for list in "$here"/*/testlist; do
area=$(basename "$(dirname "$list")")
while read -r name src ranks opts; do
    case "$name" in ''|\#*) continue ;; esac
    [[ "$area/$name" =~ $filter ]] || continue
    [[ " $opts " == *" only=rdmx "* ]] && [ "$impl" != rdmx ] && continue
    exe="$out/${src%.c}"
    srcs=("$here/$area/$src")
    for o in $opts; do [[ "$o" == extra=* ]] && srcs+=("$top/${o#extra=}"); done
    if [ ! -x "$exe" ] || [ "${srcs[0]}" -nt "$exe" ] || [ "$here/rxtest.h" -nt "$exe" ]; then
        if ! $cc -O2 -g -Wall -Wextra -Werror $xflags -I"$here" "${srcs[@]}" -o "$exe" -lpthread -lm 2>"$out/$name.build.log"; then
            head -20 "$out/$name.build.log"
            failed+=("$name (build)"); continue
        fi
    fi
    timeout=60 envs=() args=() chk=()
    for o in $opts; do
        case "$o" in
        timeout=*) timeout=${o#timeout=} ;;
        env=*) v=${o#env=}
            if [ "$envflag" = -genv ]; then envs+=(-genv "${v%%=*}" "${v#*=}"); else envs+=(-x "$v"); fi ;;
        arg=*) args+=("${o#arg=}") ;;
        fail=*) chk+=(--fail "${o#fail=}") ;;
        rc=*) chk+=(--rc "${o#rc=}") ;;
        esac
    done
    [ -n "$only_ranks" ] && ranks=$only_ranks
    for n in ${ranks//,/ }; do
        t0=$(date +%s.%N)
        log="$out/$name.np$n.log"
        "$here/rxcheck.sh" "${chk[@]}" --timeout "$timeout" -- \
            "${launcher[@]}" "$n" "${envs[@]}" "$exe" "${args[@]}" \
            >"$log" 2>&1
        rc=$?
        dt=$(echo "$(date +%s.%N) - $t0" | bc)
        if [ $rc -eq 0 ]; then
            pass=$((pass + 1)); printf 'PASS  %-28s np=%-2s %6.2fs\n' "$name" "$n" "$dt"
        else
            failed+=("$name np=$n"); printf 'FAIL  %-28s np=%-2s %6.2fs  (%s)\n' "$name" "$n" "$dt" "$log"
            grep -E 'FAIL|rxcheck|rror' "$log" | head -8 | sed 's/^/      /'
        fi
    done
done <"$list"
done
printf '%s: %d passed, %d failed, %.1f s\n' "$impl" "$pass" "${#failed[@]}" \
    "$(echo "$(date +%s.%N) - $t_all" | bc)"
for f in "${failed[@]}"; do echo "  failed: $f"; done
[ ${#failed[@]} -eq 0 ]
