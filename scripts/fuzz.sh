#!/usr/bin/env bash
# Fuzzes "source text -> parse -> the whole MLIR pipeline -> PTX/AMDGCN"
# with libFuzzer for SECONDS (default 600), seeded with every sample and
# the kept regressions. Builds klx under ASan + UBSan with coverage
# instrumentation for the fuzzer (KLX_FUZZ) in build-fuzz/, a folder of
# its own: the test suite's sanitizer build (build-asan/) is not slowed by
# it. Crashes are written to tests/fuzz/regressions/ (crash-*, timeout-*,
# oom-*), which the unit tests replay once they are fixed.
#   scripts/fuzz.sh [SECONDS] [JOBS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${KLX_FUZZ_BUILD_DIR:-$root/build-fuzz}
seconds=${1:-600}
jobs=${2:-1}
fuzzer=$build/bin/klx-fuzz-pipeline
bash "$root/scripts/setup.sh" libclang-rt-22-dev
if [[ ! -f $build/build.ninja ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DKLX_SANITIZE=ON -DKLX_FUZZ=ON -DKLX_BUILD_APP=OFF -DKLX_BUILD_TESTS=OFF
fi
cmake --build "$build" --target klx-fuzz-pipeline
corpus=${KLX_FUZZ_CORPUS:-$build/fuzz-corpus}
mkdir -p "$corpus"
# Seeds: every sample; the AMD ones led by a line naming each AMD target;
# schedule variants led by -D values (tests/fuzz/FuzzInput.h); the
# regressions.
cp "$root"/samples/*/*.mlir "$corpus"/
for f in "$root"/samples/amd/*.mlir; do
  for target in gfx942 gfx950; do
    { echo "// fuzz: $target"; cat "$f"; } > "$corpus/$target-$(basename "$f")"
  done
  { echo "// fuzz: gfx942 alias_scopes=0"; cat "$f"; } > "$corpus/noscope-$(basename "$f")"
done
seed() { # NAME SAMPLE HEADER
  { echo "// fuzz: $3"; cat "$root/samples/$2"; } > "$corpus/$1.mlir"
}
seed ws-stages1 nvidia/gemm_ws_persistent.mlir "stages=1 consumers=1"
seed ws-flat nvidia/gemm_ws_persistent.mlir "warp_specialize=0 persistent=0"
seed ws-tiles nvidia/gemm_ws_persistent.mlir "tile_n=64 tile_k=32 group_m=8"
seed ws-regs nvidia/gemm_ws_persistent.mlir "producer_regs=24 consumer_regs=240"
seed pingpong-stages nvidia/gemm_pingpong.mlir "stages=2"
seed two-producers nvidia/gemm_two_producers.mlir "stages=3"
seed gather-bridged nvidia/gather_indirect.mlir "bridge_steps=1"
seed bar-array nvidia/gemm_bar_array.mlir "const_reg_tensor=1"
cp "$root"/tests/fuzz/regressions/* "$corpus"/ 2>/dev/null || true
# allow_user_poisoning=0: see scripts/sanitize.sh.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:allow_user_poisoning=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
parallel=()
((jobs > 1)) && parallel=(-jobs="$jobs" -workers="$jobs")
mkdir -p "$build/fuzz-work" && cd "$build/fuzz-work"
exec "$fuzzer" "$corpus" -max_total_time="$seconds" -timeout=30 \
  -rss_limit_mb=4096 -max_len=16384 -print_final_stats=1 \
  -artifact_prefix="$root/tests/fuzz/regressions/" \
  -dict="$root/tests/fuzz/mlir.dict" "${parallel[@]}"
