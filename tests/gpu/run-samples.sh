#!/usr/bin/env bash
# GPU correctness of every NVIDIA klx sample: export bundles (where klx is
# built), then launch each with klx-run at several sizes, some not square,
# one with a single k step, two not multiples of the tile, and check every
# element (klx-run's own check).
#   run-samples.sh export DIR             klx export into DIR/NAME
#   run-samples.sh run DIR [KLX_RUN]      klx-run on each bundle in DIR
#   run-samples.sh all BUILD_BIN          both; exits 77 (skipped) with the
#                                         reason when there is no GPU
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# The last two are not multiples of the tile: ragged tiles at the edges.
sizes=(512x768x512 1024x1024x64 2048x4096x512 256x256x4160 1000x1000x1000 200x136x72)
# A kernel that reduces rows within a tile takes N up to tile_n: the
# classifier head's N of 64, 200 (ragged) and 256, M and K as above.
row_sizes=(512x64x512 1024x200x64 2048x256x512 256x64x4160 1000x200x1000 200x128x72)
# Gathers: one block, a million elements, and 2^24 + 256 (not a power of 2).
gather_sizes=(256 1048576 16777472)

export_bundles() {
  local klx=$1 out=$2 nv=$root/samples/nvidia
  rm -rf "$out" && mkdir -p "$out"
  # The samples' own schedules (128 x 256 tiles and TMA stores for
  # gemm_ws_persistent), then variants of each epilogue.
  "$klx" export $nv/gemm_ws_persistent.mlir --trace -o "$out/ws_persistent" >/dev/null &&
  "$klx" export $nv/gemm_ws_persistent.mlir -D persistent=0 -o "$out/ws_tiles" >/dev/null &&
  "$klx" export $nv/gemm_ws_persistent.mlir -D group_m=3 -o "$out/ws_group3" >/dev/null &&
  "$klx" export $nv/gemm_ws_persistent.mlir -D warp_specialize=0 -o "$out/no_roles" >/dev/null &&
  "$klx" export $nv/gemm_ws_persistent.mlir -D warp_specialize=0 -D stages=1 -D consumers=1 -D tile_n=128 -o "$out/no_roles_1stage" >/dev/null &&
  "$klx" export $nv/gemm_ws_persistent.mlir -D dtype=bf16 -o "$out/ws_bf16" >/dev/null &&
  "$klx" export $nv/gemm_ws_persistent.mlir -D tile_m=256 -D tile_n=128 -D stages=3 -o "$out/ws_m256" >/dev/null &&
  "$klx" export $nv/gemm_ws_persistent.mlir -D epilogue=direct -o "$out/ws_direct" >/dev/null &&
  "$klx" export $nv/gemm_ws_persistent.mlir -D epilogue=direct -D tile_n=128 -o "$out/ws_direct_n128" >/dev/null &&
  "$klx" export $nv/gemm_ws_persistent.mlir -D epilogue=direct -D persistent=0 -o "$out/ws_tiles_direct" >/dev/null &&
  "$klx" export $nv/gemm_ws_persistent.mlir -D epilogue=direct -D dtype=bf16 -o "$out/ws_bf16_direct" >/dev/null &&
  "$klx" export $nv/gemm_ws_persistent.mlir -D epilogue=direct -D tile_m=256 -D tile_n=128 -D stages=3 -o "$out/ws_m256_direct" >/dev/null &&
  "$klx" export $nv/gemm_ws_persistent.mlir -D epilogue=direct -D warp_specialize=0 -o "$out/no_roles_direct" >/dev/null &&
  "$klx" export $nv/gemm_ws_persistent.mlir -D cluster_m=2 -o "$out/ws_cluster_m2" >/dev/null &&
  "$klx" export $nv/gemm_ws_persistent.mlir -D cluster_n=2 -o "$out/ws_cluster_n2" >/dev/null &&
  "$klx" export $nv/gemm_ws_persistent.mlir -D cluster_m=4 -o "$out/ws_cluster_m4" >/dev/null &&
  "$klx" export $nv/gemm_ws_persistent.mlir -D cluster_m=2 -D tile_n=128 -D out_dtype=bf16 -o "$out/ws_cluster_m2_n128_out_bf16" >/dev/null &&
  "$klx" export $nv/gemm_ws_persistent.mlir -D cluster_n=4 -D dtype=bf16 -D group_m=1 -o "$out/ws_cluster_n4_bf16" >/dev/null &&
  "$klx" export $nv/gemm_ws_persistent.mlir -D raster=hilbert -o "$out/ws_hilbert" >/dev/null &&
  "$klx" export $nv/gemm_ws_persistent.mlir -D raster=row -o "$out/ws_raster_row" >/dev/null &&
  "$klx" export $nv/gemm_ws_persistent.mlir -D raster=hilbert -D cluster_m=2 -o "$out/ws_hilbert_cluster_m2" >/dev/null &&
  "$klx" export $nv/gemm_two_producers.mlir -o "$out/two_producers" >/dev/null &&
  "$klx" export $nv/gemm_two_producers.mlir -D epilogue=direct -o "$out/two_producers_direct" >/dev/null &&
  "$klx" export $nv/gemm_pingpong.mlir -o "$out/pingpong" >/dev/null &&
  "$klx" export $nv/gemm_pingpong.mlir -D dtype=bf16 -D stages=3 -o "$out/pingpong_bf16" >/dev/null &&
  "$klx" export $nv/gemm_pingpong.mlir -D epilogue=direct -o "$out/pingpong_direct" >/dev/null &&
  "$klx" export $nv/gemm_pingpong.mlir -D tile_n=192 -D stages=3 -o "$out/pingpong_n192" >/dev/null &&
  "$klx" export $nv/gemm_ws_persistent.mlir -D tile_m=256 -D tile_n=192 -D stages=2 -o "$out/ws_m256_n192" >/dev/null &&
  "$klx" export $nv/gemm_ws_persistent.mlir -D out_dtype=bf16 -D dtype=bf16 -o "$out/ws_out_bf16" >/dev/null &&
  "$klx" export $nv/gemm_ws_persistent.mlir -D out_dtype=f16 -o "$out/ws_out_f16" >/dev/null &&
  "$klx" export $nv/gemm_ws_persistent.mlir -D out_dtype=bf16 -D tile_m=256 -D tile_n=192 -D stages=2 -o "$out/ws_m256_n192_out_bf16" >/dev/null &&
  "$klx" export $nv/gemm_pingpong.mlir -D out_dtype=bf16 -D tile_n=192 -D stages=3 -o "$out/pingpong_n192_out_bf16" >/dev/null &&
  "$klx" export $nv/gemm_two_producers.mlir -D out_dtype=f16 -o "$out/two_producers_out_f16" >/dev/null &&
  "$klx" export $nv/linear_gelu.mlir -o "$out/linear_gelu" >/dev/null &&
  "$klx" export $nv/linear_gelu.mlir -D out_dtype=f32 -o "$out/linear_gelu_f32" >/dev/null &&
  "$klx" export $nv/linear_gelu.mlir -D epilogue=direct -D out_dtype=f32 -D tile_n=128 -o "$out/linear_gelu_direct" >/dev/null &&
  "$klx" export $nv/linear_gelu.mlir -D consumers=1 -D tile_m=64 -o "$out/linear_gelu_m64" >/dev/null &&
  "$klx" export $nv/classifier_head.mlir -o "$out/classifier_head" >/dev/null &&
  "$klx" export $nv/classifier_head.mlir -D out_dtype=f32 -o "$out/classifier_head_f32" >/dev/null &&
  "$klx" export $nv/classifier_head.mlir -D consumers=1 -D tile_m=64 -o "$out/classifier_head_m64" >/dev/null &&
  "$klx" export $nv/gemm_tma_wgmma.mlir -o "$out/tma_wgmma_handwritten" >/dev/null &&
  "$klx" export $nv/gemm_bar_array.mlir -D const_reg_tensor=0 -o "$out/bar_array" >/dev/null &&
  "$klx" export $nv/gemm_bar_array.mlir -D const_reg_tensor=1 -o "$out/bar_array_arith" >/dev/null &&
  "$klx" export $nv/gemm_two_producers.mlir -D shared_full_barrier=1 -o "$out/broken/two_producers_shared" >/dev/null &&
  "$klx" export $nv/gather_indirect.mlir -o "$out/gathers/indirect" >/dev/null &&
  "$klx" export $nv/gather_indirect.mlir -D bridge_steps=1 -o "$out/gathers/indirect_bridged" >/dev/null &&
  "$klx" export $nv/gather_direct.mlir -o "$out/gathers/direct" >/dev/null
}

run_bundles() {
  local dir=$1 run=$2 failed=0 log
  log=$(mktemp)
  for bundle in "$dir"/*/; do
    [[ -f $bundle/manifest.json ]] || continue
    local name
    name=$(basename "$bundle")
    local these=("${sizes[@]}")
    [[ $name == classifier_head* ]] && these=("${row_sizes[@]}")
    for size in "${these[@]}"; do
      "$run" "$bundle" --size="$size" --repeat=3 --no-baseline >"$log" 2>&1
      local rc=$?
      if [[ $rc -eq 2 ]] && grep -q "no CUDA device" "$log"; then
        echo "SKIPPED: $(grep -o 'no CUDA device.*' "$log" | head -1)"
        rm -f "$log"
        return 77
      fi
      printf '%-16s %-14s rc=%d  %s\n' "$name" "$size" "$rc" \
        "$(grep -o 'rel. error [^,]*' "$log" | head -1)"
      if [[ $rc -ne 0 ]]; then
        failed=1
        cat "$log"
      fi
    done
  done
  # The gathers: every element of y against the CPU, exactly.
  for bundle in "$dir"/gathers/*/; do
    [[ -f $bundle/manifest.json ]] || continue
    local name
    name=$(basename "$bundle")
    for size in "${gather_sizes[@]}"; do
      "$run" "$bundle" --size="$size" --repeat=5 >"$log" 2>&1
      local rc=$?
      printf '%-16s %-14s rc=%d  %s %s\n' "$name" "$size" "$rc" \
        "$(grep -o 'rel. error [^,]*, max abs [^,]*' "$log" | head -1)" \
        "$(grep -o 'throughput: [0-9.]* GB/s' "$log" | head -1)"
      if [[ $rc -ne 0 ]]; then
        failed=1
        cat "$log"
      fi
    done
  done
  # A kernel that hangs: the warp-specialized GEMM launched without its
  # producer warpgroup (block 256 of 384), so nothing fills the stages and
  # the consumers wait on the full barriers forever. klx-run must say so
  # within the timeout, exit 3, and leave the GPU usable.
  local hang
  hang=$(mktemp -d)
  cp "$dir/ws_persistent/"* "$hang/"
  sed -i -e '/"block": \[/{n;s/384/256/}' "$hang/manifest.json"
  "$run" "$hang" --size=512x512x512 --timeout-ms=1500 --no-baseline >"$log" 2>&1
  local rc=$?
  printf '%-16s %-14s rc=%d  %s\n' "no_producer" "512x512x512" "$rc" \
    "$(grep -o 'hang: .*' "$log" | head -1)"
  # The kernel's protocol is sound (the launch is what is wrong), and the
  # report says so from the simulator.
  if [[ $rc -ne 3 ]] || ! grep -q "hang: no completion after 1500 ms" "$log" ||
     ! grep -q "simulator: the simulated protocol completes" "$log"; then
    failed=1
    cat "$log"
  fi
  "$run" "$dir/ws_persistent" --size=512x512x512 --repeat=1 --no-baseline >"$log" 2>&1 ||
    { failed=1; echo "the GPU did not recover after the hang:"; cat "$log"; }
  # The measured timeline: the instrumented build runs, checks, and writes
  # a trace with events from both roles.
  "$run" "$dir/ws_persistent" --size=1024x1024x1024 --repeat=3 --no-baseline \
    --trace="$hang.json" >"$log" 2>&1
  rc=$?
  printf '%-16s %-14s rc=%d  %s\n' "trace" "1024x1024x1024" "$rc" \
    "$(grep -o 'trace: [0-9]* events.*' "$log" | head -1)"
  if [[ $rc -ne 0 ]] || ! grep -q '"warp 8 (producer)"' "$hang.json" ||
     ! grep -q '"args":{"name":"SMs"}' "$hang.json" ||
     ! grep -q '"warp 0 (consumer)"' "$hang.json"; then
    failed=1
    cat "$log"
  fi
  rm -f "$hang.json"
  # The known deadlock (two producers on one full barrier initialised for
  # one arrival) must be reported, as a hang or as a kernel fault, never
  # pass, and leave the GPU usable.
  if [[ -d $dir/broken/two_producers_shared ]]; then
    "$run" "$dir/broken/two_producers_shared" --size=1024x1024x2048 \
      --timeout-ms=2000 --no-baseline >"$log" 2>&1
    rc=$?
    printf '%-16s %-14s rc=%d  %s\n' "shared_full" "1024x1024x2048" "$rc" \
      "$(grep -o 'result: .*' "$log" | head -1)"
    if ! { [[ $rc -eq 3 ]] && grep -q "result: hang" "$log"; } &&
       ! { [[ $rc -eq 1 ]] && grep -q "result: kernel_fault" "$log"; } ||
       ! grep -q "simulator: the simulated protocol deadlocks too" "$log"; then
      failed=1
      cat "$log"
    fi
    "$run" "$dir/ws_persistent" --size=512x512x512 --repeat=1 --no-baseline >"$log" 2>&1 ||
      { failed=1; echo "the GPU did not recover after the deadlock:"; cat "$log"; }
  fi
  # Out of device memory (D alone is 275 GB): a driver error, exit 2, and
  # the GPU usable after it.
  "$run" "$dir/ws_persistent" --size=262144x262144x8192 --no-baseline >"$log" 2>&1
  rc=$?
  printf '%-16s %-14s rc=%d  %s\n' "out_of_memory" "262144^2x8192" "$rc" \
    "$(grep -o 'result: .*' "$log" | head -1)"
  if [[ $rc -ne 2 ]] || ! grep -q "CUDA_ERROR_OUT_OF_MEMORY" "$log"; then
    failed=1
    cat "$log"
  fi
  "$run" "$dir/ws_persistent" --size=512x512x512 --repeat=1 --no-baseline >"$log" 2>&1 ||
    { failed=1; echo "the GPU did not recover after running out of memory:"; cat "$log"; }
  rm -rf "$hang" "$log"
  return $failed
}

case ${1:-} in
export) export_bundles "${KLX:-$root/build/bin/klx}" "$2" ;;
run) run_bundles "$2" "${3:-$root/build-run/bin/klx-run}" ;;
all)
  # Without a GPU say so before compiling two dozen bundles for nothing.
  if ! why=$("$2/klx-run" --device 2>&1); then
    echo "SKIPPED: ${why#klx-run: }"
    exit 77
  fi
  dir=$(mktemp -d)
  export_bundles "$2/klx" "$dir" || exit 1
  run_bundles "$dir" "$2/klx-run"
  rc=$?
  rm -rf "$dir"
  exit $rc
  ;;
*)
  echo "usage: $0 export DIR | run DIR [KLX_RUN] | all BUILD_BIN" >&2
  exit 2
  ;;
esac
