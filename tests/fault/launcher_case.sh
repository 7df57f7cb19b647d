#!/bin/bash
# SPDX-License-Identifier: MIT
# One fault test of rdmx-run:  launcher_case.sh RDMX_RUN FAULT_PROG BOOT_KVS WORKDIR CASE
# Each case checks the exit status, the launcher's message, the time the job
# took to end, and that no process (found by a token unique to this run) and
# no /dev/shm or /tmp file of the job is left. Exit 0 pass, 1 fail, 77 skip.
set -u
RUN=$1 PROG=$2 KVS=$3 WORKDIR=$4 CASE=$5
TOKEN="rdmxft-$CASE-$$-$RANDOM"
W="$WORKDIR/$CASE.$$"
mkdir -p "$W" || exit 1
trap 'rm -rf "$W"' EXIT
: >"$W/out"
: >"$W/err"

fail() {
    echo "FAIL ($CASE): $*"
    echo "--- stdout"; head -c 4000 "$W/out"
    echo "--- stderr"; head -c 4000 "$W/err"
    exit 1
}
now() { echo "$EPOCHREALTIME"; }
# seconds from $1 to $2, and whether that is below $3
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
below() { awk -v x="$1" -v y="$2" 'BEGIN { exit !(x < y) }'; }

# run ARGS...: the launcher with stdin from /dev/null unless STDIN names a file
run() {
    local t0
    t0=$(now)
    ${RUN_PREFIX:-} "$RUN" "$@" <"${STDIN:-/dev/null}" >"$W/out" 2>"$W/err"
    RC=$?
    T_END=$(now)
    ELAPSED=$(elapsed "$t0" "$T_END")
}
expect_rc() { [ "$RC" -eq "$1" ] || fail "exit status $RC, expected $1"; }
expect_err() { grep -Eq -- "$1" "$W/err" || fail "stderr lacks /$1/"; }
expect_out() { grep -Eq -- "$1" "$W/out" || fail "stdout lacks /$1/"; }
expect_no_err() { grep -Eq -- "$1" "$W/err" && fail "stderr has /$1/"; true; }
expect_fast() { below "$ELAPSED" "$1" || fail "took ${ELAPSED} s, limit $1 s"; }
jobid() { grep -Eo 'rdmx-[0-9]+-[0-9a-f]{16}' "$W/out" | head -n 1; }
count_lines() { grep -Ec -- "$1" "$W/out"; }

# No process with the token, no segment or /tmp entry of the job, within $1 s.
expect_clean() {
    local limit=${1:-0} job t0 left shm tmp
    job=$(jobid)
    [ -n "$job" ] || fail "no job id in the output: the job did not start as expected"
    t0=$(now)
    while :; do
        left=$(pgrep -f -- "$TOKEN")
        shm=$(ls /dev/shm | grep -F -- "$job-")
        tmp=$(ls -a /tmp | grep -F -- "$job")
        [ -z "$left$shm$tmp" ] && return 0
        below "$(elapsed "$t0" "$(now)")" "$limit" || break
        sleep 0.05
    done
    [ -n "$left" ] && ps -o pid,pgid,stat,args -p "$(echo $left | tr ' ' ',')"
    fail "left behind: processes [$left] /dev/shm [$shm] /tmp [$tmp]"
}

# Start the launcher in the background; wait until N ranks printed "ready".
start_bg() {
    local n=$1 i
    shift
    "$@" </dev/null >"$W/out" 2>"$W/err" &
    BG=$!
    for i in $(seq 200); do
        [ "$(count_lines '^ready ')" -ge "$n" ] && return 0
        sleep 0.05
    done
    kill -KILL "$BG" 2>/dev/null
    fail "the ranks did not become ready"
}

case $CASE in
kvs-*)
    n=${CASE#kvs-}
    run -n "$n" "$KVS"
    expect_rc 0
    expect_out '^No Errors$'
    [ -s "$W/err" ] && fail "unexpected stderr"
    ;;
exit-zero)
    run -n 3 "$PROG" exit-after 0 0
    expect_rc 0
    [ -s "$W/err" ] && fail "unexpected stderr"
    ;;
exit-code)
    # a rank that exits 5 after finalize: status 5, the others are not ended
    run -n 3 "$PROG" exit-after 1 5
    expect_rc 5
    expect_no_err 'ending the job'
    ;;
exit-first)
    # ranks 1, 2, 3 exit 3, 4, 5 in that order: the first failure wins
    run -n 4 "$PROG" exit-staggered
    expect_rc 3
    ;;
segv)
    # rank 3 segfaults; the others ignore SIGTERM, so SIGKILL must end them
    # (in a sanitizer build, AddressSanitizer must let the signal kill it)
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
    run -n 4 "$PROG" crash 3 "$TOKEN"
    expect_rc 139
    expect_err '^rdmx-run: rank 3 \(pid [0-9]+\) killed by signal 11 \(Segmentation fault\); ending the job$'
    [ "$(count_lines '^ready ')" -eq 4 ] || fail "not every rank made its segment"
    t_crash=$(grep -Eo '^crash-at [0-9.]+' "$W/out" | cut -d' ' -f2)
    [ -n "$t_crash" ] || fail "no crash time"
    d=$(elapsed "$t_crash" "$T_END")
    below "$d" 2.0 || fail "the job took $d s to end after the crash"
    expect_clean 0
    ;;
exit-early)
    run -n 3 "$PROG" exit-early 1 3 "$TOKEN"
    expect_rc 3
    expect_err '^rdmx-run: rank 1 \(pid [0-9]+\) exited with code 3 before MPI_Finalize; ending the job$'
    expect_fast 4
    expect_clean 0
    ;;
abort)
    run -n 3 "$PROG" abort 2 7 "$TOKEN"
    expect_rc 7
    expect_err '^rdmx-run: rank 2 \(pid [0-9]+\) called MPI_Abort with exit code 7; ending the job$'
    expect_no_err 'before MPI_Finalize'
    expect_fast 4
    expect_clean 0
    ;;
timeout)
    run --timeout 1 -n 2 "$PROG" ready-sleep 30 nogc "$TOKEN"
    expect_rc 124
    expect_err '^rdmx-run: the job ran longer than --timeout 1 s; ending it$'
    expect_fast 4
    expect_clean 0
    ;;
skip-barrier)
    # rank 1 never joins: the others would wait for ever in the fence
    run -n 3 "$PROG" skip-barrier 1
    expect_rc 1
    expect_err 'rank 1 \(pid [0-9]+\) exited without entering the PMI barrier \(fence\) the other ranks wait in; ending the job$'
    expect_fast 4
    ;;
stdin)
    printf 'alpha\nbeta\n' >"$W/in"
    STDIN="$W/in" run -n 3 "$PROG" stdin
    expect_rc 0
    expect_out '^got: alpha$'
    expect_out '^got: beta$'
    expect_out '^stdin bytes 11$'
    expect_out '^rank 1 stdin eof$'
    expect_out '^rank 2 stdin eof$'
    ;;
stdin-large)
    # more than the launcher's 64 KiB buffer and a pipe's capacity, from a pipe
    seq 1 40000 >"$W/in"
    size=$(wc -c <"$W/in")
    t0=$(now)
    "$RUN" -n 2 "$PROG" stdin <"$W/in" | cat >"$W/out" 2>"$W/err"
    RC=${PIPESTATUS[0]}
    expect_rc 0
    expect_out "^stdin bytes $size\$"
    [ "$(grep -c '^got: ' "$W/out")" -eq 40000 ] || fail "lines of stdin lost"
    grep '^got: ' "$W/out" | cut -d' ' -f2 | cmp -s - "$W/in" || fail "stdin arrived changed"
    ;;
lines)
    # 8 ranks, 200 lines of 3000 bytes each, each written in two pieces, to
    # stdout and stderr which both go to one file: every line must be whole
    "$RUN" -n 8 "$PROG" lines 200 3000 </dev/null >"$W/out" 2>&1
    RC=$?
    expect_rc 0
    "$PROG" verify-lines 8 200 3000 <"$W/out" >"$W/err" 2>&1 || fail "$(cat "$W/err")"
    ;;
tag-output)
    run --tag-output -n 4 "$PROG" lines 50 500
    expect_rc 0
    cat "$W/err" >>"$W/out"
    "$PROG" verify-lines 4 50 500 tagged <"$W/out" >"$W/err" 2>&1 || fail "$(cat "$W/err")"
    # a last line without newline is flushed (and ended when tagged)
    run -n 1 sh -c 'printf abc'
    [ "$(cat "$W/out")" = "abc" ] && [ "$(wc -c <"$W/out")" -eq 3 ] || fail "partial line: [$(cat "$W/out")]"
    run -l -n 2 sh -c 'printf "x$PMI_RANK"'
    [ "$(sort "$W/out" | tr '\n' '|')" = "[0] x0|[1] x1|" ] || fail "tagged partial lines: [$(cat "$W/out")]"
    ;;
env)
    export RDMX_FT_B=fromparent
    run -x RDMX_FT_A=1 -x RDMX_FT_B -genv RDMX_FT_C 'two words' -env RDMX_FT_D x --x=RDMX_FT_E=a=b \
        -n 2 "$PROG" env RDMX_FT_A 1 RDMX_FT_B fromparent RDMX_FT_C 'two words' RDMX_FT_D x RDMX_FT_E a=b
    expect_rc 0
    run -n 2 "$PROG" env PMI_SIZE 2 MPI_LOCALNRANKS 2
    expect_rc 0
    # and the check itself can fail
    run -n 2 "$PROG" env RDMX_FT_A wrong
    expect_rc 1
    expect_err 'RDMX_FT_A is "\(unset\)"'
    ;;
session)
    # each rank leads its own session (and process group), apart from the
    # launcher's: with autogroup scheduling a busy machine shares CPU time out
    # by session, and ranks in the launcher's would count as one process
    mine=$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f4)
    run --tag-output -n 3 sh -c 'set -- $(sed "s/.*) //" /proc/$$/stat); echo "pid $$ pgrp $3 sid $4"'
    expect_rc 0
    [ "$(count_lines '^\[[0-2]\] pid ')" -eq 3 ] || fail "expected a line from each rank"
    sids=$(awk '{print $7}' "$W/out" | sort -u | wc -l)
    [ "$sids" -eq 3 ] || fail "the ranks share sessions"
    while read -r tag _ pid _ pgrp _ sid; do
        [ "$pid" = "$pgrp" ] && [ "$pid" = "$sid" ] || fail "rank $tag: pid $pid, group $pgrp, session $sid"
        [ "$sid" != "$mine" ] || fail "rank $tag runs in the launcher's session"
    done < "$W/out"
    # a niced launch stays niced: the rank's new autogroup takes the nice value
    if [ -r /proc/self/autogroup ]; then
        want=$(($(nice) + 7))
        [ "$want" -le 19 ] || want=19
        RUN_PREFIX="nice -n 7" run -n 2 sh -c 'cat /proc/self/autogroup'
        expect_rc 0
        [ "$(grep -c "nice $want\$" "$W/out")" -eq 2 ] || fail "autogroups not niced ($want): $(cat "$W/out")"
    fi
    ;;
bind-core)
    run --tag-output --bind-to core --report-bindings -n 3 sh -c 'grep Cpus_allowed_list /proc/self/status'
    expect_rc 0
    for r in 0 1 2; do
        want=$(grep -Eo "rank $r bound to core [0-9]+ of [0-9]+ \(cpus [^)]*\)" "$W/err" | sed 's/.*(cpus //; s/)//')
        got=$(grep -E "^\[$r\] Cpus_allowed_list:" "$W/out" | awk '{print $3}')
        [ -n "$want" ] && [ "$want" = "$got" ] || fail "rank $r: bound to [$got], reported [$want]"
    done
    run --bind-to socket -n 1 true
    expect_rc 2
    # default: bound to a core each when the ranks fit the usable cores, else unbound
    ncores=$(hwloc-calc --number-of core machine:0 2>/dev/null || nproc)
    if [ "$ncores" -ge 2 ]; then
        run --report-bindings -n 2 true
        expect_rc 0
        expect_err 'rank 1 bound to core 1 of'
        # cores no rank got are named to the ranks (offload threads run there)
        run --bind-to core -n 1 sh -c 'echo "spare=[$RDMX_SPARE_CPUS]"'
        expect_rc 0
        grep -Eq '^spare=\[[0-9][0-9,-]*\]$' "$W/out" || fail "spare cores not passed: $(cat "$W/out")"
        run --bind-to core -n "$ncores" sh -c 'echo "spare=[$RDMX_SPARE_CPUS]"'
        expect_rc 0
        ! grep -vq '^spare=\[\]$' "$W/out" || fail "spare cores passed with every core bound: $(cat "$W/out")"
        # --offload-cores: the last cores kept for offload threads, the ranks on the others
        show='echo "$RDMX_COLL_OFFLOAD [$RDMX_SPARE_CPUS] $(grep Cpus_allowed_list: /proc/self/status | cut -f2)"'
        run --offload-cores 1 --report-bindings -n 3 sh -c "$show"
        expect_rc 0
        expect_err 'kept for offload threads'
        [ "$(wc -l < "$W/out")" -eq 3 ] || fail "--offload-cores: $(cat "$W/out")"
        while read -r mode spare cpus; do
            [ "$mode" = auto ] && [ "$spare" != "[]" ] && [ -n "$cpus" ] && [ "[$cpus]" != "$spare" ] ||
                fail "--offload-cores: rank sees '$mode $spare $cpus'"
        done < "$W/out"
        # the ranks learn how many CPUs they share (oversubscription is judged by it)
        run --offload-cores 1 -n 2 sh -c 'echo "$RDMX_NODE_CPUS"'
        expect_rc 0
        [ "$(sort -u "$W/out")" -lt "$(nproc)" ] || fail "RDMX_NODE_CPUS with a core kept: $(cat "$W/out")"
        RDMX_COLL_OFFLOAD=off run --offload-cores 1 -n 1 sh -c "$show"
        expect_rc 0
        grep -q '^off ' "$W/out" || fail "--offload-cores overrode RDMX_COLL_OFFLOAD: $(cat "$W/out")"
        run --offload-cores "$ncores" -n 1 true
        expect_rc 1
        expect_err 'the ranks need at least one'
    fi
    run --report-bindings -n $((ncores + 1)) true
    expect_rc 0
    expect_err 'ranks are not bound \(more ranks than cores\)'
    run --report-bindings --bind-to none -n 2 true
    expect_rc 0
    expect_err 'ranks are not bound \(--bind-to none\)'
    # the launcher's own CPU set counts: one usable core, two ranks: unbound
    if command -v taskset > /dev/null; then
        RUN_PREFIX="taskset -c 0" run --report-bindings -n 2 sh -c 'echo "$RDMX_NODE_CPUS"'
        expect_rc 0
        expect_err 'ranks are not bound \(more ranks than cores\)'
        [ "$(sort -u "$W/out")" = 1 ] || fail "RDMX_NODE_CPUS under taskset -c 0: $(cat "$W/out")"
    fi
    ;;
sigterm | sigint)
    sig=TERM num=15 wrap=()
    # a background job of a script starts with SIGINT ignored; undo that
    if [ "$CASE" = sigint ]; then
        sig=INT num=2 wrap=(env --default-signal=INT)
        if ! env --default-signal=INT true 2>/dev/null; then
            echo "SKIP: env --default-signal (coreutils 8.31 or later) is needed to undo the ignored SIGINT"
            exit 77
        fi
    fi
    start_bg 3 "${wrap[@]}" "$RUN" -n 3 "$PROG" ready-sleep 30 nogc "$TOKEN"
    t0=$(now)
    kill -"$sig" "$BG"
    wait "$BG"
    RC=$?
    ELAPSED=$(elapsed "$t0" "$(now)")
    expect_rc $((128 + num))
    expect_err "^rdmx-run: received signal $num \\([A-Za-z]+\\); forwarding it to the ranks and ending the job\$"
    expect_fast 2
    expect_clean 0
    ;;
sigkill)
    # the launcher dies at once: its ranks, a process one of them started and
    # the job's segments must still go, well within the 2 s promised (the
    # watchdog once waited for the ranks' zombies, up to 1.99 s); several tries
    for try in 1 2 3 4; do
        start_bg 3 "$RUN" -n 3 "$PROG" ready-sleep 30 grandchild "$TOKEN"
        job=$(jobid)
        [ "$(ls /dev/shm | grep -cF -- "$job-test-")" -eq 3 ] || fail "segments missing before the kill"
        grep -q '^grandchild ' "$W/out" || { sleep 0.5; grep -q '^grandchild ' "$W/out"; } || fail "no grandchild"
        t0=$(now)
        kill -KILL "$BG"
        wait "$BG" 2>/dev/null
        expect_clean 1.0
        echo "try $try: clean $(elapsed "$t0" "$(now)") s after the kill"
    done
    ;;
spawn-normal | spawn-kill)
    SPROG="$(dirname "$PROG")/spawn_kill"
    [ -x "$SPROG" ] || fail "$SPROG not built"
    if [ "$CASE" = spawn-normal ]; then
        run -n 2 "$SPROG" none "$TOKEN"
        expect_rc 0
        [ "$(count_lines '^ready child ')" -eq 2 ] || fail "the children did not start"
        expect_clean 0
    else
        for try in 1 2 3; do
            run -n 2 "$SPROG" kill "$TOKEN"
            if [ "$RC" -ne 137 ] && grep -q 'called MPI_Abort' "$W/err"; then
                expect_err '^rdmx-run: rank 1 of spawned job 1 \(pid [0-9]+\) killed by signal 9 \(Killed\) while the job was ending$'
            else
                expect_rc 137
                expect_err '^rdmx-run: rank 1 of spawned job 1 \(pid [0-9]+\) killed by signal 9 \(Killed\); ending the job$'
            fi
            [ "$(count_lines '^ready child ')" -eq 2 ] || fail "the children did not start"
            expect_fast 5
            expect_clean 1
        done
    fi
    ;;
spawn-noinit)
    SPROG="$(dirname "$PROG")/spawn_kill"
    [ -x "$SPROG" ] || fail "$SPROG not built"
    run --timeout 20 -n 2 "$SPROG" noinit "$TOKEN"
    expect_rc 1
    expect_err '^rdmx-run: rank 0 of spawned job 1 \(pid [0-9]+\) exited with code 0 without calling MPI_Init; the spawning ranks wait for it in MPI_Comm_spawn; ending the job$'
    expect_fast 5
    expect_clean 1
    ;;
spawn-alone)
    SPROG="$(dirname "$PROG")/spawn_kill"
    [ -x "$SPROG" ] || fail "$SPROG not built"
    env -u PMI_FD -u PMI_PORT -u PMI_RANK -u PMI_SIZE -u RDMX_JOBID -u PMIX_RANK \
        -u PMIX_NAMESPACE "$SPROG" alone "$TOKEN" </dev/null >"$W/out" 2>"$W/err"
    RC=$?
    expect_rc 26
    expect_err 'MPI_Comm_spawn: started without a launcher \(singleton\); run it under rdmx-run \(MPI_ERR_SPAWN\)'
    ;;
spawn-hydra)
    # rdmx's client asks MPICH's hydra for the processes (PMI-1 mcmd=spawn)
    SPROG="$(dirname "$PROG")/spawn_kill"
    [ -x "$SPROG" ] || fail "$SPROG not built"
    if ! command -v mpiexec.mpich >/dev/null; then
        echo "SKIP: mpiexec.mpich (Debian package mpich) is not installed"
        exit 77
    fi
    timeout 30 mpiexec.mpich -n 2 "$SPROG" none "$TOKEN" </dev/null >"$W/out" 2>"$W/err"
    RC=$?
    expect_rc 0
    [ "$(count_lines '^ready child ')" -eq 2 ] || fail "the children did not start"
    ;;
spawn-pmix)
    # Open MPI's mpirun: rdmx's PMIx client does not spawn, and says so
    SPROG="$(dirname "$PROG")/spawn_kill"
    [ -x "$SPROG" ] || fail "$SPROG not built"
    if ! command -v mpiexec.openmpi >/dev/null; then
        echo "SKIP: mpiexec.openmpi (Debian package openmpi-bin) is not installed"
        exit 77
    fi
    timeout 30 mpiexec.openmpi --allow-run-as-root -n 1 "$SPROG" none "$TOKEN" </dev/null \
        >"$W/out" 2>"$W/err"
    RC=$?
    rm -f /dev/shm/vader_segment.*
    grep -q 'started without a launcher' "$W/err" && { echo "SKIP: built without PMIx"; exit 77; }
    [ "$RC" -ne 0 ] || fail "spawn under mpirun succeeded"
    expect_err "MPI_Comm_spawn: the PMIx launcher's client in rdmx does not start processes; run the job under rdmx-run \(MPI_ERR_SPAWN\)"
    ;;
mpi-normal | mpi-kill)
    MPIPROG="$(dirname "$PROG")/mpi_kill"
    [ -x "$MPIPROG" ] || fail "$MPIPROG not built"
    if [ "$CASE" = mpi-normal ]; then
        run -n 3 "$MPIPROG" none "$TOKEN"
        expect_rc 0
        expect_clean 0
        [ "$(count_lines '^ready ')" -eq 3 ] || fail "not every rank started"
    else
        # 2 ranks: the survivor is nearly always inside its cooperative copy
        # from rank 1 when rank 1 dies; 3 and 4: sometimes
        for n in 2 2 2 3 3 4; do
            run -n "$n" "$MPIPROG" kill "$TOKEN"
            # A peer whose transfer from rank 1 fails may abort at the same moment;
            # the launcher reports the death first whenever rank 1 is already a
            # zombie, and otherwise names it right after the abort.
            if [ "$RC" -ne 137 ] && grep -q 'called MPI_Abort' "$W/err"; then
                expect_err '^rdmx-run: rank 1 \(pid [0-9]+\) killed by signal 9 \(Killed\) while the job was ending$'
            else
                expect_rc 137
                expect_err '^rdmx-run: rank 1 \(pid [0-9]+\) killed by signal 9 \(Killed\); ending the job$'
            fi
            # The cause must not drown: a survivor reports the failed copy
            # once, and at most the fatal error handler's two lines (the
            # error, the abort) follow; a chunk-by-chunk report was hundreds.
            for r in $(seq 0 $((n - 1))); do
                c=$(grep -c "^rdmx\[$r\]" "$W/err")
                [ "$c" -le 3 ] || fail "$n ranks: rank $r wrote $c lines to stderr"
            done
            lines=$(wc -l <"$W/err")
            [ "$lines" -le $((3 * n - 2)) ] || fail "$n ranks: $lines lines on stderr"
            expect_fast 5
            expect_clean 0
            [ "$(count_lines '^ready ')" -eq "$n" ] || fail "not every rank started"
            echo "ok: $n ranks, $lines lines on stderr"
        done
    fi
    ;;
not-found)
    run -n 2 ./no-such-program-here
    expect_rc 127
    expect_err "^rdmx-run: cannot run './no-such-program-here': No such file or directory$"
    ;;
usage)
    run --hosts 'a b' -n 2 true
    expect_rc 2
    expect_err "bad host name 'a b'"
    run --hostfile ./no-such-hostfile true
    expect_rc 2
    expect_err "cannot read host file './no-such-hostfile'"
    run -ppn 2 true
    expect_rc 2
    expect_err 'need --hosts or --hostfile'
    run --launcher rsh --hosts a true
    expect_rc 2
    expect_err "--launcher 'rsh' is not supported"
    run -n 0 true
    expect_rc 2
    run --no-such-option true
    expect_rc 2
    expect_err "unknown option '--no-such-option'"
    run -n 2
    expect_rc 2
    expect_err 'no program given'
    run --oversubscribe -np 3 --allow-run-as-root true
    expect_rc 0
    run --version
    expect_rc 0
    expect_out '^rdmx-run \(rdmx\) [0-9]'
    run --help
    expect_rc 0
    expect_out -- '--timeout SECONDS'
    ;;
info)
    run --info
    expect_rc 0
    expect_out '^RDMX_LOG +STR +default: warn'
    expect_out '^RDMX_WAIT '
    ;;
alias)
    for a in mpiexec mpirun; do
        "$(dirname "$RUN")/$a" -np 2 "$KVS" </dev/null >"$W/out" 2>"$W/err"
        RC=$?
        expect_rc 0
        expect_out '^No Errors$'
    done
    ;;
mpich-program)
    # the other direction: a program built with MPICH runs under rdmx-run
    # (MPICH's own PMI-1 client talks to rdmx-run's server)
    if ! command -v mpicc.mpich >/dev/null; then
        echo "SKIP: mpicc.mpich (Debian package libmpich-dev) is not installed"
        exit 77
    fi
    cat >"$W/hello.c" <<'EOS'
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    int rank, size, sum;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && rank == 1)
        MPI_Abort(MPI_COMM_WORLD, 9);
    if (argc > 1)
        sleep(30);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d of %d sum %d\n", rank, size, sum);
    MPI_Finalize();
    return 0;
}
EOS
    mpicc.mpich -o "$W/hello" "$W/hello.c" || fail "mpicc.mpich failed"
    run -n 3 "$W/hello"
    expect_rc 0
    for r in 0 1 2; do expect_out "^rank $r of 3 sum 3\$"; done
    run -n 3 "$W/hello" abort
    expect_rc 9
    expect_err '^rdmx-run: rank 1 \(pid [0-9]+\) called MPI_Abort with exit code 9; ending the job$'
    expect_fast 5
    ;;
mpich)
    if ! command -v mpiexec.mpich >/dev/null; then
        echo "SKIP: mpiexec.mpich (Debian package mpich) is not installed"
        exit 77
    fi
    # the same client under MPICH's hydra: PMI_FD, PMI-1 wire protocol
    t0=$(now)
    timeout 30 mpiexec.mpich -n 3 "$KVS" </dev/null >"$W/out" 2>"$W/err"
    RC=$?
    expect_rc 0
    expect_out '^No Errors$'
    ;;
*)
    fail "unknown case"
    ;;
esac
echo "PASS ($CASE)"
exit 0
