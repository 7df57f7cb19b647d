#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds and runs a user-supplied copy of MPICH's conformance suite (the test/mpi folder of an
# MPICH source tree, e.g. that of Debian's mpich source package) under rdmx or a peer, unchanged:
# the suite's own configure with the implementation's compiler wrapper, its own Makefiles, the
# programs and process counts of each directory's testlist. Not part of the CI suite (the suite's
# code is not in this repository). See docs/testing.md.
#
# usage: tests/conformance/run.sh SUITE_DIR [rdmx|openmpi|mpich] [DIR...]
#   DIR       suite directories to run (default: attr coll comm datatype errhan group info init
#             pt2pt rma topo); DIR/NAME runs one program's lines only
#   RDMX_BUILD        rdmx build folder (default: ./build), for rdmx-cc and rdmx-run
#   CONF_WORK         where the suite is copied, configured and built (default /tmp/rdmx-conf-IMPL)
#   CONF_TIMEOUT      seconds per run when the testlist sets no timeLimit (default 60), given
#                     to the launcher as MPIEXEC_TIMEOUT as the suite's runtests does
#   CONF_LISTS        testlists read in each directory (default: testlist; add testlist.dtp for
#                     the generated datatype-pool lines)
# Prints one line per run (PASS, FAIL, LINK, BUILD, CRASH, HANG) and the counts per directory and
# in all; the output of every run is kept in CONF_WORK/DIR/NAME.npN.out.
set -u
suite=${1:?usage: run.sh SUITE_DIR [rdmx|openmpi|mpich] [DIR...]}
impl=${2:-rdmx}
shift $(($# < 2 ? $# : 2))
dirs=("$@")
[ ${#dirs[@]} -gt 0 ] || dirs=(attr coll comm datatype errhan group info init pt2pt rma topo)
suite=$(cd "$suite" && pwd) || exit 2
[ -x "$suite/configure" ] && [ -f "$suite/util/mtest.c" ] ||
    { echo "run.sh: $suite is not MPICH's test/mpi folder" >&2; exit 2; }
work=${CONF_WORK:-/tmp/rdmx-conf-$impl}
tmo=${CONF_TIMEOUT:-60}
lists=${CONF_LISTS:-testlist}

cppflags=
case "$impl" in
rdmx) b=$(cd "${RDMX_BUILD:-build}" && pwd) || exit 2
    cc=$b/bin/rdmx-cc; launch=("$b/bin/rdmx-run" -n) ;;
openmpi) cc=mpicc.openmpi; launch=(mpirun.openmpi --allow-run-as-root --oversubscribe -n)
    # Open MPI 4.1's mpi.h hides the MPI-1 functions removed in MPI-3.0 (its library keeps them),
    # which the suite's datatype pool (dtpools, linked into every program) still calls
    cppflags=-DOMPI_OMIT_MPI1_COMPAT_DECLS=0 ;;
mpich) cc=mpicc.mpich; launch=(mpiexec.mpich -n) ;;
*) echo "run.sh: unknown implementation '$impl'" >&2; exit 2 ;;
esac
command -v "$cc" >/dev/null || { echo "run.sh: $cc not found" >&2; exit 2; }

# configure once per work folder: the suite's configure probes the implementation itself
if [ ! -f "$work/.configured" ]; then
    rm -rf "$work" && mkdir -p "$work" && cp -a "$suite/." "$work/" || exit 2
    (cd "$work" && ./configure CC="$cc" MPICC="$cc" CPPFLAGS="$cppflags" --disable-fortran --disable-cxx --disable-romio \
        --disable-spawn --disable-ft-tests --disable-perftest >configure.log 2>&1) ||
        { tail -20 "$work/configure.log"; exit 2; }
    make -C "$work/util" libmtest_single.la >"$work/util.log" 2>&1 &&
        make -C "$work/dtpools" >"$work/dtpools.log" 2>&1 ||
        { echo "run.sh: the suite's harness did not build (see $work/util.log)" >&2; exit 2; }
    touch "$work/.configured"
fi

declare -A total=()
kinds=(PASS FAIL LINK BUILD CRASH HANG)
verdict() { # rc output-file result-test killed -> kind
    local rc=$1 out=$2 rt=$3 killed=$4
    [ "$killed" = 1 ] && { echo HANG; return; }
    [ -z "$rt" ] && { [ "$rc" = 124 ] || [ "$rc" = 137 ]; } && { echo HANG; return; }
    if grep -qE 'killed by signal|exited on signal|Segmentation fault|signal [0-9]+ \((Aborted|Bus error|Illegal|Floating)|BAD TERMINATION|core dumped' "$out" &&
        ! grep -qE 'called MPI_Abort|MPI_ABORT was invoked' "$out"; then
        echo CRASH; return
    fi
    if [ -n "$rt" ]; then # TestStatus, TestErrFatal: the run must end with a non-zero status
        [ "$rc" != 0 ] && echo PASS || echo FAIL; return
    fi
    [ "$rc" = 0 ] && grep -qE '^[[:space:]]*No [Ee]rrors[[:space:]]*$' "$out" && echo PASS || echo FAIL
}

for sel in "${dirs[@]}"; do
    d=${sel%%/*} only=${sel#*/}; [ "$only" = "$sel" ] && only=
    [ -d "$work/$d" ] || { echo "run.sh: no directory $d in the suite" >&2; continue; }
    declare -A cnt=() built=()
    for l in $lists; do [ -f "$work/$d/$l" ] && cat "$work/$d/$l"; done |
        grep -vE '^[[:space:]]*(#|$)' >"$work/$d/.lines"
    while read -r name np opts; do
        [ -z "$only" ] || [ "$name" = "$only" ] || continue
        [ -d "$work/$d/$name" ] && continue # a subdirectory entry, not a program
        np=${np:-1} args=() envs=() rt= limit=$tmo
        for o in $opts; do
            case "$o" in
            arg=*) args+=("${o#arg=}") ;;
            env=*) envs+=("${o#env=}") ;;
            timeLimit=*) limit=${o#timeLimit=} ;;
            resultTest=*) rt=${o#resultTest=} ;;
            esac
        done
        if [ -z "${built[$name]:-}" ]; then
            make -C "$work/$d" "$name" >"$work/$d/$name.build.log" 2>&1 </dev/null
            if [ -x "$work/$d/$name" ]; then built[$name]=ok
            elif grep -q 'undefined reference' "$work/$d/$name.build.log"; then built[$name]=LINK
            else built[$name]=BUILD; fi
        fi
        tag="$d/$name -n $np ${opts}"
        if [ "${built[$name]}" != ok ]; then
            k=${built[$name]}
            echo "$k  $tag  ($(grep -m1 -oE "undefined reference to \`[^']*'|error: .*" "$work/$d/$name.build.log"))"
        else
            out="$work/$d/$name.np$np.out"
            # as the suite's runtests does, the launcher is told the time limit
            # (MPIEXEC_TIMEOUT, which mpiexec.mpich, mpirun.openmpi and rdmx-run
            # honour); timeout(1) ends what outlives it by 15 s
            t0=$SECONDS
            (cd "$work/$d" && env "${envs[@]}" MPIEXEC_TIMEOUT="$limit" timeout -k 5 $((limit + 15)) \
                "${launch[@]}" "$np" "./$name" "${args[@]}" >"$out" 2>&1 </dev/null)
            rc=$?
            killed=$((rc == 124 && SECONDS - t0 >= limit + 15 ? 1 : 0))
            [ "$impl" = openmpi ] && rm -f /dev/shm/vader_segment.* 2>/dev/null
            k=$(verdict "$rc" "$out" "$rt" "$killed")
            echo "$k  $tag  (rc $rc)"
        fi
        cnt[$k]=$((${cnt[$k]:-0} + 1)) total[$k]=$((${total[$k]:-0} + 1))
    done <"$work/$d/.lines"
    line="$d:"; for k in "${kinds[@]}"; do line+=" $k ${cnt[$k]:-0}"; done; echo "== $line"
    unset cnt built
done
line="all $impl:"; n=0
for k in "${kinds[@]}"; do line+=" $k ${total[$k]:-0}"; n=$((n + ${total[$k]:-0})); done
echo "== $line (of $n runs)"
