#!/usr/bin/env bash
# The technique ladder of the warp-specialized GEMM: each rung adds one
# technique to the rung before, all measured in one run.
#   ladder.sh export DIR     here, where klx is built: klx sweep --ladder
#   ladder.sh run DIR        on the GPU machine: builds klx-run from
#                            runtime/, prints the card (GPU, driver, CUDA,
#                            clocks before and after, cuBLAS, date), runs
#                            klx-run --sweep DIR (3 processes per rung and
#                            size) and writes DIR.json and DIR.csv
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
mode=${1:?export or run}
dir=${2:?the ladder folder}
case $mode in
export)
  klx=${KLX:-$root/build/bin/klx}
  rm -rf "$dir"
  "$klx" sweep "$root/samples/nvidia/gemm_ws_persistent.mlir" -D dtype=bf16 \
    --size=8192x8192x8192 --size=4096x4096x4096 -o "$dir" \
    --ladder="TMA + wgmma, one 128x128 tile per CTA, one stage: warp_specialize=0,persistent=0,tile_n=128,epilogue=direct,group_m=1,stages=1,consumers=1" \
    --ladder="two consumer warpgroups: consumers=2" \
    --ladder="4 stages, each released after its MMA: stages=4,deferred_release=0" \
    --ladder="one MMA in flight (stages released a step later): deferred_release=1" \
    --ladder="128x256 tiles: tile_n=256" \
    --ladder="warp specialization (40/232 registers): warp_specialize=1" \
    --ladder="persistent: persistent=1" \
    --ladder="TMA-store epilogue: epilogue=tma" \
    --ladder="clusters of 2 sharing B (multicast): cluster_m=2" \
    --ladder="tile order, groups of 4 rows: group_m=4"
  ;;
run)
  source "$root/bench/gpu/gpu-common.sh"
  before=$(card)
  status=0
  "$KLX_RUN" --sweep "$dir" --procs=${PROCS:-3} --json \
    --csv="$dir.csv" >"$dir.json" || status=$?
  echo "card: before: $before"
  echo "card: after: $(card)"
  echo "card: cuBLAS $KLX_CUBLAS; $(nvidia-smi | grep -o 'CUDA Version: [0-9.]*'); $(date -u +%F)"
  cat "$dir.csv"
  exit $status
  ;;
*)
  echo "usage: ladder.sh export|run DIR" >&2
  exit 2
  ;;
esac
