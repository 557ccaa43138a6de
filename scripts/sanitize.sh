#!/usr/bin/env bash
# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer,
# in build-asan/ (klx's own code instrumented; Debian's libMLIR/libLLVM,
# Mesa and GLFW are not). Built at -O1 with line tables only: what a
# sanitizer report needs (file:line in each frame) at a fraction of the
# compile time of full debug info. Installs libclang-rt-22-dev (the
# sanitizer runtimes) when it is missing. The libFuzzer build is
# scripts/fuzz.sh's, in a folder of its own.
#   scripts/sanitize.sh            configure, build, run ctest
#   scripts/sanitize.sh build      configure and build only
#   scripts/sanitize.sh test ARGS  run ctest ARGS on what is built
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${KLX_ASAN_BUILD_DIR:-$root/build-asan}
mode=${1:-all}
[[ $mode == build || $mode == test ]] && shift

if [[ $mode != test ]]; then
  bash "$root/scripts/setup.sh" libclang-rt-22-dev
  if [[ ! -f $build/build.ninja ]]; then
    flags="-O1 -gline-tables-only -DNDEBUG"
    cmake -S "$root" -B "$build" -G Ninja \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_FLAGS_RELWITHDEBINFO="$flags" \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$flags" \
      -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
      -DKLX_SANITIZE=ON
  fi
  cmake --build "$build"
fi
[[ $mode == build ]] && exit 0

# Leaks are checked; what uninstrumented GL drivers keep for the life of
# the process is not ours to fix (tests/asan/lsan.supp names them).
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its slabs when
# compiled with ASan (our code, inlined from the headers) and the
# uninstrumented libMLIR then allocates from the same slabs without
# unpoisoning; without it every MLIR parse reports a use-after-poison.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:allow_user_poisoning=0}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/tests/asan/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
cd "$build"
status=0
# Two tests at a time: the GUI tests wait on their windows much of the
# time, and lit and the unit tests fill the cores meanwhile (the tests'
# COST properties start the longest first).
ctest --output-on-failure --parallel 2 "$@" || status=$?
# ctest hides the output of skipped tests; say why each was skipped.
grep -h "^SKIPPED: " Testing/Temporary/LastTest.log 2>/dev/null || true
exit $status
