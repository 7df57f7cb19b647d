#!/bin/bash
# SPDX-License-Identifier: MIT
# A stand-in for ssh in the tests (run_case.sh ssh-stdin), installed as "ssh"
# first in PATH: "ssh [-x] [-o OPT]... HOST COMMAND" runs COMMAND with the
# shell in network namespace HOST, stdin and output passed through as ssh
# passes them. Each call's arguments are appended to $RXN_SSH_LOG.
while [ $# -gt 0 ]; do
    case $1 in
    -o) shift 2 ;;
    -*) shift ;;
    *) break ;;
    esac
done
H=$1
shift
[ -n "$RXN_SSH_LOG" ] && printf '%s\n' "$H $*" >>"$RXN_SSH_LOG"
exec ip netns exec "$H" /bin/sh -c "$*"
