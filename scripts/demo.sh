#!/bin/bash
# SPDX-License-Identifier: MIT
# README command 1: install what is missing, build, run the main demo on 4 local ranks.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build.sh"
bin="$root/build/bin"
if [ -x "$bin/hyperion-mini" ]; then
    exec "$bin/rdmx-run" -n 4 "$bin/hyperion-mini" "$@"
fi
exec "$bin/rdmx-run" -n 4 "$bin/ring" "$@"
