#!/bin/bash
# SPDX-License-Identifier: MIT
# README command 2: install what is missing, build, pass the whole test suite,
# then the same suite under AddressSanitizer + UndefinedBehaviorSanitizer, and the
# tests that run threads (label tsan) under ThreadSanitizer.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jobs="$(nproc)"
"$root/scripts/build.sh" "$root/build"
echo "== test suite (build/)"
(cd "$root/build" && ctest --output-on-failure -j "$jobs" --timeout 300)
if [ "${RDMX_SKIP_SANITIZE:-0}" != 1 ]; then
    "$root/scripts/build.sh" "$root/build-sanitize" -DRDMX_SANITIZE=ON
    echo "== test suite under ASan + UBSan (build-sanitize/)"
    export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
    export LSAN_OPTIONS="suppressions=$root/tests/lsan.supp:print_suppressions=0"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
    (cd "$root/build-sanitize" && ctest --output-on-failure -j "$jobs" --timeout 600 -LE "slow|bench")
fi
if [ "${RDMX_SKIP_TSAN:-0}" != 1 ]; then
    RDMX_BUILD_TARGET=tsan-tests "$root/scripts/build.sh" "$root/build-tsan" -DRDMX_TSAN=ON
    echo "== threaded tests under ThreadSanitizer (build-tsan/)"
    # the first report fails the test (exit status 66)
    export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
    (cd "$root/build-tsan" && ctest --output-on-failure -j "$jobs" --timeout 600 -L tsan)
fi
