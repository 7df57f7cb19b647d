#!/bin/bash
# SPDX-License-Identifier: MIT
# launch_gate.sh DIR HOST PROGRAM ARGS...: the launch template of the tests
# that need the launcher's PMI port before a rank starts (run_case.sh
# pmi-flood). It writes the PMI_PORT it was given to DIR/port, waits (up to
# 30 s) until DIR/ready exists, then runs the rank in namespace HOST as
# "ip netns exec HOST" would.
D=$1 H=$2
shift 2
if [ -n "$PMI_PORT" ] && [ ! -e "$D/port" ]; then
    echo "$PMI_PORT" >"$D/port.$$" && mv -f "$D/port.$$" "$D/port"
fi
for i in $(seq 300); do
    [ -e "$D/ready" ] && break
    sleep 0.1
done
exec ip netns exec "$H" "$@"
