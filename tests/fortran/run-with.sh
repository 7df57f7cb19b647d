#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds and runs the Fortran tests (tests/fortran/*.f, *.f90) with another MPI's
# Fortran wrapper, to show the tests themselves are right (what passes under MPICH
# and Open MPI checks rdmx, not the tests' own mistakes), or with rdmx's.
# Builds into /tmp, never into the tree.
#
# usage: tests/fortran/run-with.sh mpich|openmpi|rdmx [RANKS]
#   RANKS  comma-separated rank counts (default 1,2,3,4)
#   rdmx   uses $RDMX_BUILD/bin/rdmx-fort and rdmx-run (RDMX_BUILD defaults to ./build-fort)
# Prints PASS/FAIL per test and rank count; exits 1 if any failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
impl=${1:?usage: run-with.sh mpich|openmpi|rdmx [RANKS]}
ranks=${2:-1,2,3,4}
out=${RXT_OUT:-/tmp/rdmx-forttests-$impl}
case "$impl" in
mpich) fc=mpifort.mpich; launcher=(mpiexec.mpich -n) ;;
# Open MPI 4.1's osc/ucx refuses windows without a UCX network: the others serve
openmpi) fc=mpifort.openmpi
    launcher=(mpiexec.openmpi --allow-run-as-root --oversubscribe --mca osc ^ucx -n) ;;
rdmx) b=${RDMX_BUILD:-$PWD/build-fort}; fc=$b/bin/rdmx-fort; launcher=("$b/bin/rdmx-run" -n) ;;
*) echo "run-with.sh: unknown implementation '$impl'" >&2; exit 2 ;;
esac
command -v "$fc" >/dev/null || { echo "run-with.sh: $fc not found" >&2; exit 2; }
mkdir -p "$out"
failed=() pass=0 skipped=0
for src in "$here"/*.f "$here"/*.f90; do
    name=$(basename "${src%.*}")
    [ "$name" = rxtest ] && continue # the tests' shared module
    # "! run-with: not IMPL (why)": a test of what IMPL does not have
    if why=$(grep -m1 "^! run-with: not $impl " "$src"); then
        echo "SKIP $name: ${why#! run-with: not }"; skipped=$((skipped + 1)); continue
    fi
    exe="$out/$name"
    # mpif.h programs pass any type as a choice buffer (-fallow-argument-mismatch)
    if ! (cd "$out" && "$fc" -O2 -g -fallow-argument-mismatch "$here/rxtest.f90" "$src" -o "$exe") \
        >"$out/$name.build.log" 2>&1; then
        head -20 "$out/$name.build.log"
        failed+=("$name (build)"); continue
    fi
    for n in ${ranks//,/ }; do
        if log=$(timeout 120 "${launcher[@]}" "$n" "$exe" 2>&1) && grep -q "No Errors" <<<"$log"; then
            echo "PASS $name np$n"; pass=$((pass + 1))
        else
            echo "FAIL $name np$n"; tail -5 <<<"$log"; failed+=("$name np$n")
        fi
    done
done
echo "$impl: $pass passed, $skipped tests skipped, ${#failed[@]} failed${failed:+: ${failed[*]}}"
[ ${#failed[@]} -eq 0 ]
