#!/usr/bin/env bash
# runtime/ (klx-run) builds on its own, as on a GPU machine without LLVM:
# a fresh CMake project of that folder alone, and no include of LLVM,
# MLIR or ImGui in its sources.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: runtime-alone.sh BUILD_DIR [CXX]}
cxx=${2:-}
if grep -rnE '#include +[<"](llvm|mlir|imgui)' "$root/runtime"; then
  echo "runtime-alone: runtime/ includes LLVM, MLIR or ImGui (above)"
  exit 1
fi
rm -rf "$out"
cmake -S "$root/runtime" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  ${cxx:+-DCMAKE_CXX_COMPILER="$cxx"} >"$out.log" 2>&1 ||
  { cat "$out.log"; exit 1; }
cmake --build "$out" >>"$out.log" 2>&1 || { cat "$out.log"; exit 1; }
test -x "$out/bin/klx-run"
echo "runtime-alone: klx-run built from runtime/ alone in $out"
