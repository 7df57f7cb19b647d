#!/bin/bash
# SPDX-License-Identifier: MIT
# same_result.sh BIN_DIR NPROCS: the C hyperion-mini (faces by Isend/Irecv) and
# its Fortran port hyperion-f08 on a 24^3 grid must both pass their check and
# print the same iteration count and checksum (the same sums in the same order).
B=$1
N=$2
c=$("$B/rdmx-run" -n "$N" "$B/hyperion-mini" -n 24 -p 0 -m p2p) || { echo "$c"; echo "FAIL: C run"; exit 1; }
f=$("$B/rdmx-run" -n "$N" "$B/hyperion-f08" -n 24) || { echo "$f"; echo "FAIL: Fortran run"; exit 1; }
echo "$f"
for key in "check: PASSED" "checksum" " iterations"; do
    a=$(grep "$key" <<<"$c" | grep -oE "^checksum .*|[0-9]+ iterations|check: PASSED")
    b=$(grep "$key" <<<"$f" | grep -oE "^checksum .*|[0-9]+ iterations|check: PASSED")
    [ -n "$a" ] && [ "$a" = "$b" ] || { echo "FAIL: '$a' (C) vs '$b' (Fortran)"; exit 1; }
done
echo "same result: $(grep checksum <<<"$f")"
