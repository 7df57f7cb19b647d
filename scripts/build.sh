#!/bin/bash
# SPDX-License-Identifier: MIT
# Set up, configure and build rdmx into build/ (or $1 with extra CMake args);
# RDMX_BUILD_TARGET names one target to build instead of all.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
dir="${1:-$root/build}"
shift || true
mkdir -p "$dir"
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" > "$dir/configure.log" 2>&1 ||
    { cat "$dir/configure.log"; exit 1; }
cmake --build "$dir" -j "$(nproc)" ${RDMX_BUILD_TARGET:+--target "$RDMX_BUILD_TARGET"}
