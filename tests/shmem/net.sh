#!/bin/bash
# SPDX-License-Identifier: MIT
# The SHMEM tests across network-namespace "hosts" (tests/net/netns.sh):
# net.sh HOSTS PPN BUILD_DIR runs rma, atomic, sync, coll, aset, deprecated and busy with PPN PEs on
# each of HOSTS hosts, so PEs reach each other both through node-mapped
# memory and through libfabric (tcp;ofi_rxm, which has the atomics). Exits
# 0, 1, or 77 when namespaces cannot be made here.
NH=$1
PPN=$2
B=$3
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../net/netns.sh"
W=$(mktemp -d)
trap 'rx_net_down; rm -rf "$W"' EXIT
rx_net_up "$NH" || { echo "FAIL: could not set up $NH hosts"; exit 1; }
rc=0
for t in rma atomic sync coll aset deprecated busy; do
    ip netns exec "${RXN_H[0]}" "$B/bin/oshrun" --hosts "$RXN_HOSTS" -ppn "$PPN" \
        --launcher-exec "ip netns exec {host}" --timeout 120 -x RDMX_OFI_PROVIDER="tcp;ofi_rxm" \
        "$B/tests/shmem/rxshmem_$t" >"$W/out" 2>"$W/err"
    r=$?
    if [ $r -ne 0 ] || ! grep -q "No Errors" "$W/out"; then
        echo "FAIL: $t on $NH hosts x $PPN PEs (exit $r)"
        cat "$W/out" "$W/err" | head -40
        rc=1
    else
        echo "ok: $t on $NH hosts x $PPN PEs"
    fi
done
exit $rc
