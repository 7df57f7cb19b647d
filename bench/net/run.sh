#!/bin/bash
# SPDX-License-Identifier: MIT
# Benchmarks between two network-namespace "hosts" (one rank each, tcp over a
# veth pair and a private bridge): rdmx, MPICH and Open MPI started the same
# way (the launcher in the first namespace, ranks started into each namespace),
# interleaved, medians and ratios by bench/stats.py.
#
#   bench/net/run.sh [--reps N] [--delay US] [--quick] [--impl LIST] [BENCH...]
#
# BENCH: p2p:latency p2p:bw coll:allreduce (the default: all three).
# --impl LIST: among rdmx, mpich, openmpi, and rdmx-rxm (rdmx over
# tcp;ofi_rxm instead of the provider it picks, to compare the two).
# --delay US adds US microseconds of one-way delay on each host's link
# (tc netem, needs the kernel's sch_netem). RDMX_BIN: where rdmx-run and
# rdmx-cc are (default <repo>/build/bin). Output: bench/out/net-<date>-<time>/.
# Peers as docs/performance.md describes: MPICH (UCX) with UCX_TLS=tcp,self
# (else UCX uses shared memory between the namespaces), Open MPI with
# --bind-to none and the tcp BTL only.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
BENCH=$(cd "$HERE/.." && pwd)
REPO=$(cd "$BENCH/.." && pwd)
RDMX_BIN="${RDMX_BIN:-$REPO/build/bin}"
REPS=5 DELAY=0 QUICK=0 IMPLS=rdmx,mpich,openmpi TIMEOUT=300
SEL=()
while [ $# -gt 0 ]; do
    case $1 in
    --reps) REPS=$2; shift 2 ;;
    --delay) DELAY=$2; shift 2 ;;
    --quick) QUICK=1; shift ;;
    --impl) IMPLS=$2; shift 2 ;;
    --timeout) TIMEOUT=$2; shift 2 ;;
    -h|--help) sed -n '3,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) SEL+=("$1"); shift ;;
    esac
done
[ ${#SEL[@]} -gt 0 ] || SEL=(p2p:latency p2p:bw coll:allreduce)
IFS=',' read -r -a ACTIVE <<<"$IMPLS"

. "$REPO/tests/net/netns.sh"
OUT="$BENCH/out/net-$(date +%Y%m%d-%H%M%S)$([ "$DELAY" != 0 ] && echo "-delay${DELAY}us")"
mkdir -p "$OUT/raw"

# ---- build each implementation's programs into bench/bin/net/<impl> -------
cc_of() {
    case $1 in
    rdmx | rdmx-rxm) echo "${RDMX_CC:-$RDMX_BIN/rdmx-cc}" ;;
    mpich) echo "${MPICH_CC:-mpicc.mpich}" ;;
    openmpi) echo "${OPENMPI_CC:-mpicc.openmpi}" ;;
    esac
}
for impl in "${ACTIVE[@]}"; do
    # always from scratch: a program left by another build tree links another librdmx
    rm -rf "$BENCH/bin/net/$impl"
    make -s -C "$BENCH" MPICC="$(cc_of "$impl")" BINDIR="$BENCH/bin/net/$impl" \
        "$BENCH/bin/net/$impl/p2p" "$BENCH/bin/net/$impl/coll" >"$OUT/build-$impl.log" 2>&1 ||
        { echo "run.sh: cannot build for $impl (see $OUT/build-$impl.log)" >&2; exit 1; }
done

rx_net_up 2 || { echo "run.sh: namespace set-up failed" >&2; exit 1; }
H0=${RXN_H[0]} H1=${RXN_H[1]}
if [ "$DELAY" != 0 ]; then
    for h in "$H0" "$H1"; do
        ip netns exec "$h" tc qdisc add dev "$RXN_IF" root netem delay "${DELAY}us" 2>"$OUT/tc.err" ||
            { echo "run.sh: cannot add ${DELAY} us delay (tc netem): $(cat "$OUT/tc.err")" >&2; exit 1; }
    done
fi

launch() { # impl -> launcher words
    case $1 in
    rdmx) printf '%s\n' "$RDMX_BIN/rdmx-run" --hosts "$H0,$H1" -ppn 1 \
              --launcher-exec "ip netns exec {host}" ;;
    rdmx-rxm) launch rdmx; printf '%s\n' -x "RDMX_OFI_PROVIDER=tcp;ofi_rxm" ;;
    mpich) printf '%s\n' mpiexec.mpich -launcher ssh -launcher-exec "$HERE/nslaunch.sh" \
              -hosts "$H0,$H1" -ppn 1 -n 2 -iface "$RXN_IF" -genv UCX_TLS tcp,self \
              -genv UCX_NET_DEVICES "$RXN_IF" ;;
    openmpi) printf '%s\n' mpiexec.openmpi --allow-run-as-root --mca plm_rsh_agent \
              "$HERE/nslaunch.sh" -H "$H0,$H1" -n 2 --bind-to none --mca oob_tcp_if_include \
              "$RXN_IF" --mca btl_tcp_if_include "$RXN_IF" --mca pml ob1 --mca btl tcp,self ;;
    esac
}

MANIFEST="$OUT/manifest.tsv"
printf 'rep\tnp\timpl\tsuite\tbench\trc\twall_s\tfile\n' >"$MANIFEST"
COMMAND="bench/net/run.sh --reps $REPS$([ "$DELAY" != 0 ] && echo " --delay $DELAY")$([ $QUICK = 1 ] && echo " --quick")$([ "$IMPLS" != rdmx,mpich,openmpi ] && echo " --impl $IMPLS") ${SEL[*]}"
echo "$COMMAND" >"$OUT/command.txt"
FAILURES=0
echo "start $(cut -d' ' -f1-3 /proc/loadavg)" >"$OUT/loadavg.txt"
for rep in $(seq 1 "$REPS"); do
    for c in "${SEL[@]}"; do
        suite=${c%%:*} bench=${c#*:}
        for impl in "${ACTIVE[@]}"; do
            file="$OUT/raw/$suite-$bench-np2-$impl-rep$rep.txt"
            mapfile -t cmd < <(launch "$impl")
            cmd+=("$BENCH/bin/net/$impl/$suite" "$bench")
            [ $QUICK = 1 ] && cmd+=(-q)
            t0=$(date +%s.%N)
            ( cd "$HERE" && timeout --kill-after=10 "$TIMEOUT" ip netns exec "$H0" "${cmd[@]}" ) \
                >"$file" 2>"$file.err"
            rc=$?
            t1=$(date +%s.%N)
            printf '%s\t2\t%s\t%s\t%s\t%s\t%.2f\t%s\n' "$rep" "$impl" "$suite" "$bench" "$rc" \
                "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "raw/$(basename "$file")" >>"$MANIFEST"
            [ $rc -eq 0 ] || { FAILURES=$((FAILURES + 1)); tail -3 "$file.err" >&2; }
            [ -s "$file.err" ] || rm -f "$file.err"
            printf '  %-8s %-16s rep %s/%s  %s\n' "$impl" "$c" "$rep" "$REPS" \
                "$([ $rc = 0 ] && echo ok || echo "FAILED ($rc)")" >&2
        done
    done
done
echo "end $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/loadavg.txt"
python3 "$BENCH/stats.py" --out "$OUT" --impls "$IMPLS" --command "$COMMAND" --quick "$QUICK" |
    tee "$OUT/summary.md"
echo "run.sh: results in $OUT (one-way delay added: ${DELAY} us)" >&2
[ $FAILURES -eq 0 ]
