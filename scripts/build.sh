#!/usr/bin/env bash
# Configures (once) and builds klx into build/ (Release): the programs a
# user runs (klx, klx-opt, klx-run) and the benchmarks; `build.sh all`
# also builds the test programs. Used by run.sh and test.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${KLX_BUILD_DIR:-$root/build}
if [[ ! -f $build/build.ninja ]]; then
  cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22
fi
if [[ ${1:-} == all ]]; then
  cmake --build "$build"
else
  cmake --build "$build" --target klx-programs
fi
