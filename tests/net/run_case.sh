#!/bin/bash
# SPDX-License-Identifier: MIT
# One multi-host test between network namespaces: run_case.sh CASE BUILD_DIR.
# Every rank runs in a namespace "host" of its own network (tcp over veth and
# a private bridge); rdmx-run runs in the first host and starts every rank
# through "ip netns exec {host}", PMI over TCP. The provider is rdmx's own
# choice; CASE-rxm runs CASE over tcp;ofi_rxm, the choice where libfabric
# has no reliable-datagram tcp provider of its own. Exits 0 (pass), 1 (fail)
# or 77 (skip: no namespaces here).
CASE=$1
B=$2
PROVIDER=
case $CASE in
*-rxm) CASE=${CASE%-rxm} PROVIDER="tcp;ofi_rxm" ;;
# rma_nocpu needs the network's atomics for its locks; net (libfabric 1.17)
# has none, so these cases keep tcp;ofi_rxm (rma-default-2hosts: net)
rma-2hosts | rma-4hosts) PROVIDER="tcp;ofi_rxm" ;;
esac
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/netns.sh"
MPI=$B/tests/mpi
NET=$B/tests/net
W=$(mktemp -d)
trap 'rx_net_down; rm -rf "$W"' EXIT

fail() { echo "FAIL ($CASE): $*"; echo "--- stdout"; cat "$W/out" 2>/dev/null; echo "--- stderr"; cat "$W/err" 2>/dev/null; exit 1; }

# job HOSTS PPN ENV... -- PROGRAM ARGS: run it, output in $W/out and $W/err, status in RC
job() {
    local ppn=$1; shift
    local envs=()
    while [ "$1" != -- ]; do envs+=(-x "$1"); shift; done
    shift
    ip netns exec "${RXN_H[0]}" "$B/bin/rdmx-run" --hosts "$RXN_HOSTS" -ppn "$ppn" \
        --launcher-exec "ip netns exec {host}" --timeout 120 -x RDMX_OFI_PROVIDER="$PROVIDER" \
        "${envs[@]}" "$@" >"$W/out" 2>"$W/err"
    RC=$?
    return $RC
}

now() { date +%s.%N; }
# elapsed T0: seconds since T0; under LIMIT T LIMIT: status 0 when T < LIMIT
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
under() { awk -v t="$1" -v l="$2" 'BEGIN { exit !(t < l) }'; }

# suite PPN PROGRAM[:ARG,ARG]...: each must print "No Errors" and exit 0
# (SUITE_ENV: more VAR=VALUE words for every job)
suite() {
    local ppn=$1; shift
    for p in "$@"; do
        local prog=${p%%:*} args=()
        [ "$prog" != "$p" ] && IFS=',' read -r -a args <<<"${p#*:}"
        job "$ppn" RDMX_WAIT=yield $SUITE_ENV -- "$MPI/rxmpi_$prog" "${args[@]}"
        [ $RC -eq 0 ] && grep -q "No Errors" "$W/out" || fail "$p at $ppn ranks per host: status $RC"
        echo "ok $p (${#RXN_H[@]} hosts x $ppn)"
    done
}

# Nothing of the job may remain in any host.
expect_clean() {
    for ns in "${RXN_H[@]}"; do
        local left
        for i in $(seq 50); do
            left=$(ip netns pids "$ns" 2>/dev/null)
            [ -z "$left" ] && break
            sleep 0.1
        done
        [ -z "$left" ] || fail "processes left in $ns: $left"
    done
}

case $CASE in
p2p-2hosts)
    rx_net_up 2 || fail "namespace set-up"
    suite 1 p2p_sizes p2p_order p2p_probe p2p_modes p2p_ssend p2p_truncate p2p_cancel p2p_special
    ;;
coll-2hosts)
    rx_net_up 2 || fail "namespace set-up"
    suite 2 coll_basic coll_reduce coll_inplace comm_split p2p_order
    ;;
rma-2hosts)
    # one-sided across nodes by the network's RMA and atomics (dynamic windows
    # and ops the network lacks by active messages); rma_nocpu: the target
    # computes without MPI calls while the others lock, put, get, fetch-and-add,
    # compare-and-swap and unlock; at 2 per host shared memory and network mix
    rx_net_up 2 || fail "namespace set-up"
    suite 1 rma_ops:allocate rma_ops:create rma_ops:dynamic rma_ops:allocmem rma_counter:allocate,2000 \
        rma_counter:create,2000 rma_nocpu:allocate rma_nocpu:create rma_nocpu:allocmem
    suite 2 rma_ops:allocate rma_ops:create rma_ops:allocmem rma_counter:allocate,2000 \
        rma_counter:create,2000 rma_nocpu:allocate rma_nocpu:create
    ;;
rma-4hosts)
    rx_net_up 4 || fail "namespace set-up"
    suite 1 rma_ops:allocate rma_ops:create rma_counter:allocate,2000 rma_nocpu:allocate rma_nocpu:create
    suite 2 rma_ops:create rma_counter:allocate,1000 rma_nocpu:allocate
    ;;
rma-default-2hosts)
    # one-sided on the provider rdmx picks by default (atomics by messages
    # where it has none)
    rx_net_up 2 || fail "namespace set-up"
    suite 1 rma_ops:allocate rma_ops:create rma_ops:dynamic rma_counter:allocate,2000
    suite 2 rma_ops:allocate rma_counter:create,2000
    ;;
rma-emulated-2hosts)
    # the network's RMA turned off: every operation across nodes by messages
    rx_net_up 2 || fail "namespace set-up"
    SUITE_ENV=RDMX_OFI_RMA=0
    suite 1 rma_ops:allocate rma_ops:create rma_counter:allocate,2000
    suite 2 rma_ops:allocate rma_counter:create,2000
    ;;
p2p-4hosts)
    rx_net_up 4 || fail "namespace set-up"
    suite 1 p2p_sizes p2p_order p2p_probe p2p_sendrecv
    ;;
coll-4hosts)
    rx_net_up 4 || fail "namespace set-up"
    suite 2 coll_basic coll_reduce
    ;;
mr-reuse)
    rx_net_up 2 || fail "namespace set-up"
    job 1 RDMX_OFI_STATS=1 -- "$NET/rxnet_mr_reuse"
    [ $RC -eq 0 ] && grep -q "No Errors" "$W/out" || fail "status $RC"
    s0=$(grep '^rdmx\[0\] ofi stats' "$W/err") s1=$(grep '^rdmx\[1\] ofi stats' "$W/err")
    [ -n "$s0" ] && [ -n "$s1" ] || fail "no statistics"
    # rank 0 sent 6 x 4 MiB by rendezvous: it copied only the small control
    # messages, and rank 1 read every byte by RDMA straight into its buffers
    copied=$(sed -n 's/.*copied \([0-9]*\) bytes.*/\1/p' <<<"$s0")
    [ "$copied" -lt 1024 ] || fail "rank 0 copied $copied bytes (rendezvous must copy none)"
    grep -q "rendezvous read 25165824 bytes in 6 reads" <<<"$s1" || fail "rank 1: $s1"
    # the same buffer registered once, then hits; the unmapped one dropped
    hits=$(sed -n 's/.*cache \([0-9]*\) hits.*/\1/p' <<<"$s0")
    inval=$(sed -n 's/.* \([0-9]*\) invalidated.*/\1/p' <<<"$s0")
    [ "$hits" -ge 2 ] || fail "rank 0: $hits cache hits, expected at least 2"
    [ "$inval" -ge 1 ] || fail "rank 0: no registration invalidated after munmap"
    echo "ok: $s0"
    ;;
provider-choice)
    # over tcp the first provider with reliable-datagram endpoints of its
    # own (tcp from libfabric 1.18, net in 1.17), else tcp;ofi_rxm
    command -v fi_info >/dev/null || { echo "SKIP: fi_info (libfabric-bin) not installed"; exit 77; }
    rx_net_up 2 || fail "namespace set-up"
    offers=$(ip netns exec "${RXN_H[0]}" fi_info -t FI_EP_RDM -d "$RXN_IF" 2>/dev/null |
        sed -n 's/^provider: //p' | sort -u)
    want="tcp;ofi_rxm"
    for p in tcp net; do
        grep -qx "$p" <<<"$offers" && { want=$p; break; }
    done
    job 1 RDMX_LOG=info -- "$MPI/rxmpi_p2p_sizes"
    [ $RC -eq 0 ] && grep -q "No Errors" "$W/out" || fail "status $RC"
    [ "$(grep -c "ofi: provider $want, domain $RXN_IF," "$W/err")" -eq 2 ] ||
        fail "expected provider $want on $RXN_IF (libfabric offers: $(echo $offers))"
    echo "ok: provider $want"
    ;;
kill-remote)
    rx_net_up 2 || fail "namespace set-up"
    t0=$(now)
    job 1 -- "$NET/rxnet_net_fault" kill 1
    t=$(elapsed "$t0")
    [ $RC -eq 137 ] || fail "status $RC, expected 137"
    grep -Eq '^rdmx-run: rank 1 \(pid [0-9]+\) killed by signal 9 \(Killed\)' "$W/err" || fail "no message naming rank 1"
    [ "$(grep -c '^ready ' "$W/out")" -eq 2 ] || fail "not every rank started"
    under "$t" 20 || fail "took $t s"
    expect_clean
    echo "ok: ended in $t s"
    ;;
link-down)
    rx_net_up 2 || fail "namespace set-up"
    job 1 -- "$NET/rxnet_net_fault" run &
    pid=$!
    for i in $(seq 200); do
        [ "$(grep -c '^ready ' "$W/out" 2>/dev/null)" -eq 2 ] && break
        sleep 0.1
    done
    [ "$(grep -c '^ready ' "$W/out")" -eq 2 ] || fail "the job did not start"
    t0=$(now)
    ip -n "${RXN_H[1]}" link set "$RXN_IF" down
    wait $pid
    RC=$?
    t=$(elapsed "$t0")
    [ $RC -ne 0 ] || fail "status 0 after the link went down"
    grep -Eq "^rdmx-run: (lost the connection to rank 1 on host ${RXN_H[1]}|rank [01] .*(before MPI_Finalize|killed by signal|MPI_Abort))" "$W/err" \
        || fail "no clear message"
    under "$t" 30 || fail "took $t s"
    expect_clean
    echo "ok: ended $t s after the link went down: $(grep '^rdmx-run' "$W/err" | head -1)"
    ;;
*)
    echo "unknown case $CASE"; exit 2 ;;
esac
exit 0
