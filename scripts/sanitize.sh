#!/usr/bin/env bash
# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer: a separate build folder
# (default build-asan; SANITIZE_BUILD overrides), then ctest there. Any finding fails its test.
#   scripts/sanitize.sh            build and run every test
#   scripts/sanitize.sh -R light_tests   ctest's own arguments, e.g. one test group
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${SANITIZE_BUILD:-$root/build-asan}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIGHT_SANITIZE=address,undefined -DLIGHT_BUILD_BENCH=OFF
cmake --build "$build" --parallel "${SANITIZE_JOBS:-2}"
# LibTorch and OpenBLAS are not instrumented: their own allocations are not checked, and ASan's leak
# check (which would list LibTorch's process-lifetime caches) is off.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
ctest --test-dir "$build" --output-on-failure "$@"
