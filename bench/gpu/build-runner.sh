#!/usr/bin/env bash
# Builds klx-run from runtime/ alone (no MLIR, no CUDA toolkit needed) into
# ${1:-build-run}, and prints where cuBLAS is, for KLX_CUBLAS. Used on the
# GPU machine, which has CMake and a C++ compiler but no MLIR.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build-run}
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
# nlohmann's JSON: the system's, else the copy bench/gpu/carry-json.sh
# put in .deps/include (the GPU machine has no apt).
json=()
if [[ ! -f /usr/include/nlohmann/json.hpp && -f $root/.deps/include/nlohmann/json.hpp ]]; then
  json=(-DKLX_NLOHMANN_INCLUDE="$root/.deps/include")
fi
cmake -S "$root/runtime" -B "$out" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "${json[@]}" >/dev/null
cmake --build "$out" >/dev/null
echo "built $out/bin/klx-run" >&2
# cuBLAS: the CUDA toolkit's, else the one PyTorch ships.
for candidate in /usr/local/cuda/lib64/libcublas.so.13 /usr/local/cuda/lib64/libcublas.so.12 \
    $(python3 -c 'import nvidia.cublas as m; print(" ".join(p + "/lib/libcublas.so.12" for p in m.__path__))' 2>/dev/null); do
  if [[ -f $candidate ]]; then
    echo "$candidate"
    exit 0
  fi
done
echo "build-runner: no cuBLAS found; klx-run will time klx alone" >&2
