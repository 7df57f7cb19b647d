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

# topo_check LABEL PPN WANT... -- RDMX-RUN ARGS: topo_reorder must pass and
# print each WANT line (tests/mpi/topo/topo_reorder.c)
topo_check() {
    local label=$1 ppn=$2 wants=()
    shift 2
    while [ "$1" != -- ]; do wants+=("$1"); shift; done
    shift
    job "$ppn" RDMX_WAIT=yield -- "$@"
    [ $RC -eq 0 ] && grep -q "No Errors" "$W/out" || fail "topo_reorder $label: status $RC"
    for want in "${wants[@]}"; do
        grep -qx "$want" "$W/out" || fail "$label: expected '$want'"
    done
    echo "ok: $label: $(grep ': cut ' "$W/out" | paste -sd ';')"
}

# Two hosts, one rank each, exchanging around a ring until broken from
# outside: the job in the background (pid), started in full flight.
fault_job_start() {
    rx_net_up 2 || fail "namespace set-up"
    job 1 -- "$NET/rxnet_net_fault" run &
    pid=$!
    for i in $(seq 200); do
        [ "$(grep -c '^ready ' "$W/out" 2>/dev/null)" -eq 2 ] && break
        sleep 0.1
    done
    [ "$(grep -c '^ready ' "$W/out")" -eq 2 ] || fail "the job did not start"
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
    suite 1 p2p_sizes p2p_order p2p_probe p2p_modes p2p_ssend p2p_truncate p2p_cancel p2p_cancel_send:strict p2p_special bsend_exact
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
coll-hier-2hosts)
    # hierarchical collectives across hosts of 2 ranks: the phases inside a
    # host on its node-shared path, the leaders' phase over the network
    # (coll_hier_node checks the library reports that); with 3 ranks per
    # host and "nodes" of 2 (RDMX_COLL_NODE_SIZE), ranks 2 and 3 form a node
    # across the hosts, whose ranks share no memory: the node phases must go
    # by schedules instead
    rx_net_up 2 || fail "namespace set-up"
    SUITE_ENV=RDMX_LOG=info suite 2 coll_hier_node coll_all
    job 3 RDMX_WAIT=yield RDMX_LOG=info RDMX_COLL_NODE_SIZE=2 -- "$MPI/rxmpi_coll_basic"
    [ $RC -eq 0 ] && grep -q "No Errors" "$W/out" || fail "coll_basic, a node across hosts: status $RC"
    grep -q "node phases by schedules" "$W/err" || fail "a node across hosts took the node path"
    echo "ok coll_basic (2 hosts x 3, a node of 2 across them: schedules)"
    ;;
topo-2hosts)
    # reorder = 1 with the ranks interleaved over the hosts (8 ranks at one
    # slot per host: 0, 2, 4, 6 on the first): a 4 x 2 grid, a periodic ring
    # of 8 and the 4 x 2 grid graph (by MPI_Graph_create and both distributed
    # forms), each must cut fewer edges between the hosts than the old
    # order; the halo exchange on the grid and the graphs' lists are checked.
    # In blocks of 4 per host (rdmx-run's placement) the old order is as
    # good: it stays.
    rx_net_up 2 || fail "namespace set-up"
    topo_check interleaved 1 "cart 4x2: cut 4 -> 2" "ring 8: cut 8 -> 2" "graph 4x2: cut 8 -> 4" \
        "dist adjacent 4x2: cut 8 -> 4" "dist 4x2: cut 8 -> 4" -- -n 8 "$MPI/rxmpi_topo_reorder" fewer
    topo_check "in blocks" 4 "cart 4x2: cut 2 -> 2" "ring 8: cut 2 -> 2" "graph 4x2: cut 4 -> 4" \
        "dist adjacent 4x2: cut 4 -> 4" "dist 4x2: cut 4 -> 4" -- "$MPI/rxmpi_topo_reorder"
    ;;
topo-4hosts)
    # the same with 16 ranks interleaved over 4 hosts: quadrants of 4 x 4
    rx_net_up 4 || fail "namespace set-up"
    topo_check interleaved 1 "cart 4x4: cut 12 -> 8" "ring 16: cut 16 -> 4" \
        "graph 4x4: cut 24 -> 16" "dist adjacent 4x4: cut 24 -> 16" "dist 4x4: cut 24 -> 16" \
        -- -n 16 "$MPI/rxmpi_topo_reorder" fewer
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
    fault_job_start
    t0=$(now)
    ip -n "${RXN_H[1]}" link set "$RXN_IF" down
    wait $pid
    RC=$?
    t=$(elapsed "$t0")
    [ $RC -ne 0 ] || fail "status 0 after the link went down"
    # the cause is the lost connection, named with the rank and its host, and
    # it comes first: not the exit of the rank that gave up on its launcher
    # (it was "rank 1 ... exited with code 1 before MPI_Finalize")
    first=$(grep -m1 '^rdmx-run: ' "$W/err")
    grep -Eq "^rdmx-run: lost the connection to rank 1 on host ${RXN_H[1]} \(Connection timed out\) before MPI_Finalize; ending the job\$" <<<"$first" \
        || fail "the launcher did not name the lost connection first: $first"
    ! grep -q 'before MPI_Finalize; ending the job' <(grep -v '^rdmx-run: lost the connection' "$W/err") ||
        fail "a rank's exit reported as a cause too"
    # and the rank on that host says what it saw, naming the launcher's address
    grep -Eq '^rdmx\[1\]: lost the connection to the launcher at 10\.77\.0\.1:[0-9]+ \(Connection timed out\); exiting$' "$W/err" ||
        fail "rank 1 did not say it lost the launcher"
    under "$t" 30 || fail "took $t s"
    expect_clean
    echo "ok: ended $t s after the link went down: $(grep '^rdmx-run' "$W/err" | head -1)"
    ;;
conn-reset)
    # the fabric connections of the second host reset mid-job (its TCP
    # sockets but the PMI one destroyed): a rank's transport fails and the
    # launcher names the lost connection, both ranks and their hosts, as the
    # cause; it said "rank R called MPI_Abort with exit code 1"
    fault_job_start
    pmi=$(ip netns exec "${RXN_H[0]}" ss -tlnp | awk '/rdmx-run/ { sub(/.*:/, "", $4); print $4; exit }')
    [ -n "$pmi" ] || fail "no PMI port"
    killed=$(ip netns exec "${RXN_H[1]}" ss -K -tn "dport != :$pmi" 2>&1 | grep -c ESTAB)
    if [ "$killed" -eq 0 ]; then
        kill "$pid"; wait "$pid"
        echo "SKIP: ss -K cannot destroy sockets here (kernel without INET_DIAG_DESTROY)"
        exit 77
    fi
    wait $pid
    RC=$?
    [ $RC -eq 1 ] || fail "status $RC, expected 1"
    first=$(grep -m1 '^rdmx-run: ' "$W/err")
    h0=${RXN_H[0]} h1=${RXN_H[1]}
    grep -Eq "^rdmx-run: rank ([01]) \(pid [0-9]+\) on host ($h0|$h1) lost its connection to (rank [01] on host ($h0|$h1)|a peer) \(a (send|receive) failed: [^)]+\); ending the job\$" <<<"$first" ||
        fail "the launcher did not name the lost connection: $first"
    ! grep -q 'called MPI_Abort' "$W/err" || fail "reported as MPI_Abort"
    expect_clean
    echo "ok: $first"
    ;;
pmi-flood)
    # A third host keeps 600 idle connections (more than the launcher's 512
    # places for unidentified ones) and 60 garbage-sending ones against the
    # PMI port while a 4-rank job on 2 hosts starts (the ranks wait for the
    # flood: launch_gate.sh) and runs.
    command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
    rx_net_up 3 || fail "namespace set-up"
    ip netns exec "${RXN_H[2]}" python3 "$HERE/pmi_flood.py" "$W" 600 60 100 >"$W/flood" 2>&1 &
    fpid=$!
    t0=$(now)
    ip netns exec "${RXN_H[0]}" "$B/bin/rdmx-run" --hosts "${RXN_H[0]},${RXN_H[1]}" -ppn 2 \
        --launcher-exec "$HERE/launch_gate.sh $W {host}" --timeout 90 -x RDMX_WAIT=yield \
        "$MPI/rxmpi_coll_basic" >"$W/out" 2>"$W/err"
    RC=$?
    t=$(elapsed "$t0")
    touch "$W/stop"
    wait $fpid
    rep=$(tr '\n' ' ' <"$W/report" 2>/dev/null)
    [ -e "$W/ready" ] || fail "the flood did not start: $(cat "$W/flood")"
    [ $RC -eq 0 ] && grep -q "No Errors" "$W/out" || fail "status $RC under the flood ($rep)"
    val() { sed -n "s/^$1 //p" "$W/report"; }
    [ "$(val idle_connected_at_ready)" -ge 500 ] || fail "the flood held too few connections ($rep)"
    # refusals say why; idle and slow peers go within seconds; the 88
    # connections beyond the places pushed the oldest idle ones out
    [ "$(val reply_wrong_secret)" -gt 0 ] 2>/dev/null || fail "no wrong-secret reply ($rep)"
    # (the launcher keeps fewer places when its open files are short)
    hard=$(ulimit -Hn)
    if [ "$hard" = unlimited ] || [ "$hard" -ge 2048 ]; then
        [ "$(val reply_busy_retry)" -gt 0 ] 2>/dev/null || fail "no connection was told the launcher is busy ($rep)"
    fi
    under "$(val idle_max_life)" 6 || fail "an idle connection stayed $(val idle_max_life) s ($rep)"
    under "$(val trickle_max_life)" 6 || fail "a slow connection stayed $(val trickle_max_life) s ($rep)"
    n=$(grep -c '^rdmx-run' "$W/err")
    [ "$n" -le 20 ] || fail "$n launcher messages: refusals must not flood stderr"
    expect_clean
    echo "ok: 4 ranks on 2 hosts in $t s under the flood: $rep"
    grep '^rdmx-run' "$W/err"
    ;;
pmi-secret)
    # ranks given a wrong secret are refused at once and say so; so does the
    # launcher
    rx_net_up 2 || fail "namespace set-up"
    t0=$(now)
    ip netns exec "${RXN_H[0]}" "$B/bin/rdmx-run" --hosts "$RXN_HOSTS" -ppn 1 --timeout 60 \
        --launcher-exec "ip netns exec {host} env RDMX_PMI_SECRET=0123456789abcdef0123456789abcdef" \
        "$MPI/rxmpi_p2p_order" >"$W/out" 2>"$W/err"
    RC=$?
    t=$(elapsed "$t0")
    [ $RC -ne 0 ] || fail "status 0 with a wrong secret"
    [ "$(grep -c 'refused this rank: wrong RDMX_PMI_SECRET' "$W/err")" -eq 2 ] || fail "ranks not told: wrong secret"
    grep -Eq '^rdmx-run: refused a PMI connection from 10\.77\.0\.[0-9]+:[0-9]+ for rank [01]: wrong secret' "$W/err" ||
        fail "the launcher did not say: wrong secret"
    under "$t" 15 || fail "took $t s (a wrong secret must not be retried)"
    expect_clean
    echo "ok: refused in $t s: $(grep -m1 'refused this rank' "$W/err")"
    ;;
ssh-stdin)
    # without a template ranks are started by ssh (here ssh_netns.sh, which
    # runs the command in the host's namespace): the secret reaches them on
    # the command's stdin, on no command line, and rank 0 still reads the
    # launcher's stdin after it
    rx_net_up 2 || fail "namespace set-up"
    mkdir "$W/bin" && ln -s "$HERE/ssh_netns.sh" "$W/bin/ssh"
    cat >"$W/rank.sh" <<EOT
#!/bin/bash
echo "rank \$PMI_ID secret \${#RDMX_PMI_SECRET}"
echo "\$RDMX_PMI_SECRET" >"$W/secret.\$PMI_ID"
for f in /proc/[0-9]*/cmdline; do tr '\0' ' ' <"\$f" 2>/dev/null; echo; done >"$W/cmdlines.\$PMI_ID"
sed "s/^/rank \$PMI_ID read: /"
EOT
    chmod +x "$W/rank.sh"
    printf 'line one\nline two\n' | PATH="$W/bin:$PATH" RXN_SSH_LOG="$W/ssh.log" \
        ip netns exec "${RXN_H[0]}" "$B/bin/rdmx-run" --hosts "$RXN_HOSTS" --timeout 60 \
        "$W/rank.sh" >"$W/out" 2>"$W/err"
    RC=$?
    [ $RC -eq 0 ] || fail "status $RC"
    [ "$(wc -l <"$W/ssh.log")" -eq 2 ] || fail "expected 2 ssh commands: $(cat "$W/ssh.log")"
    for r in 0 1; do
        grep -qx "rank $r secret 32" "$W/out" || fail "rank $r has no secret"
    done
    cmp -s "$W/secret.0" "$W/secret.1" || fail "the ranks have different secrets"
    [ "$(grep -c '^rank 0 read: line ' "$W/out")" -eq 2 ] && ! grep -q '^rank 1 read:' "$W/out" ||
        fail "stdin did not reach rank 0 alone, whole"
    s=$(cat "$W/secret.0")
    ! grep -qF "$s" "$W/ssh.log" "$W"/cmdlines.* || fail "the secret is on a command line"
    PATH="$W/bin:$PATH" ip netns exec "${RXN_H[0]}" "$B/bin/rdmx-run" --hosts "$RXN_HOSTS" \
        --timeout 60 "$MPI/rxmpi_p2p_order" >"$W/out" 2>"$W/err" </dev/null
    RC=$?
    [ $RC -eq 0 ] && grep -q "No Errors" "$W/out" || fail "p2p_order by ssh: status $RC"
    expect_clean
    echo "ok: secret by stdin, on no command line; p2p_order by ssh"
    ;;
*)
    echo "unknown case $CASE"; exit 2 ;;
esac
exit 0
