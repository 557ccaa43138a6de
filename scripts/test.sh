#!/usr/bin/env bash
# Set up, build and run every test, in two configurations:
#   1. Release (build/), what scripts/run.sh builds and a user runs: klx,
#      klx-opt, klx-run and the benchmarks, checked by the lit tests (every
#      sample and every CLI contract, on the optimized binaries).
#   2. AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/,
#      scripts/sanitize.sh): every test -- lit, unit, GUI, lanes, format,
#      runtime-alone and the GPU samples (skipped, saying why, without a
#      GPU).
# Every test runs in an environment of its own (tests/checks/clean-env.sh).
# Test outputs (screenshots) land in build-asan/test-output/. At the end,
# or where a phase fails, the time each phase took.
#   KLX_SKIP_SANITIZE=1   the Release pass alone, for a quick run
#   extra arguments       passed to both ctest runs (-R lit, -V, ...)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${KLX_BUILD_DIR:-$root/build}

phases=()
current=""
started=$SECONDS
phaseStart=$SECONDS
report() {
  local status=$?
  [[ -n $current ]] && phases+=("$current|$((SECONDS - phaseStart))|failed")
  echo
  echo "test: time per phase"
  local entry name seconds result
  for entry in "${phases[@]}"; do
    IFS='|' read -r name seconds result <<<"$entry"
    printf '  %-34s %4d:%02d  %s\n' "$name" $((seconds / 60)) \
      $((seconds % 60)) "$result"
  done
  local total=$((SECONDS - started))
  printf '  %-34s %4d:%02d\n' "total" $((total / 60)) $((total % 60))
  exit $status
}
trap report EXIT
# phase NAME COMMAND...: runs COMMAND as the phase NAME, timed.
phase() {
  current=$1
  phaseStart=$SECONDS
  shift
  "$@"
  phases+=("$current|$((SECONDS - phaseStart))|ok")
  current=""
}
# ctest says why each test it skipped was skipped.
skipped() {
  grep -h "^SKIPPED: " "$1/Testing/Temporary/LastTest.log" 2>/dev/null || true
}
releaseTests() {
  (cd "$build" && ctest --output-on-failure -L release "$@")
  skipped "$build"
}

phase "setup (apt)" "$root/scripts/setup.sh"
phase "Release: build" "$root/scripts/build.sh"
phase "Release: tests (lit)" releaseTests "$@"
if [[ ${KLX_SKIP_SANITIZE:-0} != 1 ]]; then
  echo "test: every test again under AddressSanitizer + UndefinedBehaviorSanitizer"
  phase "ASan+UBSan: setup and build" "$root/scripts/sanitize.sh" build
  phase "ASan+UBSan: tests (all)" "$root/scripts/sanitize.sh" test "$@"
fi
