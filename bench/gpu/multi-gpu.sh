#!/usr/bin/env bash
# One sweep run on one GPU, then on every GPU of the host: where each run
# landed, its figures against the one-GPU run's, and the wall time per GPU
# count.
#   multi-gpu.sh export DIR   here, where klx is built: klx sweep of the
#                             sample's tile_n x stages at 8192^3 and 4096^3
#   multi-gpu.sh run DIR      on a machine with several GPUs: builds
#                             klx-run, prints the cards, runs klx-run
#                             --sweep DIR with --gpus=0, then --gpus=all
#                             (3 processes per variant and size each),
#                             writes DIR-gpus-N.json and compares them
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
mode=${1:?export or run}
dir=${2:?the sweep folder}
case $mode in
export)
  klx=${KLX:-$root/build/bin/klx}
  rm -rf "$dir"
  "$klx" sweep "$root/samples/nvidia/gemm_ws_persistent.mlir" -D dtype=bf16 \
    -D tile_n=128,256 -D stages=3,4,5 \
    --size=8192x8192x8192 --size=4096x4096x4096 -o "$dir"
  ;;
run)
  source "$root/bench/gpu/gpu-common.sh"
  nvidia-smi -L
  nvidia-smi --query-gpu=index,pci.bus_id --format=csv,noheader
  echo "card: before:"; card
  status=0
  for gpus in 0 all; do
    start=$(date +%s.%N)
    "$KLX_RUN" --sweep "$dir" --gpus=$gpus --procs=${PROCS:-3} --json \
      >"$dir-gpus-$gpus.json" 2>"$dir-gpus-$gpus.log" || status=$?
    end=$(date +%s.%N)
    echo "sweep --gpus=$gpus: wall $(python3 -c "print(f'{$end - $start:.1f}')") s"
    cat "$dir-gpus-$gpus.log"
  done
  echo "card: after:"; card
  echo "card: cuBLAS $KLX_CUBLAS; $(nvidia-smi | grep -o 'CUDA Version: [0-9.]*'); $(date -u +%F)"
  python3 "$root/bench/gpu/compare-sweeps.py" "$dir-gpus-0.json" "$dir-gpus-all.json"
  exit $status
  ;;
*)
  echo "usage: multi-gpu.sh export|run DIR" >&2
  exit 2
  ;;
esac
