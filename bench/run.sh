#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the benchmarks with each MPI implementation's compiler, runs them
# interleaved (A, B, C, A, B, C, ...), and prints per-size medians, spreads
# and ratios as Markdown. See docs/bench.md.
set -u -o pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
RDMX_BIN="${RDMX_BIN:-$REPO/build/bin}"

IMPLS="rdmx,mpich,openmpi"
REPS=5
NPS="2"
QUICK=0
BIND=""
OUT=""
TIMEOUT=""
EXTRA_ARGS=""
BUILD=1
LIST=0
SUITES=()

usage() {
    cat <<EOF
usage: bench/run.sh [options] SUITE...
  SUITE            p2p coll rma halo threads floor, or all; SUITE:BENCH picks one
                   benchmark (e.g. p2p:latency, rma:put_lat-lock; see --list)
  --impl LIST      implementations, in run order (default rdmx,mpich,openmpi)
  --reps N         repetitions of each implementation, interleaved (default 5)
  --np LIST        rank counts, e.g. 2,4,8 (default 2); p2p and rma run at 2 only
  --quick, -q      iteration counts / 10, for smoke runs
  --bind MODE      core or none: passed to every launcher (default: each
                   launcher's own default)
  --args "ARGS"    extra arguments for every MPI benchmark (e.g. "-M 64K")
  --alloc KIND     message buffers: page (posix_memalign 4096, default), malloc,
                   mpi (MPI_Alloc_mem); the same as --args "-A KIND"
  --timeout S      limit per program run (default 900, quick 180)
  --out DIR        results directory (default bench/out/<date>-<time>)
  --no-build       use the programs already in bench/bin/<impl>/
  --list           print the benchmarks of the chosen suites and exit
environment:
  RDMX_BIN         where rdmx-cc and rdmx-run are (default <repo>/build/bin)
  RDMX_CC, MPICH_CC, OPENMPI_CC
                   compiler per implementation (default \$RDMX_BIN/rdmx-cc,
                   mpicc.mpich, mpicc.openmpi)
  MPICH_ARGS, OPENMPI_ARGS, RDMX_ARGS
                   extra launcher options per implementation
EOF
}

while [ $# -gt 0 ]; do
    case "$1" in
    --impl) IMPLS="$2"; shift 2 ;;
    --impl=*) IMPLS="${1#*=}"; shift ;;
    --reps) REPS="$2"; shift 2 ;;
    --reps=*) REPS="${1#*=}"; shift ;;
    --np) NPS="$2"; shift 2 ;;
    --np=*) NPS="${1#*=}"; shift ;;
    --quick | -q) QUICK=1; shift ;;
    --bind) BIND="$2"; shift 2 ;;
    --bind=*) BIND="${1#*=}"; shift ;;
    --args) EXTRA_ARGS="$2"; shift 2 ;;
    --args=*) EXTRA_ARGS="${1#*=}"; shift ;;
    --alloc) EXTRA_ARGS="${EXTRA_ARGS:+$EXTRA_ARGS }-A $2"; shift 2 ;;
    --alloc=*) EXTRA_ARGS="${EXTRA_ARGS:+$EXTRA_ARGS }-A ${1#*=}"; shift ;;
    --timeout) TIMEOUT="$2"; shift 2 ;;
    --timeout=*) TIMEOUT="${1#*=}"; shift ;;
    --out) OUT="$2"; shift 2 ;;
    --out=*) OUT="${1#*=}"; shift ;;
    --no-build) BUILD=0; shift ;;
    --list) LIST=1; shift ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) SUITES+=("$1"); shift ;;
    esac
done
[ ${#SUITES[@]} -gt 0 ] || { usage >&2; exit 2; }
case "$REPS" in '' | *[!0-9]*) echo "run.sh: --reps needs a number" >&2; exit 2 ;; esac
case "$BIND" in "" | core | none) ;; *) echo "run.sh: --bind core|none" >&2; exit 2 ;; esac
[ -n "$TIMEOUT" ] || TIMEOUT=$([ $QUICK = 1 ] && echo 180 || echo 900)
NCPU=$(nproc)

# ---- the benchmarks: "suite|bench id|program|arguments|ranks" ------------
# ranks: "2" = exactly two ranks, "any" = every --np value, "1" = no MPI.
CASES=()
add_case() { CASES+=("$1|$2|$3|$4|$5"); }
for s in latency bw bibw rate; do add_case p2p "$s" p2p "$s" 2; done
for s in allreduce reduce bcast barrier allgather alltoall; do add_case coll "$s" coll "$s" any; done
for op in put get; do
    for kind in lat bw; do
        for sync in lock fence pscw; do
            add_case rma "${op}_${kind}-$sync" rma "-s $sync ${op}_${kind}" 2
        done
    done
done
for op in acc gacc fop cas; do add_case rma "${op}_lat-lock" rma "-s lock ${op}_lat" 2; done
for t in vector subarray; do add_case halo "halo3d-$t" halo "$t" any; done
for m in latency rate; do for t in 1 2 4; do add_case threads "$m-t$t" threads "$m-t$t" 2; done; done
add_case floor cacheline cacheline "" 1
add_case floor memcpy memcpy_bw "" 1

selected() { # suite bench
    local want
    for want in "${SUITES[@]}"; do
        case "$want" in
        all | "$1" | "$1:$2") return 0 ;;
        esac
    done
    return 1
}
SEL=()
for c in "${CASES[@]}"; do
    IFS='|' read -r suite bench _ _ _ <<<"$c"
    selected "$suite" "$bench" && SEL+=("$c")
done
[ ${#SEL[@]} -gt 0 ] || { echo "run.sh: no benchmark matches: ${SUITES[*]}" >&2; exit 2; }
if [ $LIST = 1 ]; then
    for c in "${SEL[@]}"; do IFS='|' read -r suite bench prog args ranks <<<"$c"; echo "$suite:$bench  ($prog $args; ranks: $ranks)"; done
    exit 0
fi
NEED_MPI=0
for c in "${SEL[@]}"; do [ "${c##*|}" != 1 ] && NEED_MPI=1; done

# ---- packages: install only what is missing ------------------------------
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "run.sh: need root to run: $*" >&2; return 1; fi; }
APT_UPDATED=0
apt_install() {
    echo "run.sh: installing $*" >&2
    if [ $APT_UPDATED = 0 ]; then as_root apt-get update -qq || return 1; APT_UPDATED=1; fi
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}
command -v python3 >/dev/null || apt_install python3 || { echo "run.sh: python3 is needed" >&2; exit 1; }
command -v make >/dev/null && command -v cc >/dev/null || apt_install build-essential || exit 1
IFS=',' read -r -a IMPL_LIST <<<"$IMPLS"
for impl in "${IMPL_LIST[@]}"; do
    case "$impl" in
    mpich) { command -v mpicc.mpich && command -v mpiexec.mpich; } >/dev/null ||
        apt_install mpich libmpich-dev || echo "run.sh: could not install MPICH" >&2 ;;
    openmpi) { command -v mpicc.openmpi && command -v mpiexec.openmpi; } >/dev/null ||
        apt_install openmpi-bin libopenmpi-dev || echo "run.sh: could not install Open MPI" >&2 ;;
    rdmx) ;;
    *) echo "run.sh: unknown implementation '$impl' (rdmx, mpich, openmpi)" >&2; exit 2 ;;
    esac
done

# ---- build -----------------------------------------------------------------
[ -n "$OUT" ] || OUT="$HERE/out/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$OUT/raw"
compiler() {
    case "$1" in
    rdmx) echo "${RDMX_CC:-$RDMX_BIN/rdmx-cc}" ;;
    mpich) command -v "${MPICH_CC:-mpicc.mpich}" ;;
    openmpi) command -v "${OPENMPI_CC:-mpicc.openmpi}" ;;
    esac
}
launcher_ok() {
    case "$1" in
    rdmx) [ -x "$RDMX_BIN/rdmx-run" ] ;;
    mpich) command -v mpiexec.mpich >/dev/null ;;
    openmpi) command -v mpiexec.openmpi >/dev/null ;;
    esac
}
FAILURES=0
ACTIVE=()
if [ $NEED_MPI = 1 ]; then
    for impl in "${IMPL_LIST[@]}"; do
        cc_path="$(compiler "$impl")"
        if [ -z "$cc_path" ] || [ ! -x "$cc_path" ] || ! launcher_ok "$impl"; then
            echo "run.sh: skipping $impl: compiler or launcher not found${cc_path:+ ($cc_path)}" >&2
            continue
        fi
        if [ $BUILD = 1 ]; then
            # from scratch, so that a program that no longer builds is not run stale
            echo "run.sh: building with $cc_path into bench/bin/$impl" >&2
            rm -rf "$HERE/bin/$impl"
            log="$OUT/build-$impl.log"
            if ! make -s -k -C "$HERE" MPICC="$cc_path" BINDIR="bin/$impl" mpi >"$log" 2>&1; then
                FAILURES=$((FAILURES + 1))
                echo "run.sh: $impl: build errors (full log: $log):" >&2
                grep -m 5 -E 'error|undefined reference' "$log" | sed 's/^/    /' >&2
                for p in p2p coll rma halo threads; do
                    [ -x "$HERE/bin/$impl/$p" ] ||
                        echo "run.sh: $impl: $p did not build; its benchmarks are skipped" >&2
                done
            fi
        fi
        ls "$HERE/bin/$impl"/* >/dev/null 2>&1 || { echo "run.sh: nothing built for $impl; skipping it" >&2; continue; }
        ACTIVE+=("$impl")
    done
    [ ${#ACTIVE[@]} -gt 0 ] || { echo "run.sh: no MPI implementation available" >&2; exit 1; }
fi
if [ $BUILD = 1 ]; then
    make -s -C "$HERE" FLOORDIR=bin/floor floor >"$OUT/build-floor.log" 2>&1 ||
        { cat "$OUT/build-floor.log" >&2; echo "run.sh: floor build failed" >&2; exit 1; }
fi

# ---- run -------------------------------------------------------------------
MANIFEST="$OUT/manifest.tsv"
printf 'rep\tnp\timpl\tsuite\tbench\trc\twall_s\tfile\n' >"$MANIFEST"
COMMAND="bench/run.sh --impl $IMPLS --reps $REPS --np $NPS$([ $QUICK = 1 ] && echo " --quick")${BIND:+ --bind $BIND}${EXTRA_ARGS:+ --args \"$EXTRA_ARGS\"} ${SUITES[*]}"
echo "$COMMAND" >"$OUT/command.txt"

launch() { # impl np -> launcher words on stdout, one per line
    local impl=$1 np=$2
    case "$impl" in
    mpich)
        echo mpiexec.mpich
        [ -n "$BIND" ] && printf '%s\n' -bind-to "$BIND"
        printf '%s\n' -n "$np" ${MPICH_ARGS:-} ;;
    openmpi)
        printf '%s\n' mpiexec.openmpi --allow-run-as-root
        [ "$np" -gt "$NCPU" ] && echo --oversubscribe
        [ -n "$BIND" ] && printf '%s\n' --bind-to "$BIND"
        printf '%s\n' -n "$np" ${OPENMPI_ARGS:-} ;;
    rdmx)
        echo "$RDMX_BIN/rdmx-run"
        [ "$np" -gt "$NCPU" ] && echo --oversubscribe
        [ -n "$BIND" ] && printf '%s\n' --bind-to "$BIND"
        printf '%s\n' -n "$np" ${RDMX_ARGS:-} ;;
    esac
}

run_one() { # rep np impl suite bench prog args
    local rep=$1 np=$2 impl=$3 suite=$4 bench=$5 prog=$6 args=$7
    local file="$OUT/raw/$suite-$bench-np$np-$impl-rep$rep.txt" rc t0 t1 cmd=()
    if [ "$impl" = none ]; then
        cmd=("$HERE/bin/floor/$prog")
        [ $QUICK = 1 ] && cmd+=(-q)
    else
        [ -x "$HERE/bin/$impl/$prog" ] || return 0 # did not build: said so above
        mapfile -t cmd < <(launch "$impl" "$np")
        cmd+=("$HERE/bin/$impl/$prog")
        [ $QUICK = 1 ] && cmd+=(-q)
        # shellcheck disable=SC2206
        cmd+=($EXTRA_ARGS $args)
    fi
    t0=$(date +%s.%N)
    timeout --kill-after=10 "$TIMEOUT" "${cmd[@]}" >"$file" 2>"$file.err"
    rc=$?
    t1=$(date +%s.%N)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t%s\n' "$rep" "$np" "$impl" "$suite" "$bench" "$rc" \
        "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "raw/$(basename "$file")" >>"$MANIFEST"
    if [ $rc -ne 0 ]; then
        FAILURES=$((FAILURES + 1))
        echo "run.sh: FAILED (exit $rc): $impl $suite:$bench np=$np rep=$rep: ${cmd[*]}" >&2
        sed 's/^/    /' "$file.err" | tail -5 >&2
    else
        [ -s "$file.err" ] || rm -f "$file.err"
    fi
    printf '  %-8s %-22s np=%-2s rep %s/%s  %s\n' "$impl" "$suite:$bench" "$np" "$rep" "$REPS" \
        "$([ $rc = 0 ] && echo ok || echo "FAILED ($rc)")" >&2
}

IFS=',' read -r -a NP_LIST <<<"$NPS"
echo "run.sh: ${#SEL[@]} benchmarks x ${#ACTIVE[@]} implementations x $REPS reps -> $OUT" >&2
echo "start $(cut -d' ' -f1-3 /proc/loadavg)" >"$OUT/loadavg.txt"
for rep in $(seq 1 "$REPS"); do
    for np in "${NP_LIST[@]}"; do
        for c in "${SEL[@]}"; do
            IFS='|' read -r suite bench prog args ranks <<<"$c"
            if [ "$ranks" = 1 ]; then
                # the floor does not depend on np: measure it once per rep
                [ "$np" = "${NP_LIST[0]}" ] && run_one "$rep" 1 none "$suite" "$bench" "$prog" ""
                continue
            fi
            [ "$ranks" = 2 ] && [ "$np" != 2 ] && continue
            for impl in "${ACTIVE[@]}"; do
                run_one "$rep" "$np" "$impl" "$suite" "$bench" "$prog" "$args"
            done
        done
    done
done

echo "end $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/loadavg.txt"

# ---- statistics ----------------------------------------------------------------
python3 "$HERE/stats.py" --out "$OUT" --impls "$(IFS=,; echo "${ACTIVE[*]:-}")" \
    --command "$COMMAND" --quick "$QUICK" | tee "$OUT/summary.md"
echo "run.sh: raw results $OUT/results.csv, table $OUT/summary.md" >&2
if [ $FAILURES -gt 0 ]; then
    echo "run.sh: $FAILURES failures (see $OUT/manifest.tsv and raw/*.err)" >&2
    exit 1
fi
exit 0
