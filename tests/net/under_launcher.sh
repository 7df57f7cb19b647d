#!/bin/bash
# SPDX-License-Identifier: MIT
# rdmx programs started by other launchers, on this machine: MPICH's hydra
# (mpiexec.mpich: PMI-1 over PMI_FD) or Open MPI's mpirun (mpiexec.openmpi:
# PMIx). under_launcher.sh hydra|ompi BUILD_DIR HAVE_PMIX runs the point-to-point tests
# at 2 and 3 ranks; exit 77 when that launcher is not installed.
L=$1
B=$2
case $L in
hydra) RUN=(mpiexec.mpich) ;;
ompi)  RUN=(mpiexec.openmpi --allow-run-as-root --oversubscribe --bind-to none) ;;
*) echo "usage: $0 hydra|ompi BUILD_DIR"; exit 2 ;;
esac
command -v "${RUN[0]}" >/dev/null || { echo "SKIP: ${RUN[0]} not installed"; exit 77; }
if [ $L = ompi ] && [ "$3" != 1 ]; then
    echo "SKIP: this build has no PMIx client (libpmix-dev)"; exit 77
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for n in 2 3; do
    for p in p2p_sizes p2p_order p2p_probe p2p_modes p2p_ssend p2p_special; do
        # RDMX_LOG=info makes rank 0 report the layout: the ranks must see each
        # other (a launcher not understood would give n singletons)
        timeout 120 "${RUN[@]}" -n $n env RDMX_LOG=info "$B/tests/mpi/rxmpi_$p" >"$out" 2>&1
        rc=$?
        if [ $rc -ne 0 ] || ! grep -q "No Errors" "$out" ||
           ! grep -q "rdmx\[0\]: info: waits: .*($n local ranks" "$out"; then
            echo "FAIL: $p at $n ranks under ${RUN[0]} (status $rc)"
            cat "$out"
            exit 1
        fi
        echo "ok $p np$n under ${RUN[0]}"
    done
done
