#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs one multi-rank test command and decides the outcome from its exit status
# and its output together (CTest's PASS_REGULAR_EXPRESSION alone ignores the exit
# status, and a rank may fail after rank 0 printed "No Errors").
#
# usage: rxcheck.sh [--fail REGEX] [--rc N] [--timeout S] -- COMMAND...
#   default   pass when COMMAND exits 0 and prints "No Errors"
#   --fail    pass when COMMAND exits non-zero (N if --rc is given) and its output
#             matches the extended regular expression REGEX (an expected fatal error)
#   --timeout end COMMAND after S seconds (fail)
set -u
fail_re="" want_rc="" limit=""
while [ $# -gt 0 ]; do
    case "$1" in
    --fail) fail_re="$2"; shift 2 ;;
    --rc) want_rc="$2"; shift 2 ;;
    --timeout) limit="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "rxcheck: unknown option $1" >&2; exit 2 ;;
    esac
done
[ $# -gt 0 ] || { echo "rxcheck: no command" >&2; exit 2; }

if [ -n "$limit" ]; then
    out=$(timeout --kill-after=5 "$limit" "$@" </dev/null 2>&1)
else
    out=$("$@" </dev/null 2>&1)
fi
rc=$?
printf '%s\n' "$out"

verdict() { echo "rxcheck: $1"; [ "$1" = PASS ] && exit 0; exit 1; }
if [ -n "$limit" ] && [ "$rc" -eq 124 -o "$rc" -eq 137 ]; then
    verdict "FAIL: timed out after ${limit} s"
fi
if [ -z "$fail_re" ]; then
    [ "$rc" -eq 0 ] || verdict "FAIL: exit status $rc"
    printf '%s\n' "$out" | grep -q "No Errors" || verdict "FAIL: no 'No Errors' in the output"
    verdict PASS
fi
[ "$rc" -ne 0 ] || verdict "FAIL: exit status 0, expected a failure"
[ -z "$want_rc" ] || [ "$rc" -eq "$want_rc" ] || verdict "FAIL: exit status $rc, expected $want_rc"
printf '%s\n' "$out" | grep -Eq -- "$fail_re" || verdict "FAIL: output does not match '$fail_re'"
verdict PASS
