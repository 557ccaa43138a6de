#!/usr/bin/env bash
# Exports the GEMM schedules that bench/gpu/gemm-8192.sh compares, as bf16
# bundles under ${1:-bench-bundles}/NAME. Runs where klx is built.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/bench-bundles}
klx=${KLX:-$root/build/bin/klx}
size=8192x8192x8192
nv=$root/samples/nvidia
export_one() {
  local name=$1 file=$2
  shift 2
  "$klx" export "$nv/$file" -D dtype=bf16 --size=$size "$@" -o "$out/$name" >/dev/null
  echo "$name: $file $*"
}
# The sample's own schedule (128 x 256 tiles, TMA-store epilogue, groups
# of 4 tile rows), then one change at a time.
export_one ws_persistent gemm_ws_persistent.mlir
export_one ws_persistent_direct gemm_ws_persistent.mlir -D epilogue=direct
export_one ws_persistent_n128 gemm_ws_persistent.mlir -D tile_n=128
export_one ws_persistent_n128_direct gemm_ws_persistent.mlir -D tile_n=128 -D epilogue=direct
export_one ws_persistent_g1 gemm_ws_persistent.mlir -D group_m=1
export_one ws_persistent_g8 gemm_ws_persistent.mlir -D group_m=8
export_one no_warp_specialization gemm_ws_persistent.mlir -D warp_specialize=0
# Clusters: two or four CTAs share B (a column of tiles, cluster_m) or A
# (a row, cluster_n), each loading its share and multicasting it.
export_one ws_cluster_m2 gemm_ws_persistent.mlir -D cluster_m=2
export_one ws_cluster_n2 gemm_ws_persistent.mlir -D cluster_n=2
export_one ws_cluster_m4 gemm_ws_persistent.mlir -D cluster_m=4
export_one ws_cluster_m2_g8 gemm_ws_persistent.mlir -D cluster_m=2 -D group_m=8
export_one ws_cluster_m2_out_bf16 gemm_ws_persistent.mlir -D cluster_m=2 -D out_dtype=bf16
# Tile order: 8 x 8 blocks along a Hilbert curve, and row by row.
export_one ws_hilbert gemm_ws_persistent.mlir -D raster=hilbert
export_one ws_raster_row gemm_ws_persistent.mlir -D raster=row
export_one ws_cluster_m2_hilbert gemm_ws_persistent.mlir -D cluster_m=2 -D raster=hilbert
export_one pingpong gemm_pingpong.mlir
export_one pingpong_g4 gemm_pingpong.mlir -D group_m=4
export_one pingpong_direct gemm_pingpong.mlir -D epilogue=direct
export_one two_producers gemm_two_producers.mlir
# D in bf16: the accumulators rounded in the epilogue (cuBLAS writes bf16
# too in those rows).
export_one ws_persistent_out_bf16 gemm_ws_persistent.mlir -D out_dtype=bf16
export_one no_warp_specialization_out_bf16 gemm_ws_persistent.mlir -D warp_specialize=0 -D out_dtype=bf16
