#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with clang under AddressSanitizer + UndefinedBehaviorSanitizer
# and runs each of them.
#   scripts/fuzz.sh                 every target for 10^6 inputs (or 30 minutes, whichever comes first)
#   scripts/fuzz.sh --smoke         every target for 5 seconds (what ctest's fuzz_smoke runs)
#   scripts/fuzz.sh TARGET [ARGS]   one target (maptext safetensors pth config tokenizer png) with
#                                   libFuzzer's own ARGS, e.g. -runs=100000 or a crash file to replay
# Environment: FUZZ_BUILD (build folder, default build-fuzz), FUZZ_JOBS (parallel builds, default 2).
# Each run's last status line (inputs run, edges covered "cov", features "ft", corpus size) is printed
# and kept in FUZZ_BUILD/TARGET.log; a finding stops with libFuzzer's report and a non-zero exit.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${FUZZ_BUILD:-$root/build-fuzz}"
targets=(maptext safetensors pth config tokenizer png polygon spotter)

if ! command -v clang++ > /dev/null; then
  echo "fuzz: clang++ not found (scripts/install-deps.sh installs clang and libclang-rt-dev)" >&2
  exit 77
fi
cmake -S "$root/fuzz" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$build.configure.log" 2>&1 ||
  { cat "$build.configure.log" >&2; exit 1; }
cmake --build "$build" --parallel "${FUZZ_JOBS:-2}" > "$build.build.log" 2>&1 || { tail -50 "$build.build.log" >&2; exit 1; }

run_one() {  # TARGET ARGS...: fuzz into a scratch corpus seeded from fuzz/corpus/TARGET
  local t="$1"; shift
  local work="$build/corpus-$t"
  mkdir -p "$work" "$build/findings"
  # ASan reports leaks too; UBSan findings abort (-fno-sanitize-recover at build time). OpenCV may
  # allocate what an image header claims (up to 2^30 pixels for a user's map): the fuzzer's images
  # are held to 4 Mpixel so that a claim is not mistaken for a leak.
  local rc=0
  OPENCV_IO_MAX_IMAGE_PIXELS=4194304 ASAN_OPTIONS="detect_leaks=1" \
    "$build/fuzz_$t" -artifact_prefix="$build/findings/$t-" -rss_limit_mb=2560 -timeout=20 \
    -print_final_stats=1 "$@" "$work" "$root/fuzz/corpus/$t" > "$build/$t.log" 2>&1 || rc=$?
  local status
  status="$(grep -E '^#[0-9]+' "$build/$t.log" | tail -1 || true)"
  printf '%-12s %s\n' "$t" "$status"
  if [ $rc -ne 0 ]; then  # libFuzzer's own code for a finding is 77, ctest's "skipped": always 1 here
    echo "fuzz: $t found a problem (exit $rc); the input is under $build/findings/:" >&2
    grep -E 'ERROR: libFuzzer|ERROR: AddressSanitizer|runtime error|SUMMARY|Test unit written' "$build/$t.log" | head -20 >&2
    return 1
  fi
}

case "${1:-}" in
  --smoke) for t in "${targets[@]}"; do run_one "$t" -max_total_time=5 || exit 1; done ;;
  "") for t in "${targets[@]}"; do run_one "$t" -runs=1000000 -max_total_time=1800 || exit 1; done ;;
  *)
    t="$1"; shift
    if [ $# -gt 0 ] && [ -f "$1" ]; then  # replay inputs (files), no fuzzing
      OPENCV_IO_MAX_IMAGE_PIXELS=4194304 "$build/fuzz_$t" "$@" || { echo "fuzz: $t fails on $*" >&2; exit 1; }
    else
      run_one "$t" "$@" || exit 1
    fi ;;
esac
