#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/shmem/shmem_bench.c built with rdmx-oshcc both ways, warnings as
# errors: its 1.5 path (team reduction) and its 1.4 path (-DBENCH_SHMEM_API14=1:
# shmem_long_sum_to_all over the active set of every PE, two pSync arrays
# alternated); the 1.4 build then runs at 2 and 3 PEs and must report a
# correct reduction.  Usage: bench_api.sh BUILD_DIR
set -eu
B="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
W="$(mktemp -d)"
trap 'rm -rf "$W"' EXIT
SRC="$HERE/../../bench/shmem/shmem_bench.c"
"$B/bin/rdmx-oshcc" -O2 -Wall -Wextra -Werror -o "$W/b15" "$SRC"
"$B/bin/rdmx-oshcc" -O2 -Wall -Wextra -Werror -DBENCH_SHMEM_API14=1 -o "$W/b14" "$SRC"
for n in 2 3; do
    "$B/bin/oshrun" -n $n --timeout 60 "$W/b14" > "$W/out" 2>&1 || { cat "$W/out"; exit 1; }
    if grep -q ERROR "$W/out" || ! grep -q "^reduce $n " "$W/out"; then
        cat "$W/out"
        exit 1
    fi
done
echo "No Errors"
